"""The exercises' judges: one module per lesson beside a small shared core.

* :mod:`.core`: answer cells (``forget``, the IPython hooks), the guard around learner code
  (any ``BaseException``, a time limit), plain-data comparison, and ``verdict`` / ``check`` /
  ``accepted``.
* :mod:`.runs`: the runs the judges share (the runtime driven by scripted models).
* ``lesson00`` ... ``lesson07``: each lesson's exercises, registered by name in
  :data:`.core.EXERCISES` when imported (importing this package imports them all).

Lessons import these names from :mod:`agentcore.course.checks`.
"""

from __future__ import annotations

from agentcore.course.judges import (  # noqa: F401  (each registers its exercises)
    lesson00,
    lesson01,
    lesson02,
    lesson03,
    lesson04,
    lesson05,
    lesson05_appendix,
    lesson05_local_model,
    lesson06,
    lesson06_appendix,
    lesson07,
)
from agentcore.course.judges.core import (
    EXERCISES,
    Exercise,
    accepted,
    check,
    forget,
    verdict,
    watch_answer_cells,
)

__all__ = ["EXERCISES", "Exercise", "accepted", "check", "forget", "verdict", "watch_answer_cells"]
