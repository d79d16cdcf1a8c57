"""Issue 21's adapter kinds, checked through every adapter over real HTTP on 127.0.0.1.

Each adapter (DeepSeekResponsesModel, DeepSeekChatModel, OpenAICompatibleChatModel) plays the
same scripted replies from its loopback server; the tests check what a learner would notice:
what reached a handler, the transcript, the trace and the typed error, and what was sent.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict

from agentcore import (
    AgentRuntime,
    DeepSeekChatModel,
    DeepSeekResponsesModel,
    Model,
    OpenAICompatibleChatModel,
    ProviderConnectionError,
    ProviderError,
    ProviderRequestError,
    Tool,
    ToolArgumentsError,
    UnknownToolError,
    build_tools,
)
from agentcore.course.offline_replies import weather_script
from agentcore.course.text import explain
from agentcore.providers.local_chat_server import THINKING_400, LocalChatServer
from agentcore.providers.local_server import (
    LocalResponsesServer,
    LoopbackServer,
    Reply,
    function_call,
    message,
    reasoning,
)
from agentcore.providers.provider_items import chat_extras, item_text

KEY = "sk-faults-test-9c1d2e3f4a5b"
"""A made-up key the scripted model echoes: no text the adapters keep may hold it."""


class City(BaseModel):
    model_config = ConfigDict(extra="forbid")
    city: str


AdapterFactory = Callable[[str], Model]
ServerFactory = Callable[..., LoopbackServer]


def thinking_chat_server(script: Iterable[Reply], **options: Any) -> LocalChatServer:
    """The Chat server as DeepSeekChatModel meets DeepSeek by default: in thinking mode."""
    return LocalChatServer(script, **{"thinking": True, **options})


ADAPTERS: dict[str, tuple[ServerFactory, AdapterFactory]] = {
    "responses": (
        LocalResponsesServer,
        lambda url: DeepSeekResponsesModel("deepseek-flash", api_key=KEY, base_url=url),
    ),
    "deepseek-chat": (
        thinking_chat_server,
        lambda url: DeepSeekChatModel("deepseek-flash", api_key=KEY, base_url=url),
    ),
    "generic-chat": (
        LocalChatServer,
        lambda url: OpenAICompatibleChatModel("deepseek-flash", api_key=KEY, base_url=url),
    ),
}


def key_runs(text: str) -> list[str]:
    return [
        KEY[start : start + 8] for start in range(len(KEY) - 7) if KEY[start : start + 8] in text
    ]


def everything(error: BaseException) -> Iterator[str]:
    """Every text a learner can reach from a failed run: messages, reprs, the transcript."""
    yield str(error)
    yield repr(error)
    yield json.dumps(getattr(error, "messages", []), ensure_ascii=False, default=str)
    yield json.dumps(getattr(error, "errors", []), ensure_ascii=False, default=str)
    yield json.dumps(getattr(error, "rejected", []), ensure_ascii=False, default=str)


def run_with(
    adapter: str, replies: list[Reply], tools: list[Tool], capsys: pytest.CaptureFixture[str]
) -> tuple[Any, str]:
    """Run "Hi" verbosely through ``adapter`` playing ``replies``: (result or error, trace)."""
    server_type, build = ADAPTERS[adapter]
    with server_type(replies) as server:
        runtime = AgentRuntime(build(server.base_url), tools, verbose=True)
        try:
            outcome: Any = runtime.run("Hi")
        except ProviderError:
            raise
        except Exception as error:  # the runtime's typed errors, with the record
            outcome = error
    return outcome, capsys.readouterr().out


# --- 1. a key echoed in any field of a reply is removed before it is stored ------------------


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_key_in_call_arguments_reaches_no_handler_transcript_or_trace(
    adapter: str, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[str] = []

    def remember(city: str) -> str:
        seen.append(city)
        return "noted"

    tool = Tool("remember", "Remember a city.", City, remember)
    replies = [
        Reply(output=(function_call("remember", {"city": f"Tokyo {KEY}"}, f"call-{KEY}"),)),
        Reply(output=(message("Done."),)),
    ]
    result, trace = run_with(adapter, replies, [tool], capsys)
    assert seen == ["Tokyo <redacted>"]
    transcript = json.dumps(result.messages, ensure_ascii=False)
    assert not key_runs(transcript + trace)
    assert result.messages[1]["tool_calls"][0]["call_id"] == "call-<redacted>"


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_key_as_a_function_name_is_not_in_the_unknown_tool_error(
    adapter: str, capsys: pytest.CaptureFixture[str]
) -> None:
    replies = [Reply(output=(function_call(f"tool_{KEY}", {}, "call-1"),))]
    error, trace = run_with(adapter, replies, build_tools(), capsys)
    assert isinstance(error, UnknownToolError)
    assert error.name == "tool_<redacted>"
    assert not key_runs("".join(everything(error)) + trace)


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_key_in_invalid_arguments_is_not_in_the_validation_errors(
    adapter: str, capsys: pytest.CaptureFixture[str]
) -> None:
    replies = [Reply(output=(function_call("get_teaching_weather", {"city": 7, KEY: KEY}, "c"),))]
    error, trace = run_with(adapter, replies, build_tools(), capsys)
    assert isinstance(error, ToolArgumentsError)
    assert [e["input"] for e in error.errors] == [7, "<redacted>"]
    assert not key_runs("".join(everything(error)) + trace)


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_an_integer_call_id_is_reported_as_an_integer_not_as_empty(adapter: str) -> None:
    server_type, build = ADAPTERS[adapter]
    call = function_call("get_teaching_weather", {"city": "Tokyo"}, "x")
    call["call_id"] = 7
    with server_type([Reply(output=(call,))]) as server, pytest.raises(ProviderError) as caught:
        AgentRuntime(build(server.base_url), build_tools()).run("Hi")
    assert "an integer" in str(caught.value) and "(7), not a string" in str(caught.value)
    assert "empty" not in str(caught.value)


def test_the_weather_script_still_runs_through_every_adapter() -> None:
    for server_type, build in ADAPTERS.values():
        with server_type(weather_script()) as server:
            result = AgentRuntime(build(server.base_url), build_tools()).run("Tokyo?")
        assert result.tool_executions == 2


# --- 4. Chat Completions edge cases ---------------------------------------------------------


def chat_body(choices: Any) -> str:
    return json.dumps({"id": "chatcmpl-x", "object": "chat.completion", "choices": choices})


CALL: dict[str, Any] = {
    "id": "call-1",
    "type": "function",
    "function": {"name": "get_teaching_weather", "arguments": '{"city": "Tokyo"}'},
}


def generic_error(body: str, headers: tuple[tuple[str, str], ...] = ()) -> ProviderError:
    """The error a one-turn run through the generic Chat adapter ends with on ``body``."""
    with (
        LocalChatServer([Reply(raw_body=body, headers=headers)]) as server,
        pytest.raises(ProviderError) as caught,
    ):
        AgentRuntime(ADAPTERS["generic-chat"][1](server.base_url), build_tools()).run("Hi")
    assert caught.value.tool_executions == 0
    return caught.value


@pytest.mark.parametrize("second_index", [1, 0])
def test_two_choices_are_refused_not_read_by_position(second_index: int) -> None:
    calls = {"role": "assistant", "content": None, "tool_calls": [CALL]}
    choices = [
        {"index": 0, "message": calls, "finish_reason": "tool_calls"},
        {
            "index": second_index,
            "message": {"role": "assistant", "content": "B"},
            "finish_reason": "stop",
        },
    ]
    error = generic_error(chat_body(choices))
    assert "holds 2 choices" in str(error) and "n=" in error.hint
    assert len(error.messages[-1]["rejected"]) == 2  # both recorded, neither acted on


def test_a_null_message_is_named_as_null() -> None:
    error = generic_error(chat_body([{"index": 0, "message": None, "finish_reason": "stop"}]))
    assert "has a choice whose message is null" in str(error)


def test_an_unknown_finish_reason_points_at_the_servers_docs_not_deepseek() -> None:
    message = {"role": "assistant", "content": "Hi"}
    error = generic_error(chat_body([{"index": 0, "message": message, "finish_reason": "eos"}]))
    assert "finish_reason 'eos'" in str(error)
    assert "server's documentation" in error.hint and "DEEPSEEK" not in error.hint


@pytest.mark.parametrize(
    "headers", [(("Content-Type", "text/event-stream"),), (("Content-Type", "application/json"),)]
)
def test_an_event_stream_body_is_named_as_a_stream(headers: tuple[tuple[str, str], ...]) -> None:
    chunk = {"id": "x", "object": "chat.completion.chunk", "choices": []}
    stream = f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n"
    error = generic_error(stream, headers)
    assert "is an event stream (server-sent events)" in str(error)
    assert "stream" in error.hint and "not JSON" not in str(error)


def test_an_event_stream_to_the_responses_adapter_is_named_too() -> None:
    body = 'event: response.created\ndata: {"type": "response.created"}\n\n'
    with (
        LocalResponsesServer([Reply(raw_body=body)]) as server,
        pytest.raises(ProviderError) as caught,
    ):
        AgentRuntime(ADAPTERS["responses"][1](server.base_url), build_tools()).run("Hi")
    assert "is an event stream" in str(caught.value)


NOTHING_LISTENS = "http://127.0.0.1:9/v1"
"""A loopback address where no server answers (port 9, discard)."""


@pytest.mark.parametrize(
    ("adapter", "names", "not_named"),
    [
        (DeepSeekResponsesModel, "DEEPSEEK_BASE_URL", "--base-url"),
        (DeepSeekChatModel, "DEEPSEEK_BASE_URL", "--base-url"),
        (OpenAICompatibleChatModel, "Check base_url (--base-url", "DEEPSEEK"),
    ],
)
def test_the_connection_hint_names_the_setting_the_adapter_reads(
    adapter: Callable[..., Model], names: str, not_named: str
) -> None:
    # Was: every adapter said "Check DEEPSEEK_BASE_URL", although the generic one reads no
    # DEEPSEEK_* variable (its address is base_url, or --base-url on the command line).
    model = adapter("deepseek-flash", api_key=KEY, base_url=NOTHING_LISTENS, max_retries=0)
    with pytest.raises(ProviderConnectionError) as caught:
        AgentRuntime(model, build_tools()).run("Hi")
    assert names in caught.value.hint and not_named not in caught.value.hint
    assert caught.value.hint in str(caught.value)


# --- 3. thinking mode replays what DeepSeek requires ----------------------------------------


ABSENT = "(no reasoning_content field)"
"""For :func:`thinking_reply`: the reply's message has no ``reasoning_content`` at all."""


def thinking_reply(reasoning_content: Any) -> Reply:
    """A raw reply calling the weather tool, its ``reasoning_content`` as given (or ABSENT)."""
    message: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [CALL]}
    if reasoning_content != ABSENT:
        message["reasoning_content"] = reasoning_content
    return Reply(
        raw_body=chat_body([{"index": 0, "message": message, "finish_reason": "tool_calls"}])
    )


@pytest.mark.parametrize("reasoning_content", ["", None, ABSENT])
@pytest.mark.parametrize("adapter", ["deepseek-chat", "generic-deepseek-profile"])
def test_no_reasoning_beside_tool_calls_is_refused_before_any_handler_runs(
    adapter: str, reasoning_content: Any
) -> None:
    # Was, for null and a missing field: accepted, the handler ran, and the next request got
    # DeepSeek's 400 (the reasoning must be passed back).
    ran: list[str] = []
    weather = build_tools()[0]
    tool = Tool(
        weather.name, weather.description, weather.arguments_model, lambda city: ran.append(city)
    )
    script = [thinking_reply(reasoning_content), Reply(output=(message("Done."),))]
    with LocalChatServer(script, thinking=True) as server:
        model = (
            DeepSeekChatModel("deepseek-flash", api_key=KEY, base_url=server.base_url)
            if adapter == "deepseek-chat"
            else OpenAICompatibleChatModel(
                "deepseek-flash", api_key=KEY, base_url=server.base_url, profile="deepseek"
            )
        )
        with pytest.raises(ProviderError) as caught:
            AgentRuntime(model, [tool]).run("Tokyo?")
    assert ran == []
    assert "with a missing or empty reasoning_content" in str(caught.value)
    assert "reasoning_effort='none'" in caught.value.hint
    rejected = caught.value.messages[-1]["rejected"][0]
    assert rejected.get("reasoning_content", ABSENT) == reasoning_content
    assert len(server.requests) == 1  # nothing was sent that DeepSeek would refuse


def test_with_thinking_off_an_empty_reasoning_is_not_refused() -> None:
    with LocalChatServer([thinking_reply(""), Reply(output=(message("Done."),))]) as server:
        model = DeepSeekChatModel(
            "deepseek-flash", api_key=KEY, base_url=server.base_url, reasoning_effort="none"
        )
        result = AgentRuntime(model, build_tools()).run("Tokyo?")
    assert result.answer == "Done."


def test_a_transcript_missing_one_reasoning_is_refused_before_it_is_sent() -> None:
    with LocalChatServer(weather_script(), thinking=True) as server:
        model = DeepSeekChatModel("deepseek-flash", api_key=KEY, base_url=server.base_url)
        result = AgentRuntime(model, build_tools()).run("Tokyo?")
        transcript = [dict(entry) for entry in result.messages]
        del transcript[-1]["provider_items"]  # the final answer's reasoning, lost
        sent = len(server.requests)
        with pytest.raises(ProviderError) as caught:
            model.generate([*transcript, {"role": "user", "content": "And Paris?"}], [])
    assert f"Transcript message {len(transcript) - 1}" in str(caught.value)
    assert "nothing was sent" in str(caught.value)
    assert len(server.requests) == sent


def post_chat(server: LocalChatServer, messages: list[dict[str, Any]]) -> tuple[int, str]:
    """POST ``messages`` to the server as they are (no adapter in between)."""
    body = json.dumps({"model": "deepseek-flash", "messages": messages}).encode()
    request = urllib.request.Request(
        server.base_url + "/chat/completions",
        data=body,
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {KEY}"},
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


@pytest.mark.parametrize("final_reasoning", [None, "", "Enough to answer."])
def test_the_thinking_server_wants_the_final_answers_reasoning_of_a_tool_calling_turn(
    final_reasoning: str | None,
) -> None:
    call = {
        "role": "assistant",
        "content": None,
        "reasoning_content": "Look.",
        "tool_calls": [CALL],
    }
    final: dict[str, Any] = {"role": "assistant", "content": "Tokyo is 18.0°C."}
    if final_reasoning is not None:
        final["reasoning_content"] = final_reasoning
    history = [
        {"role": "user", "content": "Tokyo?"},
        call,
        {"role": "tool", "tool_call_id": "call-1", "content": "{}"},
        final,
        {"role": "user", "content": "And Paris?"},
    ]
    with LocalChatServer(
        [Reply(output=(message("Paris."),))], api_key=KEY, thinking=True
    ) as server:
        status, said = post_chat(server, history)
    if final_reasoning:
        assert status == 200, said
    else:
        assert (status, THINKING_400 in said) == (400, True)


def test_the_thinking_server_needs_no_reasoning_for_a_turn_without_tool_calls() -> None:
    greeting = [
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": "Hello."},
        {"role": "user", "content": "Hi again"},
    ]
    with LocalChatServer(
        [Reply(output=(message("Hello."),))], api_key=KEY, thinking=True
    ) as server:
        assert post_chat(server, greeting)[0] == 200


# --- every refused reply explained by its cause ---------------------------------------------


def calls_reply(*calls: dict[str, Any]) -> str:
    """A raw chat completion calling ``calls``."""
    message = {"role": "assistant", "content": None, "tool_calls": list(calls)}
    return chat_body([{"index": 0, "message": message, "finish_reason": "tool_calls"}])


TWO_CHOICES = chat_body(
    [
        {"index": 0, "message": {"role": "assistant", "content": "A"}, "finish_reason": "stop"},
        {"index": 1, "message": {"role": "assistant", "content": "B"}, "finish_reason": "stop"},
    ]
)
REFUSED_REPLIES = {
    "two choices": (TWO_CHOICES, "generic", "choices 里不止一项"),
    "a null message": (
        chat_body([{"index": 0, "message": None, "finish_reason": "stop"}]),
        "generic",
        "没有 message（缺失或为 null）",
    ),
    "an integer call id": (calls_reply({**CALL, "id": 7}), "generic", "比如是整数"),
    "two calls sharing an id": (calls_reply(CALL, CALL), "generic", "共用同一个 id"),
    "an empty reasoning": (thinking_reply("").raw_body, "deepseek", "没有推理内容"),
    "a missing reasoning": (thinking_reply(ABSENT).raw_body, "deepseek", "没有推理内容"),
    "arguments cut off": (
        calls_reply({**CALL, "function": {**CALL["function"], "arguments": '{"city": "To'}}),
        "generic",
        "简化工具的参数",
    ),
}


@pytest.mark.parametrize("cause", REFUSED_REPLIES)
def test_a_refused_reply_is_explained_in_chinese_by_its_own_cause(cause: str) -> None:
    # Was: every cause got the one generic sentence "Provider 的回复不符合适配器依赖的线上格式".
    body, profile, said = REFUSED_REPLIES[cause]
    with (
        LocalChatServer([Reply(raw_body=body)], thinking=profile == "deepseek") as server,
        pytest.raises(ProviderError) as caught,
    ):
        model = OpenAICompatibleChatModel(
            "deepseek-flash", api_key=KEY, base_url=server.base_url, profile=profile
        )
        AgentRuntime(model, build_tools()).run("Hi")
    chinese = explain(caught.value, "zh-CN")
    assert said in chinese and "没有任何 handler 执行" in chinese
    assert "线上格式，这一轮被拒绝" not in chinese  # not the generic sentence
    assert explain(caught.value, "en") == str(caught.value)


# --- 5. one transcript, every adapter -------------------------------------------------------

THINKING_ADAPTERS: dict[str, tuple[ServerFactory, AdapterFactory]] = {
    "responses": ADAPTERS["responses"],
    "deepseek-chat": ADAPTERS["deepseek-chat"],
    "generic-chat": (
        LocalChatServer,
        lambda url: OpenAICompatibleChatModel(
            "deepseek-flash", api_key=KEY, base_url=url, profile="deepseek"
        ),
    ),
}


def made_by(maker: str) -> list[dict[str, Any]]:
    """The runtime's transcript of the weather task played in thinking mode through ``maker``."""
    server_type, build = THINKING_ADAPTERS[maker]
    with server_type(weather_script(), thinking=True) as server:
        result = AgentRuntime(build(server.base_url), build_tools()).run("Tokyo?")
    return [dict(entry) for entry in result.messages]


def reasoning_of(transcript: list[dict[str, Any]]) -> list[str]:
    """The reasoning each assistant message of ``transcript`` carries, whoever wrote it."""
    return [
        chat_extras(entry.get("provider_items"), index).get("reasoning_content", "")
        for index, entry in enumerate(transcript)
        if entry["role"] == "assistant"
    ]


def sent_reasoning(receiver: str, body: dict[str, Any]) -> list[str]:
    """The reasoning a request sent back, in order, in the receiver's wire format."""
    if receiver == "responses":
        return [item_text(item) for item in body["input"] if item["type"] == "reasoning"]
    return [m.get("reasoning_content", "") for m in body["messages"] if m["role"] == "assistant"]


@pytest.mark.parametrize("receiver", THINKING_ADAPTERS)
@pytest.mark.parametrize("maker", THINKING_ADAPTERS)
def test_a_transcript_made_by_any_adapter_continues_through_every_adapter(
    maker: str, receiver: str
) -> None:
    transcript = made_by(maker)
    thoughts = reasoning_of(transcript)
    assert len(thoughts) == 3 and all(thoughts)  # two tool-call turns and the final answer
    server_type, build = THINKING_ADAPTERS[receiver]
    later = [*transcript, {"role": "user", "content": "And Paris?"}]
    with server_type([Reply(output=(message("Paris is 12.0°C."),))], thinking=True) as server:
        turn = build(server.base_url).generate(later, [tool.schema() for tool in build_tools()])
    assert turn.final_text == "Paris is 12.0°C."  # the thinking server accepted the history
    body = server.requests[0].body
    assert sent_reasoning(receiver, body) == thoughts  # every reasoning, in its place
    if receiver == "responses":
        assert all(isinstance(item.get("type"), str) for item in body["input"])


@pytest.mark.parametrize(
    ("receiver", "item", "said"),
    [
        ("responses", {"thought": "x"}, "provider item 0 with the keys ['thought']"),
        ("deepseek-chat", {"thought": "x"}, "provider item 0 with the keys ['thought']"),
        ("deepseek-chat", {"type": "web_search_call"}, "provider item 0 of type 'web_search_call'"),
        ("generic-chat", "just text", "provider item 0, a str, not an object"),
    ],
)
def test_a_provider_item_no_adapter_wrote_is_refused_before_anything_is_sent(
    receiver: str, item: Any, said: str
) -> None:
    transcript = made_by("deepseek-chat")
    transcript[1]["provider_items"] = [item]
    server_type, build = THINKING_ADAPTERS[receiver]
    with server_type([], thinking=True) as server, pytest.raises(ProviderRequestError) as caught:
        build(server.base_url).generate(transcript, [])
    assert f"Transcript message 1 holds {said}" in str(caught.value)
    assert "nothing was sent" in str(caught.value)
    assert server.requests == []


def test_an_adapter_note_is_never_sent_back_by_either_wire_format() -> None:
    """A turn whose quirk the Chat adapter absorbed carries ``{"adapter": {...}}``; both
    translations skip it instead of refusing the transcript (the quirk run's second turn)."""
    from agentcore.providers.deepseek import to_input_items
    from agentcore.providers.openai_compatible import to_chat_messages

    call = {"call_id": "call-1-1", "name": "get_teaching_weather", "arguments": {"city": "Tokyo"}}
    transcript = [
        {"role": "user", "content": "Tokyo?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [call],
            "provider_items": [{"adapter": {"made_call_ids": ["call-1-1"]}}],
        },
        {
            "role": "tool",
            "tool_call_id": "call-1-1",
            "name": "get_teaching_weather",
            "content": "{}",
        },
    ]
    chat = to_chat_messages(transcript)
    assert [m["role"] for m in chat] == ["user", "assistant", "tool"]
    assert "adapter" not in json.dumps(chat)
    items = to_input_items(transcript)
    assert "adapter" not in json.dumps(items)
    assert [item.get("type") for item in items][-2:] == ["function_call", "function_call_output"]


# --- a call of a tool without parameters, and whitespace-only reasoning ----------------------


class NoArguments(BaseModel):
    model_config = ConfigDict(extra="forbid")


def bare_call(arguments: str | None) -> dict[str, Any]:
    """A ``function_call`` item whose ``arguments`` is the given text, or absent for ``None``
    (the Chat server then sends ``"arguments": null``)."""
    item = function_call("get_time", "{}", "call-time")
    if arguments is None:
        del item["arguments"]
    else:
        item["arguments"] = arguments
    return item


@pytest.mark.parametrize("adapter", ADAPTERS)
@pytest.mark.parametrize("arguments", ["", "  ", None], ids=["empty", "blank", "missing"])
def test_a_zero_argument_call_with_empty_or_missing_arguments_runs_with_none(
    adapter: str, arguments: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    ran: list[str] = []
    tool = Tool("get_time", "The time.", NoArguments, lambda: ran.append("ran") or "12:00")
    replies = [Reply(output=(bare_call(arguments),)), Reply(output=(message("It is 12:00."),))]
    result, _ = run_with(adapter, replies, [tool], capsys)
    assert result.answer == "It is 12:00." and ran == ["ran"]
    assert result.messages[1]["tool_calls"][0]["arguments"] == {}


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_empty_arguments_for_a_tool_that_needs_some_are_refused_before_its_handler(
    adapter: str, capsys: pytest.CaptureFixture[str]
) -> None:
    ran: list[str] = []
    tool = Tool("get_time", "The time.", City, lambda city: ran.append(city) or "12:00")
    result, _ = run_with(adapter, [Reply(output=(bare_call(""),))], [tool], capsys)
    assert isinstance(result, ToolArgumentsError) and "city" in str(result)
    assert ran == []  # the tool's own validation refused {} before its handler


@pytest.mark.parametrize("adapter", ["responses", "deepseek-chat"])
@pytest.mark.parametrize("thought", [" ", "\n", "\t\n  "], ids=["space", "newline", "mixed"])
def test_whitespace_only_reasoning_is_replayed_exactly_as_received(
    adapter: str, thought: str, capsys: pytest.CaptureFixture[str]
) -> None:
    call = function_call("get_teaching_weather", {"city": "Tokyo"}, "call-1")
    replies = [
        Reply(output=(reasoning(thought), call)),
        Reply(output=(reasoning("Answer."), message("Tokyo is cloudy."))),
    ]
    server_type, build = ADAPTERS[adapter]
    with server_type(replies, thinking=True) as server:
        AgentRuntime(build(server.base_url), build_tools()).run("Weather in Tokyo?")
        second = server.requests[1].body
    if adapter == "responses":
        sent = [item_text(item) for item in second["input"] if item.get("type") == "reasoning"]
        assert thought in sent
    else:
        assistant = next(m for m in second["messages"] if m["role"] == "assistant")
        assert assistant["reasoning_content"] == thought
