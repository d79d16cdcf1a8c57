"""Where a run's work happens in the package's code, read from real runs (chapter section 13).

The five "where" questions of section 13 (where the model decides, where the application
executes a tool, where a run's state is kept, where errors are stopped, where the loop stops)
are answered here by running the runtime and looking at the Python stack, not by a table, so
code that moves to another function or file keeps the answers right:

* **stops**: the loop is the generator the run advances: the agentcore generator frame found
  on the stack whenever the model is asked, and the frame that raises ``MaxStepsExceeded``
  in a run with ``max_steps=1``.
* **decides**: every function on the stack between the loop and the model's ``generate`` (the
  runtime's call of the model), and that ``generate`` itself: the one of the run's model,
  ``ScriptedWeatherModel.generate``. The ``Model`` protocol and the ``generate`` of a class no
  run of the lesson uses (``ScriptedModel``, an adapter) are never on that stack.
* **executes**: every function between the loop and a tool's handler. The handler itself is
  the *tool* (it implements), not the application executing it.
* **state**: the class of the run that ``AgentRuntime.start`` returns, and its methods the
  loop calls while it runs to keep the state (recording a message); not a property that only
  reads it (``AgentRun.messages``).
* **errors**: every function between the loop and the place a bad turn is refused, in one
  run per kind of refusal the lessons show (an unknown tool, arguments that do not fit, a
  reused ``call_id``, a turn over ``max_tool_calls``, a failing handler, a model that raises
  or returns something that is not a ``ModelTurn``, a ``ModelTurn`` with both a text and
  calls). The loop that catches them is the answer to "stops".

A place is a code object (a function, method or property) or a class. Frames of this judges
package (the fault models) and of generated code (dataclass ``__init__``) are left out.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import importlib.util
import inspect
import pkgutil
import sys
import typing
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from types import CodeType, FrameType, TracebackType
from typing import Any

import agentcore
from agentcore.course.judges.core import spelled
from agentcore.course.judges.runs import finished_run
from agentcore.course.teaching_tools import build_tools
from agentcore.course.weather import ScriptedWeatherModel, weather_request
from agentcore.errors import MaxStepsExceeded
from agentcore.protocol import ModelTurn, ToolCall
from agentcore.runtime import AgentRuntime
from agentcore.scripted import ScriptedModel

QUESTIONS = ("decides", "executes", "state", "errors", "stops")
"""The five questions, in the chapter's order; the keys of the learner's ``my_where``."""


def _module_of(frame: FrameType) -> str:
    return str(frame.f_globals.get("__name__", ""))


def _is_package_code(frame: FrameType) -> bool:
    """A frame of the package's own code (a real file of an agentcore module, not a judge)."""
    name = _module_of(frame)
    module = sys.modules.get(name)
    return (
        name.startswith("agentcore.")
        and not name.startswith("agentcore.course.judges")
        and not frame.f_code.co_name.startswith("<")  # a comprehension or a lambda
        and getattr(module, "__file__", None) == frame.f_code.co_filename
    )


def _is_loop(frame: FrameType) -> bool:
    return _is_package_code(frame) and bool(frame.f_code.co_flags & inspect.CO_GENERATOR)


def _path_to_loop(frame: FrameType | None) -> tuple[set[CodeType], CodeType | None]:
    """The package's functions from ``frame`` out to the loop (left out), and the loop's code."""
    between: set[CodeType] = set()
    while frame is not None:
        if _is_loop(frame):
            return between, frame.f_code
        if _is_package_code(frame):
            between.add(frame.f_code)
        frame = frame.f_back
    return between, None


def _traceback_frames(traceback: TracebackType | None) -> Iterator[FrameType]:
    while traceback is not None:
        yield traceback.tb_frame
        traceback = traceback.tb_next


def _code(value: Any) -> Any:
    """The code object behind a function, method or property; a class stays the class."""
    if isinstance(value, property):
        value = value.fget
    value = getattr(value, "__func__", value)  # staticmethod, classmethod, bound method
    return getattr(value, "__code__", value)


def model_protocol() -> Any:
    """The protocol the runtime declares for its ``model`` parameter (``Model``)."""
    return typing.get_type_hints(AgentRuntime.__init__)["model"]


def protocol_members() -> tuple[str, ...]:
    """The methods a model must have: the protocol's own public functions (``generate``)."""
    protocol = model_protocol()
    return tuple(
        name
        for name, value in vars(protocol).items()
        if inspect.isfunction(value) and not name.startswith("_")
    )


# ----------------------------------------------------------------------------- the runs


class _ReturnsNoTurn:
    """A model whose reply is not a ``ModelTurn``."""

    def generate(self, messages: Sequence[Any], tools: Sequence[Any]) -> Any:
        return {"final_text": "a dict, not a ModelTurn"}


class _Raises:
    """A model that fails while producing its turn."""

    def generate(self, messages: Sequence[Any], tools: Sequence[Any]) -> ModelTurn:
        raise ConnectionError("the model's service did not answer")


class _TextAndCalls:
    """A model that builds a ``ModelTurn`` holding a final text and a tool call."""

    def generate(self, messages: Sequence[Any], tools: Sequence[Any]) -> ModelTurn:
        call = ToolCall("call-weather", "get_teaching_weather", {"city": "Tokyo"})
        return ModelTurn(final_text="both", tool_calls=(call,))


def _turns(*calls: tuple[str, str, dict[str, Any]]) -> list[ModelTurn]:
    return [ModelTurn(tool_calls=(ToolCall(*call),)) for call in calls]


def _fault_runtimes() -> list[AgentRuntime]:
    """One runtime per kind of refusal the lessons show; each run fails with a typed error."""
    weather = ("call-weather", "get_teaching_weather", {"city": "Tokyo"})
    tools = build_tools()
    failing = [
        tool if tool.name != "celsius_to_fahrenheit" else _failing(tool) for tool in build_tools()
    ]
    return [
        AgentRuntime(ScriptedModel(_turns(("call-1", "get_the_weather", {}))), tools),
        AgentRuntime(ScriptedModel(_turns(("call-1", weather[1], {"town": "Tokyo"}))), tools),
        AgentRuntime(ScriptedModel(_turns(weather, weather)), tools),
        AgentRuntime(ScriptedModel(_turns(weather)), tools, max_tool_calls=0),
        AgentRuntime(ScriptedWeatherModel(), failing),
        AgentRuntime(_ReturnsNoTurn(), tools),
        AgentRuntime(_Raises(), tools),
        AgentRuntime(_TextAndCalls(), tools),
    ]


def _failing(tool: Any) -> Any:
    def unreliable(**arguments: Any) -> Any:
        raise ConnectionError("the conversion service did not answer")

    return dataclasses.replace(tool, handler=unreliable)


@dataclass(frozen=True)
class Places:
    """The places of each question: code objects and classes (see the module's docstring)."""

    decides: frozenset[Any]
    executes: frozenset[Any]
    state: frozenset[Any]
    errors: frozenset[Any]
    stops: frozenset[Any]
    protocol: Any
    ran_in_the_run: frozenset[Any] = frozenset()
    """Every code object called during the lesson's Tokyo run (any module's)."""

    def accepts(self, question: str, owner: Any, value: Any) -> bool:
        """Whether ``value`` (found on ``owner``, a class or a module) answers ``question``:
        whether it is one of the places the runs showed, on the live stack (the ``Model``
        protocol and a ``generate`` no run of the lesson calls are not)."""
        return _code(value) in getattr(self, question)

    def ran(self, value: Any) -> bool:
        """Whether ``value`` (a function or method) was called during the lesson's Tokyo run;
        ``True`` for a class or anything else without code of its own (nothing is claimed)."""
        code = _code(value)
        return not isinstance(code, CodeType) or code in self.ran_in_the_run


def places() -> Places:
    """The places, read from the reference run and the fault runs (a few milliseconds).

    Read again for every verdict, never cached: a cache filled while an answer cell had
    patched the runtime would outlive the grade runner's restoring of the package.

    Raises ``RuntimeError`` if a run did not show what it should (the runtime changed so much
    that a place cannot be found): then the judge's own premise is broken, not the answer.
    """
    found: dict[str, set[Any]] = {question: set() for question in QUESTIONS}
    model = ScriptedWeatherModel()
    tools = build_tools()
    model_codes = {_code(getattr(type(model), name)) for name in protocol_members()}
    handler_codes = {_code(tool.handler) for tool in tools}
    run = AgentRuntime(model, tools).start(weather_request())
    state_type = type(run)
    # the methods that keep the state (record a message, finish): a property only reads it
    state_codes = {_code(value) for value in vars(state_type).values() if inspect.isfunction(value)}
    found["state"].add(state_type)

    called: set[CodeType] = set()

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        code = frame.f_code
        called.add(code)
        if code in model_codes:
            between, loop = _path_to_loop(frame.f_back)
            found["decides"] |= between | {code}
            found["stops"].add(loop)
        elif code in handler_codes:
            found["executes"] |= _path_to_loop(frame.f_back)[0]
        elif code in state_codes and _path_to_loop(frame.f_back)[1] is not None:
            found["state"].add(code)

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        for _ in run:
            pass
    finally:
        sys.setprofile(previous)
    for runtime in _fault_runtimes():
        failed = finished_run(runtime, weather_request()).error
        frames = _traceback_frames(getattr(failed, "__traceback__", None))
        found["errors"] |= {f.f_code for f in frames if _is_package_code(f) and not _is_loop(f)}
    stopped = finished_run(AgentRuntime(ScriptedWeatherModel(), tools, max_steps=1), "x").error
    if isinstance(stopped, MaxStepsExceeded) and stopped.__traceback__ is not None:
        found["stops"].add(list(_traceback_frames(stopped.__traceback__))[-1].f_code)
    found["stops"].discard(None)
    if not all(found.values()) or run.result is None:
        raise RuntimeError(f"the reference runs did not show every place: {found}")
    return Places(
        **{q: frozenset(found[q]) for q in QUESTIONS},
        protocol=model_protocol(),
        ran_in_the_run=frozenset(called),
    )


# ----------------------------------------------------------------------------- the learner's names


def module_files() -> dict[str, tuple[str, ...]]:
    """Every module of the ``agentcore`` package by its file's name (``runtime.py``).

    Derived from the package's layout (``pkgutil``), so a file added or moved is known
    without a table; a package's ``__init__.py`` is listed too. Not cached (for the same
    reason as :func:`places`; it takes well under a millisecond).
    """
    files: dict[str, list[str]] = {}
    for info in pkgutil.walk_packages(agentcore.__path__, "agentcore."):
        file = "__init__.py" if info.ispkg else info.name.rsplit(".", 1)[-1] + ".py"
        files.setdefault(file, []).append(info.name)
    files.setdefault("__init__.py", []).insert(0, "agentcore")
    return {file: tuple(names) for file, names in files.items()}


@cache
def _defined_names(module_name: str) -> frozenset[str]:
    """Every name the module's source file defines, read without importing it: ``def`` and
    ``class`` at any depth (also as ``Class.method``), assignments and imports at module or
    class level."""
    spec = importlib.util.find_spec(module_name)
    try:
        with open(str(spec and spec.origin), encoding="utf-8") as source:
            tree = ast.parse(source.read())
    except (OSError, SyntaxError, ValueError):
        return frozenset()
    names: set[str] = set()

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.update({child.name, prefix + child.name})
                visit(child, prefix + child.name + ".")
            elif isinstance(child, (ast.Assign, ast.AnnAssign)):
                targets = child.targets if isinstance(child, ast.Assign) else [child.target]
                for target in targets:
                    if isinstance(target, ast.Name):
                        names.update({target.id, prefix + target.id})
            elif isinstance(child, (ast.Import, ast.ImportFrom)):
                names.update((a.asname or a.name).split(".")[0] for a in child.names)
            else:
                visit(child, prefix)

    visit(tree, "")
    return frozenset(names)


@dataclass(frozen=True)
class Found:
    """What a learner's ``("file.py", "name")`` points at.

    ``modules``: the dotted names of the package's modules in that file (empty: no such
    file). ``exists``: whether one of them defines or holds the name. ``targets``: the
    ``(owner, value)`` pairs it resolves to. ``elsewhere``: the file a name imported into
    the module is defined in, or ``""``.
    """

    modules: tuple[str, ...]
    exists: bool
    targets: tuple[tuple[Any, Any], ...]
    elsewhere: str = ""


def _chain(start: Any, parts: Sequence[str]) -> tuple[Any, Any] | None:
    owner, value = None, start
    for part in parts:
        try:
            owner, value = value, inspect.getattr_static(value, part)
        except AttributeError:
            return None
    return owner, value


def find(file: str, dotted: str) -> Found:
    """Resolve ``dotted`` (``"AgentRun"``, ``"AgentRuntime._loop"``, ``"_loop"``) in ``file``.

    A bare method name is looked up on every class the file defines; a name the file only
    imports reports the file it comes from. Never raises for what a learner writes.
    """
    files = module_files()
    # the one rule of the exercises (core.spelled): case and surrounding blanks aside
    modules = files.get(file) or next(
        (names for known, names in files.items() if spelled(known) == spelled(file)), ()
    )
    targets: list[tuple[Any, Any]] = []
    exists, elsewhere = False, ""
    for name in modules:
        defined = _defined_names(name)
        if dotted not in defined:  # "agentrun.record": the name the file defines, so spelled
            dotted = next((d for d in sorted(defined) if spelled(d) == spelled(dotted)), dotted)
        parts = [part for part in dotted.split(".") if part]
        exists = exists or ".".join(parts) in defined
        if not parts or name.endswith(".__main__"):  # importing __main__ would run the CLI
            continue
        try:
            module = importlib.import_module(name)
        except ImportError:  # an optional provider's dependency is missing
            continue
        head = vars(module).get(parts[0])
        home = getattr(head, "__module__", name)
        if (inspect.isclass(head) or inspect.isfunction(head)) and home != name:
            elsewhere = str(home).rsplit(".", 1)[-1] + ".py"  # imported: defined elsewhere
            continue
        direct = _chain(module, parts)
        if direct is not None:
            targets.append(direct)
            exists = True
        elif len(parts) == 1:
            for value in vars(module).values():
                if inspect.isclass(value) and value.__module__ == name:
                    nested = _chain(value, parts)
                    if nested is not None:
                        targets.append(nested)
    return Found(modules, exists or bool(targets), tuple(targets), elsewhere)
