"""Lesson 07 (07-the-tool-the-model-sees): better descriptions, a prediction, a live task.

``better_descriptions``: the learner rewrites the two tools' descriptions until the keyword
chooser (:class:`~agentcore.course.tool_choice.KeywordChooser`) gets every task of the lesson's
task set right, the no-tool and live-weather tasks included. ``careless_prediction``: the
learner predicts what the careless chooser does with good descriptions. ``live_task``: the
learner writes a task that the honest teaching record passes and a tool that pretends to be
live fails. Every expected value
comes from a run of the evaluator, never from a table.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from agentcore.course.judges.core import (
    Judgement,
    Namespace,
    dict_with_keys,
    exercise,
    kind,
    plain,
    same,
    written_key,
)
from agentcore.course.teaching_tools import CONVERSION_TOOL
from agentcore.course.text import current_language
from agentcore.course.tool_choice import (
    TEACHING_RECORD_TOOL,
    CarelessChooser,
    KeywordChooser,
    Task,
    evaluate,
    lesson_tools,
    load_tasks,
)


@exercise("better_descriptions", ("weather_description", "conversion_description"))
def better_descriptions(ns: Namespace) -> Judgement:
    """``weather_description`` and ``conversion_description``: non-blank ``str``s.

    With them on ``get_teaching_weather_record`` and ``celsius_to_fahrenheit``, the keyword
    chooser gets every task of the lesson's task set (:func:`load_tasks` in the lesson's
    language) right: the right tool with the right arguments, or no tool where none is needed.
    """
    language = current_language()  # the lesson's: set by set_language, in a grade too
    descriptions = {}
    for name in ("weather_description", "conversion_description"):
        value = ns[name]
        if type(value) is not str:
            return False, "value_type", {"name": name, "wanted": "str", "kind": kind(value)}
        if not value.strip():
            return False, "value_blank", {"name": name}
        descriptions[name] = value
    tools = [
        dataclasses.replace(TEACHING_RECORD_TOOL, description=descriptions["weather_description"]),
        dataclasses.replace(CONVERSION_TOOL, description=descriptions["conversion_description"]),
    ]
    report = evaluate(KeywordChooser, tools, load_tasks(language))
    wrong = [o.task.id for o in report.outcomes if not _right(o)]
    if wrong:
        return False, "descriptions_wrong", {"tasks": ", ".join(wrong)}
    return True, "descriptions_right", {}


def _right(outcome: Any) -> bool:
    return bool(outcome.right_arguments if outcome.task.expect_tool else outcome.right_tool)


CARELESS_KEYS = ("tasks right", "unnecessary calls", "recovered")


def careless_reference() -> dict[str, int]:
    """What the careless chooser does with the package's descriptions (which get every task
    right with the keyword chooser), over the English task set; the lesson's Chinese
    descriptions give the same counts (tested)."""
    report = evaluate(CarelessChooser, [TEACHING_RECORD_TOOL, CONVERSION_TOOL], load_tasks("en"))
    return {
        "tasks right": sum(o.right_tool for o in report.outcomes),
        "unnecessary calls": int(report.metrics["unnecessary calls"]),
        "recovered": sum(o.recovered for o in report.outcomes),
    }


@exercise("careless_prediction", ("my_prediction",))
def careless_prediction(ns: Namespace) -> Judgement:
    """``my_prediction``: a dict with the keys ``"tasks right"``, ``"unnecessary calls"`` and
    ``"recovered"`` (ints): how many of the six tasks the careless chooser gets the right tool
    (or none) for, how many tool calls it makes in the tasks that need none, and in how many
    tasks it recovers from a failed call."""
    value = ns["my_prediction"]
    given = dict_with_keys(value, "my_prediction", CARELESS_KEYS)
    if not isinstance(given, dict):
        return given
    for key in CARELESS_KEYS:
        if type(given[key]) is not int:
            name = f"my_prediction[{written_key(plain(value), key)!r}]"
            return False, "value_type", {"name": name, "wanted": "int", "kind": kind(given[key])}
    expected = careless_reference()
    for key, message in zip(
        CARELESS_KEYS,
        ("careless_right_tasks", "careless_unnecessary", "careless_recovered"),
        strict=True,
    ):
        if not same(given[key], expected[key]):
            return False, message, {}
    return True, "careless_right", {}


LIVE_KEYS = ("request", "expect_tool")


@exercise("live_task", ("my_live_task",))
def live_task(ns: Namespace) -> Judgement:
    """``my_live_task``: a dict with the keys ``"request"`` (a non-blank ``str``) and
    ``"expect_tool"`` (a tool's name, or ``None`` for no tool). Run as one task by the keyword
    chooser, it must pass with the honest teaching record and fail with the tool that pretends
    to be live (:func:`~agentcore.course.tool_choice.lesson_tools`, in the lesson's language)."""
    given = dict_with_keys(ns["my_live_task"], "my_live_task", LIVE_KEYS)
    if not isinstance(given, dict):
        return given
    request, expected = given["request"], given["expect_tool"]
    if type(request) is not str:
        name = "my_live_task['request']"
        return False, "value_type", {"name": name, "wanted": "str", "kind": kind(request)}
    if not request.strip():
        return False, "value_blank", {"name": "my_live_task['request']"}
    if expected is not None and type(expected) is not str:
        name = "my_live_task['expect_tool']"
        return False, "value_type", {"name": name, "wanted": "str | None", "kind": kind(expected)}
    task = Task("my_live_task", "live weather", request, expected, None)
    language = current_language()
    honest = evaluate(KeywordChooser, lesson_tools("honest", language), [task]).outcomes[0]
    if not _right(honest):
        return False, "live_honest_fails", {}
    pretending = evaluate(KeywordChooser, lesson_tools("pretending", language), [task])
    if _right(pretending.outcomes[0]):
        return False, "live_not_caught", {}
    return True, "live_right", {}
