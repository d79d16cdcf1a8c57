"""What every adapter owns whatever its wire format: checked settings, its client, one send.

:class:`Connection` is the base of :class:`~agentcore.providers.deepseek.DeepSeekResponsesModel`
and :class:`~agentcore.providers.openai_compatible.OpenAICompatibleChatModel` (and so of
:class:`~agentcore.providers.deepseek_chat.DeepSeekChatModel`). It holds the settings it was
given, checked once (a subclass decides where unset ones come from: DeepSeek's adapters read
``DEEPSEEK_*``, the generic Chat Completions adapter reads nothing), the HTTP client it builds
and owns (:func:`agentcore.providers.http.build_sdk_client`: nothing from ``OPENAI_*``, no
proxy for loopback, no redirects, capped replies, one deadline per attempt), one way to send a
request through the SDK and get the reply back as the JSON it arrived as (:meth:`_post`), and a
repr with the key redacted. The wire formats themselves stay in their own modules.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

import openai

from agentcore.providers.errors import ProviderError, ProviderResponseError
from agentcore.providers.http import MAX_RETRIES_LIMIT, build_sdk_client, redact, sdk_error
from agentcore.providers.tool_calls import MAX_ARGUMENTS_CHARS
from agentcore.validation import int_at_least

DEFAULT_TIMEOUT = 60.0
"""Seconds one HTTP attempt may take in total: connecting, sending and the whole reply."""
DEFAULT_MAX_RETRIES = 2
"""How many times the SDK retries a refused connection, 408, 409, 429 or 5xx (at most 5)."""


class Connection:
    """An adapter's checked settings and the HTTP client it owns (every wire format's base).

    Inputs (keyword-only, already resolved by the subclass): ``model`` (a non-empty name);
    ``api_key`` (sent as ``Authorization: Bearer``; ``None`` sends no Authorization header at
    all); ``base_url``; ``timeout`` (seconds one HTTP attempt may take, default 60);
    ``max_retries`` (0 to 5, default 2); ``instructions`` (a system prompt, or ``None``);
    ``max_arguments_chars`` (the longest ``arguments`` string accepted).

    Attributes: ``model``, ``instructions``, ``max_arguments_chars``, ``timeout``,
    ``max_retries`` and :attr:`base_url`; the key stays private and out of every text. Each
    subclass names the setting that holds its address in :attr:`connection_hint`.

    Raises ``TypeError`` for a setting of the wrong type, ``ValueError`` for an empty model or
    base URL, a number out of range, or a key an HTTP header cannot carry.
    """

    connection_hint: ClassVar[str]
    """The hint of a :class:`~agentcore.providers.errors.ProviderConnectionError`: where the
    address was set (``DEEPSEEK_BASE_URL``, ``base_url``), the network and the proxy."""

    def __init__(
        self,
        *,
        model: str,
        api_key: str | None,
        base_url: str,
        timeout: float | None = None,
        max_retries: int | None = None,
        instructions: str | None = None,
        max_arguments_chars: int = MAX_ARGUMENTS_CHARS,
    ) -> None:
        for name, value in (("model", model), ("base_url", base_url)):
            if not isinstance(value, str):
                raise TypeError(f"{name} must be a str, got {type(value).__name__}")
            if not value.strip():
                raise ValueError(f"{name} must not be empty; pass the {name} your server serves")
        if api_key is not None and not isinstance(api_key, str):
            raise TypeError(f"api_key must be a str or None, got {type(api_key).__name__}")
        key = (api_key or "").strip()
        if not (key.isascii() and key.isprintable() and " " not in key):
            raise ValueError(
                "api_key holds a space, a non-ASCII or an invisible character; copy the key "
                "again and pass it without quotes or spaces"
            )
        if instructions is not None and not isinstance(instructions, str):
            kind = type(instructions).__name__
            raise TypeError(f"instructions must be a str or None, got {kind}")
        retries = int_at_least(
            "max_retries", DEFAULT_MAX_RETRIES if max_retries is None else max_retries, 0
        )
        if retries > MAX_RETRIES_LIMIT:
            raise ValueError(f"max_retries must be at most {MAX_RETRIES_LIMIT}, got {retries}")
        self.model = model.strip()
        self.instructions = instructions
        self.max_arguments_chars = int_at_least("max_arguments_chars", max_arguments_chars, 1)
        self.timeout = _positive_seconds(DEFAULT_TIMEOUT if timeout is None else timeout)
        self.max_retries = retries
        self._api_key = key
        self._client = build_sdk_client(
            api_key=key, base_url=base_url.strip(), timeout=self.timeout, max_retries=retries
        )

    @property
    def base_url(self) -> str:
        """Where requests go (the API's path is added to it), without a trailing slash."""
        return redact(str(self._client.base_url).rstrip("/"), self._secrets, limit=None)

    @property
    def _secrets(self) -> tuple[str, ...]:
        """What no text the adapter builds may show: its key, if it has one."""
        return (self._api_key,) if self._api_key else ()

    def _post(
        self,
        create: Callable[..., object],
        request: dict[str, Any],
        *,
        expected: type[openai.BaseModel],
        endpoint: str,
        what: str,
        hint: str,
    ) -> dict[str, Any]:
        """POST one request through the SDK's ``create``; return the reply as its JSON.

        Inputs: the SDK method (``client.responses.create``, ...), its keyword arguments, the
        reply type it must return, the endpoint and a name for that type (for the message),
        and the hint of a reply of another type. The owned HTTP client raises
        :class:`ProviderError` itself for the boundary's failures (deadline, caps, redirects,
        unreadable bodies); the SDK's own exceptions are typed by
        :func:`agentcore.providers.http.sdk_error`; a reply of another type is a
        :class:`ProviderResponseError`.
        """
        failure: ProviderError
        try:
            # The request follows the provider's documented wire format (replayed items,
            # reasoning_content), which the SDK's TypedDicts cannot describe.
            # Without a key the SDK needs the Authorization header omitted on each request.
            omit = {} if self._api_key else {"extra_headers": {"Authorization": openai.Omit()}}
            reply = create(**request, **omit)
        except openai.OpenAIError as error:
            failure = sdk_error(
                error,
                base_url=self.base_url,
                secrets=self._secrets,
                connection_hint=self.connection_hint,
            )
        else:
            if isinstance(reply, expected):
                # Malformed fields are the adapter's to report, not pydantic's to warn about
                # while turning the reply back into the JSON it arrived as.
                return reply.to_dict(mode="json", warnings=False)
            failure = ProviderResponseError(
                f"The reply from {self.base_url}{endpoint} is not {what} "
                f"(got {type(reply).__name__}).",
                kind="shape",
                hint=hint,
            )
        # Raised here, outside the except block, so the SDK's exception (whose request holds
        # the Authorization header) is not chained to ours and never printed.
        raise failure

    def _repr_options(self) -> Iterable[tuple[str, object]]:
        """The settings a subclass adds to its repr (shown only when set)."""
        return ()

    def __repr__(self) -> str:
        options = "".join(f", {name}={value!r}" for name, value in self._repr_options() if value)
        return redact(
            f"{type(self).__name__}(model={self.model!r}, base_url={self.base_url!r}, "
            f"timeout={self.timeout!r}, max_retries={self.max_retries}{options})",
            self._secrets,
            limit=None,
        )


def _positive_seconds(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"timeout must be a number of seconds, got {type(value).__name__}")
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"timeout must be a positive number of seconds, got {value!r}")
    return float(value)
