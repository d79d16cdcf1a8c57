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
        "[1] DECIDE  1 tool call(s): call-weather",
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
