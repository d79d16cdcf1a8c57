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
function's ``arguments`` strictly (:func:`parse_arguments`). The HTTP side (an owned client,
caps, the deadline, redaction, typed errors) is :mod:`agentcore.providers.http`.

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
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, NamedTuple, get_args

import openai
from openai.types.responses import Response

from agentcore.protocol import ModelTurn, ToolCall, ToolSchema
from agentcore.providers.errors import (
    ProviderConfigurationError,
    ProviderError,
    ProviderRequestError,
    ProviderResponseError,
)
from agentcore.providers.http import (
    MAX_RETRIES_LIMIT,
    PREVIEW_CHARS,
    build_sdk_client,
    redact,
    redact_json,
    sdk_error,
)
from agentcore.transcript import Message
from agentcore.validation import int_at_least

DEFAULT_BASE_URL = "https://api.deepseek.com"
"""DeepSeek's API; the SDK sends ``POST {base_url}/responses``."""
DEFAULT_TIMEOUT = 60.0
"""Seconds one HTTP attempt may take in total: connecting, sending and the whole reply."""
DEFAULT_MAX_RETRIES = 2
"""How many times the SDK retries a refused connection, 408, 409, 429 or 5xx (at most 5)."""
MAX_ARGUMENTS_CHARS = 32_768
"""The adapter's limit on one call's ``arguments`` string (characters).

Not a provider limit: a teaching tool's arguments are a few dozen characters, and a longer
string means a runaway generation that should not be parsed and handed to a tool.
"""
ReasoningEffort = Literal["none", "low", "high", "max"]
"""DeepSeek's documented efforts for ``reasoning.effort``; ``"none"`` turns thinking off."""

_EXAMPLES = {"DEEPSEEK_API_KEY": "your-deepseek-api-key", "DEEPSEEK_MODEL": "deepseek-flash"}
"""Placeholder values shown in the configuration message, never a real key."""


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
      reasoning item is not sent back.

    A message with a ``rejected`` key (a reply the adapter refused, recorded by the runtime)
    is skipped: it was never part of the conversation the provider agreed to.

    Raises :class:`ProviderRequestError` naming the message for a role it cannot send.
    """
    items: list[dict[str, Any]] = []
    for index, entry in enumerate(messages):
        role = entry.get("role")
        if "rejected" in entry:
            continue
        if role == "assistant":
            items += _assistant_items(entry)
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
    secrets: Iterable[str] = (),
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
    ``content_filter``), fields of the wrong shape, an output without function calls and
    without text (naming a refusal), and any call refused by :func:`parse_arguments` or
    holding an empty ``call_id`` or name.
    """
    output = response.get("output")
    secrets = tuple(secrets)
    raw = redact_json(list(output), secrets) if isinstance(output, list) else []
    try:
        return _turn(response, secrets, max_arguments_chars)
    except ProviderResponseError as error:
        error.rejected = tuple(raw)
        raise


# --- the adapter ----------------------------------------------------------------------------


class DeepSeekConnection:
    """What both DeepSeek adapters share: their checked settings and their own HTTP client.

    Inputs as :class:`DeepSeekResponsesModel` documents them; the unset ones come from
    ``DEEPSEEK_*`` (:func:`_settings` checks them). Attributes: ``model``,
    ``reasoning_effort``, ``instructions``, ``max_arguments_chars``, ``timeout`` (seconds),
    ``max_retries`` and :attr:`base_url`; the key stays private and out of every text.
    Raises as :func:`_settings` does.
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float | None = None,
        max_retries: int | None = None,
        reasoning_effort: ReasoningEffort | None = None,
        instructions: str | None = None,
        max_arguments_chars: int = MAX_ARGUMENTS_CHARS,
    ) -> None:
        settings = _settings(model, api_key, base_url, timeout, max_retries, reasoning_effort)
        self.model = settings.model
        self.reasoning_effort = reasoning_effort
        self.instructions = instructions
        self.max_arguments_chars = int_at_least("max_arguments_chars", max_arguments_chars, 1)
        self.timeout = settings.timeout
        self.max_retries = settings.max_retries
        self._api_key = settings.api_key
        self._client = build_sdk_client(
            api_key=settings.api_key,
            base_url=settings.base_url,
            timeout=settings.timeout,
            max_retries=settings.max_retries,
        )

    @property
    def base_url(self) -> str:
        """Where requests go (the API's path is added to it), without a trailing slash."""
        return redact(str(self._client.base_url).rstrip("/"), (self._api_key,), limit=None)


class DeepSeekResponsesModel(DeepSeekConnection):
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
            secrets=(self._api_key,),
        )

    def _send(self, request: dict[str, Any]) -> dict[str, Any]:
        """POST one request through the SDK; return the reply as the JSON it arrived as.

        The owned HTTP client raises :class:`ProviderError` itself for the boundary's
        failures (deadline, caps, redirects, unreadable bodies); the SDK's own exceptions
        are typed by :func:`agentcore.providers.http.sdk_error`.
        """
        failure: ProviderError
        try:
            # The items follow the documented wire format; provider_items are replayed
            # exactly as the provider sent them, which the SDK's TypedDicts cannot describe.
            response = self._client.responses.create(**request)
        except openai.OpenAIError as error:
            failure = sdk_error(error, base_url=self.base_url, secrets=(self._api_key,))
        else:
            if isinstance(response, Response):
                # Malformed items are this adapter's to report (to_model_turn), not pydantic's
                # to warn about while turning the reply back into the JSON it arrived as.
                return response.to_dict(mode="json", warnings=False)
            failure = ProviderResponseError(
                f"The reply from {self.base_url}/responses is not a Responses API object "
                f"(got {type(response).__name__}).",
                hint="Check that the base URL points at a Responses API.",
            )
        # Raised here, outside the except block, so the SDK's exception (whose request
        # holds the Authorization header) is not chained to ours and never printed.
        raise failure

    def __repr__(self) -> str:
        effort = f", reasoning_effort={self.reasoning_effort!r}" if self.reasoning_effort else ""
        return redact(
            f"DeepSeekResponsesModel(model={self.model!r}, base_url={self.base_url!r}, "
            f"timeout={self.timeout!r}, max_retries={self.max_retries}{effort})",
            (self._api_key,),
            limit=None,
        )


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


def _assistant_items(entry: Message) -> list[dict[str, Any]]:
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
    for item in copy.deepcopy(list(entry.get("provider_items") or ())):  # plain copies
        if not isinstance(item, dict) or item.get("type") != modelled:
            items.append(item)
        elif said:  # the transcript's own version, where the provider put the first one
            items += said
            said = []
    return items + said


def _turn(response: Mapping[str, Any], secrets: tuple[str, ...], limit: int) -> ModelTurn:
    """The body of :func:`to_model_turn`, which attaches the rejected items to its errors."""
    response_id = redact(str(response.get("id", "?")), secrets, limit=40)
    status = response.get("status")
    if status != "completed":
        raise _incomplete(response, response_id, secrets)
    output = response.get("output")
    if not isinstance(output, list) or not all(isinstance(item, Mapping) for item in output):
        raise _shape(response_id, "its output is not a list of items")
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
        return ModelTurn(tool_calls=tuple(calls), provider_items=replay)
    if text.strip():
        return ModelTurn(final_text=text, provider_items=replay)
    refusal = next((p.get("refusal") for p in parts if p.get("type") == "refusal"), None)
    if refusal:
        raise ProviderResponseError(
            f"Response {response_id} is a refusal, not an answer: "
            f"{redact(str(refusal), secrets)!r}.",
            hint="Rephrase the request.",
        )
    raise ProviderResponseError(
        f"Response {response_id} holds no function call and no text.",
        hint="The model produced nothing the runtime can act on; run again.",
    )


_INCOMPLETE_HINTS = {
    "max_output_tokens": "The reply was cut off before the model finished; ask for less, or "
    "allow more output tokens.",
    "content_filter": "DeepSeek's content filter stopped the reply; rephrase the request "
    "(running again with the same words will stop the same way).",
}


def _incomplete(
    response: Mapping[str, Any], response_id: str, secrets: tuple[str, ...]
) -> ProviderResponseError:
    details, error = response.get("incomplete_details"), response.get("error")
    reason = details.get("reason") if isinstance(details, Mapping) else None
    failure = error.get("message") if isinstance(error, Mapping) else None
    detail = f" (reason: {reason})" if reason else f" ({failure})" if failure else ""
    return ProviderResponseError(
        f"Response {response_id} has status "
        f"{redact(repr(response.get('status')), secrets, limit=40)}"
        f"{redact(detail, secrets)}, not 'completed'.",
        hint=_INCOMPLETE_HINTS.get(
            str(reason), "Run again; if it repeats, look at the provider's status page."
        ),
    )


def _shape(response_id: str, problem: str) -> ProviderResponseError:
    return ProviderResponseError(
        f"Response {response_id} is not shaped like a Responses API object: {problem}.",
        hint="Check DEEPSEEK_BASE_URL points at a Responses API; if it does, run again.",
    )


def _tool_call(item: Mapping[str, Any], limit: int, secrets: tuple[str, ...]) -> ToolCall:
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


def checked_tool_call(
    call_id: object,
    name: object,
    arguments: object,
    limit: int,
    secrets: tuple[str, ...],
    *,
    noun: str,
    id_label: str,
    name_label: str,
) -> ToolCall:
    """A :class:`ToolCall` from the three fields a reply gives for one call (both adapters).

    Inputs: the call's id, name and ``arguments`` text as the reply holds them; the longest
    ``arguments`` accepted; the ``secrets`` no message may show; and the wire format's words
    for the call, its id field and its name field (Responses: ``function_call``, ``call_id``,
    ``name``; Chat Completions: ``tool call``, ``id``, ``function name``). Raises
    :class:`ProviderResponseError` for an empty name or id, arguments that are not a string,
    and whatever :func:`parse_arguments` refuses.
    """
    shown_id = redact(repr(call_id), secrets, limit=60)
    if not isinstance(name, str) or not name.strip():
        raise ProviderResponseError(
            f"A {noun} ({id_label} {shown_id}) has an empty {name_label}.",
            hint="The runtime cannot know which tool to run; the turn was rejected.",
        )
    shown_name = redact(repr(name), secrets, limit=60)
    if not isinstance(call_id, str) or not call_id.strip():
        raise ProviderResponseError(
            f"The {noun} to {shown_name} has an empty {id_label}.",
            hint="Its output could not be paired with it; the turn was rejected.",
        )
    if not isinstance(arguments, str):
        raise ProviderResponseError(
            f"The arguments of function {shown_name} ({id_label} {shown_id}) are a "
            f"{type(arguments).__name__}, not a JSON string.",
            hint=_ARGUMENTS_HINT,
        )
    return ToolCall(call_id, name, parse_arguments(name, arguments, limit, secrets))


_ARGUMENTS_HINT = "No tool ran for this turn; run again, or simplify the tool's arguments."


class _ArgumentsProblem(ValueError):
    """Raised from inside ``json.loads`` hooks; turned into a ProviderResponseError."""


def _no_constant(name: str) -> Any:
    raise _ArgumentsProblem(f"they hold {name}, which is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _ArgumentsProblem(f"the number {text[:40]} is too large to be finite")
    return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _ArgumentsProblem(f"they hold the key {key!r} twice")
        seen[key] = value
    return seen


def parse_arguments(
    name: str,
    arguments: str,
    max_arguments_chars: int = MAX_ARGUMENTS_CHARS,
    secrets: Iterable[str] = (),
) -> dict[str, Any]:
    """Parse a function call's ``arguments`` string into a JSON object, strictly.

    Inputs: the function ``name`` (for messages), the ``arguments`` string, the longest
    string accepted and the ``secrets`` no message may show. Output: the object as a
    ``dict``.

    Raises :class:`ProviderResponseError`, naming the function and showing at most
    :data:`~agentcore.providers.http.PREVIEW_CHARS` characters (redacted first), when the
    string is longer than the limit, is not JSON, is nested too deep, is JSON but not an
    object, or holds ``NaN``/``Infinity``, a number too large to be finite, or a key twice
    (Python's ``json.loads`` accepts those last two silently).
    """
    secrets = tuple(secrets)
    shown = redact(repr(name), secrets, limit=60)
    preview = redact(arguments, secrets, limit=PREVIEW_CHARS)
    problem: str | None = None
    if len(arguments) > max_arguments_chars:
        problem = (
            f"are {len(arguments)} characters long, over the adapter's limit of "
            f"{max_arguments_chars}"
        )
    else:
        try:
            value = json.loads(
                arguments,
                parse_constant=_no_constant,
                parse_float=_finite,
                object_pairs_hook=_unique_keys,
            )
        except json.JSONDecodeError as error:
            problem = f"are not JSON ({error.msg} at character {error.pos})"
        except _ArgumentsProblem as error:
            problem = f"are not valid JSON: {redact(str(error), secrets)}"
        except (RecursionError, ValueError) as error:  # nesting too deep, an integer too long
            problem = f"cannot be read as JSON here ({type(error).__name__})"
        else:
            if isinstance(value, dict):
                return value
            problem = f"are JSON but not an object (got {type(value).__name__})"
    raise ProviderResponseError(
        f"The arguments of function {shown} {problem}: {preview!r}.", hint=_ARGUMENTS_HINT
    )


class _Settings(NamedTuple):
    """A DeepSeek adapter's checked connection settings (both DeepSeek adapters read them)."""

    model: str
    api_key: str
    base_url: str
    timeout: float
    max_retries: int


def _settings(
    model: str | None,
    api_key: str | None,
    base_url: str | None,
    timeout: float | None,
    max_retries: int | None,
    reasoning_effort: str | None,
) -> _Settings:
    """Check a DeepSeek adapter's settings, filling the unset ones from ``DEEPSEEK_*``.

    Raises :class:`ProviderConfigurationError` when no API key or no model is configured (one
    sentence with the commands for bash, PowerShell and cmd) or the key cannot travel in an
    HTTP header; ``ValueError`` for a number out of range or an unknown effort; ``TypeError``
    for a setting of the wrong type.
    """
    for name, value in (("model", model), ("api_key", api_key), ("base_url", base_url)):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} must be a str, got {type(value).__name__}")
    model = (model or os.environ.get("DEEPSEEK_MODEL", "")).strip()
    key = (api_key or os.environ.get("DEEPSEEK_API_KEY", "")).strip()
    missing = [
        name for name, value in (("DEEPSEEK_API_KEY", key), ("DEEPSEEK_MODEL", model)) if not value
    ]
    if missing:
        raise _missing_settings(missing)
    if not (key.isascii() and key.isprintable() and " " not in key):
        # An HTTP header cannot carry it; usually a character pasted by accident.
        raise ProviderConfigurationError(
            "DEEPSEEK_API_KEY holds a space, a non-ASCII or an invisible character; "
            "copy the key again from https://platform.deepseek.com/api_keys and set it "
            "without quotes or spaces."
        )
    if reasoning_effort is not None and reasoning_effort not in get_args(ReasoningEffort):
        raise ValueError(
            f"reasoning_effort must be one of {', '.join(get_args(ReasoningEffort))} or "
            f"None, got {reasoning_effort!r}"
        )
    retries = int_at_least(
        "max_retries", DEFAULT_MAX_RETRIES if max_retries is None else max_retries, 0
    )
    if retries > MAX_RETRIES_LIMIT:
        raise ValueError(f"max_retries must be at most {MAX_RETRIES_LIMIT}, got {retries}")
    return _Settings(
        model=model,
        api_key=key,
        base_url=base_url or os.environ.get("DEEPSEEK_BASE_URL", "").strip() or DEFAULT_BASE_URL,
        timeout=_positive_seconds(DEFAULT_TIMEOUT if timeout is None else timeout),
        max_retries=retries,
    )


def _missing_settings(names: Sequence[str]) -> ProviderConfigurationError:
    """One sentence naming the unset variables and the commands for bash, PowerShell, cmd."""
    bash = "; ".join(f'export {name}="{_EXAMPLES[name]}"' for name in names)
    powershell = "; ".join(f'$env:{name}="{_EXAMPLES[name]}"' for name in names)
    cmd = " & ".join(f'set "{name}={_EXAMPLES[name]}"' for name in names)
    several = len(names) > 1
    return ProviderConfigurationError(
        f"{' and '.join(names)} {'are' if several else 'is'} not set:",
        hint=f"set {'them' if several else 'it'} in bash with `{bash}`, in PowerShell with "
        f"`{powershell}`, or in cmd with `{cmd}`, then start Python (or JupyterLab) from "
        "that same shell.",
    )


def _positive_seconds(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"timeout must be a number of seconds, got {type(value).__name__}")
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"timeout must be a positive number of seconds, got {value!r}")
    return float(value)
