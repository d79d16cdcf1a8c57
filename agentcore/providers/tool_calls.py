"""The checks every adapter makes of one tool call in a reply, whatever its wire format.

A reply names a call by three fields: an id, a function name and an ``arguments`` string
(Responses: ``call_id``, ``name``, ``arguments``; Chat Completions: ``id``,
``function.name``, ``function.arguments``). :func:`checked_tool_call` turns them into a
:class:`~agentcore.ToolCall` or refuses the turn; :func:`parse_arguments` reads the
``arguments`` string strictly (chapter section 10.3: the runtime validates the arguments
against the tool's model before any handler runs, and this module refuses what is not even
one JSON object). Both adapters import them from here, so the rules are written once.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any

from agentcore.protocol import ToolCall
from agentcore.providers.errors import ProviderResponseError
from agentcore.providers.http import PREVIEW_CHARS, SecretText, hidden_all, redact, redact_json

MAX_ARGUMENTS_CHARS = 32_768
"""The adapter's limit on one call's ``arguments`` string (characters).

Not a provider limit: a teaching tool's arguments are a few dozen characters, and a longer
string means a runaway generation that should not be parsed and handed to a tool.
"""


def checked_tool_call(
    call_id: object,
    name: object,
    arguments: object,
    limit: int,
    secrets: tuple[SecretText, ...],
    *,
    noun: str,
    id_label: str,
    name_label: str,
) -> ToolCall:
    """A :class:`ToolCall` from the three fields a reply gives for one call (both adapters).

    Inputs: the call's id, name and ``arguments`` text as the reply holds them; the longest
    ``arguments`` accepted; the ``secrets`` no message may show; and the wire format's words
    for the call, its id field and its name field (Responses: ``function_call``, ``call_id``,
    ``name``; Chat Completions: ``tool call``, ``id``, ``function name``). Output: the call
    with every secret removed from its id, its name and every key and string of its arguments
    (:func:`~agentcore.providers.http.redact`, before anything is stored, so a key the model
    echoed reaches no handler, transcript, trace or error). ``arguments`` that are missing
    (``None``), empty or only white space are read as ``{}``: servers send a call of a tool
    without parameters that way (the formats define ``arguments`` as a JSON object in a
    string, and say nothing for the empty case); the tool's own validation then decides, so a
    tool that needs arguments still refuses the call before its handler runs. Raises
    :class:`ProviderResponseError` for an id or a name that is not a non-empty string (naming
    the type it has), arguments that are not a string, and whatever :func:`parse_arguments`
    refuses.
    """
    shown_id = redact(repr(call_id), secrets, limit=60)
    if not isinstance(name, str) or not name.strip():
        raise _unnamed(f"A {noun} ({id_label} {shown_id})", name, name_label, "call name", secrets)
    shown_name = redact(repr(name), secrets, limit=60)
    if not isinstance(call_id, str) or not call_id.strip():
        raise _unnamed(f"The {noun} to {shown_name}", call_id, id_label, "call id", secrets)
    if arguments is None or (isinstance(arguments, str) and not arguments.strip()):
        arguments = "{}"  # a call of a tool without parameters, sent with nothing to say
    if not isinstance(arguments, str):
        raise ProviderResponseError(
            f"The arguments of function {shown_name} ({id_label} {shown_id}) are a "
            f"{type(arguments).__name__}, not a JSON string.",
            kind="arguments",
            hint=_ARGUMENTS_HINT,
        )
    parsed = parse_arguments(name, arguments, limit, secrets)
    return ToolCall(
        redact(call_id, secrets, limit=None),
        redact(name, secrets, limit=None),
        redact_json(parsed, secrets),
    )


def unique_calls(calls: list[ToolCall], *, noun: str, id_label: str) -> tuple[ToolCall, ...]:
    """The calls of one reply, refused when two share an id (both adapters).

    A repeated id cannot pair each call with its own observation (chapter 4.1: ``call_id``
    is unique in a run). Raises :class:`ProviderResponseError` naming the id, so that the
    adapter attaches the reply to ``rejected`` and the runtime records it; the ids are
    already redacted.
    """
    seen: set[str] = set()
    for call in calls:
        if call.call_id in seen:
            raise ProviderResponseError(
                f"Two {noun}s of the reply share the {id_label} {call.call_id!r}.",
                kind="shared call id",
                hint="Their observations could not be told apart; the turn was rejected, "
                "run again.",
            )
        seen.add(call.call_id)
    return tuple(calls)


_UNNAMED_HINTS = {
    "call name": "The runtime cannot know which tool to run; the turn was rejected.",
    "call id": "Its output could not be paired with it; the turn was rejected.",
}


def _unnamed(
    subject: str, value: object, label: str, kind: str, secrets: tuple[SecretText, ...]
) -> ProviderResponseError:
    """The refusal of a call whose name or id (``kind``) is not a non-empty string."""
    return ProviderResponseError(
        f"{subject} has {_what(value, label, secrets)}.", kind=kind, hint=_UNNAMED_HINTS[kind]
    )


def _what(value: object, label: str, secrets: tuple[SecretText, ...]) -> str:
    """What is wrong with an id or a name that is not a non-empty string: ``an empty id`` for
    a blank or missing one, else its JSON type (an integer id is not an empty id)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return f"an empty {label}"
    kinds = {bool: "a boolean", int: "an integer", float: "a number", list: "an array"}
    kind = kinds.get(type(value), "an object" if isinstance(value, dict) else "a non-string")
    return f"{kind} {label} ({redact(json.dumps(value), secrets, limit=60)}), not a string"


_ARGUMENTS_HINT = "No tool ran for this turn; run again, or simplify the tool's arguments."


class _ArgumentsProblem(ValueError):
    """Raised from inside ``json.loads`` hooks; turned into a ProviderResponseError."""


def _no_constant(name: str) -> Any:
    raise _ArgumentsProblem(f"they hold {name}, which is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _ArgumentsProblem(f"the number {text[:40]} is too large to be finite")
    return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _ArgumentsProblem(f"they hold the key {key!r} twice")
        seen[key] = value
    return seen


def parse_arguments(
    name: str,
    arguments: str,
    max_arguments_chars: int = MAX_ARGUMENTS_CHARS,
    secrets: Iterable[SecretText] = (),
) -> dict[str, Any]:
    """Parse a function call's ``arguments`` string into a JSON object, strictly.

    Inputs: the function ``name`` (for messages), the ``arguments`` string, the longest
    string accepted and the ``secrets`` no message may show. Output: the object as a
    ``dict``.

    Raises :class:`ProviderResponseError`, naming the function and showing at most
    :data:`~agentcore.providers.http.PREVIEW_CHARS` characters (redacted first), when the
    string is longer than the limit, is not JSON, is nested too deep, is JSON but not an
    object, or holds ``NaN``/``Infinity``, a number too large to be finite, or a key twice
    (Python's ``json.loads`` accepts those last two silently).
    """
    secrets = hidden_all(secrets)
    shown = redact(repr(name), secrets, limit=60)
    preview = redact(arguments, secrets, limit=PREVIEW_CHARS)
    problem: str | None = None
    if len(arguments) > max_arguments_chars:
        problem = (
            f"are {len(arguments)} characters long, over the adapter's limit of "
            f"{max_arguments_chars}"
        )
    else:
        try:
            value = json.loads(
                arguments,
                parse_constant=_no_constant,
                parse_float=_finite,
                object_pairs_hook=_unique_keys,
            )
        except json.JSONDecodeError as error:
            problem = f"are not JSON ({error.msg} at character {error.pos})"
        except _ArgumentsProblem as error:
            problem = f"are not valid JSON: {redact(str(error), secrets)}"
        except (RecursionError, ValueError) as error:  # nesting too deep, an integer too long
            problem = f"cannot be read as JSON here ({type(error).__name__})"
        else:
            if isinstance(value, dict):
                return value
            problem = f"are JSON but not an object (got {type(value).__name__})"
    raise ProviderResponseError(
        f"The arguments of function {shown} {problem}: {preview!r}.",
        kind="arguments",
        hint=_ARGUMENTS_HINT,
    )
