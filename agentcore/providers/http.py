"""The adapters' trust boundary: the HTTP client they own, and the one redaction function.

A provider adapter hands the official ``openai`` SDK an HTTP client it builds itself
(:func:`build_sdk_client`): an ``httpx2.Client``, the HTTP library the SDK is built on and the
type of its ``http_client`` argument (httpx's successor, same API; no extra dependency). So
what leaves the machine and what comes back are decided here, not by the SDK's defaults or the
learner's environment:

* **Only the adapter's headers.** The SDK reads ``OPENAI_API_KEY``, ``OPENAI_ADMIN_KEY``,
  ``OPENAI_BASE_URL``, ``OPENAI_ORG_ID``, ``OPENAI_PROJECT_ID`` and ``OPENAI_CUSTOM_HEADERS``
  when the matching constructor argument is missing; an ``Authorization`` line in
  ``OPENAI_CUSTOM_HEADERS`` would even replace the DeepSeek key. :func:`build_sdk_client`
  passes every one of those arguments, and :class:`BoundedTransport` sends a request only with
  the headers of :data:`ALLOWED_HEADERS` plus the adapter's own, whatever a future SDK adds.
* **Proxies.** Loopback traffic (127.0.0.0/8, ``::1``, ``localhost``) never goes through a
  proxy; traffic to a provider honours ``HTTPS_PROXY``/``HTTP_PROXY``/``ALL_PROXY`` and
  ``NO_PROXY`` (read with the standard library's :func:`urllib.request.getproxies`).
* **No redirects.** A 3xx answer is a :class:`ProviderStatusError` naming the status and the
  host it pointed to; following it would carry the key and the transcript elsewhere.
* **Bounded replies.** At most :data:`MAX_WIRE_BYTES` on the wire and
  :data:`MAX_DECODED_BYTES` after gzip/deflate decoding (a 0.3 MB gzip bomb stops at the cap),
  one total deadline per HTTP attempt (a server sending one byte every 0.5 s cannot hold a
  call), and ``max_retries`` at most :data:`MAX_RETRIES_LIMIT`.
* **Readable replies or a typed error.** A 2xx body must be UTF-8 JSON nested at most
  :data:`MAX_NESTING` deep; broken compression, invalid UTF-8, deep nesting and a body that
  ends early are :class:`ProviderResponseError`, never ``RecursionError``, ``ValueError`` or
  "could not connect".
* **One redaction function.** :func:`redact` removes secrets first and shortens afterwards;
  every text an adapter builds from what it received (status errors, reply text, previews,
  reprs, connection errors) goes through it.
* **The key in one object.** The API key travels as a pydantic ``SecretStr``, whose ``repr``
  and ``str`` are ``**********`` (:func:`hidden`): a traceback that prints every frame's local
  variables (``%xmode Verbose`` in IPython, ``pytest -l``) shows no key. It is unwrapped in one
  place, where :class:`BoundedTransport` writes the ``Authorization`` header, and inside
  :func:`redact`, which must read it to find it in a text; the SDK is never given it.

:func:`sdk_error` maps every SDK exception to a typed :class:`ProviderError`.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
import ssl
import time
import zlib
from collections.abc import Iterable, Mapping
from typing import Any, cast
from urllib.request import getproxies, proxy_bypass

import httpx2
import openai
from pydantic import SecretStr

from agentcore.providers.errors import (
    ProviderConnectionError,
    ProviderError,
    ProviderResponseError,
    ProviderSettingsError,
    ProviderStatusError,
    ProviderTimeoutError,
)

PREVIEW_CHARS = 200
"""The longest piece of received text an error shows (after redaction)."""
MAX_WIRE_BYTES = 4_000_000
"""The most bytes a reply body may take on the wire (a turn's reply is a few kilobytes)."""
MAX_DECODED_BYTES = 16_000_000
"""The most bytes a reply body may take once gzip or deflate is undone."""
MAX_NESTING = 64
"""The deepest a 2xx JSON body may nest (a Responses object nests fewer than ten levels)."""
MAX_RETRIES_LIMIT = 5
"""The upper bound of ``max_retries``: retries multiply how long a failing call can take."""
ALLOWED_HEADERS = frozenset(
    {"host", "accept", "accept-encoding", "connection", "content-type", "content-length"}
    | {"user-agent"}
)
"""Request headers sent besides ``Authorization`` (written by the transport alone, from the
adapter's key) and the SDK's ``X-Stainless-*`` metadata (package version, OS, retry count);
any other header is dropped before sending."""
REDACTED = "<redacted>"
SecretText = str | SecretStr
"""A secret as a caller may give it: plain text, or already held in a ``SecretStr``."""

_BEARER = re.compile(r"(?i)\b(bearer)\s+(?!<redacted>)[^\s\"',;]+")
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^\s/?#\"'<>\\]*@")
"""The user name and password of a URL (``https://user:secret@host``): RFC 3986's userinfo
runs from ``//`` to the last ``@`` before the path, query or fragment."""


def hidden(secret: SecretText) -> SecretStr:
    """``secret`` held in a pydantic ``SecretStr`` (returned as is if it already is one).

    Its ``repr`` and ``str`` are ``**********``; ``get_secret_value()`` gives the text back.
    An adapter wraps its key with this as soon as it receives it, so no frame's local
    variables, no repr and no message holds the key itself. Raises ``TypeError`` for anything
    but a ``str`` or a ``SecretStr``.
    """
    if isinstance(secret, SecretStr):
        return secret
    if not isinstance(secret, str):
        raise TypeError(f"a secret must be a str or a SecretStr, got {type(secret).__name__}")
    return SecretStr(secret)


def hidden_all(secrets: Iterable[SecretText]) -> tuple[SecretStr, ...]:
    """Every secret of ``secrets`` through :func:`hidden`, empty ones left out."""
    return tuple(hidden(secret) for secret in secrets if _length(secret))


def _length(secret: SecretText) -> int:
    return len(secret.get_secret_value() if isinstance(secret, SecretStr) else secret)


def redact(
    text: str, secrets: Iterable[SecretText] = (), *, limit: int | None = PREVIEW_CHARS
) -> str:
    """Remove secrets from ``text``, then shorten it: the one redaction of the adapters.

    Inputs: ``text``; ``secrets`` (the API key, ..., as text or ``SecretStr``; empty ones are
    ignored); ``limit``,
    the longest result before the ellipsis (``None``: do not shorten). Output: the text with
    every secret, every run of at least :data:`SECRET_RUN` characters of a secret (a key the
    provider echoed cut short), every ``Bearer <token>`` and the user name and password of
    every URL (``https://user:secret@host`` becomes ``https://<redacted>@host``: a base URL
    or a proxy with credentials) replaced by ``<redacted>``, then cut to ``limit`` characters
    followed by ``…``. Redacting first is the point: cutting
    first can leave the start of a key that the replacement no longer recognises. Raises
    nothing.
    """
    for secret in sorted(hidden_all(secrets), key=_length, reverse=True):
        text = text.replace(secret.get_secret_value(), REDACTED)
        if _length(secret) > SECRET_RUN:
            text = _redact_runs(text, secret)
    text = _BEARER.sub(rf"\1 {REDACTED}", text)
    text = _USERINFO.sub(rf"\1{REDACTED}@", text)
    if limit is not None and len(text) > limit:
        text = text[:limit] + "…"
    return text


def redact_json(value: Any, secrets: Iterable[SecretText]) -> Any:
    """A plain copy of a JSON value with every string, keys included, passed through
    :func:`redact` (no cut). Two keys that redact to the same text keep the later value."""
    if isinstance(value, str):
        return redact(value, secrets, limit=None)
    if isinstance(value, Mapping):
        return {
            redact(str(key), secrets, limit=None): redact_json(item, secrets)
            for key, item in value.items()
        }
    if isinstance(value, list | tuple):
        return [redact_json(item, secrets) for item in value]
    return value


SECRET_RUN = 8
"""The shortest piece of a secret that :func:`redact` removes on its own."""


def _redact_runs(text: str, secret: SecretStr) -> str:
    """Replace every run of ``SECRET_RUN`` or more characters of ``secret`` in ``text``."""
    pieces = {
        secret.get_secret_value()[start : start + SECRET_RUN]
        for start in range(_length(secret) - SECRET_RUN + 1)
    }
    covered = bytearray(len(text))
    for start in range(len(text) - SECRET_RUN + 1):
        if text[start : start + SECRET_RUN] in pieces:
            covered[start : start + SECRET_RUN] = b"\x01" * SECRET_RUN
    if not any(covered):
        return text
    kept: list[str] = []
    for index, character in enumerate(text):
        if not covered[index]:
            kept.append(character)
        elif index == 0 or not covered[index - 1]:
            kept.append(REDACTED)
    return "".join(kept)


def is_loopback(host: str) -> bool:
    """True for ``localhost`` (and ``*.localhost``), 127.0.0.0/8 and ``::1``."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def proxy_for(url: str) -> str | None:
    """The proxy URL that requests to ``url`` should use, or ``None`` for a direct connection.

    Loopback hosts never get a proxy. Otherwise the learner's settings decide, as
    :func:`urllib.request.getproxies` reads them (``HTTPS_PROXY``, ``HTTP_PROXY``,
    ``ALL_PROXY``, either case) and :func:`urllib.request.proxy_bypass` applies ``NO_PROXY``.
    """
    parsed = httpx2.URL(url)
    if is_loopback(parsed.host):
        return None
    proxies = getproxies()
    proxy = proxies.get(parsed.scheme) or proxies.get("all")
    if not proxy or proxy_bypass(parsed.host):
        return None
    return proxy if "://" in proxy else f"http://{proxy}"


class BoundedTransport(httpx2.BaseTransport):
    """An httpx2 transport that enforces the boundary around another transport.

    Inputs: ``inner`` (the transport that talks to the network), ``api_key`` (a ``SecretStr``,
    or ``None`` for a server that needs no key: sent as ``Authorization: Bearer``, replacing
    any ``Authorization`` header the SDK wrote; this is the one place the key is unwrapped),
    ``deadline`` (seconds for one whole HTTP attempt), ``max_wire_bytes`` and
    ``max_decoded_bytes``.

    :meth:`handle_request` returns a response whose body is already read and decoded (no
    ``Content-Encoding`` left). It raises :class:`ProviderTimeoutError` past the deadline,
    :class:`ProviderStatusError` for a redirect, and :class:`ProviderResponseError` for a body
    over a cap, with broken compression, that ends early, or (for a 2xx status) that is not
    UTF-8 JSON nested at most :data:`MAX_NESTING` deep. Connection failures stay httpx2
    errors, so that the SDK retries them; :func:`sdk_error` types them afterwards.
    """

    def __init__(
        self,
        inner: httpx2.BaseTransport,
        *,
        api_key: SecretStr | None,
        deadline: float,
        max_wire_bytes: int = MAX_WIRE_BYTES,
        max_decoded_bytes: int = MAX_DECODED_BYTES,
    ) -> None:
        self._inner = inner
        self._api_key = api_key
        self._secrets = () if api_key is None else (api_key,)
        self._deadline = deadline
        self._max_wire = max_wire_bytes
        self._max_decoded = max_decoded_bytes

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        """Send ``request`` within the boundary; see the class docstring."""
        ends = time.monotonic() + self._deadline
        for name in list(request.headers):
            lowered = name.lower()
            if lowered not in ALLOWED_HEADERS and not lowered.startswith("x-stainless-"):
                del request.headers[name]
        if self._api_key is not None:  # httpx2's Headers repr shows it as [secure]
            request.headers["Authorization"] = f"Bearer {self._api_key.get_secret_value()}"
        request.extensions["timeout"] = dict.fromkeys(
            ("connect", "read", "write", "pool"), self._deadline
        )
        failure: ProviderError | None = None
        try:
            response = self._inner.handle_request(request)
        except httpx2.TimeoutException:
            failure = self._timeout(request)
        except httpx2.RemoteProtocolError as error:
            if _DISCONNECTED in str(error):
                raise  # no answer at all: a connection failure, which the SDK may retry
            failure = self._no_http_answer(request, str(error))
        if failure is not None:
            raise failure  # outside the except block: no httpx2 error (holding headers) chained
        try:
            raw, failure = self._read(request, response, ends)
        finally:
            response.close()
        body, failure = (
            (b"", failure) if failure is not None else self._checked(request, response, raw)
        )
        del raw  # a traceback that lists locals must not show a body that may echo the key
        if failure is not None:
            raise failure
        headers = [
            (name, value)
            for name, value in response.headers.multi_items()
            if name.lower() not in ("content-encoding", "content-length", "transfer-encoding")
        ]
        return httpx2.Response(response.status_code, headers=headers, content=body, request=request)

    def close(self) -> None:
        self._inner.close()

    def _read(
        self, request: httpx2.Request, response: httpx2.Response, ends: float
    ) -> tuple[bytes, ProviderError | None]:
        """The raw body within the wire cap and the deadline, or ``b""`` and the error saying why
        not (a redirect is refused here). Returned, not raised, like :meth:`_checked`."""
        status = response.status_code
        if 300 <= status < 400:
            location = response.headers.get("location", "")
            host = httpx2.URL(request.url).join(location).host if location else "(none given)"
            return b"", ProviderStatusError(
                status, f"redirect to host {redact(host, self._secrets)}, not followed"
            )
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self._max_wire:
            return b"", self._too_large(request, f"announces {int(declared):,} bytes")
        chunks: list[bytes] = []
        size = 0
        failure: ProviderError | None = None
        try:
            for chunk in response.stream:  # type: ignore[union-attr]
                size += len(chunk)
                chunks.append(chunk)
                if size > self._max_wire:
                    failure = self._too_large(request, f"sent over {self._max_wire:,} bytes")
                elif time.monotonic() > ends:
                    failure = self._timeout(request)
                if failure is not None:
                    break
        except httpx2.TimeoutException:
            failure = self._timeout(request)
        except httpx2.RemoteProtocolError as error:
            failure = self._unreadable(request, f"the body ended early or broke HTTP ({error})")
        except httpx2.NetworkError as error:  # a reset while the body was arriving
            failure = self._unreadable(
                request,
                f"the connection broke after {size:,} bytes of the body had arrived "
                f"({type(error).__name__}: {error})",
            )
        return (b"", failure) if failure is not None else (b"".join(chunks), None)

    def _checked(
        self, request: httpx2.Request, response: httpx2.Response, raw: bytes
    ) -> tuple[bytes, ProviderResponseError | None]:
        """The decoded body, or ``b""`` and the error saying why it cannot be used.

        Returned, not raised: the frame that raises holds no copy of the body.
        """
        body, failure = self._decoded(request, raw, response.headers.get("content-encoding", ""))
        if failure is None and response.is_success:
            problem = _json_problem(body, response.headers.get("content-type", ""))
            failure = None if problem is None else self._unreadable(request, problem)
        return (b"", failure) if failure is not None else (body, None)

    def _decoded(
        self, request: httpx2.Request, body: bytes, encoding: str
    ) -> tuple[bytes, ProviderResponseError | None]:
        """The body with gzip or deflate undone within the decoded cap, or the error."""
        for coding in reversed([part.strip().lower() for part in encoding.split(",")]):
            if coding in ("", "identity"):
                continue
            if coding not in ("gzip", "x-gzip", "deflate"):
                return b"", self._unreadable(request, f"it uses the content-encoding {coding!r}")
            decoder = zlib.decompressobj(zlib.MAX_WBITS | (16 if "gzip" in coding else 0))
            try:
                decoded = decoder.decompress(body, self._max_decoded + 1)
            except zlib.error as error:
                return b"", self._unreadable(
                    request, f"its {coding} compression is broken ({error})"
                )
            if len(decoded) > self._max_decoded or decoder.unconsumed_tail:
                return b"", self._too_large(
                    request, f"expands past {self._max_decoded:,} bytes when decoded"
                )
            if not decoder.eof:
                return b"", self._unreadable(request, f"its {coding} stream is cut short")
            body = decoded
        return body, None

    def _where(self, request: httpx2.Request) -> str:
        return redact(str(request.url.copy_with(query=None)), self._secrets)

    def _timeout(self, request: httpx2.Request) -> ProviderTimeoutError:
        return ProviderTimeoutError(
            f"No whole reply from {self._where(request)} within {self._deadline:g} s.",
            hint="Check your network, or pass a longer timeout= to the adapter.",
        )

    def _too_large(self, request: httpx2.Request, what: str) -> ProviderResponseError:
        return ProviderResponseError(
            f"The reply from {self._where(request)} {what}, over the adapter's limit.",
            kind="too large",
            hint="Check that the base URL points at the provider's API.",
        )

    def _no_http_answer(self, request: httpx2.Request, problem: str) -> ProviderResponseError:
        """Something answered that HTTP cannot read: a header block over h11's limit, or
        bytes that are no HTTP status line (another service listens on that port)."""
        if _HEADER_TOO_LONG in problem:
            return ProviderResponseError(
                f"The reply from {self._where(request)} has a header block over "
                f"{MAX_HEADER_BYTES:,} bytes, the most the HTTP client reads.",
                kind="too large",
                hint="Check that the base URL points at the provider's API, not at a proxy "
                "or another service in front of it.",
            )
        return ProviderResponseError(
            f"The server at {self._where(request)} answered, but not in HTTP "
            f"({redact(problem, self._secrets, limit=120)}).",
            kind="not http",
            hint="Check that the base URL names the API's port and scheme (http:// or "
            "https://, as the server speaks): another service may listen on that port.",
        )

    def _unreadable(self, request: httpx2.Request, problem: str) -> ProviderResponseError:
        stream = problem == EVENT_STREAM_PROBLEM
        return ProviderResponseError(
            f"The reply from {self._where(request)} cannot be read: "
            f"{redact(problem, self._secrets)}.",
            kind="event stream" if stream else "unreadable",
            hint=_STREAM_HINT
            if stream
            else "Check that the base URL points at the provider's API; if it does, run again.",
        )


_DISCONNECTED = "without sending a response"
"""httpcore's words when a server closes the connection before any answer."""
_HEADER_TOO_LONG = "Receive buffer too long"
"""h11's words when a header block exceeds ``max_incomplete_event_size``."""
MAX_HEADER_BYTES = 16 * 1024
"""The largest header block h11 reads (its default ``max_incomplete_event_size``, 16 KiB)."""

_STREAM_HINT = (
    "The adapter sends no stream option; check that the server (or a proxy in front of it) "
    "is not set to stream every reply."
)


EVENT_STREAM_PROBLEM = (
    "it is an event stream (server-sent events), not one JSON object, although the adapter "
    "did not ask for streaming"
)
_EVENT_STREAM = re.compile(r"(?:\A|\n)(?:data|event|id|retry):", re.ASCII)
"""A line of a server-sent event stream (WHATWG HTML, "Server-sent events": fields ``data``,
``event``, ``id``, ``retry``), which a streamed reply is made of."""


def _json_problem(body: bytes, content_type: str = "") -> str | None:
    """Why a 2xx body is not UTF-8 JSON nested at most MAX_NESTING deep, or ``None``.

    A streamed reply (``Content-Type: text/event-stream``, or ``data:`` lines) is named as
    such: the adapters never ask for a stream, so one means a server or proxy forced it.
    """
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        return f"it is not valid UTF-8 (byte {error.start})"
    if "text/event-stream" in content_type.lower() or _EVENT_STREAM.match(text.lstrip()):
        return EVENT_STREAM_PROBLEM
    try:
        value = json.loads(text)
    except RecursionError:
        return f"it is nested deeper than {MAX_NESTING} levels"
    except ValueError as error:  # JSONDecodeError, or an integer too long to read
        return f"it is not JSON ({redact(str(error), limit=80)})"
    pending: list[tuple[Any, int]] = [(value, 0)]
    while pending:
        node, depth = pending.pop()
        if depth > MAX_NESTING:
            return f"it is nested deeper than {MAX_NESTING} levels"
        if isinstance(node, dict):
            pending += [(child, depth + 1) for child in node.values()]
        elif isinstance(node, list):
            pending += [(child, depth + 1) for child in node]
    return None


def build_http_client(
    base_url: str, *, api_key: SecretStr | None, deadline: float
) -> httpx2.Client:
    """The ``httpx2.Client`` an adapter owns and hands to the SDK.

    Inputs: ``base_url`` (decides the proxy: none for loopback, else :func:`proxy_for`),
    the adapter's ``api_key`` (sent by :class:`BoundedTransport`; ``None`` sends none) and
    the ``deadline`` in seconds.
    Output: a client that follows no redirects, ignores the environment itself
    (``trust_env=False``: no netrc, no proxy of its own choosing) and sends through a
    :class:`BoundedTransport`. Certificates: the inner transport honours ``SSL_CERT_FILE`` and
    ``SSL_CERT_DIR`` for a provider (for an office proxy's certificate), not for loopback.

    Raises :class:`ProviderSettingsError` naming the setting, its value (credentials removed)
    and the fix for every failure of the environment the client is built from: a base URL
    that is not a URL, or that holds a user name and password (``https://user:pass@host``:
    the APIs the adapters speak take the key as ``Authorization: Bearer``, so they are
    refused rather than dropped or sent some other way); ``SSL_CERT_FILE`` naming a missing
    file, a folder or no readable certificate, ``SSL_CERT_DIR`` naming no folder
    (``ssl.create_default_context`` raises ``OSError``/``ssl.SSLError``, read by httpcore2's
    ``default_ssl_context``); a proxy
    variable that is not a URL, has a scheme httpx2 does not speak (``httpx2.Proxy`` raises
    ``ValueError``), or names a SOCKS proxy without the ``socksio`` package (``ImportError``
    from ``httpx2.HTTPTransport``).
    """
    try:
        url = httpx2.URL(base_url)
    except httpx2.InvalidURL as error:
        # httpx2's reason quotes the part it could not read, which may be a password
        reason = "it is not a URL" if "@" in base_url else f"it is not a URL ({error})"
        raise _setting("base_url", base_url, reason, _BASE_URL_FIX) from None
    if url.scheme not in ("http", "https") or not url.host:
        raise _setting(
            "base_url", base_url, "it is not an http:// or https:// URL with a host", _BASE_URL_FIX
        )
    if url.userinfo:
        raise _setting("base_url", base_url, _CREDENTIALS_PROBLEM, _CREDENTIALS_FIX)
    loopback = is_loopback(url.host)
    context = _ssl_context(trust_env=not loopback)
    proxy = None if loopback else _checked_proxy(base_url)
    failure: ProviderSettingsError | None = None
    try:
        inner = httpx2.HTTPTransport(verify=context, proxy=proxy)
    except ImportError:  # httpx2 imports socksio only for a socks5:// proxy
        failure = _proxy_setting(
            base_url,
            "it names a SOCKS proxy and the socksio package is not installed",
            "Install it (pip install socksio), use an http:// proxy, or unset the variable.",
        )
    if failure is not None:
        raise failure
    transport = BoundedTransport(inner, api_key=api_key, deadline=deadline)
    return httpx2.Client(
        transport=transport,
        follow_redirects=False,
        trust_env=False,
        timeout=deadline,
        headers={"Accept-Encoding": "gzip, deflate"},
    )


_BASE_URL_FIX = (
    "Pass the server's API root, such as https://api.deepseek.com or http://localhost:11434/v1 "
    "(DEEPSEEK_BASE_URL for DeepSeek's adapters)."
)
_CREDENTIALS_PROBLEM = (
    "it holds a user name and password (user:password@), which the adapter does not send"
)
_CREDENTIALS_FIX = (
    "Remove them from the URL and pass the key as api_key (DEEPSEEK_API_KEY for DeepSeek's "
    "adapters, --api-key-env on the command line): it is sent as Authorization: Bearer, the "
    "credential the Responses and Chat Completions APIs document."
)
_PROXY_SCHEMES = ("http", "https", "socks5", "socks5h")
"""The proxy schemes httpx2 speaks (``httpx2.Proxy`` refuses any other)."""


def _setting(variable: str, value: str, problem: str, hint: str) -> ProviderSettingsError:
    return ProviderSettingsError(
        variable, redact(_without_credentials(value), limit=120), redact(problem), hint=hint
    )


def _without_credentials(value: str) -> str:
    """``value`` with everything between its scheme and its last ``@`` hidden.

    A setting shown in an error may be no valid URL at all (``https://me:pa/ss@host``, a
    proxy written without its scheme), so its credentials are not found by parsing it: any
    ``@`` may end a password, whatever characters the password holds.
    """
    if "@" not in value:
        return value
    scheme, separator, rest = value.rpartition("://") if "://" in value else ("", "", value)
    return f"{scheme}{separator}{REDACTED}@{rest.rsplit('@', 1)[1]}"


def _ssl_context(*, trust_env: bool) -> ssl.SSLContext:
    """The certificates a provider's connection trusts; see :func:`build_http_client`."""
    cafile = os.environ.get("SSL_CERT_FILE", "") if trust_env else ""
    capath = os.environ.get("SSL_CERT_DIR", "") if trust_env else ""
    variable, value = ("SSL_CERT_FILE", cafile) if cafile else ("SSL_CERT_DIR", capath)
    if capath and not cafile and not os.path.isdir(capath):
        raise _setting(variable, value, "it names no folder", _CERTIFICATE_FIX)
    problem = ""
    try:
        return httpx2.create_ssl_context(trust_env=trust_env)
    except FileNotFoundError:
        problem = "it names no file"
    except IsADirectoryError:
        problem = "it names a folder, not a certificate file (a folder belongs in SSL_CERT_DIR)"
    except ssl.SSLError as error:  # a file without one PEM certificate ssl can read
        problem = f"the file holds no certificate that can be read ({error.reason or error})"
    except OSError as error:  # no permission, a device, ...
        problem = f"the file cannot be read ({type(error).__name__}: {error.strerror or error})"
    raise _setting(variable, value, problem, _CERTIFICATE_FIX)


_CERTIFICATE_FIX = (
    "Point SSL_CERT_FILE at a PEM certificate bundle (or SSL_CERT_DIR at a folder of them), "
    "such as the one your office proxy's certificate came in, or unset the variable."
)


def _proxy_variable(url: str) -> tuple[str, str]:
    """The environment variable :func:`proxy_for` took the proxy of ``url`` from, and its value
    (``getproxies`` reads ``<scheme>_proxy`` in either case, the lower-case one first, then
    ``all_proxy``)."""
    scheme = httpx2.URL(url).scheme
    for base in (f"{scheme}_proxy", "all_proxy"):
        for name in (base, base.upper()):
            if os.environ.get(name):
                return name, os.environ[name]
    return f"{scheme.upper()}_PROXY", proxy_for(url) or ""


def _proxy_setting(url: str, problem: str, hint: str) -> ProviderSettingsError:
    variable, value = _proxy_variable(url)
    return _setting(variable, value, problem, hint)


def _checked_proxy(base_url: str) -> str | None:
    """:func:`proxy_for` of ``base_url``, refused unless httpx2 can use it."""
    proxy = proxy_for(base_url)
    if proxy is None:
        return None
    fix = (
        "Set it to an http://, https:// or socks5:// proxy URL (host and port), or unset it "
        "(list the host in NO_PROXY to connect directly)."
    )
    try:
        scheme = httpx2.URL(proxy).scheme
    except httpx2.InvalidURL as error:
        raise _proxy_setting(base_url, f"it is not a URL ({error})", fix) from None
    if scheme not in _PROXY_SCHEMES:
        problem = f"its scheme {scheme!r} is not one of {', '.join(_PROXY_SCHEMES)}"
        raise _proxy_setting(base_url, problem, fix)
    return proxy


def build_sdk_client(
    *, api_key: SecretText | None, base_url: str, timeout: float, max_retries: int
) -> openai.OpenAI:
    """The ``openai.OpenAI`` client an adapter uses, with nothing taken from ``OPENAI_*``.

    Inputs: the ``api_key`` (text or a ``SecretStr``; sent as ``Authorization: Bearer`` by
    the owned transport, never handed to the SDK; ``None`` or an empty key sends no
    Authorization header, for a local server that needs none), the ``base_url``, the
    per-attempt deadline ``timeout`` in seconds and ``max_retries`` (0 to
    :data:`MAX_RETRIES_LIMIT`; the caller checks the range). Every argument that the SDK would
    otherwise fill from an environment variable is passed: ``api_key`` (``OPENAI_API_KEY``),
    ``admin_api_key`` (``OPENAI_ADMIN_KEY``), ``base_url`` (``OPENAI_BASE_URL``),
    ``organization``/``project`` (``OPENAI_ORG_ID``/``OPENAI_PROJECT_ID``, and their headers
    omitted), ``webhook_secret``. ``OPENAI_CUSTOM_HEADERS`` (one ``Name: value`` a line) is
    merged by the SDK under ``default_headers``: an explicit ``Authorization`` there makes the
    SDK drop that variable's, and every other name it lists is passed as ``openai.Omit()``, so
    the SDK removes it. :class:`BoundedTransport` then drops any header still not allowed.
    With a key the SDK writes a stand-in ``Authorization`` (it refuses to send a request
    without one unless told per request), which the transport replaces with the key.
    """
    keys = hidden_all(() if api_key is None else (api_key,))  # an empty key is no key
    key, api_key = (keys[0] if keys else None), None  # no frame keeps the text itself
    listed = os.environ.get("OPENAI_CUSTOM_HEADERS", "")
    headers: dict[str, Any] = {
        **{
            line.split(":", 1)[0].strip(): openai.Omit()
            for line in listed.split("\n")
            if ":" in line
        },
        "OpenAI-Organization": openai.Omit(),
        "OpenAI-Project": openai.Omit(),
        # a stand-in the transport replaces with the key, or none at all
        "Authorization": f"Bearer {REDACTED}" if key is not None else openai.Omit(),
    }
    return openai.OpenAI(
        api_key="",
        admin_api_key="",
        organization="",
        project="",
        webhook_secret="",
        base_url=base_url,
        default_headers=cast("dict[str, str]", headers),
        timeout=timeout,
        max_retries=max_retries,
        http_client=build_http_client(base_url, api_key=key, deadline=timeout),
    )


def sdk_error(
    error: openai.OpenAIError,
    *,
    base_url: str,
    secrets: Iterable[SecretText],
    connection_hint: str,
    hints: str = "deepseek",
) -> ProviderError:
    """Translate one SDK exception into the typed provider error (the caller raises it).

    Inputs: the exception, the ``base_url`` (named in connection errors), the secrets to
    redact, and the adapter's ``connection_hint`` (which setting holds the address:
    ``DEEPSEEK_BASE_URL`` for DeepSeek's adapters, ``base_url`` for another server's). Output:
    :class:`ProviderTimeoutError` for the SDK's timeout, :class:`ProviderConnectionError`
    saying what happened (no connection; a connection the server closed without answering; a
    connection that broke before a reply), with the transport's reason, the proxy if one was
    used (without its credentials) and ``connection_hint``,
    :class:`ProviderStatusError` with the provider's own message (redacted, then shortened)
    and the adapter's table of ``hints`` (``"deepseek"`` or ``"server"``) for an HTTP error
    status, and :class:`ProviderResponseError` for anything else.
    """
    secrets = hidden_all(secrets)
    if isinstance(error, openai.APITimeoutError):
        return ProviderTimeoutError(
            f"No reply from {base_url} in time.",
            hint="Check your network, or pass a longer timeout= to the adapter.",
        )
    if isinstance(error, openai.APIConnectionError):
        reason = error.__cause__ if error.__cause__ is not None else error
        said = redact(str(reason), secrets) or type(reason).__name__
        via = ""
        try:
            proxy = proxy_for(base_url)
            if proxy:
                where = httpx2.URL(proxy)  # its netloc leaves out a user name and password
                via = f" through the proxy {where.scheme}://{where.netloc.decode()}"
        except httpx2.InvalidURL:  # a setting changed since the client was built: name none
            via = ""
        if isinstance(reason, httpx2.RemoteProtocolError):  # connected; no answer came
            what = f"The server at {base_url}{via} closed the connection without answering"
        elif isinstance(reason, httpx2.ReadError | httpx2.WriteError):
            what = f"The connection to {base_url}{via} broke before a reply arrived"
        else:
            what = f"Could not connect to {base_url}{via}"
        return ProviderConnectionError(
            f"{what} ({type(reason).__name__}: {said}).", hint=connection_hint
        )
    if isinstance(error, openai.APIStatusError):
        said = redact(provider_text(error.body), secrets)
        return ProviderStatusError(error.status_code, said, hints=hints)
    return ProviderResponseError(
        f"The reply from {base_url} could not be read: {redact(str(error), secrets)}.",
        kind="unreadable",
        hint="Check that the base URL points at the provider's API.",
    )


def provider_text(body: object) -> str:
    """The provider's own explanation in an error body (``{"error": {"message": ...}}``)."""
    if isinstance(body, Mapping):
        error = body.get("error", body)
        body = error.get("message", error) if isinstance(error, Mapping) else error
    return "" if body is None else str(body)
