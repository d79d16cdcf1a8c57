"""The deterministic models (chapter sections 8 and 9)."""

from __future__ import annotations

import pytest

from agentcore import (
    DESCRIBE_TEMPERATURE_TOOL,
    AgentRuntime,
    Model,
    ModelTurn,
    ScriptedModel,
    ScriptedWeatherModel,
    ScriptExhaustedError,
    ToolCall,
    build_tools,
    weather_request,
)


def tool_call_ids(model: ScriptedWeatherModel) -> list[str]:
    tools = [*build_tools(), DESCRIBE_TEMPERATURE_TOOL]
    result = AgentRuntime(model, tools).run(weather_request(model.city, model.task))
    return [m["tool_call_id"] for m in result.messages if m["role"] == "tool"]


def test_scripted_models_satisfy_the_model_protocol() -> None:
    assert isinstance(ScriptedWeatherModel(), Model)
    assert isinstance(ScriptedModel([]), Model)


@pytest.mark.parametrize(
    ("task", "ids"),
    [
        ("convert", ["call-weather", "call-convert"]),
        ("weather", ["call-weather"]),
        ("greet", []),
        ("describe", ["call-weather", "call-convert", "call-describe"]),
    ],
)
def test_each_task_has_its_trajectory(task: str, ids: list[str]) -> None:
    assert tool_call_ids(ScriptedWeatherModel(task=task)) == ids  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("city", "task", "language", "answer"),
    [
        (
            "Tokyo",
            "convert",
            "en",
            "Tokyo's deterministic teaching record is 18.0°C (64.4°F), cloudy.",
        ),
        (
            "Paris",
            "convert",
            "en",
            "Paris's deterministic teaching record is 12.0°C (53.6°F), light rain.",
        ),
        ("Tokyo", "weather", "en", "Tokyo's deterministic teaching record is 18.0°C, cloudy."),
        ("Tokyo", "convert", "zh-CN", "按教学数据，东京 18.0°C（64.4°F），多云。"),
        ("Paris", "weather", "zh-CN", "按教学数据，巴黎 12.0°C，小雨。"),
        (
            "Tokyo",
            "describe",
            "en",
            "Tokyo's deterministic teaching record is 18.0°C (64.4°F), cloudy; that is mild.",
        ),
    ],
)
def test_final_answers_come_from_the_observations(
    city: str, task: str, language: str, answer: str
) -> None:
    model = ScriptedWeatherModel(city, task, language)  # type: ignore[arg-type]
    tools = [*build_tools(), DESCRIBE_TEMPERATURE_TOOL]
    assert AgentRuntime(model, tools).run("anything").answer == answer


def test_it_decides_from_observations_not_from_the_request() -> None:
    model = ScriptedWeatherModel()
    first = model.generate([{"role": "user", "content": "Paris please"}], [])
    assert first.tool_calls == (
        ToolCall("call-weather", "get_teaching_weather", {"city": "Tokyo"}),
    )
    observed = [
        {"role": "user", "content": "x"},
        {
            "role": "tool",
            "tool_call_id": "call-weather",
            "name": "get_teaching_weather",
            "content": '{"city": "Tokyo", "temperature_c": 30.0, "condition": "cloudy"}',
        },
    ]
    second = model.generate(observed, [])
    assert second.tool_calls[0].arguments == {"temperature_c": 30.0}


@pytest.mark.parametrize(
    ("option", "value"), [("city", "Berlin"), ("task", "dance"), ("language", "fr")]
)
def test_invalid_options_fail_at_construction(option: str, value: str) -> None:
    with pytest.raises(ValueError, match=option):
        ScriptedWeatherModel(**{option: value})  # type: ignore[arg-type]


def test_weather_request_speaks_the_language() -> None:
    assert weather_request("Paris", "weather", "zh-CN") == "巴黎的教学天气怎么样？"
    assert "Tokyo" in weather_request()


def test_a_list_script_plays_in_order_and_can_assert_it_was_consumed() -> None:
    turns = [
        ModelTurn(tool_calls=(ToolCall("c1", "get_teaching_weather", {"city": "Paris"}),)),
        ModelTurn(final_text="Paris is 12.0°C."),
    ]
    model = ScriptedModel(turns)
    with pytest.raises(AssertionError, match=r"played 0 of its 2 scripted turns; never requested"):
        model.assert_consumed()
    result = AgentRuntime(model, build_tools()).run("Paris?")
    assert result.answer == "Paris is 12.0°C."
    model.assert_consumed()
    assert model.calls == 2 and model.remaining == 0


def test_a_call_past_the_end_of_the_script_is_a_clear_error_with_the_record() -> None:
    model = ScriptedModel(
        [ModelTurn(tool_calls=(ToolCall("c1", "get_teaching_weather", {"city": "Paris"}),))]
    )
    with pytest.raises(ScriptExhaustedError, match="turn 2 but its script has only 1") as caught:
        AgentRuntime(model, build_tools()).run("Paris?")
    assert caught.value.tool_executions == 1 and len(caught.value.messages) == 3


def test_a_script_must_hold_model_turns() -> None:
    with pytest.raises(TypeError, match=r"script\[0\] must be a ModelTurn"):
        ScriptedModel(["final answer"])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("script", "hint"),
    [(None, "got NoneType"), (ModelTurn(final_text="hi"), r"ScriptedModel\(\[turn\]\)")],
    ids=["none", "one-turn"],
)
def test_a_script_that_is_not_a_list_or_function_says_what_to_pass(
    script: object, hint: str
) -> None:
    with pytest.raises(TypeError, match=hint):
        ScriptedModel(script)  # type: ignore[arg-type]
