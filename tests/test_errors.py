"""The typed errors (chapter section 7): every one can be pickled and copied, and compares equal."""

from __future__ import annotations

import copy
import inspect
import pickle
from typing import Any

import pytest

import agentcore.errors
from agentcore import AgentRuntime, AgentRuntimeError, ModelError, ScriptedModel

SPECIAL_ARGUMENTS: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {
    "UnknownToolError": (("delete_everything", ["get_weather"]), {"call_id": "call-1"}),
    "ToolArgumentsError": (
        ("echo", [{"loc": ("text",), "msg": "Input should be a valid string", "type": "x"}]),
        {"call_id": "call-1"},
    ),
    "ToolExecutionError": (("echo", "failed: ValueError: no"), {"call_id": "call-1"}),
    "ModelError": (("The reply was refused",), {"rejected": [{"type": "message"}]}),
}


def error_classes() -> list[type[AgentRuntimeError]]:
    return [
        value
        for _, value in inspect.getmembers(agentcore.errors, inspect.isclass)
        if issubclass(value, AgentRuntimeError)
    ]


def build(kind: type[AgentRuntimeError]) -> AgentRuntimeError:
    if kind.__name__ in SPECIAL_ARGUMENTS:
        args, kwargs = SPECIAL_ARGUMENTS[kind.__name__]
        return kind(*args, **kwargs)
    parameters = inspect.signature(kind).parameters
    kwargs = {}
    if "status_code" in parameters:
        kwargs["status_code"] = 429
    if "hint" in parameters:
        kwargs["hint"] = "Wait, then retry."
    return kind("Something went wrong.", **kwargs)


@pytest.mark.parametrize("kind", error_classes(), ids=lambda kind: kind.__name__)
def test_every_error_pickles_and_copies_equal(kind: type[AgentRuntimeError]) -> None:
    error = build(kind)
    error.attach_run([{"role": "user", "content": "Go."}], 1, 0)
    for again in (pickle.loads(pickle.dumps(error)), copy.copy(error), copy.deepcopy(error)):
        assert type(again) is kind
        assert again == error and hash(again) == hash(error)
        assert str(again) == str(error) and repr(again) == repr(error)
        assert again.messages == [{"role": "user", "content": "Go."}]


def test_an_error_from_a_run_pickles_with_its_record() -> None:
    with pytest.raises(ModelError) as caught:
        AgentRuntime(ScriptedModel([]), []).run("Go.")
    again = pickle.loads(pickle.dumps(caught.value))
    assert again == caught.value and again.messages == [{"role": "user", "content": "Go."}]


def test_errors_differ_when_what_they_say_differs() -> None:
    assert ModelError("a") != ModelError("b")
    assert ModelError("a") != AgentRuntimeError("a")
    first, second = ModelError("a"), ModelError("a")
    second.attach_run([{"role": "user", "content": "Go."}], 1, 0)
    assert first != second
