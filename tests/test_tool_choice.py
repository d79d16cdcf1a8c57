"""The lesson 07 evaluator: the task set, the description readers, the metrics."""

from __future__ import annotations

import dataclasses

import pytest

from agentcore.course.teaching_tools import CONVERSION_TOOL
from agentcore.course.tool_choice import (
    KINDS,
    SOURCE,
    TEACHING_RECORD_TOOL,
    CarelessChooser,
    KeywordChooser,
    evaluate,
    load_tasks,
    same_arguments,
    score,
)

GOOD_CONVERSION = dataclasses.replace(
    CONVERSION_TOOL,
    description="Convert a temperature from degrees Celsius (°C) to degrees Fahrenheit (°F).",
)
VAGUE = [
    dataclasses.replace(TEACHING_RECORD_TOOL, description="Weather tool."),
    dataclasses.replace(CONVERSION_TOOL, description="Convert temperatures."),
]


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_the_task_set_covers_every_kind_in_both_languages(language: str) -> None:
    tasks = load_tasks(language)
    assert sorted({t.kind for t in tasks}) == sorted(KINDS)
    assert all(t.request.strip() for t in tasks)


def test_the_teaching_record_says_where_it_comes_from() -> None:
    observation = TEACHING_RECORD_TOOL.handler(city="Tokyo")
    assert observation["source"] == SOURCE and "not live" in SOURCE
    assert "not for live" in TEACHING_RECORD_TOOL.description.lower()


def test_a_not_for_part_counts_against_a_tool() -> None:
    assert score("Weather record.", "live weather now") == 1
    assert score("Weather record. Not for live weather.", "live weather now") == -1
    assert score("天气记录。不用于实时天气。", "实时天气") < 0


def test_a_vague_description_picks_wrong_and_a_better_one_fixes_it() -> None:
    vague = evaluate(KeywordChooser, VAGUE, load_tasks("en"))
    assert vague.metrics["selection"] == pytest.approx(0.67)
    wrong = {o.task.id for o in vague.outcomes if not o.right_tool}
    assert wrong == {"paris_in_f", "live_tokyo"}
    better = evaluate(KeywordChooser, [TEACHING_RECORD_TOOL, GOOD_CONVERSION], load_tasks("en"))
    assert better.metrics == {
        "selection": 1.0,
        "arguments": 1.0,
        "unnecessary calls": 0.0,
        "steps": pytest.approx(1.83),
        "recovery": 1.0,
    }


def test_the_careless_chooser_calls_tools_it_does_not_need_and_never_recovers() -> None:
    report = evaluate(CarelessChooser, [TEACHING_RECORD_TOOL, GOOD_CONVERSION], load_tasks("en"))
    assert report.metrics["unnecessary calls"] == 2
    assert report.metrics["recovery"] == 0
    assert "✘ capital_no_tool" in report.table("en")
    assert "100%" in report.bars("en")


def test_the_recoverable_failure_runs_the_tool_twice() -> None:
    report = evaluate(KeywordChooser, [TEACHING_RECORD_TOOL, GOOD_CONVERSION], load_tasks("en"))
    busy = next(o for o in report.outcomes if o.task.fail_first)
    assert len(busy.calls) == 2 and busy.recovered and busy.status == "answered"


def test_arguments_compare_as_json_numbers() -> None:
    assert same_arguments({"temperature_c": 18}, {"temperature_c": 18.0})
    assert not same_arguments({"temperature_c": "18"}, {"temperature_c": 18.0})
    assert not same_arguments({"city": "Paris"}, {"city": "Tokyo"})
    assert not same_arguments(None, {"city": "Tokyo"})


def test_bad_input_is_refused_clearly() -> None:
    with pytest.raises(TypeError, match="make_model"):
        evaluate(KeywordChooser(), [TEACHING_RECORD_TOOL])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="list of Tool"):
        evaluate(KeywordChooser, ["get_weather"])  # type: ignore[list-item]


def test_the_careless_prediction_is_the_same_in_the_chinese_lesson() -> None:
    """Lesson 07's prediction exercise is judged on one reference run; the zh-CN lesson's own
    descriptions must give the same counts over the Chinese task set."""
    from agentcore.course.judges.lesson07 import careless_reference

    tools = [
        dataclasses.replace(
            TEACHING_RECORD_TOOL,
            description="读取课程固定的教学天气记录：某个城市的温度和天气状况。不用于实时天气或当前天气。",
        ),
        dataclasses.replace(CONVERSION_TOOL, description="把摄氏温度（°C）换算成华氏温度（°F）。"),
    ]
    assert evaluate(KeywordChooser, tools, load_tasks("zh-CN")).metrics["selection"] == 1.0
    report = evaluate(CarelessChooser, tools, load_tasks("zh-CN"))
    assert (
        careless_reference()
        == {
            "tasks right": sum(o.right_tool for o in report.outcomes),
            "unnecessary calls": int(report.metrics["unnecessary calls"]),
            "recovered": sum(o.recovered for o in report.outcomes),
        }
        == {"tasks right": 4, "unnecessary calls": 2, "recovered": 0}
    )
