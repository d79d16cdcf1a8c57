"""agentcore: a small, typed tool-calling agent runtime for teaching.

It follows the chapter "turn a fixed tool script into an agent runtime": the model proposes
the next step, the runtime manages it, the tool implements it.

Every public name is importable from here. ``import agentcore`` loads only pydantic; the
DeepSeek adapter (``openai``) and the widgets (``ipywidgets``) load when first used.
The local Responses API server for offline runs and tests is in :mod:`agentcore.testing`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agentcore.errors import (
    AgentRuntimeError,
    InvalidModelTurnError,
    MaxStepsExceeded,
    ModelError,
    ProviderAuthenticationError,
    ProviderConfigurationError,
    ProviderConnectionError,
    ProviderError,
    ProviderNotFoundError,
    ProviderPermissionError,
    ProviderRateLimitError,
    ProviderRequestError,
    ProviderResponseError,
    ProviderServerError,
    ProviderStatusError,
    ProviderTimeoutError,
    ScriptExhaustedError,
    ToolArgumentsError,
    ToolBudgetExceeded,
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
from agentcore.runtime import AgentRun, AgentRuntime, RunResult, ToolErrorPolicy
from agentcore.scripted import ScriptedModel, ScriptedWeatherModel, weather_request
from agentcore.teaching_tools import (
    CONVERSION_TOOL,
    DESCRIBE_TEMPERATURE_TOOL,
    TEACHING_WEATHER,
    WEATHER_TOOL,
    build_tools,
    celsius_to_fahrenheit,
    describe_temperature,
    get_teaching_weather,
)
from agentcore.tools import Tool, ToolRegistry
from agentcore.transcript import Message, TranscriptView

if TYPE_CHECKING:
    from agentcore.deepseek import DeepSeekResponsesModel

__all__ = [
    "CONVERSION_TOOL",
    "DESCRIBE_TEMPERATURE_TOOL",
    "TEACHING_WEATHER",
    "WEATHER_TOOL",
    "AgentRun",
    "AgentRuntime",
    "AgentRuntimeError",
    "DeepSeekResponsesModel",
    "FinalAnswer",
    "InvalidModelTurnError",
    "MaxStepsExceeded",
    "Message",
    "Model",
    "ModelDecision",
    "ModelError",
    "ModelTurn",
    "ProviderAuthenticationError",
    "ProviderConfigurationError",
    "ProviderConnectionError",
    "ProviderError",
    "ProviderNotFoundError",
    "ProviderPermissionError",
    "ProviderRateLimitError",
    "ProviderRequestError",
    "ProviderResponseError",
    "ProviderServerError",
    "ProviderStatusError",
    "ProviderTimeoutError",
    "RunEvent",
    "RunFailed",
    "RunResult",
    "ScriptExhaustedError",
    "ScriptedModel",
    "ScriptedWeatherModel",
    "Tool",
    "ToolAction",
    "ToolArgumentsError",
    "ToolBudgetExceeded",
    "ToolCall",
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
    "get_teaching_weather",
    "weather_request",
]


def __getattr__(name: str) -> Any:
    """Load the DeepSeek adapter on first use, so ``import agentcore`` never imports openai."""
    if name == "DeepSeekResponsesModel":
        from agentcore.deepseek import DeepSeekResponsesModel

        return DeepSeekResponsesModel
    raise AttributeError(f"module 'agentcore' has no attribute {name!r}")
