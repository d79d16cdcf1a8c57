"""The chapter's weather task: a scripted stand-in for the model and its requests (section 8).

:class:`ScriptedWeatherModel` decides only from the observations already in the transcript,
so the same transcript always gives the same turn. :func:`weather_request` words the user's
request for each task in English or Simplified Chinese.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from agentcore.course.teaching_tools import TEACHING_WEATHER
from agentcore.course.text import Language, phrase, resolve_language
from agentcore.protocol import ModelTurn, ToolCall, ToolSchema
from agentcore.transcript import Message

Task = Literal["convert", "weather", "greet", "describe"]

TASKS: tuple[Task, ...] = ("convert", "weather", "greet", "describe")

ZH_CN_WORDS: dict[str, str] = {
    word: phrase(f"teaching weather.{word}", "zh-CN")
    for word in ("Tokyo", "Paris", "cloudy", "light rain", "cold", "mild", "hot")
}
"""The Chinese names of the teaching data's cities, conditions and temperature words."""


def weather_request(
    city: str = "Tokyo", task: Task = "convert", language: Language | None = None
) -> str:
    """Return a user request that fits a :class:`ScriptedWeatherModel` task, in ``language``.

    ``language`` defaults to :func:`agentcore.course.text.current_language`. The scripted
    model ignores the wording; a real model (lesson 05) reads it. Raises ``ValueError`` for
    an unknown city, task or language.
    """
    language = _check_options(city, task, language)
    name = ZH_CN_WORDS[city] if language == "zh-CN" else city
    return phrase(f"user request.{task}", language, city=name)


def _check_options(city: str, task: str, language: object) -> Language:
    if city not in TEACHING_WEATHER:
        raise ValueError(f"city must be one of {sorted(TEACHING_WEATHER)}, got {city!r}")
    if task not in TASKS:
        raise ValueError(f"task must be one of {list(TASKS)}, got {task!r}")
    return resolve_language(language)


def _latest_observations(messages: Sequence[Message]) -> dict[str, Any]:
    """Tool name -> the parsed content of its most recent observation."""
    observed: dict[str, Any] = {}
    for message in messages:
        if message.get("role") == "tool":
            observed[message["name"]] = json.loads(message["content"])
    return observed


def _is_failure(observation: Any) -> bool:
    """An observation that the ``on_tool_error="observe"`` policy wrote for a failed handler."""
    return isinstance(observation, dict) and observation.get("error") is not None


class ScriptedWeatherModel:
    """The chapter's deterministic stand-in for a model (section 8).

    Options: ``city`` (``"Tokyo"`` or ``"Paris"``), ``task`` and ``language`` (``"en"`` or
    ``"zh-CN"``, the language of its final text; default
    :func:`agentcore.course.text.current_language` when the model is built). Raises
    ``ValueError`` for any other value.

    Tasks, each decided only from the observations in the transcript:

    * ``"convert"`` (default): weather (``call-weather``), then conversion
      (``call-convert``), then the final text. With the defaults a verbose run prints the
      chapter's trace.
    * ``"weather"``: weather, then the final text.
    * ``"greet"``: a final text at once, no tool.
    * ``"describe"``: as ``"convert"``, then ``describe_temperature`` (``call-describe``,
      the third tool of section 12), then the final text.

    If an observation reports a failure (the runtime's ``on_tool_error="observe"`` policy),
    it answers that the tool failed instead of going on.
    """

    def __init__(
        self, city: str = "Tokyo", task: Task = "convert", language: Language | None = None
    ):
        self.language: Language = _check_options(city, task, language)
        self.city = city
        self.task: Task = task

    def generate(self, messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        """Return the next turn of the task; ``tools`` is ignored (the script is fixed)."""
        observed = _latest_observations(messages)
        failures = [name for name, seen in observed.items() if _is_failure(seen)]
        failure = failures[0] if failures else None
        if failure is not None:
            return ModelTurn(final_text=self._failure_text(failure))
        if self.task == "greet":
            return ModelTurn(final_text=self._text("greet"))

        weather = observed.get("get_teaching_weather")
        if weather is None:
            return _call("call-weather", "get_teaching_weather", city=self.city)
        if self.task == "weather":
            return ModelTurn(final_text=self._text("weather", weather))

        conversion = observed.get("celsius_to_fahrenheit")
        if conversion is None:
            return _call(
                "call-convert", "celsius_to_fahrenheit", temperature_c=weather["temperature_c"]
            )
        if self.task == "convert":
            return ModelTurn(final_text=self._text("convert", weather, conversion))

        description = observed.get("describe_temperature")
        if description is None:
            return _call(
                "call-describe", "describe_temperature", temperature_f=conversion["temperature_f"]
            )
        return ModelTurn(final_text=self._text("describe", weather, conversion, description))

    def _text(
        self,
        kind: str,
        weather: Mapping[str, Any] | None = None,
        conversion: Mapping[str, Any] | None = None,
        description: Mapping[str, Any] | None = None,
    ) -> str:
        language = self.language
        if kind == "greet":
            return phrase("final answer.greet", language)
        assert weather is not None
        city, condition = weather["city"], weather["condition"]
        temperature = f"{weather['temperature_c']}°C"
        if conversion is not None:
            temperature += phrase(
                "final answer.fahrenheit", language, fahrenheit=conversion["temperature_f"]
            )
        if language == "zh-CN":
            city, condition = ZH_CN_WORDS[city], ZH_CN_WORDS[condition]
        text = phrase(
            "final answer.record", language, city=city, temperature=temperature, condition=condition
        )
        if description is not None:
            text += phrase(f"final answer.describe.{description['description']}", language)
        return text + phrase("final answer.end", language)

    def _failure_text(self, tool: str) -> str:
        return phrase("final answer.tool failed", self.language, tool=tool)

    def __repr__(self) -> str:
        return (
            f"ScriptedWeatherModel(city={self.city!r}, task={self.task!r}, "
            f"language={self.language!r})"
        )


def _call(call_id: str, name: str, **arguments: Any) -> ModelTurn:
    return ModelTurn(tool_calls=(ToolCall(call_id, name, arguments),))
