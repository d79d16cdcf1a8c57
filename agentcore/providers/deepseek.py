"""The DeepSeek Responses adapter: the provider's wire format stays here (chapter section 10).

:class:`DeepSeekResponsesModel` satisfies ``Model.generate(messages, tools) -> ModelTurn``, so
the runtime cannot tell it from a scripted model. It does three translations, first in this
module:

* the whole transcript becomes the request's ``input`` items, every turn
  (:func:`to_input_items`): DeepSeek's ``POST /responses`` is stateless and silently ignores
  ``previous_response_id``, so the adapter re-sends everything (10.1, 10.2);
* a runtime tool schema becomes a Responses function tool (:func:`to_function_tool`);
* the reply's ``function_call`` items become :class:`ToolCall` objects, in output order
  (10.3), or its text becomes the final text (:func:`to_model_turn`).

The hardening comes after them: pairing every ``function_call`` with its
``function_call_output`` before anything is sent (:func:`check_pairing`) and reading a
function's ``arguments`` strictly (:func:`~agentcore.providers.tool_calls.parse_arguments`,
shared with the Chat Completions adapter). The settings, the owned client and the send are
:mod:`agentcore.providers.connection`; the HTTP side (caps, the deadline, redaction, typed
errors) is :mod:`agentcore.providers.http`.

Wire format source: DeepSeek's API docs (api-docs.deepseek.com, "Responses API" and
"Thinking Mode", 2026): ``input`` items ``message``, ``function_call`` (``call_id``, ``name``,
``arguments`` as a JSON string), ``function_call_output`` (``call_id``, ``output``) and
``reasoning`` (plain ``reasoning_text``, to be sent back in place when tools are used);
``reasoning: {"effort": "none" | "low" | "high" | "max"}`` (default ``high``; ``none`` turns
thinking off).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from openai.types.responses import Response
from pydantic import SecretStr

from agentcore.protocol import ModelTurn, ToolCall, ToolSchema
from agentcore.providers.connection import Connection, stripped_key
from agentcore.providers.deepseek_settings import (
    CONNECTION_HINT,
    ReasoningEffort,
    deepseek_settings,
)
from agentcore.providers.errors import ProviderRequestError, ProviderResponseError
from agentcore.providers.http import SecretText, hidden_all, redact, redact_json
from agentcore.providers.provider_items import responses_items
from agentcore.providers.tool_calls import MAX_ARGUMENTS_CHARS, checked_tool_call, unique_calls
from agentcore.transcript import Message

# --- the three translations -----------------------------------------------------------------


def to_input_items(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """Translate the whole transcript into Responses ``input`` items (chapter 10.1, 10.2).

    Input: the runtime's messages. Output, one entry per message, in order:

    * user, system or developer: ``{"type": "message", "role", "content"}``;
    * an assistant tool request: one ``{"type": "function_call", "call_id", "name",
      "arguments"}`` per entry of the message's ``tool_calls`` (``arguments`` a JSON string,
      non-ASCII kept): what was called always comes from the transcript;
    * an observation: ``{"type": "function_call_output", "call_id", "output"}``;
    * a final assistant text: ``{"type": "message", "role": "assistant", "content"}``;
    * from an assistant message's ``provider_items`` (the provider's output for that turn),
      only what the runtime does not model: ``reasoning`` items and text said beside calls,
      exactly as received and in their place. DeepSeek answers 400 in thinking mode when a
      reasoning item is not sent back. Items a Chat Completions adapter wrote
      (``{"content", "reasoning_content"}``) become a ``reasoning`` item and a ``message``
      item (:func:`~agentcore.providers.provider_items.responses_items`), so a transcript made
      through either wire format continues through this one.

    A message with a ``rejected`` key (a reply the adapter refused, recorded by the runtime)
    is skipped: it was never part of the conversation the provider agreed to.

    Raises :class:`ProviderRequestError` naming the message for a role it cannot send, and
    naming the message and the item for a provider item neither wire format wrote.
    """
    items: list[dict[str, Any]] = []
    for index, entry in enumerate(messages):
        role = entry.get("role")
        if "rejected" in entry:
            continue
        if role == "assistant":
            items += _assistant_items(entry, index)
        elif role == "tool":
            items.append(
                {
                    "type": "function_call_output",
                    "call_id": entry["tool_call_id"],
                    "output": entry["content"],
                }
            )
        elif role in ("user", "system", "developer"):
            items.append({"type": "message", "role": role, "content": entry["content"]})
        else:
            raise ProviderRequestError(
                f"Transcript message {index} has role {role!r}, which the adapter cannot send.",
                hint="Use the roles user, system, developer, assistant or tool.",
            )
    return items


def to_function_tool(schema: ToolSchema) -> dict[str, Any]:
    """Translate one runtime tool schema into a Responses function tool.

    Input: ``{"name", "description", "parameters"}`` as :meth:`agentcore.Tool.schema` gives
    it, where ``parameters`` already is the strict JSON Schema the tool was built with.
    Output: ``{"type": "function", "name", "description", "parameters", "strict": True}``,
    ``parameters`` passed through unchanged. DeepSeek does not document ``strict`` for
    ``/responses``, so it is a request, not a guarantee: the runtime validates every call's
    arguments against the tool's pydantic model before any handler runs.
    """
    return {
        "type": "function",
        "name": schema["name"],
        "description": schema.get("description", ""),
        "parameters": schema["parameters"],
        "strict": True,
    }


def to_model_turn(
    response: Mapping[str, Any],
    *,
    max_arguments_chars: int = MAX_ARGUMENTS_CHARS,
    secrets: Iterable[SecretText] = (),
) -> ModelTurn:
    """Translate a Responses API object (as JSON) into a :class:`ModelTurn` (chapter 10.3).

    Inputs: the reply; the longest ``arguments`` string accepted; the ``secrets`` that no
    text taken from the reply may show. Output: its ``function_call`` items as
    :class:`ToolCall` objects in output order; without any, the text of its ``output_text``
    parts as the final text. When the output holds items the turn does not model
    (reasoning, text said beside the calls), the whole output travels in
    ``provider_items`` so that :func:`to_input_items` can send those items back.

    Raises :class:`ProviderResponseError` (its ``rejected`` holding the output items) for a
    status other than ``completed`` (naming the reason: ``max_output_tokens`` or
    ``content_filter``), fields of the wrong shape, an output item of a type it does not model
    (:data:`MODELLED_ITEMS`; a ``custom_tool_call`` beside a message is refused, never read
    as a final text),  an output without function calls and
    without text (naming a refusal), and any call refused by
    :func:`~agentcore.providers.tool_calls.parse_arguments` or holding an empty ``call_id`` or
    name.
    """
    output = response.get("output")
    secrets = hidden_all(secrets)
    raw = redact_json(list(output), secrets) if isinstance(output, list) else []
    try:
        return _turn(response, secrets, max_arguments_chars)
    except ProviderResponseError as error:
        error.rejected = tuple(raw)
        raise


# --- the adapter ----------------------------------------------------------------------------


class DeepSeekResponsesModel(Connection):
    """A :class:`agentcore.Model` backed by DeepSeek's Responses API (chapter section 10).

    Inputs (all keyword-only except ``model``):

    * ``model``: the model name (``deepseek-flash``); default ``DEEPSEEK_MODEL``.
    * ``api_key``: default ``DEEPSEEK_API_KEY``. Kept out of every repr and message.
    * ``base_url``: default ``DEEPSEEK_BASE_URL``, else ``https://api.deepseek.com``.
    * ``timeout``: seconds one HTTP attempt may take in total (default 60), the whole reply
      included; ``max_retries``: the SDK's retries, 0 to 5 (default 2).
    * ``reasoning_effort``: ``"none"``, ``"low"``, ``"high"`` or ``"max"``, sent as
      ``reasoning: {"effort": ...}``; default ``None`` sends nothing (DeepSeek thinks at
      ``high``).
    * ``instructions``: sent as the request's ``instructions`` (a system prompt), if given.
    * ``max_arguments_chars``: the longest ``arguments`` string accepted.

    The adapter builds and owns its HTTP client (:func:`agentcore.providers.http.build_sdk_client`):
    nothing from ``OPENAI_*`` variables reaches a request, loopback never goes through a
    proxy, redirects are not followed, replies are capped.

    Raises :class:`ProviderConfigurationError` when no API key or no model is configured
    (one sentence with the commands for bash, PowerShell and cmd) or the key cannot travel in
    an HTTP header; ``ValueError`` for a number out of range or an unknown effort;
    ``TypeError`` for a setting of the wrong type. :meth:`generate` raises a
    :class:`ProviderError` subclass for every provider problem.
    """

    connection_hint = CONNECTION_HINT
    status_hints = "deepseek"

    def __init__(
        self,
        model: str | None = None,
        *,
        api_key: str | SecretStr | None = None,
        base_url: str | None = None,
        timeout: float | None = None,
        max_retries: int | None = None,
        reasoning_effort: ReasoningEffort | None = None,
        instructions: str | None = None,
        max_arguments_chars: int = MAX_ARGUMENTS_CHARS,
    ) -> None:
        api_key = stripped_key(api_key)  # from here on, no frame holds the key's text
        settings = deepseek_settings(model, api_key, base_url, reasoning_effort)
        super().__init__(
            **settings._asdict(),
            timeout=timeout,
            max_retries=max_retries,
            instructions=instructions,
            max_arguments_chars=max_arguments_chars,
        )
        self.reasoning_effort = reasoning_effort

    def generate(self, messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        """Send the whole transcript and the tools; return the model's turn.

        Input: the transcript (the runtime's message dicts) and the tool schemas
        (``{"name", "description", "parameters"}``). Output: a :class:`ModelTurn` with
        tool calls in the provider's output order, or the final text.

        Raises :class:`ProviderRequestError` before sending anything when a message cannot
        be translated or a call and its output are not paired; the provider's HTTP failures
        as :class:`ProviderConnectionError`, :class:`ProviderTimeoutError` or
        :class:`ProviderStatusError`; :class:`ProviderResponseError` for a reply that breaks
        the wire format or the adapter's limits. No handler runs on a rejected turn.
        """
        # Only what is set is sent: the request body is exactly what a lesson shows.
        request: dict[str, Any] = {"model": self.model, "input": to_input_items(messages)}
        check_pairing(request["input"])
        if tools:
            request["tools"] = [to_function_tool(schema) for schema in tools]
        if self.instructions is not None:
            request["instructions"] = self.instructions
        if self.reasoning_effort is not None:
            request["reasoning"] = {"effort": self.reasoning_effort}
        return to_model_turn(
            self._send(request),
            max_arguments_chars=self.max_arguments_chars,
            secrets=self._secrets,
        )

    def _send(self, request: dict[str, Any]) -> dict[str, Any]:
        """POST one request to ``/responses``; return the reply as the JSON it arrived as
        (:meth:`~agentcore.providers.connection.Connection._post` types every failure)."""
        return self._post(
            self._client.responses.create,
            request,
            expected=Response,
            endpoint="/responses",
            what="a Responses API object",
            hint="Check that the base URL points at a Responses API.",
        )

    def _repr_options(self) -> Iterable[tuple[str, object]]:
        return (("reasoning_effort", self.reasoning_effort),)


# --- hardening ------------------------------------------------------------------------------


def check_pairing(items: Sequence[Mapping[str, Any]]) -> None:
    """Refuse input items whose calls and outputs are not paired one to one by ``call_id``.

    Input: the ``input`` items. Every ``function_call_output`` needs an earlier
    ``function_call`` with its ``call_id``, and every ``function_call`` needs exactly one
    output (DeepSeek answers 400 otherwise, after the transcript was sent). Raises
    :class:`ProviderRequestError` naming the ``call_id``; nothing is sent.
    """
    open_calls: dict[str, int] = {}
    answered: set[str] = set()
    for item in items:
        kind, call_id = item.get("type"), str(item.get("call_id"))
        if kind == "function_call":
            open_calls[call_id] = open_calls.get(call_id, 0) + 1
        elif kind == "function_call_output":
            if call_id not in open_calls or call_id in answered:
                raise ProviderRequestError(
                    f"The function_call_output for call_id {call_id!r} has no earlier "
                    "function_call of its own; nothing was sent.",
                    hint=_PAIRING_HINT,
                )
            answered.add(call_id)
    for call_id, count in open_calls.items():
        if count > 1 or call_id not in answered:
            problem = "appears twice" if count > 1 else "has no function_call_output"
            raise ProviderRequestError(
                f"The function_call with call_id {call_id!r} {problem}; nothing was sent.",
                hint=_PAIRING_HINT,
            )


_PAIRING_HINT = (
    "Every tool request in the transcript needs exactly one observation with its call_id; "
    "build the transcript with AgentRuntime, or check the messages you wrote by hand."
)


def _assistant_items(entry: Message, index: int) -> list[dict[str, Any]]:
    """The input items of one assistant message; see :func:`to_input_items`."""
    calls = [
        {
            "type": "function_call",
            "call_id": call["call_id"],
            "name": call["name"],
            "arguments": json.dumps(call["arguments"], ensure_ascii=False),
        }
        for call in entry.get("tool_calls") or ()
    ]
    modelled = "function_call" if calls else "message"
    said = calls or [{"type": "message", "role": "assistant", "content": entry["content"]}]
    items: list[dict[str, Any]] = []
    for item in copy.deepcopy(responses_items(entry.get("provider_items"), index)):
        if item.get("type") != modelled:
            items.append(item)
        elif said:  # the transcript's own version, where the provider put the first one
            items += said
            said = []
    return items + said


def _turn(response: Mapping[str, Any], secrets: tuple[SecretStr, ...], limit: int) -> ModelTurn:
    """The body of :func:`to_model_turn`, which attaches the rejected items to its errors."""
    response_id = redact(str(response.get("id", "?")), secrets, limit=40)
    status = response.get("status")
    if status != "completed":
        raise _incomplete(response, response_id, secrets)
    output = response.get("output")
    if not isinstance(output, list) or not all(isinstance(item, Mapping) for item in output):
        raise _shape(response_id, "its output is not a list of items")
    for item in output:
        if item.get("type") not in MODELLED_ITEMS:
            raise _unknown_item(response_id, item.get("type"), secrets)
    calls = [
        _tool_call(item, limit, secrets) for item in output if item.get("type") == "function_call"
    ]
    parts: list[Mapping[str, Any]] = []
    for item in output:
        if item.get("type") == "message":
            content = item.get("content")
            if not isinstance(content, list) or not all(isinstance(p, Mapping) for p in content):
                raise _shape(response_id, "a message's content is not a list of parts")
            parts += content
    texts = [part.get("text") for part in parts if part.get("type") == "output_text"]
    if not all(isinstance(text, str) for text in texts):
        raise _shape(response_id, "an output_text part holds no string")
    text = redact("".join(str(text) for text in texts), secrets, limit=None)
    rebuilt = "function_call" if calls else "message"
    replay = (
        tuple(redact_json(item, secrets) for item in output)
        if any(item.get("type") != rebuilt for item in output)
        else ()
    )
    if calls:
        return ModelTurn(
            tool_calls=unique_calls(calls, noun="function_call", id_label="call_id"),
            provider_items=replay,
        )
    if text.strip():
        return ModelTurn(final_text=text, provider_items=replay)
    refusal = next((p.get("refusal") for p in parts if p.get("type") == "refusal"), None)
    if refusal:
        raise ProviderResponseError(
            f"Response {response_id} is a refusal, not an answer: "
            f"{redact(str(refusal), secrets)!r}.",
            kind="refusal",
            hint="Rephrase the request.",
        )
    raise ProviderResponseError(
        f"Response {response_id} holds no function call and no text.",
        kind="empty reply",
        hint="The model produced nothing the runtime can act on; run again.",
    )


_INCOMPLETES = {
    "max_output_tokens": (
        "cut off",
        "The reply was cut off before the model finished; ask for less, or allow more output "
        "tokens.",
    ),
    "content_filter": (
        "content filter",
        "DeepSeek's content filter stopped the reply; rephrase the request (running again with "
        "the same words will stop the same way).",
    ),
}
"""The ``incomplete_details.reason`` values with a cause of their own: ``kind`` and hint."""


def _incomplete(
    response: Mapping[str, Any], response_id: str, secrets: tuple[SecretStr, ...]
) -> ProviderResponseError:
    details, error = response.get("incomplete_details"), response.get("error")
    reason = details.get("reason") if isinstance(details, Mapping) else None
    failure = error.get("message") if isinstance(error, Mapping) else None
    detail = f" (reason: {reason})" if reason else f" ({failure})" if failure else ""
    cause, hint = _INCOMPLETES.get(
        str(reason), ("unfinished", "Run again; if it repeats, look at the provider's status page.")
    )
    return ProviderResponseError(
        f"Response {response_id} has status "
        f"{redact(repr(response.get('status')), secrets, limit=40)}"
        f"{redact(detail, secrets)}, not 'completed'.",
        kind=cause,
        hint=hint,
    )


MODELLED_ITEMS = ("message", "function_call", "reasoning")
"""The output item types the adapter reads (DeepSeek's Responses API documents these three).
The Responses format has others (``custom_tool_call``, ``web_search_call``, ``mcp_call``...):
any of them is refused, since a call in it would otherwise be lost without a word."""


def _unknown_item(
    response_id: str, kind: object, secrets: tuple[SecretStr, ...]
) -> ProviderResponseError:
    shown = redact(repr(kind), secrets, limit=60)
    return ProviderResponseError(
        f"Response {response_id} holds an output item of type {shown}, which the adapter does "
        f"not model (it reads {', '.join(MODELLED_ITEMS)}); whatever it asked for would be "
        "lost, so the turn was rejected.",
        kind="unknown item",
        hint="No tool ran for this turn. The adapter offers only function tools; check that "
        "nothing between it and the server adds other tools (custom or built-in) to the "
        "request, then run again.",
    )


def _shape(response_id: str, problem: str) -> ProviderResponseError:
    return ProviderResponseError(
        f"Response {response_id} is not shaped like a Responses API object: {problem}.",
        kind="shape",
        hint="Check DEEPSEEK_BASE_URL points at a Responses API; if it does, run again.",
    )


def _tool_call(item: Mapping[str, Any], limit: int, secrets: tuple[SecretStr, ...]) -> ToolCall:
    return checked_tool_call(
        item.get("call_id"),
        item.get("name"),
        item.get("arguments"),
        limit,
        secrets,
        noun="function_call",
        id_label="call_id",
        name_label="name",
    )
