"""Lesson 06's appendix (06-appendix-reference-and-trajectory): ``task_succeeded``,
``trajectory`` and ``where``."""

from __future__ import annotations

import hashlib
import importlib
import inspect
import pkgutil
import re
from functools import cache
from typing import Any

import agentcore
from agentcore.course.experiments import failing_handler, max_steps_limit, third_tool
from agentcore.course.judges.core import (
    Judgement,
    Namespace,
    call,
    exercise,
    kind,
    plain,
)
from agentcore.course.judges.runs import finished_run, run
from agentcore.course.teaching_tools import build_tools
from agentcore.course.weather import ScriptedWeatherModel, weather_request
from agentcore.protocol import ModelTurn
from agentcore.runtime import AgentRuntime
from agentcore.scripted import ScriptedModel


def _finished_messages(experiment: Any) -> list[Any]:
    started = experiment.start()
    for _ in started:  # to the end; a failed run keeps its error on run.error
        pass
    return list(started.messages)


def _succeeded_cases() -> list[tuple[str, list[Any], bool]]:
    guess = "Tokyo's deterministic teaching record is 18.0°C (64.4°F), cloudy."
    guessed = run(ScriptedModel([ModelTurn(final_text=guess)]), build_tools(), weather_request())
    paris = run(ScriptedWeatherModel(city="Paris"), build_tools(), weather_request("Paris"))
    return [
        ("case_converted", _finished_messages(third_tool()), True),
        ("case_max_steps", _finished_messages(max_steps_limit(1)), False),
        ("case_stop", _finished_messages(failing_handler("stop")), False),
        ("case_observe", _finished_messages(failing_handler("observe")), False),
        ("case_observe", _finished_messages(failing_handler("observe", retries=2)), False),
        ("case_guess", list(guessed.messages), False),
        ("case_paris", list(paris.messages), True),
        ("case_converted", _finished_messages(max_steps_limit(3)), True),
    ]


@exercise("task_succeeded", ("task_succeeded",))
def task_succeeded(ns: Namespace) -> Judgement:
    """``task_succeeded(messages)``: a bool, whether the transcript shows the task done."""
    function = ns["task_succeeded"]
    cases = _succeeded_cases()
    wrong = []
    for case, messages, expected in cases:
        got = call("task_succeeded", function, [dict(m) for m in messages])
        if got is None:
            return False, "returns_nothing", {"name": "task_succeeded"}
        if type(got) is not bool:
            return False, "not_a_bool", {"name": "task_succeeded", "kind": kind(got)}
        if got is not expected:
            wrong.append(case)
    if wrong:
        return (
            False,
            "transcripts_wrong",
            {"wrong": len(wrong), "total": len(cases), "case_key": wrong[0]},
        )
    return True, "succeeded_right", {}


TRAJECTORY_STEPS = {
    "A": ("FinalAnswer", None),
    "B": ("ModelDecision", "celsius_to_fahrenheit"),
    "C": ("ToolAction", "get_teaching_weather"),
    "D": ("ToolObservation", "get_teaching_weather"),
    "E": ("ModelDecision", None),
    "F": ("ModelDecision", "get_teaching_weather"),
    "G": ("ToolObservation", "celsius_to_fahrenheit"),
    "H": ("ToolAction", "celsius_to_fahrenheit"),
}
"""The shuffled steps the lesson shows (section 13): event type and tool name. The order is
the run's own, read from its events."""


def _event_step(event: Any) -> str | None:
    from agentcore.events import ModelDecision, ToolAction, ToolObservation

    if isinstance(event, ModelDecision):
        calls = event.turn.tool_calls
        key = ("ModelDecision", calls[0].name if calls else None)
    elif isinstance(event, (ToolAction, ToolObservation)):
        key = (type(event).__name__, event.call.name)
    else:
        key = (type(event).__name__, None)
    return next((step for step, value in TRAJECTORY_STEPS.items() if value == key), None)


@exercise("trajectory", ("my_trajectory",))
def trajectory(ns: Namespace) -> Judgement:
    """``my_trajectory``: a list of ``(letter, who)`` pairs of str, in the run's order."""
    from agentcore.course.snapshot import holder

    answer = ns["my_trajectory"]
    if not isinstance(answer, (list, tuple)):
        return False, "trajectory_format", {"kind": kind(answer)}
    answer = plain(answer)
    if not all(isinstance(item, (list, tuple)) and len(item) == 2 for item in answer):
        return False, "trajectory_format", {"kind": kind(answer)}
    finished = finished_run(AgentRuntime(ScriptedWeatherModel(), build_tools()), weather_request())
    expected = [(_event_step(event), holder(event)) for event in finished.events]
    if len(answer) != len(expected):
        return False, "trajectory_length", {"count": len(answer), "total": len(expected)}
    for position, ((step, who), (right_step, right_who)) in enumerate(
        zip(answer, expected, strict=True), start=1
    ):
        if step != right_step:
            return False, "trajectory_order", {"position": position}
        if who != right_who:
            return False, "trajectory_holder", {"step": step}
    return True, "trajectory_right", {}


WHERE_QUESTIONS = ("decides", "executes", "state", "errors", "stops")


def where_digest(question: str, module: str, name: str) -> str:
    """A fingerprint of one accepted "where" answer: the package ships these, not a table.

    ``module`` is the defining module's dotted name (``agentcore.runtime``), ``name`` the
    function or class; the teacher's hidden tests hold the plain answers and a test checks
    that every fingerprint still names a definition in the code.
    """
    return hashlib.sha256(f"where {question}: {module}.{name}".encode()).hexdigest()[:16]


WHERE_ACCEPTED_DIGESTS: dict[str, frozenset[str]] = {
    "decides": frozenset(
        {
            "569e1ccdc1f6727d",
            "660a15c1c28ec169",
            "705f3a8cedaaefc8",
            "860a3ff1c7c3f6ff",
            "9acfb775621dd194",
            "c6aa41f5f390015f",
        }
    ),
    "executes": frozenset({"a1e95116b8065842", "f50e00d681ca0a9d"}),
    "state": frozenset({"a19a97c658b43881", "d2c9f33a7e85c9bd"}),
    "errors": frozenset(
        {
            "32be8d0723c6c54f",
            "5486d94dc206f827",
            "bdebb1168c956a55",
            "c76c890ea63b2130",
            "d4d3c283c2932c1c",
            "d969c40b376bd6bc",
            "f21456f996e52c0e",
            "f91521344422d2ff",
        }
    ),
    "stops": frozenset({"12efc79bfa2cda62"}),
}
"""Fingerprints (:func:`where_digest`) of the right answers to each question; the plain
answers are in the teacher's hidden tests and in ``tests/test_exercises.py``, which checks
that each still names a definition where the code is now."""


@cache
def module_files() -> dict[str, list[str]]:
    """Every module of the ``agentcore`` package by its file's name (``runtime.py``).

    Derived from the package's layout, so a file added or moved is known without a table.
    """
    files: dict[str, list[str]] = {}
    for info in pkgutil.walk_packages(agentcore.__path__, "agentcore."):
        if info.ispkg:
            continue
        files.setdefault(info.name.rsplit(".", 1)[-1] + ".py", []).append(info.name)
    return files


def defining_module(file: str, name: str) -> str | None:
    """The dotted name of the module in file ``file`` that defines ``name`` (``def`` or
    ``class``, at any depth), or ``None``."""
    pattern = re.compile(rf"^\s*(?:async\s+)?(?:def|class)\s+{re.escape(name)}\b", re.M)
    for module_name in module_files().get(file, []):
        try:
            source = inspect.getsource(importlib.import_module(module_name))
        except (ImportError, OSError):  # an optional provider's dependency is missing
            continue
        if pattern.search(source):
            return module_name
    return None


@exercise("where", ("my_where",))
def where(ns: Namespace) -> Judgement:
    """``my_where``: a dict with the keys ``"decides"``, ``"executes"``, ``"state"``,
    ``"errors"``, ``"stops"``, each a pair ``("file.py", "function or Class.method")``."""
    if not isinstance(ns["my_where"], dict):
        shown = ", ".join(repr(q) for q in WHERE_QUESTIONS)
        return (
            False,
            "prediction_not_a_dict",
            {"name": "my_where", "keys": shown, "kind": kind(ns["my_where"])},
        )
    answers = plain(ns["my_where"])
    missing = [question for question in WHERE_QUESTIONS if question not in answers]
    if missing:
        return False, "where_missing", {"questions": ", ".join(missing)}
    for question in WHERE_QUESTIONS:
        answer = answers[question]
        if (
            not isinstance(answer, (list, tuple))
            or len(answer) != 2
            or not all(isinstance(part, str) for part in answer)
        ):
            return False, "where_format", {"question": question}
        file = answer[0].replace("\\", "/").rsplit("/", 1)[-1].strip()
        name = answer[1].strip().rsplit(".", 1)[-1].removesuffix("()")
        module = defining_module(file, name)
        if module is None:
            return False, "where_no_such", {"question": question, "file": file, "function": name}
        if where_digest(question, module, name) not in WHERE_ACCEPTED_DIGESTS[question]:
            return False, "where_wrong", {"question": question, "what_key": f"where_{question}"}
    return True, "where_right", {}
