"""Tools and the registry (chapter section 5).

A :class:`Tool` joins what the model is shown (name, description, the JSON Schema of its
arguments) with what the application runs (a handler). The runtime validates arguments with
the tool's pydantic model before the handler runs (5.1), whatever schema the provider
enforced, because the runtime is the one that bears the consequences. The
:class:`ToolRegistry` is the only place a tool name turns into code (5.2): a name the model
makes up does not create a function.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from agentcore.errors import ToolArgumentsError, ToolExecutionError, UnknownToolError
from agentcore.protocol import ToolCall, ToolSchema
from agentcore.transcript import FrozenList, freeze

TOOL_NAME_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
"""Function names the providers accept (the OpenAI-compatible function-calling rule)."""


@dataclass(frozen=True)
class Tool:
    """A capability the model may request (chapter section 5).

    Fields:

    * ``name``: matches ``^[A-Za-z0-9_-]{1,64}$``, the providers' function-name rule.
    * ``description``: non-blank; tells the model what the tool does.
    * ``arguments_model``: a pydantic ``BaseModel`` subclass; its JSON Schema is what the
      model sees, and it validates every call's arguments before the handler runs.
    * ``handler``: called with one keyword argument per field of ``arguments_model``, already
      validated; returns any JSON-serialisable value (or a pydantic model).

    Raises ``ValueError`` (bad name, blank description) or ``TypeError`` (not a ``BaseModel``
    subclass, handler not callable or not accepting the model's fields) at construction.
    """

    name: str
    description: str
    arguments_model: type[BaseModel]
    handler: Callable[..., Any]

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not TOOL_NAME_PATTERN.fullmatch(self.name):
            raise ValueError(
                f"Tool name {self.name!r} is not allowed: use 1-64 letters, digits, '_' or '-'"
            )
        if not isinstance(self.description, str) or not self.description.strip():
            raise ValueError(f"Tool {self.name!r} needs a non-blank description for the model")
        if not (
            isinstance(self.arguments_model, type) and issubclass(self.arguments_model, BaseModel)
        ):
            raise TypeError(
                f"Tool {self.name!r}: arguments_model must be a pydantic BaseModel subclass, "
                f"got {self.arguments_model!r}"
            )
        if not callable(self.handler):
            raise TypeError(f"Tool {self.name!r}: handler must be callable, got {self.handler!r}")
        self._check_handler_accepts_fields()

    def _check_handler_accepts_fields(self) -> None:
        # Catch a handler/model mismatch when the tool is built, not in the middle of a run.
        try:
            signature = inspect.signature(self.handler)
        except (TypeError, ValueError):
            return  # some builtins have no signature to check
        fields = dict.fromkeys(self.arguments_model.model_fields)
        try:
            signature.bind(**fields)
        except TypeError as error:
            raise TypeError(
                f"Tool {self.name!r}: the handler must accept the keyword arguments "
                f"{list(fields)} of {self.arguments_model.__name__} ({error})"
            ) from None

    def __repr__(self) -> str:
        # The default dataclass repr would print the handler's memory address.
        handler = getattr(self.handler, "__qualname__", type(self.handler).__name__)
        return (
            f"Tool(name={self.name!r}, arguments_model={self.arguments_model.__name__}, "
            f"handler={handler})"
        )

    def schema(self) -> dict[str, Any]:
        """Return what the model is shown: ``{"name", "description", "parameters"}``.

        ``parameters`` is the JSON Schema that pydantic generates for ``arguments_model``.
        """
        return {
            "name": self.name,
            "description": self.description,
            "parameters": self.arguments_model.model_json_schema(),
        }

    def validate(self, arguments: Mapping[str, Any]) -> BaseModel:
        """Validate raw arguments (a JSON object) against ``arguments_model``.

        Returns the model instance. Raises :class:`ToolArgumentsError` with pydantic's field
        errors when they do not fit, or when a validator of the model itself raises something
        pydantic does not turn into a field error (a ``KeyError`` in a custom validator, say);
        the handler is not called.
        """
        try:
            return self.arguments_model.model_validate(arguments)
        except ValidationError as error:
            errors = error.errors(include_url=False, include_context=False)
            raise ToolArgumentsError(self.name, [dict(item) for item in errors]) from error
        except Exception as error:  # a bug in a custom validator: still the arguments' layer
            problem = {"loc": (), "msg": f"{type(error).__name__}: {error}", "type": "validator"}
            raise ToolArgumentsError(self.name, [problem]) from error

    def invoke(self, arguments: BaseModel) -> str:
        """Run the handler on validated arguments and return the observation as JSON text.

        The result is serialised with ``json.dumps(ensure_ascii=False, allow_nan=False)``
        (a pydantic model is dumped first). Raises :class:`ToolExecutionError` when the
        handler raises (the original is ``__cause__``) or its result is not JSON (NaN,
        infinity, a set, an arbitrary object, nesting too deep to serialise).
        """
        fields = {name: getattr(arguments, name) for name in type(arguments).model_fields}
        try:
            result = self.handler(**fields)
        except Exception as error:  # any handler failure becomes one typed error
            raise ToolExecutionError(
                self.name, f"Tool {self.name!r} failed: {type(error).__name__}: {error}"
            ) from error
        try:
            if isinstance(result, BaseModel):
                result = result.model_dump(mode="json")
            return json.dumps(result, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError, RecursionError) as error:
            raise ToolExecutionError(
                self.name,
                f"Tool {self.name!r} returned a result that is not JSON ({error}); "
                "return dicts, lists, strings, finite numbers, booleans or None",
            ) from error

    def execute(self, arguments: Mapping[str, Any]) -> str:
        """Validate, then invoke: raw JSON-object arguments in, observation JSON text out."""
        return self.invoke(self.validate(arguments))


class ToolRegistry:
    """The tools a run may use, by name (chapter section 5.2).

    Input: an iterable of :class:`Tool` with distinct names (``ValueError`` on a duplicate,
    ``TypeError`` on a non-``Tool``). Only these tools can ever be executed; nothing is looked
    up in globals or imported by name.
    """

    def __init__(self, tools: Iterable[Tool]) -> None:
        self._tools: dict[str, Tool] = {}
        for tool in tools:
            if not isinstance(tool, Tool):
                raise TypeError(f"ToolRegistry takes Tool objects, got {tool!r}")
            if tool.name in self._tools:
                raise ValueError(f"Tool name {tool.name!r} is registered twice")
            self._tools[tool.name] = tool
        # Frozen once: every model turn gets the same read-only schemas.
        self._schemas: FrozenList = freeze([tool.schema() for tool in self._tools.values()])

    @property
    def names(self) -> tuple[str, ...]:
        """The registered tool names, in registration order."""
        return tuple(self._tools)

    def schemas(self) -> list[ToolSchema]:
        """The tools' schemas in registration order (read-only dicts)."""
        return self._schemas

    def get(self, name: str) -> Tool:
        """Return the tool called ``name``; :class:`UnknownToolError` if it is not registered."""
        tool = self._tools.get(name)
        if tool is None:
            raise UnknownToolError(name, self.names)
        return tool

    def execute(self, call: ToolCall) -> str:
        """Look up, validate and run one call; return the observation text.

        Raises :class:`UnknownToolError`, :class:`ToolArgumentsError` or
        :class:`ToolExecutionError`.
        """
        return self.get(call.name).execute(call.arguments)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __len__(self) -> int:
        return len(self._tools)

    def __repr__(self) -> str:
        return f"ToolRegistry({list(self._tools)})"
