"""The runtime's internal language: ``ToolCall``, ``ModelTurn`` and the ``Model`` protocol.

Chapter section 4: a provider's response is rich and changes over time; the runtime needs
very little of it. A model turn is either a final text or one or more tool calls, never both
and never neither (4.1), and every tool call carries a ``call_id`` that pairs it with its
observation (4.2). Adapters translate a provider's wire format into these two shapes, so the
loop never sees the wire format.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from agentcore.errors import InvalidModelTurnError, shown
from agentcore.transcript import FrozenDict, Message, freeze

ToolSchema = Mapping[str, Any]
"""What the model is shown of one tool: ``{"name", "description", "parameters"}``."""


def _require_text(value: object, field_name: str) -> str:
    """Return ``value`` as a plain ``str`` if it is non-blank text that is valid UTF-8.

    Text holding a lone surrogate is refused here, where it enters, because it could not be
    sent on or printed.
    """
    if not isinstance(value, str) or not value.strip():
        raise InvalidModelTurnError(f"{field_name} must be a non-blank string, got {shown(value)}")
    try:
        return freeze(value, field_name)  # type: ignore[no-any-return]
    except ValueError as error:
        raise InvalidModelTurnError(str(error)) from None


def _require_name(value: object, field_name: str) -> str:
    """Return ``value`` as :func:`_require_text` does, refusing control and invisible
    characters too (a NUL, a zero-width space, a line break): an id or a tool name is printed
    and compared, and such a character makes two different values look alike."""
    text = _require_text(value, field_name)
    if not text.isprintable():
        raise InvalidModelTurnError(
            f"{field_name} must be printable text on one line, without control or invisible "
            f"characters, got {text!r}"
        )
    return text


def _json_object(value: object, field_name: str) -> Mapping[str, Any]:
    """Return a read-only deep copy of ``value`` if it is a JSON object."""
    if not isinstance(value, Mapping):
        raise InvalidModelTurnError(
            f"{field_name} must be a JSON object (a dict), got {type(value).__name__}: "
            f"{shown(value)}"
        )
    try:
        return freeze(value, field_name)  # type: ignore[no-any-return]
    except ValueError as error:
        raise InvalidModelTurnError(str(error)) from None


@dataclass(frozen=True)
class ToolCall:
    """One tool request from the model (chapter section 4).

    Fields:

    * ``call_id`` (``str``, non-blank): pairs this call with its observation; unique in a run.
    * ``name`` (``str``, non-blank): the tool to run, looked up in the registry.
    * ``arguments`` (a JSON object, ``dict[str, Any]``; default ``{}``): stored as a
      read-only deep copy.

    Raises :class:`InvalidModelTurnError`, naming the field, for a blank or non-string
    ``call_id`` or ``name`` (or one holding a control or invisible character), ``arguments``
    that are not a JSON object (a list, a string, a dict holding NaN or a set, ...), and for
    text anywhere in the call that cannot be encoded as UTF-8 (a lone surrogate such as
    ``"\\ud83d"``), before any handler runs.

    A ``ToolCall`` can be pickled and copied; the copy compares equal.
    """

    call_id: str
    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Frozen dataclass: each checked value is stored with object.__setattr__.
        object.__setattr__(self, "call_id", _require_name(self.call_id, "ToolCall.call_id"))
        object.__setattr__(self, "name", _require_name(self.name, "ToolCall.name"))
        arguments = _json_object(self.arguments, "ToolCall.arguments")
        object.__setattr__(self, "arguments", arguments)

    def as_message_entry(self) -> FrozenDict:
        """Return the call as the transcript stores it: a read-only
        ``{"call_id", "name", "arguments"}`` (a ``dict`` that refuses changes)."""
        return FrozenDict(call_id=self.call_id, name=self.name, arguments=self.arguments)


@dataclass(frozen=True)
class ModelTurn:
    """One decision of the model: a final text, or tool calls (chapter section 4.1).

    Fields:

    * ``final_text`` (``str | None``): the answer; non-blank when given.
    * ``tool_calls`` (``tuple[ToolCall, ...]``): the requested calls, run in this order.
    * ``provider_items`` (``tuple`` of JSON values): opaque data an adapter may need to
      replay on the next request (reasoning items, text said beside the calls). The runtime
      stores it in the transcript beside the turn and never reads it to choose an action.
      A list is stored as a tuple and ``None`` as ``()``; anything else that is not a list or
      tuple is refused, empty or not (an empty dict is a bug, not "nothing to replay").

    Raises :class:`InvalidModelTurnError` when both or neither of ``final_text`` and
    ``tool_calls`` are given, for a blank final text or one that cannot be encoded as
    UTF-8, for an element that is not a ``ToolCall``, and for a ``call_id`` that repeats
    within the turn. A ``ModelTurn`` can be pickled and copied; the copy compares equal.
    """

    final_text: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    provider_items: tuple[Any, ...] = ()

    def __post_init__(self) -> None:
        _tidy_fields(self)  # a list of calls becomes a tuple, no provider items become ()
        has_final = self.final_text is not None
        has_calls = bool(self.tool_calls)
        if has_final == has_calls:
            raise InvalidModelTurnError(
                "A model turn must contain exactly one of final_text or tool_calls "
                f"(got {'both' if has_final else 'neither'})"
            )
        if has_final:
            final_text = _require_text(self.final_text, "ModelTurn.final_text")
            object.__setattr__(self, "final_text", final_text)
            return
        seen: set[str] = set()
        for index, call in enumerate(self.tool_calls):
            _require_call(call, index)
            if call.call_id in seen:
                raise InvalidModelTurnError(
                    f"ModelTurn.tool_calls repeats call_id {call.call_id!r}; "
                    "every call in a turn needs its own call_id"
                )
            seen.add(call.call_id)

    def __repr__(self) -> str:
        # Only the half that is set, and provider_items only when an adapter filled it.
        if self.final_text is not None:
            parts = [f"final_text={self.final_text!r}"]
        else:
            parts = [f"tool_calls={self.tool_calls!r}"]
        if self.provider_items:
            parts.append(f"provider_items={self.provider_items!r}")
        return f"ModelTurn({', '.join(parts)})"


def _require_call(call: object, index: int) -> None:
    """Refuse ``tool_calls[index]`` if it is not a :class:`ToolCall`."""
    if not isinstance(call, ToolCall):
        raise InvalidModelTurnError(
            f"ModelTurn.tool_calls[{index}] must be a ToolCall, got {type(call).__name__}"
        )


def _tidy_fields(turn: ModelTurn) -> None:
    """Store ``tool_calls`` as a tuple and ``provider_items`` as a tuple of frozen JSON values."""
    calls = turn.tool_calls
    if isinstance(calls, list):
        object.__setattr__(turn, "tool_calls", tuple(calls))
    elif not isinstance(calls, tuple):
        raise InvalidModelTurnError(
            f"ModelTurn.tool_calls must be a tuple of ToolCall, got {type(calls).__name__}"
        )
    items = turn.provider_items
    if items is None:
        items = ()
    if not isinstance(items, list | tuple):
        raise InvalidModelTurnError(
            "ModelTurn.provider_items must be a list or tuple of JSON values, got "
            f"{type(items).__name__}"
        )
    try:
        frozen = tuple(
            freeze(item, f"ModelTurn.provider_items[{index}]") for index, item in enumerate(items)
        )
    except ValueError as error:
        raise InvalidModelTurnError(
            f"ModelTurn.provider_items must be a sequence of JSON values: {error}"
        ) from None
    object.__setattr__(turn, "provider_items", frozen)


@runtime_checkable
class Model(Protocol):
    """Anything that can take one model turn (chapter section 8).

    ``generate(messages, tools)`` receives the transcript so far (a read-only sequence of
    message dicts) and the tool schemas (``{"name", "description", "parameters"}`` each,
    ``parameters`` the strict JSON Schema), both fresh copies made for this turn, and returns
    a :class:`ModelTurn`. The scripted models and the DeepSeek adapter
    all satisfy it; the runtime cannot tell them apart.
    """

    def generate(self, messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        """Decide the next step: a final text or tool calls."""
        ...
