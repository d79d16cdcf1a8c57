"""Lesson 05's appendix on a model of your own (05-appendix-local-model): ``profile_for_quirks``."""

from __future__ import annotations

from agentcore.course.judges.core import Judgement, Namespace, error_name, exercise, kind, spelled
from agentcore.course.teaching_tools import build_tools
from agentcore.course.weather import weather_request
from agentcore.errors import AgentRuntimeError
from agentcore.providers.chat_profiles import ChatProfile
from agentcore.runtime import AgentRuntime

PROFILE_QUIRKS = ("arguments-as-object", "missing-call-id")
"""The quirks of the loopback server in the exercise: arguments sent as JSON objects, calls
without an id (Ollama and llama-server do both)."""


@exercise("profile_for_quirks", ("my_profile",))
def profile_for_quirks(ns: Namespace) -> Judgement:
    """``my_profile``: the name of a profile that absorbs both quirks of :data:`PROFILE_QUIRKS`.

    A correct answer is a ``str``, exactly a key of ``CHAT_PROFILES`` (``"Ollama"`` or a
    profile object is not), under which the weather task, run through the real adapter against
    a loopback server playing both quirks at once, answers (a profile that absorbs one quirk
    only fails on the other with a typed error). Every profile that does is accepted; the
    check names none.
    """
    # Loaded only for this lesson: the adapter needs the openai SDK.
    from agentcore.course.offline_replies import weather_script
    from agentcore.providers.chat_profiles import CHAT_PROFILES
    from agentcore.providers.local_chat_server import LocalChatServer
    from agentcore.providers.openai_compatible import OpenAICompatibleChatModel

    profile = ns["my_profile"]
    names = ", ".join(CHAT_PROFILES)
    if type(profile) is not str:
        return False, "profile_not_a_name", {"kind": kind(profile), "names": names}
    # a name: case and surrounding blanks aside (core.spelled), nothing else
    profile = next((name for name in CHAT_PROFILES if spelled(name) == spelled(profile)), None)
    if profile is None:
        return False, "profile_unknown", {"names": names}
    with LocalChatServer(
        weather_script(), models=("local-model",), requires_key=False, quirks=PROFILE_QUIRKS
    ) as server:
        model = OpenAICompatibleChatModel(
            "local-model", base_url=server.base_url, profile=profile, max_retries=0
        )
        try:
            AgentRuntime(model, build_tools()).run(weather_request())
        except AgentRuntimeError as error:
            return False, _refusal(CHAT_PROFILES[profile]), {
                "profile": profile,
                "error": error_name(error),
            }
    return True, "profile_right", {}


def _refusal(profile: ChatProfile) -> str:
    """The hint key for a profile the run failed under: what this profile did with each quirk.

    ``arguments-as-object`` is absorbed when ``arguments_may_be_objects``, ``missing-call-id``
    when ``makes_missing_call_ids`` (:class:`~agentcore.providers.chat_profiles.ChatProfile`);
    a profile that absorbs both never gets here.
    """
    if profile.makes_missing_call_ids:
        return "profile_refused_objects"  # it made the ids, and refused the object arguments
    if profile.arguments_may_be_objects:
        return "profile_refused_ids"  # it took the object arguments, and refused the missing ids
    return "profile_refused_both"
