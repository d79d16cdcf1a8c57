"""The course files the site is built from, found without the maintainers' lesson tools.

``scripts.lessons`` (release, execute, stamp) needs nbgrader, which only the ``dev`` extra
installs; the site is built from the ``site`` extra alone (``pip install -e ".[site]" && python
-m scripts.site build``), so the site's modules find the lessons here. ``lessons(language)``
lists the same files as ``scripts.lessons.lessons`` (``tests/test_site_pages.py`` checks it).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
LANGUAGES = ("en", "zh-CN")


def lessons(language: str) -> list[Path]:
    """The learner notebooks of one language folder (``"en"`` or ``"zh-CN"``), in lesson order:
    ``notebooks/<language>/NN-*.ipynb``, never the solutions in ``solutions/``."""
    return sorted((NOTEBOOKS / language).glob("[0-9][0-9]-*.ipynb"))
