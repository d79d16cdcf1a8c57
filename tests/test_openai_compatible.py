"""OpenAICompatibleChatModel and its profiles through AgentRuntime, the real SDK and real HTTP.

Every run goes runtime -> adapter -> openai SDK -> the owned HTTP client -> LocalChatServer on
127.0.0.1 and back; what each profile changes is read from the requests the server recorded.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import agentcore
from agentcore import (
    CHAT_PROFILES,
    AgentRuntime,
    ChatProfile,
    DeepSeekChatModel,
    OpenAICompatibleChatModel,
    ProviderResponseError,
    ProviderStatusError,
    ScriptedWeatherModel,
    build_tools,
    weather_request,
)
from agentcore.course.offline_replies import weather_script
from agentcore.course.text import explain
from agentcore.providers.chat_profiles import DEEPSEEK, GENERIC, LM_STUDIO, OLLAMA
from agentcore.providers.local_chat_server import THINKING_400, LocalChatServer
from agentcore.providers.local_server import Reply, function_call, http_error, message, reasoning

KEY = "sk-compat-test-4f1e9a7c2b6d0e38"
"""A made-up key: the tests check it reaches the server and appears nowhere else."""
MODEL = "deepseek-flash"  # a model the loopback server serves
USER = weather_request()
EXPECTED = AgentRuntime(ScriptedWeatherModel(), build_tools()).run(USER).answer


def adapter(server: LocalChatServer, **options: Any) -> OpenAICompatibleChatModel:
    options.setdefault("api_key", KEY)
    return OpenAICompatibleChatModel(MODEL, base_url=server.base_url, max_retries=0, **options)


def assistant_with_calls(body: dict[str, Any]) -> dict[str, Any]:
    return next(m for m in body["messages"] if m["role"] == "assistant" and m.get("tool_calls"))


@pytest.mark.parametrize("name", sorted(CHAT_PROFILES))
def test_every_profile_runs_the_weather_task_to_the_scripted_answer(name: str) -> None:
    thinks = CHAT_PROFILES[name].replays_reasoning_content  # DeepSeek's profile: thinking mode
    with LocalChatServer(weather_script(), thinking=thinks) as server:
        result = AgentRuntime(adapter(server, profile=name), build_tools()).run(USER)
    assert result.answer == EXPECTED
    assert [m["role"] for m in result.messages] == [
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
    ]
    assert [request.path for request in server.requests] == ["/chat/completions"] * 3
    assert all(request.sent_bearer(KEY) for request in server.requests)


def test_strict_is_sent_on_every_function_only_when_asked_and_the_profile_supports_it() -> None:
    with LocalChatServer(weather_script(), thinking=True) as server:
        AgentRuntime(adapter(server, profile=DEEPSEEK, strict=True), build_tools()).run(USER)
    functions = [tool["function"] for tool in server.requests[0].body["tools"]]
    assert [function.get("strict") for function in functions] == [True, True]

    with LocalChatServer(weather_script(), thinking=True) as server:
        AgentRuntime(adapter(server, profile=DEEPSEEK), build_tools()).run(USER)
    assert all("strict" not in tool["function"] for tool in server.requests[0].body["tools"])


@pytest.mark.parametrize("profile", [OLLAMA, LM_STUDIO, GENERIC, "vllm", "llama-server"])
def test_strict_on_a_profile_without_it_is_refused_before_anything_is_sent(
    profile: ChatProfile | str,
) -> None:
    with (
        LocalChatServer(weather_script()) as server,
        pytest.raises(ValueError, match="does not support strict"),
    ):
        adapter(server, profile=profile, strict=True)
    assert server.requests == []


def test_deepseek_profile_replays_reasoning_content_so_thinking_mode_completes() -> None:
    with LocalChatServer(weather_script(), thinking=True) as server:
        result = AgentRuntime(adapter(server, profile="deepseek"), build_tools()).run(USER)
    assert result.answer == EXPECTED
    sent_back = assistant_with_calls(server.requests[1].body)
    assert sent_back["reasoning_content"].startswith("(scripted reasoning, not a model's)")


def test_a_profile_without_replay_keeps_reasoning_in_the_transcript_but_does_not_send_it() -> None:
    thought = reasoning("Tokyo first, then convert.")
    script = [
        Reply(output=(thought, function_call("get_teaching_weather", {"city": "Tokyo"}, "c1"))),
        Reply(output=(message("Tokyo is cloudy."),)),
    ]
    with LocalChatServer(script) as server:
        result = AgentRuntime(adapter(server, profile=OLLAMA), build_tools()).run(USER)
    assert result.answer == "Tokyo is cloudy."
    request = result.messages[1]
    assert list(request["provider_items"]) == [{"reasoning_content": "Tokyo first, then convert."}]
    sent_back = assistant_with_calls(server.requests[1].body)
    assert "reasoning_content" not in sent_back
    assert sent_back["tool_calls"][0]["id"] == "c1"


def test_against_deepseek_thinking_mode_a_profile_without_replay_gets_deepseeks_400() -> None:
    # What the DEEPSEEK profile's replays_reasoning_content prevents, shown by its absence.
    with (
        LocalChatServer(weather_script(), thinking=True) as server,
        pytest.raises(ProviderStatusError) as caught,
    ):
        AgentRuntime(adapter(server, profile=GENERIC), build_tools()).run(USER)
    assert caught.value.status_code == 400
    assert caught.value.provider_message == THINKING_400
    assert "reasoning_content" not in assistant_with_calls(server.requests[1].body)
    assert server.replies_played == 1


def test_no_key_is_taken_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "DEEPSEEK_API_KEY"):
        monkeypatch.setenv(name, KEY)
    with LocalChatServer(weather_script()) as server:
        model = OpenAICompatibleChatModel(MODEL, base_url=server.base_url, max_retries=0)
        with pytest.raises(ProviderStatusError) as caught:
            model.generate([{"role": "user", "content": USER}], [])
    assert caught.value.status_code == 401
    assert "authorization" not in server.requests[0].headers
    assert server.replies_played == 0


def test_the_key_stays_out_of_the_repr_and_the_profile_is_named() -> None:
    with LocalChatServer(weather_script()) as server:
        model = adapter(server, profile="lm-studio")
        text = repr(model)
    assert KEY not in text
    assert text.startswith("OpenAICompatibleChatModel(model='deepseek-flash', base_url='http://")
    assert text.endswith("timeout=60.0, max_retries=0, profile='lm-studio')")


def test_settings_are_checked_with_errors_that_say_what_to_change() -> None:
    base = "http://127.0.0.1:9/v1"
    with pytest.raises(ValueError, match="profile must be a ChatProfile or one of deepseek"):
        OpenAICompatibleChatModel(MODEL, base_url=base, profile="ollamma")
    with pytest.raises(TypeError, match="profile must be a ChatProfile"):
        OpenAICompatibleChatModel(MODEL, base_url=base, profile=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="model must not be empty"):
        OpenAICompatibleChatModel(" ", base_url=base)
    with pytest.raises(ValueError, match="base_url must not be empty"):
        OpenAICompatibleChatModel(MODEL, base_url="")
    with pytest.raises(ValueError, match="api_key holds a space"):
        OpenAICompatibleChatModel(MODEL, base_url=base, api_key="sk one")


def test_deepseek_chat_model_is_this_adapter_with_deepseeks_profile() -> None:
    model = DeepSeekChatModel(MODEL, api_key=KEY, base_url="http://127.0.0.1:9")
    assert isinstance(model, OpenAICompatibleChatModel)
    assert model.profile is DEEPSEEK
    assert "profile" not in repr(model)  # its repr is what it was before the extraction


def test_every_profile_cites_its_documentation() -> None:
    for name, profile in CHAT_PROFILES.items():
        assert profile.name == name
        if profile is not GENERIC:
            assert profile.docs and all(url.startswith("https://") for url in profile.docs)
    with pytest.raises(AttributeError):
        DEEPSEEK.supports_strict = False  # type: ignore[misc]


def test_the_generic_adapter_is_public_and_loaded_lazily() -> None:
    assert {"OpenAICompatibleChatModel", "ChatProfile", "CHAT_PROFILES"} <= set(agentcore.__all__)
    assert json.dumps(sorted(CHAT_PROFILES)) == json.dumps(
        ["deepseek", "generic", "llama-cpp-python", "llama-server", "lm-studio", "ollama", "vllm"]
    )


# --- each adapter's own hints ----------------------------------------------------------------

HINTED_STATUSES = {
    "401": http_error(401, "Authentication Fails"),
    "402": http_error(402, "Insufficient Balance"),
    "403": http_error(403, "Forbidden"),
    "404": http_error(404, "404 page not found"),
    "model not exist": http_error(400, "Model Not Exist"),
    "reasoning dropped": http_error(400, THINKING_400),
    "redirect": Reply(http_status=308, headers=(("Location", "https://elsewhere.example/v1"),)),
}


@pytest.mark.parametrize("status", HINTED_STATUSES)
@pytest.mark.parametrize("profile", ["ollama", "generic", "llama-server"])
def test_a_server_status_names_this_adapters_settings_not_deepseeks(
    status: str, profile: str
) -> None:
    with (
        LocalChatServer([HINTED_STATUSES[status]]) as server,
        adapter(server, profile=profile) as model,
        pytest.raises(ProviderStatusError) as caught,
    ):
        model.generate([{"role": "user", "content": "Hi"}], [])
    assert caught.value.hints == "server"
    for text in (str(caught.value), explain(caught.value, "en"), explain(caught.value, "zh-CN")):
        assert "DEEPSEEK_" not in text and "deepseek.com" not in text, text
    if status in ("401", "404", "model not exist", "redirect"):
        assert "--" in caught.value.hint  # the command line's flag is named beside the argument


@pytest.mark.parametrize("status", ["401", "404", "model not exist", "redirect"])
def test_deepseeks_adapters_keep_naming_deepseeks_settings(status: str) -> None:
    with LocalChatServer([HINTED_STATUSES[status]]) as server:
        model = DeepSeekChatModel(MODEL, api_key=KEY, base_url=server.base_url, max_retries=0)
        with pytest.raises(ProviderStatusError) as caught, model:
            model.generate([{"role": "user", "content": "Hi"}], [])
    assert caught.value.hints == "deepseek"
    assert "DEEPSEEK_" in str(caught.value)


class OllamaLikeServer(LocalChatServer):
    """Serves Chat Completions under /v1 only, as Ollama does (http://localhost:11434/v1)."""

    path = "/v1/chat/completions"

    def _serves(self, path: str) -> bool:
        return path.rstrip("/") == self.path


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_the_doctor_against_a_server_without_v1_names_base_url_and_v1(
    language: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from agentcore.course.cli import main

    with OllamaLikeServer([], requires_key=False) as server:
        argv = ["doctor", "--base-url", server.base_url, "--model", MODEL, "--profile", "ollama"]
        assert main([*argv, "--language", language]) == 1
    out = capsys.readouterr().out
    assert "DEEPSEEK" not in out and "deepseek.com" not in out
    assert "/v1" in out and "base_url" in out and "--model" in out


# --- a reply's own words are kept -------------------------------------------------------------


def completion_with(message_fields: dict[str, Any]) -> str:
    return json.dumps(
        {
            "id": "chatcmpl-raw",
            "object": "chat.completion",
            "created": 0,
            "model": MODEL,
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "tool_calls",
                    "message": {"role": "assistant", "content": None, **message_fields},
                }
            ],
        }
    )


def test_a_200_reply_holding_an_error_keeps_the_servers_message() -> None:
    # Was: "Chat completion '?' holds no choice."
    body = {"error": {"message": "model 'llama9' not found, try pulling it first", "code": 404}}
    with (
        LocalChatServer([Reply(raw_body=json.dumps(body))]) as server,
        adapter(server) as model,
        pytest.raises(ProviderResponseError) as caught,
    ):
        model.generate([{"role": "user", "content": "Hi"}], [])
    assert caught.value.kind == "error body"
    assert "model 'llama9' not found, try pulling it first" in str(caught.value)
    assert "no choice" not in str(caught.value)


@pytest.mark.parametrize("function", [None, "get_weather", ["get_weather"]])
def test_a_call_without_a_function_object_says_so(function: Any) -> None:
    # Was: "The tool call 'call-1' is of type 'function', not a function."
    call: dict[str, Any] = {"id": "call-1", "type": "function"}
    if function is not None:
        call["function"] = function
    with (
        LocalChatServer([Reply(raw_body=completion_with({"tool_calls": [call]}))]) as server,
        adapter(server) as model,
        pytest.raises(ProviderResponseError) as caught,
    ):
        model.generate([{"role": "user", "content": "Hi"}], [])
    said = str(caught.value)
    assert "where its function (name and arguments) belongs" in said
    assert "not a function" not in said
    assert ("no function object" if function is None else type(function).__name__) in said
