"""The course's teaching tools: fixed weather records and two small conversions.

The records are fixed teaching data, never live weather (the chapter's running example):
Tokyo 18.0 °C cloudy, Paris 12.0 °C light rain. ``celsius_to_fahrenheit(18.0)`` gives 64.4 °F.

``build_tools()`` returns the chapter's two default tools. ``DESCRIBE_TEMPERATURE_TOOL`` is
the third tool of the experiments in chapter section 12; it is not in the default list, so
adding it is something you do on purpose.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from agentcore.tools import Tool

TEACHING_WEATHER: dict[str, dict[str, float | str]] = {
    "Tokyo": {"temperature_c": 18.0, "condition": "cloudy"},
    "Paris": {"temperature_c": 12.0, "condition": "light rain"},
}
"""City -> fixed record (temperature in °C, condition in English)."""

COLD_BELOW_F = 50.0
"""Below 50 °F (10 °C) ``describe_temperature`` says "cold"."""
HOT_FROM_F = 77.0
"""From 77 °F (25 °C) up ``describe_temperature`` says "hot"; in between is "mild"."""


class WeatherArguments(BaseModel):
    """Arguments of ``get_teaching_weather``: only the two cities that have records."""

    model_config = ConfigDict(extra="forbid", strict=True)

    city: Literal["Tokyo", "Paris"] = Field(description="City whose teaching record to read.")


class CelsiusArguments(BaseModel):
    """Arguments of ``celsius_to_fahrenheit``: a finite temperature in °C."""

    model_config = ConfigDict(extra="forbid", strict=True)

    temperature_c: float = Field(description="Temperature in degrees Celsius.", allow_inf_nan=False)


class FahrenheitArguments(BaseModel):
    """Arguments of ``describe_temperature``: a finite temperature in °F."""

    model_config = ConfigDict(extra="forbid", strict=True)

    temperature_f: float = Field(
        description="Temperature in degrees Fahrenheit.", allow_inf_nan=False
    )


def _require_finite(value: float, name: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")


def get_teaching_weather(city: str) -> dict[str, float | str]:
    """Return the fixed teaching record of ``city``.

    Input: ``"Tokyo"`` or ``"Paris"``. Output: ``{"city", "temperature_c" (°C),
    "condition"}``. Raises ``ValueError`` for any other city (there is no live weather here).
    """
    record = TEACHING_WEATHER.get(city)
    if record is None:
        raise ValueError(
            f"No teaching record for {city!r}; known cities: {sorted(TEACHING_WEATHER)}"
        )
    return {"city": city, **record}


def celsius_to_fahrenheit(temperature_c: float) -> dict[str, float]:
    """Convert °C to °F, rounded to 0.1 °F: ``{"temperature_f": ...}``.

    Raises ``ValueError`` for NaN, infinity or a non-number. ``18.0`` gives ``64.4``.
    """
    _require_finite(temperature_c, "temperature_c")
    return {"temperature_f": round(temperature_c * 9 / 5 + 32, 1)}


def describe_temperature(temperature_f: float) -> dict[str, float | str]:
    """Classify a temperature in °F: ``{"temperature_f", "description"}``.

    ``"cold"`` below 50 °F, ``"hot"`` from 77 °F, ``"mild"`` in between (64.4 °F is mild).
    Raises ``ValueError`` for NaN, infinity or a non-number.
    """
    _require_finite(temperature_f, "temperature_f")
    if temperature_f < COLD_BELOW_F:
        description = "cold"
    elif temperature_f >= HOT_FROM_F:
        description = "hot"
    else:
        description = "mild"
    return {"temperature_f": temperature_f, "description": description}


WEATHER_TOOL = Tool(
    name="get_teaching_weather",
    description="Read the fixed teaching weather record (°C and condition) of Tokyo or Paris.",
    arguments_model=WeatherArguments,
    handler=get_teaching_weather,
)
CONVERSION_TOOL = Tool(
    name="celsius_to_fahrenheit",
    description="Convert a temperature from degrees Celsius to degrees Fahrenheit.",
    arguments_model=CelsiusArguments,
    handler=celsius_to_fahrenheit,
)
DESCRIBE_TEMPERATURE_TOOL = Tool(
    name="describe_temperature",
    description="Describe a temperature in degrees Fahrenheit as cold, mild or hot.",
    arguments_model=FahrenheitArguments,
    handler=describe_temperature,
)


def build_tools() -> list[Tool]:
    """Return the chapter's default tools: weather lookup, then °C to °F conversion."""
    return [WEATHER_TOOL, CONVERSION_TOOL]
