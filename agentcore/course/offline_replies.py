"""The scripts the loopback servers play for the course: the chapter's weather trajectory.

The servers of :mod:`agentcore.providers` play whatever
:class:`~agentcore.providers.local_server.Reply` objects they are given and know nothing of the
course; the course builds its script here and hands it in (the CLI's ``--offline`` runs and
lesson 05 do)::

    with LocalResponsesServer(weather_script()) as server:
        ...
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from agentcore.course.teaching_tools import DESCRIBE_TEMPERATURE_TOOL, build_tools
from agentcore.course.text import Language
from agentcore.course.weather import ScriptedWeatherModel, Task, weather_request
from agentcore.providers.local_server import Reply, function_call, message
from agentcore.runtime import AgentRuntime


def weather_script(
    city: str = "Tokyo", task: Task = "convert", language: Language = "en"
) -> list[Reply]:
    """Return the replies that play the chapter's weather trajectory over the wire.

    The replies are exactly the turns :class:`agentcore.ScriptedWeatherModel` takes for the
    same ``city``, ``task`` and ``language`` (same call ids ``call-weather``,
    ``call-convert``, same final text): the scripted model is run once through
    :class:`agentcore.AgentRuntime` and each of its turns becomes a :class:`Reply`. The same
    script plays on :class:`~agentcore.providers.local_server.LocalResponsesServer` and
    :class:`~agentcore.providers.local_chat_server.LocalChatServer`. Raises ``ValueError``
    for an unknown city, task or language.
    """
    tools = build_tools()
    if task == "describe":
        tools.append(DESCRIBE_TEMPERATURE_TOOL)
    model = ScriptedWeatherModel(city=city, task=task, language=language)
    result = AgentRuntime(model, tools).run(weather_request(city, task, language))
    return [_reply_for(turn) for turn in result.messages if turn["role"] == "assistant"]


def _reply_for(turn: Mapping[str, Any]) -> Reply:
    calls: Sequence[Mapping[str, Any]] = turn.get("tool_calls", [])
    if calls:
        return Reply(
            output=tuple(
                function_call(call["name"], call["arguments"], call["call_id"]) for call in calls
            )
        )
    return Reply(output=(message(turn["content"]),))
