"""Self-checks for the lessons' exercises ("your turn" cells): the names the lessons import.

The judges live in :mod:`agentcore.course.judges` (one module per lesson beside a shared
core); this module is where a lesson's import cell finds them:

* ``forget("name", ...)``: first line of an answer cell; clears the names it defines.
* ``check("exercise")``: prints one verdict line, ``✔ ...`` or ``✘ ...``.
* ``accepted("exercise")`` and ``verdict(exercise, language, namespace)``: the same
  judgement as a bool, and as ``(accepted, line)``.
* ``reminder_runtime`` and ``runtime_unchanged``: lesson 06's ready-made parts.

Importing it in IPython registers the hooks that watch answer cells. In a grade's player,
which holds no judge, :mod:`agentcore.course.judges.grading_checks` stands in its place.
"""

from __future__ import annotations

from agentcore.course.judges import EXERCISES, accepted, check, forget, verdict, watch_answer_cells
from agentcore.course.ready_made import ReminderArguments, reminder_runtime, runtime_unchanged

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

watch_answer_cells()  # in a notebook, from the lesson's import cell on
