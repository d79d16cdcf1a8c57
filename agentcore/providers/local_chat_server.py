"""A local server speaking DeepSeek's Chat Completions wire format, for offline lessons and tests.

:class:`LocalChatServer` is the twin of
:class:`~agentcore.providers.local_server.LocalResponsesServer`: the same script of
:class:`~agentcore.providers.local_server.Reply` objects (so the same
:func:`~agentcore.course.offline_replies.weather_script`), the same request recording, the same
Bearer check and error shape (all in
:class:`~agentcore.providers.local_server.LoopbackServer`); only the endpoint and the JSON
differ. It answers ``POST /chat/completions`` (and ``POST /beta/chat/completions``, the beta
base URL that strict function calling needs) on 127.0.0.1. Its replies are scripted, not a
model's.

The wire format follows DeepSeek's documentation of Create Chat Completion
(https://api-docs.deepseek.com/api/create-chat-completion), Tool Calls
(https://api-docs.deepseek.com/guides/tool_calls) and Thinking Mode
(https://api-docs.deepseek.com/guides/thinking_mode). A scripted reply becomes
``choices[0].message``: its ``function_call`` items become ``tool_calls`` (``{"id", "type":
"function", "function": {"name", "arguments"}}``), its ``message`` text becomes ``content``, a
``reasoning`` item becomes ``reasoning_content``; ``finish_reason`` is ``"tool_calls"`` or
``"stop"``, or the reply's ``incomplete_reason`` (``"max_output_tokens"`` is sent as
``"length"``; ``"length"``, ``"content_filter"`` and ``"insufficient_system_resource"`` as
given).

Like DeepSeek it refuses, with HTTP 400 and without using a reply: a model name it does not
serve (``"Model Not Exist"``); a ``tool`` message that answers no ``tool_calls`` id of the
assistant message before it; an assistant message with ``tool_calls`` not followed by a
``tool`` message for every id; and, in thinking mode, any assistant message of a user turn in
which the model called tools (the calls and the final answer alike) sent back without a
non-empty ``reasoning_content`` (the Thinking Mode guide's rule).

In a **quirk mode** (``LocalChatServer(script, quirks=("call-as-text",))``) it reproduces what
a local server does differently (each mode in :data:`QUIRKS`, with the public report of
it), so that the adapter's handling of each quirk is tested through the real SDK over HTTP.

Only the standard library is used; importing this module does not import ``openai``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from agentcore.providers.local_server import (
    CREATED_AT,
    LoopbackServer,
    Reply,
    _error_body,
    _rough_tokens,
    _scripted_reasoning,
    http_error,
)
from agentcore.providers.local_server import message as message_item

THINKING_400 = "The reasoning_content in the thinking mode must be passed back to the API."
"""DeepSeek's 400 message when a tool-calling assistant message comes back without it."""

QUIRKS: dict[str, str] = {
    "arguments-as-object": "function.arguments sent as a JSON object, not a string "
    "(llama.cpp#20198, ollama#6155)",
    "missing-call-id": "tool calls sent without an id",
    "concatenated-arguments": "the reply's calls merged into one call whose arguments are "
    "{...}{...}, as when streamed calls all carry index 0 (ollama#7881, #15457); a reply with "
    "one call is sent as that call made twice",
    "call-as-text": "the call written as text in content (<tool_call>{...}</tool_call>), "
    'tool_calls: [] and finish_reason "stop" (vLLM without its tool parser, LM Studio)',
    "finish-reason-mismatch": 'finish_reason "stop" with calls, "tool_calls" with a text',
    "tools-need-flag": "any request with tools answered HTTP 500 'tools param requires "
    "--jinja flag' (llama-server without --jinja; AstrBotDevs/AstrBot#758)",
    "tools-dropped": "tools silently ignored: HTTP 200 and a plain answer (TOOLS_DROPPED_TEXT)",
    "strict-rejected": 'a function tool with "strict" answered 400',
    "malformed-arguments": "function.arguments cut off in the middle (truncated JSON)",
    "tool-parse-error": "a reply with calls answered HTTP 500 'error parsing tool call' (Ollama)",
    "legacy-function-call": "a legacy function_call field beside tool_calls, the same call "
    "written with other spacing (llama-cpp-python's chatml-function-calling, the tool forced)",
    "legacy-call-with-colon": "a legacy function_call beside tool_calls with the first call's "
    "arguments as they came and its name followed by a colon ('get_weather:'), as "
    "llama-cpp-python's server writes when the model chose the tool itself "
    "(chatml_function_calling in llama_cpp/llama_chat_format.py)",
}
"""Every quirk mode of :class:`LocalChatServer`: its name and what the server then does."""

TOOLS_DROPPED_TEXT = "I do not have live data, but it is probably pleasant there."
"""The plain answer of the ``tools-dropped`` mode, whatever was asked."""
PARSE_500 = 'error parsing tool call: raw=\'{"city": "Tok\', err=unexpected end of JSON input'
"""The ``tool-parse-error`` mode's 500 message (Ollama's wording)."""

_FINISH_REASONS = {"max_output_tokens": "length"}
"""A Responses ``incomplete_details.reason`` and the Chat Completions ``finish_reason`` for it."""


def _reasoning_text(item: Mapping[str, Any]) -> str:
    parts = [*(item.get("content") or []), *(item.get("summary") or [])]
    return "".join(str(part.get("text", "")) for part in parts if isinstance(part, Mapping))


def _message_text(item: Mapping[str, Any]) -> str:
    parts = item.get("content") or []
    return "".join(
        str(part.get("text", ""))
        for part in parts
        if isinstance(part, Mapping) and part.get("type") == "output_text"
    )


def _unpaired(messages: Sequence[Any]) -> str | None:
    """Why the ``tool_calls``/``tool`` pairing of ``messages`` breaks the wire format, if it does.

    Every ``tool`` message must answer an id of the assistant ``tool_calls`` right before it
    (other ``tool`` messages between them are fine), and every such id must be answered before
    any other message.
    """
    waiting: list[Any] = []  # ids of the last tool_calls not answered yet, in order
    for message in messages:
        if not isinstance(message, Mapping):
            continue
        role = message.get("role")
        if role == "tool":
            call_id = message.get("tool_call_id")
            if call_id not in waiting:
                return (
                    "Messages with role 'tool' must be a response to a preceding message with "
                    f"'tool_calls': no tool call has the id {call_id!r}"
                )
            waiting.remove(call_id)
            continue
        if waiting:
            break
        calls = message.get("tool_calls") if role == "assistant" else None
        if isinstance(calls, list):
            waiting = [call.get("id") for call in calls if isinstance(call, Mapping)]
    if waiting:
        return (
            "An assistant message with 'tool_calls' must be followed by tool messages "
            f"responding to each 'tool_call_id': no tool message answers {waiting[0]!r}"
        )
    return None


def _reasoning_missing(messages: Sequence[Any]) -> bool:
    """Whether an assistant message of a user turn that called tools lacks its reasoning.

    DeepSeek's Thinking Mode guide: between two user messages, if the model called tools,
    the ``reasoning_content`` of the assistant messages between them must be passed back in
    all later requests (a turn without tool calls needs none). Empty counts as missing.
    """
    turns: list[list[Mapping[str, Any]]] = [[]]
    for message in messages:
        if not isinstance(message, Mapping):
            continue
        if message.get("role") == "user":
            turns.append([])
        elif message.get("role") == "assistant":
            turns[-1].append(message)
    return any(
        not message.get("reasoning_content")
        for turn in turns
        if any(message.get("tool_calls") for message in turn)
        for message in turn
    )


class LocalChatServer(LoopbackServer):
    """A ``POST /chat/completions`` server on 127.0.0.1 that plays a script (chapter section 10).

    Inputs (those of :class:`~agentcore.providers.local_server.LoopbackServer`): ``script``,
    the :class:`~agentcore.providers.local_server.Reply` objects to give, one per accepted
    request, in order (the same replies
    :class:`~agentcore.providers.local_server.LocalResponsesServer` plays); keyword-only
    ``api_key`` (if given, any other Bearer key gets 401); ``thinking`` (default ``False``):
    play DeepSeek's thinking mode, in which every reply carries ``reasoning_content`` (the
    text of the reply's ``reasoning`` item, or the same scripted reasoning the Responses server
    sends) and a request that sends back an assistant message of a tool-calling user turn
    without it (or with an empty one) gets 400 with DeepSeek's wording (:data:`THINKING_400`;
    a request with ``"thinking": {"type": "disabled"}`` is answered without thinking);
    ``models``: the model names served
    (:data:`~agentcore.providers.local_server.SERVED_MODELS`, else 400 ``Model Not Exist``).
    ``usage.prompt_cache_hit_tokens`` counts the messages a request shares with an earlier
    one, as DeepSeek's context caching reports it. ``quirks``: names of :data:`QUIRKS` to
    play (``ValueError`` for an unknown one, naming them all); ``requires_key`` (default
    ``True``): ``False`` accepts requests without an Authorization header, as a local server
    started without a key does; ``keep_alive`` as :class:`LoopbackServer`.

    Use it as a context manager, exactly like the Responses server::

        with LocalChatServer(weather_script()) as server:
            model = DeepSeekChatModel("deepseek-flash", api_key="offline",
                                      base_url=server.base_url)
            ...
        server.requests  # every request, in order

    Attributes: ``base_url``, ``requests``, ``replies_played`` (from
    :class:`~agentcore.providers.local_server.LoopbackServer`). Raises ``TypeError`` for a
    script entry that is not a ``Reply``, and ``RuntimeError`` if entered twice.
    """

    path = "/chat/completions"

    def __init__(
        self, script: Iterable[Reply], *, quirks: Iterable[str] = (), **options: Any
    ) -> None:
        self.quirks = tuple(quirks)
        unknown = [name for name in self.quirks if name not in QUIRKS]
        if unknown:
            raise ValueError(f"unknown quirk {unknown[0]!r}; the quirks are {', '.join(QUIRKS)}")
        replies = tuple(script)
        if "tools-dropped" in self.quirks:  # the server never lets the model see the tools
            plain = (message_item(TOOLS_DROPPED_TEXT),)
            replies = tuple(
                replace(reply, output=plain) if _calls(reply) else reply for reply in replies
            )
        if "tool-parse-error" in self.quirks:  # its parser fails on every call
            replies = tuple(
                http_error(500, PARSE_500) if _calls(reply) else reply for reply in replies
            )
        super().__init__(replies, **options)

    def _serves(self, path: str) -> bool:
        return path.rstrip("/") in (self.path, "/beta" + self.path)

    def _thinks(self, body: Mapping[str, Any]) -> bool:
        thinking = body.get("thinking")
        disabled = isinstance(thinking, Mapping) and thinking.get("type") == "disabled"
        return self.thinking and not disabled

    def _refuse(self, body: dict[str, Any]) -> tuple[int, str] | None:
        """DeepSeek's rejections of a well-formed Chat Completions request."""
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            return 400, _error_body(400, "Invalid Format: messages must be a non-empty list")
        problem = _unpaired(messages)
        if problem is not None:
            return 400, _error_body(400, problem)
        tools = body.get("tools")
        if tools and "tools-need-flag" in self.quirks:
            return 500, _error_body(500, "tools param requires --jinja flag")
        if "strict-rejected" in self.quirks and any(
            isinstance(tool, Mapping)
            and isinstance(tool.get("function"), Mapping)
            and "strict" in tool["function"]
            for tool in tools or ()
        ):
            return 400, _error_body(400, "Unrecognized request argument supplied: strict")
        if self._thinks(body) and _reasoning_missing(messages):
            return 400, _error_body(400, THINKING_400)
        return None

    def _conversation(self, body: Mapping[str, Any]) -> list[Any]:
        messages = body.get("messages")
        return list(messages) if isinstance(messages, list) else []

    def _response(
        self, number: int, reply: Reply, request: Mapping[str, Any], cached_tokens: int
    ) -> dict[str, Any]:
        """The chat completion object for a scripted reply; ids count up, so they repeat."""
        calls = [
            {
                "id": item.get("call_id"),
                "type": "function",
                "function": {"name": item.get("name"), "arguments": item.get("arguments")},
            }
            for item in reply.output
            if item.get("type") == "function_call"
        ]
        texts = [_message_text(item) for item in reply.output if item.get("type") == "message"]
        thoughts = [
            _reasoning_text(item) for item in reply.output if item.get("type") == "reasoning"
        ]
        message: dict[str, Any] = {
            "role": "assistant",
            "content": "".join(texts) if texts else (None if calls else ""),
        }
        if thoughts or self._thinks(request):
            message["reasoning_content"] = "".join(thoughts) or _reasoning_text(
                _scripted_reasoning(reply.output)
            )
        if calls:
            message["tool_calls"] = calls
        if reply.status != "completed":
            reason = reply.incomplete_reason or "insufficient_system_resource"
            finish_reason = _FINISH_REASONS.get(reason, reason)
        else:
            finish_reason = "tool_calls" if calls else "stop"
        finish_reason = self._play_quirks(message, finish_reason)
        prompt = _rough_tokens(self._conversation(request))
        hit = min(cached_tokens, prompt)
        completion = _rough_tokens(message)
        return {
            "id": f"chatcmpl-{number:03d}",
            "object": "chat.completion",
            "created": CREATED_AT,
            "model": request.get("model"),
            "choices": [
                {"index": 0, "message": message, "logprobs": None, "finish_reason": finish_reason}
            ],
            "usage": {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
                "prompt_tokens_details": {"cached_tokens": hit},
                "prompt_cache_hit_tokens": hit,
                "prompt_cache_miss_tokens": prompt - hit,
                "completion_tokens_details": {
                    "reasoning_tokens": _rough_tokens(message.get("reasoning_content", ""))
                    if "reasoning_content" in message
                    else 0
                },
            },
        }

    def _play_quirks(self, message: dict[str, Any], finish_reason: str) -> str:
        """Change a well-formed message as the quirk modes say; return its finish_reason."""
        calls: list[dict[str, Any]] = message.get("tool_calls") or []
        if calls and "call-as-text" in self.quirks:
            written = [
                {"name": call["function"]["name"], "arguments": _decoded(call)} for call in calls
            ]
            message["content"] = "".join(
                f"<tool_call>\n{json.dumps(call, ensure_ascii=False)}\n</tool_call>"
                for call in written
            )
            message["tool_calls"] = []
            return "stop"
        if calls and "legacy-function-call" in self.quirks:
            first = calls[0]["function"]
            message["function_call"] = {
                "name": first["name"],
                "arguments": json.dumps(_decoded(calls[0]), ensure_ascii=False, indent=1),
            }
        if calls and "legacy-call-with-colon" in self.quirks:
            first = calls[0]["function"]
            message["function_call"] = {
                "name": first["name"] + ":",
                "arguments": first["arguments"],
            }
        if calls and "concatenated-arguments" in self.quirks:
            merged = calls if len(calls) > 1 else calls * 2
            joined = "".join(str(call["function"]["arguments"]) for call in merged)
            message["tool_calls"] = [
                {**calls[0], "function": {**calls[0]["function"], "arguments": joined}}
            ]
        for call in message.get("tool_calls") or []:
            if "malformed-arguments" in self.quirks:
                text = str(call["function"]["arguments"])
                call["function"]["arguments"] = text[: max(1, len(text) // 2)]
            if "arguments-as-object" in self.quirks:
                call["function"]["arguments"] = _decoded(call)
            if "missing-call-id" in self.quirks:
                call.pop("id", None)
        if "finish-reason-mismatch" in self.quirks and finish_reason in ("stop", "tool_calls"):
            return "stop" if calls else "tool_calls"
        return finish_reason


def _calls(reply: Reply) -> bool:
    return any(item.get("type") == "function_call" for item in reply.output)


def _decoded(call: Mapping[str, Any]) -> Any:
    """A scripted call's arguments as JSON (the scripts hold valid JSON strings)."""
    return json.loads(call["function"]["arguments"])
