"""agentcore: a small, typed tool-calling agent runtime for teaching.

It follows the chapter "turn a fixed tool script into an agent runtime": the model proposes
the next step, the runtime manages it, the tool implements it.

The layout shows the architecture:

* ``agentcore/`` (this folder): the runtime a learner reads, in the chapter's words:
  :mod:`~agentcore.protocol` (section 4), :mod:`~agentcore.tools` and
  :mod:`~agentcore.strict_schema` (section 5),
  :mod:`~agentcore.runtime` (section 6), :mod:`~agentcore.events`,
  :mod:`~agentcore.transcript`, :mod:`~agentcore.errors` (section 7) and
  :mod:`~agentcore.scripted` (section 8). None of them imports a provider, a widget or
  course material.
* ``agentcore/providers/``: adapters to real model APIs (section 10) and the loopback
  servers that speak their wire formats offline.
* ``agentcore/course/``: what the lessons use around the runtime: the weather task and its
  scripted stand-in, teaching tools, experiments, snapshots, widgets, the CLI and its text.

Every public name is importable from here. ``import agentcore`` loads only the runtime (and
pydantic); provider and course names load on first use, so openai, httpx and ipywidgets are
imported only by code that needs them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from agentcore.errors import (
    AgentRuntimeError,
    InvalidModelTurnError,
    MaxStepsExceeded,
    ModelError,
    ScriptExhaustedError,
    ToolArgumentsError,
    ToolBudgetExceeded,
    ToolError,
    ToolExecutionError,
    UnknownToolError,
)
from agentcore.events import (
    FinalAnswer,
    ModelDecision,
    RunEvent,
    RunFailed,
    ToolAction,
    ToolObservation,
)
from agentcore.protocol import Model, ModelTurn, ToolCall, ToolSchema
from agentcore.runtime import AgentRun, AgentRuntime, RunResult, RunStatus, ToolErrorPolicy
from agentcore.scripted import ScriptedModel
from agentcore.strict_schema import StrictSchemaError, strict_json_schema
from agentcore.tools import Tool, ToolRegistry
from agentcore.transcript import Message, TranscriptView

if TYPE_CHECKING:
    from agentcore.course.teaching_tools import (
        CONVERSION_TOOL,
        DESCRIBE_TEMPERATURE_TOOL,
        TEACHING_WEATHER,
        WEATHER_TOOL,
        build_tools,
        celsius_to_fahrenheit,
        describe_temperature,
        get_teaching_weather,
    )
    from agentcore.course.text import explain, set_language
    from agentcore.course.weather import ScriptedWeatherModel, weather_request
    from agentcore.providers.chat_profiles import CHAT_PROFILES, ChatProfile
    from agentcore.providers.deepseek import DeepSeekResponsesModel
    from agentcore.providers.deepseek_chat import DeepSeekChatModel
    from agentcore.providers.errors import (
        ProviderConfigurationError,
        ProviderConnectionError,
        ProviderError,
        ProviderRequestError,
        ProviderResponseError,
        ProviderSettingsError,
        ProviderStatusError,
        ProviderTimeoutError,
    )
    from agentcore.providers.openai_compatible import OpenAICompatibleChatModel

# Public names that live outside the runtime, and the module each one loads from on first use.
_LAZY: dict[str, str] = {
    "DeepSeekResponsesModel": "agentcore.providers.deepseek",
    "DeepSeekChatModel": "agentcore.providers.deepseek_chat",
    **dict.fromkeys(("CHAT_PROFILES", "ChatProfile"), "agentcore.providers.chat_profiles"),
    "OpenAICompatibleChatModel": "agentcore.providers.openai_compatible",
    **dict.fromkeys(
        (
            "ProviderConfigurationError",
            "ProviderConnectionError",
            "ProviderError",
            "ProviderRequestError",
            "ProviderResponseError",
            "ProviderSettingsError",
            "ProviderStatusError",
            "ProviderTimeoutError",
        ),
        "agentcore.providers.errors",
    ),
    "ScriptedWeatherModel": "agentcore.course.weather",
    "weather_request": "agentcore.course.weather",
    "set_language": "agentcore.course.text",
    "explain": "agentcore.course.text",
    **dict.fromkeys(
        (
            "CONVERSION_TOOL",
            "DESCRIBE_TEMPERATURE_TOOL",
            "TEACHING_WEATHER",
            "WEATHER_TOOL",
            "build_tools",
            "celsius_to_fahrenheit",
            "describe_temperature",
            "get_teaching_weather",
        ),
        "agentcore.course.teaching_tools",
    ),
}

__all__ = [
    "CHAT_PROFILES",
    "CONVERSION_TOOL",
    "DESCRIBE_TEMPERATURE_TOOL",
    "TEACHING_WEATHER",
    "WEATHER_TOOL",
    "AgentRun",
    "AgentRuntime",
    "AgentRuntimeError",
    "ChatProfile",
    "DeepSeekChatModel",
    "DeepSeekResponsesModel",
    "FinalAnswer",
    "InvalidModelTurnError",
    "MaxStepsExceeded",
    "Message",
    "Model",
    "ModelDecision",
    "ModelError",
    "ModelTurn",
    "OpenAICompatibleChatModel",
    "ProviderConfigurationError",
    "ProviderConnectionError",
    "ProviderError",
    "ProviderRequestError",
    "ProviderResponseError",
    "ProviderSettingsError",
    "ProviderStatusError",
    "ProviderTimeoutError",
    "RunEvent",
    "RunFailed",
    "RunResult",
    "RunStatus",
    "ScriptExhaustedError",
    "ScriptedModel",
    "ScriptedWeatherModel",
    "StrictSchemaError",
    "Tool",
    "ToolAction",
    "ToolArgumentsError",
    "ToolBudgetExceeded",
    "ToolCall",
    "ToolError",
    "ToolErrorPolicy",
    "ToolExecutionError",
    "ToolObservation",
    "ToolRegistry",
    "ToolSchema",
    "TranscriptView",
    "UnknownToolError",
    "build_tools",
    "celsius_to_fahrenheit",
    "describe_temperature",
    "explain",
    "get_teaching_weather",
    "set_language",
    "strict_json_schema",
    "weather_request",
]


def __getattr__(name: str) -> Any:
    """Load a provider or course name on first use (PEP 562), so the runtime imports alone."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'agentcore' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
