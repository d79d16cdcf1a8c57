"""The run's record: read-only JSON values and a read-only view of the transcript.

The runtime owns the transcript of a run (chapter section 6.1) and hands it to the model on
every turn. A model, buggy or adversarial, must not be able to rewrite that record. So each
message is frozen (a deep, read-only copy) when it is recorded, and the model reads the
transcript through a :class:`TranscriptView`, which hands out a fresh read-only copy of each
message it is asked for: whatever is done to that copy, even through ``dict.__setitem__``,
changes only the copy, never the run's record.

Frozen values are still ``dict`` and ``list`` (subclasses), so they compare equal to plain
ones, print like them and go through ``json.dumps`` unchanged; only mutation is refused.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from itertools import islice
from typing import Any, NoReturn, SupportsIndex, overload

from agentcore.errors import shown

Message = Mapping[str, Any]
"""One transcript entry: ``{"role": ..., ...}`` as described in chapter section 6.1."""


def _refuse(*_: object, **__: object) -> NoReturn:
    raise TypeError(
        "This part of the run record is read-only; copy it first (dict(x) or list(x)) "
        "if you need a version you can change."
    )


class FrozenDict(dict[str, Any]):
    """A ``dict`` whose mutating methods raise ``TypeError``; hashable, as a tuple is, so a
    ``ToolCall`` or a ``RunResult`` holding one can go in a set or be a dict key.

    Built by :func:`freeze` (and by the runtime, from parts :func:`freeze` already made).
    """

    __slots__ = ()
    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickle by value: the default would rebuild it with __setitem__, which is refused.
        return (FrozenDict, (dict(self),))

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return {key: _thaw(value) for key, value in self.items()}


class FrozenList(list[Any]):
    """A ``list`` whose mutating methods raise ``TypeError``; hashable, as a tuple is.

    Built by :func:`freeze` (and by the runtime, from parts :func:`freeze` already made).
    """

    __slots__ = ()
    __setitem__ = __delitem__ = append = extend = insert = pop = remove = _refuse
    clear = reverse = sort = _refuse
    __iadd__ = __imul__ = _refuse

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self))

    def __copy__(self) -> list[Any]:
        return list(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenList, (list(self),))

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        return [_thaw(value) for value in self]


def _thaw(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _thaw(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_thaw(item) for item in value]
    return value


_MAX_INT_BITS = 13_000
"""About 3,900 digits: beyond Python's default limit for turning an int into text (4,300),
so such a number could never be printed or sent as JSON."""


class _NotJSON(ValueError):
    """Raised deep inside a value; ``where`` collects the path on the way back up."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem
        self.where: list[str] = []


def freeze(value: Any, path: str = "value") -> Any:
    """Return a deep, read-only copy of a JSON value.

    Input: ``None``, ``bool``, ``int``, finite ``float``, ``str``, or lists/tuples and dicts
    (with ``str`` keys) of those. Output: a new value, equal to the input, with dicts as
    :class:`FrozenDict`, lists/tuples as :class:`FrozenList` and text as plain ``str``; it
    shares no dict or list with the input (a frozen input is copied too).

    Raises ``ValueError`` naming where the problem is (for example
    ``arguments['days'][0] is nan``) for anything JSON cannot carry: NaN or infinity, a set, a
    non-string key, text that is not valid UTF-8, an arbitrary object. ``path`` names the
    whole value in that message.
    """
    try:
        return _freeze(value)
    except _NotJSON as error:
        where = path + "".join(reversed(error.where))
        raise ValueError(f"{where} {error.problem}") from None
    except RecursionError:
        raise ValueError(
            f"{path} is nested too deeply (or contains itself) to be a JSON value"
        ) from None


def _freeze(value: Any) -> Any:
    if isinstance(value, str):
        return _utf8(str.__str__(value))
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if value.bit_length() > _MAX_INT_BITS:
            raise _NotJSON("is an integer too large to write as JSON text; send it as a string")
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _NotJSON(f"is {value!r}, which JSON cannot carry; use a finite number")
        return value
    if isinstance(value, list | tuple):
        return FrozenList(_inside(item, index) for index, item in enumerate(value))
    if isinstance(value, Mapping):
        return FrozenDict({_text_key(key): _inside(item, key) for key, item in value.items()})
    raise _NotJSON(
        f"is a {type(value).__name__}, which is not a JSON value; "
        "use dicts, lists, strings, numbers, booleans or None"
    )


def _inside(item: Any, key: str | int) -> Any:
    """Freeze an item of a dict or list; a problem inside it names where it is."""
    try:
        return _freeze(item)
    except _NotJSON as error:
        error.where.append(f"[{key!r}]")
        raise


def fresh_copy(value: Any) -> Any:
    """A new read-only copy of a value :func:`freeze` made: no dict or list in it is shared.

    The value was checked when it was frozen, so it is only copied, not checked again.
    """
    if isinstance(value, dict):
        return FrozenDict({key: fresh_copy(item) for key, item in value.items()})
    if isinstance(value, list):
        return FrozenList([fresh_copy(item) for item in value])
    return value


def _utf8(value: str) -> str:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise _NotJSON(
            f"is text that cannot be encoded as UTF-8 (a lone surrogate): {shown(value)}"
        ) from None
    return value


def _text_key(key: object) -> str:
    if not isinstance(key, str):
        raise _NotJSON(f"has the key {key!r}; JSON object keys must be strings")
    return _utf8(str.__str__(key))


class TranscriptView(Sequence[Message]):
    """A read-only view of a run's transcript, fixed at the length it had when it was made.

    What the model is given each turn: indexing, slicing, ``len`` and iteration work as on a
    list of the first ``length`` messages, and the view has no way to append or replace.
    Each message read from it is a fresh read-only copy (:func:`fresh_copy`), so nothing done
    to it reaches the record. Messages the run records later do not appear in the view, so a
    model that keeps the view it was handed still sees what it saw. (Python has no private
    attributes: code that reaches past the view into ``_messages`` holds the run's own list.
    The view guards against mistakes through its interface, not against code set on
    rewriting the record.)
    """

    __slots__ = ("_length", "_messages")

    def __init__(self, messages: list[Message], length: int | None = None) -> None:
        self._messages = messages
        self._length = len(messages) if length is None else length

    @overload
    def __getitem__(self, index: SupportsIndex) -> Message: ...
    @overload
    def __getitem__(self, index: slice) -> list[Message]: ...
    def __getitem__(self, index: SupportsIndex | slice) -> Message | list[Message]:
        if isinstance(index, slice):
            return [fresh_copy(self._messages[i]) for i in range(*index.indices(self._length))]
        position = range(self._length)[index]  # IndexError past the view's end
        return fresh_copy(self._messages[position])  # type: ignore[no-any-return]

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[Message]:
        return (fresh_copy(message) for message in islice(self._messages, self._length))

    def __repr__(self) -> str:
        return f"TranscriptView(<{self._length} messages>)"
