"""What every adapter owns whatever its wire format: checked settings, its client, one send.

:class:`Connection` is the base of :class:`~agentcore.providers.deepseek.DeepSeekResponsesModel`
and :class:`~agentcore.providers.openai_compatible.OpenAICompatibleChatModel` (and so of
:class:`~agentcore.providers.deepseek_chat.DeepSeekChatModel`). It holds the settings it was
given, checked once (a subclass decides where unset ones come from: DeepSeek's adapters read
``DEEPSEEK_*``, the generic Chat Completions adapter reads nothing), the HTTP client it builds
and owns (:func:`agentcore.providers.http.build_sdk_client`: nothing from ``OPENAI_*``, no
proxy for loopback, no redirects, capped replies, one deadline per attempt), one way to send a
request through the SDK and get the reply back as the JSON it arrived as (:meth:`_post`), a
repr with the key redacted, and :meth:`~Connection.close` (an adapter is also a context
manager). The key is checked once (:func:`key_problem`) and held in a ``SecretStr`` from the
first line that receives it. The wire formats themselves stay in their own modules.
"""

from __future__ import annotations

import math
import re
import weakref
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, TypeVar, cast

import openai
from pydantic import SecretStr

from agentcore.providers.errors import ProviderError, ProviderResponseError, ProviderStatusError
from agentcore.providers.http import (
    MAX_RETRIES_LIMIT,
    SecretText,
    build_sdk_client,
    hidden,
    redact,
    redact_json,
    sdk_error,
)
from agentcore.providers.tool_calls import MAX_ARGUMENTS_CHARS
from agentcore.validation import int_at_least

DEFAULT_TIMEOUT = 60.0
"""Seconds one HTTP attempt may take in total: connecting, sending and the whole reply."""
DEFAULT_MAX_RETRIES = 2
"""How many times the SDK retries a refused connection, 408, 409, 429 or 5xx (at most 5)."""

_QUOTES = "\"'`“”‘’"
_PLACEHOLDER = re.compile(r"(?i)\A(?:your\W?.*key|<.*>|sk-x+|x{4,}|(?:sk-)?\.\.\.)\Z")
"""Example values that stand where a key goes: ``your-deepseek-api-key`` (the course's own
example), ``your_api_key``, ``<...>``, ``sk-xxxx``, ``sk-...``."""


def key_problem(key: SecretStr) -> str | None:
    """What makes ``key`` unusable as an API key, as words that follow the setting's name, or
    ``None`` when it can be sent.

    Input: the key (surrounding white space already removed). Refused, in this order: a key
    that starts or ends with a quote mark (copied with its quotes); one holding a space, a
    line break, a non-ASCII or an invisible character (an HTTP header cannot carry it); an
    example value (:data:`_PLACEHOLDER`), which every server would answer with 401 only
    after the request was sent. Raises nothing; the key is read here and never returned.
    """
    if key.get_secret_value()[:1] in _QUOTES or key.get_secret_value()[-1:] in _QUOTES:
        return "starts or ends with a quote mark"
    if not (
        key.get_secret_value().isascii()
        and key.get_secret_value().isprintable()
        and " " not in key.get_secret_value()
    ):
        return "holds a space, a non-ASCII or an invisible character"
    if _PLACEHOLDER.match(key.get_secret_value()):
        return "is an example value, not a key"
    return None


class Connection:
    """An adapter's checked settings and the HTTP client it owns (every wire format's base).

    Inputs (keyword-only, already resolved by the subclass): ``model`` (a non-empty name);
    ``api_key`` (text or a ``SecretStr``, sent as ``Authorization: Bearer``; ``None`` or an
    empty key sends no Authorization header at all; surrounding white space is removed);
    ``base_url``; ``timeout`` (seconds one HTTP attempt may take, default 60);
    ``max_retries`` (0 to 5, default 2); ``instructions`` (a system prompt, or ``None``);
    ``max_arguments_chars`` (the longest ``arguments`` string accepted).

    Attributes: ``model``, ``instructions``, ``max_arguments_chars``, ``timeout``,
    ``max_retries`` and :attr:`base_url`; the key stays private, in a ``SecretStr``, and out
    of every text. Each subclass names the setting that holds its address in
    :attr:`connection_hint`.

    The adapter owns an HTTP connection pool: :meth:`close` it when done, or use the adapter
    as a context manager (``with OpenAICompatibleChatModel(...) as model:``); one that is
    collected unclosed closes its pool then (``weakref.finalize``).

    Raises ``TypeError`` for a setting of the wrong type, ``ValueError`` for an empty model or
    base URL, a number out of range, or a key that starts or ends with a quote mark, holds a
    character an HTTP header cannot carry or is an example value (:func:`key_problem`);
    :class:`~agentcore.providers.errors.ProviderSettingsError` for a base URL that is not a
    URL or holds a user name and password.
    """

    connection_hint: ClassVar[str]
    """The hint of a :class:`~agentcore.providers.errors.ProviderConnectionError`: where the
    address was set (``DEEPSEEK_BASE_URL``, ``base_url``), the network and the proxy."""
    status_hints: ClassVar[str]
    """Whose table of :data:`~agentcore.providers.errors.STATUS_HINT_TABLES` explains an HTTP
    error status: ``"deepseek"`` (``DEEPSEEK_*``) or ``"server"`` (``model``, ``base_url``)."""

    def __init__(
        self,
        *,
        model: str,
        api_key: SecretText | None,
        base_url: str,
        timeout: float | None = None,
        max_retries: int | None = None,
        instructions: str | None = None,
        max_arguments_chars: int = MAX_ARGUMENTS_CHARS,
    ) -> None:
        key = stripped_key(api_key)
        api_key = None  # only the SecretStr stays, in this frame as in the adapter
        for name, value in (("model", model), ("base_url", base_url)):
            if not isinstance(value, str):
                raise TypeError(f"{name} must be a str, got {type(value).__name__}")
            if not value.strip():
                raise ValueError(f"{name} must not be empty; pass the {name} your server serves")
        problem = None if key is None else key_problem(key)
        if problem is not None:
            raise ValueError(
                f"api_key {problem}; copy the key again and pass it without quotes or spaces "
                "(api_key=None for a server that needs no key)"
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
        # An adapter dropped without close() (a notebook cell run again) closes its pool when
        # it is collected, instead of leaving open sockets behind.
        self._closer = weakref.finalize(self, self._client.close)

    @property
    def base_url(self) -> str:
        """Where requests go (the API's path is added to it), without a trailing slash."""
        return redact(str(self._client.base_url).rstrip("/"), self._secrets, limit=None)

    @property
    def _secrets(self) -> tuple[SecretStr, ...]:
        """What no text the adapter builds may show: its key, if it has one."""
        return () if self._api_key is None else (self._api_key,)

    def close(self) -> None:
        """Close the adapter's HTTP connections; a later :meth:`generate` raises
        ``RuntimeError``. Closing twice is harmless; an adapter that is collected without
        being closed is closed then."""
        closer = getattr(self, "_closer", None)  # a half-built adapter has none
        if closer is not None:
            closer()

    def __enter__(self: _Self) -> _Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

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
        unreadable bodies); the reply comes back with the adapter's key redacted in every
        string (:func:`~agentcore.providers.http.redact_json`); the SDK's own exceptions are
        typed by
        :func:`agentcore.providers.http.sdk_error`; a reply of another type is a
        :class:`ProviderResponseError`.
        """
        if self._client.is_closed():
            raise RuntimeError(
                f"this {type(self).__name__} was closed; build a new adapter to send again"
            )
        failure: ProviderError
        try:
            # The request follows the provider's documented wire format (replayed items,
            # reasoning_content), which the SDK's TypedDicts cannot describe.
            # Without a key the SDK needs the Authorization header omitted on each request.
            no_key = self._api_key is None
            omit = {"extra_headers": {"Authorization": openai.Omit()}} if no_key else {}
            reply = create(**request, **omit)
        except ProviderStatusError as error:  # a redirect the owned transport refused
            failure = ProviderStatusError(
                error.status_code, error.provider_message, hints=self.status_hints
            )
        except openai.OpenAIError as error:
            failure = sdk_error(
                error,
                base_url=self.base_url,
                secrets=self._secrets,
                connection_hint=self.connection_hint,
                hints=self.status_hints,
            )
        else:
            if isinstance(reply, expected):
                # Malformed fields are the adapter's to report, not pydantic's to warn about
                # while turning the reply back into the JSON it arrived as. A key the server
                # echoed is redacted on arrival: no later frame's variables hold it.
                arrived: dict[str, Any] = reply.to_dict(mode="json", warnings=False)
                return cast("dict[str, Any]", redact_json(arrived, self._secrets))
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
        if "_client" not in vars(self):  # construction failed: a repr that shows what was set
            return f"{type(self).__name__}(<not built>)"
        options = "".join(f", {name}={value!r}" for name, value in self._repr_options() if value)
        return redact(
            f"{type(self).__name__}(model={self.model!r}, base_url={self.base_url!r}, "
            f"timeout={self.timeout!r}, max_retries={self.max_retries}{options})",
            self._secrets,
            limit=None,
        )


_Self = TypeVar("_Self", bound=Connection)


def stripped_key(api_key: object) -> SecretStr | None:
    """``api_key`` in a ``SecretStr``, surrounding white space removed; ``None`` for no key
    (``None`` or empty). Raises ``TypeError`` for anything but a ``str`` or ``SecretStr``.

    Every adapter's ``__init__`` calls it on its first line and rebinds ``api_key`` to the
    result, so that a traceback printing that frame's local variables shows no key."""
    if api_key is not None and not isinstance(api_key, str | SecretStr):
        raise TypeError(f"api_key must be a str or None, got {type(api_key).__name__}")
    key = hidden(api_key or "")
    return SecretStr(key.get_secret_value().strip()) if key.get_secret_value().strip() else None


def _positive_seconds(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"timeout must be a number of seconds, got {type(value).__name__}")
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"timeout must be a positive number of seconds, got {value!r}")
    return float(value)
