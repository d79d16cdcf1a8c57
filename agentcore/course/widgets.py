"""Widgets that step the agent loop in JupyterLab (ipywidgets 8): a thin shell over the runtime.

* :class:`RunStepper` shows one run of an :class:`AgentRuntime`: Step advances it one model
  turn through :meth:`AgentRun.step` (the runtime's own loop, chapter section 6), Run to end
  steps until it finishes, Reset starts it again. It draws the transcript as it grows, every
  event with who acts (the model decides, the runtime checks and records or stops the run, the
  tool executes),
  the rows the last step added highlighted, the budgets used, and the answer or the error.
  It steps any runtime a learner built (the playground), and a run interrupted by Ctrl-C.
* :class:`ExperimentPanel` (lesson 06's appendix) chooses one experiment of chapter section 12 from
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

import copy
import html
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from agentcore.course.experiments import SCENARIOS, Experiment, build_experiment
from agentcore.course.snapshot import EventRow, RunSnapshot, TranscriptRow
from agentcore.course.text import Language, phrase, resolve_language
from agentcore.errors import AgentRuntimeError
from agentcore.events import RunEvent
from agentcore.runtime import AgentRun, AgentRuntime
from agentcore.scripted import ScriptedModel

# Borders and translucent fills read well in JupyterLab's light and dark themes alike.
_HIGHLIGHT = {
    "answered": "border-left:4px solid #2e7d32;background:rgba(46,125,50,0.12)",
    "failed": "border-left:4px solid #c62828;background:rgba(198,40,40,0.12)",
    "refused": "border-left:4px solid #c62828;background:rgba(198,40,40,0.12)",
    "interrupted": "border-left:4px solid #ef6c00;background:rgba(239,108,0,0.12)",
}
_NEW_ROW = "background:rgba(255,193,7,0.28)"  # the rows the last step added
_HOLDER = {  # who acts: one colour each, so the hand-offs show at a glance
    "model": "color:#1565c0;font-weight:bold",
    "runtime": "color:#6a1b9a;font-weight:bold",
    "tool": "color:#e65100;font-weight:bold",
}
_CELL = (
    "padding:2px 8px;text-align:left;vertical-align:top;white-space:pre-wrap;"
    "overflow-wrap:break-word;border-bottom:1px solid var(--jp-border-color2,#ddd)"
)
_NOTE = "color:var(--jp-ui-font-color2,#555)"
_MONO = "font-family:var(--jp-code-font-family,monospace);font-size:12px"


def _heading(text: str) -> str:
    return f"<b>{html.escape(text)}</b>"


def _cell(value: object, style: str = "") -> str:
    return f'<td style="{_CELL};{style}">{html.escape(str(value))}</td>'


def _table(
    header: str,
    rows: Sequence[Sequence[object]],
    css_class: str,
    new: Sequence[bool] = (),
    styles: Sequence[Sequence[str]] = (),
) -> str:
    """An HTML table; ``header`` holds the column titles separated by ``|``.

    Rows whose ``new`` flag is true get the class ``agentcore-new`` and a highlight;
    ``styles`` gives extra CSS per cell (row by row), where it is given.
    """
    head = "".join(f'<th style="{_CELL}">{html.escape(title)}</th>' for title in header.split("|"))
    body = []
    for index, row in enumerate(rows):
        fresh = index < len(new) and new[index]
        cell_styles = styles[index] if index < len(styles) else ()
        cells = "".join(
            _cell(value, cell_styles[i] if i < len(cell_styles) else "")
            for i, value in enumerate(row)
        )
        body.append(f'<tr class="agentcore-new" style="{_NEW_ROW}">' if fresh else "<tr>")
        body.append(cells + "</tr>")
    # ipywidgets' HTML widget sets a tall line height meant for one-line controls.
    return (
        f'<table class="{css_class}" style="border-collapse:collapse;line-height:1.35;{_MONO}">'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


def _row_cells(row: TranscriptRow) -> tuple[object, ...]:
    return (row.message, row.role, row.call_id, row.tool, row.arguments, row.content)


def _events_html(rows: Sequence[EventRow], language: Language) -> str:
    """The run's events, each with who acts (coloured), the last step's rows highlighted."""
    if not rows:
        empty = html.escape(phrase("trajectory.no events", language))
        return f'<pre style="margin:0;{_MONO}">{empty}</pre>'
    table = _table(
        phrase("trajectory.columns", language),
        [(row.step, row.who, row.text) for row in rows],
        "agentcore-events",
        new=[row.new for row in rows],
        styles=[("", _HOLDER[row.holder], "") for row in rows],
    )
    note = html.escape(phrase("control.note", language))
    # Muted, not italic: Chinese prose has no italics (docs/GLOSSARY.md, typography).
    return f'{table}<div class="agentcore-control-note" style="{_NOTE}">{note}</div>'


def _outcome_html(snapshot: RunSnapshot) -> str:
    """The answer or the error (type and explanation), highlighted; ``""`` while running."""
    if not snapshot.finished:
        return ""
    if snapshot.answer is not None:
        title, text = phrase("final answer.heading", snapshot.language), snapshot.answer
    else:
        title = str(snapshot.error_type)
        text = str(snapshot.error_message or "")
    explanation = ""
    if snapshot.explanation is not None and snapshot.explanation != text:
        explanation = f"<br>{html.escape(snapshot.explanation_line())}"
    return (
        f'<div class="agentcore-outcome agentcore-{snapshot.status}" '
        f'style="{_HIGHLIGHT[snapshot.status]};padding:4px 8px">'
        f"<b>{html.escape(title)}</b>{phrase('punctuation.colon', snapshot.language)}"
        f"{html.escape(text)}{explanation}</div>"
    )


def _plain_bundle(widget: Any, text: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    """The widget's own mime bundle with ``text/plain`` replaced by a stable text fallback."""
    bundle: dict[str, Any] = {}
    if widget._repr_mimebundle_ is not None:  # ipywidgets sets it to None once closed
        bundle.update(widget._repr_mimebundle_(**kwargs))
    bundle["text/plain"] = text
    return bundle


def _replaying(runtime: AgentRuntime) -> Callable[[], AgentRuntime]:
    """Starts for a runtime: the first is ``runtime`` itself, each later one plays afresh.

    A :class:`ScriptedModel` keeps how many turns it played, so a list script would be
    exhausted on a second run. Its state is copied now, before any run, and every later start
    gets a runtime like ``runtime`` (same tools and budgets) with a fresh copy of that model:
    a list script replays from its first turn. Other models (and a script that cannot be
    copied) are used again as they are; pass a function that builds the runtime instead.
    """
    model = runtime.model
    pristine: ScriptedModel | None = None
    if isinstance(model, ScriptedModel):
        try:
            pristine = copy.deepcopy(model)
        except (TypeError, copy.Error):  # a script holding something uncopyable: reuse it
            pristine = None
    started = [False]

    def runtime_for_next_run() -> AgentRuntime:
        if not started[0] or pristine is None:
            started[0] = True
            return runtime
        again = copy.copy(runtime)
        again.model = copy.deepcopy(pristine)
        return again

    return runtime_for_next_run


class RunStepper:
    """Step one run of an :class:`AgentRuntime` in JupyterLab, one model turn per click.

    Inputs: ``runtime``, an :class:`AgentRuntime` you built (any model: your own
    :class:`ScriptedModel` with a list or a function script, your own tools), or a function
    with no arguments that builds one; ``request`` (the user input, a non-blank str); and
    ``language`` (``"en"`` or ``"zh-CN"``, for the labels; default
    :func:`agentcore.course.text.current_language`). The run starts at once and again on every
    Reset: with a function, Reset calls it for a new runtime; with a runtime, a
    :class:`ScriptedModel` is replayed from a copy taken before the first run (a list script
    starts again at its first turn), any other model is used again as it is. For an
    experiment of section 12 use :meth:`from_experiment`.

    Raises ``TypeError`` for a ``runtime`` that is neither an :class:`AgentRuntime` nor a
    function; ``TypeError`` or ``ValueError`` for a bad request (as
    :meth:`AgentRuntime.start` does); ``ValueError`` for an unknown language.

    What it shows: the budgets used, the transcript, every event with who acts (the model
    decides, the runtime checks and records or stops the run, the tool executes; each decision
    says how many messages the model was handed), the rows the last step added highlighted, and
    the answer or the error (its type, its English message and its explanation). A run interrupted
    (Ctrl-C, or a bug that escaped the loop) shows as interrupted, and Step is disabled.

    Widgets (attributes): ``step_button``, ``run_button``, ``reset_button``, ``budgets``,
    ``transcript``, ``events``, ``outcome`` and ``widget`` (the box to display). State:
    ``run`` (the :class:`AgentRun`, ``None`` when an experiment was refused), ``snapshot``
    (a :class:`RunSnapshot` of what is shown) and ``generation`` (counts the runs started).
    """

    def __init__(
        self,
        runtime: AgentRuntime | Callable[[], AgentRuntime],
        request: str,
        *,
        language: Language | None = None,
    ) -> None:
        if isinstance(runtime, AgentRuntime):
            build = _replaying(runtime)
        elif callable(runtime):
            build = runtime
        else:
            raise TypeError(
                f"RunStepper needs an AgentRuntime (or a function that builds one), got "
                f"{type(runtime).__name__}; for an experiment use RunStepper.from_experiment"
            )
        self._setup(language)

        def start() -> AgentRun:
            built = build()
            if not isinstance(built, AgentRuntime):
                raise TypeError(
                    f"the function given to RunStepper must return an AgentRuntime, got "
                    f"{type(built).__name__}"
                )
            return built.start(request)

        self._load(
            start, lambda run, events: RunSnapshot.of_run(run, events, language=self.language)
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

    def _setup(self, language: Language | None) -> None:
        self.language: Language = resolve_language(language)
        say = self._say
        self.step_button = widgets.Button(
            description=say("widget.step"), tooltip=say("widget.step tip")
        )
        self.run_button = widgets.Button(
            description=say("widget.run"), tooltip=say("widget.run tip")
        )
        self.reset_button = widgets.Button(
            description=say("widget.reset"), tooltip=say("widget.reset tip")
        )
        self.step_button.on_click(lambda _: self.step())
        self.run_button.on_click(lambda _: self.run_to_end())
        self.reset_button.on_click(lambda _: self.reset())
        self.budgets = widgets.HTML()
        self.transcript = widgets.HTML()
        self.events = widgets.HTML()
        self.outcome = widgets.HTML()
        self.widget = widgets.VBox(
            [
                widgets.HBox([self.step_button, self.run_button, self.reset_button]),
                self.budgets,
                widgets.HTML(_heading(say("transcript.heading"))),
                self.transcript,
                widgets.HTML(_heading(say("trajectory.heading"))),
                self.events,
                self.outcome,
            ]
        )
        self.widget.add_class("agentcore-stepper")  # a handle for browser tests and styling
        self.generation = 0
        self.run: AgentRun | None = None
        self._listeners: list[Callable[[RunSnapshot], None]] = []

    def _say(self, key: str, **fields: object) -> str:
        return phrase(key, self.language, **fields)

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
        """Advance the run by one model turn with :meth:`AgentRun.step` (what Step does).

        If the step is interrupted (Ctrl-C) the run shows as interrupted before the
        ``KeyboardInterrupt`` goes on up.
        """
        run = self.run
        if run is None or run.finished:
            return
        before = len(run.events)
        try:
            run.step()
        finally:
            self._show(self._read(run, run.events[before:]))

    def run_to_end(self) -> None:
        """Step until the run answers or fails (what Run to end does); the last step's rows
        are highlighted."""
        run = self.run
        if run is None:
            return
        before = len(run.events)
        try:
            while not run.finished:
                before = len(run.events)
                if not run.step():
                    break
        finally:
            self._show(self._read(run, run.events[before:]))

    def _show(self, snapshot: RunSnapshot) -> None:
        self.snapshot = snapshot
        self.budgets.value = html.escape(snapshot.budgets())
        self.transcript.value = _table(
            self._say("transcript.columns"),
            [_row_cells(row) for row in snapshot.rows],
            "agentcore-transcript",
            new=[row.new for row in snapshot.rows],
        )
        self.events.value = _events_html(snapshot.events, self.language)
        self.outcome.value = _outcome_html(snapshot)
        self.step_button.disabled = self.run_button.disabled = snapshot.finished
        for callback in self._listeners:
            callback(snapshot)

    def text(self) -> str:
        """The plain-text fallback: a hint to run the cells above, then what the widget shows."""
        return f"{self._say('widget.stepper hint')}\n{self.snapshot.stepper_text()}"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        return _plain_bundle(self.widget, self.text(), kwargs)

    def __repr__(self) -> str:
        return self.text()


class ExperimentPanel:
    """The panel of lesson 06's appendix: choose a section-12 experiment, step it, compare runs.

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
        self, scenario: str = "two_calls_in_one_turn", *, language: Language | None = None
    ) -> None:
        self.language: Language = resolve_language(language)
        if scenario not in SCENARIOS:
            raise KeyError(f"unknown experiment {scenario!r}; choose one of {list(SCENARIOS)}")
        language = self.language
        self.scenario = widgets.Dropdown(
            options=[(s.title(self.language), key) for key, s in SCENARIOS.items()],
            value=scenario,
            description=phrase("experiment.label", language),
        )
        self.on_tool_error = widgets.ToggleButtons(
            options=["stop", "observe"], value="stop", description="on_tool_error"
        )
        self.retries = widgets.IntSlider(value=0, min=0, max=2, description="retries")
        self.max_steps = widgets.IntSlider(value=1, min=1, max=6, description="max_steps")
        self.registered = widgets.Checkbox(
            value=True, description=phrase("experiment.register", language)
        )
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
                widgets.HTML(_heading(phrase("experiment.compare", language))),
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
        self.watch.value = f'<div style="{_NOTE}">{html.escape(self.experiment.watch)}</div>'

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
            phrase("experiment.compare columns", self.language),
            self.finished,
            "agentcore-comparison",
        )

    def text(self) -> str:
        """The plain-text fallback: a hint, the chosen experiment, then its run's state."""
        hint = phrase("widget.panel hint", self.language)
        current = phrase("experiment.current", self.language, label=self.experiment.label)
        return f"{hint}\n{current}\n{self.stepper.snapshot.text()}"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        return _plain_bundle(self.widget, self.text(), kwargs)

    def __repr__(self) -> str:
        return self.text()
