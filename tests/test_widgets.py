"""The widgets, driven from pytest: click the buttons, set the controls, read what is shown."""

from __future__ import annotations

import re

import pytest

from agentcore import (
    AgentRuntime,
    MaxStepsExceeded,
    ModelTurn,
    ScriptedModel,
    ScriptedWeatherModel,
    ToolCall,
    build_tools,
)
from agentcore.course.widgets import ExperimentPanel, RunStepper

REQUEST = "Read Tokyo's teaching weather and convert the temperature to Fahrenheit."
ANSWER = "Tokyo's deterministic teaching record is 18.0°C (64.4°F), cloudy."
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def stepper(max_steps: int = 6, language: str = "en") -> RunStepper:
    runtime = AgentRuntime(ScriptedWeatherModel(), build_tools(), max_steps=max_steps)
    return RunStepper(runtime, REQUEST, language=language)  # type: ignore[arg-type]


def table_rows(html_table: str) -> int:
    return html_table.count("<tr") - 1  # minus the header row


def test_each_step_adds_one_model_turn_to_the_transcript() -> None:
    shown = stepper()
    assert table_rows(shown.transcript.value) == 1  # the user's request
    assert shown.snapshot.status == "not started"

    shown.step_button.click()
    assert table_rows(shown.transcript.value) == 3
    assert "call-weather" in shown.transcript.value and "call-convert" not in shown.transcript.value
    assert shown.budgets.value == (
        "model turns: 1 of max_steps=6; tool executions: 1 of max_tool_calls=6"
    )

    shown.step_button.click()
    assert table_rows(shown.transcript.value) == 5
    new_rows = [row.text for row in shown.snapshot.events if row.new]
    assert any(text.startswith("ACTION  celsius_to_fahrenheit") for text in new_rows)
    assert not any("get_teaching_weather" in text for text in new_rows)  # only the last step
    assert shown.events.value.count('class="agentcore-new"') == 3  # DECIDE, ACTION, OBSERVE
    assert shown.outcome.value == ""

    shown.step_button.click()
    assert table_rows(shown.transcript.value) == 6
    assert shown.run is not None and shown.run.result is not None
    assert shown.run.result.answer == ANSWER
    assert [m.get("tool_call_id") for m in shown.run.messages if m["role"] == "tool"] == [
        "call-weather",
        "call-convert",
    ]


def test_the_final_answer_is_highlighted_and_the_run_buttons_are_disabled() -> None:
    shown = stepper()
    shown.run_button.click()

    assert 'class="agentcore-outcome agentcore-answered"' in shown.outcome.value
    assert "#2e7d32" in shown.outcome.value  # the green border
    assert "18.0°C (64.4°F), cloudy." in shown.outcome.value
    assert shown.step_button.disabled and shown.run_button.disabled
    assert shown.events.value.count('class="agentcore-new"') == 2  # the final turn: DECIDE, FINAL
    shown.step_button.click()
    assert shown.run is not None and shown.run.model_turns == 3  # nothing more happened


def test_an_error_is_shown_with_its_type_highlighted_and_the_transcript_kept() -> None:
    shown = stepper(max_steps=1)
    shown.step_button.click()
    assert shown.snapshot.status == "running"

    shown.step_button.click()

    assert isinstance(shown.run and shown.run.error, MaxStepsExceeded)
    assert 'class="agentcore-outcome agentcore-failed"' in shown.outcome.value
    assert "#c62828" in shown.outcome.value  # the red border
    assert "<b>MaxStepsExceeded</b>" in shown.outcome.value
    assert table_rows(shown.transcript.value) == 3
    assert "model turns: 1 of max_steps=1" in shown.budgets.value
    assert shown.step_button.disabled and not shown.reset_button.disabled


def test_reset_starts_the_run_again() -> None:
    shown = stepper()
    shown.run_button.click()
    first_run = shown.run

    shown.reset_button.click()

    assert shown.run is not first_run and shown.generation == 2
    assert table_rows(shown.transcript.value) == 1
    assert not shown.step_button.disabled and shown.outcome.value == ""
    shown.run_button.click()
    assert shown.snapshot.answer == ANSWER


def test_clicks_print_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    shown = stepper()
    shown.step_button.click()
    shown.run_button.click()
    shown.reset_button.click()
    assert capsys.readouterr() == ("", "")


def test_the_plain_text_fallback_is_a_hint_and_the_state_without_ids() -> None:
    shown = stepper()
    bundle = shown._repr_mimebundle_()

    assert WIDGET_VIEW in bundle  # JupyterLab draws the widget
    assert bundle["text/plain"] == (
        "RunStepper: run the cells above in JupyterLab to step this run interactively.\n"
        "status: not started\n"
        "model turns: 0 of max_steps=6; tool executions: 0 of max_tool_calls=6\n"
        "(no step yet)"
    )
    assert stepper()._repr_mimebundle_()["text/plain"] == bundle["text/plain"]
    shown.run_button.click()
    text = shown._repr_mimebundle_()["text/plain"]
    assert text.splitlines()[-1] == f"answer: {ANSWER}"
    assert f"▶ [3] the runtime checks and records: FINAL   {ANSWER}" in text.splitlines()
    assert not re.search(r"0x[0-9a-f]+|[0-9a-f]{32}", text)


def test_a_closed_widget_still_has_its_text() -> None:
    shown = stepper()
    shown.widget.close()
    assert shown._repr_mimebundle_() == {"text/plain": shown.text()}


def test_labels_follow_the_language() -> None:
    shown = stepper(language="zh-CN")
    assert [b.description for b in (shown.step_button, shown.run_button, shown.reset_button)] == [
        "单步",
        "运行到底",
        "重置",
    ]
    assert "角色" in shown.transcript.value
    shown.run_button.click()
    assert "<b>最终答案</b>" in shown.outcome.value
    assert shown.text().startswith("RunStepper：在 JupyterLab 中运行上面的单元格")


def test_bad_input_is_rejected_with_a_typed_error() -> None:
    runtime = AgentRuntime(ScriptedWeatherModel(), build_tools())
    with pytest.raises(TypeError, match="needs an AgentRuntime"):
        RunStepper(ScriptedWeatherModel(), REQUEST)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="blank"):
        RunStepper(runtime, "  ")
    with pytest.raises(ValueError, match="language"):
        RunStepper(runtime, REQUEST, language="fr")  # type: ignore[arg-type]


# --- the experiment panel -------------------------------------------------------------------


def test_the_panel_steps_two_calls_of_one_turn_in_order() -> None:
    panel = ExperimentPanel()
    panel.stepper.step_button.click()

    lines = panel.stepper.snapshot.last_step
    assert lines[0] == "[1] DECIDE  tool calls: call-tokyo, call-paris"
    assert [line.split("(")[1][:16] for line in lines[1::2]] == [
        "{'city': 'Tokyo'",
        "{'city': 'Paris'",
    ]
    assert table_rows(panel.stepper.transcript.value) == 5


def test_the_panel_shows_only_the_controls_a_scenario_takes() -> None:
    panel = ExperimentPanel()

    def shown() -> set[str]:
        return {name for name, c in panel._options.items() if c.layout.display != "none"}

    assert shown() == set()
    panel.scenario.value = "failing_handler"
    assert shown() == {"on_tool_error", "retries"}
    panel.scenario.value = "max_steps_limit"
    assert shown() == {"max_steps"}
    panel.scenario.value = "third_tool"
    assert shown() == {"registered"}


def test_the_panel_compares_stop_and_observe_with_the_handler_count() -> None:
    panel = ExperimentPanel("failing_handler")
    panel.stepper.run_button.click()
    panel.on_tool_error.value = "observe"
    panel.retries.value = 1
    panel.stepper.run_button.click()

    assert panel.finished[0] == (
        "A handler that raises (on_tool_error='stop', retries=0)",
        "ToolExecutionError",
        2,
        2,
        "1",
    )
    label, outcome, turns, tools, runs = panel.finished[1]
    assert label == "A handler that raises (on_tool_error='observe', retries=1)"
    assert outcome.startswith("I could not finish") and len(outcome) == ExperimentPanel.MAX_OUTCOME
    assert (turns, tools, runs) == (4, 3, "2")
    assert table_rows(panel.comparison.value) == 2
    assert "runs of the failing handler: 2" in panel.text()


def test_the_panel_shows_a_refused_turn_as_its_typed_error() -> None:
    panel = ExperimentPanel()
    panel.scenario.value = "same_call_id_in_one_turn"

    assert panel.stepper.run is None
    assert 'class="agentcore-outcome agentcore-refused"' in panel.stepper.outcome.value
    assert "<b>InvalidModelTurnError</b>" in panel.stepper.outcome.value
    assert panel.stepper.step_button.disabled and panel.stepper.run_button.disabled
    assert panel.finished == [
        ("The same call_id twice in one turn", "InvalidModelTurnError", 0, 0, "")
    ]
    panel.stepper.step_button.click()  # nothing to step; nothing breaks
    assert len(panel.finished) == 1


def test_a_panel_opened_on_a_refused_scenario_records_it() -> None:
    panel = ExperimentPanel("same_call_id_in_one_turn")
    assert [row[1] for row in panel.finished] == ["InvalidModelTurnError"]


def test_the_max_steps_control_changes_the_outcome() -> None:
    panel = ExperimentPanel("max_steps_limit")
    panel.stepper.run_button.click()
    panel.max_steps.value = 3
    panel.stepper.run_button.click()

    assert [row[1:4] for row in panel.finished] == [
        ("MaxStepsExceeded", 1, 1),
        (ANSWER, 3, 2),
    ]


def test_each_finished_run_is_recorded_once_and_reset_makes_a_new_one() -> None:
    panel = ExperimentPanel()
    panel.stepper.run_button.click()
    panel.stepper.run_button.click()
    assert len(panel.finished) == 1
    panel.stepper.reset_button.click()
    panel.stepper.run_button.click()
    assert len(panel.finished) == 2


def test_the_panel_text_fallback_in_chinese() -> None:
    panel = ExperimentPanel("third_tool", language="zh-CN")
    lines = panel._repr_mimebundle_()["text/plain"].splitlines()
    assert lines[:3] == [
        "ExperimentPanel：在 JupyterLab 中运行上面的单元格，就可以选择第 12 节的实验并逐步执行。",
        "实验：第三个工具：describe_temperature（registered=True）",
        "状态：尚未开始",
    ]
    assert panel.scenario.description == "实验"


def test_an_unknown_scenario_is_rejected() -> None:
    with pytest.raises(KeyError, match="unknown experiment 'nope'"):
        ExperimentPanel("nope")


def test_resetting_a_refused_experiment_adds_no_duplicate_rows() -> None:
    panel = ExperimentPanel("same_call_id_in_one_turn")
    for _ in range(3):
        panel.stepper.reset_button.click()
    assert len(panel.finished) == 1
    assert panel.finished[0][1] == "InvalidModelTurnError"


# --- the playground: any runtime the learner built (issue 13) ---------------------------------


def learner_turns() -> list[ModelTurn]:
    paris = ToolCall("call-paris", "get_teaching_weather", {"city": "Paris"})
    return [ModelTurn(tool_calls=(paris,)), ModelTurn(final_text="Paris: 12.0°C, light rain.")]


def test_a_list_script_steps_to_its_answer_and_replays_after_reset() -> None:
    model = ScriptedModel(learner_turns())
    shown = RunStepper(AgentRuntime(model, build_tools()), "Paris?")
    shown.run_button.click()
    assert shown.snapshot.answer == "Paris: 12.0°C, light rain."
    assert model.calls == 2  # the first run is the learner's own model

    for _ in range(2):
        shown.reset_button.click()
        assert shown.snapshot.status == "not started"
        shown.step_button.click()
        shown.step_button.click()
        assert shown.snapshot.status == "answered", shown.text()
        assert shown.snapshot.answer == "Paris: 12.0°C, light rain."


def test_a_function_script_and_a_factory_also_replay() -> None:
    def once_then_answer(messages, tools):  # type: ignore[no-untyped-def]
        return learner_turns()[1 if len(messages) > 1 else 0]

    built: list[AgentRuntime] = []

    def build() -> AgentRuntime:
        built.append(AgentRuntime(ScriptedModel(learner_turns()), build_tools()))
        return built[-1]

    for shown in (
        RunStepper(AgentRuntime(ScriptedModel(once_then_answer), build_tools()), "Paris?"),
        RunStepper(build, "Paris?"),
    ):
        for _ in range(3):
            shown.run_button.click()
            assert shown.snapshot.status == "answered"
            shown.reset_button.click()
    assert len(built) == 4  # one at the start, one per Reset


def test_every_event_row_names_who_acts_and_the_last_step_is_highlighted() -> None:
    shown = RunStepper(AgentRuntime(ScriptedModel(learner_turns()), build_tools()), "Paris?")
    shown.step_button.click()
    events = shown.events.value
    for holder in ("the model decides", "the tool executes", "the runtime checks and records"):
        assert holder in events
    assert "messages handed to the model: 1" in events
    assert "Control never leaves the runtime" in events
    assert events.count('class="agentcore-new"') == 3
    assert shown.transcript.value.count('class="agentcore-new"') == 2  # request and observation

    shown.step_button.click()
    assert shown.events.value.count('class="agentcore-new"') == 2  # DECIDE, FINAL
    assert "messages handed to the model: 3" in shown.events.value
    text = shown.text()
    assert "▶ [2] the runtime checks and records: FINAL   Paris: 12.0°C, light rain." in text
    assert "  [1] the tool executes: ACTION  get_teaching_weather({'city': 'Paris'})" in text


def test_after_ctrl_c_the_stepper_shows_interrupted_and_disables_step() -> None:
    def interrupted_at_turn_2(messages, tools):  # type: ignore[no-untyped-def]
        if len(messages) > 1:
            raise KeyboardInterrupt
        return learner_turns()[0]

    shown = RunStepper(AgentRuntime(ScriptedModel(interrupted_at_turn_2), build_tools()), "Paris?")
    shown.step()
    with pytest.raises(KeyboardInterrupt):
        shown.step()

    assert shown.snapshot.status == "interrupted"
    assert shown.step_button.disabled and shown.run_button.disabled
    assert not shown.reset_button.disabled
    assert 'class="agentcore-outcome agentcore-interrupted"' in shown.outcome.value
    assert "<b>KeyboardInterrupt</b>" in shown.outcome.value
    assert shown.text().splitlines()[1] == "status: interrupted"


def test_the_playground_in_chinese() -> None:
    shown = RunStepper(
        AgentRuntime(ScriptedModel(learner_turns()), build_tools()), "巴黎？", language="zh-CN"
    )
    shown.run_button.click()
    for label in ("模型决策", "工具执行", "Runtime 校验并记录", "交给模型的消息：3 条", "谁在行动"):
        assert label in shown.events.value + shown.widget.children[4].value, label


def test_a_runtime_builder_must_return_a_runtime() -> None:
    with pytest.raises(TypeError, match="must return an AgentRuntime"):
        RunStepper(lambda: "nope", "Paris?")  # type: ignore[arg-type,return-value]
