"""The DeepSeek Chat Completions adapter: a second wire format, the same runtime (chapter 10).

:class:`DeepSeekChatModel` satisfies ``Model.generate(messages, tools) -> ModelTurn`` exactly as
:class:`~agentcore.providers.deepseek.DeepSeekResponsesModel` does; the runtime cannot tell the
two apart. Only the three translations differ, each a small function of this module, written
to DeepSeek's documented wire format for ``POST {base_url}/chat/completions``
(Create Chat Completion: https://api-docs.deepseek.com/api/create-chat-completion; Tool Calls:
https://api-docs.deepseek.com/guides/tool_calls; Thinking Mode:
https://api-docs.deepseek.com/guides/thinking_mode):

* a runtime tool schema becomes ``{"type": "function", "function": {"name", "description",
  "parameters"}}``, ``parameters`` passed through unchanged (:func:`to_chat_tool`);
* the whole transcript becomes the request's ``messages``, every turn (:func:`to_chat_messages`):
  the API is stateless, so the adapter sends everything again;
* ``choices[0].message`` of the reply becomes a :class:`ModelTurn`: its ``tool_calls`` in order,
  arguments parsed by the Responses adapter's own strict
  :func:`~agentcore.providers.deepseek.parse_arguments`, or its ``content`` as the final text
  (:func:`to_chat_model_turn`).

The same request through both adapters, side by side (turn 2 of the weather task):

============================== ============================ ================================
what the runtime holds         Responses ``input`` item     Chat Completions ``messages``
============================== ============================ ================================
a tool request                 ``function_call`` item with  assistant message with
                               ``call_id``                  ``tool_calls[].id``
an observation                 ``function_call_output``     ``{"role": "tool",
                               with ``call_id``             "tool_call_id", "content"}``
reasoning (thinking mode)      a ``reasoning`` item         ``reasoning_content`` on the
                                                            assistant message
============================== ============================ ================================
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from typing import Any

from agentcore.errors import ProviderRequestError, ProviderResponseError
from agentcore.protocol import ModelTurn, ToolCall, ToolSchema
from agentcore.providers.deepseek import MAX_ARGUMENTS_CHARS, parse_arguments
from agentcore.transcript import Message

EXTRAS = ("content", "reasoning_content")
"""The fields of an assistant message with ``tool_calls`` that the runtime does not model.

:func:`to_chat_model_turn` keeps them (when set) as one ``provider_items`` entry,
``{"content": ..., "reasoning_content": ...}``; :func:`to_chat_messages` sends them back on
that same message. The calls themselves always come from the transcript's ``tool_calls``.
"""


def to_chat_tool(schema: ToolSchema, *, strict: bool = False) -> dict[str, Any]:
    """Translate one runtime tool schema into a Chat Completions function tool.

    Input: ``{"name", "description", "parameters"}`` as :meth:`agentcore.Tool.schema` gives
    it, and ``strict``. Output: ``{"type": "function", "function": {"name", "description",
    "parameters"}}``, with ``"strict": true`` inside ``function`` only when ``strict`` is on.
    ``parameters`` is passed through unchanged (a plain copy): the runtime's tool schema is
    already the schema the model must follow, and the adapter converts nothing.

    DeepSeek documents ``strict`` as a beta feature: it needs the beta base URL
    ``https://api.deepseek.com/beta`` and, when used, every function of the request strict
    (https://api-docs.deepseek.com/guides/tool_calls).
    """
    function: dict[str, Any] = {
        "name": schema["name"],
        "description": schema.get("description", ""),
        "parameters": copy.deepcopy(schema["parameters"]),
    }
    if strict:
        function["strict"] = True
    return {"type": "function", "function": function}


def _extras(provider_items: Any) -> dict[str, Any]:
    """The Chat Completions fields kept in ``provider_items`` (other wire formats' items are
    not this adapter's to send, and are left out)."""
    found: dict[str, Any] = {}
    for item in provider_items or ():
        if isinstance(item, Mapping) and item and set(item) <= set(EXTRAS):
            found.update(item)
    return found


def to_chat_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """Translate the whole transcript into Chat Completions ``messages``.

    Input: the runtime's messages. Output, in order:

    * user or system text: ``{"role", "content"}`` as is;
    * an assistant tool request: ``{"role": "assistant", "content": null, "tool_calls":
      [{"id", "type": "function", "function": {"name", "arguments"}}]}``, ``arguments`` a
      JSON string with non-ASCII kept; the text and the ``reasoning_content`` the provider
      sent beside the calls (kept in ``provider_items`` by :func:`to_chat_model_turn`) go
      back on this message, as DeepSeek's thinking mode requires (HTTP 400 otherwise);
    * an observation: ``{"role": "tool", "tool_call_id", "content"}``, right after its
      request, as the runtime records it;
    * a final text: ``{"role": "assistant", "content"}`` (its reasoning is not sent back: the
      thinking-mode guide says it would be ignored);
    * a message with a ``"rejected"`` key (a reply the adapter refused, recorded by the
      runtime) is skipped: it is never sent back to a provider.

    Raises :class:`ProviderRequestError`, and nothing is sent, for a role the adapter cannot
    send (naming the message), for a ``tool`` message that answers no call of the assistant
    message before it, and for a call with no ``tool`` message (naming the id).
    """
    result: list[dict[str, Any]] = []
    for index, entry in enumerate(messages):
        if "rejected" in entry:
            continue
        role = entry.get("role")
        if role == "assistant" and entry.get("tool_calls"):
            extras = _extras(entry.get("provider_items"))
            request: dict[str, Any] = {"role": "assistant", "content": extras.get("content")}
            if extras.get("reasoning_content") is not None:
                request["reasoning_content"] = extras["reasoning_content"]
            request["tool_calls"] = [
                {
                    "id": call["call_id"],
                    "type": "function",
                    "function": {
                        "name": call["name"],
                        "arguments": json.dumps(call["arguments"], ensure_ascii=False),
                    },
                }
                for call in entry["tool_calls"]
            ]
            result.append(request)
        elif role == "tool":
            result.append(
                {"role": "tool", "tool_call_id": entry["tool_call_id"], "content": entry["content"]}
            )
        elif role in ("user", "system", "assistant"):
            result.append({"role": role, "content": entry["content"]})
        else:
            raise ProviderRequestError(
                f"Transcript message {index} has role {role!r}, which the adapter cannot send.",
                hint="Use the roles user, system, assistant or tool.",
            )
    _check_pairing(result)
    return result


def _check_pairing(messages: Sequence[Mapping[str, Any]]) -> None:
    """Refuse what the provider would refuse: a tool message without its call, a call
    without its tool message (every id answered before the next other message)."""
    waiting: list[str] = []
    for message in messages:
        if message["role"] == "tool":
            if message["tool_call_id"] not in waiting:
                raise ProviderRequestError(
                    f"The tool message for tool_call_id {message['tool_call_id']!r} answers no "
                    "call of the assistant message before it; nothing was sent.",
                    hint=_PAIRING_HINT,
                )
            waiting.remove(message["tool_call_id"])
            continue
        if waiting:
            break
        waiting = [call["id"] for call in message.get("tool_calls") or ()]
    if waiting:
        raise ProviderRequestError(
            f"The tool call {waiting[0]!r} has no tool message with its result; nothing was sent.",
            hint=_PAIRING_HINT,
        )


_PAIRING_HINT = (
    "Every tool call needs its observation right after the request, paired by id; check "
    "messages the application added to the transcript."
)

_SHAPE_HINT = (
    "Check that DEEPSEEK_BASE_URL points at a Chat Completions API; if it does, run again."
)
_FINISH_HINTS = {
    "length": "The reply was cut off before the model finished; ask for less, or allow more "
    "output tokens.",
    "content_filter": "The provider's content filter stopped the reply; rephrase the request.",
    "insufficient_system_resource": "The provider ran short of capacity and stopped the reply; "
    "wait a little and run again.",
}


def to_chat_model_turn(
    completion: Mapping[str, Any], *, max_arguments_chars: int = MAX_ARGUMENTS_CHARS
) -> ModelTurn:
    """Translate a chat completion (as JSON) into a :class:`ModelTurn`.

    ``choices[0].message.tool_calls`` become :class:`ToolCall` objects in order (``id`` is
    the ``call_id``; ``function.arguments`` parsed by
    :func:`~agentcore.providers.deepseek.parse_arguments`, the same strict rules as the
    Responses adapter); without any, a non-blank ``content`` is the final text. Text said
    beside the calls and ``reasoning_content`` travel in ``provider_items`` as one
    ``{"content", "reasoning_content"}`` entry (only what was set), so that
    :func:`to_chat_messages` sends them back.

    Raises :class:`ProviderResponseError` (with a hint) for: no choice; a ``finish_reason``
    other than ``"stop"`` or ``"tool_calls"`` (``"length"``, ``"content_filter"``,
    ``"insufficient_system_resource"`` each with their own hint); no tool call and no text
    (naming a refusal if there is one); a call that is not a function, has an empty id or
    name, or whose arguments :func:`parse_arguments` refuses; and any field of the wrong
    shape.
    """
    name = f"Chat completion {completion.get('id', '?')!r}"
    try:
        return _to_turn(name, completion, max_arguments_chars)
    except (AttributeError, TypeError, ValueError, KeyError, RecursionError) as error:
        raise ProviderResponseError(
            f"{name} is not shaped like a Chat Completions object "
            f"({type(error).__name__}: {error}).",
            hint=_SHAPE_HINT,
        ) from None


def _to_turn(name: str, completion: Mapping[str, Any], max_arguments_chars: int) -> ModelTurn:
    choices = completion.get("choices")
    if not isinstance(choices, list) or not choices:
        raise ProviderResponseError(f"{name} holds no choice.", hint=_SHAPE_HINT)
    choice = choices[0]
    message = choice.get("message")
    if not isinstance(message, Mapping):
        raise ProviderResponseError(f"{name} has a choice without a message.", hint=_SHAPE_HINT)
    finish_reason = choice.get("finish_reason")
    if finish_reason not in ("stop", "tool_calls"):
        raise ProviderResponseError(
            f"{name} stopped with finish_reason {finish_reason!r}, not 'stop' or 'tool_calls'.",
            hint=_FINISH_HINTS.get(str(finish_reason), _SHAPE_HINT),
        )
    raw_calls = message.get("tool_calls") or []
    if not isinstance(raw_calls, list):
        raise TypeError(f"tool_calls is a {type(raw_calls).__name__}, not a list")
    calls = [_tool_call(call, max_arguments_chars) for call in raw_calls]
    text, thought = message.get("content"), message.get("reasoning_content")
    for field, value in (("content", text), ("reasoning_content", thought)):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{field} is a {type(value).__name__}, not a string")
    if calls:
        extras = {"content": text if text and text.strip() else None, "reasoning_content": thought}
        kept = {key: value for key, value in extras.items() if value is not None}
        return ModelTurn(tool_calls=tuple(calls), provider_items=(kept,) if kept else ())
    if text and text.strip():
        kept = {"reasoning_content": thought} if thought is not None else {}
        return ModelTurn(final_text=text, provider_items=(kept,) if kept else ())
    refusal = message.get("refusal")
    if refusal:
        raise ProviderResponseError(
            f"{name} is a refusal, not an answer: {str(refusal)[:200]!r}.",
            hint="Rephrase the request.",
        )
    raise ProviderResponseError(
        f"{name} holds no tool call and no text.",
        hint="The model produced nothing the runtime can act on; run again.",
    )


def _tool_call(call: Any, max_arguments_chars: int) -> ToolCall:
    if not isinstance(call, Mapping):
        raise TypeError(f"a tool call is a {type(call).__name__}, not an object")
    call_id, function = call.get("id"), call.get("function")
    if call.get("type", "function") != "function" or not isinstance(function, Mapping):
        raise ProviderResponseError(
            f"The tool call {call_id!r} is of type {call.get('type')!r}, not a function.",
            hint="The runtime can only run function tools; the turn was rejected.",
        )
    name, arguments = function.get("name"), function.get("arguments")
    if not isinstance(name, str) or not name.strip():
        raise ProviderResponseError(
            f"A tool call (id {call_id!r}) has an empty function name.",
            hint="The runtime cannot know which tool to run; the turn was rejected.",
        )
    if not isinstance(call_id, str) or not call_id.strip():
        raise ProviderResponseError(
            f"The tool call to {name!r} has an empty id.",
            hint="Its result could not be paired with it; the turn was rejected.",
        )
    if not isinstance(arguments, str):
        raise ProviderResponseError(
            f"The arguments of function {name!r} (id {call_id!r}) are a "
            f"{type(arguments).__name__}, not a JSON string.",
            hint="No tool ran for this turn; run again, or simplify the tool's arguments.",
        )
    return ToolCall(call_id, name, parse_arguments(name, arguments, max_arguments_chars))
