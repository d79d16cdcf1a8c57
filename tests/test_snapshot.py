"""Reading a run as rows and text (agentcore/snapshot.py)."""

from __future__ import annotations

import pytest

from agentcore import FinalAnswer
from agentcore.course.experiments import max_steps_limit, two_calls_in_one_turn
from agentcore.course.snapshot import RunSnapshot, TranscriptRow, event_line, transcript_rows


def test_transcript_rows_give_each_call_of_a_turn_its_own_row() -> None:
    rows = two_calls_in_one_turn().play().rows
    assert rows[:3] == (
        TranscriptRow(1, "user", content="What is the teaching weather in Tokyo and in Paris?"),
        TranscriptRow(2, "assistant", "call-tokyo", "get_teaching_weather", '{"city": "Tokyo"}'),
        TranscriptRow(2, "assistant", "call-paris", "get_teaching_weather", '{"city": "Paris"}'),
    )
    assert [(r.message, r.role, r.call_id) for r in rows[3:]] == [
        (3, "tool", "call-tokyo"),
        (4, "tool", "call-paris"),
        (5, "assistant", ""),
    ]
    assert transcript_rows([]) == ()


def test_a_snapshot_follows_the_run_one_model_turn_at_a_time() -> None:
    run = max_steps_limit(3).start()
    assert RunSnapshot.of_run(run).status == "not started"

    events = run.step()
    snapshot = RunSnapshot.of_run(run, events)

    assert snapshot.status == "running" and not snapshot.finished
    assert snapshot.last_step == (
        "[1] DECIDE  tool calls: call-weather",
        "[1] ACTION  get_teaching_weather({'city': 'Tokyo'})",
        '[1] OBSERVE {"city": "Tokyo", "temperature_c": 18.0, "condition": "cloudy"}',
    )
    assert snapshot.outcome() == ""
    assert len(snapshot.rows) == 3


def test_event_line_names_a_final_decision() -> None:
    run = max_steps_limit(3).start()
    events = [event for event in run]
    assert event_line(events[-2]) == "[3] DECIDE  final text"
    assert isinstance(events[-1], FinalAnswer)


# --- who acts, what the model was handed, what the last step added (issue 13) ---------------


class Recording:
    """A model that plays the chapter's run and notes how many messages it was handed."""

    def __init__(self) -> None:
        from agentcore import ScriptedWeatherModel

        self.inner = ScriptedWeatherModel()
        self.handed: list[int] = []

    def generate(self, messages, tools):  # type: ignore[no-untyped-def]
        self.handed.append(len(messages))
        return self.inner.generate(messages, tools)


def test_every_event_row_says_who_acts_and_each_decision_what_the_model_was_handed() -> None:
    from agentcore import AgentRuntime, build_tools

    model = Recording()
    run = AgentRuntime(model, build_tools()).start("Tokyo?")
    run.finish()
    snapshot = RunSnapshot.of_run(run)

    assert [row.holder for row in snapshot.events] == [
        "model", "tool", "runtime", "model", "tool", "runtime", "model", "runtime",
    ]  # fmt: skip
    assert [row.handed for row in snapshot.events if row.holder == "model"] == model.handed
    assert model.handed == [1, 3, 5]
    assert snapshot.events[0].line() == (
        "  [1] the model decides: DECIDE  tool calls: call-weather · "
        "messages handed to the model: 1"
    )
    assert snapshot.events[1].who == "the tool executes"
    assert snapshot.events[2].who == "the runtime checks and records"
    assert not any(row.new for row in snapshot.events + snapshot.rows)  # no step given


def test_the_rows_of_the_last_step_are_marked_new_in_events_and_transcript() -> None:
    run = max_steps_limit(3).start()
    run.step()
    second = run.step()
    snapshot = RunSnapshot.of_run(run, second)

    assert [row.new for row in snapshot.events] == [False] * 3 + [True] * 3
    assert [(row.message, row.new) for row in snapshot.rows] == [
        (1, False), (2, False), (3, False), (4, True), (5, True),
    ]  # fmt: skip
    text = snapshot.stepper_text()
    assert "▶ [2] the tool executes: ACTION  celsius_to_fahrenheit({'temperature_c': 18.0})" in text
    assert "▶ [2] the model decides: DECIDE  tool calls: call-convert · " in text
    assert "messages handed to the model: 3" in text
    assert "rows marked ▶ were added by the last step" in text
    assert text.splitlines()[-1].startswith("Control never leaves the runtime")


def test_the_stepper_text_in_chinese() -> None:
    run = max_steps_limit(3, language="zh-CN").start()
    snapshot = RunSnapshot.of_run(run, run.step(), language="zh-CN")
    assert snapshot.stepper_text().splitlines()[:4] == [
        "状态：运行中",
        "模型轮次：1（max_steps=3）；工具执行：1（max_tool_calls=6）",
        "▶ [1] 模型决策：DECIDE  工具调用：call-weather · 交给模型的消息：1 条",
        "▶ [1] 工具执行：ACTION  get_teaching_weather({'city': 'Tokyo'})",
    ]


def test_a_run_stopped_by_ctrl_c_reads_as_interrupted() -> None:
    import pytest

    from agentcore import AgentRuntime, ModelTurn, ScriptedModel, ToolCall, build_tools

    def interrupted_at_turn_2(messages, tools):  # type: ignore[no-untyped-def]
        if len(messages) > 1:
            raise KeyboardInterrupt
        return ModelTurn(
            tool_calls=(ToolCall("call-1", "get_teaching_weather", {"city": "Paris"}),)
        )

    run = AgentRuntime(ScriptedModel(interrupted_at_turn_2), build_tools()).start("Paris?")
    run.step()
    with pytest.raises(KeyboardInterrupt):
        run.step()
    snapshot = RunSnapshot.of_run(run)

    assert run.status == "interrupted" and snapshot.finished
    assert snapshot.error_type == "KeyboardInterrupt"
    lines = snapshot.text().splitlines()
    assert lines[0] == "status: interrupted"
    assert lines[-1] == (
        "why: The run was interrupted by KeyboardInterrupt (for example Ctrl-C) and cannot go "
        "on; its transcript so far is kept in run.messages."
    )


def test_an_interrupted_run_reads_as_interrupted() -> None:
    from agentcore import AgentRuntime, ModelTurn, ScriptedModel

    def interrupt(messages: object, tools: object) -> ModelTurn:
        raise KeyboardInterrupt

    run = AgentRuntime(ScriptedModel(interrupt), []).start("Go.")
    with pytest.raises(KeyboardInterrupt):
        run.step()
    snapshot = RunSnapshot.of_run(run)
    assert run.status == snapshot.status == "interrupted" and snapshot.finished
    assert snapshot.error_type == "KeyboardInterrupt"
    assert snapshot.text().startswith("status: interrupted")
    assert RunSnapshot.of_run(run, language="zh-CN").text().startswith("状态：已中断")


def test_an_error_row_says_the_runtime_stops_the_run_in_both_languages() -> None:
    # max_steps=1: the one turn's tool runs, then the budget ends the run
    for language, stops, records in (
        ("en", "the runtime stops the run", "the runtime checks and records"),
        ("zh-CN", "Runtime 终止运行", "Runtime 校验并记录"),
    ):
        run = max_steps_limit(1, language=language).start()
        for _ in range(2):
            run.step()
        rows = RunSnapshot.of_run(run, language=language).events
        assert rows[-1].holder == "runtime" and rows[-1].who == stops
        assert "MaxStepsExceeded" in rows[-1].text
        assert rows[-2].who == records  # the observation before it is still recorded
