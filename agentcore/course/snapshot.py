"""A run read as plain data and text: what the widgets draw and what a notebook cell prints.

:class:`RunSnapshot` reads an :class:`agentcore.AgentRun` at any moment: the transcript as
table rows (chapter section 6.1), the trace so far (section 6), the budgets used, and the
answer or the error. It only reads; every decision stays in the runtime's loop.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from agentcore.course.weather import LANGUAGES, Language
from agentcore.errors import AgentRuntimeError
from agentcore.events import ModelDecision, RunEvent
from agentcore.runtime import AgentRun
from agentcore.transcript import Message

RunStatus = Literal["not started", "running", "answered", "failed", "interrupted", "refused"]
"""Where a run stands: :attr:`agentcore.AgentRun.status`, or "refused" when no run could start
(its model turn was invalid)."""

_TEXT: dict[Language, dict[str, str]] = {
    "en": {
        "not started": "not started",
        "running": "running",
        "answered": "answered",
        "failed": "failed",
        "interrupted": "interrupted",
        "refused": "refused before the run started",
        "status": "status: {status}",
        "budgets": "model turns: {turns} of max_steps={max_steps}; "
        "tool executions: {tools} of max_tool_calls={max_tools}",
        "no budgets": "no run started: no model turn, no tool execution",
        "answer": "answer: {text}",
        "error": "error: {type}: {message}",
        "handler runs": "the failing handler ran {runs} time(s)",
    },
    "zh-CN": {
        "not started": "尚未开始",
        "running": "运行中",
        "answered": "已回答",
        "failed": "失败",
        "interrupted": "已中断",
        "refused": "运行开始前即被拒绝",
        "status": "状态：{status}",
        "budgets": "模型轮次：{turns}（max_steps={max_steps}）；"
        "工具执行：{tools}（max_tool_calls={max_tools}）",
        "no budgets": "运行没有开始：没有模型轮次，也没有工具执行",
        "answer": "回答：{text}",
        "error": "错误：{type}：{message}",
        "handler runs": "出错的 handler 共执行了 {runs} 次",
    },
}


def check_language(language: object) -> Language:
    """Return ``language`` if it is ``"en"`` or ``"zh-CN"``; ``ValueError`` otherwise."""
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {list(LANGUAGES)}, got {language!r}")
    return language


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
    """

    message: int
    role: str
    call_id: str = ""
    tool: str = ""
    arguments: str = ""
    content: str = ""


def transcript_rows(messages: Sequence[Message]) -> tuple[TranscriptRow, ...]:
    """Turn transcript messages (the runtime's format, section 6.1) into table rows."""
    rows: list[TranscriptRow] = []
    for number, message in enumerate(messages, start=1):
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
                )
            )
    return tuple(rows)


def event_line(event: RunEvent) -> str:
    """One event as a line: the chapter's trace format, plus a ``DECIDE`` line for decisions.

    ``[1] DECIDE  2 tool calls: call-tokyo, call-paris`` or ``[3] DECIDE  final text``;
    every other event uses its ``trace_line()`` (section 6).
    """
    if isinstance(event, ModelDecision):
        calls = event.turn.tool_calls
        if not calls:
            return f"[{event.step}] DECIDE  final text"
        ids = ", ".join(call.call_id for call in calls)
        return f"[{event.step}] DECIDE  {len(calls)} tool call(s): {ids}"
    line = event.trace_line()
    assert line is not None  # only decisions have no trace line
    return line


@dataclass(frozen=True)
class RunSnapshot:
    """What a run looks like at one moment, as plain data and text in one language.

    Fields: ``status`` (:data:`RunStatus`); ``rows`` (:class:`TranscriptRow` per transcript
    line); ``trace`` (the chapter's trace lines of every event so far); ``last_step`` (the
    lines of the events of the last step, decisions included, see :func:`event_line`); the
    counts and budgets (``max_steps``/``max_tool_calls`` are ``None`` when no run started);
    ``answer`` or ``error_type``/``error_message``; ``handler_runs`` (runs of a handler that
    an experiment counts itself, ``None`` when nothing is counted); ``language``.
    ``str(snapshot)`` is :meth:`text`.
    """

    status: RunStatus
    language: Language = "en"
    rows: tuple[TranscriptRow, ...] = ()
    trace: tuple[str, ...] = ()
    last_step: tuple[str, ...] = ()
    model_turns: int = 0
    tool_executions: int = 0
    max_steps: int | None = None
    max_tool_calls: int | None = None
    answer: str | None = None
    error_type: str | None = None
    error_message: str | None = None
    handler_runs: int | None = None

    @classmethod
    def of_run(
        cls,
        run: AgentRun,
        last_step: Sequence[RunEvent] = (),
        *,
        language: Language = "en",
        handler_runs: int | None = None,
    ) -> RunSnapshot:
        """Read ``run`` now; ``last_step`` is what the last ``run.step()`` returned."""
        stopped = run.error if run.error is not None else run.interrupted
        return cls(
            status=run.status,
            language=check_language(language),
            rows=transcript_rows(run.messages),
            trace=tuple(line for e in run.events if (line := e.trace_line()) is not None),
            last_step=tuple(event_line(event) for event in last_step),
            model_turns=run.model_turns,
            tool_executions=run.tool_executions,
            max_steps=run.runtime.max_steps,
            max_tool_calls=run.runtime.max_tool_calls,
            answer=run.result.answer if run.result is not None else None,
            error_type=type(stopped).__name__ if stopped is not None else None,
            error_message=str(stopped) if stopped is not None else None,
            handler_runs=handler_runs,
        )

    @classmethod
    def of_refusal(cls, error: AgentRuntimeError, *, language: Language = "en") -> RunSnapshot:
        """A run that could not start because ``error`` was raised while building it."""
        return cls(
            status="refused",
            language=check_language(language),
            error_type=type(error).__name__,
            error_message=str(error),
        )

    @property
    def finished(self) -> bool:
        """True once nothing more can happen: answered, failed, interrupted or refused."""
        return self.status in ("answered", "failed", "interrupted", "refused")

    def budgets(self) -> str:
        """The counts beside their budgets, as the CLI prints them."""
        text = _TEXT[self.language]
        if self.max_steps is None:
            return text["no budgets"]
        return text["budgets"].format(
            turns=self.model_turns,
            max_steps=self.max_steps,
            tools=self.tool_executions,
            max_tools=self.max_tool_calls,
        )

    def outcome(self) -> str:
        """``answer: ...`` or ``error: Type: message``; ``""`` while the run goes on."""
        text = _TEXT[self.language]
        if self.answer is not None:
            return text["answer"].format(text=self.answer)
        if self.error_type is not None:
            return text["error"].format(type=self.error_type, message=self.error_message)
        return ""

    def text(self) -> str:
        """Status, budgets, handler runs, then the trace (or the refusal), one per line."""
        text = _TEXT[self.language]
        lines = [text["status"].format(status=text[self.status]), self.budgets()]
        if self.handler_runs is not None:
            lines.append(text["handler runs"].format(runs=self.handler_runs))
        lines.extend(self.trace)
        if self.status == "refused":  # no trace: the refusal happened before any event
            lines.append(self.outcome())
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()
