"""DeepSeekChatModel through AgentRuntime, the real openai SDK and real HTTP on 127.0.0.1.

Every run here goes: runtime -> adapter -> SDK -> the shared trust boundary
(agentcore.providers.http) -> HTTP -> LocalChatServer and back. The request bodies the server
recorded are what went over the wire.
"""

from __future__ import annotations

import gzip
import json
import logging
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from chapter import CHAPTER_ANSWER, chapter_transcript

from agentcore import (
    AgentRuntime,
    AgentRuntimeError,
    DeepSeekChatModel,
    Model,
    ModelError,
    ProviderConfigurationError,
    ProviderError,
    ProviderRequestError,
    ProviderResponseError,
    ProviderStatusError,
    ProviderTimeoutError,
    ScriptedWeatherModel,
    Tool,
    build_tools,
    weather_request,
)
from agentcore.course.cli import INSTRUCTIONS, main
from agentcore.course.offline_replies import weather_script
from agentcore.course.teaching_tools import WEATHER_TOOL, WeatherArguments, get_teaching_weather
from agentcore.providers.local_chat_server import THINKING_400, LocalChatServer
from agentcore.providers.local_server import (
    Reply,
    function_call,
    http_error,
    message,
    reasoning,
)

KEY = "sk-chat-test-9d2b6f4a1c8e3b70"
"""A made-up key: the tests check it reaches the server and appears nowhere else."""
MODEL = "deepseek-flash"
USER = weather_request()
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": tool.name,
            "description": tool.description,
            "parameters": tool.schema()["parameters"],  # passed through unchanged
        },
    }
    for tool in build_tools()
]
USER_MESSAGE = {"role": "user", "content": USER}
WEATHER_MESSAGES = [
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call-weather",
                "type": "function",
                "function": {"name": "get_teaching_weather", "arguments": '{"city": "Tokyo"}'},
            }
        ],
    },
    {
        "role": "tool",
        "tool_call_id": "call-weather",
        "content": '{"city": "Tokyo", "temperature_c": 18.0, "condition": "cloudy"}',
    },
]
CONVERT_MESSAGES = [
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call-convert",
                "type": "function",
                "function": {
                    "name": "celsius_to_fahrenheit",
                    "arguments": '{"temperature_c": 18.0}',
                },
            }
        ],
    },
    {"role": "tool", "tool_call_id": "call-convert", "content": '{"temperature_f": 64.4}'},
]


OPENAI_VARIABLES = (
    "OPENAI_API_KEY",
    "OPENAI_ADMIN_KEY",
    "OPENAI_BASE_URL",
    "OPENAI_ORG_ID",
    "OPENAI_PROJECT_ID",
    "OPENAI_CUSTOM_HEADERS",
)
PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY")


@pytest.fixture(autouse=True)
def _no_settings_of_the_developer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nobody's own DEEPSEEK_*, OPENAI_* or proxy settings change what these tests see."""
    for name in ("DEEPSEEK_API_KEY", "DEEPSEEK_MODEL", "DEEPSEEK_BASE_URL", *OPENAI_VARIABLES):
        monkeypatch.delenv(name, raising=False)
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)


def adapter(server: LocalChatServer, **options: Any) -> DeepSeekChatModel:
    """The adapter pointed at the local server; no retries and a short deadline keep it fast."""
    settings: dict[str, Any] = {
        "api_key": KEY,
        "base_url": server.base_url,
        "max_retries": 0,
        "timeout": 5.0,
    }
    return DeepSeekChatModel(MODEL, **{**settings, **options})


# --- the chapter's trajectory over the wire -------------------------------------------------


def test_weather_trajectory_sends_every_body_exactly_and_the_whole_transcript_each_turn() -> None:
    with LocalChatServer(weather_script(), thinking=True) as server:
        result = AgentRuntime(adapter(server, reasoning_effort="none"), build_tools()).run(USER)

    assert result.answer == CHAPTER_ANSWER
    assert (result.model_turns, result.tool_executions) == (3, 2)
    off = {"thinking": {"type": "disabled"}}
    assert [request.body for request in server.requests] == [
        {"model": MODEL, "messages": [USER_MESSAGE], "tools": TOOLS, **off},
        {"model": MODEL, "messages": [USER_MESSAGE, *WEATHER_MESSAGES], "tools": TOOLS, **off},
        {
            "model": MODEL,
            "messages": [USER_MESSAGE, *WEATHER_MESSAGES, *CONVERT_MESSAGES],
            "tools": TOOLS,
            **off,
        },
    ]
    for request in server.requests:
        assert (request.method, request.path) == ("POST", "/chat/completions")
        assert request.sent_bearer(KEY)


def test_the_transcript_is_the_scripted_models_and_the_responses_adapters() -> None:
    with LocalChatServer(weather_script(), thinking=True) as server:
        model = adapter(server, reasoning_effort="none")  # no reasoning in the transcript
        over_http = AgentRuntime(model, build_tools()).run(USER)
    in_process = AgentRuntime(ScriptedWeatherModel(), build_tools()).run(USER)
    assert over_http.messages == in_process.messages == chapter_transcript(USER)


def test_the_adapter_is_a_model_and_the_package_exports_it_lazily() -> None:
    import agentcore.providers.deepseek_chat

    assert agentcore.DeepSeekChatModel is agentcore.providers.deepseek_chat.DeepSeekChatModel
    assert "DeepSeekChatModel" in agentcore.__all__
    with LocalChatServer([]) as server:
        assert isinstance(adapter(server), Model)


def test_instructions_go_first_as_a_system_message() -> None:
    with LocalChatServer([Reply(output=(message("Hello."),))]) as server:
        AgentRuntime(adapter(server, instructions="Use the tools."), []).run("Hi")
    assert server.requests[0].body == {
        "model": MODEL,
        "messages": [
            {"role": "system", "content": "Use the tools."},
            {"role": "user", "content": "Hi"},
        ],
    }


# --- several calls in one reply -------------------------------------------------------------


def spy_weather_tool(seen: list[str]) -> Tool:
    def handler(city: str) -> dict[str, Any]:
        seen.append(city)
        return get_teaching_weather(city)

    return Tool(WEATHER_TOOL.name, WEATHER_TOOL.description, WeatherArguments, handler)


def test_two_calls_in_one_reply_run_in_order_and_are_answered_by_id() -> None:
    seen: list[str] = []
    script = [
        Reply(
            output=(
                function_call("get_teaching_weather", {"city": "Paris"}, "call-a"),
                function_call("get_teaching_weather", {"city": "Tokyo"}, "call-b"),
            )
        ),
        Reply(output=(message("Paris 12.0°C, Tokyo 18.0°C."),)),
    ]
    with LocalChatServer(script, thinking=True) as server:
        model = adapter(server, reasoning_effort="none")  # no reasoning in the bodies
        result = AgentRuntime(model, [spy_weather_tool(seen)]).run("Both cities?")

    assert seen == ["Paris", "Tokyo"]
    assert result.model_turns == 2
    assert server.requests[1].body["messages"] == [
        {"role": "user", "content": "Both cities?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call-a",
                    "type": "function",
                    "function": {"name": "get_teaching_weather", "arguments": '{"city": "Paris"}'},
                },
                {
                    "id": "call-b",
                    "type": "function",
                    "function": {"name": "get_teaching_weather", "arguments": '{"city": "Tokyo"}'},
                },
            ],
        },
        {
            "role": "tool",
            "tool_call_id": "call-a",
            "content": '{"city": "Paris", "temperature_c": 12.0, "condition": "light rain"}',
        },
        {
            "role": "tool",
            "tool_call_id": "call-b",
            "content": '{"city": "Tokyo", "temperature_c": 18.0, "condition": "cloudy"}',
        },
    ]


# --- thinking mode --------------------------------------------------------------------------


def test_thinking_mode_sends_back_the_reasoning_of_every_reply_of_a_tool_calling_turn() -> None:
    script = [
        Reply(
            output=(
                reasoning("Tokyo needs the weather tool."),
                message("Let me look."),
                function_call("get_teaching_weather", {"city": "Tokyo"}, "call-weather"),
            )
        ),
        Reply(output=(reasoning("Enough to answer."), message("Tokyo is 18.0°C."))),
        Reply(output=(message("Hello again."),)),
    ]
    with LocalChatServer(script, thinking=True) as server:
        model = adapter(server)
        result = AgentRuntime(model, build_tools()).run("Tokyo?")
        model.generate([*result.messages, {"role": "user", "content": "Hi"}], [])

    request_turn, final_turn = result.messages[1], result.messages[3]
    assert request_turn["provider_items"] == [
        {"content": "Let me look.", "reasoning_content": "Tokyo needs the weather tool."}
    ]
    assert final_turn["provider_items"] == [{"reasoning_content": "Enough to answer."}]
    sent_back = {
        "role": "assistant",
        "content": "Let me look.",
        "reasoning_content": "Tokyo needs the weather tool.",
        "tool_calls": WEATHER_MESSAGES[0]["tool_calls"],
    }
    assert server.requests[1].body["messages"][1] == sent_back
    # The final answer belongs to a turn that called tools: its reasoning goes back too
    # (Thinking Mode guide: every assistant message between the two user messages).
    assert server.requests[2].body["messages"][1:] == [
        sent_back,
        WEATHER_MESSAGES[1],
        {
            "role": "assistant",
            "content": "Tokyo is 18.0°C.",
            "reasoning_content": "Enough to answer.",
        },
        {"role": "user", "content": "Hi"},
    ]


def test_a_turn_without_tool_calls_does_not_send_its_reasoning_back() -> None:
    script = [
        Reply(output=(reasoning("Just greet."), message("Hello."))),
        Reply(output=(message("Again."),)),
    ]
    with LocalChatServer(script, thinking=True) as server:
        model = adapter(server)
        result = AgentRuntime(model, build_tools()).run("Hi")
        model.generate([*result.messages, {"role": "user", "content": "Hi"}], [])
    assert result.messages[1]["provider_items"] == [{"reasoning_content": "Just greet."}]
    assert server.requests[1].body["messages"][1] == {"role": "assistant", "content": "Hello."}


def test_a_forgetful_replay_without_reasoning_content_gets_deepseeks_400() -> None:
    with LocalChatServer(weather_script(), thinking=True) as server:
        first = adapter(server).generate([USER_MESSAGE], [])
        assert first.provider_items  # the server thought, and the adapter kept it
        forgetful = [
            USER_MESSAGE,
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [call.as_message_entry() for call in first.tool_calls],
            },
            {"role": "tool", "tool_call_id": "call-weather", "content": "{}"},
        ]
        with pytest.raises(ProviderStatusError) as caught:
            adapter(server).generate(forgetful, [])
    assert caught.value.status_code == 400
    assert caught.value.provider_message == THINKING_400
    assert caught.value.kind == "reasoning dropped"
    assert "reasoning_effort='none'" in caught.value.hint and "thinking off" in caught.value.hint


def test_the_whole_weather_run_in_thinking_mode_replays_every_reasoning() -> None:
    with LocalChatServer(weather_script(), thinking=True) as server:
        result = AgentRuntime(adapter(server), build_tools()).run(USER)
    assert result.answer == CHAPTER_ANSWER
    last = server.requests[-1].body["messages"]
    assert [bool(m.get("reasoning_content")) for m in last if m.get("tool_calls")] == [True, True]


@pytest.mark.parametrize(
    ("effort", "sent"),
    [
        (None, {}),
        ("none", {"thinking": {"type": "disabled"}}),
        ("low", {"reasoning_effort": "low"}),
        ("high", {"reasoning_effort": "high"}),
        ("max", {"reasoning_effort": "max"}),
    ],
)
def test_reasoning_effort_is_sent_as_deepseek_documents_it(
    effort: str | None, sent: dict[str, Any]
) -> None:
    with LocalChatServer([Reply(output=(message("Hello."),))], thinking=True) as server:
        result = AgentRuntime(adapter(server, reasoning_effort=effort), []).run("Hi")
    assert server.requests[0].body == {
        "model": MODEL,
        "messages": [{"role": "user", "content": "Hi"}],
        **sent,
    }
    assert bool(result.messages[-1].get("provider_items")) == (effort != "none")


def test_strict_sends_strict_functions_to_the_beta_base_url() -> None:
    with LocalChatServer(weather_script(), thinking=True) as server:
        model = adapter(server, strict=True, base_url=server.base_url + "/beta")
        AgentRuntime(model, build_tools()).run(USER)
    assert server.requests[0].path == "/beta/chat/completions"
    for tool, expected in zip(server.requests[0].body["tools"], TOOLS, strict=True):
        assert tool == {"type": "function", "function": {**expected["function"], "strict": True}}
    assert "strict=True" in repr(model)


# --- rejected replies: typed errors with hints, the transcript kept, no handler run ----------

GOOD_FIRST_TURN = Reply(
    output=(function_call("get_teaching_weather", {"city": "Tokyo"}, "call-weather"),)
)


def run_into(reply: Reply, **options: Any) -> tuple[ProviderError, LocalChatServer]:
    """Play a good first turn, then ``reply``; return the error the run ended with."""
    with (
        LocalChatServer([GOOD_FIRST_TURN, reply], thinking=True) as server,
        pytest.raises(ProviderError) as caught,
    ):
        AgentRuntime(adapter(server, **options), build_tools()).run(USER)
    error = caught.value
    assert isinstance(error, ModelError) and isinstance(error, AgentRuntimeError)
    assert (error.model_turns, error.tool_executions) == (2, 1)
    assert [entry["role"] for entry in error.messages][:3] == ["user", "assistant", "tool"]
    return error, server


def completion_body(choices: Any) -> str:
    return json.dumps({"id": "chatcmpl-x", "object": "chat.completion", "choices": choices})


@pytest.mark.parametrize(
    ("reply", "said", "hint"),
    [
        (
            Reply(status="incomplete", incomplete_reason="max_output_tokens"),
            "finish_reason 'length'",
            "cut off",
        ),
        (
            Reply(status="incomplete", incomplete_reason="content_filter"),
            "finish_reason 'content_filter'",
            "content filter",
        ),
        (
            Reply(status="incomplete", incomplete_reason="insufficient_system_resource"),
            "finish_reason 'insufficient_system_resource'",
            "capacity",
        ),
        (Reply(output=()), "holds no tool call and no text", "run again"),
        (Reply(output=(message("   "),)), "holds no tool call and no text", "run again"),
        (Reply(raw_body=completion_body([])), "holds no choice", "Chat Completions API"),
        (Reply(raw_body=json.dumps({"id": "x"})), "holds no choice", "Chat Completions API"),
        (
            Reply(raw_body=completion_body([{"index": 0, "finish_reason": "stop"}])),
            "choice without a message",
            "Chat Completions API",
        ),
        (
            Reply(
                raw_body=completion_body(
                    [{"message": {"role": "assistant", "content": 5}, "finish_reason": "stop"}]
                )
            ),
            "not shaped like a Chat Completions object",
            "Chat Completions API",
        ),
        (
            Reply(raw_body=completion_body("not a list")),
            "holds no choice",
            "Chat Completions API",
        ),
        (
            Reply(output=(function_call("celsius_to_fahrenheit", '{"temperature_c": 18', "c"),)),
            "are not JSON",
            "No tool ran",
        ),
        (
            Reply(output=(function_call("celsius_to_fahrenheit", {"temperature_c": 1}, ""),)),
            "has an empty id",
            "paired",
        ),
    ],
)
def test_every_bad_reply_is_a_response_error_with_a_hint(
    reply: Reply, said: str, hint: str
) -> None:
    error, _ = run_into(reply)
    assert type(error) is ProviderResponseError
    assert said in str(error)
    assert hint in error.hint and error.hint in str(error)


def test_a_refused_reply_keeps_the_raw_message_as_rejected() -> None:
    bad = function_call("celsius_to_fahrenheit", '{"temperature_c": NaN}', "call-convert")
    error, _ = run_into(Reply(output=(bad,)))
    (rejected,) = error.rejected
    assert rejected["reasoning_content"]  # the thinking server's, kept as it came
    assert {key: value for key, value in rejected.items() if key != "reasoning_content"} == (
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call-convert",
                    "type": "function",
                    "function": {
                        "name": "celsius_to_fahrenheit",
                        "arguments": '{"temperature_c": NaN}',
                    },
                }
            ],
        }
    )


def test_the_same_call_id_twice_is_refused_and_recorded() -> None:
    call = function_call("celsius_to_fahrenheit", {"temperature_c": 18.0}, "call-x")
    with (
        LocalChatServer([Reply(output=(call, call))]) as server,
        pytest.raises(ProviderResponseError, match="share the id 'call-x'") as caught,
    ):
        AgentRuntime(adapter(server), build_tools()).run(USER)
    assert caught.value.tool_executions == 0
    (recorded,) = caught.value.messages[-1]["rejected"]
    assert [call["id"] for call in recorded["tool_calls"]] == ["call-x", "call-x"]


# --- the shared trust boundary, through this adapter ----------------------------------------


@pytest.mark.parametrize(
    ("status", "hint_names"),
    [(401, "DEEPSEEK_API_KEY"), (402, "Top up"), (429, "Wait a little"), (503, "Wait a little")],
)
def test_http_error_statuses_are_the_shared_typed_error_with_its_hint(
    status: int, hint_names: str
) -> None:
    error, _ = run_into(http_error(status, "provider says no"))
    assert type(error) is ProviderStatusError
    assert (error.status_code, error.provider_message) == (status, "provider says no")
    assert hint_names in error.hint


def test_an_unknown_model_is_400_model_not_exist_with_the_shared_hint() -> None:
    with LocalChatServer([]) as server, pytest.raises(ProviderStatusError) as caught:
        AgentRuntime(
            DeepSeekChatModel(
                "deepseek-chat-v9", api_key=KEY, base_url=server.base_url, max_retries=0
            ),
            [],
        ).run("Hi")
    assert caught.value.status_code == 400
    assert "Model Not Exist" in str(caught.value)
    assert "deepseek-flash" in caught.value.hint


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("OPENAI_CUSTOM_HEADERS", "Authorization: Bearer sk-openai-learner-key\nX-Team: blue"),
        ("OPENAI_ORG_ID", "org-learner"),
        ("OPENAI_PROJECT_ID", "proj-learner"),
        ("OPENAI_BASE_URL", "http://127.0.0.1:9/v1"),
        ("OPENAI_API_KEY", "sk-openai-learner-key"),
        ("OPENAI_ADMIN_KEY", "sk-admin-learner-key"),
    ],
)
def test_openai_variables_never_reach_a_request(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    with LocalChatServer(weather_script(), api_key=KEY, thinking=True) as server:
        result = AgentRuntime(adapter(server), build_tools()).run(USER)
    assert result.model_turns == 3  # every request reached this server, with this key
    for request in server.requests:
        assert request.sent_bearer(KEY)
        assert not {"openai-organization", "openai-project", "x-team"} & set(request.headers)
        assert not [header for header in request.headers.values() if "learner" in header]


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_loopback_traffic_never_goes_through_the_learners_proxy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    proxy = f"http://127.0.0.1:{closed_port()}"
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.setenv(name, proxy)
    with LocalChatServer(weather_script(), thinking=True) as server:
        assert AgentRuntime(adapter(server), build_tools()).run(USER).answer == CHAPTER_ANSWER


def test_provider_traffic_goes_through_the_learners_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    # A local server plays the proxy: the request for the provider's host arrives there.
    with LocalChatServer([]) as proxy:
        monkeypatch.setenv("HTTP_PROXY", proxy.base_url)
        monkeypatch.setenv("http_proxy", proxy.base_url)
        model = DeepSeekChatModel(MODEL, api_key=KEY, base_url="http://provider.example",
                                  max_retries=0)  # fmt: skip
        with pytest.raises(ProviderStatusError):
            AgentRuntime(model, build_tools()).run(USER)
    assert [request.path for request in proxy.requests] == [
        "http://provider.example/chat/completions"
    ]


def test_the_cli_offline_chat_run_ignores_a_proxy_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{closed_port()}")
    assert main(["--provider", "deepseek", "--api", "chat", "--offline"]) == 0
    assert CHAPTER_ANSWER in capsys.readouterr().out


def test_a_redirect_is_not_followed_and_names_its_host() -> None:
    redirect = Reply(http_status=307, headers=(("Location", "http://elsewhere.example/x"),))
    error, server = run_into(redirect)
    assert type(error) is ProviderStatusError
    assert error.status_code == 307
    assert "elsewhere.example" in str(error)
    assert len(server.requests) == 2  # nothing was sent to the other host


def test_a_redirect_holding_the_key_names_its_host_redacted() -> None:
    redirect = Reply(http_status=302, headers=(("Location", f"http://{KEY}.example/"),))
    error, _ = run_into(redirect)
    assert "<redacted>.example" in str(error)
    assert KEY not in "".join(_texts_of(error))


def test_a_gzip_bomb_stops_at_the_decoded_cap() -> None:
    bomb = gzip.compress(b'{"choices": "' + b"x" * 20_000_000 + b'"}')
    error, _ = run_into(Reply(raw_body=bomb, headers=(("Content-Encoding", "gzip"),)))
    assert type(error) is ProviderResponseError
    assert "expands past" in str(error)


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (b"not gzip at all", "its gzip compression is broken"),
        # mtime=0: the same bytes every run, so every xdist worker collects the same test ids
        (gzip.compress(completion_body([]).encode(), mtime=0)[:20], "its gzip stream is cut short"),
    ],
    ids=["not gzip", "cut short"],
)
def test_a_broken_gzip_body_is_a_response_error_not_a_connection_error(
    body: bytes, said: str
) -> None:
    error, _ = run_into(Reply(raw_body=body, headers=(("Content-Encoding", "gzip"),)))
    assert type(error) is ProviderResponseError
    assert said in str(error)
    assert "connect" not in str(error).lower()


def test_a_good_gzip_reply_is_read() -> None:
    body = completion_body(
        [{"message": {"role": "assistant", "content": "Zipped."}, "finish_reason": "stop"}]
    )
    reply = Reply(raw_body=gzip.compress(body.encode()), headers=(("Content-Encoding", "gzip"),))
    with LocalChatServer([reply]) as server:
        assert AgentRuntime(adapter(server), []).run("Hi").answer == "Zipped."
    assert server.requests[0].headers["accept-encoding"] == "gzip, deflate"


def test_a_body_over_the_wire_cap_is_refused() -> None:
    error, _ = run_into(Reply(raw_body=b"[" + b"1," * 2_100_000 + b"1]"))
    assert type(error) is ProviderResponseError
    assert "over the adapter's limit" in str(error)


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (b'{"id": "\xff"}', "not valid UTF-8"),
        (b"[" * 100_000 + b"]" * 100_000, "nested deeper than"),
        (b"<html>busy</html>", "it is not JSON"),
    ],
)
def test_an_unreadable_body_is_a_response_error(body: bytes, said: str) -> None:
    error, _ = run_into(Reply(raw_body=body))
    assert type(error) is ProviderResponseError
    assert said in str(error)


def test_a_slow_drip_server_cannot_hold_a_call_past_the_deadline() -> None:
    started = time.monotonic()
    error, _ = run_into(Reply(output=(message("late"),), drip_seconds=0.2), timeout=1.0)
    assert type(error) is ProviderTimeoutError
    assert time.monotonic() - started < 4.0


def test_a_key_after_180_characters_is_redacted_before_the_preview_is_cut() -> None:
    error, _ = run_into(http_error(401, "x" * 180 + f" your api key: {KEY}"))
    assert KEY[:8] not in str(error)
    assert len(error.provider_message) <= 201


def test_an_unpaired_transcript_is_refused_before_anything_is_sent() -> None:
    orphan = [USER_MESSAGE, {"role": "tool", "tool_call_id": "call-9", "content": "{}"}]
    unanswered = [USER_MESSAGE, {**chapter_transcript(USER)[1]}]
    with LocalChatServer([]) as server:
        for transcript, said in ((orphan, "'call-9'"), (unanswered, "'call-weather'")):
            with pytest.raises(ProviderRequestError, match=said):
                adapter(server).generate(transcript, [])
    assert server.requests == []


# --- configuration --------------------------------------------------------------------------


def test_settings_are_read_and_checked_as_the_responses_adapter_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(ProviderConfigurationError, match=r"^DEEPSEEK_API_KEY and DEEPSEEK_MODEL"):
        DeepSeekChatModel()
    monkeypatch.setenv("DEEPSEEK_API_KEY", KEY)
    monkeypatch.setenv("DEEPSEEK_MODEL", "deepseek-v4-flash")
    assert DeepSeekChatModel().base_url == "https://api.deepseek.com"
    with LocalChatServer([Reply(output=(message("Hello."),))]) as server:
        monkeypatch.setenv("DEEPSEEK_BASE_URL", server.base_url)
        AgentRuntime(DeepSeekChatModel(max_retries=0), []).run("Hi")
    assert server.requests[0].body["model"] == "deepseek-v4-flash"
    assert server.requests[0].sent_bearer(KEY)


@pytest.mark.parametrize(
    ("options", "error", "match"),
    [
        ({"strict": "yes"}, TypeError, "strict must be True or False"),
        ({"reasoning_effort": "medium"}, ValueError, "reasoning_effort must be one of none"),
        ({"max_retries": 6}, ValueError, "max_retries must be at most 5"),
        ({"timeout": 0}, ValueError, "timeout must be a positive number"),
        ({"max_arguments_chars": 0}, ValueError, "max_arguments_chars must be at least 1"),
        ({"api_key": "sk-a b"}, ProviderConfigurationError, "DEEPSEEK_API_KEY holds"),
    ],
)
def test_bad_settings_are_refused(
    options: dict[str, Any], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        DeepSeekChatModel(MODEL, **{"api_key": KEY, **options})


# --- the command line -----------------------------------------------------------------------


def test_cli_api_chat_offline_plays_the_chapter_over_local_http(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--provider", "deepseek", "--api", "chat", "--offline"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("offline: DeepSeekChatModel sends real HTTP requests")
    assert lines[-2] == f"[3] FINAL   {CHAPTER_ANSWER}"


def test_cli_api_chat_online_sends_the_instructions_as_a_system_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DEEPSEEK_API_KEY", KEY)
    monkeypatch.setenv("DEEPSEEK_MODEL", MODEL)
    with LocalChatServer(weather_script(), thinking=True) as server:
        monkeypatch.setenv("DEEPSEEK_BASE_URL", server.base_url)
        assert main(["--provider", "deepseek", "--api", "chat"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        f"provider: DeepSeek Chat Completions API at {server.base_url}, model {MODEL}\n"
    )
    assert [r.body["messages"][0] for r in server.requests] == [
        {"role": "system", "content": INSTRUCTIONS}
    ] * 3
    assert KEY not in out


def test_cli_api_goes_only_with_deepseek(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--api", "chat"])
    assert caught.value.code == 2
    assert "--api goes with --provider deepseek" in capsys.readouterr().err


# --- the API key appears nowhere ------------------------------------------------------------


def _texts_of(error: BaseException) -> Iterator[str]:
    """str and repr of an error and of everything chained to it."""
    seen: BaseException | None = error
    while seen is not None:
        yield str(seen)
        yield repr(seen)
        seen = seen.__cause__ or seen.__context__


def test_the_key_never_appears_in_output_logs_errors_reprs_or_transcripts(
    capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    seen: list[str] = []
    with LocalChatServer(weather_script(), thinking=True) as server:
        model = adapter(server)
        result = AgentRuntime(model, build_tools(), verbose=True).run(USER)
        seen += [repr(model), str(model), repr(result), json.dumps(result.messages)]
        seen += [repr(server.requests), repr(server)]
    failures = [
        http_error(401, f"Authentication Fails, your api key: {KEY} is invalid"),
        http_error(400, "x" * 180 + KEY),
        Reply(output=(message(f"the key is {KEY}"),)),  # a reply that echoes the key
        Reply(output=(function_call("celsius_to_fahrenheit", "{" + KEY, "call-convert"),)),
        Reply(raw_body=completion_body([{"message": {"content": KEY}, "finish_reason": KEY}])),
    ]
    for failure in failures:
        with LocalChatServer([GOOD_FIRST_TURN, failure]) as server:
            try:
                outcome = AgentRuntime(adapter(server), build_tools(), verbose=True).run(USER)
            except ProviderError as error:
                seen += list(_texts_of(error))
                seen += [json.dumps(error.messages), repr(error.rejected)]
            else:
                seen += [repr(outcome), json.dumps(outcome.messages)]
            seen.append(repr(server.requests))
    captured = capsys.readouterr()
    seen += [captured.out, captured.err, caplog.text]
    seen += [str(record.__dict__) for record in caplog.records]

    every = "\n".join(seen)
    assert "<redacted>" in every  # the echoed keys were replaced, not dropped
    runs = {KEY[start : start + 8] for start in range(len(KEY) - 7)}  # any 8 characters of it
    assert not [text for text in seen if any(run in text for run in runs)]
    assert server.requests[0].sent_bearer(KEY)  # yet the key was sent where it belongs
