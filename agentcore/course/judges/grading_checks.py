"""What :mod:`agentcore.course.checks` is in a grade's player: the lessons' names, no judge.

A grade's player (:mod:`agentcore.course.judges.player`) runs the notebook's cells, the
learner's among them, and holds no judge: the referee judges. Before its first cell it puts
this module in the place of ``agentcore.course.checks``, so a lesson's import cell finds the
names it imports, and the self-check answers nothing while a grade runs (a loop that tries
answers until ``check`` prints ``✔`` finds none):

* ``check(exercise)`` prints one line saying the grade judges the answer (message
  ``grade.self-check in a grade``), and raises nothing: an answer cell that calls it as a
  learner's own kernel allows keeps its point;
* ``accepted(exercise)`` is ``False`` and ``verdict(exercise, ...)`` is ``(False, that line)``
  for every exercise;
* ``forget(*names)`` deletes the names, as in a lesson; ``watch_answer_cells`` does nothing
  (the player clears an answer cell's names itself);
* lesson 06's ready-made parts are the real ones (:mod:`agentcore.course.ready_made`).
"""

from __future__ import annotations

from typing import Any

from agentcore.course.ready_made import ReminderArguments, reminder_runtime, runtime_unchanged
from agentcore.course.text import phrase, resolve_language

EXERCISES: dict[str, Any] = {}
"""No exercise: the judges are the referee's."""


def _line(language: str | None) -> str:
    return phrase("grade.self-check in a grade", resolve_language(language))


def verdict(exercise: str, language: str | None = None, namespace: Any = None) -> tuple[bool, str]:
    """``(False, the line that says the grade judges the answer)``, whatever the answer."""
    return False, _line(language)


def check(exercise: str, language: str | None = None) -> None:
    """Print the line that says the grade judges the answer (no verdict)."""
    print(_line(language))


def accepted(exercise: str, language: str | None = None) -> bool:
    """``False``: no answer is accepted by the player (the referee judges it)."""
    return False


def forget(*names: str, namespace: Any = None) -> None:
    """Delete ``names`` from ``namespace`` (default: the running shell's)."""
    if namespace is None:
        from IPython import get_ipython

        shell = get_ipython()
        namespace = {} if shell is None else shell.user_ns
    for name in names:
        namespace.pop(name, None)


def watch_answer_cells() -> None:
    """Nothing: the player clears each answer cell's names before it runs."""


__all__ = [
    "EXERCISES",
    "ReminderArguments",
    "accepted",
    "check",
    "forget",
    "reminder_runtime",
    "runtime_unchanged",
    "verdict",
    "watch_answer_cells",
]
