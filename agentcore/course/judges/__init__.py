"""The exercises' judges: one module per lesson beside a small shared core.

* :mod:`.core`: answer cells (``forget``, the IPython hooks), the guard around learner code
  (any ``BaseException``, a time limit), plain-data comparison, and ``verdict`` / ``check`` /
  ``accepted``.
* :mod:`.runs`: the runs the judges share (the runtime driven by scripted models).
* ``lesson00`` ... ``lesson07``: each lesson's exercises, registered by name in
  :data:`.core.EXERCISES` when imported.

Importing this package imports no judge: the first of its names read (``EXERCISES``,
``check``, ...) imports every lesson's judges (:func:`load`). So a grade's player, which
imports :mod:`.player` from here, holds no judge in its memory
(:mod:`agentcore.course.judges.grading_checks`). Lessons import these names from
:mod:`agentcore.course.checks`.
"""

from __future__ import annotations

import importlib
from typing import Any

LESSONS = (
    "lesson00",
    "lesson01",
    "lesson02",
    "lesson03",
    "lesson04",
    "lesson05",
    "lesson05_appendix",
    "lesson05_local_model",
    "lesson06",
    "lesson06_appendix",
    "lesson07",
    "lesson07_appendix_limits",
    "lesson07_appendix_build",
)
"""The lesson modules, each of which registers its exercises when imported."""

__all__ = ["EXERCISES", "Exercise", "accepted", "check", "forget", "verdict", "watch_answer_cells"]


def load() -> Any:
    """Import every lesson's judges (each registers its exercises); return :mod:`.core`."""
    for name in LESSONS:
        importlib.import_module(f"{__name__}.{name}")
    return importlib.import_module(f"{__name__}.core")


def __getattr__(name: str) -> Any:
    """``EXERCISES``, ``check``, ... : :mod:`.core`'s, once every lesson is imported (PEP 562)."""
    if name in __all__:
        return getattr(load(), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
