"""Lesson 05's appendix (05-appendix-inside-the-adapter): ``bad_reply``.

The judge plays the learner's reply on a loopback server of its own (the lesson's adapter, the
lesson's first turn before it, a final message after it), so neither a changed ``run_offline``
nor a script that runs short can blame a right answer.
"""

from __future__ import annotations

import json
from typing import Any

from agentcore.course.judges.core import FixtureFailed, Judgement, Namespace, error_name, exercise
from agentcore.errors import AgentRuntimeError

MODEL_NAME = "deepseek-flash"
OFFLINE_KEY = "offline-placeholder"
REPLY_TIMEOUT_SECONDS = 2.0
"""The adapter's deadline in the check: a slow or dripping reply ends as the adapter's typed
timeout, named in the verdict, well before the judge's time limit would blame the learner's
code for looping."""


def cut_short(arguments: Any) -> bool:
    """Whether ``arguments`` is the lesson's own kind of break: JSON text that ends too early.

    ``'{"temperature_c": 18.0'`` (the lesson's missing brace) is, and so is the same text cut
    anywhere else (``'{"temperature_c": 18.'``, ``'{"temp'``, ``'[1,'``): text that is not
    JSON but that more text at its end would make JSON. Inputs: any value (only a ``str`` can
    be cut short); output: ``bool``. An empty or blank string is not counted: it starts no JSON
    value. The kind of break, not the lesson's one string: checks probe the kind.
    """
    if not isinstance(arguments, str) or not arguments.strip():
        return False
    text = arguments.rstrip()
    if _parses(text):
        return False
    closing, in_string, escaped = _still_open(text)
    head = ("n" if escaped else "") + ('"' if in_string else "")
    # the rest of a number, of a value after a key or a comma, of a key, of true/false/null
    middles = ["", "0", ":0", '"k":0', *_literal_rests(text)]
    return any(_parses(text + head + middle + closing) for middle in middles)


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _still_open(text: str) -> tuple[str, bool, bool]:
    """What JSON ``text`` leaves open at its end: ``(the brackets that would close it,
    inside a string, right after a backslash in that string)``."""
    stack: list[str] = []
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            stack.append("}" if char == "{" else "]")
        elif char in "}]" and stack:
            stack.pop()
    return "".join(reversed(stack)), in_string, escaped


def _literal_rests(text: str) -> list[str]:
    """The rest of ``true``, ``false`` or ``null`` when ``text`` ends with their start."""
    return [
        literal[size:]
        for literal in ("true", "false", "null")
        for size in range(1, len(literal))
        if text.endswith(literal[:size])
    ]


def second_turn_outcome(reply: Any, closing: tuple[Any, ...]) -> tuple[Any, bool]:
    """Run the Tokyo request against a loopback server playing the lesson's first turn,
    ``reply``, then ``closing``: ``(the RunResult or the run's typed error, whether the
    server ran out of scripted replies)``. Raises what the runtime raises beyond its own
    errors."""
    from agentcore.course.offline_replies import weather_script
    from agentcore.course.teaching_tools import build_tools
    from agentcore.course.weather import weather_request
    from agentcore.providers.deepseek import DeepSeekResponsesModel
    from agentcore.providers.local_server import LocalResponsesServer
    from agentcore.runtime import AgentRuntime

    script = [weather_script()[0], reply, *closing]
    with LocalResponsesServer(script) as server:
        model = DeepSeekResponsesModel(
            MODEL_NAME,
            api_key=OFFLINE_KEY,
            base_url=server.base_url,
            max_retries=0,
            timeout=REPLY_TIMEOUT_SECONDS,
        )
        try:
            outcome: Any = AgentRuntime(model, build_tools()).run(weather_request())
        except AgentRuntimeError as error:
            outcome = error
    return outcome, len(server.requests) > len(script)


def closing_replies() -> tuple[Any, ...]:
    """What the check's server plays after the learner's reply: one final message, so a reply
    the adapter accepts runs to an answer (and is told so)."""
    from agentcore.providers.local_server import Reply, message

    return (Reply(output=(message("done"),)),)


@exercise("bad_reply", ("my_bad_reply",))
def bad_reply(ns: Namespace) -> Judgement:
    """``my_bad_reply``: a second-turn ``Reply`` the adapter refuses before any handler runs.

    A correct answer satisfies all of:

    * it is one ``Reply`` (``agentcore.providers.local_server``), the reply to turn 2 alone
      (not a script, not an output item);
    * it is not the lesson's own kind of break, arguments cut short (:func:`cut_short`: the
      missing closing brace, or the same text cut anywhere else), in any of its function calls;
    * played after the lesson's first turn, the adapter raises ``ProviderResponseError`` at
      turn 2: two model turns, one tool execution (the weather), so no handler of turn 2 ran.
      An HTTP error status (``ProviderStatusError``), a call the runtime refuses
      (``UnknownToolError``, ``ToolArgumentsError``, ``InvalidModelTurnError``) or a reply
      that runs to an answer are each told apart; empty ``arguments`` (which the adapter reads
      as ``{}``, no arguments) are named.

    If the check's own server runs out of scripted replies, the verdict says so.
    """
    from agentcore import ProviderResponseError, ProviderStatusError
    from agentcore.providers.local_server import Reply

    reply = ns["my_bad_reply"]
    if not isinstance(reply, Reply):
        return False, "reply_not_a_reply", {"kind": type(reply).__name__}
    items = reply.output if isinstance(reply.output, (list, tuple)) else ()
    if any(isinstance(item, dict) and cut_short(item.get("arguments")) for item in items):
        return False, "reply_reused", {}
    outcome, ran_out = second_turn_outcome(reply, closing_replies())
    if ran_out:
        raise FixtureFailed("fixture_ran_out")
    if not isinstance(outcome, AgentRuntimeError):
        return False, "reply_answered", {}
    if isinstance(outcome, ProviderStatusError):
        return False, "reply_status_error", {}
    if not isinstance(outcome, ProviderResponseError):
        if any(isinstance(item, dict) and item.get("arguments") in ("", None) for item in items):
            # the wire format allows no arguments for a tool that takes none: read as {}
            return False, "reply_empty_arguments", {"error": error_name(outcome)}
        return False, "reply_other_error", {"error": error_name(outcome)}
    if (outcome.model_turns, outcome.tool_executions) != (2, 1):
        return (
            False,
            "reply_counts",
            {"turns": outcome.model_turns, "executions": outcome.tool_executions},
        )
    return True, "reply_right", {}
