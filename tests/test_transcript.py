"""The frozen record: read-only JSON values that still behave like dicts and lists."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentcore.transcript import FrozenDict, FrozenList, TranscriptView, freeze

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text()
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=12,
)


@given(json_values)
def test_freeze_keeps_equality_and_json(value: Any) -> None:
    frozen = freeze(value)
    assert frozen == value
    assert json.dumps(frozen) == json.dumps(value)


@given(json_values)
def test_a_deep_copy_is_plain_and_mutable(value: Any) -> None:
    thawed = copy.deepcopy(freeze(value))
    assert thawed == value
    assert not isinstance(thawed, FrozenDict | FrozenList)


def test_every_mutation_is_refused() -> None:
    frozen = freeze({"a": [1, {"b": 2}]})
    mutations = [
        lambda: frozen.__setitem__("a", 1),
        lambda: frozen.pop("a"),
        lambda: frozen.update(c=1),
        lambda: frozen.setdefault("c", 1),
        lambda: frozen.clear(),
        lambda: frozen.popitem(),
        lambda: frozen["a"].append(3),
        lambda: frozen["a"].sort(),
        lambda: frozen["a"].pop(),
        lambda: frozen["a"][1].__setitem__("b", 3),
        lambda: frozen["a"].__setitem__(0, 9),
    ]
    for mutate in mutations:
        with pytest.raises(TypeError, match="read-only"):
            mutate()
    assert frozen == {"a": [1, {"b": 2}]}


def test_the_view_reads_like_a_list_but_cannot_change() -> None:
    messages: list[Any] = [freeze({"role": "user", "content": "hi"})]
    messages.append(freeze({"role": "assistant", "content": "hello"}))
    view = TranscriptView(messages)
    assert len(view) == 2 and view[-1]["content"] == "hello"
    assert [m["role"] for m in view] == ["user", "assistant"]
    assert not hasattr(view, "append")
    assert repr(view) == "TranscriptView(<2 messages>)"


def test_the_view_stays_at_the_length_it_was_made_with() -> None:
    # What a model was handed does not change after the call (issue 9, section 2).
    messages: list[Any] = [freeze({"role": "user", "content": "hi"})]
    view = TranscriptView(messages)
    messages.append(freeze({"role": "assistant", "content": "hello"}))
    assert len(view) == 1 and list(view) == [{"role": "user", "content": "hi"}]
    assert view[-1]["content"] == "hi" and view[0:] == [{"role": "user", "content": "hi"}]
    with pytest.raises(IndexError):
        view[1]
    assert view[::-1] == [{"role": "user", "content": "hi"}]


def test_every_message_read_from_the_view_is_a_fresh_copy() -> None:
    record: list[Any] = [freeze({"role": "user", "content": "hi", "parts": [{"n": 1}]})]
    view = TranscriptView(record)
    dict.__setitem__(view[0], "content", "forged")
    list.append(view[0]["parts"], {"n": 2})
    for message in view:
        dict.update(message, role="system")
    dict.clear(view[0:1][0])
    assert record == [{"role": "user", "content": "hi", "parts": [{"n": 1}]}]
    assert view[0] == record[0] and view[0] is not record[0]
    with pytest.raises(TypeError, match="read-only"):
        view[0]["content"] = "forged"
