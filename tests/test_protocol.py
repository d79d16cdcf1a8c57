"""ToolCall and ModelTurn: the internal language's rules (chapter sections 4.1 and 4.2)."""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentcore import InvalidModelTurnError, ModelTurn, ToolCall

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.text()
    | st.floats(allow_nan=False, allow_infinity=False)
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=10,
)
json_objects = st.dictionaries(st.text(max_size=8), json_values, max_size=4)
non_blank = st.text(min_size=1).filter(lambda text: text.strip() != "")
names = non_blank.filter(str.isprintable)  # an id or a tool name: printable, on one line


@given(call_id=names, name=names, arguments=json_objects)
def test_a_valid_tool_call_keeps_its_fields(
    call_id: str, name: str, arguments: dict[str, Any]
) -> None:
    call = ToolCall(call_id, name, arguments)
    assert (call.call_id, call.name, call.arguments) == (call_id, name, arguments)


@given(arguments=json_objects)
def test_tool_call_arguments_are_a_read_only_copy(arguments: dict[str, Any]) -> None:
    call = ToolCall("call-1", "tool", arguments)
    arguments["injected"] = True  # the caller's dict changes afterwards ...
    assert "injected" not in call.arguments  # ... the call does not
    with pytest.raises(TypeError, match="read-only"):
        call.arguments["other"] = 1  # type: ignore[index]


@given(blank=st.sampled_from(["", " ", "\t\n"]) | st.integers() | st.none())
def test_blank_or_non_string_ids_and_names_are_rejected(blank: Any) -> None:
    with pytest.raises(InvalidModelTurnError, match="call_id"):
        ToolCall(blank, "tool", {})
    with pytest.raises(InvalidModelTurnError, match="name"):
        ToolCall("call-1", blank, {})


@pytest.mark.parametrize(
    "arguments",
    [[1, 2], '{"city": "Tokyo"}', 42, None, ("city", "Tokyo")],
    ids=["list", "json-string", "number", "none", "tuple"],
)
def test_arguments_that_are_not_a_json_object_are_rejected(arguments: Any) -> None:
    with pytest.raises(InvalidModelTurnError, match=r"ToolCall\.arguments must be a JSON object"):
        ToolCall("call-1", "tool", arguments)


@pytest.mark.parametrize(
    ("arguments", "where"),
    [
        ({"x": math.nan}, "ToolCall.arguments['x']"),
        ({"x": [1, math.inf]}, "ToolCall.arguments['x'][1]"),
        ({"x": {1, 2}}, "ToolCall.arguments['x']"),
        ({1: "a"}, "ToolCall.arguments has the key 1"),
        ({"x": object()}, "ToolCall.arguments['x']"),
    ],
)
def test_arguments_that_json_cannot_carry_are_rejected(arguments: Any, where: str) -> None:
    with pytest.raises(InvalidModelTurnError) as caught:
        ToolCall("call-1", "tool", arguments)
    assert where in str(caught.value)


@given(text=non_blank)
def test_a_final_turn_has_no_calls(text: str) -> None:
    turn = ModelTurn(final_text=text)
    assert turn.final_text == text and turn.tool_calls == ()


@given(ids=st.lists(names, min_size=1, max_size=5, unique=True))
def test_a_tool_turn_keeps_its_calls_in_order(ids: list[str]) -> None:
    calls = [ToolCall(call_id, "tool", {}) for call_id in ids]
    turn = ModelTurn(tool_calls=calls)  # a list is accepted and stored as a tuple
    assert [call.call_id for call in turn.tool_calls] == ids
    assert isinstance(turn.tool_calls, tuple)


def test_exactly_one_of_final_text_or_tool_calls() -> None:
    call = ToolCall("call-1", "tool", {})
    with pytest.raises(InvalidModelTurnError, match=r"exactly one.*neither"):
        ModelTurn()
    with pytest.raises(InvalidModelTurnError, match=r"exactly one.*both"):
        ModelTurn(final_text="done", tool_calls=(call,))


@pytest.mark.parametrize("text", ["", "   ", 7])
def test_final_text_must_be_non_blank_text(text: Any) -> None:
    with pytest.raises(InvalidModelTurnError, match="final_text"):
        ModelTurn(final_text=text)


def test_every_call_must_be_a_tool_call() -> None:
    with pytest.raises(InvalidModelTurnError, match=r"tool_calls\[1\] must be a ToolCall"):
        ModelTurn(tool_calls=(ToolCall("a", "tool", {}), {"call_id": "b"}))  # type: ignore[arg-type]


@given(call_id=names, count=st.integers(min_value=2, max_value=4))
def test_a_call_id_may_not_repeat_within_a_turn(call_id: str, count: int) -> None:
    calls = tuple(ToolCall(call_id, f"tool_{index}", {}) for index in range(count))
    with pytest.raises(InvalidModelTurnError, match="repeats call_id"):
        ModelTurn(tool_calls=calls)


def test_provider_items_must_be_json_and_are_frozen() -> None:
    turn = ModelTurn(final_text="hi", provider_items=[{"type": "reasoning", "summary": []}])
    assert turn.provider_items == ({"type": "reasoning", "summary": []},)
    with pytest.raises(TypeError):
        turn.provider_items[0]["type"] = "changed"
    with pytest.raises(InvalidModelTurnError, match="provider_items"):
        ModelTurn(final_text="hi", provider_items=[object()])


def test_tool_call_and_model_turn_print_readably() -> None:
    call = ToolCall("call-weather", "get_teaching_weather", {"city": "Tokyo"})
    assert repr(call) == (
        "ToolCall(call_id='call-weather', name='get_teaching_weather', arguments={'city': 'Tokyo'})"
    )


def test_a_model_turn_prints_only_what_it_holds() -> None:
    call = ToolCall("c1", "tool", {})
    assert repr(ModelTurn(final_text="done")) == "ModelTurn(final_text='done')"
    assert repr(ModelTurn(tool_calls=(call,))) == (
        "ModelTurn(tool_calls=(ToolCall(call_id='c1', name='tool', arguments={}),))"
    )
    assert repr(ModelTurn(final_text="ok", provider_items=[{"type": "reasoning"}])) == (
        "ModelTurn(final_text='ok', provider_items=({'type': 'reasoning'},))"
    )


def test_arguments_that_contain_themselves_or_huge_numbers_are_rejected() -> None:
    cyclic: dict[str, Any] = {}
    cyclic["self"] = cyclic
    with pytest.raises(InvalidModelTurnError, match="nested too deeply"):
        ToolCall("c1", "tool", cyclic)
    with pytest.raises(InvalidModelTurnError, match="too large"):
        ToolCall("c1", "tool", {"n": 10**5000})
    assert ToolCall("c1", "tool", {"n": 10**100}).arguments == {"n": 10**100}


@pytest.mark.parametrize("items", [{"type": "reasoning"}, "reasoning", {1, 2}, {}, "", set(), 0])
def test_provider_items_must_be_a_list_or_tuple(items: Any) -> None:
    with pytest.raises(InvalidModelTurnError, match="list or tuple"):
        ModelTurn(final_text="hi", provider_items=items)


@pytest.mark.parametrize(
    "build",
    [
        lambda: ToolCall("c1", "n", "x" * 10_000_000),
        lambda: ToolCall("c1", "n", {"text": "\ud83d" * 10_000_000}),
        lambda: ModelTurn(final_text=["x"] * 10_000_000),
    ],
    ids=["arguments-huge-string", "huge-lone-surrogate", "final-text-huge-list"],
)
def test_a_huge_bad_value_gets_a_short_message(build: Any) -> None:
    with pytest.raises(InvalidModelTurnError) as caught:
        build()
    assert len(str(caught.value)) < 1_000


@pytest.mark.parametrize("text", ["\u200b", "\x00", "\u2060", "call\n1", "a\u200bb"])
@pytest.mark.parametrize("field_name", ["call_id", "name"])
def test_an_id_or_a_name_with_an_invisible_or_control_character_is_refused(
    text: str, field_name: str
) -> None:
    fields = {"call_id": "call-1", "name": "get_weather", field_name: text}
    with pytest.raises(InvalidModelTurnError, match=f"ToolCall.{field_name} must be printable"):
        ToolCall(**fields)


def test_tool_calls_and_model_turns_are_hashable_and_equal_ones_hash_alike() -> None:
    arguments = {"city": "Tokyo", "options": [1, {"units": "C"}]}
    call = ToolCall("call-1", "get_teaching_weather", arguments)
    same = ToolCall("call-1", "get_teaching_weather", copy.deepcopy(arguments))
    other = ToolCall("call-2", "get_teaching_weather", arguments)
    assert hash(call) == hash(same) and len({call, same, other}) == 2
    turn = ModelTurn(tool_calls=[call, other])
    assert hash(turn) == hash(ModelTurn(tool_calls=[same, other]))
    assert {turn: "seen"}[ModelTurn(tool_calls=[same, other])] == "seen"
