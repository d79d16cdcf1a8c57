"""The typed errors (chapter section 7): every exported one round-trips with its record.

Each error is built as the runtime builds it (raised in a run, which attaches the transcript
and the counts; a provider error raised inside ``Model.generate`` as an adapter raises it;
a schema refusal by ``Tool(...)``), then pickled, copied and deep-copied: the copy has the
same type, message, type-specific fields and run record, and compares equal.
"""

from __future__ import annotations

import copy
import inspect
import pickle
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict

import agentcore
from agentcore import (
    AgentRuntime,
    AgentRuntimeError,
    Message,
    ModelError,
    ModelTurn,
    ScriptedModel,
    StrictSchemaError,
    Tool,
    ToolCall,
    ToolSchema,
)
from agentcore.providers import errors as provider_errors


class EchoArguments(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str


def echo(text: str) -> str:
    if text == "boom":
        raise ValueError("the service is down")
    return text


def run_failing(turns: Sequence[ModelTurn] | Any, **settings: Any) -> AgentRuntimeError:
    """Run an echo agent on a script (or a model) until it fails; return the run's error."""
    model = ScriptedModel(turns) if isinstance(turns, Sequence) else turns
    runtime = AgentRuntime(model, [Tool("echo", "Echo.", EchoArguments, echo)], **settings)
    with pytest.raises(AgentRuntimeError) as raised:
        runtime.run("Echo something.")
    assert raised.value.carries_run
    return raised.value


def call(text: Any, call_id: str = "call-1", name: str = "echo") -> ModelTurn:
    return ModelTurn(tool_calls=(ToolCall(call_id, name, {"text": text}),))


class Raising:
    """A model whose first turn raises ``error`` (as an adapter raises a provider error)."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def generate(self, messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        raise self.error


class Returning:
    def generate(self, messages: Sequence[Message], tools: Sequence[ToolSchema]) -> Any:
        return {"final_text": "not a ModelTurn"}


def strict_refusal() -> StrictSchemaError:
    class Open(BaseModel):
        city: str

    with pytest.raises(StrictSchemaError) as raised:
        Tool("weather", "Weather.", Open, lambda city: city)
    return raised.value


def attached(error: AgentRuntimeError) -> AgentRuntimeError:
    """The base class is never raised by the runtime itself: give it a record by hand."""
    error.attach_run([{"role": "user", "content": "Go."}], 1, 0)
    return error


P = provider_errors
BUILDERS: dict[str, Callable[[], BaseException]] = {
    "AgentRuntimeError": lambda: attached(AgentRuntimeError("Something went wrong.")),
    "InvalidModelTurnError": lambda: run_failing(Returning()),
    "UnknownToolError": lambda: run_failing([call("x", name="delete_everything")]),
    "ToolArgumentsError": lambda: run_failing([call(3)]),
    "ToolExecutionError": lambda: run_failing([call("ok"), call("boom", "call-2")]),
    "ToolError": lambda: agentcore.ToolError("No record for Atlantis; ask for a real city."),
    "MaxStepsExceeded": lambda: run_failing([call("a"), call("b", "call-2")], max_steps=1),
    "ToolBudgetExceeded": lambda: run_failing([call("a")], max_tool_calls=0),
    "ModelError": lambda: run_failing(Raising(ValueError("the model broke"))),
    "ScriptExhaustedError": lambda: run_failing([call("a")]),
    "StrictSchemaError": strict_refusal,
    "ProviderError": lambda: run_failing(Raising(P.ProviderError("It failed.", hint="Retry."))),
    "ProviderConfigurationError": lambda: run_failing(
        Raising(P.ProviderConfigurationError("DEEPSEEK_API_KEY is not set.", hint="Set it."))
    ),
    "ProviderSettingsError": lambda: run_failing(
        Raising(
            P.ProviderSettingsError(
                "HTTPS_PROXY",
                "socks4://<redacted>@proxy.example:1080",
                "its scheme 'socks4' is not one of http, https, socks5, socks5h",
                hint="Set it to an http:// proxy URL, or unset it.",
            )
        )
    ),
    "ServerQuirkError": lambda: run_failing(
        Raising(
            P.ServerQuirkError(
                "The arguments of function 'get_teaching_weather' hold several JSON objects.",
                quirk="concatenated-arguments",
                fix="turn streaming off",
                profile="ollama",
                hint="No tool ran for this turn.",
                rejected=[{"role": "assistant", "content": None}],
            )
        )
    ),
    "ProviderRequestError": lambda: run_failing(
        Raising(P.ProviderRequestError("The output 'c9' has no call.", hint="Keep pairs."))
    ),
    "ProviderConnectionError": lambda: run_failing(
        Raising(P.ProviderConnectionError("Nothing answered at http://127.0.0.1:9.", hint="Go."))
    ),
    "ProviderTimeoutError": lambda: run_failing(
        Raising(P.ProviderTimeoutError("No reply within 5 s.", hint="Raise timeout="))
    ),
    "ProviderStatusError": lambda: run_failing(
        Raising(P.ProviderStatusError(402, "Insufficient Balance"))
    ),
    "ProviderResponseError": lambda: run_failing(
        Raising(
            P.ProviderResponseError(
                "The reply had an empty call_id.",
                kind="call id",
                hint="Check the provider.",
                status_code=200,
                rejected=[{"type": "function_call", "call_id": ""}],
            )
        )
    ),
}


def exported_errors() -> list[type[BaseException]]:
    """Every exception class the package exports, from the runtime and the providers."""
    return sorted(
        {
            value
            for name in agentcore.__all__
            if inspect.isclass(value := getattr(agentcore, name))
            and issubclass(value, BaseException)
        }
        | {
            value
            for _, value in inspect.getmembers(provider_errors, inspect.isclass)
            if issubclass(value, BaseException) and value.__module__ == provider_errors.__name__
        },
        key=lambda kind: kind.__name__,
    )


def test_every_exported_error_has_a_builder() -> None:
    names = {kind.__name__ for kind in exported_errors()}
    assert names == set(BUILDERS)


@pytest.mark.parametrize("kind", exported_errors(), ids=lambda kind: kind.__name__)
def test_every_exported_error_round_trips_with_its_fields_and_record(
    kind: type[BaseException],
) -> None:
    error = BUILDERS[kind.__name__]()
    assert type(error) is kind
    fields = dict(vars(error))
    # ToolError's one field is its message (public_message reads its first argument).
    assert fields or kind is agentcore.ToolError, "an exported error carries its fields"
    for again in (pickle.loads(pickle.dumps(error)), copy.copy(error), copy.deepcopy(error)):
        assert type(again) is kind
        assert str(again) == str(error) and repr(again) == repr(error)
        assert vars(again) == fields  # the record and every type-specific field
        assert getattr(again, "public_message", None) == getattr(error, "public_message", None)
        if isinstance(error, AgentRuntimeError):
            assert again == error and hash(again) == hash(error)
            assert again.messages and again.messages == error.messages


def test_a_status_error_keeps_its_record_and_its_fields() -> None:
    # Was: ProviderStatusError.__reduce__ kept only the status and the provider's message, so
    # a pickled status error from a run lost the transcript and the counts.
    error = BUILDERS["ProviderStatusError"]()
    assert isinstance(error, provider_errors.ProviderStatusError)
    again = pickle.loads(pickle.dumps(error))
    assert again.messages == [{"role": "user", "content": "Echo something."}]
    assert (again.model_turns, again.tool_executions) == (1, 0)
    assert (again.status_code, again.provider_message, again.kind) == (
        402,
        "Insufficient Balance",
        402,
    )
    assert again.hint == error.hint and "Top up" in again.hint


def test_a_rejected_reply_stays_in_the_copied_record() -> None:
    error = BUILDERS["ProviderResponseError"]()
    assert isinstance(error, ModelError)
    assert isinstance(error, provider_errors.ProviderResponseError)
    again = copy.deepcopy(error)
    assert again.rejected == ({"type": "function_call", "call_id": ""},)
    assert again.kind == "call id"  # the cause, which explain() reads, is kept
    assert again.messages[-1]["rejected"] == [{"type": "function_call", "call_id": ""}]


def test_errors_differ_when_what_they_say_differs() -> None:
    assert ModelError("a") != ModelError("b")
    assert ModelError("a") != AgentRuntimeError("a")
    first, second = ModelError("a"), ModelError("a")
    second.attach_run([{"role": "user", "content": "Go."}], 1, 0)
    assert first != second


def test_a_failed_runs_record_stays_as_it_was_in_the_error_and_its_copies() -> None:
    run = AgentRuntime(ScriptedModel([]), []).start("Go.")
    with pytest.raises(ModelError) as caught:
        run.finish()
    error = caught.value
    for record in (error, pickle.loads(pickle.dumps(error)), copy.deepcopy(error)):
        with pytest.raises(TypeError, match="read-only"):
            record.messages.append({"role": "user", "content": "rewritten"})
        with pytest.raises(TypeError, match="read-only"):
            record.messages[0] = {"role": "user", "content": "rewritten"}
        assert record.messages == [{"role": "user", "content": "Go."}]
