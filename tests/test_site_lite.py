"""The JupyterLite edition (``_site/lite/``): the browser copies of the lessons, and, on the
built site, its lock, its configuration and every lesson cell run in its Pyodide under Node."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from scripts.lessons import LANGUAGES, ROOT, lessons
from scripts.site_lite import BROWSER_SKIP_TAG, SKIP_SENTENCE, browser_notebook


def _notebook(*cells: tuple[str, list[str]]) -> dict[str, object]:
    return {"cells": [{"cell_type": "code", "metadata": {"tags": tags}, "source": source,
                       "outputs": [{"output_type": "stream", "text": "as installed"}]}
                      for source, tags in cells]}  # fmt: skip


def test_a_cell_that_needs_the_installed_course_says_so_and_runs_nothing() -> None:
    server_code = "with LocalResponsesServer(script) as server:\n    run(server)"
    for language in LANGUAGES:
        notebook = browser_notebook(
            _notebook((server_code, [BROWSER_SKIP_TAG]), ("print(1)", [])), language
        )
        skipped, kept = notebook["cells"]  # type: ignore[index]
        lines = skipped["source"].splitlines()
        assert lines[0] == f"print({json.dumps(SKIP_SENTENCE[language], ensure_ascii=False)})"
        assert all(line.startswith("#") for line in lines[2:])  # the code, kept as comments
        assert "# with LocalResponsesServer(script) as server:" in lines
        compile(skipped["source"], "cell", "exec")  # runs: one print, nothing else
        assert skipped["outputs"], "the stored output (what it prints installed) stays"
        assert kept["source"] == "print(1)"
        assert notebook["metadata"]["kernelspec"]["name"] == "python"  # the Pyodide kernel's


def test_lesson_05_marks_its_cells_that_need_local_servers_in_both_languages() -> None:
    for language in LANGUAGES:
        (lesson,) = [p for p in lessons(language) if p.name.startswith("05-deepseek")]
        cells = json.loads(lesson.read_text(encoding="utf-8"))["cells"]
        tagged = [c for c in cells if BROWSER_SKIP_TAG in c["metadata"].get("tags", [])]
        servers = [c for c in cells if c["cell_type"] == "code"
                   and "LocalResponsesServer(" in "".join(c["source"])]  # fmt: skip
        assert servers and all(c in tagged for c in servers)


@pytest.fixture(scope="module")
def lite(built_site: Path) -> Path:
    return built_site / "lite"


@pytest.mark.slow
def test_the_lock_pins_every_file_it_names_and_names_no_cdn(lite: Path) -> None:
    lock_path = lite / "static" / "pyodide-lock" / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    for entry in lock["packages"].values():
        wheel = (lite / "static" / "pyodide" / entry["file_name"]).resolve()
        assert wheel.is_file(), entry["file_name"]
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() == entry["sha256"]
    assert {"agentcore", "pydantic", "pydantic-core", "ipywidgets", "jupyterquiz"} <= set(
        lock["packages"]
    )
    assert lock["packages"]["pydantic-core"]["file_name"].endswith("pyemscripten_2026_0_wasm32.whl")
    assert "openai" not in lock["packages"] and "httpx2" not in lock["packages"]
    for config in (lock_path, lite / "jupyter-lite.json"):
        assert not re.search(r"https?://", config.read_text(encoding="utf-8")), config
    settings = json.loads((lite / "jupyter-lite.json").read_text(encoding="utf-8"))
    kernel = settings["jupyter-config-data"]["litePluginSettings"][
        "@jupyterlite/pyodide-kernel-extension:kernel"]  # fmt: skip
    assert kernel["pyodideUrl"] == "./static/pyodide/pyodide.mjs"
    assert kernel["disablePyPIFallback"] is True
    assert (lite / "static" / "pyodide" / "pyodide.asm.wasm").is_file()


@pytest.mark.slow
def test_the_lessons_and_the_chinese_interface_are_in_the_edition(lite: Path) -> None:
    for language in LANGUAGES:
        for lesson in lessons(language):
            assert (lite / "files" / "notebooks" / language / lesson.name).is_file()
    pack = json.loads((lite / "api" / "translations" / "zh_CN.json").read_text(encoding="utf-8"))
    assert pack["data"], "the Chinese language pack has translations"
    assert not list((lite / "files").rglob("*solutions*"))


@pytest.mark.slow
def test_every_cell_not_marked_runs_in_the_editions_pyodide(lite: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (apt-get install nodejs)")
    notebooks = [str(lite / "files" / "notebooks" / lang / p.name) for lang in LANGUAGES
                 for p in lessons(lang)]  # fmt: skip
    done = subprocess.run([node, str(ROOT / "tests" / "pyodide" / "run_cells.mjs"), str(lite),
                           *notebooks], capture_output=True, text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    reports = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(reports) == len(notebooks)
    failures = {r["notebook"]: r["failures"] for r in reports if r["failures"]}
    assert not failures, json.dumps(failures, indent=1, ensure_ascii=False)
    ran = sum(r["cells"] - r["skipped"] for r in reports)
    assert ran > 200  # the browser copies' skip lines run too, so nearly every cell counts
