"""The teaching tools: fixed records and conversions (COURSE-MAP facts)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentcore import (
    DESCRIBE_TEMPERATURE_TOOL,
    ToolArgumentsError,
    build_tools,
    celsius_to_fahrenheit,
    describe_temperature,
    get_teaching_weather,
)


def test_the_fixed_records() -> None:
    assert get_teaching_weather("Tokyo") == {
        "city": "Tokyo",
        "temperature_c": 18.0,
        "condition": "cloudy",
    }
    assert get_teaching_weather("Paris") == {
        "city": "Paris",
        "temperature_c": 12.0,
        "condition": "light rain",
    }
    with pytest.raises(ValueError, match="No teaching record for 'Berlin'"):
        get_teaching_weather("Berlin")


def test_conversion_of_the_teaching_values() -> None:
    assert celsius_to_fahrenheit(18.0) == {"temperature_f": 64.4}
    assert celsius_to_fahrenheit(12.0) == {"temperature_f": 53.6}
    assert celsius_to_fahrenheit(-40.0) == {"temperature_f": -40.0}


@given(st.floats(min_value=-273.15, max_value=1e6))
def test_conversion_matches_the_formula_to_a_tenth(celsius: float) -> None:
    result = celsius_to_fahrenheit(celsius)["temperature_f"]
    assert abs(result - (celsius * 1.8 + 32)) <= 0.05 + 1e-9 * abs(celsius)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, "18", True])
def test_conversion_refuses_what_is_not_a_finite_number(bad: object) -> None:
    with pytest.raises(ValueError, match="finite number"):
        celsius_to_fahrenheit(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fahrenheit", "word"),
    [(49.9, "cold"), (50.0, "mild"), (64.4, "mild"), (76.9, "mild"), (77.0, "hot")],
)
def test_describe_temperature_thresholds(fahrenheit: float, word: str) -> None:
    assert describe_temperature(fahrenheit) == {"temperature_f": fahrenheit, "description": word}


def test_default_tools_are_the_chapter_two_and_not_the_third() -> None:
    names = [tool.name for tool in build_tools()]
    assert names == ["get_teaching_weather", "celsius_to_fahrenheit"]
    assert DESCRIBE_TEMPERATURE_TOOL.name not in names
    assert build_tools() is not build_tools()  # a fresh list each time: appending is safe


def test_tool_schemas_limit_the_city_and_refuse_nan() -> None:
    weather, conversion = build_tools()
    assert weather.schema()["parameters"]["properties"]["city"]["enum"] == ["Tokyo", "Paris"]
    with pytest.raises(ToolArgumentsError):
        weather.validate({"city": "Berlin"})
    with pytest.raises(ToolArgumentsError):
        conversion.validate({"temperature_c": math.nan})
    with pytest.raises(ToolArgumentsError):
        conversion.validate({"temperature_c": "18"})
