"""The agent runtime: one loop that lets the model decide and keeps the application in charge.

Chapter section 6. Each model turn the runtime hands the model the transcript and the tool
schemas; the model returns a final text (the run ends) or tool calls (the runtime checks the
whole turn, runs the calls in order, records each observation, and asks again). ``max_steps``
bounds the number of model turns (6.4) and ``max_tool_calls`` the number of handler runs.

"The model proposes, the runtime manages, the tool implements" (section 2).

The file reads in the order a run happens: :meth:`AgentRuntime.run`, the one loop
(:meth:`AgentRuntime._loop`) and its helpers in the order it calls them, then
:class:`AgentRun` (a run in progress, which a widget or a debugger advances one model turn at
a time), then :class:`RunResult` (a finished run). The loop yields typed events
(:mod:`agentcore.events`); ``run`` drains it.
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal

from agentcore.errors import (
    AgentRuntimeError,
    InvalidModelTurnError,
    MaxStepsExceeded,
    ModelError,
    ToolBudgetExceeded,
    ToolExecutionError,
    message_of,
    shown,
)
from agentcore.events import (
    FinalAnswer,
    ModelDecision,
    RunEvent,
    RunFailed,
    ToolAction,
    ToolObservation,
)
from agentcore.protocol import Model, ModelTurn, ToolCall
from agentcore.tools import Tool, ToolRegistry
from agentcore.transcript import Message, TranscriptView, freeze
from agentcore.validation import int_at_least

if TYPE_CHECKING:
    from pydantic import BaseModel

ToolErrorPolicy = Literal["stop", "observe"]
"""What a failing handler does to the run: end it, or become an observation for the model."""

RunStatus = Literal["not started", "running", "answered", "failed", "interrupted"]
"""Where a run stands (:attr:`AgentRun.status`): "failed" is a typed runtime error,
"interrupted" anything else that stopped it (Ctrl-C, or a bug outside the runtime's rules)."""


class AgentRuntime:
    """Runs the tool-calling loop for one model and one set of tools (chapter section 6).

    Inputs:

    * ``model``: anything with ``generate(messages, tools) -> ModelTurn`` (:class:`Model`).
    * ``tools``: a :class:`ToolRegistry`, or an iterable of :class:`Tool` to build one from.
    * ``max_steps``: the most model turns a run may take (int >= 1, default 6).
    * ``max_tool_calls``: the most handlers a run may execute (int >= 0, default 6; 0 allows
      only answers without tools).
    * ``on_tool_error``: ``"stop"`` (default, section 7.1) ends the run with
      :class:`ToolExecutionError` when a handler fails; ``"observe"`` records the failure as an
      observation ``{"error": ..., "message": ...}`` and lets the model decide. The message
      is what the tool chose to expose (a :class:`~agentcore.errors.ToolError` it raised),
      or a fixed sentence naming the tool; the details stay in the run's events.
    * ``verbose``: print each event in the chapter's trace format while running.

    Attribute ``last_run``: the :class:`AgentRun` that :meth:`run` made last (``None`` before
    the first), where a run stopped by Ctrl-C keeps its transcript.

    Raises ``TypeError`` for a model class instead of an instance, a model without
    ``generate``, tools that are not an iterable of :class:`Tool` (see :class:`ToolRegistry`)
    or a non-int budget, ``ValueError`` for a budget out of range or an unknown policy.

    A run fails with a typed :class:`AgentRuntimeError` that keeps the record: whatever a
    handler or ``Model.generate`` raises becomes one (:class:`ToolExecutionError`,
    :class:`ModelError`), except ``KeyboardInterrupt``, which stops the run as Ctrl-C should.
    """

    def __init__(
        self,
        model: Model,
        tools: ToolRegistry | Iterable[Tool],
        *,
        max_steps: int = 6,
        max_tool_calls: int = 6,
        on_tool_error: ToolErrorPolicy = "stop",
        verbose: bool = False,
    ) -> None:
        if isinstance(model, type):  # AgentRuntime(ScriptedModel, ...): generate is unbound
            raise TypeError(
                f"model is the class {model.__name__}; pass an instance, such as "
                f"{model.__name__}(...)"
            )
        if not callable(getattr(model, "generate", None)):
            raise TypeError(f"model must have a generate(messages, tools) method, got {model!r}")
        if on_tool_error not in ("stop", "observe"):
            raise ValueError(f"on_tool_error must be 'stop' or 'observe', got {on_tool_error!r}")
        self.model = model
        self.registry = tools if isinstance(tools, ToolRegistry) else ToolRegistry(tools)
        self.max_steps = int_at_least("max_steps", max_steps, 1)
        self.max_tool_calls = int_at_least("max_tool_calls", max_tool_calls, 0)
        self.on_tool_error: ToolErrorPolicy = on_tool_error
        self.verbose = verbose
        self.last_run: AgentRun | None = None  # the run run() made last (see run)

    def run(self, user_input: str) -> RunResult:
        """Run until the model answers; return the :class:`RunResult`.

        Raises the run's :class:`AgentRuntimeError` (carrying the transcript and the counts)
        if it fails, and ``TypeError``/``ValueError`` for bad input as :meth:`start` does.
        The run stays in :attr:`last_run`, so after Ctrl-C (``KeyboardInterrupt``, which
        says so in a note from Python 3.11) its transcript so far is
        ``runtime.last_run.messages``.
        """
        run = self.last_run = self.start(user_input)
        try:
            for event in run:
                if self.verbose and (line := event.trace_line()) is not None:
                    print(line)
        except KeyboardInterrupt as interrupt:
            run.interrupt(interrupt)  # also when Ctrl-C came between two events, while printing
            if sys.version_info >= (3, 11):  # exception notes are new in Python 3.11
                interrupt.add_note("The run's transcript so far is in runtime.last_run.messages")
            raise
        return run.finish()

    def start(self, user_input: str) -> AgentRun:
        """Begin a run without advancing it; see :class:`AgentRun`.

        Raises ``TypeError`` for non-str input and ``ValueError`` for blank input or text
        that cannot be encoded as UTF-8.
        """
        if not isinstance(user_input, str):
            raise TypeError(f"user_input must be a str, got {type(user_input).__name__}")
        if not user_input.strip():
            raise ValueError("user_input is blank; ask the agent something")
        return AgentRun(self, user_input)

    def _loop(self, run: AgentRun) -> Generator[RunEvent, None, None]:
        """The agent loop: one iteration per model turn, one event per thing that happens."""
        step = 0
        try:
            for step in range(1, self.max_steps + 1):
                turn = self._ask_model(run)
                yield ModelDecision(step, turn)
                # Record the turn first: if it is rejected, the record shows why.
                run.record(_assistant_message(turn))

                if turn.final_text is not None:
                    run.result = _result(run, turn.final_text)
                    yield FinalAnswer(step, turn.final_text)
                    return

                prepared = self._check_turn(run, turn)
                for index, (call, tool, arguments) in enumerate(prepared):
                    yield ToolAction(step, call)
                    content, failure = self._execute(run, call, tool, arguments)
                    run.record(_tool_message(call, content))
                    last = index == len(prepared) - 1
                    yield ToolObservation(step, call, content, failure is not None, last, failure)
            raise MaxStepsExceeded(
                f"The run did not finish within max_steps={self.max_steps} model turns"
            )
        except AgentRuntimeError as error:
            error.attach_run(run.messages, run.model_turns, run.tool_executions)
            run.error = error
            yield RunFailed(step, error)

    def _ask_model(self, run: AgentRun) -> ModelTurn:
        """Take one model turn; it counts even if what comes back is rejected.

        Whatever ``Model.generate`` raises becomes the run's typed :class:`ModelError`
        (``SystemExit``, ``GeneratorExit`` and ``StopIteration`` included), as a handler's
        failure becomes a :class:`ToolExecutionError`; the one exception is
        ``KeyboardInterrupt``, which stops the run (status "interrupted"). What the model is
        handed gives out copies (:class:`TranscriptView`, :meth:`ToolRegistry.schemas`):
        whatever it does to them cannot change the run's record or a tool's schema.
        """
        run.model_turns += 1
        try:
            turn = self.model.generate(run.messages, self.registry.schemas())
        except KeyboardInterrupt:  # Ctrl-C stops the run; it is not the model's failure
            raise
        except BaseException as error:  # the model failed: a typed error that keeps the record
            raise _model_failure(run, error)  # noqa: B904 (the helper sets the cause)
        if not isinstance(turn, ModelTurn):
            raise InvalidModelTurnError(
                f"Model.generate must return a ModelTurn, got {type(turn).__name__}: {shown(turn)}"
            )
        return turn

    def _check_turn(self, run: AgentRun, turn: ModelTurn) -> list[tuple[ToolCall, Tool, BaseModel]]:
        """Check the whole turn before any handler runs: ids, tools, arguments, budget."""
        _check_call_ids(run, turn.tool_calls)
        prepared = [(call, *self.registry.prepare(call)) for call in turn.tool_calls]
        _check_budget(run, len(prepared), self.max_tool_calls)
        return prepared

    def _execute(
        self, run: AgentRun, call: ToolCall, tool: Tool, arguments: BaseModel
    ) -> tuple[str, ToolExecutionError | None]:
        """Run one handler; return the observation text and the failure it records, if any.

        Under "observe" the model reads the error's type and the message the tool chose to
        expose (:class:`~agentcore.errors.ToolError`), never ``str(error)``: an exception's
        message may hold a path, a connection string or a key, and the transcript is sent
        to the provider every turn. The full error stays with the application, in the
        :class:`ToolObservation` event and as the error's ``__cause__``.
        """
        run.tool_executions += 1
        try:
            return tool.execute(arguments, call.call_id), None
        except ToolExecutionError as error:
            if self.on_tool_error == "stop":
                raise
            failure = {"error": type(error).__name__, "message": error.public_message}
            return json.dumps(failure, ensure_ascii=False), error

    def __repr__(self) -> str:
        return (
            f"AgentRuntime(model={type(self.model).__name__}, tools={list(self.registry.names)}, "
            f"max_steps={self.max_steps}, max_tool_calls={self.max_tool_calls}, "
            f"on_tool_error={self.on_tool_error!r})"
        )


def _model_failure(run: AgentRun, error: BaseException) -> AgentRuntimeError:
    """The error a run fails with when ``Model.generate`` raised ``error``.

    A model's own typed error (a provider error, a script that ran out) keeps its type; when
    it carries ``rejected`` reply items, they are recorded first. Anything else, including an
    :class:`AgentRuntimeError` that already carries *another* run's record (a model that ran
    a sub-agent), becomes a :class:`ModelError` of this run, with ``error`` as its cause.
    """
    if isinstance(error, AgentRuntimeError) and not error.carries_run:
        if isinstance(error, ModelError) and error.rejected:
            run.record(_rejected_message(error.rejected))
        return error
    failure = ModelError(
        f"The model raised {type(error).__name__} while producing turn {run.model_turns}: "
        f"{message_of(error)}"
    )
    failure.__cause__ = error
    return failure


def _rejected_message(rejected: Sequence[Any]) -> dict[str, Any]:
    """The transcript entry for a reply an adapter refused: its raw items, as JSON values."""
    try:
        items = freeze(list(rejected), "rejected")
    except ValueError:  # keep what can be kept: the record must stay JSON
        items = [repr(item) for item in rejected]
    return {"role": "assistant", "content": "", "rejected": items}


def _check_call_ids(run: AgentRun, calls: Sequence[ToolCall]) -> None:
    """Refuse a ``call_id`` already used in this run (section 4.2), then remember the new ones."""
    used = run.call_ids
    for call in calls:
        if call.call_id in used:
            raise InvalidModelTurnError(
                f"call_id {call.call_id!r} was already used in this run; every tool call "
                "needs a call_id of its own so its observation can be paired with it"
            )
    for call in calls:  # only once the whole turn passed: a refused turn leaves none behind
        used.add(call.call_id)


def _check_budget(run: AgentRun, calls: int, max_tool_calls: int) -> None:
    """Refuse a turn whose calls would exceed ``max_tool_calls``; no handler of it runs."""
    if run.tool_executions + calls > max_tool_calls:
        raise ToolBudgetExceeded(
            f"The turn asks for more tool calls ({calls}) than max_tool_calls={max_tool_calls} "
            f"leaves ({max_tool_calls - run.tool_executions}); no handler of this turn was run"
        )


def _assistant_message(turn: ModelTurn) -> dict[str, Any]:
    """The transcript entry for a model turn, in the chapter's format (section 6.1)."""
    if turn.final_text is not None:
        message: dict[str, Any] = {"role": "assistant", "content": turn.final_text}
    else:
        calls = [call.as_message_entry() for call in turn.tool_calls]
        message = {"role": "assistant", "content": "", "tool_calls": calls}
    if turn.provider_items:
        message["provider_items"] = list(turn.provider_items)
    return message


def _tool_message(call: ToolCall, content: str) -> dict[str, Any]:
    """The transcript entry for an observation (section 6.1)."""
    return {"role": "tool", "tool_call_id": call.call_id, "name": call.name, "content": content}


def _result(run: AgentRun, answer: str) -> RunResult:
    """The :class:`RunResult` of a run whose model just gave its final text."""
    return RunResult(answer, run.model_turns, run.tool_executions, run._messages)


class AgentRun:
    """One run in progress: its transcript, its counts, and the events so far.

    Made by :meth:`AgentRuntime.start`. Iterating it advances the runtime's loop one event at
    a time; :meth:`step` advances it one model turn; :meth:`finish` runs it to the end.
    Attributes: ``model_turns`` and ``tool_executions`` (ints), ``events`` (every event so
    far), ``result`` (a :class:`RunResult` once the model answered), ``error`` (the
    :class:`AgentRuntimeError` if the run failed), ``interrupted`` (any other exception that
    escaped the loop, such as ``KeyboardInterrupt`` or a bug; the run cannot go on, and its
    transcript so far stays in ``messages``), and :attr:`status`, which says which of these
    holds.

    Only one caller advances a run at a time: advancing it while it is already advancing
    (from a handler, or from another thread) raises ``RuntimeError`` and leaves the run as
    it was.
    """

    def __init__(self, runtime: AgentRuntime, user_input: str) -> None:
        self.runtime = runtime
        self.model_turns = 0
        self.tool_executions = 0
        self.events: list[RunEvent] = []
        self.result: RunResult | None = None
        self.error: AgentRuntimeError | None = None
        self.interrupted: BaseException | None = None
        self.call_ids: set[str] = set()
        self._messages: list[Message] = []
        self._advancing = threading.Lock()  # held while one caller advances the run
        self._error_traceback: TracebackType | None = None
        self.record({"role": "user", "content": user_input})
        self._events = runtime._loop(self)

    @property
    def status(self) -> RunStatus:
        """Where the run stands: "not started", "running", "answered", "failed" (a typed
        error, in :attr:`error`) or "interrupted" (anything else, in :attr:`interrupted`).

        The one place a run's status is decided; snapshots, widgets and the CLI read it.
        """
        if self.result is not None:
            return "answered"
        if self.error is not None:
            return "failed"
        if self.interrupted is not None:
            return "interrupted"
        return "running" if self.events else "not started"

    @property
    def messages(self) -> TranscriptView:
        """The transcript so far: a read-only view, fixed at the length it has now, whose
        messages are fresh read-only copies (what the model is handed each turn)."""
        return TranscriptView(self._messages)

    @property
    def finished(self) -> bool:
        """True once the run answered, failed, or was interrupted."""
        return self.result is not None or self.error is not None or self.interrupted is not None

    def interrupt(self, reason: BaseException) -> None:
        """End an unfinished run as interrupted by ``reason`` (Ctrl-C between two events): its
        status becomes "interrupted" and it cannot go on. A finished run stays as it ended.

        Raises ``RuntimeError`` while the run is taking a step (from a handler, or another
        thread), leaving the run as it was: Ctrl-C during a step already interrupts it.
        """
        if not self._advancing.acquire(blocking=False):
            raise RuntimeError(
                "This run is taking a step; interrupt it once the step has returned. "
                "The run was left as it was."
            )
        try:
            if not self.finished:
                self._events.close()
                self.interrupted = reason
        finally:
            self._advancing.release()

    def record(self, message: Mapping[str, Any]) -> None:
        """Append one message to the transcript, frozen so that no one can rewrite it later.

        Raises ``ValueError`` for a message that is not JSON or holds text that is not
        valid UTF-8.
        """
        self._messages.append(freeze(message, "message"))

    def __iter__(self) -> Iterator[RunEvent]:
        return self

    def __next__(self) -> RunEvent:
        if not self._advancing.acquire(blocking=False):
            raise RuntimeError(
                "This run is already taking a step (a handler or another thread advanced it "
                "again); wait for that step to return. The run was left as it was."
            )
        try:
            event = next(self._events, None)  # None once the loop has ended
        except BaseException as error:  # Ctrl-C or a bug: record it, so the run reads as over
            self.interrupted = error
            raise
        finally:
            self._advancing.release()
        if event is None:
            raise StopIteration
        self.events.append(event)
        if isinstance(event, RunFailed):  # kept, so finish() raises it as it was
            self._error_traceback = event.error.__traceback__
        return event

    def step(self) -> list[RunEvent]:
        """Advance by one model turn and return that turn's events.

        One turn is the model's decision and then either the final answer or every action and
        observation of its tool calls; the error event, if the run fails. Returns ``[]`` once
        the run is finished.
        """
        taken: list[RunEvent] = []
        for event in self:
            taken.append(event)
            if event.ends_turn:
                break
        return taken

    def finish(self) -> RunResult:
        """Run to the end. Returns the :class:`RunResult`, or raises the run's typed error.

        The error is raised with the traceback it had when the run failed, so calling
        ``finish()`` again does not lengthen it. Raises ``RuntimeError`` (caused by the
        original) for a run that was interrupted.
        """
        for _ in self:
            pass
        if self.error is not None:
            raise self.error.with_traceback(self._error_traceback)
        if self.interrupted is not None:
            raise RuntimeError(
                f"The run was interrupted by {type(self.interrupted).__name__}; "
                "its transcript so far is in run.messages"
            ) from self.interrupted
        assert self.result is not None  # the loop always ends with a result or an error
        return self.result

    def __repr__(self) -> str:
        state: str = self.status
        if self.error is not None:
            state += f" with {type(self.error).__name__}"
        elif self.interrupted is not None:
            state += f" by {type(self.interrupted).__name__}"
        return (
            f"AgentRun({state}, model_turns={self.model_turns}/{self.runtime.max_steps}, "
            f"tool_executions={self.tool_executions}/{self.runtime.max_tool_calls}, "
            f"messages=<{len(self._messages)} messages>)"
        )


@dataclass(frozen=True)
class RunResult:
    """A finished run (chapter section 6.2).

    * ``answer``: the model's final text.
    * ``model_turns``: model turns used (each call to ``Model.generate``).
    * ``tool_executions``: handlers run.
    * ``messages``: the whole transcript, user message first and final assistant message
      last: a read-only sequence of read-only message dicts. A finished record stays
      finished: ``append``, ``clear``, item assignment and the like raise ``TypeError``
      (copy it with ``list(...)`` or ``copy.deepcopy`` for a version you can change).

    Built by the runtime; built by hand, ``messages`` is frozen the same way (``ValueError``
    for a message that is not JSON), and a wrong type is refused: ``TypeError`` for an answer
    that is not a ``str``, a count that is not an ``int`` or messages that are not a
    sequence, ``ValueError`` for a negative count. A ``RunResult`` can be pickled and copied
    (deep copies too); the copy compares equal and is just as read-only.
    """

    answer: str
    model_turns: int
    tool_executions: int
    messages: Sequence[Message]

    def __post_init__(self) -> None:
        if not isinstance(self.answer, str):
            raise TypeError(f"RunResult.answer must be a str, got {type(self.answer).__name__}")
        int_at_least("model_turns", self.model_turns, 0)
        int_at_least("tool_executions", self.tool_executions, 0)
        messages = self.messages
        if isinstance(messages, str | Mapping) or not isinstance(messages, Iterable):
            raise TypeError(
                "RunResult.messages must be a sequence of message dicts, got "
                f"{type(messages).__name__}"
            )
        # Frozen dataclass: the read-only copy is stored with object.__setattr__.
        object.__setattr__(self, "messages", freeze(list(messages), "messages"))

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt through __init__, so a copy (deep or not) or an unpickled result is frozen.
        fields = (self.answer, self.model_turns, self.tool_executions, list(self.messages))
        return (RunResult, fields)

    def __repr__(self) -> str:
        return (
            f"RunResult(answer={self.answer!r}, model_turns={self.model_turns}, "
            f"tool_executions={self.tool_executions}, messages=<{len(self.messages)} messages>)"
        )
