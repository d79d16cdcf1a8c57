"""``python -m agentcore``: the headless main job."""

from __future__ import annotations

import subprocess
import sys

import pytest

from agentcore.cli import main

CHAPTER_TRACE = """\
[1] ACTION  get_teaching_weather({'city': 'Tokyo'})
[1] OBSERVE {"city": "Tokyo", "temperature_c": 18.0, "condition": "cloudy"}
[2] ACTION  celsius_to_fahrenheit({'temperature_c': 18.0})
[2] OBSERVE {"temperature_f": 64.4}
[3] FINAL   Tokyo's deterministic teaching record is 18.0°C (64.4°F), cloudy.
"""


def test_module_entry_point_prints_the_chapter_trace_and_counts() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "agentcore"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines(keepends=True)
    assert lines[0].startswith("request: ")
    assert "".join(lines[1:6]) == CHAPTER_TRACE
    assert lines[6] == "model turns: 3 of max_steps=6; tool executions: 2 of max_tool_calls=6\n"


def test_chinese_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--language", "zh-CN", "--city", "Paris"]) == 0
    out = capsys.readouterr().out
    assert "[3] FINAL   巴黎的确定性教学记录是 12.0°C（53.6°F），小雨。" in out
    assert "模型轮次：3（max_steps=6）" in out


def test_a_failed_run_exits_1_with_type_message_and_counts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--max-steps", "1"]) == 1
    captured = capsys.readouterr()
    assert "[1] ERROR   MaxStepsExceeded: The run did not finish within max_steps=1" in captured.out
    assert "model turns: 1 of max_steps=1; tool executions: 1" in captured.out
    assert "Traceback" not in captured.out + captured.err
    assert "MaxStepsExceeded" in captured.err


def test_tool_budget_flag(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--max-tool-calls", "0"]) == 1
    assert "ToolBudgetExceeded" in capsys.readouterr().out
    assert main(["--task", "greet", "--max-tool-calls", "0"]) == 0


def test_show_transcript_prints_every_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--task", "weather", "--show-transcript"]) == 0
    out = capsys.readouterr().out
    assert out.count('{"role": ') == 4
    assert '"tool_call_id": "call-weather"' in out


@pytest.mark.parametrize(
    "argv",
    [
        ["--city", "Berlin"],
        ["--max-steps", "0"],
        ["--max-steps", "two"],
        ["--max-tool-calls", "-1"],
        ["--provider", "gpt"],
        ["--language", "fr"],
        ["--nope"],
    ],
)
def test_bad_flags_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    assert "error:" in capsys.readouterr().err
