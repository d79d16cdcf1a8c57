"""Widgets that step the agent loop in JupyterLab (ipywidgets 8): a thin shell over the runtime.

* :class:`RunStepper` shows one run of an :class:`AgentRuntime`: Step advances it one model
  turn through :meth:`AgentRun.step` (the runtime's own loop, chapter section 6), Run to end
  steps until it finishes, Reset starts it again. It draws the transcript as it grows, the
  events of the last step, the budgets used, and the answer or the error, highlighted.
* :class:`ExperimentPanel` (lesson 06) chooses one experiment of chapter section 12 from
  :mod:`agentcore.course.experiments`, with its options, steps it in a :class:`RunStepper`,
  and keeps a table of finished runs to compare.

Everything that is not drawing lives in :mod:`agentcore.course.experiments` (the scenarios) and
:mod:`agentcore.course.snapshot` (reading a run as rows and text). This module is the only one that
imports ipywidgets, and ``import agentcore`` does not import it.

Callbacks write to widgets only through their traits (``.value``, ``.disabled``,
``.layout.display``): never through ``with output:``, whose text would land in the cell when
a notebook is executed headless. Where widgets cannot render (a stored notebook, GitHub, a
terminal), both objects show a plain-text hint and their state, identical on every run.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from agentcore.course.experiments import SCENARIOS, Experiment, build_experiment
from agentcore.course.snapshot import RunSnapshot, TranscriptRow, check_language
from agentcore.course.weather import Language
from agentcore.errors import AgentRuntimeError
from agentcore.events import RunEvent
from agentcore.runtime import AgentRun, AgentRuntime

_LABELS: dict[Language, dict[str, str]] = {
    "en": {
        "step": "Step",
        "step tip": "Advance one model turn: AgentRun.step()",
        "run": "Run to end",
        "run tip": "Step until the model answers or the run fails",
        "reset": "Reset",
        "reset tip": "Start the same run again from the user's request",
        "transcript": "Transcript",
        "last step": "Events of the last step",
        "no events": "(no step yet)",
        "columns": "#|role|call_id|tool|arguments|observation / text",
        "answer": "Final answer",
        "stepper hint": "RunStepper: run the cells above in JupyterLab to step this run "
        "interactively.",
        "panel hint": "ExperimentPanel: run the cells above in JupyterLab to choose an "
        "experiment of chapter section 12 and step it.",
        "experiment": "Experiment",
        "current": "experiment: {label}",
        "registered": "register describe_temperature",
        "compare": "Finished runs, to compare",
        "compare columns": "experiment|outcome|model turns|tool executions|handler runs",
    },
    "zh-CN": {
        "step": "单步",
        "step tip": "前进一个模型轮次：AgentRun.step()",
        "run": "运行到底",
        "run tip": "一直单步，直到模型回答或运行失败",
        "reset": "重置",
        "reset tip": "从用户请求开始，重新运行一次",
        "transcript": "运行记录（transcript）",
        "last step": "上一步的事件",
        "no events": "（还没有单步执行）",
        "columns": "#|角色|call_id|工具|参数|观察 / 文本",
        "answer": "最终回答",
        "stepper hint": "RunStepper：在 JupyterLab 中运行上面的单元格，"
        "就可以交互式地逐步执行这次运行。",
        "panel hint": "ExperimentPanel：在 JupyterLab 中运行上面的单元格，"
        "就可以选择第 12 节的实验并逐步执行。",
        "experiment": "实验",
        "current": "实验：{label}",
        "registered": "注册 describe_temperature",
        "compare": "已结束的运行（用于比较）",
        "compare columns": "实验|结果|模型轮次|工具执行|handler 执行次数",
    },
}

# Borders and translucent fills read well in JupyterLab's light and dark themes alike.
_HIGHLIGHT = {
    "answered": "border-left:4px solid #2e7d32;background:rgba(46,125,50,0.12)",
    "failed": "border-left:4px solid #c62828;background:rgba(198,40,40,0.12)",
    "refused": "border-left:4px solid #c62828;background:rgba(198,40,40,0.12)",
    "interrupted": "border-left:4px solid #ef6c00;background:rgba(239,108,0,0.12)",
}
_CELL = (
    "padding:2px 8px;text-align:left;vertical-align:top;white-space:pre-wrap;"
    "overflow-wrap:break-word;border-bottom:1px solid var(--jp-border-color2,#ddd)"
)
_MONO = "font-family:var(--jp-code-font-family,monospace);font-size:12px"


def _heading(text: str) -> str:
    return f"<b>{html.escape(text)}</b>"


def _table(header: str, rows: Sequence[Sequence[object]], css_class: str) -> str:
    """An HTML table; ``header`` holds the column titles separated by ``|``."""
    head = "".join(f'<th style="{_CELL}">{html.escape(title)}</th>' for title in header.split("|"))
    body = "".join(
        "<tr>"
        + "".join(f'<td style="{_CELL}">{html.escape(str(cell))}</td>' for cell in row)
        + "</tr>"
        for row in rows
    )
    # ipywidgets' HTML widget sets a tall line height meant for one-line controls.
    return (
        f'<table class="{css_class}" style="border-collapse:collapse;line-height:1.35;{_MONO}">'
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )


def _row_cells(row: TranscriptRow) -> tuple[object, ...]:
    return (row.message, row.role, row.call_id, row.tool, row.arguments, row.content)


def _outcome_html(snapshot: RunSnapshot, labels: dict[str, str]) -> str:
    """The answer or the error with its type, highlighted; ``""`` while the run goes on."""
    if not snapshot.finished:
        return ""
    if snapshot.answer is not None:
        title, text = labels["answer"], snapshot.answer
    else:
        title, text = str(snapshot.error_type), str(snapshot.error_message)
    return (
        f'<div class="agentcore-outcome agentcore-{snapshot.status}" '
        f'style="{_HIGHLIGHT[snapshot.status]};padding:4px 8px">'
        f"<b>{html.escape(title)}</b>: {html.escape(text)}</div>"
    )


def _plain_bundle(widget: Any, text: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    """The widget's own mime bundle with ``text/plain`` replaced by a stable text fallback."""
    bundle: dict[str, Any] = {}
    if widget._repr_mimebundle_ is not None:  # ipywidgets sets it to None once closed
        bundle.update(widget._repr_mimebundle_(**kwargs))
    bundle["text/plain"] = text
    return bundle


class RunStepper:
    """Step one run of an :class:`AgentRuntime` in JupyterLab, one model turn per click.

    Inputs: ``runtime`` (an :class:`AgentRuntime`), ``request`` (the user input, a non-blank
    str) and ``language`` (``"en"`` or ``"zh-CN"``, for the labels). The run starts at once
    (``runtime.start(request)``) and again on every Reset, so the model must be able to play
    the run again (``ScriptedWeatherModel``, a function ``ScriptedModel``; a list script
    would be exhausted). For an experiment of section 12 use :meth:`from_experiment`.

    Raises ``TypeError`` for a ``runtime`` that is not an :class:`AgentRuntime`; ``TypeError``
    or ``ValueError`` for a bad request (as :meth:`AgentRuntime.start` does); ``ValueError``
    for an unknown language.

    Widgets (attributes): ``step_button``, ``run_button``, ``reset_button``, ``budgets``,
    ``transcript``, ``last_step``, ``outcome`` and ``widget`` (the box to display). State:
    ``run`` (the :class:`AgentRun`, ``None`` when an experiment was refused), ``snapshot``
    (a :class:`RunSnapshot` of what is shown) and ``generation`` (counts the runs started).
    """

    def __init__(self, runtime: AgentRuntime, request: str, *, language: Language = "en") -> None:
        if not isinstance(runtime, AgentRuntime):
            raise TypeError(
                f"RunStepper needs an AgentRuntime, got {type(runtime).__name__}; "
                "for an experiment use RunStepper.from_experiment(experiment)"
            )
        self._setup(language)
        self._load(
            lambda: runtime.start(request),
            lambda run, events: RunSnapshot.of_run(run, events, language=self.language),
        )

    @classmethod
    def from_experiment(cls, experiment: Experiment) -> RunStepper:
        """A stepper for an :class:`Experiment`, in the experiment's language.

        It shows the experiment's handler count, and a refused experiment (no run could
        start) as its typed error, with Step and Run to end disabled.
        """
        stepper = cls.__new__(cls)
        stepper._setup(experiment.language)
        stepper.load_experiment(experiment)
        return stepper

    def _setup(self, language: Language) -> None:
        self.language: Language = check_language(language)
        labels = self._labels = _LABELS[self.language]
        self.step_button = widgets.Button(description=labels["step"], tooltip=labels["step tip"])
        self.run_button = widgets.Button(description=labels["run"], tooltip=labels["run tip"])
        self.reset_button = widgets.Button(description=labels["reset"], tooltip=labels["reset tip"])
        self.step_button.on_click(lambda _: self.step())
        self.run_button.on_click(lambda _: self.run_to_end())
        self.reset_button.on_click(lambda _: self.reset())
        self.budgets = widgets.HTML()
        self.transcript = widgets.HTML()
        self.last_step = widgets.HTML()
        self.outcome = widgets.HTML()
        self.widget = widgets.VBox(
            [
                widgets.HBox([self.step_button, self.run_button, self.reset_button]),
                self.budgets,
                widgets.HTML(_heading(labels["transcript"])),
                self.transcript,
                widgets.HTML(_heading(labels["last step"])),
                self.last_step,
                self.outcome,
            ]
        )
        self.widget.add_class("agentcore-stepper")  # a handle for browser tests and styling
        self.generation = 0
        self.run: AgentRun | None = None
        self._listeners: list[Callable[[RunSnapshot], None]] = []

    def load_experiment(self, experiment: Experiment) -> None:
        """Show ``experiment`` instead of the current run, and start it."""
        self._load(experiment.start, experiment.snapshot)

    def _load(
        self,
        start: Callable[[], AgentRun],
        read: Callable[[AgentRun, Sequence[RunEvent]], RunSnapshot],
    ) -> None:
        self._start, self._read = start, read
        self.reset()

    def on_update(self, callback: Callable[[RunSnapshot], None]) -> None:
        """Call ``callback(snapshot)`` after every change of what is shown."""
        self._listeners.append(callback)

    def reset(self) -> None:
        """Start the run again from the user's request (what Reset does)."""
        self.generation += 1
        try:
            self.run = self._start()
        except AgentRuntimeError as error:  # an experiment whose model turn was refused
            self.run = None
            self._show(RunSnapshot.of_refusal(error, language=self.language))
            return
        self._show(self._read(self.run, ()))

    def step(self) -> None:
        """Advance the run by one model turn with :meth:`AgentRun.step` (what Step does)."""
        if self.run is not None and not self.run.finished:
            self._show(self._read(self.run, self.run.step()))

    def run_to_end(self) -> None:
        """Step until the run answers or fails (what Run to end does)."""
        if self.run is None:
            return
        last: list[RunEvent] = []
        while not self.run.finished and (events := self.run.step()):
            last = events
        self._show(self._read(self.run, last))

    def _show(self, snapshot: RunSnapshot) -> None:
        self.snapshot = snapshot
        labels = self._labels
        self.budgets.value = html.escape(snapshot.budgets())
        self.transcript.value = _table(
            labels["columns"], [_row_cells(row) for row in snapshot.rows], "agentcore-transcript"
        )
        lines = "\n".join(snapshot.last_step) or labels["no events"]
        self.last_step.value = f'<pre style="margin:0;{_MONO}">{html.escape(lines)}</pre>'
        self.outcome.value = _outcome_html(snapshot, labels)
        self.step_button.disabled = self.run_button.disabled = snapshot.finished
        for callback in self._listeners:
            callback(snapshot)

    def text(self) -> str:
        """The plain-text fallback: a hint to run the cells above, then the run's state."""
        return f"{self._labels['stepper hint']}\n{self.snapshot.text()}"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        return _plain_bundle(self.widget, self.text(), kwargs)

    def __repr__(self) -> str:
        return self.text()


class ExperimentPanel:
    """Lesson 06's panel: choose an experiment of chapter section 12, step it, compare runs.

    Inputs: ``scenario`` (a key of :data:`agentcore.course.experiments.SCENARIOS`, default
    ``"two_calls_in_one_turn"``) and ``language`` (``"en"`` or ``"zh-CN"``). Raises
    ``KeyError`` for an unknown scenario and ``ValueError`` for an unknown language.

    Controls (attributes): ``scenario`` (a dropdown), ``on_tool_error`` (stop / observe),
    ``retries`` (0-2) for the failing handler, ``max_steps`` (1-6) for the max_steps
    experiment, ``registered`` for the third tool; each shows only for the experiment that
    takes it, and changing any of them starts the chosen experiment afresh. ``stepper`` is
    the :class:`RunStepper`, ``experiment`` the current :class:`Experiment`,
    ``comparison`` the table of finished runs (``finished``: rows of label, answer or error
    type cut to 80 characters, model turns, tool executions, handler runs; newest last, at
    most 8).
    """

    MAX_ROWS = 8
    MAX_OUTCOME = 80

    def __init__(
        self, scenario: str = "two_calls_in_one_turn", *, language: Language = "en"
    ) -> None:
        self.language: Language = check_language(language)
        if scenario not in SCENARIOS:
            raise KeyError(f"unknown experiment {scenario!r}; choose one of {list(SCENARIOS)}")
        labels = self._labels = _LABELS[self.language]
        self.scenario = widgets.Dropdown(
            options=[(s.title(self.language), key) for key, s in SCENARIOS.items()],
            value=scenario,
            description=labels["experiment"],
        )
        self.on_tool_error = widgets.ToggleButtons(
            options=["stop", "observe"], value="stop", description="on_tool_error"
        )
        self.retries = widgets.IntSlider(value=0, min=0, max=2, description="retries")
        self.max_steps = widgets.IntSlider(value=1, min=1, max=6, description="max_steps")
        self.registered = widgets.Checkbox(value=True, description=labels["registered"])
        self._options: dict[str, Any] = {
            "on_tool_error": self.on_tool_error,
            "retries": self.retries,
            "max_steps": self.max_steps,
            "registered": self.registered,
        }
        self.watch = widgets.HTML()
        self.comparison = widgets.HTML()
        self.finished: list[tuple[str, str, int, int, str]] = []
        self._recorded = 0
        self.experiment = self._build()
        self.stepper = RunStepper.from_experiment(self.experiment)
        self.stepper.on_update(self._record)
        self._record(self.stepper.snapshot)  # a refused first choice is already finished
        self._show_experiment()
        for control in (self.scenario, *self._options.values()):
            control.observe(lambda _: self.choose(), names="value")
        self.widget = widgets.VBox(
            [
                self.scenario,
                *self._options.values(),
                self.watch,
                self.stepper.widget,
                widgets.HTML(_heading(labels["compare"])),
                self.comparison,
            ]
        )
        self.widget.add_class("agentcore-panel")

    def _build(self) -> Experiment:
        taken = SCENARIOS[self.scenario.value].options
        for name, control in self._options.items():
            control.layout.display = "" if name in taken else "none"
        chosen = {name: self._options[name].value for name in taken}
        return build_experiment(self.scenario.value, language=self.language, **chosen)

    def choose(self) -> None:
        """Build the experiment the controls describe and start it (what a control change does)."""
        self.experiment = self._build()
        self.stepper.load_experiment(self.experiment)
        self._show_experiment()

    def _show_experiment(self) -> None:
        self.watch.value = f"<i>{html.escape(self.experiment.watch)}</i>"

    def _record(self, snapshot: RunSnapshot) -> None:
        """Add a finished run to the comparison table, once per run."""
        if not snapshot.finished or self._recorded == self.stepper.generation:
            return
        self._recorded = self.stepper.generation
        outcome = snapshot.answer if snapshot.answer is not None else str(snapshot.error_type)
        if len(outcome) > self.MAX_OUTCOME:  # the stepper above shows the whole answer
            outcome = outcome[: self.MAX_OUTCOME - 1] + "…"
        runs = "" if snapshot.handler_runs is None else str(snapshot.handler_runs)
        row = (self.experiment.label, outcome, snapshot.model_turns, snapshot.tool_executions, runs)
        if snapshot.status == "refused" and self.finished and self.finished[-1] == row:
            return  # Reset on a refused experiment runs nothing: no new row to compare
        self.finished = [*self.finished, row][-self.MAX_ROWS :]
        self.comparison.value = _table(
            self._labels["compare columns"], self.finished, "agentcore-comparison"
        )

    def text(self) -> str:
        """The plain-text fallback: a hint, the chosen experiment, then its run's state."""
        labels = self._labels
        current = labels["current"].format(label=self.experiment.label)
        return f"{labels['panel hint']}\n{current}\n{self.stepper.snapshot.text()}"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        return _plain_bundle(self.widget, self.text(), kwargs)

    def __repr__(self) -> str:
        return self.text()
