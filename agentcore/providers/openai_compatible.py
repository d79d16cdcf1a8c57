"""The Chat Completions adapter for any server that speaks the format (chapter section 10).

:class:`OpenAICompatibleChatModel` satisfies ``Model.generate(messages, tools) -> ModelTurn``
exactly as :class:`~agentcore.providers.deepseek.DeepSeekResponsesModel` does; the runtime
cannot tell the two apart. It talks to ``POST {base_url}/chat/completions`` on any server that
speaks OpenAI's Chat Completions format: DeepSeek, or a server on the learner's own machine
(Ollama, llama.cpp's ``llama-server``, vLLM, LM Studio). What differs between those servers is
written down in a :class:`ChatProfile`, one per server, each citing that server's docs;
:class:`~agentcore.providers.deepseek_chat.DeepSeekChatModel` is this adapter with
:data:`DEEPSEEK` and DeepSeek's settings.

Only the three translations differ from the Responses adapter, each a small function of this
module, written to the documented wire format (OpenAI's Chat Completions reference, and
DeepSeek's: https://api-docs.deepseek.com/api/create-chat-completion, Tool Calls:
https://api-docs.deepseek.com/guides/tool_calls, Thinking Mode:
https://api-docs.deepseek.com/guides/thinking_mode):

* a runtime tool schema becomes ``{"type": "function", "function": {"name", "description",
  "parameters"}}``, ``parameters`` passed through unchanged (:func:`to_chat_tool`);
* the whole transcript becomes the request's ``messages``, every turn (:func:`to_chat_messages`):
  the API is stateless, so the adapter sends everything again;
* the ``message`` of the reply's one choice becomes a :class:`ModelTurn`: its ``tool_calls``
  in order, arguments parsed by the same strict
  :func:`~agentcore.providers.tool_calls.parse_arguments` as the Responses adapter's, or its
  ``content`` as the final text (:func:`to_chat_model_turn`).

The same request through both wire formats, side by side (turn 2 of the weather task):

============================== ============================ ================================
what the runtime holds         Responses ``input`` item     Chat Completions ``messages``
============================== ============================ ================================
a tool request                 ``function_call`` item with  assistant message with
                               ``call_id``                  ``tool_calls[].id``
an observation                 ``function_call_output``     ``{"role": "tool",
                               with ``call_id``             "tool_call_id", "content"}``
reasoning (thinking mode)      a ``reasoning`` item         ``reasoning_content`` on the
                                                            assistant message
============================== ============================ ================================
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openai.types.chat import ChatCompletion
from pydantic import SecretStr

from agentcore.protocol import ModelTurn, ToolCall, ToolSchema
from agentcore.providers.chat_profiles import (
    CHAT_PROFILES,
    GENERIC,
    ChatProfile,
)
from agentcore.providers.connection import Connection, stripped_key
from agentcore.providers.errors import (
    ProviderRequestError,
    ProviderResponseError,
    ProviderStatusError,
    ServerQuirkError,
)
from agentcore.providers.http import (
    PREVIEW_CHARS,
    SecretText,
    hidden_all,
    provider_text,
    redact,
    redact_json,
)
from agentcore.providers.provider_items import chat_extras
from agentcore.providers.tool_calls import MAX_ARGUMENTS_CHARS, checked_tool_call, unique_calls
from agentcore.transcript import Message


def to_chat_tool(schema: ToolSchema, *, strict: bool = False) -> dict[str, Any]:
    """Translate one runtime tool schema into a Chat Completions function tool.

    Input: ``{"name", "description", "parameters"}`` as :meth:`agentcore.Tool.schema` gives
    it, and ``strict``. Output: ``{"type": "function", "function": {"name", "description",
    "parameters"}}``, with ``"strict": true`` inside ``function`` only when ``strict`` is on.
    ``parameters`` is passed through unchanged (a plain copy): the runtime's tool schema is
    already the schema the model must follow, and the adapter converts nothing.

    DeepSeek documents ``strict`` as a beta feature: it needs the beta base URL
    ``https://api.deepseek.com/beta`` and, when used, every function of the request strict
    (https://api-docs.deepseek.com/guides/tool_calls).
    """
    function: dict[str, Any] = {
        "name": schema["name"],
        "description": schema.get("description", ""),
        "parameters": copy.deepcopy(schema["parameters"]),
    }
    if strict:
        function["strict"] = True
    return {"type": "function", "function": function}


def to_chat_messages(
    messages: Sequence[Message],
    *,
    replay_reasoning: bool = True,
    require_reasoning: bool = False,
) -> list[dict[str, Any]]:
    """Translate the whole transcript into Chat Completions ``messages``.

    Input: the runtime's messages; whether ``reasoning_content`` is sent back (a
    :class:`ChatProfile`'s ``replays_reasoning_content``); whether it must be (thinking mode
    on). Output, in order:

    * user or system text: ``{"role", "content"}`` as is;
    * an assistant tool request: ``{"role": "assistant", "content": null, "tool_calls":
      [{"id", "type": "function", "function": {"name", "arguments"}}]}``, ``arguments`` a
      JSON string with non-ASCII kept, the calls always from the transcript's
      ``tool_calls``; the text the provider said beside the calls goes back in ``content``;
    * an observation: ``{"role": "tool", "tool_call_id", "content"}``, right after its
      request, as the runtime records it;
    * a final text: ``{"role": "assistant", "content"}``;
    * the ``reasoning_content`` of every assistant message (request or final text) of a user
      turn in which the model called tools, when ``replay_reasoning`` is on. DeepSeek's
      Thinking Mode guide: between two user messages, if the model called tools, the
      assistant messages' ``reasoning_content`` must be passed back in all later requests
      (HTTP 400 otherwise); without tool calls it is ignored, so it is not sent;
    * a message with a ``"rejected"`` key (a reply the adapter refused, recorded by the
      runtime) is skipped: it is never sent back to a provider.

    The text and reasoning come from the message's ``provider_items``, written by either wire
    format's adapter (:func:`~agentcore.providers.provider_items.chat_extras`: a Responses
    ``reasoning`` item becomes ``reasoning_content``).

    Raises :class:`ProviderRequestError`, and nothing is sent, for a role the adapter cannot
    send (naming the message), a provider item neither wire format wrote (naming it), a
    ``tool`` message that answers no call of the assistant message before it, a call with no
    ``tool`` message (naming the id), and, with ``require_reasoning``, an assistant message
    of a tool-calling user turn without reasoning when others carry theirs (naming it): the
    server thinks, and would answer 400. A transcript without any reasoning (a server that
    does not think) is sent as it is.
    """
    thinking_turns = _tool_calling_turns(messages)
    result: list[dict[str, Any]] = []
    missing: list[int] = []  # assistant messages of a tool-calling turn without reasoning
    turn = 0
    for index, entry in enumerate(messages):
        role = entry.get("role")
        turn += role == "user"
        if "rejected" in entry:
            continue
        if role == "assistant":
            extras = chat_extras(entry.get("provider_items"), index)
            calls = entry.get("tool_calls")
            said = extras.get("content") if calls else entry["content"]
            request: dict[str, Any] = {"role": "assistant", "content": said}
            if replay_reasoning and turn in thinking_turns:
                if "reasoning_content" in extras:
                    request["reasoning_content"] = extras["reasoning_content"]
                else:
                    missing.append(index)
            if calls:
                request["tool_calls"] = [_chat_call(call) for call in calls]
            result.append(request)
        elif role == "tool":
            result.append(
                {"role": "tool", "tool_call_id": entry["tool_call_id"], "content": entry["content"]}
            )
        elif role in ("user", "system"):
            result.append({"role": role, "content": entry["content"]})
        else:
            raise ProviderRequestError(
                f"Transcript message {index} has role {role!r}, which the adapter cannot send.",
                hint="Use the roles user, system, assistant or tool.",
            )
    if require_reasoning and missing and any("reasoning_content" in m for m in result):
        raise ProviderRequestError(
            f"Transcript message {missing[0]}, an assistant message of a user turn in which "
            "the model called tools, has no reasoning_content, while the server thinks (other "
            "messages carry theirs) and needs every one sent back; nothing was sent.",
            hint=_NO_REASONING_HINT,
        )
    _check_pairing(result)
    return result


_NO_REASONING_HINT = (
    "DeepSeek's thinking mode needs the reasoning of every reply of such a turn; a transcript "
    "made with thinking off or by another model has none. Continue it with thinking off "
    "(reasoning_effort='none'), or start a new transcript."
)


def _tool_calling_turns(messages: Sequence[Message]) -> set[int]:
    """The user turns (counted by user messages, 0 before the first) in which an accepted
    assistant message called tools."""
    turns: set[int] = set()
    turn = 0
    for entry in messages:
        turn += entry.get("role") == "user"
        if entry.get("role") == "assistant" and entry.get("tool_calls") and "rejected" not in entry:
            turns.add(turn)
    return turns


def _chat_call(call: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "id": call["call_id"],
        "type": "function",
        "function": {
            "name": call["name"],
            "arguments": json.dumps(call["arguments"], ensure_ascii=False),
        },
    }


def _check_pairing(messages: Sequence[Mapping[str, Any]]) -> None:
    """Refuse what the provider would refuse: a tool message without its call, a call
    without its tool message (every id answered before the next other message)."""
    waiting: list[str] = []
    for message in messages:
        if message["role"] == "tool":
            if message["tool_call_id"] not in waiting:
                raise ProviderRequestError(
                    f"The tool message for tool_call_id {message['tool_call_id']!r} answers no "
                    "call of the assistant message before it; nothing was sent.",
                    hint=_PAIRING_HINT,
                )
            waiting.remove(message["tool_call_id"])
            continue
        if waiting:
            break
        waiting = [call["id"] for call in message.get("tool_calls") or ()]
    if waiting:
        raise ProviderRequestError(
            f"The tool call {waiting[0]!r} has no tool message with its result; nothing was sent.",
            hint=_PAIRING_HINT,
        )


_PAIRING_HINT = (
    "Every tool call needs its observation right after the request, paired by id; check "
    "messages the application added to the transcript."
)


class OpenAICompatibleChatModel(Connection):
    """A :class:`agentcore.Model` backed by any Chat Completions server (chapter section 10).

    The twin of :class:`~agentcore.providers.deepseek.DeepSeekResponsesModel`: the same trust
    boundary (:mod:`agentcore.providers.connection` and :mod:`agentcore.providers.http`: an
    owned HTTP client that takes nothing from ``OPENAI_*``, no proxy for loopback, no
    redirects, capped replies, one deadline per attempt, one redaction, typed status errors
    with hints). Only the wire format differs: ``POST {base_url}/chat/completions`` with
    ``messages``, stateless, the whole transcript sent every turn.

    Inputs (all keyword-only except ``model``):

    * ``model``: the model name the server serves (required).
    * ``base_url``: the server's API root, for example ``http://localhost:11434/v1`` (required).
    * ``api_key``: sent as ``Authorization: Bearer`` when given; ``None`` (the default) sends
      no Authorization header. It is never read from an environment variable. Kept out of
      every repr and message.
    * ``profile``: a :class:`ChatProfile` or the name of one in :data:`CHAT_PROFILES` (default
      :data:`GENERIC`).
    * ``strict`` (default ``False``): send every function tool with ``"strict": true``; only
      for a profile with ``supports_strict``. The runtime validates every call's arguments
      either way.
    * ``timeout``: seconds one HTTP attempt may take in total (default 60);
      ``max_retries``: the SDK's retries, 0 to 5 (default 2).
    * ``instructions``: sent as a first ``{"role": "system"}`` message, if given.
    * ``max_arguments_chars``: the longest ``arguments`` string accepted.
    * ``tool_choice``: ``None`` (the default: not sent, the server decides), ``"auto"``,
      ``"required"``, ``"none"``, or a tool's name, sent as ``{"type": "function",
      "function": {"name": ...}}`` to force that tool (``python -m agentcore doctor`` uses it
      to see whether a server honours it); only sent with tools.

    Raises ``ValueError`` for an empty model or base URL, an unknown profile name, ``strict``
    on a profile without ``supports_strict``, a number out of range or a key an HTTP header
    cannot carry; ``TypeError`` for a setting of the wrong type. :meth:`generate` raises a
    :class:`ProviderError` subclass for every provider problem.
    """

    connection_hint = (
        "Check base_url (--base-url with python -m agentcore): the server's API root, such as "
        "http://localhost:11434/v1; that the server is running; your network and any proxy "
        "(HTTPS_PROXY, NO_PROXY)."
    )
    status_hints = "server"

    def __init__(
        self,
        model: str,
        *,
        base_url: str,
        api_key: str | SecretStr | None = None,
        profile: ChatProfile | str = GENERIC,
        strict: bool = False,
        timeout: float | None = None,
        max_retries: int | None = None,
        instructions: str | None = None,
        max_arguments_chars: int = MAX_ARGUMENTS_CHARS,
        tool_choice: str | None = None,
    ) -> None:
        api_key = stripped_key(api_key)  # from here on, no frame holds the key's text
        if tool_choice is not None and (not isinstance(tool_choice, str) or not tool_choice):
            raise TypeError(f"tool_choice must be None or a non-empty str, got {tool_choice!r}")
        if isinstance(profile, str):
            if profile not in CHAT_PROFILES:
                raise ValueError(
                    f"profile must be a ChatProfile or one of {', '.join(CHAT_PROFILES)}, "
                    f"got {profile!r}"
                )
            profile = CHAT_PROFILES[profile]
        if not isinstance(profile, ChatProfile):
            raise TypeError(f"profile must be a ChatProfile, got {type(profile).__name__}")
        if not isinstance(strict, bool):
            raise TypeError(f"strict must be True or False, got {type(strict).__name__}")
        if strict and not profile.supports_strict:
            raise ValueError(
                f"the {profile.name!r} profile does not support strict function tools; "
                "leave strict=False (the runtime validates every call's arguments anyway)"
            )
        super().__init__(
            model=model,
            api_key=api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            instructions=instructions,
            max_arguments_chars=max_arguments_chars,
        )
        self.profile = profile
        self.strict = strict
        self.tool_choice = tool_choice

    def generate(self, messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        """Send the whole transcript and the tools; return the model's turn.

        Input: the transcript (the runtime's message dicts) and the tool schemas
        (``{"name", "description", "parameters"}``). Output: a :class:`ModelTurn` with the
        tool calls in the reply's order, or the final text.

        Raises :class:`ProviderRequestError` before sending anything when a message cannot be
        translated or a call and its tool message are not paired; the provider's HTTP
        failures as :class:`ProviderConnectionError`, :class:`ProviderTimeoutError` or
        :class:`ProviderStatusError`; :class:`ProviderResponseError` for a reply that breaks
        the wire format or the adapter's limits (also for Ollama's HTTP 500 "error parsing
        tool call", a malformed call like any other); :class:`ServerQuirkError` for a quirk
        the profile does not absorb. No handler runs on a rejected turn.
        """
        # Only what is set is sent: the request body is exactly what a lesson shows.
        system = (
            [] if self.instructions is None else [{"role": "system", "content": self.instructions}]
        )
        replay = self.profile.replays_reasoning_content
        chat = to_chat_messages(messages, replay_reasoning=replay, require_reasoning=self._thinks)
        request: dict[str, Any] = {"model": self.model, "messages": system + chat}
        if tools:
            request["tools"] = [to_chat_tool(schema, strict=self.strict) for schema in tools]
            if self.tool_choice in ("auto", "required", "none"):
                request["tool_choice"] = self.tool_choice
            elif self.tool_choice is not None:
                function = {"name": self.tool_choice}
                request["tool_choice"] = {"type": "function", "function": function}
        extra = self._add_options(request)
        try:
            completion = self._send(request, extra)
        except ProviderStatusError as error:
            if error.status_code == 500 and _PARSE_FAILED.search(error.provider_message):
                # Ollama's parser failed on the model's call (its 500): a malformed reply.
                raise ProviderResponseError(
                    f"The server could not parse the model's tool call (HTTP 500: "
                    f"{error.provider_message}).",
                    kind="arguments",
                    hint=_ARGUMENTS_HINT,
                ) from None
            raise
        return to_chat_model_turn(
            completion,
            max_arguments_chars=self.max_arguments_chars,
            secrets=self._secrets,
            require_reasoning=self._thinks,
            profile=self.profile,
            tool_names=[schema["name"] for schema in tools],
            turn=1 + sum(1 for message in messages if message.get("role") == "assistant"),
        )

    @property
    def _thinks(self) -> bool:
        """Whether the server answers in a thinking mode that needs the reasoning of every
        tool-calling turn back: a profile that replays ``reasoning_content`` (DeepSeek thinks
        by default); :class:`~agentcore.providers.deepseek_chat.DeepSeekChatModel` says
        whether its ``reasoning_effort`` turned thinking off."""
        return self.profile.replays_reasoning_content

    def _add_options(self, request: dict[str, Any]) -> dict[str, Any]:
        """Add a server's own request fields to ``request``; return those the SDK does not
        know (sent as ``extra_body``). None here; a subclass (DeepSeek's reasoning effort)
        adds its own."""
        return {}

    def _send(self, request: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
        """POST one request to ``/chat/completions``; return the reply as the JSON it arrived
        as (:meth:`~agentcore.providers.connection.Connection._post` types every failure)."""
        return self._post(
            self._client.chat.completions.create,
            {**request, "extra_body": extra or None},
            expected=ChatCompletion,
            endpoint="/chat/completions",
            what="a chat completion",
            hint=_SHAPE_HINT,
        )

    def _repr_options(self) -> Iterable[tuple[str, object]]:
        return (
            ("profile", self.profile.name),
            ("strict", self.strict),
            ("tool_choice", self.tool_choice),
        )


_PARSE_FAILED = re.compile(r"error parsing tool call", re.IGNORECASE)
"""Ollama's 500 when the model's call does not parse (ollama#7881 and others)."""
_ARGUMENTS_HINT = "No tool ran for this turn; run again, or simplify the tool's arguments."

_SHAPE_HINT = (
    "Check that the base URL (DEEPSEEK_BASE_URL for DeepSeek) points at a Chat Completions "
    "API; if it does, run again."
)
_UNKNOWN_FINISH_HINT = (
    "The server stopped for a reason the Chat Completions format does not define; look the "
    "reason up in that server's documentation, then run again."
)
_FINISHES = {
    "length": (
        "cut off",
        "The reply was cut off before the model finished; ask for less, or allow more output "
        "tokens.",
    ),
    "content_filter": (
        "content filter",
        "The provider's content filter stopped the reply; rephrase the request.",
    ),
    "insufficient_system_resource": (
        "capacity",
        "The provider ran short of capacity and stopped the reply; wait a little and run again.",
    ),
}
"""The ``finish_reason`` values with a cause of their own: the error's ``kind`` and hint."""


def to_chat_model_turn(
    completion: Mapping[str, Any],
    *,
    max_arguments_chars: int = MAX_ARGUMENTS_CHARS,
    secrets: Iterable[SecretText] = (),
    profile: ChatProfile = GENERIC,
    tool_names: Iterable[str] = (),
    turn: int = 1,
    require_reasoning: bool = False,
) -> ModelTurn:
    """Translate a chat completion (as JSON) into a :class:`ModelTurn`.

    ``choices[0].message.tool_calls`` become :class:`ToolCall` objects in order (``id`` is
    the ``call_id``; ``function.arguments`` parsed by
    :func:`~agentcore.providers.tool_calls.parse_arguments`, the same strict rules as the
    Responses adapter); without any, a non-blank ``content`` is the final text. Text said
    beside the calls and ``reasoning_content`` travel in ``provider_items`` as one
    ``{"content", "reasoning_content"}`` entry (only what was set), so that
    :func:`to_chat_messages` sends them back.

    Inputs: the reply; the longest ``arguments`` string accepted; the ``secrets`` that no text
    taken from the reply may show (each text passes through
    :func:`~agentcore.providers.http.redact`, the adapters' one redaction); the server's
    ``profile`` (which quirks are absorbed); the names of the tools the request offered (to
    recognise a call written as text); ``turn``, this model turn's number in the run
    (for the ids the adapter makes); and ``require_reasoning`` (thinking mode on): a reply
    whose tool calls carry no ``reasoning_content`` (the field absent, ``null`` or ``""``) is
    refused, since DeepSeek refuses the next request without it (Thinking Mode guide) and
    there is none to send back.

    The server quirks the course knows, each reproduced by
    :class:`~agentcore.providers.local_chat_server.LocalChatServer` in the named mode:

    * absorbed, and written down in one ``{"adapter": {...}}`` entry of ``provider_items``
      (never sent back): ``function.arguments`` as a JSON object, when the profile says
      ``arguments_may_be_objects`` (``"arguments_were_objects"``: the ids); a missing call id,
      when it says ``makes_missing_call_ids`` (``"made_call_ids"``); a ``finish_reason`` that
      disagrees with the reply, ``"tool_calls"`` without calls or ``"stop"`` with calls: the
      reply's content decides (``"finish_reason"``: what the server said); a legacy
      ``function_call`` beside ``tool_calls`` that decodes to the same call as one of them:
      only ``tool_calls`` is read (``"ignored_function_call"``); on a profile with
      ``legacy_call_names_unreliable``, one with the same arguments named ``""`` or
      ``"<tool>:"`` (``"ignored_function_call_name"``);
    * refused with :class:`ServerQuirkError` (``quirk`` names it): arguments as an object
      on a profile that does not accept them (``"arguments-as-object"``); several JSON
      objects one after another in one ``arguments`` string, as when a server merges
      streamed calls (``"concatenated-arguments"``: never split by guess); no call, and a
      ``content`` that names an offered tool in a ``"name": ...`` field or a ``<tool_call>``
      tag: the server returned the call as text (``"call-as-text"``, its ``fix`` the
      profile's ``tool_setup``; nothing is parsed out of prose); a legacy ``function_call``
      that is not one of the ``tool_calls`` (``"legacy-function-call"``), or llama-cpp-python's
      colon-named one on another profile (``"legacy-call-with-colon"``).

    Raises :class:`ProviderResponseError` (with a hint, and ``rejected`` holding the refused
    choices' messages, secrets redacted, when there are any) for: a body that is the server's
    error (``{"error": ...}`` and no choice: its message is kept); no choice, or more than one
    (the adapter never sends ``n``, so it does not guess which one counts); a choice whose
    message is null or not an object; a ``finish_reason`` other than ``"stop"`` or
    ``"tool_calls"`` (``"length"``, ``"content_filter"``, ``"insufficient_system_resource"``
    each with their own hint, any other with a hint to look it up in the server's docs); no
    tool call and no text (naming a refusal if there is one); a call that is not a function,
    holds no function object, has an empty id or name (or one of another type, named), or
    whose arguments ``parse_arguments`` refuses (malformed or truncated JSON); two calls
    sharing one id; with ``require_reasoning``, tool calls with a missing or empty
    ``reasoning_content`` (refused before any handler runs); and any field of the wrong
    shape. :class:`ServerQuirkError` is a
    subclass.
    """
    secrets = hidden_all(secrets)
    name = f"Chat completion {redact(repr(completion.get('id', '?')), secrets, limit=60)}"
    choices = completion.get("choices")
    messages = [
        choice.get("message")
        for choice in (choices if isinstance(choices, list) else ())
        if isinstance(choice, Mapping)
    ]
    rejected = tuple(redact_json(m, secrets) for m in messages if isinstance(m, Mapping))
    reading = _Reading(
        name, max_arguments_chars, secrets, profile, tuple(tool_names), turn, require_reasoning
    )
    failure: ProviderResponseError
    try:
        return reading.turn_of(completion)
    except ProviderResponseError as error:
        failure = error
    except (AttributeError, TypeError, ValueError, KeyError, RecursionError) as error:
        failure = ProviderResponseError(
            f"{name} is not shaped like a Chat Completions object "
            f"({type(error).__name__}: {redact(str(error), secrets)}).",
            kind="shape",
            hint=_SHAPE_HINT,
        )
    failure.rejected = rejected
    raise failure


_TAGGED_CALL = re.compile(r"<tool_call>|<\|python_tag\|>|\[TOOL_CALLS\]")
"""Markers chat templates put around a call written as text (Hermes/Qwen, Llama, Mistral)."""


def _only_choice(name: str, choices: object) -> Mapping[str, Any]:
    """The one choice of a reply; the adapter never asks for more (``n`` is not sent), so a
    reply with several is refused rather than read by position."""
    if not isinstance(choices, list) or not choices:
        raise ProviderResponseError(f"{name} holds no choice.", kind="no choice", hint=_SHAPE_HINT)
    if len(choices) > 1:
        raise ProviderResponseError(
            f"{name} holds {len(choices)} choices; the adapter asks for one and cannot tell "
            "which the runtime should act on.",
            kind="several choices",
            hint="Check that nothing between the adapter and the server adds n= to the "
            "request (a proxy, a server default); the turn was rejected.",
        )
    choice = choices[0]
    if not isinstance(choice, Mapping):
        raise TypeError(f"a choice is a {type(choice).__name__}, not an object")
    return choice


@dataclass
class _Reading:
    """One reply being read: its name for messages, the limits, the profile, and the notes
    of what the adapter absorbed (the turn's ``{"adapter": ...}`` entry)."""

    name: str
    max_arguments_chars: int
    secrets: tuple[SecretStr, ...]
    profile: ChatProfile
    tool_names: tuple[str, ...]
    turn: int
    require_reasoning: bool

    def __post_init__(self) -> None:
        self.notes: dict[str, Any] = {}

    def turn_of(self, completion: Mapping[str, Any]) -> ModelTurn:
        name, secrets = self.name, self.secrets
        if "error" in completion and not completion.get("choices"):
            # a 200 whose body is the server's error: its own words, not "no choice"
            said = redact(provider_text(completion), secrets)
            raise ProviderResponseError(
                f"{name} is the server's error, not a completion (HTTP 200): {said}",
                kind="error body",
                hint="No tool ran for this turn; the server's message says what it refused.",
            )
        choice = _only_choice(name, completion.get("choices"))
        message = choice.get("message")
        if message is None:
            what = "whose message is null" if "message" in choice else "without a message"
            raise ProviderResponseError(
                f"{name} has a choice {what}.", kind="no message", hint=_SHAPE_HINT
            )
        if not isinstance(message, Mapping):
            kind = type(message).__name__
            raise ProviderResponseError(
                f"{name} has a choice whose message is a {kind}, not an object.",
                kind="shape",
                hint=_SHAPE_HINT,
            )
        finish_reason = choice.get("finish_reason")
        if finish_reason not in ("stop", "tool_calls"):
            shown = redact(repr(finish_reason), secrets, limit=60)
            cause, hint = _FINISHES.get(str(finish_reason), ("unfinished", _UNKNOWN_FINISH_HINT))
            raise ProviderResponseError(
                f"{name} stopped with finish_reason {shown}, not 'stop' or 'tool_calls'.",
                kind=cause,
                hint=hint,
            )
        raw_calls = message.get("tool_calls") or []
        if not isinstance(raw_calls, list):
            raise TypeError(f"tool_calls is a {type(raw_calls).__name__}, not a list")
        calls = [self.tool_call(call, position) for position, call in enumerate(raw_calls, 1)]
        unique_calls(calls, noun="tool call", id_label="id")
        self.check_legacy_call(message.get("function_call"), calls)
        if (finish_reason == "tool_calls") != bool(calls):
            self.notes["finish_reason"] = finish_reason  # the content decided, not this
        text, thought = message.get("content"), message.get("reasoning_content")
        for field, value in (("content", text), ("reasoning_content", thought)):
            if value is not None and not isinstance(value, str):
                raise TypeError(f"{field} is a {type(value).__name__}, not a string")
        text = None if text is None else redact(text, secrets, limit=None)
        thought = None if thought is None else redact(thought, secrets, limit=None)
        if calls and self.require_reasoning and not thought:  # absent, null or ""
            raise ProviderResponseError(
                f"{name} calls tools in thinking mode with a missing or empty reasoning_content; "
                "DeepSeek refuses the next request unless it is sent back, and there is nothing "
                "to send.",
                kind="no reasoning",
                hint="No tool ran for this turn; run again, or turn thinking off with "
                "reasoning_effort='none'.",
            )
        notes = ({"adapter": self.notes},) if self.notes else ()
        if calls:
            extras = {
                "content": text if text and text.strip() else None,
                "reasoning_content": thought,
            }
            kept = {key: value for key, value in extras.items() if value is not None}
            items = ((kept,) if kept else ()) + notes
            return ModelTurn(tool_calls=tuple(calls), provider_items=items)
        if text and text.strip():
            self.check_not_a_call(text)
            kept = {"reasoning_content": thought} if thought is not None else {}
            return ModelTurn(final_text=text, provider_items=((kept,) if kept else ()) + notes)
        refusal = message.get("refusal")
        if refusal:
            raise ProviderResponseError(
                f"{name} is a refusal, not an answer: {redact(str(refusal), secrets)!r}.",
                kind="refusal",
                hint="Rephrase the request.",
            )
        raise ProviderResponseError(
            f"{name} holds no tool call and no text.",
            kind="empty reply",
            hint="The model produced nothing the runtime can act on; run again.",
        )

    def tool_call(self, call: Any, position: int) -> ToolCall:
        secrets = self.secrets
        if not isinstance(call, Mapping):
            raise TypeError(f"a tool call is a {type(call).__name__}, not an object")
        call_id, function = call.get("id"), call.get("function")
        shown_id = redact(repr(call_id), secrets, limit=60)
        if call.get("type", "function") != "function":
            raise ProviderResponseError(
                f"The tool call {shown_id} is of type "
                f"{redact(repr(call.get('type')), secrets, limit=60)}, not a function.",
                kind="not a function",
                hint="The runtime can only run function tools; the turn was rejected.",
            )
        if not isinstance(function, Mapping):
            what = "no function object" if function is None else f"a {type(function).__name__}"
            raise ProviderResponseError(
                f"The tool call {shown_id} holds {what} where its function (name and "
                "arguments) belongs.",
                kind="call name",
                hint="The runtime cannot know which tool to run; the turn was rejected.",
            )
        function_name = function.get("name")
        if (call_id is None or call_id == "") and self.profile.makes_missing_call_ids:
            call_id = f"call-{self.turn}-{position}"
            self.notes.setdefault("made_call_ids", []).append(call_id)
        arguments = function.get("arguments")
        if isinstance(arguments, Mapping):
            if not self.profile.arguments_may_be_objects:
                raise self.quirk(
                    f"The arguments of function {redact(repr(function_name), secrets, limit=60)}"
                    f" (id {shown_id}) arrived as a JSON object, not a JSON string.",
                    "arguments-as-object",
                    fix="profile='ollama' or 'llama-server'",
                    hint="The Chat Completions format sends arguments as a string; choose a "
                    "profile that accepts objects (ollama, llama-server) if your server does "
                    "this.",
                )
            # Written back as the string the format specifies, then read by the same checks.
            arguments = json.dumps(arguments, ensure_ascii=False)
            self.notes.setdefault("arguments_were_objects", []).append(call_id)
        if isinstance(arguments, str) and len(arguments) <= self.max_arguments_chars:
            self.check_one_object(function_name, arguments)
        return checked_tool_call(
            call_id,
            function_name,
            arguments,
            self.max_arguments_chars,
            secrets,
            noun="tool call",
            id_label="id",
            name_label="function name",
        )

    def quirk(self, message: str, quirk: str, *, fix: str, hint: str) -> ServerQuirkError:
        """The refusal of a server quirk, naming this reply's profile."""
        return ServerQuirkError(message, quirk=quirk, profile=self.profile.name, fix=fix, hint=hint)

    def check_one_object(self, function_name: object, arguments: str) -> None:
        """Refuse ``{...}{...}``: several calls' arguments merged into one string."""
        try:
            _, end = json.JSONDecoder().raw_decode(arguments.lstrip())
        except (ValueError, RecursionError):
            return  # not even one object: parse_arguments says what is wrong
        rest = arguments.lstrip()[end:].lstrip()
        if rest.startswith("{"):
            shown = redact(repr(function_name), self.secrets, limit=60)
            preview = redact(arguments, self.secrets, limit=PREVIEW_CHARS)
            raise self.quirk(
                f"The arguments of function {shown} hold several JSON objects one after "
                f"another: {preview!r}. The server merged several calls into one.",
                "concatenated-arguments",
                fix="turn streaming off, or update the server (ollama#7881)",
                hint="The adapter does not split them by guess; no tool ran for this turn.",
            )

    def check_legacy_call(self, legacy: Any, calls: Sequence[ToolCall]) -> None:
        """A legacy ``function_call`` beside ``tool_calls``: only ``tool_calls`` is read; the
        legacy field is compared by its decoded JSON, never its raw string. One with the same
        arguments whose name is empty or an offered tool's name and a colon is llama-cpp-python's
        (ignored on its profile, refused naming it on another)."""
        if legacy is None:
            return
        if not isinstance(legacy, Mapping):
            raise TypeError(f"function_call is a {type(legacy).__name__}, not an object")
        arguments = legacy.get("arguments")
        try:
            decoded = json.loads(arguments) if isinstance(arguments, str) else arguments
        except ValueError:
            decoded = None
        name = legacy.get("name")
        offered = {*self.tool_names, *(call.name for call in calls)}
        colon = isinstance(name, str) and (not name or (name[-1:] == ":" and name[:-1] in offered))
        for position, call in enumerate(calls, 1):
            if call.arguments != decoded:
                continue
            if call.name == name:
                self.notes["ignored_function_call"] = position
                return
            if colon and self.profile.legacy_call_names_unreliable:
                self.notes["ignored_function_call_name"] = position
                return
            if colon:
                raise self.quirk(
                    f"{self.name} holds a legacy function_call named "
                    f"{redact(repr(name), self.secrets, limit=60)} beside tool_calls with the "
                    "same arguments, as llama-cpp-python's server writes.",
                    "legacy-call-with-colon",
                    fix="profile='llama-cpp-python'",
                    hint="Use profile='llama-cpp-python' (--profile on the command line), which "
                    "reads only tool_calls; no tool ran for this turn.",
                )
        shown = redact(repr(name), self.secrets, limit=60)
        raise self.quirk(
            f"{self.name} holds a legacy function_call to {shown} that is not one of its "
            f"{len(calls)} tool_calls.",
            "legacy-function-call",
            fix="a chat format that returns tool_calls (llama-cpp-python: chatml-function-calling"
            " returns both; use tool_calls)",
            hint="The adapter reads only tool_calls and will not guess which call was meant; "
            "no tool ran for this turn.",
        )

    def check_not_a_call(self, text: str) -> None:
        """Refuse a final text that is a call the server did not parse (tools were offered)."""
        if not self.tool_names:
            return
        named = any(
            re.search(rf'"name"\s*:\s*"{re.escape(tool)}"', text) for tool in self.tool_names
        )
        if named or _TAGGED_CALL.search(text):
            fix = self.profile.tool_setup
            raise self.quirk(
                f"{self.name} wrote a tool call as text in content, with no tool_calls: "
                f"{redact(text, self.secrets, limit=PREVIEW_CHARS)!r}.",
                "call-as-text",
                fix=fix,
                hint=f"The server did not parse the model's call; turn on {fix}. The adapter "
                "does not parse calls out of text.",
            )
