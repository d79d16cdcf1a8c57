"""What the grade's two processes say to each other (agentcore.course.judges.wire): the
referee rebuilds only plain data and the package's own names from what the player sends."""

from __future__ import annotations

import os

import pytest

from agentcore.course.judges import wire
from agentcore.errors import ToolExecutionError
from agentcore.protocol import ModelTurn, ToolCall
from agentcore.tools import observation_text


class Sneaky(list):  # type: ignore[type-arg]
    """A learner's list whose methods lie: describing it must not call them."""

    def __iter__(self):  # type: ignore[no-untyped-def]
        raise AssertionError("describe called a learner's __iter__")

    def __eq__(self, other: object) -> bool:
        return True


def no_proxy(data: dict[str, object]) -> object:
    raise AssertionError(f"no proxy expected for {data}")


def round_trip(value: object) -> object:
    kept: list[object] = []
    return wire.rebuild(wire.describe(value, lambda v: kept.append(v) or len(kept) - 1), no_proxy)


def test_plain_data_and_protocol_values_come_back_as_the_referees_own() -> None:
    turn = ModelTurn(tool_calls=(ToolCall("call-1", "get_weather", {"city": "Paris"}),))
    value = {"a": [1, 2.5, True, None, ("x", b"\x00")], "turn": turn}
    assert round_trip(value) == value
    back = round_trip(Sneaky([1, 2]))
    assert type(back) is list and back == [1, 2]


def test_a_ref_names_only_a_function_or_class_defined_in_the_package() -> None:
    assert wire.resolve("agentcore.tools", "observation_text") is observation_text
    refused = [
        ("os", "system"),  # outside the package
        ("agentcore.course.judges.referee", "os.write"),  # an import reached through it
        ("agentcore.__main__", "main"),  # runs on import
        ("agentcore.course.judges.core", "GRADE_KEYS"),  # a table, not a function
        ("agentcore.course.judges.core", "GRADE_KEYS.update"),
        ("agentcore.tools", "Tool.__init__.__globals__"),
    ]
    for module, name in refused:
        with pytest.raises(wire.WireBroken):
            wire.resolve(module, name)


def test_a_learner_error_is_raised_again_under_its_name_and_standard_base() -> None:
    class MyError(ToolExecutionError):
        pass

    error = wire.rebuild_error(wire.describe_error(MyError("t", "failed: boom")))
    assert type(error).__name__ == "MyError" and isinstance(error, ToolExecutionError)
    interrupt = wire.rebuild_error(wire.describe_error(KeyboardInterrupt()))
    assert isinstance(interrupt, KeyboardInterrupt)
    with pytest.raises(wire.WireBroken):
        wire.rebuild_error({"kind": 3})


def test_frames_refuse_a_size_outside_the_limit_and_a_closed_pipe() -> None:
    read, write = os.pipe()
    wire.write_json(write, {"value": 1})
    assert wire.read_json(read) == {"value": 1}
    os.write(write, (wire.MAX_FRAME_BYTES + 1).to_bytes(4, "big"))
    with pytest.raises(wire.WireBroken):
        wire.read_frame(read)
    os.close(write)
    with pytest.raises(wire.WireBroken):
        wire.read_frame(read)
    os.close(read)


def test_a_description_that_is_not_one_is_refused() -> None:
    for data in ({"t": "list", "v": 3}, {"t": "dict", "v": [[{"t": "list", "v": []}, 1]]}, [1]):
        with pytest.raises(wire.WireBroken):
            wire.rebuild(data, no_proxy)
