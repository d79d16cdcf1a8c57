"""The DeepSeek Responses adapter: the provider's wire format stays here (chapter section 10).

:class:`DeepSeekResponsesModel` satisfies ``Model.generate(messages, tools) -> ModelTurn``, so
the runtime cannot tell it from a scripted model. It does three translations, each a small
function of this module:

* a runtime tool schema becomes a Responses function tool with ``strict: true``
  (:func:`to_function_tool`);
* the whole transcript becomes the request's ``input`` items, every turn
  (:func:`to_input_items`): the Responses API at DeepSeek is stateless, so nothing is
  continued with ``previous_response_id`` (10.1, 10.2);
* the response's ``function_call`` items become :class:`ToolCall` objects, in output order
  (10.3), or its text becomes the final text (:func:`to_model_turn`).

This is the only module that imports ``openai``. Every failure becomes a typed
:class:`ProviderError` whose message says what to do and never holds the API key.
"""

from __future__ import annotations

import copy
import functools
import json
import math
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import openai
from openai.lib._pydantic import _ensure_strict_json_schema
from openai.types.responses import Response

from agentcore.errors import (
    ProviderAuthenticationError,
    ProviderConfigurationError,
    ProviderConnectionError,
    ProviderError,
    ProviderNotFoundError,
    ProviderPermissionError,
    ProviderRateLimitError,
    ProviderRequestError,
    ProviderResponseError,
    ProviderServerError,
    ProviderStatusError,
    ProviderTimeoutError,
)
from agentcore.protocol import ModelTurn, ToolCall, ToolSchema
from agentcore.transcript import Message
from agentcore.validation import int_at_least

DEFAULT_BASE_URL = "https://api.deepseek.com"
"""DeepSeek's API; the SDK sends ``POST {base_url}/responses``."""
DEFAULT_TIMEOUT = 60.0
"""Seconds to wait for one HTTP reply before the SDK gives up (or retries)."""
DEFAULT_MAX_RETRIES = 2
"""How many times the SDK retries a timeout, a refused connection, 408, 409, 429 or 5xx."""
MAX_ARGUMENTS_CHARS = 32_768
"""The adapter's limit on one call's ``arguments`` string (characters).

Not a provider limit: a teaching tool's arguments are a few dozen characters, and a longer
string means a runaway generation that should not be parsed and handed to a tool.
"""
PREVIEW_CHARS = 200
"""Error messages show at most this many characters of what the provider sent."""

_EXAMPLES = {"DEEPSEEK_API_KEY": "your-deepseek-api-key", "DEEPSEEK_MODEL": "deepseek-v4-flash"}
"""Placeholder values shown in the configuration message, never a real key."""


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


class DeepSeekResponsesModel:
    """A :class:`agentcore.Model` backed by DeepSeek's Responses API (chapter section 10).

    Inputs (all keyword-only except ``model``):

    * ``model``: the model name; default the ``DEEPSEEK_MODEL`` environment variable.
    * ``api_key``: default ``DEEPSEEK_API_KEY``. Kept out of every repr and message.
    * ``base_url``: default ``DEEPSEEK_BASE_URL``, else ``https://api.deepseek.com``.
    * ``timeout`` (seconds, default 60) and ``max_retries`` (default 2): passed to the
      ``openai`` SDK, which does the waiting and retrying.
    * ``client``: an ``openai.OpenAI`` client to use instead of making one (then
      ``api_key``, ``base_url``, ``timeout`` and ``max_retries`` belong to that client and
      must not be passed).
    * ``instructions``: sent as the request's ``instructions`` (a system prompt), if given.
    * ``max_arguments_chars``: the longest ``arguments`` string accepted (default
      :data:`MAX_ARGUMENTS_CHARS`).

    Raises :class:`ProviderConfigurationError` when no API key or no model is configured
    (one sentence with the commands for bash, PowerShell and cmd), ``ValueError`` when
    ``client`` is combined with its own settings or a number is out of range, and
    ``TypeError`` for a number of the wrong type.

    :meth:`generate` raises a :class:`ProviderError` subclass for every provider problem;
    the runtime attaches the transcript to it.
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float | None = None,
        max_retries: int | None = None,
        client: openai.OpenAI | None = None,
        instructions: str | None = None,
        max_arguments_chars: int = MAX_ARGUMENTS_CHARS,
    ) -> None:
        for name, value in (("model", model), ("api_key", api_key), ("base_url", base_url)):
            if value is not None and not isinstance(value, str):
                raise TypeError(f"{name} must be a str, got {type(value).__name__}")
        model = (model or os.environ.get("DEEPSEEK_MODEL", "")).strip()
        if client is not None:
            given = [
                name
                for name, value in (
                    ("api_key", api_key),
                    ("base_url", base_url),
                    ("timeout", timeout),
                    ("max_retries", max_retries),
                )
                if value is not None
            ]
            if given:
                raise ValueError(
                    f"pass {', '.join(given)} to the openai.OpenAI client you give as client=, "
                    "not to DeepSeekResponsesModel"
                )
            key = str(client.api_key or "")
        else:
            key = (api_key or os.environ.get("DEEPSEEK_API_KEY", "")).strip()
        missing = [
            name
            for name, value in (("DEEPSEEK_API_KEY", key), ("DEEPSEEK_MODEL", model))
            if not value
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
        if client is None:
            client = openai.OpenAI(
                api_key=key,
                base_url=(
                    base_url or os.environ.get("DEEPSEEK_BASE_URL", "").strip() or DEFAULT_BASE_URL
                ),
                timeout=_positive_seconds(DEFAULT_TIMEOUT if timeout is None else timeout),
                max_retries=int_at_least(
                    "max_retries", DEFAULT_MAX_RETRIES if max_retries is None else max_retries, 0
                ),
            )
        self.model = model
        self.instructions = instructions
        self.max_arguments_chars = int_at_least("max_arguments_chars", max_arguments_chars, 1)
        self._client = client
        self._api_key = key

    @property
    def base_url(self) -> str:
        """Where requests go (``POST {base_url}/responses``), without a trailing slash."""
        return str(self._client.base_url).rstrip("/")

    def generate(self, messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        """Send the whole transcript and the tools; return the model's turn.

        Input: the transcript (the runtime's message dicts) and the tool schemas
        (``{"name", "description", "parameters"}``). Output: a :class:`ModelTurn` with
        tool calls in the provider's output order, or the final text.

        Raises :class:`ProviderRequestError` before sending anything when a tool schema
        cannot be made strict or a message cannot be translated; the provider's HTTP
        failures as :class:`ProviderConnectionError`, :class:`ProviderTimeoutError` or a
        :class:`ProviderStatusError` subclass; :class:`ProviderResponseError` for a reply
        that breaks the wire format. No handler runs on a rejected turn.
        """
        # Only what is set is sent: the request body is exactly what a lesson shows.
        request: dict[str, Any] = {"model": self.model, "input": to_input_items(messages)}
        if tools:
            request["tools"] = [to_function_tool(schema) for schema in tools]
        if self.instructions is not None:
            request["instructions"] = self.instructions
        return to_model_turn(self._send(request), max_arguments_chars=self.max_arguments_chars)

    def _send(self, request: dict[str, Any]) -> dict[str, Any]:
        """POST one request through the SDK; return the reply as the JSON it arrived as."""
        try:
            # The items follow the documented wire format; provider_items are replayed
            # exactly as the provider sent them, which the SDK's TypedDicts cannot describe.
            response = self._client.responses.create(**request)
        except openai.APIError as error:
            failure = self._provider_error(error)
        except json.JSONDecodeError as error:  # the SDK reads a 2xx body as JSON unchecked
            failure = ProviderResponseError(
                f"The reply from {self.base_url}/responses is not JSON ({error.msg} at "
                f"character {error.pos}).",
                hint="Check that the base URL points at a Responses API.",
            )
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

    def _provider_error(self, error: openai.APIError) -> ProviderError:
        """Translate one SDK exception into the matching typed provider error."""
        retries = f"the SDK already retried {self._client.max_retries} time(s)"
        if isinstance(error, openai.APITimeoutError):
            return ProviderTimeoutError(
                f"No reply from {self.base_url} within {self._client.timeout} s ({retries}).",
                hint="Check your network, or pass a longer timeout= to DeepSeekResponsesModel.",
            )
        if isinstance(error, openai.APIConnectionError):
            return ProviderConnectionError(
                f"Could not connect to {self.base_url} ({retries}).",
                hint=f"Check DEEPSEEK_BASE_URL (default {DEFAULT_BASE_URL}), your network "
                "and any proxy.",
            )
        if isinstance(error, openai.APIStatusError):
            return self._status_error(error.status_code, self._redact(_provider_text(error.body)))
        return ProviderResponseError(
            f"The reply from {self.base_url}/responses could not be read: "
            f"{self._redact(str(error))}.",
            hint="Check that the base URL points at a Responses API.",
        )

    def _status_error(self, status: int, said: str) -> ProviderStatusError:
        cause = f"HTTP {status}" + (f": {said}" if said else "")
        retry = (
            f"Wait a little and run again (the SDK already retried "
            f"{self._client.max_retries} time(s))."
        )
        known: dict[int, tuple[type[ProviderStatusError], str, str]] = {
            400: (ProviderStatusError, "The provider rejected the request format", _FORMAT_HINT),
            401: (
                ProviderAuthenticationError,
                "The provider refused the API key",
                "Check that DEEPSEEK_API_KEY holds a current key from "
                "https://platform.deepseek.com/api_keys, without quotes or spaces.",
            ),
            402: (
                ProviderStatusError,
                "The account has insufficient balance",
                "Top up at https://platform.deepseek.com/top_up, or run offline with the "
                "local server (python -m agentcore --provider deepseek --offline).",
            ),
            403: (
                ProviderPermissionError,
                "The API key may not use this model or endpoint",
                "Check the account's access to the model in DEEPSEEK_MODEL.",
            ),
            404: (
                ProviderNotFoundError,
                f"No model {self.model!r} or no endpoint at {self.base_url}/responses",
                f"Check DEEPSEEK_MODEL for a typo, and that DEEPSEEK_BASE_URL is "
                f"{DEFAULT_BASE_URL} (without /responses).",
            ),
            422: (ProviderStatusError, "The provider rejected a parameter", _FORMAT_HINT),
            429: (ProviderRateLimitError, "Too many requests", retry),
        }
        if status in known:
            kind, what, hint = known[status]
        elif status >= 500:
            kind, what, hint = ProviderServerError, "The provider's server failed", retry
        else:
            kind, what, hint = ProviderStatusError, "The provider answered with an error", ""
        return kind(f"{what} ({cause}).", hint=hint, status_code=status, provider_message=said)

    def _redact(self, text: str) -> str:
        return text.replace(self._api_key, "<redacted>") if self._api_key else text

    def __repr__(self) -> str:
        return (
            f"DeepSeekResponsesModel(model={self.model!r}, base_url={self.base_url!r}, "
            f"timeout={self._client.timeout!r}, max_retries={self._client.max_retries})"
        )


_FORMAT_HINT = (
    "The adapter or a tool schema sent something the provider does not accept; compare "
    "the request body with the provider's Responses API documentation."
)


def _positive_seconds(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"timeout must be a number of seconds, got {type(value).__name__}")
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"timeout must be a positive number of seconds, got {value!r}")
    return float(value)


def _provider_text(body: object) -> str:
    """The provider's own explanation from an error body, at most PREVIEW_CHARS long."""
    if isinstance(body, Mapping):
        error = body.get("error", body)
        body = error.get("message", error) if isinstance(error, Mapping) else error
    return _preview(str(body)) if body is not None else ""


def _preview(text: str) -> str:
    return text if len(text) <= PREVIEW_CHARS else text[:PREVIEW_CHARS] + "…"


def to_function_tool(schema: ToolSchema) -> dict[str, Any]:
    """Translate one runtime tool schema into a strict Responses function tool.

    Input: ``{"name", "description", "parameters"}`` as :meth:`agentcore.Tool.schema`
    gives it. Output: ``{"type": "function", "name", "description", "parameters",
    "strict": True}``, where ``parameters`` went through the ``openai`` SDK's own strict
    conversion (the one behind ``openai.pydantic_function_tool``): every object closed with
    ``additionalProperties: false``, every property required, ``$ref`` with siblings
    inlined. The input is not changed.

    Raises :class:`ProviderRequestError`, naming the tool and the place in its schema, when
    the result still is not strict: the root is not an object, or an object allows keys it
    does not name (a ``dict[str, ...]`` field, ``extra="allow"``).
    """
    name = schema["name"]
    parameters = copy.deepcopy(schema["parameters"])  # the SDK helper edits in place
    try:
        strict = _ensure_strict_json_schema(parameters, path=(), root=parameters)
    except (TypeError, ValueError, KeyError, AssertionError) as error:
        raise ProviderRequestError(
            f"Tool {name!r} cannot be offered in strict mode: {error}.", hint=_STRICT_HINT
        ) from None
    problem = (
        "parameters is not an object schema"
        if strict.get("type") != "object"
        else _not_strict(strict, "parameters")
    )
    if problem is not None:
        raise ProviderRequestError(
            f"Tool {name!r} cannot be offered in strict mode: {problem}.", hint=_STRICT_HINT
        )
    return {
        "type": "function",
        "name": name,
        "description": schema.get("description", ""),
        "parameters": strict,
        "strict": True,
    }


_STRICT_HINT = (
    "Give the tool a pydantic arguments model with extra='forbid' whose fields are plain "
    "types, lists or nested models (no dict[str, ...] fields)."
)


def _not_strict(node: Any, path: str) -> str | None:
    """Where a JSON Schema breaks strict mode's object rules, or ``None`` if it does not."""
    if not isinstance(node, Mapping):
        return None
    properties = node.get("properties")
    if node.get("type") == "object" or isinstance(properties, Mapping):
        extra = node.get("additionalProperties")
        if extra is not False:
            return f"{path} allows keys it does not name (additionalProperties={extra!r})"
        named = set(properties or {})
        if set(node.get("required", [])) != named:
            return f"{path} does not require every property"
    children: list[tuple[str, Any]] = []
    for keyword in ("properties", "$defs", "definitions"):
        children += [
            (f"{path}.{keyword}.{key}", sub) for key, sub in (node.get(keyword) or {}).items()
        ]
    for keyword in ("anyOf", "allOf", "oneOf", "prefixItems"):
        children += [
            (f"{path}.{keyword}[{i}]", sub) for i, sub in enumerate(node.get(keyword) or [])
        ]
    if isinstance(node.get("items"), Mapping):
        children.append((f"{path}.items", node["items"]))
    return next(
        (found for sub_path, sub in children if (found := _not_strict(sub, sub_path))), None
    )


def to_input_items(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """Translate the whole transcript into Responses ``input`` items (chapter 10.1, 10.2).

    Input: the runtime's messages. Output, one entry per message, in order:

    * user, system or developer: ``{"type": "message", "role", "content"}``;
    * an assistant tool request: one ``{"type": "function_call", "call_id", "name",
      "arguments"}`` per call, ``arguments`` a JSON string with non-ASCII kept;
    * an observation: ``{"type": "function_call_output", "call_id", "output"}`` with the
      call's own ``call_id``;
    * a final assistant text: ``{"type": "message", "role": "assistant", "content"}``;
    * an assistant message that carries ``provider_items`` (the provider's own output for
      that turn, kept by :func:`to_model_turn`): those items, exactly as received, in place.

    Raises :class:`ProviderRequestError` naming the message for a role it cannot send.
    """
    items: list[dict[str, Any]] = []
    for index, entry in enumerate(messages):
        role = entry.get("role")
        if role == "assistant" and entry.get("provider_items"):
            items += copy.deepcopy(list(entry["provider_items"]))  # plain, editable copies
        elif role == "assistant" and entry.get("tool_calls"):
            items += [
                {
                    "type": "function_call",
                    "call_id": call["call_id"],
                    "name": call["name"],
                    "arguments": json.dumps(call["arguments"], ensure_ascii=False),
                }
                for call in entry["tool_calls"]
            ]
        elif role == "tool":
            items.append(
                {
                    "type": "function_call_output",
                    "call_id": entry["tool_call_id"],
                    "output": entry["content"],
                }
            )
        elif role in ("user", "system", "developer", "assistant"):
            items.append({"type": "message", "role": role, "content": entry["content"]})
        else:
            raise ProviderRequestError(
                f"Transcript message {index} has role {role!r}, which the adapter cannot send.",
                hint="Use the roles user, system, developer, assistant or tool.",
            )
    return items


def _wrong_shapes_are_response_errors(
    translate: Callable[..., ModelTurn],
) -> Callable[..., ModelTurn]:
    """Turn a field of the wrong type deep in a reply (a string where an object belongs, an
    integer too long to read) into :class:`ProviderResponseError` instead of a bare error."""

    @functools.wraps(translate)
    def guarded(response: Mapping[str, Any], *args: Any, **kwargs: Any) -> ModelTurn:
        try:
            return translate(response, *args, **kwargs)
        except (AttributeError, TypeError, ValueError, RecursionError) as error:
            raise ProviderResponseError(
                f"Response {response.get('id', '?')!r} is not shaped like a Responses API "
                f"object ({type(error).__name__}: {error}).",
                hint="Check DEEPSEEK_BASE_URL points at a Responses API; if it does, run again.",
            ) from None

    return guarded


@_wrong_shapes_are_response_errors
def to_model_turn(
    response: Mapping[str, Any], *, max_arguments_chars: int = MAX_ARGUMENTS_CHARS
) -> ModelTurn:
    """Translate a Responses API object (as JSON) into a :class:`ModelTurn` (chapter 10.3).

    Its ``function_call`` items become :class:`ToolCall` objects in output order; without
    any, the text of its ``output_text`` parts is the final text. When the output holds
    items the turn cannot rebuild by itself (reasoning, text said beside the calls, ...),
    the whole output, item for item, travels in ``provider_items`` so that
    :func:`to_input_items` replays it next turn.

    Raises :class:`ProviderResponseError` for a status other than ``completed`` (with the
    incomplete reason), an output without function calls and without text (naming a
    refusal if there is one), any call rejected by :func:`parse_arguments` or holding an
    empty ``call_id`` or name, and (through the decorator) a body whose fields have the
    wrong shapes.
    """
    response_id = response.get("id", "?")
    status = response.get("status")
    if status != "completed":
        reason = (response.get("incomplete_details") or {}).get("reason")
        failure = (response.get("error") or {}).get("message")
        detail = f" (reason: {reason})" if reason else f" ({failure})" if failure else ""
        raise ProviderResponseError(
            f"Response {response_id} has status {status!r}{detail}, not 'completed'.",
            hint=(
                "The reply was cut off before the model finished; ask for less, or allow "
                "more output tokens."
                if reason == "max_output_tokens"
                else "Run again; if it repeats, look at the provider's status page."
            ),
        )
    output = [item for item in response.get("output") or [] if isinstance(item, Mapping)]
    calls = [
        _tool_call(item, max_arguments_chars)
        for item in output
        if item.get("type") == "function_call"
    ]
    parts = [
        part
        for item in output
        if item.get("type") == "message"
        for part in item.get("content") or []
        if isinstance(part, Mapping)
    ]
    text = "".join(part.get("text", "") for part in parts if part.get("type") == "output_text")
    rebuilt = "function_call" if calls else "message"
    replay = tuple(output) if any(item.get("type") != rebuilt for item in output) else ()
    if calls:
        return ModelTurn(tool_calls=tuple(calls), provider_items=replay)
    if text.strip():
        return ModelTurn(final_text=text, provider_items=replay)
    refusal = next((p.get("refusal") for p in parts if p.get("type") == "refusal"), None)
    if refusal:
        raise ProviderResponseError(
            f"Response {response_id} is a refusal, not an answer: {_preview(str(refusal))!r}.",
            hint="Rephrase the request.",
        )
    raise ProviderResponseError(
        f"Response {response_id} holds no function call and no text.",
        hint="The model produced nothing the runtime can act on; run again.",
    )


def _tool_call(item: Mapping[str, Any], max_arguments_chars: int) -> ToolCall:
    call_id, name, arguments = item.get("call_id"), item.get("name"), item.get("arguments")
    if not isinstance(name, str) or not name.strip():
        raise ProviderResponseError(
            f"A function_call item (call_id {call_id!r}) has an empty name.",
            hint="The runtime cannot know which tool to run; the turn was rejected.",
        )
    if not isinstance(call_id, str) or not call_id.strip():
        raise ProviderResponseError(
            f"The function_call to {name!r} has an empty call_id.",
            hint="Its output could not be paired with it; the turn was rejected.",
        )
    if not isinstance(arguments, str):
        raise ProviderResponseError(
            f"The arguments of function {name!r} (call_id {call_id!r}) are a "
            f"{type(arguments).__name__}, not a JSON string.",
            hint=_ARGUMENTS_HINT,
        )
    return ToolCall(call_id, name, parse_arguments(name, arguments, max_arguments_chars))


_ARGUMENTS_HINT = "No tool ran for this turn; run again, or simplify the tool's arguments."


class _ArgumentsProblem(ValueError):
    """Raised from inside ``json.loads`` hooks; turned into a ProviderResponseError."""


def _no_constant(name: str) -> Any:
    raise _ArgumentsProblem(f"they hold {name}, which is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _ArgumentsProblem(f"the number {_preview(text)} is too large to be finite")
    return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _ArgumentsProblem(f"they hold the key {key!r} twice")
        seen[key] = value
    return seen


def parse_arguments(
    name: str, arguments: str, max_arguments_chars: int = MAX_ARGUMENTS_CHARS
) -> dict[str, Any]:
    """Parse a function call's ``arguments`` string into a JSON object, strictly.

    Inputs: the function ``name`` (for messages), the ``arguments`` string, and the longest
    string accepted. Output: the object as a ``dict``.

    Raises :class:`ProviderResponseError`, naming the function and showing at most
    :data:`PREVIEW_CHARS` characters, when the string is longer than the limit, is not
    JSON, is JSON but not an object, or holds ``NaN``/``Infinity``, a number too large to
    be finite, or a key twice (Python's ``json.loads`` accepts those last two silently).
    """
    if len(arguments) > max_arguments_chars:
        raise ProviderResponseError(
            f"The arguments of function {name!r} are {len(arguments)} characters long, over "
            f"the adapter's limit of {max_arguments_chars}: {_preview(arguments)!r}.",
            hint=_ARGUMENTS_HINT,
        )
    try:
        value = json.loads(
            arguments,
            parse_constant=_no_constant,
            parse_float=_finite,
            object_pairs_hook=_unique_keys,
        )
    except json.JSONDecodeError as error:
        raise ProviderResponseError(
            f"The arguments of function {name!r} are not JSON ({error.msg} at character "
            f"{error.pos}): {_preview(arguments)!r}.",
            hint=_ARGUMENTS_HINT,
        ) from None
    except _ArgumentsProblem as problem:
        raise ProviderResponseError(
            f"The arguments of function {name!r} are not valid JSON: {problem}: "
            f"{_preview(arguments)!r}.",
            hint=_ARGUMENTS_HINT,
        ) from None
    except (RecursionError, ValueError) as problem:  # nesting too deep, an integer too long
        raise ProviderResponseError(
            f"The arguments of function {name!r} cannot be read as JSON here "
            f"({type(problem).__name__}): {_preview(arguments)!r}.",
            hint=_ARGUMENTS_HINT,
        ) from None
    if not isinstance(value, dict):
        raise ProviderResponseError(
            f"The arguments of function {name!r} are JSON but not an object (got "
            f"{type(value).__name__}): {_preview(arguments)!r}.",
            hint=_ARGUMENTS_HINT,
        )
    return value
