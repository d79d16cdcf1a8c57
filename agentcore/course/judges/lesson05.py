"""Lesson 05 (05-deepseek-adapter): ``unpaired_outputs``."""

from __future__ import annotations

from typing import Any

from agentcore.course.judges.core import Judgement, Namespace, draw, exercise, fresh_call_id
from agentcore.course.judges.lesson03 import FRESH_CASES, Case, judge_lists


def _call_item(call_id: str) -> dict[str, Any]:
    return {
        "type": "function_call",
        "call_id": call_id,
        "name": "get_teaching_weather",
        "arguments": '{"city": "Tokyo"}',
    }


def _output_item(call_id: str) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": call_id, "output": "{}"}


REQUEST_ITEM = {"type": "message", "role": "user", "content": "Tokyo?"}
"""The user's request as the lesson shows input items: with a ``type`` key, so an answer
written in the lesson's style (``item["type"]``) is not refused for a shape never shown."""

ITEMS_CASES: tuple[tuple[str, list[dict[str, Any]], list[str]], ...] = (
    ("case_paired", [REQUEST_ITEM, _call_item("call-weather"), _output_item("call-weather")], []),
    ("case_latest_only", [_output_item("call-weather")], ["call-weather"]),
    ("case_output_first", [_output_item("call-a"), _call_item("call-a")], ["call-a"]),
    (
        "case_never_called",
        [_call_item("call-a"), _output_item("call-a"), _output_item("call-x")],
        ["call-x"],
    ),
    (
        "case_two_calls",
        [
            REQUEST_ITEM,
            _call_item("call-a"),
            _call_item("call-b"),
            _output_item("call-b"),
            _output_item("call-a"),
        ],
        [],
    ),
    ("case_paired", [REQUEST_ITEM], []),
    # every output is listed, in order, even one whose call_id an unpaired output had before;
    # an output whose call came earlier is paired, even a second one for that call
    ("case_unpaired_twice", [_output_item("call-x"), _output_item("call-x")], ["call-x", "call-x"]),
    (
        "case_output_twice",
        [REQUEST_ITEM, _call_item("call-a"), _output_item("call-a"), _output_item("call-a")],
        [],
    ),
    # the lesson's shortcut after a turn of two calls: only that turn's two outputs are sent
    (
        "case_two_lone",
        [_output_item("call-tokyo"), _output_item("call-paris")],
        ["call-tokyo", "call-paris"],
    ),
)


def fresh_items(count: int = FRESH_CASES) -> tuple[Case, ...]:
    """``count`` request inputs made up for one verdict, each with its unpaired outputs' call_ids.

    Each is built item by item (perhaps the user's request first, then two to six items: a
    call with a call_id of its own or of an earlier lone output, an output for an earlier
    call, or an output for no earlier call; one such output at least), and its expected list
    is known from how it was built. So no table of :data:`ITEMS_CASES`' answers, looked up by
    input, agrees with every verdict, and there is no reference function an answer could call."""
    cases: list[Case] = []
    while len(cases) < count:
        taken: set[str] = set()
        items: list[dict[str, Any]] = [dict(REQUEST_ITEM)] if draw(2) else []
        called: list[str] = []
        lone: list[str] = []
        expected: list[str] = []
        for _step in range(2 + draw(5)):
            roll = draw(10)
            if roll < 4:  # a call: new, or for an output that came before it
                call_id = lone.pop() if lone and roll < 1 else fresh_call_id(taken)
                items.append(_call_item(call_id))
                called.append(call_id)
            elif roll < 7 and called:
                items.append(_output_item(called[draw(len(called))]))
            else:  # an output no earlier call asked for: unpaired
                call_id = fresh_call_id(taken)
                lone.append(call_id)
                items.append(_output_item(call_id))
                expected.append(call_id)
        if expected:  # one unpaired at least: [] for an input an answer cannot look up is wrong
            cases.append(("case_fresh_items", items, expected))
    return tuple(cases)


@exercise("unpaired_outputs", ("unpaired_outputs",))
def unpaired_outputs(ns: Namespace) -> Judgement:
    """``unpaired_outputs(items)``: the outputs' call_ids with no earlier call, as a list."""
    return judge_lists(
        "unpaired_outputs",
        ns["unpaired_outputs"],
        ITEMS_CASES,
        "items_wrong",
        "items_right",
        fresh_items,
    )
