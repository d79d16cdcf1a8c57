"""The typed errors of the agent runtime (chapter section 7).

An agent run can go wrong in several layers, and each layer has its own error so that a
reader knows where to look first:

====================== ============================== ==========================================
error                  raised when                    look first at
====================== ============================== ==========================================
InvalidModelTurnError  the model's turn breaks the    the model (or its adapter)
                       internal protocol (section 4)
UnknownToolError       the model asks for a tool the  the tool list you configured, or the model
                       registry does not hold (5.2)
ToolArgumentsError     arguments fail the tool's      the arguments schema and the model's
                       pydantic model (5.1)           arguments
ToolExecutionError     a handler raised, or returned  the Python handler or the service behind it
                       something not JSON (7)         (a handler raises ToolError on purpose)
MaxStepsExceeded       the model did not finish in    the task, the model, or the budget
                       ``max_steps`` model turns (6.4)
ToolBudgetExceeded     a turn would run more tools    the task, the model, or the budget
                       than ``max_tool_calls`` allows
ModelError             the model itself raised while  the model (an adapter's errors subclass it:
                       producing a turn               see :mod:`agentcore.providers.errors`)
====================== ============================== ==========================================

Every error that leaves :meth:`agentcore.AgentRuntime.run` carries what had happened until
then: the transcript (``messages``), the number of model turns and of tool executions. A
failed run loses nothing.

A message quotes the values it is about through :func:`shown` and the exceptions it wraps
through :func:`message_of`: a value of ten megabytes is cut to a few hundred characters, and
a ``__repr__`` or ``__str__`` that raises is named instead of replacing the typed error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


class AgentRuntimeError(Exception):
    """Base class of every error the runtime raises on purpose.

    Attributes (filled in by the runtime when the error leaves a run; empty and zero when the
    error is raised outside a run, for example by ``ToolCall(...)`` in your own code):

    * ``messages``: ``list[dict]``, the transcript up to and including the failing request,
      read-only (``append`` or item assignment raise ``TypeError``; ``list(...)`` copies it).
    * ``model_turns``: ``int``, model turns used, the failing one included.
    * ``tool_executions``: ``int``, handlers that were run.

    Every error can be pickled and copied; a copy compares equal to the original (same type,
    message and attributes).
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.messages: list[Mapping[str, Any]] = []
        self.model_turns = 0
        self.tool_executions = 0

    def attach_run(
        self, messages: Sequence[Mapping[str, Any]], model_turns: int, tool_executions: int
    ) -> None:
        """Record what the failed run had done (called by the runtime, once, on the way out).

        Inputs: the transcript so far, the model turns used and the handlers run. The record
        is kept read-only, as a finished run's is (``RunResult.messages``): what happened
        before the failure cannot be rewritten afterwards.
        """
        self.messages = _read_only(messages)
        self.model_turns = model_turns
        self.tool_executions = tool_executions

    @property
    def carries_run(self) -> bool:
        """True once a run attached its record (a run's transcript always has a message)."""
        return bool(self.messages)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({str(self)!r}, model_turns={self.model_turns}, "
            f"tool_executions={self.tool_executions}, messages=<{len(self.messages)} messages>)"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        # Subclasses take other constructor arguments than the message: rebuild without
        # calling __init__, then restore the attributes.
        return (_rebuild, (type(self), self.args), self.__dict__)

    def __setstate__(self, state: dict[str, Any] | None) -> None:
        # A copy or an unpickled error keeps its record as read-only as the original's.
        self.__dict__.update(state or {})
        self.messages = _read_only(self.__dict__.get("messages", ()))

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, AgentRuntimeError)
        return self.args == other.args and self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        return hash((type(self), self.args))


def _read_only(messages: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The record as a read-only copy: a list of read-only messages."""
    from agentcore.transcript import freeze  # here: transcript quotes values through shown()

    frozen: list[Mapping[str, Any]] = freeze(list(messages), "messages")
    return frozen


def _rebuild(kind: type[AgentRuntimeError], args: tuple[Any, ...]) -> AgentRuntimeError:
    """Unpickle an :class:`AgentRuntimeError` (its attributes follow as state)."""
    error = kind.__new__(kind)
    error.args = args
    return error


def _for_call(call_id: str | None) -> str:
    return f" (call_id {shown(call_id)})" if call_id is not None else ""


_SHOWN = 300
"""How much of a value an error message quotes: the start and the end of its repr."""


def shown(value: object) -> str:
    """``repr(value)`` for an error message: cut to about 300 characters, and never raising.

    Input: any value, often one a model or a handler made up. Output: its ``repr`` when that
    is 300 characters or fewer; a longer one keeps its start and end around ``...``; or
    ``<T object whose repr raised E>``. A message must say what was wrong even when the value
    is ten megabytes of text or its ``__repr__`` raises; the error it explains would
    otherwise be lost behind a new one.
    """
    try:
        text = repr(value)
    except Exception as error:  # its own __repr__ failed (or nesting too deep): name the type
        return f"<{type(value).__name__} object whose repr raised {type(error).__name__}>"
    if len(text) <= _SHOWN:
        return text
    return f"{text[: _SHOWN - 60]}...{text[-50:]} ({len(text):,} characters)"


def message_of(error: BaseException) -> str:
    """``str(error)`` for an exception someone else raised; never raises.

    Input: the exception. Output: its message, or ``<its message raised E>`` when its
    ``__str__`` itself raises, so the typed error that wraps it can still be built.
    """
    try:
        return str(error)
    except Exception as failure:  # its own __str__ failed: say so instead of losing the run
        return f"<its message raised {type(failure).__name__}>"


class InvalidModelTurnError(AgentRuntimeError):
    """A model turn breaks the internal protocol (chapter sections 4.1 and 4.2).

    Raised by ``ToolCall`` and ``ModelTurn`` for a bad field (each message names the field),
    and by the runtime when a model returns something that is not a ``ModelTurn`` or reuses a
    ``call_id`` seen earlier in the same run.
    """


class UnknownToolError(AgentRuntimeError):
    """The model asked for a tool the registry does not hold (chapter section 5.2).

    Attributes: ``name`` (the requested tool), ``registered`` (the names that exist) and
    ``call_id`` (the call that asked for it; ``None`` outside a run). The message names all
    three and, when a registered name is close, the characters where the two differ, by code
    point: a name that only looks registered (Cyrillic U+0435 for an ``e``, fullwidth U+FF57
    for a ``w``) prints just like the real one.
    """

    def __init__(self, name: str, registered: Sequence[str], *, call_id: str | None = None) -> None:
        listed = ", ".join(registered) if registered else "none"
        super().__init__(
            f"Unknown tool {shown(name)}{_for_call(call_id)}: the registry only holds {listed}."
            f"{_closest_name(name, registered)} "
            "Check the model's request, or register the tool if it should exist."
        )
        self.name = name
        self.registered = tuple(registered)
        self.call_id = call_id


def _closest_name(name: object, registered: Sequence[str]) -> str:
    """`` The closest registered name is 'x': ...`` with the code points that differ, or ``""``."""
    import difflib
    import unicodedata

    if not isinstance(name, str) or len(name) > 200:
        return ""
    close = difflib.get_close_matches(name, registered, n=1, cutoff=0.6)
    if not close:
        return ""
    closest = close[0]
    if name.isascii():  # a plain typo: the names print as they are
        return f" The closest registered name is {closest!r}."

    def spelled(text: str) -> str:
        points = [f"U+{ord(c):04X} {unicodedata.name(c, repr(c))}" for c in text]
        return " + ".join(points) or "nothing"

    matcher = difflib.SequenceMatcher(None, name, closest, autojunk=False)
    differences = [
        f"at position {start}: {spelled(name[start:end])} where it has {spelled(closest[j1:j2])}"
        for op, start, end, j1, j2 in matcher.get_opcodes()
        if op != "equal"
    ]
    return f" The closest registered name is {closest!r}; they differ {'; '.join(differences)}."


class ToolArgumentsError(AgentRuntimeError):
    """A tool call's arguments failed the tool's pydantic model (chapter section 5.1).

    Attributes: ``tool`` (the tool name), ``call_id`` (the call; ``None`` outside a run) and
    ``errors``, pydantic's field errors as a list of dicts (``loc``, ``msg``, ``type``,
    ``input``). The handler did not run.
    """

    def __init__(
        self, tool: str, errors: list[dict[str, Any]], *, call_id: str | None = None
    ) -> None:
        details = "; ".join(
            f"{'.'.join(str(part) for part in error['loc']) or '(arguments)'}: {error['msg']}"
            for error in errors
        )
        super().__init__(f"Invalid arguments for tool {tool!r}{_for_call(call_id)}: {details}")
        self.tool = tool
        self.call_id = call_id
        self.errors = errors


class ToolError(Exception):
    """Raise it from a handler to fail with a message the model may read.

    Input: ``public_message`` (a non-blank ``str``), written for the model: what failed and,
    if it helps, what to try instead (``"No weather record for Atlantis; ask for a city"``).
    Under ``on_tool_error="observe"`` the runtime shows the model this message and nothing
    else of the failure. Any other exception a handler raises is shown to the model as a
    fixed sentence naming the tool, because its message may hold a path, a connection string
    or a key: the model sees a safe, stable description, and the details go to the
    application (the run's events, and the typed error's ``__cause__``). The source's
    companion material draws the same line: "safe model-facing observation != detailed
    developer diagnostic" (Tiny-Agent stage 01, theory/04-scope-and-production-limitations,
    section 3).

    Raises ``TypeError`` for a ``public_message`` that is not a non-blank ``str`` that is
    valid UTF-8 (so a handler that builds a bad one fails with the fixed sentence instead). A
    subclass may write its own ``__init__``: the message is the exception's first argument, as
    for any exception, read by :attr:`public_message`.
    """

    def __init__(self, public_message: str) -> None:
        if _model_text(public_message) is None:
            raise TypeError(
                "ToolError takes a non-blank message for the model, valid UTF-8, got "
                f"{shown(public_message)}"
            )
        super().__init__(public_message)

    @property
    def public_message(self) -> str | None:
        """The message the model may read: the first argument, cut to
        ``PUBLIC_MESSAGE_LIMIT`` characters (it is re-sent every turn); ``None`` if there is
        none or it is not non-blank, valid UTF-8 text (then the model reads the fixed
        sentence)."""
        return _model_text(self.args[0]) if self.args else None


PUBLIC_MESSAGE_LIMIT = 1_000
"""The most characters of a :class:`ToolError`'s message the model is shown."""


def _model_text(value: object) -> str | None:
    """``value`` as text for the model (cut to ``PUBLIC_MESSAGE_LIMIT``), or ``None``."""
    if not isinstance(value, str) or not value.strip():
        return None
    if value.encode("utf-8", "replace").decode() != value:  # a lone surrogate is not text
        return None
    text = str(value)  # a str subclass's own methods never run again
    if len(text) <= PUBLIC_MESSAGE_LIMIT:
        return text
    return text[: PUBLIC_MESSAGE_LIMIT - 1] + "…"


class ToolExecutionError(AgentRuntimeError):
    """A handler raised, or returned a result that is not JSON (chapter section 7).

    Inputs: the tool name, what went wrong (``"failed: ZeroDivisionError: ..."``), the
    ``call_id`` and ``public_message``, what the model may read of the failure (default: a
    fixed sentence naming the tool; see :class:`ToolError`). The message reads
    ``Tool 'name' (call_id 'c') failed: ...`` and is meant for the application, not the
    model. The original exception, if any, is ``__cause__``. Attributes: ``tool``,
    ``call_id`` and ``public_message``.
    """

    def __init__(
        self,
        tool: str,
        problem: str,
        *,
        call_id: str | None = None,
        public_message: str | None = None,
    ) -> None:
        super().__init__(f"Tool {tool!r}{_for_call(call_id)} {problem}")
        self.tool = tool
        self.call_id = call_id
        if public_message is None:
            public_message = f"The tool {tool} failed; no details are shown to the model."
        self.public_message = public_message


class MaxStepsExceeded(AgentRuntimeError):
    """The run did not finish within ``max_steps`` model turns (chapter section 6.4).

    Every turn's tool calls were executed; the model simply never gave a final answer.
    """


class ToolBudgetExceeded(AgentRuntimeError):
    """A turn asked for more tool executions than ``max_tool_calls`` still allows.

    Raised before any handler of that turn runs.
    """


class ModelError(AgentRuntimeError):
    """The model raised while producing a turn; the original exception is ``__cause__``.

    Anything ``Model.generate`` raises becomes one (``SystemExit``, ``GeneratorExit`` and
    ``StopIteration`` included), except ``KeyboardInterrupt``, which stops the run.

    Provider adapters raise subclasses of it for HTTP and wire-format problems. ``rejected``
    (a tuple of JSON values, default empty) holds the raw reply items an adapter refused;
    when it is not empty the runtime records them in the transcript as an assistant message
    ``{"role": "assistant", "content": "", "rejected": [...]}`` before the run fails, as it
    records a turn it rejects itself.
    """

    def __init__(self, message: str, *, rejected: Sequence[Any] = ()) -> None:
        super().__init__(message)
        self.rejected = tuple(rejected)


class ScriptExhaustedError(ModelError):
    """A :class:`agentcore.ScriptedModel` was asked for more turns than its script holds."""
