"""Maintainer tools for the lessons: re-execute them, and stamp translations.

    python -m scripts.lessons execute [NOTEBOOK ...]   # default: every lesson, both languages
    python -m scripts.lessons stamp [NOTEBOOK ...]     # default: every zh-CN lesson

``execute`` runs each notebook top to bottom on a fresh kernel (its own folder as the working
directory), then stores the outputs. Widget views are kept out of stored outputs: a widget's
model id is random and its state lives only in a running kernel, so the stored notebook keeps
the widget's plain-text fallback ("run the cells above ..."), which is what a reader sees
before running the lesson and what nbval compares.

``stamp`` records in a zh-CN lesson's metadata the hash of the English lesson's cell sources
(``source_hash``), after a translator has checked the translation against it. The test suite
fails when the English lesson changes and the stamp does not.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
LANGUAGES = ("en", "zh-CN")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
LANGUAGE_SPECIFIC_TAG = "language-specific"
"""Tag of a code cell whose source or output may differ between the two languages."""


def lessons(language: str) -> list[Path]:
    """The lesson notebooks of one language folder, in lesson order."""
    return sorted((NOTEBOOKS / language).glob("[0-9][0-9]-*.ipynb"))


def source_hash(notebook: Any) -> str:
    """SHA-256 of a notebook's cell types and sources (outputs and metadata excluded)."""
    cells = [[cell.cell_type, cell.source] for cell in notebook.cells]
    return hashlib.sha256(json.dumps(cells, ensure_ascii=False).encode("utf-8")).hexdigest()


def english_twin(path: Path) -> Path:
    """The English lesson a zh-CN lesson was translated from (same file name)."""
    return NOTEBOOKS / "en" / path.name


def _drop_widget_views(notebook: Any) -> None:
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            output.get("data", {}).pop(WIDGET_VIEW, None)
    notebook.metadata.pop("widgets", None)


def execute(paths: Iterable[Path]) -> None:
    """Re-execute each notebook in place on a fresh kernel and store its outputs."""
    for path in paths:
        notebook = nbformat.read(path, as_version=4)
        start = time.perf_counter()
        NotebookClient(
            notebook,
            timeout=120,
            kernel_name="python3",
            record_timing=False,
            # One print can arrive as several stream messages; store it as one output.
            coalesce_streams=True,
            resources={"metadata": {"path": str(path.parent)}},
        ).execute()
        _drop_widget_views(notebook)
        nbformat.write(notebook, path)
        print(f"executed {path.relative_to(ROOT)} in {time.perf_counter() - start:.1f} s")


def stamp(paths: Iterable[Path]) -> None:
    """Record the English lesson's source hash in each zh-CN lesson's metadata."""
    for path in paths:
        notebook = nbformat.read(path, as_version=4)
        english = nbformat.read(english_twin(path), as_version=4)
        notebook.metadata.setdefault("agentcore", {})["translated_from"] = {
            "path": f"notebooks/en/{path.name}",
            "source_sha256": source_hash(english),
        }
        nbformat.write(notebook, path)
        print(f"stamped {path.relative_to(ROOT)}")


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("execute", "stamp"):
        print(__doc__)
        return 2
    command, names = argv[0], argv[1:]
    if command == "execute":
        execute([Path(n).resolve() for n in names] or lessons("en") + lessons("zh-CN"))
    else:
        stamp([Path(n).resolve() for n in names] or lessons("zh-CN"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
