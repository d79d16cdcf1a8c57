"""A run read as plain data and text: what the widgets draw and what a notebook cell prints.

:class:`RunSnapshot` reads an :class:`agentcore.AgentRun` at any moment: the transcript as
table rows (chapter section 6.1), the trace so far (section 6), the budgets used, and the
answer or the error. It only reads; every decision stays in the runtime's loop.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from agentcore.course.text import (
    Language,
    current_language,
    explain,
    phrase,
    resolve_language,
)
from agentcore.errors import AgentRuntimeError
from agentcore.events import ModelDecision, RunEvent, RunFailed, ToolAction, ToolObservation
from agentcore.runtime import AgentRun
from agentcore.transcript import Message

SnapshotStatus = Literal["not started", "running", "answered", "failed", "interrupted", "refused"]
"""A run's status, or "refused": no run could start (an experiment's model turn was invalid)."""

Holder = Literal["model", "runtime", "tool"]
"""Who acts at one event (section 13): the model decides, the runtime checks and records (and
stops the run at an error), the tool executes. Control never leaves the runtime: it calls the
model and the tools."""

FINISHED: tuple[SnapshotStatus, ...] = ("answered", "failed", "interrupted", "refused")


@dataclass(frozen=True)
class TranscriptRow:
    """One line of the transcript table (chapter section 6.1).

    A message is one row, except an assistant message with tool calls, which gives one row
    per call; the calls of one model turn share ``message``.

    * ``message``: 1-based position of the message in the transcript.
    * ``role``: ``"user"``, ``"assistant"`` or ``"tool"``.
    * ``call_id``, ``tool``: the tool call's id and tool name; ``""`` when there is none.
    * ``arguments``: the call's arguments as JSON text; ``""`` when there is no call.
    * ``content``: the user's text, the final text, or the observation (JSON text).
    * ``new``: true when the message was recorded by the last step (the widget highlights it).
    """

    message: int
    role: str
    call_id: str = ""
    tool: str = ""
    arguments: str = ""
    content: str = ""
    new: bool = False


def transcript_rows(
    messages: Sequence[Message], new_from: int | None = None
) -> tuple[TranscriptRow, ...]:
    """Turn transcript messages (the runtime's format, section 6.1) into table rows.

    Rows of messages numbered above ``new_from`` (1-based) are marked ``new``; with ``None``
    no row is.
    """
    rows: list[TranscriptRow] = []
    for number, message in enumerate(messages, start=1):
        new = new_from is not None and number > new_from
        role = str(message.get("role", ""))
        calls = message.get("tool_calls") or ()
        for call in calls:
            rows.append(
                TranscriptRow(
                    number,
                    role,
                    str(call["call_id"]),
                    str(call["name"]),
                    json.dumps(call["arguments"], ensure_ascii=False),
                    new=new,
                )
            )
        if not calls:
            rows.append(
                TranscriptRow(
                    number,
                    role,
                    str(message.get("tool_call_id", "")),
                    str(message.get("name", "")),
                    content=str(message.get("content", "")),
                    new=new,
                )
            )
    return tuple(rows)


def event_line(event: RunEvent, language: Language | None = None) -> str:
    """One event as a line: the chapter's trace format, plus a ``DECIDE`` line for decisions.

    ``[1] DECIDE  tool calls: call-tokyo, call-paris`` or ``[3] DECIDE  final text``
    (in ``language``, default :func:`agentcore.course.text.current_language`); every other
    event uses its ``trace_line()`` (section 6).
    """
    if isinstance(event, ModelDecision):
        calls = event.turn.tool_calls
        if not calls:
            return f"[{event.step}] DECIDE  {phrase('model turn.decide final', language)}"
        ids = ", ".join(call.call_id for call in calls)
        decided = phrase("model turn.decide calls", language, ids=ids)
        return f"[{event.step}] DECIDE  {decided}"
    line = event.trace_line()
    assert line is not None  # only decisions have no trace line
    return line


def holder(event: RunEvent) -> Holder:
    """Who acts at ``event``: ``"model"`` (a decision), ``"tool"`` (an action: the handler
    runs) or ``"runtime"`` (it checks and records: observations, the final answer, errors).
    """
    if isinstance(event, ModelDecision):
        return "model"
    if isinstance(event, ToolAction):
        return "tool"
    return "runtime"


@dataclass(frozen=True)
class EventRow:
    """One event of a run as a row of the stepper's event table (section 13).

    * ``step``: the model turn the event belongs to (1-based).
    * ``holder``: who acts (:data:`Holder`); ``who`` says it in the snapshot's language.
    * ``text``: the event line (:func:`event_line`) without its ``[step]`` prefix; a
      decision's line ends with how many messages the model was handed.
    * ``handed``: for a decision, the number of transcript messages the model was handed for
      that turn; ``None`` for other events.
    * ``new``: true when the last step added this event.
    """

    step: int
    holder: Holder
    who: str
    text: str
    handed: int | None = None
    new: bool = False
    colon: str = ": "

    def line(self) -> str:
        """``▶ [1] the model decides: DECIDE  ...``; ``▶`` marks a row of the last step."""
        marker = "▶" if self.new else " "
        return f"{marker} [{self.step}] {self.who}{self.colon}{self.text}"


def event_rows(
    events: Sequence[RunEvent], new: int = 0, language: Language | None = None
) -> tuple[tuple[EventRow, ...], int]:
    """The rows of ``events`` (a run's events, in order), the last ``new`` of them marked new.

    Returns the rows and how many transcript messages existed before the first new event
    (the user's request counts as one; every decision records one assistant message and every
    observation one tool message), so the transcript rows of the last step can be marked too.
    """
    language = resolve_language(language)
    colon = phrase("punctuation.colon", language)
    rows: list[EventRow] = []
    messages = 1  # the user's request
    first_new = len(events) - new
    before_new = messages
    for index, event in enumerate(events):
        if index == first_new:
            before_new = messages
        handed = None
        text = event_line(event, language).split("] ", 1)[1]
        if isinstance(event, ModelDecision):
            handed = messages
            text += " · " + phrase("model turn.handed", language, count=handed)
            messages += 1  # the runtime records the assistant message of the turn
        elif isinstance(event, ToolObservation):
            messages += 1
        # the runtime acts at an error too, but it stops the run rather than records a result
        stops = isinstance(event, RunFailed)
        who = phrase("control.runtime stops" if stops else f"control.{holder(event)}", language)
        fresh = index >= first_new
        rows.append(EventRow(event.step, holder(event), who, text, handed, fresh, colon))
    if first_new >= len(events):
        before_new = messages
    return tuple(rows), before_new


@dataclass(frozen=True)
class RunSnapshot:
    """What a run looks like at one moment, as plain data and text in one language.

    Fields: ``status`` (:data:`SnapshotStatus`, read from :attr:`agentcore.AgentRun.status`);
    ``rows`` (:class:`TranscriptRow` per transcript line, those of the last step marked ``new``);
    ``trace`` (the chapter's trace lines of every event so far); ``last_step`` (the lines of
    the events of the last step, decisions included, see :func:`event_line`); ``events``
    (:class:`EventRow` per event so far: who acts, the last step's rows marked ``new``); the
    counts and budgets (``max_steps``/``max_tool_calls`` are ``None`` when no run started);
    ``answer`` or ``error_type``/``error_message`` (the error's English message) and
    ``explanation`` (:func:`agentcore.course.text.explain` in the snapshot's language);
    ``handler_runs`` (runs of a handler that an experiment counts itself, ``None`` when
    nothing is counted); ``language`` (default: the one ``set_language`` chose when the
    snapshot was made). ``str(snapshot)`` is :meth:`text`.
    """

    status: SnapshotStatus
    language: Language = field(default_factory=current_language)
    rows: tuple[TranscriptRow, ...] = ()
    trace: tuple[str, ...] = ()
    last_step: tuple[str, ...] = ()
    events: tuple[EventRow, ...] = ()
    model_turns: int = 0
    tool_executions: int = 0
    max_steps: int | None = None
    max_tool_calls: int | None = None
    answer: str | None = None
    error_type: str | None = None
    error_message: str | None = None
    explanation: str | None = None
    handler_runs: int | None = None

    @classmethod
    def of_run(
        cls,
        run: AgentRun,
        last_step: Sequence[RunEvent] = (),
        *,
        language: Language | None = None,
        handler_runs: int | None = None,
    ) -> RunSnapshot:
        """Read ``run`` now; ``last_step`` is what the last ``run.step()`` returned.

        ``last_step`` must be the newest events of ``run.events`` (what a step returned, or
        ``run.events[before:]`` after a step that was interrupted): its rows, and the
        transcript messages recorded by them, are marked ``new``. ``language`` defaults to
        :func:`agentcore.course.text.current_language`.
        """
        language = resolve_language(language)
        events, before_new = event_rows(run.events, len(last_step), language)
        problem: BaseException | None = run.error if run.error is not None else run.interrupted
        return cls(
            status=run.status,
            language=language,
            rows=transcript_rows(run.messages, before_new if last_step else None),
            trace=tuple(line for e in run.events if (line := e.trace_line()) is not None),
            last_step=tuple(event_line(event, language) for event in last_step),
            events=events,
            model_turns=run.model_turns,
            tool_executions=run.tool_executions,
            max_steps=run.runtime.max_steps,
            max_tool_calls=run.runtime.max_tool_calls,
            answer=run.result.answer if run.result is not None else None,
            error_type=type(problem).__name__ if problem is not None else None,
            error_message=str(problem) if problem is not None else None,
            explanation=explain(problem, language) if problem is not None else None,
            handler_runs=handler_runs,
        )

    @classmethod
    def of_refusal(
        cls, error: AgentRuntimeError, *, language: Language | None = None
    ) -> RunSnapshot:
        """A run that could not start because ``error`` was raised while building it."""
        language = resolve_language(language)
        return cls(
            status="refused",
            language=language,
            error_type=type(error).__name__,
            error_message=str(error),
            explanation=explain(error, language),
        )

    @property
    def finished(self) -> bool:
        """True once nothing more can happen: answered, failed, interrupted or refused."""
        return self.status in FINISHED

    def budgets(self) -> str:
        """The counts beside their budgets, as the CLI prints them."""
        if self.max_steps is None:
            return phrase("budget.none", self.language)
        return phrase(
            "budget.line",
            self.language,
            turns=self.model_turns,
            max_steps=self.max_steps,
            tools=self.tool_executions,
            max_tools=self.max_tool_calls,
        )

    def outcome(self) -> str:
        """``answer: ...`` or ``error: Type: message``; ``""`` while the run goes on."""
        if self.answer is not None:
            return phrase("final answer.line", self.language, text=self.answer)
        if self.error_type is not None:
            return phrase(
                "typed error.line", self.language, type=self.error_type, message=self.error_message
            )
        return ""

    def explanation_line(self) -> str:
        """``why: ...``, the error explained in the snapshot's language; ``""`` without one."""
        if self.explanation is None:
            return ""
        return phrase("typed error.explanation", self.language, text=self.explanation)

    def text(self) -> str:
        """Status, budgets, handler runs, the trace (or the refusal), then why it failed."""
        status = phrase(f"run status.{self.status}", self.language)
        lines = [phrase("run status.line", self.language, status=status), self.budgets()]
        if self.handler_runs is not None:
            lines.append(phrase("handler.runs", self.language, runs=self.handler_runs))
        lines.extend(self.trace)
        if self.status in ("refused", "interrupted"):  # no error event in the trace
            lines.append(self.outcome())
        if self.explanation is not None:
            lines.append(self.explanation_line())
        return "\n".join(lines)

    def steps_text(self) -> str:
        """Every event with who acts, the last step's rows marked ``▶``, then the control note."""
        if not self.events:
            return phrase("trajectory.no events", self.language)
        lines = [row.line() for row in self.events]
        if any(row.new for row in self.events):
            lines.append(phrase("control.new rows", self.language))
        lines.append(phrase("control.note", self.language))
        return "\n".join(lines)

    def stepper_text(self) -> str:
        """What a :class:`~agentcore.course.widgets.RunStepper` shows, as text.

        Status, budgets, handler runs, every event with who acts (the last step's rows marked
        ``▶``, each decision with the messages the model was handed), the control note, then
        the answer or the error with its explanation.
        """
        status = phrase(f"run status.{self.status}", self.language)
        lines = [phrase("run status.line", self.language, status=status), self.budgets()]
        if self.handler_runs is not None:
            lines.append(phrase("handler.runs", self.language, runs=self.handler_runs))
        lines.append(self.steps_text())
        if self.finished:
            lines.append(self.outcome())
        if self.explanation is not None:
            lines.append(self.explanation_line())
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()
