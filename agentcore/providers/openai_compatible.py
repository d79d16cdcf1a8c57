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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openai.types.chat import ChatCompletion

from agentcore.protocol import ModelTurn, ToolCall, ToolSchema
from agentcore.providers.connection import Connection
from agentcore.providers.errors import ProviderRequestError, ProviderResponseError
from agentcore.providers.http import redact, redact_json
from agentcore.providers.provider_items import chat_extras
from agentcore.providers.tool_calls import MAX_ARGUMENTS_CHARS, checked_tool_call, unique_calls
from agentcore.transcript import Message


@dataclass(frozen=True)
class ChatProfile:
    """What one Chat Completions server does differently, as far as this adapter acts on it.

    Fields: ``name`` (shown in the adapter's repr); ``supports_strict``: the server documents
    ``"strict": true`` on a function tool, so the adapter may send it when asked
    (``strict=True``); for a server that does not, asking is a ``ValueError`` before anything
    is sent, and the runtime's own validation of every call's arguments holds either way;
    ``replays_reasoning_content``: the ``reasoning_content`` of every reply of a user turn in
    which the model called tools is sent back on that assistant message (DeepSeek's thinking
    mode answers 400 without it), and the server is taken to think (a tool-call reply with an
    empty one is refused); when ``False`` it is kept in the transcript's ``provider_items``
    but not sent;
    ``docs``: the pages the profile was written from.

    The later quirk work adds its fields here (arguments as JSON objects, calls written as
    text, ...), each with the behaviour that reads it.
    """

    name: str
    supports_strict: bool = False
    replays_reasoning_content: bool = False
    docs: tuple[str, ...] = ()


DEEPSEEK = ChatProfile(
    name="deepseek",
    supports_strict=True,
    replays_reasoning_content=True,
    docs=(
        "https://api-docs.deepseek.com/guides/tool_calls",
        "https://api-docs.deepseek.com/guides/thinking_mode",
    ),
)
"""DeepSeek: ``strict`` is a documented beta (beta base URL, every function strict, Tool Calls
guide); in thinking mode (on by default) the ``reasoning_content`` of every assistant message
of a user turn in which the model called tools must be sent back in all later requests (HTTP
400 otherwise, Thinking Mode guide)."""

OLLAMA = ChatProfile(
    name="ollama",
    docs=(
        "https://docs.ollama.com/api/openai-compatibility",
        "https://ollama.com/blog/tool-support",
    ),
)
"""Ollama (``http://localhost:11434/v1``): its OpenAI compatibility page lists ``tools`` and
``tool_choice`` among the supported request fields, not ``strict``; a thinking model's reasoning
comes back in Ollama's own ``reasoning`` field, and sending ``reasoning_content`` back in the
history is reported to stall a conversation (anomalyco/opencode#34798), so it is not sent. The
page says the key is "required but ignored"."""

LLAMA_SERVER = ChatProfile(
    name="llama-server",
    docs=(
        "https://github.com/ggml-org/llama.cpp/blob/master/docs/function-calling.md",
        "https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md",
    ),
)
"""llama.cpp's ``llama-server`` (``http://localhost:8080/v1``): tool calls need ``--jinja``
(the model's chat template, or the generic handler); ``strict`` is not documented for tools, so
it is not sent, and nothing in its docs asks for ``reasoning_content`` back."""

VLLM = ChatProfile(
    name="vllm",
    docs=(
        "https://docs.vllm.ai/en/latest/features/tool_calling/",
        "https://docs.vllm.ai/en/latest/features/reasoning_outputs/",
    ),
)
"""vLLM (``http://localhost:8000/v1``): ``tool_choice: "auto"`` needs ``--enable-auto-tool-choice
--tool-call-parser NAME``; with ``--reasoning-parser`` the reply carries the reasoning in
``reasoning`` (formerly ``reasoning_content``), and the docs' multi-turn example sends back only
``content``; ``strict`` is not documented, so it is not sent."""

LM_STUDIO = ChatProfile(
    name="lm-studio",
    docs=(
        "https://lmstudio.ai/docs/developer/openai-compat",
        "https://lmstudio.ai/docs/developer",
    ),
)
"""LM Studio (``http://localhost:1234/v1``): tool calling through ``tools`` on its
OpenAI-compatible endpoints; ``strict`` on a function tool is not documented, so it is not
sent; no key unless "Require Authentication" is on."""

GENERIC = ChatProfile(name="generic")
"""Any other server: nothing beyond the Chat Completions format is sent."""

CHAT_PROFILES = {
    profile.name: profile for profile in (DEEPSEEK, OLLAMA, LLAMA_SERVER, VLLM, LM_STUDIO, GENERIC)
}
"""Every profile by its ``name``; :class:`OpenAICompatibleChatModel` accepts either."""


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

    Raises ``ValueError`` for an empty model or base URL, an unknown profile name, ``strict``
    on a profile without ``supports_strict``, a number out of range or a key an HTTP header
    cannot carry; ``TypeError`` for a setting of the wrong type. :meth:`generate` raises a
    :class:`ProviderError` subclass for every provider problem.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str,
        api_key: str | None = None,
        profile: ChatProfile | str = GENERIC,
        strict: bool = False,
        timeout: float | None = None,
        max_retries: int | None = None,
        instructions: str | None = None,
        max_arguments_chars: int = MAX_ARGUMENTS_CHARS,
    ) -> None:
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

    def generate(self, messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        """Send the whole transcript and the tools; return the model's turn.

        Input: the transcript (the runtime's message dicts) and the tool schemas
        (``{"name", "description", "parameters"}``). Output: a :class:`ModelTurn` with the
        tool calls in the reply's order, or the final text.

        Raises :class:`ProviderRequestError` before sending anything when a message cannot be
        translated or a call and its tool message are not paired; the provider's HTTP
        failures as :class:`ProviderConnectionError`, :class:`ProviderTimeoutError` or
        :class:`ProviderStatusError`; :class:`ProviderResponseError` for a reply that breaks
        the wire format or the adapter's limits. No handler runs on a rejected turn.
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
        extra = self._add_options(request)
        return to_chat_model_turn(
            self._send(request, extra),
            max_arguments_chars=self.max_arguments_chars,
            secrets=self._secrets,
            require_reasoning=self._thinks,
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
        return (("profile", self.profile.name), ("strict", self.strict))


_SHAPE_HINT = (
    "Check that the base URL (DEEPSEEK_BASE_URL for DeepSeek) points at a Chat Completions "
    "API; if it does, run again."
)
_UNKNOWN_FINISH_HINT = (
    "The server stopped for a reason the Chat Completions format does not define; look the "
    "reason up in that server's documentation, then run again."
)
_FINISH_HINTS = {
    "length": "The reply was cut off before the model finished; ask for less, or allow more "
    "output tokens.",
    "content_filter": "The provider's content filter stopped the reply; rephrase the request.",
    "insufficient_system_resource": "The provider ran short of capacity and stopped the reply; "
    "wait a little and run again.",
}


def to_chat_model_turn(
    completion: Mapping[str, Any],
    *,
    max_arguments_chars: int = MAX_ARGUMENTS_CHARS,
    secrets: Iterable[str] = (),
    require_reasoning: bool = False,
) -> ModelTurn:
    """Translate a chat completion (as JSON) into a :class:`ModelTurn`.

    The one choice's ``message.tool_calls`` become :class:`ToolCall` objects in order (``id`` is
    the ``call_id``; ``function.arguments`` parsed by
    :func:`~agentcore.providers.tool_calls.parse_arguments`, the same strict rules as the
    Responses adapter); without any, a non-blank ``content`` is the final text. Text said
    beside the calls and ``reasoning_content`` travel in ``provider_items`` as one
    ``{"content", "reasoning_content"}`` entry (only what was set), so that
    :func:`to_chat_messages` sends them back.

    Inputs: the reply; the longest ``arguments`` string accepted; the ``secrets`` that no text
    taken from the reply may show (each text passes through
    :func:`~agentcore.providers.http.redact`, the adapters' one redaction);
    ``require_reasoning`` (thinking mode on): a reply whose tool calls carry an empty
    ``reasoning_content`` is refused, since DeepSeek refuses the next request without it
    (Thinking Mode guide) and there is none to send back. A reply without the field at all
    comes from a server that does not think, and has nothing to send back.

    Raises :class:`ProviderResponseError` (with a hint, and ``rejected`` holding the refused
    choices' messages, secrets redacted, when there are any) for: no choice, or more than one
    (the adapter never sends ``n``, so it does not guess which one counts); a choice whose
    message is null or not an object; a ``finish_reason`` other than ``"stop"`` or
    ``"tool_calls"`` (``"length"``, ``"content_filter"``, ``"insufficient_system_resource"``
    each with their own hint, any other with a hint to look it up in the server's docs); no
    tool call and no text (naming a refusal if there is one); a call that is not a function,
    has an empty id or name (or one of another type, named), or whose arguments
    ``parse_arguments`` refuses; two calls sharing one id; with ``require_reasoning``, tool
    calls with an empty ``reasoning_content`` (refused before any handler runs);
    and any field of the wrong shape.
    """
    secrets = tuple(secrets)
    name = f"Chat completion {redact(repr(completion.get('id', '?')), secrets, limit=60)}"
    choices = completion.get("choices")
    messages = [
        choice.get("message")
        for choice in (choices if isinstance(choices, list) else ())
        if isinstance(choice, Mapping)
    ]
    rejected = tuple(redact_json(m, secrets) for m in messages if isinstance(m, Mapping))
    failure: ProviderResponseError
    try:
        return _to_turn(name, completion, max_arguments_chars, secrets, require_reasoning)
    except ProviderResponseError as error:
        failure = error
    except (AttributeError, TypeError, ValueError, KeyError, RecursionError) as error:
        failure = ProviderResponseError(
            f"{name} is not shaped like a Chat Completions object "
            f"({type(error).__name__}: {redact(str(error), secrets)}).",
            hint=_SHAPE_HINT,
        )
    failure.rejected = rejected
    raise failure


def _to_turn(
    name: str,
    completion: Mapping[str, Any],
    max_arguments_chars: int,
    secrets: tuple[str, ...],
    require_reasoning: bool,
) -> ModelTurn:
    choice = _only_choice(name, completion.get("choices"))
    message = choice.get("message")
    if message is None:
        what = "whose message is null" if "message" in choice else "without a message"
        raise ProviderResponseError(f"{name} has a choice {what}.", hint=_SHAPE_HINT)
    if not isinstance(message, Mapping):
        kind = type(message).__name__
        raise ProviderResponseError(
            f"{name} has a choice whose message is a {kind}, not an object.", hint=_SHAPE_HINT
        )
    finish_reason = choice.get("finish_reason")
    if finish_reason not in ("stop", "tool_calls"):
        shown = redact(repr(finish_reason), secrets, limit=60)
        raise ProviderResponseError(
            f"{name} stopped with finish_reason {shown}, not 'stop' or 'tool_calls'.",
            hint=_FINISH_HINTS.get(str(finish_reason), _UNKNOWN_FINISH_HINT),
        )
    raw_calls = message.get("tool_calls") or []
    if not isinstance(raw_calls, list):
        raise TypeError(f"tool_calls is a {type(raw_calls).__name__}, not a list")
    calls = [_tool_call(call, max_arguments_chars, secrets) for call in raw_calls]
    unique_calls(calls, noun="tool call", id_label="id")
    text, thought = message.get("content"), message.get("reasoning_content")
    for field, value in (("content", text), ("reasoning_content", thought)):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{field} is a {type(value).__name__}, not a string")
    text = None if text is None else redact(text, secrets, limit=None)
    thought = None if thought is None else redact(thought, secrets, limit=None)
    if calls and require_reasoning and thought == "":
        raise ProviderResponseError(
            f"{name} calls tools in thinking mode with an empty reasoning_content; DeepSeek "
            "refuses the next request unless it is sent back, and there is nothing to send.",
            hint="No tool ran for this turn; run again, or turn thinking off with "
            "reasoning_effort='none'.",
        )
    if calls:
        extras = {"content": text if text and text.strip() else None, "reasoning_content": thought}
        kept = {key: value for key, value in extras.items() if value is not None}
        return ModelTurn(tool_calls=tuple(calls), provider_items=(kept,) if kept else ())
    if text and text.strip():
        kept = {"reasoning_content": thought} if thought is not None else {}
        return ModelTurn(final_text=text, provider_items=(kept,) if kept else ())
    refusal = message.get("refusal")
    if refusal:
        raise ProviderResponseError(
            f"{name} is a refusal, not an answer: {redact(str(refusal), secrets)!r}.",
            hint="Rephrase the request.",
        )
    raise ProviderResponseError(
        f"{name} holds no tool call and no text.",
        hint="The model produced nothing the runtime can act on; run again.",
    )


def _only_choice(name: str, choices: object) -> Mapping[str, Any]:
    """The one choice of a reply; the adapter never asks for more (``n`` is not sent), so a
    reply with several is refused rather than read by position."""
    if not isinstance(choices, list) or not choices:
        raise ProviderResponseError(f"{name} holds no choice.", hint=_SHAPE_HINT)
    if len(choices) > 1:
        raise ProviderResponseError(
            f"{name} holds {len(choices)} choices; the adapter asks for one and cannot tell "
            "which the runtime should act on.",
            hint="Check that nothing between the adapter and the server adds n= to the "
            "request (a proxy, a server default); the turn was rejected.",
        )
    choice = choices[0]
    if not isinstance(choice, Mapping):
        raise TypeError(f"a choice is a {type(choice).__name__}, not an object")
    return choice


def _tool_call(call: Any, max_arguments_chars: int, secrets: tuple[str, ...]) -> ToolCall:
    if not isinstance(call, Mapping):
        raise TypeError(f"a tool call is a {type(call).__name__}, not an object")
    call_id, function = call.get("id"), call.get("function")
    shown_id = redact(repr(call_id), secrets, limit=60)
    if call.get("type", "function") != "function" or not isinstance(function, Mapping):
        raise ProviderResponseError(
            f"The tool call {shown_id} is of type "
            f"{redact(repr(call.get('type')), secrets, limit=60)}, not a function.",
            hint="The runtime can only run function tools; the turn was rejected.",
        )
    return checked_tool_call(
        call_id,
        function.get("name"),
        function.get("arguments"),
        max_arguments_chars,
        secrets,
        noun="tool call",
        id_label="id",
        name_label="function name",
    )
