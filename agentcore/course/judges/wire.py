"""What a grade's two processes say to each other: frames, and learner values as plain data.

A grade is computed by two processes (:mod:`agentcore.course.judges.referee`): the *player*
runs the notebook's cells, the learner's code among them, and the *referee* holds the judges
and never runs a line of learner code. The referee drives the learner's values remotely: it
asks the player for a name, calls a learner function with arguments, validates a tool call's
arguments against a learner's arguments model. This module is everything both sides agree on:

* **Frames.** Each message is one frame on a pipe: four bytes of length (big-endian), then a
  tag byte and the body. The referee writes ``P`` + a pickle (the player runs learner code
  anyway, so a pickle it reads can do nothing it could not do itself); the player writes ``J``
  + JSON, which the referee reads as data only (``json.loads``: no object of the player's is
  ever unpickled, so nothing the player sends can run code in the referee). A frame over
  :data:`MAX_FRAME_BYTES` is refused.
* **Descriptions.** A learner value reaches the referee as a *description*
  (:func:`describe`): plain data (``None``, ``bool``, ``int``, ``float``, ``str``, and tagged
  lists, tuples, dicts and bytes, read through their C slots so no learner ``__eq__`` or
  ``__iter__`` runs); the protocol's own values (``ModelTurn``, ``ToolCall``, ``Tool``,
  ``Reply``) field by field; a package function or class by its name (``ref``); anything else
  as a handle, a number the player keeps the object under. :func:`rebuild` turns a
  description back into values in the referee: the same plain data, real ``ModelTurn`` and
  ``ToolCall`` objects built by their own constructors, package objects looked up in the
  referee's own modules, and a proxy for each handle (see the referee).
* **Errors.** An exception the learner's code raised travels as its class name and the
  standard classes it derives from (:func:`describe_error`); the referee raises an exception
  of a class of that name deriving from the same standard class (:func:`rebuild_error`), so a
  judge's ``except AssertionError`` and the verdict's error name read as they do in the
  learner's own kernel.
"""

from __future__ import annotations

import builtins
import inspect
import json
import os
import select
import sys
import time
from collections.abc import Callable
from typing import Any

MAX_FRAME_BYTES = 64 * 1024 * 1024
"""The largest frame either side reads: far above any description a lesson's answer needs."""

MAX_DEPTH = 200
"""How deeply a description may nest (a list holding itself is refused, not followed)."""


class WireBroken(Exception):
    """The other process broke the conversation: it closed its pipe, sent a frame that is not
    one, or sent a description that is not one (``reason`` says which)."""


class WireTimeout(Exception):
    """The other process did not answer before the deadline (learner code still running)."""


# ----------------------------------------------------------------------------- frames


def write_frame(fd: int, tag: bytes, body: bytes) -> None:
    """Write one frame (``tag``: ``b"P"`` or ``b"J"``) to the pipe ``fd``; ``WireBroken`` if
    the other end is gone."""
    data = (len(body) + 1).to_bytes(4, "big") + tag + body
    try:
        while data:
            data = data[os.write(fd, data) :]
    except OSError as error:
        raise WireBroken(f"the pipe is closed ({error.__class__.__name__})") from error


def _read_exactly(fd: int, count: int, deadline: float | None) -> bytes:
    parts: list[bytes] = []
    while count:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise WireTimeout("no answer before the deadline")
        try:
            part = os.read(fd, min(count, 1 << 20))
        except OSError as error:
            raise WireBroken(f"the pipe is closed ({error.__class__.__name__})") from error
        if not part:
            raise WireBroken("the other process closed its pipe")
        parts.append(part)
        count -= len(part)
    return b"".join(parts)


def read_frame(fd: int, deadline: float | None = None) -> tuple[bytes, bytes]:
    """Read one frame from ``fd``: ``(tag, body)``. ``deadline`` is a ``time.monotonic()``
    value (``None``: wait as long as it takes). Raises ``WireTimeout`` past the deadline and
    ``WireBroken`` for a closed pipe or a frame of a size outside 1 .. ``MAX_FRAME_BYTES``."""
    size = int.from_bytes(_read_exactly(fd, 4, deadline), "big")
    if not 1 <= size <= MAX_FRAME_BYTES:
        raise WireBroken(f"a frame of {size} bytes")
    frame = _read_exactly(fd, size, deadline)
    return frame[:1], frame[1:]


def read_json(fd: int, deadline: float | None = None) -> dict[str, Any]:
    """Read one frame the player wrote: a JSON object, read as data only."""
    tag, body = read_frame(fd, deadline)
    if tag != b"J":
        raise WireBroken("a frame that is not JSON")
    try:
        message = json.loads(body.decode("utf-8"))
    except (ValueError, RecursionError) as error:
        raise WireBroken("a frame that is not valid JSON") from error
    if type(message) is not dict:
        raise WireBroken("a message that is not a JSON object")
    return message


def write_json(fd: int, message: dict[str, Any]) -> None:
    """Write one JSON frame (the player's side)."""
    write_frame(fd, b"J", json.dumps(message, ensure_ascii=False).encode("utf-8"))


# ----------------------------------------------------------------------------- the player's side


class NotDescribable(Exception):
    """A value nests deeper than :data:`MAX_DEPTH` (a list that holds itself)."""


def package_name(value: Any) -> tuple[str, str] | None:
    """``(module, qualified name)`` of a function or class of ``agentcore`` itself, found
    again under that name; ``None`` for anything else (a learner's function, a lambda)."""
    if not (inspect.isfunction(value) or inspect.isclass(value)):
        return None
    module = getattr(value, "__module__", None)
    qualname = getattr(value, "__qualname__", None)
    if not (isinstance(module, str) and isinstance(qualname, str)):
        return None
    if module != "agentcore" and not module.startswith("agentcore."):
        return None
    found: Any = sys.modules.get(module)  # its module is loaded: the value came from it
    try:
        for part in qualname.split("."):
            found = getattr(found, part)
    except AttributeError:
        return None
    return (module, qualname) if found is value else None


def signature_of(function: Any) -> list[list[Any]] | None:
    """A callable's parameters as ``[[name, kind, has_default], ...]`` (``kind``: the number
    of ``inspect.Parameter.kind``), or ``None`` when it has no signature to read."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    return [
        [p.name, int(p.kind), p.default is not inspect.Parameter.empty]
        for p in signature.parameters.values()
    ]


def _view_slot(name: str) -> Any:
    from agentcore.transcript import TranscriptView

    return vars(TranscriptView)[name]


_VIEW_MESSAGES, _VIEW_LENGTH = _view_slot("_messages"), _view_slot("_length")
"""``TranscriptView``'s own slots, read past any method a learner's code could replace: a
judge's model that runs in the referee (:func:`agentcore.course.judges.runs.opaque`) is handed
the transcript as plain data."""


def describe(value: Any, keep: Callable[[Any], int], depth: int = 0) -> Any:
    """A learner value as plain JSON data (see the module's docstring for the tags).

    ``keep`` stores an object the description cannot carry and returns its handle. Exact
    built-in types are read through their C slots (``list.copy``, ``dict.items``), so no
    method of a learner's subclass runs. Raises :class:`NotDescribable` past
    :data:`MAX_DEPTH`, and whatever a learner's ``Tool`` subclass raises while its fields are
    read."""
    from agentcore.protocol import ModelTurn, ToolCall
    from agentcore.tools import Tool
    from agentcore.transcript import TranscriptView

    if depth > MAX_DEPTH:
        raise NotDescribable(f"nested deeper than {MAX_DEPTH}")
    inner = depth + 1
    if value is None or type(value) is bool:
        return value
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, (bytes, bytearray)):
        return {"t": "bytes", "v": bytes(value).hex()}
    if isinstance(value, tuple):
        items = tuple.__getitem__(value, slice(None))
        return {"t": "tuple", "v": [describe(item, keep, inner) for item in items]}
    if isinstance(value, list):
        return {"t": "list", "v": [describe(item, keep, inner) for item in list.copy(value)]}
    if isinstance(value, dict):
        pairs = dict.items(value)
        return {
            "t": "dict",
            "v": [[describe(k, keep, inner), describe(v, keep, inner)] for k, v in pairs],
        }
    if type(value) is TranscriptView:  # what a model is handed each turn: its messages, as a list
        messages = _VIEW_MESSAGES.__get__(value)[: _VIEW_LENGTH.__get__(value)]
        return {"t": "list", "v": [describe(item, keep, inner) for item in messages]}
    if type(value) is ToolCall:
        return {
            "t": "call",
            "call_id": value.call_id,
            "name": value.name,
            "arguments": describe(dict(value.arguments), keep, inner),
        }
    if type(value) is ModelTurn:
        return {
            "t": "turn",
            "final_text": describe(value.final_text, keep, inner),
            "tool_calls": [describe(call, keep, inner) for call in value.tool_calls],
            "provider_items": describe(value.provider_items, keep, inner),
        }
    if isinstance(value, Tool):
        model = package_name(value.arguments_model)
        return {
            "t": "tool",
            "handle": keep(value),
            "name": describe(value.name, keep, inner),
            "description": describe(value.description, keep, inner),
            "model": None if model is None else list(model),
            "model_name": str(getattr(value.arguments_model, "__name__", "?")),
            "fields": describe([str(name) for name in value.arguments_model.model_fields], keep),
            "kind": type(value).__name__,
            "handler": describe(value.handler, keep, inner),
            "schema": describe(value.schema(), keep, inner),
        }
    reply = _reply_fields(value)
    if reply is not None:
        return {"t": "reply", "v": {k: describe(v, keep, inner) for k, v in reply.items()}}
    dumped = _model_dump(value)
    if dumped is not None:
        return {"t": "dump", "v": describe(dumped, keep, inner)}
    named = package_name(value)
    if named is not None:
        return {"t": "ref", "module": named[0], "name": named[1]}
    kind = type(value).__name__
    if callable(value):
        return {"t": "callable", "handle": keep(value), "kind": kind, "sig": signature_of(value)}
    return {"t": "object", "handle": keep(value), "kind": kind}


def _reply_fields(value: Any) -> dict[str, Any] | None:
    """A loopback server's ``Reply``'s fields, or ``None`` for any other value."""
    import dataclasses

    from agentcore.providers.local_server import Reply

    if not isinstance(value, Reply):
        return None
    return {f.name: getattr(value, f.name) for f in dataclasses.fields(Reply)}


def _model_dump(value: Any) -> Any:
    """A pydantic model instance's ``model_dump(mode="json")`` (a handler may return one),
    or ``None`` for any other value."""
    try:
        from pydantic import BaseModel
    except ImportError:  # pragma: no cover - pydantic is a dependency of the package
        return None
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    return None


_STANDARD_MODULES = ("builtins", "agentcore", "_pytest.outcomes")


def describe_error(error: BaseException) -> dict[str, Any]:
    """What the learner's code raised, as data: its class name, its message (first 300
    characters) and the standard classes (``builtins``, ``agentcore``'s, pytest's ``Failed``)
    it derives from, nearest first."""
    bases = []
    for cls in type(error).__mro__:
        module = getattr(cls, "__module__", "")
        if module in _STANDARD_MODULES or module.startswith("agentcore."):
            bases.append([module, cls.__qualname__])
    try:
        message = str(error)[:300]
    except BaseException:  # a learner's __str__ that raises: the class name is enough
        message = ""
    return {"kind": type(error).__name__, "bases": bases, "message": message}


# ----------------------------------------------------------------------------- the referee's side


def resolve(module: Any, name: Any) -> Any:
    """The referee's own ``agentcore`` function or class defined in ``module`` under the
    qualified name ``name`` (what :func:`package_name` describes).

    Only a module the referee has already imported counts: a ref never imports one, so a
    module the learner's code wrote into the package's folder never runs here.

    Raises ``WireBroken`` for a name outside ``agentcore``, a module that runs on import (the
    command line, the grading boot), a module not imported here, a private name, one that does
    not exist, and anything that is not a function or class defined there under that name (an
    imported module's function reached through the package, a table, a bound method)."""
    if not (isinstance(module, str) and isinstance(name, str)):
        raise WireBroken("a ref that is not two names")
    if module != "agentcore" and not module.startswith("agentcore."):
        raise WireBroken(f"a ref outside the package: {module[:80]}")
    if module.endswith(("__main__", "grade_boot")) or any(
        part.startswith("__") for part in name.split(".")
    ):
        raise WireBroken(f"a ref that may not be one: {module[:80]}.{name[:80]}")
    found: Any = sys.modules.get(module)
    if found is None:
        raise WireBroken(f"a ref to a module the judges do not use: {module[:80]}")
    try:
        for part in name.split("."):
            found = getattr(found, part)
    except AttributeError as error:
        raise WireBroken(f"no such ref: {module[:80]}.{name[:80]}") from error
    defined_here = (
        (inspect.isfunction(found) or inspect.isclass(found))
        and getattr(found, "__module__", None) == module
        and getattr(found, "__qualname__", None) == name
    )
    if not defined_here:
        raise WireBroken(f"a ref to something not defined there: {module[:80]}.{name[:80]}")
    return found


def rebuild(data: Any, proxy: Callable[[dict[str, Any]], Any], depth: int = 0) -> Any:
    """A description (JSON data from the player) as values in the referee.

    ``proxy`` turns a ``tool``, ``callable`` or ``object`` description into the referee's
    stand-in for it. ``ModelTurn`` and ``ToolCall`` are built by their own constructors (and
    raise what those raise for fields a real one could not hold). Raises ``WireBroken`` for
    anything that is not a description."""
    if depth > MAX_DEPTH + 2:
        raise WireBroken("a description nested too deeply")
    if data is None or type(data) in (bool, int, float, str):
        return data
    if type(data) is not dict or "t" not in data:
        raise WireBroken("a value that is not a description")
    inner = depth + 1
    tag = data["t"]
    if tag in ("list", "tuple"):
        items = [rebuild(item, proxy, inner) for item in _list(data.get("v"))]
        return items if tag == "list" else tuple(items)
    if tag == "dict":
        pairs = _list(data.get("v"))
        if not all(type(pair) is list and len(pair) == 2 for pair in pairs):
            raise WireBroken("a dict that is not pairs")
        try:
            return {rebuild(k, proxy, inner): rebuild(v, proxy, inner) for k, v in pairs}
        except TypeError as error:  # a list as a key
            raise WireBroken("a dict key that cannot be one") from error
    if tag == "bytes":
        try:
            return bytes.fromhex(str(data.get("v")))
        except ValueError as error:
            raise WireBroken("bytes that are not hex") from error
    if tag == "call":
        from agentcore.protocol import ToolCall

        return ToolCall(
            rebuild(data.get("call_id"), proxy, inner),
            rebuild(data.get("name"), proxy, inner),
            rebuild(data.get("arguments"), proxy, inner),
        )
    if tag == "turn":
        from agentcore.protocol import ModelTurn

        return ModelTurn(
            final_text=rebuild(data.get("final_text"), proxy, inner),
            tool_calls=tuple(rebuild(c, proxy, inner) for c in _list(data.get("tool_calls"))),
            provider_items=rebuild(data.get("provider_items"), proxy, inner),
        )
    if tag == "reply":
        from agentcore.providers.local_server import Reply

        fields = data.get("v")
        if type(fields) is not dict:
            raise WireBroken("a Reply without fields")
        try:
            return Reply(**{str(k): rebuild(v, proxy, inner) for k, v in fields.items()})
        except TypeError as error:
            raise WireBroken("a Reply with fields it does not have") from error
    if tag == "dump":
        return rebuild(data.get("v"), proxy, inner)
    if tag == "ref":
        return resolve(data.get("module"), data.get("name"))
    if tag in ("tool", "callable", "object"):
        if type(data.get("handle")) is not int:
            raise WireBroken("a handle that is not a number")
        return proxy(data)
    raise WireBroken(f"an unknown tag: {str(tag)[:40]}")


def _list(value: Any) -> list[Any]:
    if type(value) is not list:
        raise WireBroken("a list that is not one")
    return value


def signature_from(data: Any) -> inspect.Signature | None:
    """The ``inspect.Signature`` a :func:`signature_of` description stands for, with a
    placeholder for every default; ``None`` when there is none or it is not one."""
    if type(data) is not list:
        return None
    try:
        return inspect.Signature(
            [
                inspect.Parameter(
                    str(name),
                    _KINDS[int(kind)],
                    default=_DEFAULT if has_default is True else inspect.Parameter.empty,
                )
                for name, kind, has_default in data
            ]
        )
    except (TypeError, ValueError, KeyError):
        return None


_KINDS = {
    int(kind): kind
    for kind in (
        inspect.Parameter.POSITIONAL_ONLY,
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
        inspect.Parameter.VAR_POSITIONAL,
        inspect.Parameter.KEYWORD_ONLY,
        inspect.Parameter.VAR_KEYWORD,
    )
}
"""The parameter kinds (``inspect.Parameter.kind``) by their numbers."""


class _Default:
    """What a learner function's default value is in the referee: present, never read."""

    def __repr__(self) -> str:
        return "<default>"


_DEFAULT = _Default()


_ERROR_CLASSES: dict[tuple[str, type[BaseException]], type[BaseException]] = {}


def rebuild_error(data: Any) -> BaseException:
    """The exception a :func:`describe_error` description stands for, in the referee.

    Its class has the learner's class name and derives from the nearest standard class the
    learner's did (``Exception`` when none is known), so ``except AssertionError`` and
    ``isinstance(error, ToolExecutionError)`` behave as in the learner's kernel; its message
    is the learner's. Raises ``WireBroken`` for a description that is not one."""
    if type(data) is not dict or type(data.get("kind")) is not str:
        raise WireBroken("an error that is not described")
    kind = data["kind"][:100] or "Exception"
    base: type[BaseException] = Exception
    bases = data.get("bases")
    for entry in bases if type(bases) is list else []:
        found = _standard_class(entry)
        if found is not None:
            base = found
            break
    message = str(data.get("message", ""))
    if base.__name__ == kind and base.__module__ == "builtins":
        error = base.__new__(base)
    else:
        key = (kind, base)
        if key not in _ERROR_CLASSES:
            _ERROR_CLASSES[key] = type(kind, (base,), {"__module__": "answer"})
        error = base.__new__(_ERROR_CLASSES[key])
    BaseException.__init__(error, message)
    return error


def _standard_class(entry: Any) -> type[BaseException] | None:
    """A standard exception class a description names, as the referee has it, or ``None``."""
    if type(entry) is not list or len(entry) != 2:
        return None
    module, name = entry
    found: Any = None
    if module == "builtins":
        found = getattr(builtins, str(name), None)
    elif module == "_pytest.outcomes" and name == "Failed":
        try:
            import pytest
        except ImportError:
            return None
        found = pytest.fail.Exception
    else:
        try:
            found = resolve(module, name)
        except WireBroken:
            return None
    if isinstance(found, type) and issubclass(found, BaseException):
        return found
    return None
