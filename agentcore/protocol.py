"""The runtime's internal language: ``ToolCall``, ``ModelTurn`` and the ``Model`` protocol.

Chapter section 4: a provider's response is rich and changes over time; the runtime needs
very little of it. A model turn is either a final text or one or more tool calls, never both
and never neither (4.1), and every tool call carries a ``call_id`` that pairs it with its
observation (4.2). Adapters translate a provider's wire format into these two shapes, so the
loop never sees the wire format.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from agentcore.errors import InvalidModelTurnError, shown
from agentcore.transcript import FrozenDict, Message, freeze

ToolSchema = Mapping[str, Any]
"""What the model is shown of one tool: ``{"name", "description", "parameters"}``."""


def _require_text(value: object, field_name: str) -> str:
    """Return ``value`` as a plain ``str`` if it is non-blank text that is valid UTF-8.

    A ``str`` subclass is copied to a plain ``str`` (its own ``__eq__``/``__hash__`` could
    defeat the uniqueness of ``call_id``); text holding a lone surrogate is refused here,
    where it enters, because it could not be sent on or printed.
    """
    if type(value) is str and value.isascii() and value.strip():
        return value  # the common case, already plain and valid
    if not isinstance(value, str) or not value.strip():
        raise InvalidModelTurnError(f"{field_name} must be a non-blank string, got {shown(value)}")
    try:
        return freeze(str.__str__(value), field_name)  # type: ignore[no-any-return]
    except ValueError as error:
        raise InvalidModelTurnError(str(error)) from None


def _json_object(value: object, field_name: str) -> Mapping[str, Any]:
    """Return a read-only deep copy of ``value`` if it is a JSON object."""
    if type(value) is not dict and not isinstance(value, Mapping):
        raise InvalidModelTurnError(
            f"{field_name} must be a JSON object (a dict), got {type(value).__name__}: "
            f"{shown(value)}"
        )
    try:
        return freeze(value, field_name)  # type: ignore[no-any-return]
    except ValueError as error:
        raise InvalidModelTurnError(str(error)) from None


_set = object.__setattr__
"""Set a field of a frozen dataclass while it is being built (its normalised value)."""
_NO_ARGUMENTS = FrozenDict()
"""The arguments of a call that passes none: read-only, so one object serves every call."""


@dataclass(frozen=True, init=False)
class ToolCall:
    """One tool request from the model (chapter section 4).

    Fields:

    * ``call_id`` (``str``, non-blank): pairs this call with its observation; unique in a run.
    * ``name`` (``str``, non-blank): the tool to run, looked up in the registry.
    * ``arguments`` (a JSON object, ``dict[str, Any]``): stored as a read-only deep copy.

    ``call_id`` and ``name`` are stored as plain ``str`` (a ``str`` subclass is copied).
    Raises :class:`InvalidModelTurnError`, naming the field, for a blank or non-string
    ``call_id`` or ``name``, or ``arguments`` that are not a JSON object (a list, a string, a
    dict holding NaN or a set, ...), and for text anywhere in the call that cannot be encoded
    as UTF-8 (a lone surrogate such as ``"\\ud83d"``), before any handler runs.

    A ``ToolCall`` can be pickled and copied; the copy compares equal.
    """

    call_id: str
    name: str
    arguments: Mapping[str, Any]

    def __init__(
        self, call_id: str, name: str, arguments: Mapping[str, Any] = _NO_ARGUMENTS
    ) -> None:
        # Written out (init=False) so that each field is checked and set once: a model makes
        # a ToolCall for every call of every turn, so this is on the path of every run.
        _set(self, "call_id", _require_text(call_id, "ToolCall.call_id"))
        _set(self, "name", _require_text(name, "ToolCall.name"))
        _set(self, "arguments", _json_object(arguments, "ToolCall.arguments"))

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
    within the turn. A ``ToolCall`` subclass is copied to a plain ``ToolCall`` (its fields
    read once, then checked), so an override cannot show the runtime other fields than the
    ones checked. A ``ModelTurn`` can be pickled and copied; the copy compares equal.
    """

    final_text: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    provider_items: tuple[Any, ...] = ()

    def __post_init__(self) -> None:
        # Tidy the fields first: a list of calls becomes a tuple, no provider items become ().
        # Every model turn of every run passes here, so the usual turn (a tuple of plain
        # ToolCalls, no provider items) takes exact type checks only.
        if type(self.provider_items) is not tuple or self.provider_items:
            self._tidy_provider_items()
        if type(self.tool_calls) is not tuple:
            self._tidy_tool_calls()
        has_final = self.final_text is not None
        has_calls = bool(self.tool_calls)
        if has_final == has_calls:
            raise InvalidModelTurnError(
                "A model turn must contain exactly one of final_text or tool_calls "
                f"(got {'both' if has_final else 'neither'})"
            )
        if has_final:
            final_text = _require_text(self.final_text, "ModelTurn.final_text")
            if final_text is not self.final_text:  # a str subclass, copied to a plain str
                object.__setattr__(self, "final_text", final_text)
            return
        seen: set[str] = set()
        for index, call in enumerate(self.tool_calls):
            if type(call) is not ToolCall:  # not a ToolCall, or a subclass to copy
                call = self._plain_call(index)
            if call.call_id in seen:
                raise InvalidModelTurnError(
                    f"ModelTurn.tool_calls repeats call_id {call.call_id!r}; "
                    "every call in a turn needs its own call_id"
                )
            seen.add(call.call_id)

    def _tidy_tool_calls(self) -> None:
        if isinstance(self.tool_calls, list):
            object.__setattr__(self, "tool_calls", tuple(self.tool_calls))
        elif not isinstance(self.tool_calls, tuple):
            raise InvalidModelTurnError(
                f"ModelTurn.tool_calls must be a tuple of ToolCall, got "
                f"{type(self.tool_calls).__name__}"
            )

    def _plain_call(self, index: int) -> ToolCall:
        """Refuse ``tool_calls[index]`` if it is not a ToolCall; copy a subclass to a plain one.

        A subclass may show other fields than it checked, so its fields are read once and
        checked again; the copy takes its place in ``tool_calls``.
        """
        call = self.tool_calls[index]
        if not isinstance(call, ToolCall):
            raise InvalidModelTurnError(
                f"ModelTurn.tool_calls[{index}] must be a ToolCall, got {type(call).__name__}"
            )
        plain = ToolCall(call.call_id, call.name, call.arguments)
        calls = list(self.tool_calls)
        calls[index] = plain
        object.__setattr__(self, "tool_calls", tuple(calls))
        return plain

    def __repr__(self) -> str:
        # Only the half that is set, and provider_items only when an adapter filled it.
        if self.final_text is not None:
            parts = [f"final_text={self.final_text!r}"]
        else:
            parts = [f"tool_calls={self.tool_calls!r}"]
        if self.provider_items:
            parts.append(f"provider_items={self.provider_items!r}")
        return f"ModelTurn({', '.join(parts)})"

    def _tidy_provider_items(self) -> None:
        if not self.provider_items and isinstance(self.provider_items, list | tuple | None):
            object.__setattr__(self, "provider_items", ())  # [] or None: nothing to replay
            return
        # Anything else that is not a list or tuple is refused, empty or not (an empty dict
        # is a bug, not "nothing to replay").
        if not isinstance(self.provider_items, list | tuple):
            raise InvalidModelTurnError(
                "ModelTurn.provider_items must be a list or tuple of JSON values, got "
                f"{type(self.provider_items).__name__}"
            )
        try:
            items = tuple(
                freeze(item, f"ModelTurn.provider_items[{index}]")
                for index, item in enumerate(self.provider_items)
            )
        except (TypeError, ValueError) as error:
            raise InvalidModelTurnError(
                f"ModelTurn.provider_items must be a sequence of JSON values: {error}"
            ) from None
        object.__setattr__(self, "provider_items", items)


@runtime_checkable
class Model(Protocol):
    """Anything that can take one model turn (chapter section 8).

    ``generate(messages, tools)`` receives the transcript so far (a read-only sequence of
    message dicts that stays as it was handed over, even after the run goes on) and the tool
    schemas (``{"name", "description", "parameters"}`` each, ``parameters`` the strict JSON
    Schema), and returns a :class:`ModelTurn`. The scripted models and the DeepSeek adapter
    all satisfy it; the runtime cannot tell them apart.
    """

    def generate(self, messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        """Decide the next step: a final text or tool calls."""
        ...
