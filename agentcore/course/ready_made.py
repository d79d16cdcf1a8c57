"""Lesson 06's ready-made parts: the reminder runtime and the check that the runtime is unchanged.

Lesson 06 imports them from :mod:`agentcore.course.checks`; they live here, outside the
judges, so that a grade's player (which holds no judge) has them too
(:mod:`agentcore.course.judges.grading_checks`).
"""

from __future__ import annotations

import hashlib
import inspect
import json
import linecache
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from agentcore import runtime as _runtime_module
from agentcore.course.text import phrase
from agentcore.protocol import ModelTurn, ToolCall
from agentcore.runtime import AgentRun, AgentRuntime
from agentcore.scripted import ScriptedModel
from agentcore.tools import Tool

_RUNTIME_SOURCE_HASH = hashlib.sha256(inspect.getsource(_runtime_module).encode()).hexdigest()
_RUNTIME_CLASSES = (AgentRuntime, AgentRun)
_RUNTIME_ATTRIBUTES = {cls: dict(vars(cls)) for cls in _RUNTIME_CLASSES}


def runtime_unchanged() -> bool:
    """Whether ``agentcore.runtime`` is as it was when this module was imported.

    Compares a SHA-256 of the module's source (read again from disk) with the hash taken at
    import, and every attribute of ``AgentRuntime`` and ``AgentRun`` with the ones seen then
    (so a monkeypatched method shows too). Returns a bool; never raises.
    """
    try:
        linecache.checkcache(_runtime_module.__file__)
        source = inspect.getsource(_runtime_module)
    except (OSError, TypeError):
        return False
    if hashlib.sha256(source.encode()).hexdigest() != _RUNTIME_SOURCE_HASH:
        return False
    if _runtime_module.AgentRuntime is not AgentRuntime or _runtime_module.AgentRun is not AgentRun:
        return False
    return all(dict(vars(cls)) == _RUNTIME_ATTRIBUTES[cls] for cls in _RUNTIME_CLASSES)



class ReminderArguments(BaseModel):
    """Arguments of ``send_reminder``: the reminder's text."""

    model_config = ConfigDict(extra="forbid", strict=True)

    text: str = Field(description="The reminder to send.")


def reminder_runtime(
    send_reminder: Callable[..., Any], on_tool_error: str, reminder: str | None = None
) -> AgentRuntime:
    """A runtime whose only tool is ``send_reminder`` and whose model retries a failure once.

    The model stand-in (a function script) asks for ``send_reminder`` (``call-remind``) with
    ``{"text": reminder}`` (default: the lesson's reminder); if the last observation is a
    failure it asks once more as ``call-remind-retry``, then gives up with a final text (texts
    in :func:`agentcore.course.text.current_language`). ``on_tool_error`` is ``"stop"`` or
    ``"observe"``. Raises what ``Tool`` raises when the handler does not fit
    ``ReminderArguments`` (a ``TypeError``).
    """
    tool = Tool(
        name="send_reminder",
        description="Send the user a reminder; returns a confirmation.",
        arguments_model=ReminderArguments,
        handler=send_reminder,
    )
    text = phrase("lesson 06.reminder") if reminder is None else reminder
    sent, failed = phrase("lesson 06.reminder sent"), phrase("lesson 06.reminder failed")

    def retry_once(messages: Sequence[Mapping[str, Any]], tools: Any) -> ModelTurn:
        tries = sum(1 for m in messages if m.get("role") == "tool")
        last = json.loads(messages[-1]["content"]) if tries else {}
        if tries < 2 and (tries == 0 or "error" in last):
            call_id = "call-remind" if tries == 0 else "call-remind-retry"
            return ModelTurn(tool_calls=(ToolCall(call_id, "send_reminder", {"text": text}),))
        return ModelTurn(final_text=failed if "error" in last else sent)

    return AgentRuntime(ScriptedModel(retry_once), [tool], on_tool_error=on_tool_error)  # type: ignore[arg-type]


__all__ = ["ReminderArguments", "reminder_runtime", "runtime_unchanged"]
