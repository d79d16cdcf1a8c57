"""DeepSeek's settings, read and checked in one place for both DeepSeek adapters.

:class:`~agentcore.providers.deepseek.DeepSeekResponsesModel` and
:class:`~agentcore.providers.deepseek_chat.DeepSeekChatModel` take the same settings; the unset
ones come from ``DEEPSEEK_MODEL``, ``DEEPSEEK_API_KEY`` and ``DEEPSEEK_BASE_URL``
(:func:`deepseek_settings`). Nothing else reads these variables, and the generic
:class:`~agentcore.providers.openai_compatible.OpenAICompatibleChatModel` reads none at all.

Source: DeepSeek's API docs (https://api-docs.deepseek.com/, "Your First API Call" for the
base URL, "Thinking Mode" for ``reasoning_effort``:
https://api-docs.deepseek.com/guides/thinking_mode).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Literal, NamedTuple, get_args

from pydantic import SecretStr

from agentcore.providers.connection import key_problem, stripped_key
from agentcore.providers.errors import ProviderConfigurationError

DEFAULT_BASE_URL = "https://api.deepseek.com"
"""DeepSeek's API; the SDK adds the endpoint (``/responses``, ``/chat/completions``)."""
CONNECTION_HINT = (
    "Check DEEPSEEK_BASE_URL (default https://api.deepseek.com), your network and any proxy "
    "(HTTPS_PROXY, NO_PROXY)."
)
"""What both DeepSeek adapters say when nothing answered at their base URL."""
ReasoningEffort = Literal["none", "low", "high", "max"]
"""DeepSeek's documented efforts for ``reasoning.effort``; ``"none"`` turns thinking off."""

_EXAMPLES = {"DEEPSEEK_API_KEY": "your-deepseek-api-key", "DEEPSEEK_MODEL": "deepseek-flash"}
"""Placeholder values shown in the configuration message, never a real key."""


class DeepSeekSettings(NamedTuple):
    """A DeepSeek adapter's model, key and base URL, each given or read from ``DEEPSEEK_*``.

    The key is a pydantic ``SecretStr``: the repr shows ``api_key=SecretStr('**********')``.
    """

    model: str
    api_key: SecretStr
    base_url: str


def deepseek_settings(
    model: str | None,
    api_key: str | SecretStr | None,
    base_url: str | None,
    reasoning_effort: str | None,
) -> DeepSeekSettings:
    """Check a DeepSeek adapter's settings, filling the unset ones from ``DEEPSEEK_*``.

    Inputs: the ``model``, ``api_key`` and ``base_url`` given to the adapter (``None``: read
    ``DEEPSEEK_MODEL``, ``DEEPSEEK_API_KEY``, ``DEEPSEEK_BASE_URL``; the base URL falls back to
    :data:`DEFAULT_BASE_URL`) and the ``reasoning_effort``. Output: :class:`DeepSeekSettings`.
    Timeouts and retries are checked by :class:`~agentcore.providers.connection.Connection`.

    Raises :class:`ProviderConfigurationError` when no API key or no model is configured (one
    sentence with the commands for bash, PowerShell and cmd), or the key starts or ends with
    a quote mark, holds a character an HTTP header cannot carry or is an example value such
    as ``your-deepseek-api-key``
    (:func:`~agentcore.providers.connection.key_problem`), naming ``DEEPSEEK_API_KEY``;
    ``ValueError`` for an unknown effort; ``TypeError`` for a setting of the wrong type. The
    key is read straight into a ``SecretStr``: no local variable here holds its text.
    """
    for name, value in (("model", model), ("base_url", base_url)):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} must be a str, got {type(value).__name__}")
    key = stripped_key(api_key) or stripped_key(os.environ.get("DEEPSEEK_API_KEY"))
    api_key = None
    model = (model or os.environ.get("DEEPSEEK_MODEL", "")).strip()
    missing = [
        name for name, value in (("DEEPSEEK_API_KEY", key), ("DEEPSEEK_MODEL", model)) if not value
    ]
    if missing or key is None:
        raise _missing_settings(missing)
    problem = key_problem(key)
    if problem is not None:  # usually a character, quotes or an example pasted by accident
        raise ProviderConfigurationError(
            f"DEEPSEEK_API_KEY {problem}; copy the key again from "
            "https://platform.deepseek.com/api_keys and set it without quotes or spaces."
        )
    if reasoning_effort is not None and reasoning_effort not in get_args(ReasoningEffort):
        raise ValueError(
            f"reasoning_effort must be one of {', '.join(get_args(ReasoningEffort))} or "
            f"None, got {reasoning_effort!r}"
        )
    return DeepSeekSettings(
        model=model,
        api_key=key,
        base_url=base_url or os.environ.get("DEEPSEEK_BASE_URL", "").strip() or DEFAULT_BASE_URL,
    )


def _missing_settings(names: Sequence[str]) -> ProviderConfigurationError:
    """One sentence naming the unset variables and the commands for bash, PowerShell, cmd."""
    bash = "; ".join(f'export {name}="{_EXAMPLES[name]}"' for name in names)
    powershell = "; ".join(f'$env:{name}="{_EXAMPLES[name]}"' for name in names)
    cmd = " & ".join(f'set "{name}={_EXAMPLES[name]}"' for name in names)
    several = len(names) > 1
    return ProviderConfigurationError(
        f"{' and '.join(names)} {'are' if several else 'is'} not set:",
        hint=f"set {'them' if several else 'it'} in bash with `{bash}`, in PowerShell with "
        f"`{powershell}`, or in cmd with `{cmd}`, then start Python (or JupyterLab) from "
        "that same shell.",
    )
