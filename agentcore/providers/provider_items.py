"""One transcript, every adapter: what one wire format's ``provider_items`` mean to the other.

An assistant message of the runtime's transcript may carry ``provider_items``: what the
provider said in that turn beyond the calls and the text the runtime models, kept so that the
adapter can send it back (DeepSeek's thinking mode answers 400 when the reasoning of a
tool-calling turn is missing). Each adapter writes them in its own wire format:

============================================ ==================================================
written by                                   ``provider_items`` of one assistant message
============================================ ==================================================
the Responses adapter (``to_model_turn``)    the reply's output items, each with a ``type``:
                                             ``reasoning`` (``content``/``summary`` parts with
                                             ``text``), ``message`` (``output_text`` parts),
                                             ``function_call``
the Chat Completions adapters                one entry without ``type``:
(``to_chat_model_turn``)                     ``{"content", "reasoning_content"}`` (what was set)
============================================ ==================================================

A transcript may move from one adapter to another (a lesson switches ``--api``; an
application retries on another server), so each adapter reads both: :func:`chat_extras` gives
the Chat Completions fields of either, :func:`responses_items` the Responses input items of
either, reasoning included. Anything else is refused with :class:`ProviderRequestError`
naming the message and the item, before anything is sent. Sources: DeepSeek's Responses API
and Chat Completions references and its Thinking Mode guide
(https://api-docs.deepseek.com/guides/thinking_mode).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agentcore.providers.errors import ProviderRequestError

CHAT_FIELDS = ("content", "reasoning_content")
"""The fields of a Chat Completions assistant message that the runtime does not model."""


def item_text(item: Mapping[str, Any], *part_types: str) -> str:
    """The text of a Responses item's ``content`` and ``summary`` parts of ``part_types``
    (every part with a ``text`` when none is given)."""
    parts = [*(item.get("content") or ()), *(item.get("summary") or ())]
    return "".join(
        str(part.get("text", ""))
        for part in parts
        if isinstance(part, Mapping) and (not part_types or part.get("type") in part_types)
    )


def chat_extras(provider_items: Any, index: int) -> dict[str, str]:
    """The Chat Completions fields of one assistant message's ``provider_items``.

    Inputs: the items (either wire format's) and the message's index in the transcript (for
    the error). Output: ``{"content": ..., "reasoning_content": ...}`` with what is set: a
    Chat entry as written; from Responses items, the ``reasoning`` items' text as
    ``reasoning_content`` and the ``message`` items' ``output_text`` as ``content``
    (``function_call`` items are the transcript's ``tool_calls`` already). Empty texts are
    left out. Raises :class:`ProviderRequestError` for any other item.
    """
    found: dict[str, str] = {}
    texts: dict[str, list[str]] = {"content": [], "reasoning_content": []}
    for number, item in enumerate(_items(provider_items, index)):
        kind = item.get("type")
        if kind is None and set(item) <= set(CHAT_FIELDS):
            found.update({key: value for key, value in item.items() if isinstance(value, str)})
        elif kind == "reasoning":
            texts["reasoning_content"].append(item_text(item))
        elif kind == "message":
            texts["content"].append(item_text(item, "output_text"))
        elif kind != "function_call":
            raise _untranslatable(index, number, item, "Chat Completions")
    for key, pieces in texts.items():
        if "".join(pieces):
            found[key] = "".join(pieces)
    return {key: value for key, value in found.items() if value}


def responses_items(provider_items: Any, index: int) -> list[dict[str, Any]]:
    """The Responses input items of one assistant message's ``provider_items``, in order.

    Inputs as :func:`chat_extras`. Output: Responses items (anything with a ``type``) as they
    are; a Chat entry becomes a ``reasoning`` item holding its ``reasoning_content`` as plain
    ``reasoning_text`` and, for the text said beside calls, an assistant ``message`` item
    holding its ``content`` as ``output_text`` (the reasoning first, where a Responses reply
    puts it). Raises :class:`ProviderRequestError` for any other item.
    """
    result: list[dict[str, Any]] = []
    for number, item in enumerate(_items(provider_items, index)):
        if isinstance(item.get("type"), str):
            result.append(dict(item))
        elif "type" not in item and set(item) <= set(CHAT_FIELDS):
            thought, said = item.get("reasoning_content"), item.get("content")
            if isinstance(thought, str) and thought:
                result.append(
                    {
                        "type": "reasoning",
                        "summary": [],
                        "content": [{"type": "reasoning_text", "text": thought}],
                    }
                )
            if isinstance(said, str) and said:
                result.append(
                    {
                        "type": "message",
                        "role": "assistant",
                        "content": [{"type": "output_text", "text": said}],
                    }
                )
        else:
            raise _untranslatable(index, number, item, "Responses")
    return result


def _items(provider_items: Any, index: int) -> list[Mapping[str, Any]]:
    items = list(provider_items or ())
    for number, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise ProviderRequestError(
                f"Transcript message {index} holds provider item {number}, a "
                f"{type(item).__name__}, not an object; nothing was sent.",
                hint=_HINT,
            )
    return items


def _untranslatable(
    index: int, number: int, item: Mapping[str, Any], wire: str
) -> ProviderRequestError:
    kind = item.get("type")
    what = f"of type {kind!r}" if kind is not None else f"with the keys {sorted(map(str, item))}"
    return ProviderRequestError(
        f"Transcript message {index} holds provider item {number} {what}, which the {wire} "
        "adapter cannot translate; nothing was sent.",
        hint=_HINT,
    )


_HINT = (
    "provider_items are written by an adapter for its wire format; keep the ones an agentcore "
    "adapter wrote, or remove the item from the message."
)
