"""The course's own commands speak the learner's language.

``python -m scripts.lessons my-work`` (a learner's copy of the lessons) and ``python -m
scripts.slides present`` (a teacher's slideshow) print Chinese under a ``zh*`` locale or with
``--language zh-CN``, and English otherwise, as ``python -m agentcore`` does: every line they
print comes from the message catalogs. Under zh-CN no line holds an English sentence (the
course's measure, ``zh_lines.english_lines``); what stays English is a path, a flag and, in
backticks, RISE's button `Render as Reveal Slideshow`, which has no Chinese name in JupyterLab.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from zh_lines import CJK, english_lines

import scripts.lessons as lessons_script
from scripts import rise_patch, slides

ROOT = Path(__file__).resolve().parents[1]
LEARNER_NOTEBOOKS = len(list((ROOT / "notebooks").glob("*/[0-9][0-9]-*.ipynb")))
"""my-work copies every learner notebook of both languages."""


def chinese_only(output: str) -> list[str]:
    """The printed lines that are not Chinese: without a CJK character, or with English prose."""
    lines = [line for line in output.splitlines() if line.strip()]
    return [line for line in lines if not CJK.search(line) or english_lines(line)]


@pytest.fixture
def my_work_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(lessons_script, "MY_WORK", tmp_path / "my-work")
    return tmp_path / "my-work"


@pytest.mark.parametrize(
    ("environment", "argv"),
    [({"LANG": "zh_CN.UTF-8"}, []), ({"LANG": "C.UTF-8"}, ["--language", "zh-CN"])],
)
def test_my_work_speaks_chinese_under_zh_cn(
    my_work_folder: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    environment: dict[str, str],
    argv: list[str],
) -> None:
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    for variable, value in environment.items():
        monkeypatch.setenv(variable, value)
    assert lessons_script.main(["my-work", *argv]) == 0
    copied = capsys.readouterr().out
    assert copied.count("已复制 notebooks/") == LEARNER_NOTEBOOKS
    assert lessons_script.main(["my-work", *argv]) == 0  # the copies exist now: kept
    kept = capsys.readouterr().out
    assert kept.count("保留了 ") == LEARNER_NOTEBOOKS and "--force" in kept
    assert chinese_only(copied + kept) == []


def test_my_work_speaks_english_otherwise(
    my_work_folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for variable in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    lessons_script.main(["my-work"])
    lessons_script.main(["my-work"])
    output = capsys.readouterr().out
    assert output.count("copied notebooks/") == LEARNER_NOTEBOOKS
    assert output.count("(exists; --force replaces it)") == LEARNER_NOTEBOOKS
    assert not CJK.search(output.replace("简体中文", ""))


class Started(Exception):
    """Raised instead of replacing the process with JupyterLab."""


@pytest.fixture
def no_jupyterlab(monkeypatch: pytest.MonkeyPatch) -> None:
    """``present`` without touching the installed RISE or starting JupyterLab."""
    monkeypatch.setattr(rise_patch, "apply", lambda: None)

    def execv(*args: object) -> None:
        raise Started(args)

    monkeypatch.setattr(slides.os, "execv", execv)


@pytest.mark.parametrize(
    ("environment", "argv"),
    [({"LANG": "zh_CN.UTF-8"}, ["01"]), ({}, ["01", "--language", "zh-CN"])],
)
def test_present_speaks_chinese_under_zh_cn(
    no_jupyterlab: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    environment: dict[str, str],
    argv: list[str],
) -> None:
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    for variable, value in environment.items():
        monkeypatch.setenv(variable, value)
    with pytest.raises(Started):
        slides.main(["present", *argv, "--folder", str(tmp_path)])
    printed = capsys.readouterr().out
    assert "放映的是 notebooks/" in printed and "运行所有单元格" in printed
    assert chinese_only(printed) == []
    assert slides.main(["present", "99", *argv[1:]]) == 2
    refused = capsys.readouterr().err
    assert "没有课程 '99'" in refused and "01-the-loop" in refused
    assert chinese_only(refused) == []
    with pytest.raises(SystemExit):
        slides.main(["present", "--help", *argv[1:]])
    helped = capsys.readouterr().out
    assert helped.startswith("用法：python -m scripts.slides present")
    assert "学员版笔记本" in helped and not english_lines(helped)


def test_present_speaks_english_otherwise(
    no_jupyterlab: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    with pytest.raises(Started):
        slides.main(["present", "01", "--folder", str(tmp_path)])
    printed = capsys.readouterr().out
    assert "presenting a copy of notebooks/en/solutions/01-the-loop.ipynb" in printed
    assert "Run > Run All Cells" in printed and not CJK.search(printed)


def test_a_rise_that_does_not_fit_is_explained_in_chinese(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def refuse() -> None:
        raise rise_patch.RisePatchError("jupyterlab-rise 0.44.0 is not supported: use 0.43.1")

    monkeypatch.setattr(rise_patch, "apply", refuse)
    assert slides.main(["present", "01", "--language", "zh-CN"]) == 2
    said = capsys.readouterr().err
    assert "无法让幻灯片显示小部件" in said and "0.43.1" in said
