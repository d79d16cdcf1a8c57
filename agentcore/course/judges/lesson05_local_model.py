"""Lesson 05's appendix on a model of your own (05-appendix-local-model): ``profile_for_quirks``."""

from __future__ import annotations

from agentcore.course.judges.core import Judgement, Namespace, error_name, exercise
from agentcore.course.teaching_tools import build_tools
from agentcore.course.weather import weather_request
from agentcore.errors import AgentRuntimeError
from agentcore.runtime import AgentRuntime

PROFILE_QUIRKS = ("arguments-as-object", "missing-call-id")
"""The quirks of the loopback server in the exercise: arguments sent as JSON objects, calls
without an id (Ollama and llama-server do both)."""


@exercise("profile_for_quirks", ("my_profile",))
def profile_for_quirks(ns: Namespace) -> Judgement:
    """``my_profile``: the name (a ``str``) of the profile under which the weather task
    answers against a server with :data:`PROFILE_QUIRKS`, tried through the real adapter."""
    # Loaded only for this lesson: the adapter needs the openai SDK.
    from agentcore.course.offline_replies import weather_script
    from agentcore.providers.chat_profiles import CHAT_PROFILES
    from agentcore.providers.local_chat_server import LocalChatServer
    from agentcore.providers.openai_compatible import OpenAICompatibleChatModel

    profile = ns["my_profile"]
    if type(profile) is not str or profile not in CHAT_PROFILES:
        return False, "profile_unknown", {"names": ", ".join(CHAT_PROFILES)}
    with LocalChatServer(
        weather_script(), models=("local-model",), requires_key=False, quirks=PROFILE_QUIRKS
    ) as server:
        model = OpenAICompatibleChatModel(
            "local-model", base_url=server.base_url, profile=profile, max_retries=0
        )
        try:
            AgentRuntime(model, build_tools()).run(weather_request())
        except AgentRuntimeError as error:
            return False, "profile_refused", {"error": error_name(error)}
    return True, "profile_right", {}
