"""What a run reports while it happens: one typed event per thing the loop does.

The loop in :mod:`agentcore.runtime` yields these events one at a time, so a widget, a
debugger or a test can follow a run step by step (chapter section 13: who holds control at
each moment). ``trace_line()`` renders an event in the chapter's trace format (section 6)::

    [1] ACTION  get_teaching_weather({'city': 'Tokyo'})
    [1] OBSERVE {"city": "Tokyo", "temperature_c": 18.0, "condition": "cloudy"}
    [3] FINAL   Tokyo's deterministic teaching record is 18.0°C (64.4°F), cloudy.

``step`` is always the number of the model turn the event belongs to, starting at 1.

Events are plain dataclasses. They report what happened; the record that must not change,
the transcript, is read-only.
"""

from __future__ import annotations

from dataclasses import dataclass

from agentcore.errors import AgentRuntimeError, ToolExecutionError
from agentcore.protocol import ModelTurn, ToolCall


@dataclass
class ModelDecision:
    """The model returned a valid :class:`ModelTurn` (control passes back to the runtime)."""

    step: int
    turn: ModelTurn

    ends_turn = False

    def trace_line(self) -> str | None:
        """Decisions are shown through the actions or the final answer that follow."""
        return None


@dataclass
class ToolAction:
    """The runtime is about to run a handler for ``call`` (control passes to the tool)."""

    step: int
    call: ToolCall

    ends_turn = False

    def trace_line(self) -> str | None:
        """``[step] ACTION  name({arguments})``."""
        return f"[{self.step}] ACTION  {self.call.name}({self.call.arguments!r})"


@dataclass
class ToolObservation:
    """A handler's result was recorded as an observation (JSON text in ``content``).

    ``failed`` is true when the handler failed and the runtime's ``on_tool_error="observe"``
    policy turned the failure into this observation; ``error`` is then that failure, the
    :class:`~agentcore.errors.ToolExecutionError` with the handler's own exception as its
    ``__cause__``. The model read only ``content``, a safe summary; the details are here,
    for the application's log. ``last_in_turn`` marks the model turn's last observation.
    """

    step: int
    call: ToolCall
    content: str
    failed: bool = False
    last_in_turn: bool = True
    error: ToolExecutionError | None = None

    @property
    def ends_turn(self) -> bool:
        """True for the turn's last observation: the next event comes from the next turn."""
        return self.last_in_turn

    def trace_line(self) -> str | None:
        """``[step] OBSERVE content``."""
        return f"[{self.step}] OBSERVE {self.content}"


@dataclass
class FinalAnswer:
    """The model gave its final text; the run is over and succeeded."""

    step: int
    text: str

    ends_turn = True

    def trace_line(self) -> str | None:
        """``[step] FINAL   text``."""
        return f"[{self.step}] FINAL   {self.text}"


@dataclass
class RunFailed:
    """The run stopped with a typed error (which carries the transcript and the counts)."""

    step: int
    error: AgentRuntimeError

    ends_turn = True

    def trace_line(self) -> str | None:
        """``[step] ERROR   ErrorType: message``."""
        return f"[{self.step}] ERROR   {type(self.error).__name__}: {self.error}"


RunEvent = ModelDecision | ToolAction | ToolObservation | FinalAnswer | RunFailed
"""Any event the loop yields."""
