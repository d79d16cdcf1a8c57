"""The experiments of chapter section 12, and reading a run as rows and text."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from agentcore import (
    AgentRuntime,
    InvalidModelTurnError,
    MaxStepsExceeded,
    ModelDecision,
    RunFailed,
    ToolAction,
    ToolExecutionError,
    ToolObservation,
    UnknownToolError,
)
from agentcore.course.experiments import (
    SCENARIOS,
    build_experiment,
    failing_handler,
    max_steps_limit,
    same_call_id_across_turns,
    same_call_id_in_one_turn,
    third_tool,
    two_calls_in_one_turn,
)


def tool_call_ids(messages: Any) -> list[str]:
    return [m["tool_call_id"] for m in messages if m["role"] == "tool"]


# --- experiment 1: two calls in one turn, then the same call_id twice --------------------


def test_two_calls_of_one_turn_run_one_after_the_other_in_the_models_order() -> None:
    run = two_calls_in_one_turn().start()

    first_turn = run.step()

    assert [
        (type(e).__name__, getattr(e, "call", None) and e.call.call_id) for e in first_turn
    ] == [
        ("ModelDecision", None),
        ("ToolAction", "call-tokyo"),
        ("ToolObservation", "call-tokyo"),
        ("ToolAction", "call-paris"),
        ("ToolObservation", "call-paris"),
    ]
    assert {e.step for e in first_turn} == {1}
    assert run.model_turns == 1 and run.tool_executions == 2
    result = run.finish()
    assert result.model_turns == 2
    assert tool_call_ids(result.messages) == ["call-tokyo", "call-paris"]
    assert result.answer == "Tokyo 18.0°C, cloudy; Paris 12.0°C, light rain."


def test_two_calls_answer_in_chinese() -> None:
    snapshot = two_calls_in_one_turn("zh-CN").play()
    assert snapshot.answer == "东京 18.0°C，多云；巴黎 12.0°C，小雨。"
    assert snapshot.text().startswith("状态：已回答\n模型轮次：2（max_steps=6）")


def test_the_same_call_id_in_one_turn_is_refused_by_model_turn_before_any_run() -> None:
    experiment = same_call_id_in_one_turn()

    assert experiment.runtime is None
    assert isinstance(experiment.refused, InvalidModelTurnError)
    assert "ModelTurn.tool_calls repeats call_id 'call-weather'" in str(experiment.refused)
    with pytest.raises(InvalidModelTurnError, match="repeats call_id"):
        experiment.start()
    snapshot = experiment.play()
    assert snapshot.status == "refused" and snapshot.finished
    assert (snapshot.model_turns, snapshot.tool_executions, snapshot.rows) == (0, 0, ())
    assert snapshot.text().splitlines() == [
        "status: refused before the run started",
        "no run started: no model turn, no tool execution",
        "error: InvalidModelTurnError: ModelTurn.tool_calls repeats call_id 'call-weather'; "
        "every call in a turn needs its own call_id",
        "why: The model's turn breaks the runtime's protocol (see lesson 01), so the runtime "
        "refused it before any handler ran; look first at the model or its adapter.",
    ]


def test_the_same_call_id_on_a_later_turn_is_refused_by_the_runtime_before_its_handler() -> None:
    run = same_call_id_across_turns().start()

    run.step()
    second = run.step()

    assert [type(e) for e in second] == [ModelDecision, RunFailed]
    error = run.error
    assert isinstance(error, InvalidModelTurnError)
    assert "'call-weather' was already used in this run" in str(error)
    assert (error.model_turns, error.tool_executions) == (2, 1)
    refused_request = error.messages[-1]
    assert refused_request["role"] == "assistant"
    assert refused_request["tool_calls"][0]["call_id"] == "call-weather"
    assert refused_request["tool_calls"][0]["name"] == "celsius_to_fahrenheit"
    assert tool_call_ids(error.messages) == ["call-weather"]


# --- experiment 2: a third tool -------------------------------------------------------------


def test_the_third_tool_joins_the_trajectory_without_a_new_runtime() -> None:
    experiment = third_tool()
    assert type(experiment.runtime) is AgentRuntime
    assert experiment.runtime.run.__func__ is AgentRuntime.run  # type: ignore[attr-defined]

    result = experiment.start().finish()

    assert tool_call_ids(result.messages) == ["call-weather", "call-convert", "call-describe"]
    assert result.messages[-2]["content"] == '{"temperature_f": 64.4, "description": "mild"}'
    assert result.answer.endswith("cloudy; that is mild.")


def test_without_registering_the_third_tool_the_registry_refuses_it() -> None:
    run = third_tool(registered=False).start()
    with pytest.raises(UnknownToolError) as caught:
        run.finish()
    assert caught.value.name == "describe_temperature"
    assert (caught.value.model_turns, caught.value.tool_executions) == (3, 2)


# --- experiment 3: a handler that raises ------------------------------------------------------


@pytest.mark.parametrize(
    ("policy", "retries", "status", "handler_runs", "model_turns", "call_ids"),
    [
        ("stop", 0, "failed", 1, 2, ["call-weather"]),
        ("stop", 2, "failed", 1, 2, ["call-weather"]),
        ("observe", 0, "answered", 1, 3, ["call-weather", "call-convert"]),
        (
            "observe",
            1,
            "answered",
            2,
            4,
            ["call-weather", "call-convert", "call-convert-retry-1"],
        ),
        (
            "observe",
            2,
            "answered",
            3,
            5,
            ["call-weather", "call-convert", "call-convert-retry-1", "call-convert-retry-2"],
        ),
    ],
)
def test_a_failing_handler_under_each_policy(
    policy: Any, retries: int, status: str, handler_runs: int, model_turns: int, call_ids: list[str]
) -> None:
    experiment = failing_handler(policy, retries=retries)
    run = experiment.start()
    for _ in run:
        pass

    assert experiment.handler_runs == handler_runs
    assert run.model_turns == model_turns
    messages = run.error.messages if run.error else run.result.messages  # type: ignore[union-attr]
    assert tool_call_ids(messages) == call_ids
    snapshot = experiment.snapshot(run)
    assert snapshot.status == status
    assert f"runs of the failing handler: {handler_runs}" in snapshot.text()


def test_stop_ends_the_run_with_the_handlers_own_exception_as_the_cause() -> None:
    run = failing_handler("stop").start()
    with pytest.raises(ToolExecutionError) as caught:
        run.finish()
    assert isinstance(caught.value.__cause__, ConnectionError)
    assert caught.value.tool == "celsius_to_fahrenheit"


def test_observe_hands_the_failure_to_the_model_which_says_it_could_not_finish() -> None:
    snapshot = failing_handler("observe").play()
    assert snapshot.answer is not None
    assert snapshot.answer.startswith("I could not finish: the tool celsius_to_fahrenheit failed")
    assert '"error": "ToolExecutionError"' in snapshot.rows[4].content


def test_the_handler_count_starts_again_with_every_run() -> None:
    experiment = failing_handler("observe", retries=1)
    first, second = experiment.play(), experiment.play()
    assert first == second
    assert experiment.handler_runs == 2


# --- experiment 4: max_steps --------------------------------------------------------------


def test_max_steps_one_runs_the_first_tool_then_stops_before_the_model_reads_it() -> None:
    run = max_steps_limit().start()

    first = run.step()
    assert [type(e) for e in first] == [ModelDecision, ToolAction, ToolObservation]
    assert not run.finished
    second = run.step()

    assert [type(e) for e in second] == [RunFailed]
    assert isinstance(run.error, MaxStepsExceeded)
    assert (run.model_turns, run.tool_executions, len(run.messages)) == (1, 1, 3)


def test_max_steps_three_is_enough_for_the_weather_task() -> None:
    snapshot = max_steps_limit(3).play()
    assert snapshot.answer == "Tokyo's deterministic teaching record is 18.0°C (64.4°F), cloudy."
    assert snapshot.budgets() == (
        "model turns: 3 of max_steps=3; tool executions: 2 of max_tool_calls=6"
    )


# --- the registry of scenarios --------------------------------------------------------------


def test_scenarios_follow_the_chapter_order_and_build_in_both_languages() -> None:
    assert list(SCENARIOS) == [
        "two_calls_in_one_turn",
        "same_call_id_in_one_turn",
        "same_call_id_across_turns",
        "third_tool",
        "failing_handler",
        "max_steps_limit",
    ]
    for key, scenario in SCENARIOS.items():
        for language in ("en", "zh-CN"):
            experiment = build_experiment(key, language=language)  # type: ignore[arg-type]
            assert experiment.key == key and experiment.title == scenario.title(language)  # type: ignore[arg-type]
            assert experiment.watch.strip()


@pytest.mark.parametrize("key", list(SCENARIOS))
def test_every_scenario_plays_the_same_way_twice(key: str) -> None:
    experiment = build_experiment(key)
    assert experiment.play() == experiment.play()


def test_build_experiment_passes_only_the_options_a_scenario_takes() -> None:
    experiment = build_experiment("failing_handler", on_tool_error="observe", retries=1)
    assert experiment.label == "A handler that raises (on_tool_error='observe', retries=1)"
    with pytest.raises(TypeError, match=r"takes the options \['max_steps'\], not \['retries'\]"):
        build_experiment("max_steps_limit", retries=1)
    with pytest.raises(KeyError, match="unknown experiment 'nope'"):
        build_experiment("nope")


@pytest.mark.parametrize(
    ("build", "error"),
    [
        (lambda: failing_handler("retry"), ValueError),  # type: ignore[arg-type]
        (lambda: failing_handler(retries=-1), ValueError),
        (lambda: failing_handler(retries=True), TypeError),
        (lambda: max_steps_limit(0), ValueError),
        (lambda: third_tool(registered="yes"), TypeError),  # type: ignore[arg-type]
        (lambda: two_calls_in_one_turn("fr"), ValueError),  # type: ignore[arg-type]
    ],
)
def test_bad_options_are_rejected_with_a_typed_error(build: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        build()


# --- reading a run --------------------------------------------------------------------------


def test_snapshot_text_has_no_memory_address_in_any_scenario() -> None:
    for key in SCENARIOS:
        for language in ("en", "zh-CN"):
            text = build_experiment(key, language=language).play().text()  # type: ignore[arg-type]
            assert "0x" not in text and "object at" not in text


def test_the_experiments_module_does_not_import_ipywidgets() -> None:
    code = "import sys, agentcore.course.experiments\nprint('ipywidgets' in sys.modules)\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_starting_a_refused_experiment_again_keeps_the_traceback_the_same_length() -> None:
    import traceback

    experiment = build_experiment("same_call_id_in_one_turn")
    lengths = []
    for _ in range(3):
        with pytest.raises(InvalidModelTurnError) as caught:
            experiment.start()
        lengths.append(len(traceback.extract_tb(caught.value.__traceback__)))
    assert lengths[0] == lengths[1] == lengths[2]
