"""``python -m agentcore doctor``: can this Chat Completions server do tool calls?

:func:`diagnose` sends two small requests through
:class:`~agentcore.providers.openai_compatible.OpenAICompatibleChatModel`, the same adapter
the runtime uses: the weather question with the weather tool (the model may call it), then
the same question forcing the tool with ``tool_choice`` (a server that honours tools must
call it). Each reply goes through the adapter's checks, so every quirk it absorbs or refuses
(:data:`~agentcore.providers.local_chat_server.QUIRKS`) shows up here by name.
:func:`report` says in the learner's language what was seen and what to change. No tool
handler runs: the doctor only reads the model turns.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from agentcore.course.teaching_tools import WEATHER_TOOL
from agentcore.course.text import Language, explain, phrase
from agentcore.course.weather import weather_request
from agentcore.protocol import Model, ModelTurn, ToolSchema
from agentcore.providers.errors import (
    ProviderConfigurationError,
    ProviderConnectionError,
    ProviderError,
    ProviderResponseError,
    ProviderStatusError,
    ServerQuirkError,
)
from agentcore.transcript import Message

PROBES = ("auto", "forced")
"""The two requests: ``tool_choice`` not sent (the model decides), then forcing the tool."""

ABSORBED = {
    "arguments_were_objects": "arguments-as-object",
    "made_call_ids": "missing-call-id",
    "finish_reason": "finish-reason-mismatch",
    "ignored_function_call": "legacy-function-call",
    "ignored_function_call_name": "legacy-call-with-colon",
}
"""The notes of a turn's ``{"adapter": ...}`` entry and the quirk each one means."""


@dataclass(frozen=True)
class ProbeResult:
    """What one probe got back.

    Fields: ``probe`` (``"auto"`` or ``"forced"``); ``turn`` (the adapter's
    :class:`ModelTurn`, or ``None`` when it raised); ``error`` (the provider error, or
    ``None``); ``quirks`` (the names seen, absorbed or refused, in order).
    """

    probe: str
    turn: ModelTurn | None
    error: ProviderError | None
    quirks: tuple[str, ...]

    @property
    def called_the_tool(self) -> bool:
        """True if the reply is a call to the weather tool that the runtime could run."""
        return self.turn is not None and any(
            call.name == WEATHER_TOOL.name for call in self.turn.tool_calls
        )


@dataclass(frozen=True)
class Diagnosis:
    """Both probes' results; ``can_call_tools`` and ``quirks`` summarise them."""

    results: tuple[ProbeResult, ...]

    @property
    def can_call_tools(self) -> bool:
        """True if at least one probe got a tool call the runtime can run."""
        return any(result.called_the_tool for result in self.results)

    @property
    def quirks(self) -> tuple[str, ...]:
        """Every quirk seen, once each, in the order seen."""
        seen: dict[str, None] = {}
        for result in self.results:
            seen.update(dict.fromkeys(result.quirks))
        return tuple(seen)

    @property
    def unreachable(self) -> ProviderError | None:
        """The error that says nothing answered (no further probe was sent), if one did."""
        for result in self.results:
            if isinstance(result.error, ProviderConnectionError):
                return result.error
        return None


def diagnose(model_for: Callable[[str | None], Model], language: Language = "en") -> Diagnosis:
    """Send both probes; return what each got.

    Input: ``model_for(tool_choice)``, which builds the adapter with that ``tool_choice``
    (``None`` for the first probe, the weather tool's name for the second), and the language
    of the question. Output: a :class:`Diagnosis`. Provider errors are results, not
    exceptions, also one raised while building the adapter (a setting it refuses); an
    unreachable server or an adapter that cannot be built stops after the first probe.
    Anything else (a bug) propagates. Each probe's adapter is closed after its request.
    """
    messages = [{"role": "user", "content": weather_request("Tokyo", "weather", language)}]
    tools = [WEATHER_TOOL.schema()]
    results: list[ProbeResult] = []
    for probe in PROBES:
        try:
            model = model_for(None if probe == "auto" else WEATHER_TOOL.name)
            turn = _generate(model, messages, tools)
        except ProviderError as error:
            results.append(ProbeResult(probe, None, error, _quirks_of_error(error)))
            if isinstance(error, ProviderConnectionError | ProviderConfigurationError):
                break  # nothing answered, or the adapter could not be built: no second probe
            continue
        results.append(ProbeResult(probe, turn, None, _quirks_of_turn(probe, turn)))
    return Diagnosis(tuple(results))


def _generate(model: Model, messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
    """One probe's turn; the adapter is closed afterwards when it can be."""
    try:
        return model.generate(messages, tools)
    finally:
        close = getattr(model, "close", None)
        if callable(close):
            close()


def _quirks_of_turn(probe: str, turn: ModelTurn) -> tuple[str, ...]:
    found: list[str] = []
    for item in turn.provider_items:
        notes = item.get("adapter") if isinstance(item, dict) else None
        if isinstance(notes, dict):
            found.extend(ABSORBED[note] for note in notes if note in ABSORBED)
    if probe == "forced" and not turn.tool_calls:
        found.append("tools-dropped")  # tools and tool_choice sent, a plain answer came back
    return tuple(found)


def _quirks_of_error(error: ProviderError) -> tuple[str, ...]:
    if isinstance(error, ServerQuirkError):
        return (error.quirk,)
    if isinstance(error, ProviderStatusError):
        if str(error.kind).startswith("tools need"):
            return ("tools-need-flag",)
        return ()
    if isinstance(error, ProviderResponseError) and error.kind == "arguments":
        return ("malformed-arguments",)
    return ()  # nothing answered, a setting refused, or a reply refused for another cause


def report(diagnosis: Diagnosis, profile: str, language: Language = "en") -> list[str]:
    """The doctor's lines, in ``language``: each probe, the verdict, the quirks, what to change.

    Inputs: the :class:`Diagnosis`, the name of the profile the adapter used (its server's
    setting is named), the language. Output: the lines to print, in order.
    """
    lines = []
    for result in diagnosis.results:
        label = phrase(f"doctor.probe {result.probe}", language)
        lines.append(
            phrase("doctor.probe line", language, probe=label, what=_what(result, language))
        )
    if diagnosis.unreachable is not None:
        lines.append(phrase("doctor.unreachable", language))
        return lines
    verdict = "yes" if diagnosis.can_call_tools else "no"
    lines.append(phrase(f"doctor.verdict {verdict}", language))
    names = diagnosis.quirks
    if names:
        lines.append(phrase("doctor.quirks", language, names=", ".join(names)))
    else:
        lines.append(phrase("doctor.no quirks", language))
    for advice in _advice(diagnosis, profile, language):
        lines.append(phrase("doctor.change", language, advice=advice))
    return lines


def _what(result: ProbeResult, language: Language) -> str:
    if result.error is not None:
        return phrase("doctor.refused", language, error=type(result.error).__name__)
    assert result.turn is not None
    if result.turn.tool_calls:
        call = result.turn.tool_calls[0]
        arguments: Any = call.arguments
        return phrase("doctor.called", language, tool=call.name, arguments=arguments)
    return phrase("doctor.answered", language, text=(result.turn.final_text or "")[:80])


def _advice(diagnosis: Diagnosis, profile: str, language: Language) -> Sequence[str]:
    """What to change: each refusal's explanation, then a line for each absorbed quirk."""
    said: list[str] = []
    for result in diagnosis.results:
        if result.error is not None:
            explanation = explain(result.error, language)
            if explanation not in said:
                said.append(explanation)
    setup = phrase(f"server setup.{profile}", language)
    seen_in_turns: dict[str, None] = {}
    for result in diagnosis.results:
        if result.turn is not None:  # absorbed by the adapter, or tools dropped
            seen_in_turns.update(dict.fromkeys(result.quirks))
    for quirk in seen_in_turns:
        said.append(phrase(f"doctor.fix.{quirk}", language, setup=setup))
    auto = next((r for r in diagnosis.results if r.probe == "auto"), None)
    if diagnosis.can_call_tools and auto is not None and not auto.called_the_tool:
        said.append(phrase("doctor.fix.auto skipped", language))
    if not said:
        said.append(phrase("doctor.fix.nothing", language))
    return said
