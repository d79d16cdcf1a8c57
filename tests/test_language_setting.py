"""One language setting (issue 20): ``set_language`` is the default everywhere, and the command
line follows ``--language``, else the locale, for help, errors and the run alike."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from agentcore.course import checks, quiz, text
from agentcore.course.snapshot import RunSnapshot


@pytest.fixture(autouse=True)
def chinese_lesson() -> Iterator[None]:
    """Each test runs as a zh-CN lesson does after its setup cell, and leaves English behind."""
    text.set_language("zh-CN")
    yield
    text.set_language("en")


def test_check_and_accepted_follow_set_language(capsys: pytest.CaptureFixture[str]) -> None:
    namespace: dict[str, Any] = {}
    ok, line = checks.verdict("workflow_or_agent", namespace=namespace)
    assert not ok and line == checks.verdict("workflow_or_agent", "zh-CN", namespace)[1]
    assert line.startswith("✘ 还没有作答")
    text.set_language("en")
    assert checks.verdict("workflow_or_agent", namespace=namespace)[1].startswith("✘ Not attempted")


def test_check_prints_in_the_language_set(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    from agentcore.course.judges import core

    monkeypatch.setattr(core, "namespace_of", lambda namespace: {})
    checks.check("workflow_or_agent")
    assert capsys.readouterr().out.startswith("✘ 还没有作答")
    assert checks.accepted("workflow_or_agent") is False


def test_the_review_quiz_and_its_model_answers_follow_set_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import jupyterquiz

    shown: list[list[dict[str, Any]]] = []
    monkeypatch.setattr(jupyterquiz, "display_quiz", lambda items, **_: shown.append(items))
    quiz.review_quiz("00")
    chinese = quiz.questions("00", "zh-CN")
    assert [item["question"] for item in shown[0]] == [
        quiz.as_html(item["question"]) for item in chinese
    ]
    assert quiz.questions("00") == chinese
    assert "<summary>参考答案 1</summary>" in quiz.model_answers_markdown("00")


def test_a_snapshot_made_directly_takes_the_language_set() -> None:
    snapshot = RunSnapshot(status="not started")
    assert snapshot.language == "zh-CN"
    assert snapshot.text().splitlines()[0] == "状态：尚未开始"
    text.set_language("en")
    assert RunSnapshot(status="not started").text().splitlines()[0] == "status: not started"


def test_the_widgets_take_the_language_set() -> None:
    pytest.importorskip("ipywidgets")
    from agentcore.course.widgets import ExperimentPanel

    assert ExperimentPanel().language == "zh-CN"


def _cli(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DEEPSEEK_", "LC_"))}
    environment.update(PYTHONIOENCODING="utf-8", DEEPSEEK_BASE_URL="http://127.0.0.1:9", **env)
    return subprocess.run(
        [sys.executable, "-m", "agentcore", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=environment,
        stdin=subprocess.DEVNULL,
        timeout=120,
        check=False,
    )


def test_under_a_chinese_lang_the_run_speaks_chinese_like_the_help() -> None:
    done = _cli([], LANG="zh_CN.UTF-8")
    assert done.returncode == 0
    assert done.stdout.startswith("请求：读取东京的教学天气")
    assert "按教学数据，东京 18.0°C（64.4°F）" in done.stdout
    assert _cli(["--help"], LANG="zh_CN.UTF-8").stdout.startswith("用法：python -m agentcore")


def test_under_a_chinese_lc_all_the_missing_settings_error_is_chinese() -> None:
    done = _cli(["--provider", "deepseek"], LANG="C.UTF-8", LC_ALL="zh_CN.UTF-8")
    assert done.returncode == 2
    assert done.stderr.startswith("错误：没有设置 DEEPSEEK_API_KEY 和 DEEPSEEK_MODEL")


def test_language_flag_wins_over_the_locale_and_english_is_the_fallback() -> None:
    english = _cli(["--language", "en"], LANG="zh_CN.UTF-8")
    assert english.stdout.startswith("request: Read Tokyo's teaching weather")
    assert _cli([], LANG="C.UTF-8").stdout.startswith("request: Read Tokyo's teaching weather")
    assert _cli(["--language", "zh-CN"], LANG="C.UTF-8").stdout.startswith("请求：")
