"""The ten server quirks of issue 22, each played by LocalChatServer and met by the adapter.

Every run goes runtime -> OpenAICompatibleChatModel -> openai SDK -> real HTTP ->
LocalChatServer(quirks=...) on 127.0.0.1. What a learner would notice is asserted: the run's
answer and transcript when the adapter absorbs the quirk, the typed error (and that no tool
ran) when it refuses it.
"""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest

from agentcore import (
    CHAT_PROFILES,
    AgentRuntime,
    OpenAICompatibleChatModel,
    ProviderResponseError,
    ProviderStatusError,
    ScriptedWeatherModel,
    ToolArgumentsError,
    build_tools,
    weather_request,
)
from agentcore.course.offline_replies import weather_script
from agentcore.providers.errors import ServerQuirkError
from agentcore.providers.local_chat_server import QUIRKS, TOOLS_DROPPED_TEXT, LocalChatServer
from agentcore.providers.local_server import Reply, function_call, message

MODEL = "deepseek-flash"
KEY = "sk-quirk-test-7d2e91c04b"
USER = weather_request()
EXPECTED = AgentRuntime(ScriptedWeatherModel(), build_tools()).run(USER).answer


def run(quirk: str, profile: str = "generic", **options: Any) -> tuple[Any, LocalChatServer]:
    """Run the weather task against a server playing ``quirk``; return (result or error)."""
    with LocalChatServer(weather_script(), quirks=(quirk,), requires_key=False) as server:
        model = OpenAICompatibleChatModel(
            MODEL, base_url=server.base_url, profile=profile, max_retries=0, **options
        )
        runtime = AgentRuntime(model, build_tools())
        try:
            outcome: Any = runtime.run(USER)
        except Exception as error:  # the test asserts which error, below
            outcome = error
    return outcome, server


def tools_run(error: BaseException) -> int:
    return error.tool_executions  # type: ignore[attr-defined, no-any-return]


def test_the_server_names_ten_quirks_and_refuses_an_unknown_one() -> None:
    assert len(QUIRKS) == 12  # the ten of issue 22 (number 9 has two forms) and llama-cpp-python's
    with pytest.raises(ValueError, match="unknown quirk 'sloppy'; the quirks are arguments-as"):
        LocalChatServer(weather_script(), quirks=("sloppy",))


def test_without_a_key_no_authorization_header_is_sent_and_the_keyless_server_answers() -> None:
    with LocalChatServer(weather_script(), requires_key=False) as server:
        model = OpenAICompatibleChatModel(MODEL, base_url=server.base_url, max_retries=0)
        assert AgentRuntime(model, build_tools()).run(USER).answer == EXPECTED
    assert all("authorization" not in request.headers for request in server.requests)
    with pytest.raises(ValueError, match="requires_key"):
        LocalChatServer([], api_key=KEY, requires_key=False)


# 1. arguments as a JSON object
@pytest.mark.parametrize("profile", ["ollama", "llama-server"])
def test_arguments_as_objects_are_absorbed_stored_and_resent_as_strings(profile: str) -> None:
    result, server = run("arguments-as-object", profile)
    assert result.answer == EXPECTED
    request = result.messages[1]
    assert request["tool_calls"][0]["arguments"] == {"city": "Tokyo"}
    assert {"adapter": {"arguments_were_objects": ["call-weather"]}} in request["provider_items"]
    sent = server.requests[1].body["messages"][1]["tool_calls"][0]["function"]["arguments"]
    assert sent == '{"city": "Tokyo"}'  # the string the format specifies


def test_arguments_as_objects_on_a_profile_that_does_not_expect_them_are_refused() -> None:
    error, _ = run("arguments-as-object", "generic")
    assert isinstance(error, ServerQuirkError)
    assert error.quirk == "arguments-as-object"
    assert "arrived as a JSON object, not a JSON string" in str(error)
    assert tools_run(error) == 0
    assert error.messages[-1]["rejected"][0]["tool_calls"][0]["function"]["arguments"] == {
        "city": "Tokyo"
    }


# 2. a missing call id
def test_a_missing_call_id_is_made_stable_by_turn_and_position_and_marked() -> None:
    result, server = run("missing-call-id", "ollama")
    assert result.answer == EXPECTED
    ids = [m["tool_calls"][0]["call_id"] for m in result.messages if m.get("tool_calls")]
    assert ids == ["call-1-1", "call-2-1"]
    assert [m["tool_call_id"] for m in result.messages if m["role"] == "tool"] == ids
    assert {"adapter": {"made_call_ids": ["call-1-1"]}} in result.messages[1]["provider_items"]
    assert server.requests[1].body["messages"][2] == {
        "role": "tool",
        "tool_call_id": "call-1-1",
        "content": result.messages[2]["content"],
    }


def test_a_missing_call_id_is_refused_by_a_profile_that_does_not_make_ids() -> None:
    error, _ = run("missing-call-id", "deepseek")
    assert isinstance(error, ProviderResponseError)
    assert "has an empty id" in str(error)
    assert tools_run(error) == 0


# 3. concatenated arguments
@pytest.mark.parametrize("profile", ["generic", "ollama"])
def test_concatenated_arguments_are_refused_never_split(profile: str) -> None:
    error, _ = run("concatenated-arguments", profile)
    assert isinstance(error, ServerQuirkError)
    assert error.quirk == "concatenated-arguments"
    assert '{"city": "Tokyo"}{"city": "Tokyo"}' in str(error)
    assert "does not split them by guess" in str(error)
    assert tools_run(error) == 0


def test_two_calls_merged_into_one_are_refused_too() -> None:
    script = [
        Reply(
            output=(
                function_call("get_teaching_weather", {"city": "Tokyo"}, "a"),
                function_call("get_teaching_weather", {"city": "Paris"}, "b"),
            )
        )
    ]
    with LocalChatServer(script, quirks=("concatenated-arguments",)) as server:
        model = OpenAICompatibleChatModel(MODEL, base_url=server.base_url, api_key=KEY)
        with pytest.raises(ServerQuirkError, match=r'\{"city": "Tokyo"\}\{"city": "Paris"\}'):
            model.generate([{"role": "user", "content": USER}], [t.schema() for t in build_tools()])


# 4. the call written as text
@pytest.mark.parametrize(
    ("profile", "flag"),
    [("vllm", "--enable-auto-tool-choice --tool-call-parser NAME"), ("llama-server", "--jinja")],
)
def test_a_call_written_as_text_is_a_typed_outcome_naming_the_flag(profile: str, flag: str) -> None:
    error, _ = run("call-as-text", profile)
    assert isinstance(error, ServerQuirkError)
    assert error.quirk == "call-as-text"
    assert error.fix == flag
    assert f"turn on {flag}" in str(error)
    assert tools_run(error) == 0
    assert "<tool_call>" in error.messages[-1]["rejected"][0]["content"]


def test_a_plain_answer_that_merely_mentions_a_tool_is_still_an_answer() -> None:
    script = [Reply(output=(message("I could call get_teaching_weather, but Tokyo is cloudy."),))]
    with LocalChatServer(script) as server:
        model = OpenAICompatibleChatModel(MODEL, base_url=server.base_url, api_key=KEY)
        result = AgentRuntime(model, build_tools()).run(USER)
    assert result.answer.startswith("I could call")


# 5. finish_reason disagreeing with the reply
def test_a_finish_reason_that_disagrees_is_recorded_and_the_content_decides() -> None:
    result, _ = run("finish-reason-mismatch")
    assert result.answer == EXPECTED
    assistants = [m for m in result.messages if m["role"] == "assistant"]
    assert [m["provider_items"] for m in assistants] == [
        [{"adapter": {"finish_reason": "stop"}}],
        [{"adapter": {"finish_reason": "stop"}}],
        [{"adapter": {"finish_reason": "tool_calls"}}],
    ]


# 6. tools refused until a flag is set
def test_tools_refused_for_a_missing_flag_is_a_status_error_naming_the_flag() -> None:
    error, server = run("tools-need-flag", "llama-server")
    assert isinstance(error, ProviderStatusError)
    assert (error.status_code, error.kind) == (500, "tools need jinja")
    assert "Start llama-server with --jinja" in str(error)
    assert server.replies_played == 0


def test_vllms_wording_names_its_flags() -> None:
    error = ProviderStatusError(
        400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser'
    )
    assert error.kind == "tools need auto tool choice"
    assert "--enable-auto-tool-choice --tool-call-parser NAME" in str(error)


# 7. tools silently dropped
def test_tools_silently_dropped_look_like_an_answer_to_the_runtime() -> None:
    # One turn cannot tell this from a model's choice: `python -m agentcore doctor` can.
    result, server = run("tools-dropped")
    assert result.answer == TOOLS_DROPPED_TEXT
    assert result.tool_executions == 0
    assert "tools" in server.requests[0].body


# 8. strict rejected
def test_strict_rejected_never_reaches_a_profile_that_omits_it() -> None:
    result, server = run("strict-rejected", "vllm")
    assert result.answer == EXPECTED
    assert all("strict" not in t["function"] for t in server.requests[0].body["tools"])
    error, _ = run("strict-rejected", "deepseek", strict=True)  # what omitting it avoids
    assert isinstance(error, ProviderStatusError) and error.status_code == 400


def test_strict_ignored_still_meets_the_runtimes_own_validation() -> None:
    script = [Reply(output=(function_call("get_teaching_weather", {"town": "Tokyo"}, "c"),))]
    with LocalChatServer(script) as server:
        model = OpenAICompatibleChatModel(MODEL, base_url=server.base_url, api_key=KEY)
        with pytest.raises(ToolArgumentsError) as caught:
            AgentRuntime(model, build_tools()).run(USER)
    assert caught.value.tool_executions == 0


# 9. malformed or truncated arguments, or the server's own parse failure
@pytest.mark.parametrize("quirk", ["malformed-arguments", "tool-parse-error"])
def test_malformed_arguments_are_the_usual_malformed_reply_error(quirk: str) -> None:
    error, _ = run(quirk, "ollama")
    assert type(error) is ProviderResponseError
    assert tools_run(error) == 0
    said = "are not JSON" if quirk == "malformed-arguments" else "could not parse the model's"
    assert said in str(error)


# 10. a legacy function_call beside tool_calls
def test_a_legacy_function_call_is_compared_decoded_and_ignored() -> None:
    # The server writes the legacy arguments indented: raw strings differ, decoded JSON not.
    result, _ = run("legacy-function-call")
    assert result.answer == EXPECTED
    assert {"adapter": {"ignored_function_call": 1}} in result.messages[1]["provider_items"]


def test_a_legacy_function_call_that_is_not_one_of_the_tool_calls_is_refused() -> None:
    from agentcore.providers.openai_compatible import to_chat_model_turn

    completion = {
        "choices": [
            {
                "finish_reason": "tool_calls",
                "message": {
                    "content": None,
                    "function_call": {"name": "get_teaching_weather", "arguments": "{}"},
                    "tool_calls": [
                        {
                            "id": "c",
                            "type": "function",
                            "function": {
                                "name": "get_teaching_weather",
                                "arguments": '{"city": "Paris"}',
                            },
                        }
                    ],
                },
            }
        ]
    }
    with pytest.raises(ServerQuirkError) as caught:
        to_chat_model_turn(completion)
    assert caught.value.quirk == "legacy-function-call"
    assert caught.value.rejected  # the refused message is kept for the transcript


def test_quirk_errors_survive_pickling_with_their_fields() -> None:
    error, _ = run("call-as-text", "llama-server")
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.quirk, copy.fix, str(copy)) == (error.quirk, error.fix, str(error))


@pytest.mark.parametrize(
    ("quirk", "profile", "en", "zh"),
    [
        ("call-as-text", "llama-server", "Start llama-server with --jinja.", "加上 --jinja"),
        ("call-as-text", "vllm", "--enable-auto-tool-choice", "--tool-call-parser 两个参数"),
        ("arguments-as-object", "generic", "use profile 'ollama'", "服务器配置 'ollama'"),
        ("concatenated-arguments", "ollama", "never splits them by guess", "不会靠猜测拆分"),
    ],
)
def test_every_quirk_is_explained_in_both_languages_with_what_to_change(
    quirk: str, profile: str, en: str, zh: str
) -> None:
    from agentcore.course.text import explain

    error, _ = run(quirk, profile)
    assert isinstance(error, ServerQuirkError)
    assert en in explain(error, "en")
    assert zh in explain(error, "zh-CN")


def test_the_flag_a_server_needs_is_explained_in_chinese_too() -> None:
    from agentcore.course.text import explain

    error, _ = run("tools-need-flag", "llama-server")
    assert "llama-server 只有以 --jinja 启动时才接受请求里的 'tools'" in explain(error, "zh-CN")


# 11. llama-cpp-python's server: a legacy function_call named "get_weather:" beside tool_calls


def llama_cpp_python_reply(legacy_name: str) -> str:
    """A reply shaped as llama-cpp-python's server builds it with chatml-function-calling when
    the model chose the tool itself (``chatml_function_calling`` in llama_cpp/llama_chat_format.py
    at af63792): ``tool_calls`` from the first completion, and a legacy ``function_call`` with
    the same arguments named by the grammar's next choice (``"<tool>:"``, or ``""``)."""
    arguments = '{"city": "Tokyo"}'
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call__0_get_teaching_weather_cmpl-8f3e",
                "type": "function",
                "function": {"name": "get_teaching_weather", "arguments": arguments},
            }
        ],
        "function_call": {"name": legacy_name, "arguments": arguments},
    }
    return json.dumps(
        {
            "id": "chatcmpl-8f3e",
            "object": "chat.completion",
            "created": 1767225600,
            "model": "qwen2.5-0.5b-instruct-q4_k_m.gguf",
            "choices": [
                {"finish_reason": "tool_calls", "index": 0, "logprobs": None, "message": message}
            ],
            "usage": {"completion_tokens": 9, "prompt_tokens": 180, "total_tokens": 189},
        }
    )


@pytest.mark.parametrize("legacy_name", ["get_teaching_weather:", ""])
def test_llama_cpp_pythons_reply_runs_on_its_profile_and_is_refused_naming_it_elsewhere(
    legacy_name: str,
) -> None:
    script = [Reply(raw_body=llama_cpp_python_reply(legacy_name)), weather_script()[-1]]
    outcomes = {}
    for profile in ("llama-cpp-python", "generic"):
        with LocalChatServer(script, requires_key=False) as server:
            model = OpenAICompatibleChatModel(
                MODEL, base_url=server.base_url, profile=profile, max_retries=0
            )
            try:
                outcomes[profile] = AgentRuntime(model, build_tools()).run(USER)
            except ServerQuirkError as error:
                outcomes[profile] = error
    result = outcomes["llama-cpp-python"]
    assert result.answer == EXPECTED
    assert {"adapter": {"ignored_function_call_name": 1}} in result.messages[1]["provider_items"]
    refused = outcomes["generic"]
    assert isinstance(refused, ServerQuirkError) and tools_run(refused) == 0
    assert refused.quirk == "legacy-call-with-colon" and "llama-cpp-python" in refused.fix


def test_a_colon_named_legacy_call_with_other_arguments_is_still_refused() -> None:
    from agentcore.providers.openai_compatible import to_chat_model_turn

    completion = json.loads(llama_cpp_python_reply("get_teaching_weather:"))
    completion["choices"][0]["message"]["function_call"]["arguments"] = '{"city": "Paris"}'
    with pytest.raises(ServerQuirkError) as caught:
        to_chat_model_turn(completion, profile=CHAT_PROFILES["llama-cpp-python"])
    assert caught.value.quirk == "legacy-function-call"


@pytest.mark.parametrize("profile", ["llama-cpp-python", "generic"])
def test_the_quirk_mode_plays_llama_cpp_pythons_reply(profile: str) -> None:
    result, _ = run("legacy-call-with-colon", profile)
    if profile == "generic":
        assert isinstance(result, ServerQuirkError) and result.quirk == "legacy-call-with-colon"
    else:
        assert result.answer == EXPECTED
