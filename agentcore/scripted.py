"""A deterministic model for tests: it plays a script behind the ``Model`` protocol (section 8).

A real model may choose differently on the next run, so a wrong trajectory could be the
runtime's fault or the model's. A scripted model has no language ability at all: the same
transcript always gives the same turn, so a test of the runtime tests only the runtime.

:class:`ScriptedModel` plays any script you write: a list of turns, or a function of the
transcript (in the spirit of pydantic-ai's ``FunctionModel``). The chapter's own weather
stand-in, built on the same idea, is course material: :mod:`agentcore.course.weather`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from agentcore.errors import ScriptExhaustedError
from agentcore.protocol import ModelTurn, ToolSchema
from agentcore.transcript import Message

TurnFunction = Callable[[Sequence[Message], Sequence[ToolSchema]], ModelTurn]


class ScriptedModel:
    """A model that plays a script: a list of turns, or a function of the transcript.

    Input: ``script``, either a sequence of :class:`ModelTurn` (played in order, one per
    ``generate`` call) or a function ``(messages, tools) -> ModelTurn``. ``TypeError`` for
    anything else, saying what to pass (a single turn: ``ScriptedModel([turn])``).

    ``generate`` past the end of a list raises :class:`ScriptExhaustedError` (the runtime
    keeps the transcript). ``calls`` counts ``generate`` calls; :meth:`assert_consumed`
    fails a test when a list was not played to its end.
    """

    def __init__(self, script: Sequence[ModelTurn] | TurnFunction) -> None:
        if callable(script):
            self._function: TurnFunction | None = script
            self._turns: tuple[ModelTurn, ...] = ()
        elif isinstance(script, ModelTurn) or not isinstance(script, Iterable):
            one = isinstance(script, ModelTurn)
            hint = "; wrap one turn in a list: ScriptedModel([turn])" if one else ""
            raise TypeError(
                "script must be a list of ModelTurn or a function (messages, tools) -> "
                f"ModelTurn, got {type(script).__name__}{hint}"
            )
        else:
            turns = tuple(script)
            for index, turn in enumerate(turns):
                if not isinstance(turn, ModelTurn):
                    raise TypeError(
                        f"script[{index}] must be a ModelTurn, got {type(turn).__name__}"
                    )
            self._function = None
            self._turns = turns
        self.calls = 0

    @property
    def remaining(self) -> int:
        """Turns of a list script not played yet (0 for a function script)."""
        return max(len(self._turns) - self.calls, 0) if self._function is None else 0

    def generate(self, messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        """Return the script's next turn (or the function's turn for this transcript)."""
        self.calls += 1
        if self._function is not None:
            return self._function(messages, tools)
        if self.calls > len(self._turns):
            raise ScriptExhaustedError(
                f"ScriptedModel was asked for turn {self.calls} but its script has only "
                f"{len(self._turns)}; add turns, or end the script with a final_text turn"
            )
        return self._turns[self.calls - 1]

    def assert_consumed(self) -> None:
        """Raise ``AssertionError`` if a list script still has turns that were never played."""
        if self.remaining:
            raise AssertionError(
                f"ScriptedModel played {self.calls} of its {len(self._turns)} scripted turns; "
                f"never requested: {self.remaining}"
            )

    def __repr__(self) -> str:
        if self._function is not None:
            name = getattr(self._function, "__name__", "function")
            return f"ScriptedModel({name}, calls={self.calls})"
        return f"ScriptedModel(<{len(self._turns)} turns>, calls={self.calls})"
