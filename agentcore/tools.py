"""Tools and the registry (chapter section 5).

A :class:`Tool` joins what the model is shown (name, description, the strict JSON Schema of
its arguments) with what the application runs (a handler). The runtime validates arguments
with the tool's pydantic model before the handler runs (5.1), whatever schema the provider
enforced, because the runtime is the one that bears the consequences. The
:class:`ToolRegistry` is the only place a tool name turns into code (5.2): a name the model
makes up does not create a function.

A run uses exactly two methods, one per phase: :meth:`ToolRegistry.prepare` looks the tool up
and validates the call's arguments (no handler runs), and :meth:`Tool.execute` runs the
handler and returns the observation text.

The schema the model is shown and the validator that runs must agree: every value the schema
allows validates, and nothing it forbids does. So the schema is the strict one
(:func:`strict_json_schema`, built once when the tool is built), and arguments are validated
as JSON data in pydantic's strict JSON mode, which is what they are.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic_core import ValidationError

from agentcore.errors import (
    ToolArgumentsError,
    ToolError,
    ToolExecutionError,
    UnknownToolError,
    message_of,
)
from agentcore.protocol import ToolCall, ToolSchema
from agentcore.strict_schema import strict_json_schema
from agentcore.transcript import FrozenList, freeze, fresh_copy

if TYPE_CHECKING:  # pydantic.BaseModel loads on the first Tool: `import agentcore` stays light
    from pydantic import BaseModel

TOOL_NAME_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
"""Function names the providers accept (the OpenAI-compatible function-calling rule)."""


@dataclass(frozen=True)
class Tool:
    """A capability the model may request (chapter section 5).

    Fields:

    * ``name``: matches ``^[A-Za-z0-9_-]{1,64}$``, the providers' function-name rule.
    * ``description``: non-blank; tells the model what the tool does.
    * ``arguments_model``: a pydantic ``BaseModel`` subclass that forbids extra keys; its
      strict JSON Schema is what the model sees, and it validates every call's arguments
      before the handler runs.
    * ``handler``: a synchronous function, called with one keyword argument per field of
      ``arguments_model``, already validated; returns any JSON-serialisable value (or a
      pydantic model).

    The chapter calls ``handler(arguments)`` with the validated model. agentcore passes its
    fields as keyword arguments instead, so a handler is an ordinary function
    (``def get_weather(city: str)``) that can be called and tested without pydantic, and the
    check below that the handler accepts exactly the model's fields runs when the tool is
    built, not in the middle of a run.

    Raises ``ValueError`` (bad name, blank description) or ``TypeError`` at construction: not
    a ``BaseModel`` subclass; an arguments model that cannot be shown exactly as a strict
    schema (:class:`~agentcore.strict_schema.StrictSchemaError`, naming the tool, the field,
    the construct and what to use instead); a handler that is not callable, does not accept
    the model's fields, or is asynchronous.
    """

    name: str
    description: str
    arguments_model: type[BaseModel]
    handler: Callable[..., Any]

    def __post_init__(self) -> None:
        _check_tool(self)
        parameters = strict_json_schema(self.arguments_model, self.name)
        schema = {"name": self.name, "description": self.description, "parameters": parameters}
        object.__setattr__(self, "_schema", freeze(schema, "schema"))

    def schema(self) -> ToolSchema:
        """Return what the model is shown: ``{"name", "description", "parameters"}``.

        ``parameters`` is the strict JSON Schema of ``arguments_model``
        (:func:`strict_json_schema`), which adapters pass to a provider unchanged. Each call
        returns a new read-only copy (``copy.deepcopy`` it for a version you can change), so
        no caller can change what the next one is shown.
        """
        return fresh_copy(self.__dict__["_schema"])  # type: ignore[no-any-return]

    def validate(self, arguments: Mapping[str, Any], call_id: str | None = None) -> BaseModel:
        """Validate raw arguments (a JSON object) against ``arguments_model``.

        The arguments are validated as the JSON data they are, in pydantic's strict JSON mode
        (``model_validate_json(..., strict=True)``): ``"2026-01-01"`` is a valid ``date`` and
        ``"C"`` a valid enum value, as the schema says, while ``"3"`` is not an ``int``. As in
        JSON Schema, a number with a zero fraction (``3.0``) is also the integer ``3`` where a
        field takes only integers, but only within ±(2**53 - 1), where a float stands for
        exactly one integer: ``1e23`` is refused for an ``int`` field. A field that takes a
        float (``float``, ``int | float``) gets the float that was sent.
        Returns the model instance, whose values are new, ordinary Python objects.

        Raises :class:`ToolArgumentsError` (naming ``call_id`` when given) with pydantic's
        field errors, and for whatever else a custom validator raises except
        ``KeyboardInterrupt`` (``SystemExit`` included, as in :meth:`execute`); the handler
        is not called.
        """
        try:
            return _validate_json(self.arguments_model, arguments)
        except ValidationError as error:
            raise ToolArgumentsError(self.name, _field_errors(error), call_id=call_id) from error
        except KeyboardInterrupt:  # Ctrl-C stops the run; it is not the arguments' fault
            raise
        except BaseException as error:  # not JSON data, or a bug in a custom validator
            message = f"{type(error).__name__}: {message_of(error)}"
            problem = {"loc": (), "msg": message, "type": "other"}
            raise ToolArgumentsError(self.name, [problem], call_id=call_id) from error

    def execute(self, arguments: BaseModel, call_id: str | None = None) -> str:
        """Run the handler on validated arguments; return the observation as JSON text.

        Input: what :meth:`ToolRegistry.prepare` (or :meth:`validate`) returned. Raises
        :class:`ToolExecutionError` (naming ``call_id`` when given, the original as
        ``__cause__``) when the handler fails, whatever it raises except
        ``KeyboardInterrupt`` (``SystemExit`` included), and when its result cannot be
        turned into JSON text (see :func:`observation_text`). Raises ``TypeError``, before the
        handler runs, for arguments that are not an instance of ``arguments_model`` (a raw
        dict: validate it first), since a :class:`ToolExecutionError` would blame the handler.
        """
        if not isinstance(arguments, self.arguments_model):
            raise TypeError(
                f"Tool {self.name!r}: execute takes the validated {self.arguments_model.__name__}"
                f", got {type(arguments).__name__}; call tool.execute(tool.validate(arguments))"
            )
        try:
            result = call_handler(self, arguments)
        except KeyboardInterrupt:  # Ctrl-C stops the run; it is not the tool's failure
            raise
        except BaseException as error:
            raise handler_failure(self.name, error, call_id) from error
        return observation_text(self.name, result, call_id)

    def __repr__(self) -> str:
        # The default dataclass repr would print the handler's memory address.
        handler = getattr(self.handler, "__qualname__", type(self.handler).__name__)
        return (
            f"Tool(name={self.name!r}, arguments_model={self.arguments_model.__name__}, "
            f"handler={handler})"
        )


class ToolRegistry:
    """The tools a run may use, by name (chapter section 5.2).

    Input: an iterable of :class:`Tool` with distinct names (``ValueError`` on a duplicate,
    ``TypeError`` on a non-``Tool``, and on a single ``Tool``, a dict or anything else that
    is not a list of tools, saying what to pass). Only these tools can ever be executed;
    nothing is looked up in globals or imported by name.
    """

    def __init__(self, tools: Iterable[Tool]) -> None:
        if isinstance(tools, Tool | str | Mapping) or not isinstance(tools, Iterable):
            hint = ""
            if isinstance(tools, Tool):
                hint = "; wrap one tool in a list: [tool]"
            elif isinstance(tools, Mapping):
                hint = "; for a dict of tools pass list(tools.values())"
            raise TypeError(f"tools must be a list of Tool, got {type(tools).__name__}{hint}")
        self._tools: dict[str, Tool] = {}
        for tool in tools:
            if not isinstance(tool, Tool):
                raise TypeError(f"ToolRegistry takes Tool objects, got {tool!r}")
            if tool.name in self._tools:
                raise ValueError(f"Tool name {tool.name!r} is registered twice")
            self._tools[tool.name] = tool

    def prepare(self, call: ToolCall) -> tuple[Tool, BaseModel]:
        """Look up the call's tool and validate its arguments; no handler runs.

        Returns the tool and the validated arguments, ready for :meth:`Tool.execute`.
        Raises :class:`UnknownToolError` when no tool has that name and
        :class:`ToolArgumentsError` when the arguments do not fit; both name the ``call_id``.
        """
        tool = self._tools.get(call.name)
        if tool is None:
            raise UnknownToolError(call.name, self.names, call_id=call.call_id)
        return tool, tool.validate(call.arguments, call.call_id)

    @property
    def names(self) -> tuple[str, ...]:
        """The registered tool names, in registration order."""
        return tuple(self._tools)

    def schemas(self) -> list[ToolSchema]:
        """The tools' schemas in registration order: new read-only copies on every call."""
        return FrozenList(tool.schema() for tool in self._tools.values())

    def get(self, name: str) -> Tool:
        """Return the tool called ``name``; :class:`UnknownToolError` if it is not registered."""
        tool = self._tools.get(name)
        if tool is None:
            raise UnknownToolError(name, self.names)
        return tool

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __len__(self) -> int:
        return len(self._tools)

    def __repr__(self) -> str:
        return f"ToolRegistry({list(self._tools)})"


def call_handler(tool: Tool, arguments: BaseModel) -> Any:
    """Call ``tool.handler`` with one keyword argument per field of the validated ``arguments``.

    Returns what the handler returned and raises what it raises: no checks, no wrapping (that
    is :meth:`Tool.execute`'s work). The one place a handler is called, for the runtime and for
    anyone who replays a tool outside a run.
    """
    fields = tool.arguments_model.model_fields
    return tool.handler(**{name: getattr(arguments, name) for name in fields})


def observation_text(tool: str, result: Any, call_id: str | None = None) -> str:
    """Turn a handler's result into the observation: JSON text that is valid UTF-8.

    A pydantic model is dumped first (``model_dump(mode="json")``); then
    ``json.dumps(ensure_ascii=False, allow_nan=False)``. Raises :class:`ToolExecutionError`
    naming ``tool`` (and ``call_id``) for anything that cannot become such text: NaN or
    infinity, a set, an arbitrary object, nesting too deep, a computed field that raises, a
    lone surrogate in a string.
    """
    if _is_awaitable(result):  # a sync handler returned a coroutine
        getattr(result, "close", lambda: None)()  # never awaited: close it quietly
        raise ToolExecutionError(
            tool, "returned an awaitable; handlers are synchronous", call_id=call_id
        )
    try:
        if hasattr(type(result), "__pydantic_serializer__"):  # a pydantic model
            result = result.model_dump(mode="json")
        text = json.dumps(result, ensure_ascii=False, allow_nan=False)
        text.encode("utf-8")  # a lone surrogate would break the next request
        return text
    except KeyboardInterrupt:
        raise
    except BaseException as error:
        raise ToolExecutionError(
            tool,
            f"returned a result that is not JSON ({type(error).__name__}: {message_of(error)}); "
            "return dicts, lists, strings, finite numbers, booleans or None",
            call_id=call_id,
        ) from error


def handler_failure(tool: str, error: BaseException, call_id: str | None) -> ToolExecutionError:
    """The typed error for a handler of ``tool`` that raised ``error`` (set it as the cause).

    Its message gives the application every detail; its ``public_message``, what the model
    may read under ``on_tool_error="observe"``, is a :class:`ToolError`'s own message, or
    else a fixed sentence naming the tool.
    """
    public = error.public_message if isinstance(error, ToolError) else None
    problem = f"failed: {type(error).__name__}: {message_of(error)}"
    return ToolExecutionError(tool, problem, call_id=call_id, public_message=public)


def _validate_json(model: type[BaseModel], arguments: Mapping[str, Any]) -> BaseModel:
    """``model.model_validate_json(json.dumps(arguments), strict=True)``, with one more try
    where an ``int`` field refused a float such as ``3.0``, which JSON Schema's ``integer``
    includes: those floats, and only those, are then sent as ints."""
    try:
        return model.model_validate_json(json.dumps(arguments), strict=True)
    except ValidationError as error:
        retry = _ints_where_refused(arguments, error)
        if retry is None:
            raise
    return model.model_validate_json(json.dumps(retry), strict=True)


def _field_errors(error: ValidationError) -> list[dict[str, Any]]:
    """Pydantic's field errors as plain dicts, for :class:`ToolArgumentsError`."""
    errors = error.errors(include_url=False, include_context=False)
    return [_said_plainly(dict(item)) for item in errors]


def _check_tool(tool: Tool) -> None:
    """The construction checks of :class:`Tool`, in the order a reader would make them."""
    if not isinstance(tool.name, str) or not TOOL_NAME_PATTERN.fullmatch(tool.name):
        raise ValueError(
            f"Tool name {tool.name!r} is not allowed: use 1-64 letters, digits, '_' or '-'"
        )
    if not isinstance(tool.description, str) or not tool.description.strip():
        raise ValueError(f"Tool {tool.name!r} needs a non-blank description for the model")
    from pydantic import BaseModel

    model = tool.arguments_model
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        raise TypeError(
            f"Tool {tool.name!r}: arguments_model must be a pydantic BaseModel subclass, "
            f"got {model!r}"
        )
    if not callable(tool.handler):
        raise TypeError(f"Tool {tool.name!r}: handler must be callable, got {tool.handler!r}")
    if _is_async(tool.handler):
        raise TypeError(
            f"Tool {tool.name!r}: the handler is asynchronous; handlers are synchronous "
            "functions that return their result (the runtime runs calls one after another)"
        )
    # Catch a handler/model mismatch when the tool is built, not in the middle of a run.
    import inspect

    try:
        signature = inspect.signature(tool.handler)
    except (TypeError, ValueError):
        return  # some builtins have no signature to check
    fields = dict.fromkeys(model.model_fields)
    try:
        signature.bind(**fields)
    except TypeError as error:
        raise TypeError(
            f"Tool {tool.name!r}: the handler must accept the keyword arguments "
            f"{list(fields)} of {model.__name__} ({error})"
        ) from None


def _is_awaitable(result: object) -> bool:
    """True for a coroutine or other awaitable, looked up on its type.

    On the type, not the instance: a result whose ``__getattr__`` raises (not
    ``AttributeError``) would otherwise break out of :func:`observation_text` untyped.
    """
    return hasattr(type(result), "__await__")


def _is_async(handler: Callable[..., Any]) -> bool:
    """True for a coroutine or async-generator function, or an object whose call is one."""
    import inspect

    for candidate in (handler, getattr(handler, "__call__", None)):  # noqa: B004
        if inspect.iscoroutinefunction(candidate) or inspect.isasyncgenfunction(candidate):
            return True
    return False


_SAFE_INTEGER = 2**53 - 1
"""The largest integer a float holds exactly with its neighbours apart (JavaScript's
``Number.MAX_SAFE_INTEGER``): past it, a float such as ``9007199254740993.0`` has already
become another integer when the JSON was parsed."""


def _ints_where_refused(arguments: Mapping[str, Any], error: ValidationError) -> Any:
    """``arguments`` with each integral float that an ``int`` field refused written as an int.

    JSON Schema's ``integer`` includes ``3.0`` (JSON itself does not tell 3.0 from 3), and a
    provider may send either; pydantic's strict JSON mode refuses ``3.0`` for an ``int``
    field, so the validator would refuse what the schema allows (the schema and the
    validator must agree). Only the values at the locations of ``error``'s ``int_type`` errors
    are changed: a field that takes a float (``float``, ``int | float``) keeps the float it
    was sent, even when another field's refusal brought the arguments here. A float
    beyond :data:`_SAFE_INTEGER` stays a float: ``1e23`` parses to 99999999999999991611392,
    which is not the integer the model wrote, so the ``int`` field refuses it again.
    Returns ``None`` when no location holds such a float (there is nothing to retry).
    """
    paths = {
        _data_path(arguments, problem["loc"])
        for problem in error.errors(include_url=False, include_context=False)
        if problem["type"] == "int_type" and _exact_integer(problem.get("input"))
    }
    return _ints_at(arguments, paths, ()) if paths else None


def _exact_integer(value: object) -> bool:
    """True for a float with a zero fraction that stands for exactly one integer."""
    return isinstance(value, float) and value.is_integer() and abs(value) <= _SAFE_INTEGER


def _data_path(arguments: Any, loc: tuple[int | str, ...]) -> tuple[int | str, ...]:
    """The keys and indexes of ``arguments`` that pydantic's ``loc`` walks through.

    A ``loc`` also names the member of a union it tried (``("either", "int")``); such a step
    names nothing in the data, so it is left out.
    """
    path: list[int | str] = []
    value = arguments
    for step in loc:
        in_object = isinstance(value, Mapping) and step in value
        in_array = isinstance(value, list) and isinstance(step, int) and 0 <= step < len(value)
        if in_object or in_array:
            value = value[step]
            path.append(step)
    return tuple(path)


def _ints_at(value: Any, paths: set[tuple[int | str, ...]], path: tuple[int | str, ...]) -> Any:
    """A copy of ``value`` with the exact integral float at each of ``paths`` as an int."""
    if path in paths and _exact_integer(value):
        return int(value)
    if isinstance(value, Mapping):
        return {key: _ints_at(item, paths, (*path, key)) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_ints_at(item, paths, (*path, index)) for index, item in enumerate(value)]
    return value


def _said_plainly(problem: dict[str, Any]) -> dict[str, Any]:
    """Pydantic's field error, with an integral float too large to be exact explained."""
    value = problem.get("input")
    if problem.get("type") == "int_type" and isinstance(value, float) and value.is_integer():
        problem["type"] = "int_not_exact"
        problem["msg"] = (
            f"{value!r} is a float beyond ±(2**53 - 1), which does not stand for exactly one "
            "integer; send the integer in plain digits"
        )
    return problem
