"""Measuring a model's tool choices: a task set, two description readers, an evaluator.

Lesson 07 ("the tool the model sees"). The ideas come from the source chapter's companion
material (wds1996/Tiny-Agent, ``stages/01-react-runtime/advanced/tool-interface-design.md``,
section 10: evaluate a tool interface with tasks, not with one demo): a task set that covers
"needs tool A", "needs tool B", "needs no tool", confusable arguments, a recoverable failure
and a request the teaching tool must not pretend to answer (live weather), and the metrics
tool-selection accuracy, argument accuracy, unnecessary calls, steps and recovery.

* :data:`TEACHING_RECORD_TOOL`: a variant of the chapter's weather tool whose description
  says it reads fixed teaching data (not live weather) and whose observation carries a
  ``source``. The chapter's own ``get_teaching_weather`` stays as it is.
* :func:`load_tasks`: the task set, stored as data in ``tool_choice_tasks.json``.
* :class:`KeywordChooser` and :class:`CarelessChooser`: scripted stand-ins for a model that
  choose a tool by the words its description shares with the request, so a vague description
  measurably picks wrong, offline and deterministically.
* :func:`evaluate`: runs any :class:`~agentcore.protocol.Model` over the tasks through the real
  :class:`~agentcore.runtime.AgentRuntime` and returns a :class:`Report` (a table and text
  bars).
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.resources import files
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from agentcore.course.teaching_tools import CONVERSION_TOOL, TEACHING_WEATHER
from agentcore.course.text import Language, check_language, current_language, pad, phrase
from agentcore.errors import ToolError
from agentcore.events import ToolAction, ToolObservation
from agentcore.protocol import Model, ModelTurn, ToolCall
from agentcore.runtime import AgentRuntime
from agentcore.tools import Tool

SOURCE = "course teaching data (fixed, not live)"
"""The ``source`` every :data:`TEACHING_RECORD_TOOL` observation carries."""

KINDS = (
    "needs tool A",
    "needs tool B",
    "needs no tool",
    "confusable arguments",
    "recoverable failure",
    "live weather",
)
"""The kinds of task the set covers (each task's ``kind``)."""

_DATA: dict[str, Any] = json.loads(
    files("agentcore.course").joinpath("tool_choice_tasks.json").read_text("utf-8")
)
"""``tool_choice_tasks.json``: the tasks, the lesson's descriptions and the choosers' words."""

CITY_WORDS: dict[str, str] = _DATA["city_words"]
"""City names in the lessons' other language that the choosers read as the schema's enum values."""


class RecordArguments(BaseModel):
    """Arguments of ``get_teaching_weather_record``: one of the two cities with a record."""

    model_config = ConfigDict(extra="forbid", strict=True)
    city: Literal["Tokyo", "Paris"] = Field(description="City whose teaching record to read.")


def get_teaching_weather_record(city: str) -> dict[str, float | str]:
    """The fixed teaching record of ``city``, with where it comes from.

    Input: ``"Tokyo"`` or ``"Paris"``. Output: ``{"city", "temperature_c", "condition",
    "source"}``, ``source`` being :data:`SOURCE`: the observation says itself that it is
    teaching data, so nothing downstream can pass it off as live weather.
    """
    return {"city": city, **TEACHING_WEATHER[city], "source": SOURCE}


TEACHING_RECORD_TOOL = Tool(
    name="get_teaching_weather_record",
    description=(
        "Read the course's fixed teaching weather record of a city: temperature and "
        "condition. Not for live or current weather."
    ),
    arguments_model=RecordArguments,
    handler=get_teaching_weather_record,
)


DESCRIPTIONS: dict[str, dict[str, str]] = _DATA["descriptions"]
"""Lesson 07's descriptions per language (``"honest"``, ``"conversion"``, ``"pretending"``): the
honest teaching record, the conversion, and a weather tool that pretends to be live (the same
fixed data under a description that lies). Kept in ``tool_choice_tasks.json``."""


def lesson_tools(
    kind: Literal["honest", "pretending"], language: Language | None = None
) -> list[Tool]:
    """The weather tool (``"honest"`` or ``"pretending"``) and the conversion, described in
    ``language`` (default: the lesson's) with :data:`DESCRIPTIONS`."""
    words = DESCRIPTIONS[check_language(language or current_language())]
    return [
        dataclasses.replace(TEACHING_RECORD_TOOL, description=words[kind]),
        dataclasses.replace(CONVERSION_TOOL, description=words["conversion"]),
    ]


@dataclass(frozen=True)
class Task:
    """One task of the set: a request and what a good model does with it.

    ``expect_tool`` is the tool the first call should name (``None``: answer without a tool);
    ``expect_arguments`` its arguments; ``fail_first``: the tool's first execution fails with a
    message the model may read, and a good model asks again.
    """

    id: str
    kind: str
    request: str
    expect_tool: str | None
    expect_arguments: dict[str, Any] | None = None
    fail_first: bool = False


def load_tasks(language: Language | None = None) -> list[Task]:
    """The lesson's task set in ``language`` (default: the lesson's language).

    Read from ``agentcore/course/tool_choice_tasks.json``. Raises ``ValueError`` for an
    unknown language.
    """
    language = check_language(language or current_language())
    data = _DATA
    return [
        Task(
            id=entry["id"],
            kind=entry["kind"],
            request=entry["request"][language],
            expect_tool=entry["expect_tool"],
            expect_arguments=entry["expect_arguments"],
            fail_first=entry.get("fail_first", False),
        )
        for entry in data["tasks"]
    ]


# ----------------------------------------------------------------------------- the choosers

STOP_WORDS = frozenset(
    [
        "the",
        "and",
        "for",
        "what",
        "that",
        "this",
        "with",
        "from",
        "into",
        "its",
        "it's",
        "is",
        "are",
        "was",
        "of",
        "to",
        "a",
        "an",
        "in",
        "on",
        "or",
        "not",
        "use",
        "when",
    ]
)
NOT_FOR = re.compile("|".join(re.escape(words) for words in _DATA["not_for"]), re.IGNORECASE)
"""Where a description starts to say what the tool is not for."""
CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")
LATIN = re.compile(r"°[a-z]|[a-z][a-z']{2,}")


def terms(text: str) -> set[str]:
    """The words a chooser compares: Latin words of 3+ letters (no stop words), ``°c``/``°f``,
    and every pair of adjacent Chinese characters."""
    lowered = text.lower()
    found = {word for word in LATIN.findall(lowered) if word not in STOP_WORDS}
    for run in CJK_RUN.findall(text):
        found.update(run[i : i + 2] for i in range(len(run) - 1))
    return found


def score(description: str, request: str) -> int:
    """How well ``description`` fits ``request``: +1 for each term they share, -2 for each term
    of the description's "not for" part (from ``Not for``, or its Chinese twin: :data:`NOT_FOR`)
    found in the request."""
    parts = NOT_FOR.split(description, maxsplit=1)
    positive = terms(parts[0])
    negative = terms(parts[1]) - positive if len(parts) > 1 else set()
    wanted = terms(request)
    return len(positive & wanted) - 2 * len(negative & wanted)


def guess_arguments(schema: dict[str, Any], request: str) -> dict[str, Any]:
    """Arguments for a tool, read off the request: an enum field takes the value the request
    names (Chinese city names read through :data:`CITY_WORDS`), else its first value; a
    number field takes the request's first number, else 0.0."""
    arguments: dict[str, Any] = {}
    for name, field in schema["parameters"].get("properties", {}).items():
        if "enum" in field:
            named = [v for v in field["enum"] if str(v).lower() in request.lower()]
            named += [v for word, v in CITY_WORDS.items() if word in request and v in field["enum"]]
            arguments[name] = (named or field["enum"])[0]
        elif field.get("type") in ("number", "integer"):
            number = re.search(r"-?\d+(?:\.\d+)?", request)
            arguments[name] = float(number.group()) if number else 0.0
    return arguments


class KeywordChooser:
    """A scripted model that reads only the tools' descriptions, the way a weak model might.

    First turn: the tool whose description scores best against the request (:func:`score`;
    a tie goes to the tool listed first), with arguments from :func:`guess_arguments`; no tool
    scores above 0: it answers without one. After an observation that reports an error, it
    asks once more (a new ``call_id``); after any other observation, it answers with it.
    """

    answers_without_tools = True
    retries = True

    def generate(self, messages: Sequence[Any], tools: Sequence[Any]) -> ModelTurn:
        """One turn, decided from the transcript (``messages``) and the tool schemas."""
        last = messages[-1]
        if last["role"] == "tool":
            failed = '"error"' in last["content"]
            asked = sum(1 for m in messages if m["role"] == "tool")
            if failed and self.retries and asked < 2:
                previous = messages[-2]["tool_calls"][0]
                call = ToolCall(f"call-{asked + 1}", previous["name"], dict(previous["arguments"]))
                return ModelTurn(tool_calls=(call,))
            return ModelTurn(final_text=last["content"])
        request = last["content"]
        scored = [(score(tool["description"], request), -i, tool) for i, tool in enumerate(tools)]
        best, _, tool = max(scored, key=lambda entry: entry[:2])
        if best <= 0 and self.answers_without_tools:
            return ModelTurn(final_text=phrase("tool choice.answer without a tool"))
        call = ToolCall("call-1", tool["name"], guess_arguments(tool, request))
        return ModelTurn(tool_calls=(call,))

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class CarelessChooser(KeywordChooser):
    """Like :class:`KeywordChooser`, but always calls a tool (the best one, or the first when
    nothing fits) and never asks again after a failure."""

    answers_without_tools = False
    retries = False


# ----------------------------------------------------------------------------- the evaluator


@dataclass(frozen=True)
class Outcome:
    """What one run of one task did: the calls (tool name, arguments), turns, status."""

    task: Task
    calls: tuple[tuple[str, dict[str, Any]], ...]
    model_turns: int
    status: str
    recovered: bool

    @property
    def chosen(self) -> str | None:
        """The first tool called, or ``None`` for an answer without tools."""
        return self.calls[0][0] if self.calls else None

    @property
    def right_tool(self) -> bool:
        return self.chosen == self.task.expect_tool

    @property
    def right_arguments(self) -> bool:
        return self.right_tool and same_arguments(self.calls[0][1], self.task.expect_arguments)


def same_arguments(given: dict[str, Any] | None, expected: dict[str, Any] | None) -> bool:
    """Arguments equal as JSON values (``18`` and ``18.0`` are the same number)."""
    if given is None or expected is None or set(given) != set(expected):
        return False
    for name, value in expected.items():
        other = given[name]
        if isinstance(value, float) or isinstance(other, float):
            if not isinstance(other, int | float) or isinstance(other, bool):
                return False
            if not math.isclose(float(other), float(value)):
                return False
        elif other != value:
            return False
    return True


def _failing_once(tool: Tool) -> Tool:
    """``tool`` whose first execution raises a :class:`ToolError` the model may read."""
    calls = [0]

    def handler(**arguments: Any) -> Any:
        calls[0] += 1
        if calls[0] == 1:
            raise ToolError("The record is busy right now; ask again.")
        return tool.handler(**arguments)

    return dataclasses.replace(tool, handler=handler)


def run_task(model: Model, tools: Sequence[Tool], task: Task, max_steps: int = 4) -> Outcome:
    """Run one task through a fresh :class:`AgentRuntime` (policy ``observe``)."""
    if task.fail_first:
        tools = [_failing_once(t) if t.name == task.expect_tool else t for t in tools]
    runtime = AgentRuntime(model, tools, max_steps=max_steps, on_tool_error="observe")
    run = runtime.start(task.request)
    calls, failed = [], False
    for event in run:
        if isinstance(event, ToolAction):
            calls.append((event.call.name, dict(event.call.arguments)))
        if isinstance(event, ToolObservation) and event.failed:
            failed = True
    recovered = failed and run.status == "answered" and run.tool_executions >= 2
    return Outcome(task, tuple(calls), run.model_turns, run.status, recovered)


METRICS = ("selection", "arguments", "unnecessary calls", "steps", "recovery")


@dataclass(frozen=True)
class Report:
    """The outcomes of one model over the task set, and the metrics they give.

    ``metrics``: ``selection`` and ``arguments`` (fractions of the tasks that expect a tool,
    0.0-1.0; selection over every task), ``unnecessary calls`` (tool executions in tasks that
    need no tool), ``steps`` (mean model turns), ``recovery`` (fraction of the
    recoverable-failure tasks that asked again and answered).
    """

    name: str
    outcomes: tuple[Outcome, ...]

    @property
    def metrics(self) -> dict[str, float]:
        outcomes = self.outcomes
        with_tool = [o for o in outcomes if o.task.expect_tool is not None]
        no_tool = [o for o in outcomes if o.task.expect_tool is None]
        failing = [o for o in outcomes if o.task.fail_first]
        return {
            "selection": _share(o.right_tool for o in outcomes),
            "arguments": _share(o.right_arguments for o in with_tool),
            "unnecessary calls": float(sum(len(o.calls) for o in no_tool)),
            "steps": round(sum(o.model_turns for o in outcomes) / max(len(outcomes), 1), 2),
            "recovery": _share(o.recovered for o in failing),
        }

    def table(self, language: Language | None = None) -> str:
        """One line per task: its kind, what was expected, what was called, ✔/✘."""
        language = check_language(language or current_language())
        none = phrase("tool choice.no tool", language)
        lines = [self.name]
        for o in self.outcomes:
            mark = "✔" if (o.right_arguments if o.task.expect_tool else o.right_tool) else "✘"
            called = ", ".join(name for name, _ in o.calls) or none
            lines.append(
                f"  {mark} {pad(o.task.id, 16)} {pad(o.task.expect_tool or none, 29)} -> {called}"
            )
        return "\n".join(lines)

    def bars(self, language: Language | None = None) -> str:
        """The five metrics as text bars (fractions as 20 blocks, counts as numbers)."""
        language = check_language(language or current_language())
        lines = []
        for name, value in self.metrics.items():
            label = pad(phrase(f"tool choice.metric {name}", language), 20)
            if name in ("selection", "arguments", "recovery"):
                lines.append(f"  {label} {'█' * round(value * 20):<20} {value:.0%}")
            else:
                lines.append(f"  {label} {value:g}")
        return "\n".join([self.name, *lines])

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v:g}" for k, v in self.metrics.items())
        return f"Report({self.name!r}, {shown})"


def _share(values: Any) -> float:
    values = list(values)
    return round(sum(values) / len(values), 2) if values else 0.0


def evaluate(
    make_model: Callable[[], Model],
    tools: Sequence[Tool],
    tasks: Sequence[Task] | None = None,
    name: str | None = None,
) -> Report:
    """Run a fresh model from ``make_model()`` over every task; return the :class:`Report`.

    ``tools``: the tools every run is given (copied per task); ``tasks``: default
    :func:`load_tasks` in the lesson's language; ``name``: a label for the report. Each task
    runs through the real :class:`AgentRuntime` with ``on_tool_error="observe"`` and
    ``max_steps=4``; a model's failure is an outcome (status ``"failed"``), not an exception.
    Raises ``TypeError`` when ``make_model`` is not callable or ``tools`` holds a non-Tool.
    """
    if not callable(make_model):
        raise TypeError(f"make_model must be a function that returns a model, got {make_model!r}")
    if not all(isinstance(t, Tool) for t in tools):
        raise TypeError("tools must be a list of Tool")
    tasks = load_tasks() if tasks is None else tasks
    outcomes = tuple(run_task(make_model(), list(tools), task) for task in tasks)
    return Report(name or type(make_model()).__name__, outcomes)
