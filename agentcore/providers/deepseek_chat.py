"""DeepSeek through Chat Completions: the generic adapter with DeepSeek's profile (chapter 10).

:class:`DeepSeekChatModel` is
:class:`~agentcore.providers.openai_compatible.OpenAICompatibleChatModel` with
:data:`~agentcore.providers.chat_profiles.DEEPSEEK` and DeepSeek's settings
(``DEEPSEEK_*``, read by :func:`~agentcore.providers.deepseek_settings.deepseek_settings`, the
same function the Responses adapter uses). Its only own request field is DeepSeek's thinking
control (https://api-docs.deepseek.com/guides/thinking_mode): ``reasoning_effort``, or
``"thinking": {"type": "disabled"}`` for ``"none"``. The translations are in
:mod:`agentcore.providers.openai_compatible`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import SecretStr

from agentcore.providers.chat_profiles import DEEPSEEK
from agentcore.providers.connection import stripped_key
from agentcore.providers.deepseek_settings import (
    CONNECTION_HINT,
    ReasoningEffort,
    deepseek_settings,
)
from agentcore.providers.openai_compatible import OpenAICompatibleChatModel
from agentcore.providers.tool_calls import MAX_ARGUMENTS_CHARS


class DeepSeekChatModel(OpenAICompatibleChatModel):
    """A :class:`agentcore.Model` backed by DeepSeek's Chat Completions API (chapter section 10).

    The twin of :class:`~agentcore.providers.deepseek.DeepSeekResponsesModel`: the same
    settings, read and checked in the same place, and the same trust boundary. Only the wire
    format differs: ``POST {base_url}/chat/completions`` with ``messages``, stateless, the
    whole transcript sent every turn, the ``reasoning_content`` of a tool-calling turn sent
    back (the :data:`~agentcore.providers.chat_profiles.DEEPSEEK` profile).

    Inputs (all keyword-only except ``model``):

    * ``model``: the model name (``deepseek-flash``); default ``DEEPSEEK_MODEL``.
    * ``api_key``: default ``DEEPSEEK_API_KEY``. Kept out of every repr and message.
    * ``base_url``: default ``DEEPSEEK_BASE_URL``, else ``https://api.deepseek.com``.
    * ``timeout``: seconds one HTTP attempt may take in total (default 60);
      ``max_retries``: the SDK's retries, 0 to 5 (default 2).
    * ``reasoning_effort``: ``"low"``, ``"high"`` or ``"max"``, sent as
      ``reasoning_effort``; ``"none"`` turns thinking off (``"thinking": {"type":
      "disabled"}``); default ``None`` sends neither (DeepSeek thinks at ``high``). Source:
      https://api-docs.deepseek.com/guides/thinking_mode.
    * ``strict`` (default ``False``): send every function tool with ``"strict": true``.
      DeepSeek documents strict function calling as a beta that needs the beta base URL,
      ``base_url="https://api.deepseek.com/beta"``, and every function strict
      (https://api-docs.deepseek.com/guides/tool_calls). The runtime validates every call's
      arguments either way.
    * ``instructions``: sent as a first ``{"role": "system"}`` message, if given.
    * ``max_arguments_chars``: the longest ``arguments`` string accepted.

    Raises :class:`ProviderConfigurationError` when no API key or no model is configured
    (one sentence with the commands for bash, PowerShell and cmd) or the key cannot travel in
    an HTTP header; ``ValueError`` for a number out of range or an unknown effort;
    ``TypeError`` for a setting of the wrong type. :meth:`generate` raises a
    :class:`ProviderError` subclass for every provider problem.
    """

    connection_hint = CONNECTION_HINT
    status_hints = "deepseek"

    def __init__(
        self,
        model: str | None = None,
        *,
        api_key: str | SecretStr | None = None,
        base_url: str | None = None,
        timeout: float | None = None,
        max_retries: int | None = None,
        reasoning_effort: ReasoningEffort | None = None,
        strict: bool = False,
        instructions: str | None = None,
        max_arguments_chars: int = MAX_ARGUMENTS_CHARS,
    ) -> None:
        api_key = stripped_key(api_key)  # from here on, no frame holds the key's text
        settings = deepseek_settings(model, api_key, base_url, reasoning_effort)
        super().__init__(
            **settings._asdict(),
            profile=DEEPSEEK,
            strict=strict,
            timeout=timeout,
            max_retries=max_retries,
            instructions=instructions,
            max_arguments_chars=max_arguments_chars,
        )
        self.reasoning_effort = reasoning_effort

    def _add_options(self, request: dict[str, Any]) -> dict[str, Any]:
        """DeepSeek's thinking control: ``reasoning_effort``, or thinking disabled."""
        if self.reasoning_effort == "none":
            return {"thinking": {"type": "disabled"}}  # not an SDK parameter: extra_body
        if self.reasoning_effort is not None:
            request["reasoning_effort"] = self.reasoning_effort
        return {}

    @property
    def _thinks(self) -> bool:
        """DeepSeek thinks unless ``reasoning_effort="none"`` turned it off."""
        return self.reasoning_effort != "none"

    def _repr_options(self) -> Iterable[tuple[str, object]]:
        # No profile: a DeepSeekChatModel always has DeepSeek's.
        return (("reasoning_effort", self.reasoning_effort), ("strict", self.strict))
