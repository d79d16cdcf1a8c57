"""The adapters' trust boundary (agentcore/providers/http.py), over real HTTP on 127.0.0.1.

Every test drives DeepSeekResponsesModel -> openai SDK -> the owned HTTP client -> a
LocalResponsesServer, and checks what a learner would notice: what the server received, which
typed error came back, and that no text shows the key. One test per example of issue 10.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentcore import (
    AgentRuntime,
    DeepSeekResponsesModel,
    ProviderConnectionError,
    ProviderError,
    ProviderResponseError,
    ProviderSettingsError,
    ProviderStatusError,
    ProviderTimeoutError,
    build_tools,
)
from agentcore.course.offline_replies import weather_script
from agentcore.providers.http import (
    MAX_DECODED_BYTES,
    MAX_NESTING,
    MAX_WIRE_BYTES,
    PREVIEW_CHARS,
    proxy_for,
    redact,
)
from agentcore.providers.local_server import (
    CREATED_AT,
    LocalResponsesServer,
    Reply,
    http_error,
    message,
)

KEY = "sk-http-test-4b7e1a9c0d2f"
"""A made-up key: it must reach the server's Authorization header and appear nowhere else."""
CLOSED = "http://127.0.0.1:9"
"""A proxy address where nothing listens (the discard port)."""


def key_runs(key: str, size: int = 8) -> list[str]:
    """Every run of ``size`` characters of ``key``: none may appear in any text."""
    return [key[start : start + size] for start in range(len(key) - size + 1)]


def assert_no_key(*texts: str) -> None:
    for text in texts:
        assert not [run for run in key_runs(KEY) if run in text], text


def texts_of(error: BaseException) -> Iterator[str]:
    seen: BaseException | None = error
    while seen is not None:
        yield str(seen)
        yield repr(seen)
        seen = seen.__cause__ or seen.__context__


@pytest.fixture(autouse=True)
def _clean_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nobody's own DEEPSEEK_*, OPENAI_* or proxy settings change what these tests see."""
    for name in (
        "DEEPSEEK_API_KEY",
        "DEEPSEEK_MODEL",
        "DEEPSEEK_BASE_URL",
        "OPENAI_API_KEY",
        "OPENAI_ADMIN_KEY",
        "OPENAI_BASE_URL",
        "OPENAI_ORG_ID",
        "OPENAI_PROJECT_ID",
        "OPENAI_CUSTOM_HEADERS",
        "NO_PROXY",
        "no_proxy",
    ):
        monkeypatch.delenv(name, raising=False)
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.setenv(name, CLOSED)  # loopback traffic must never try it


def adapter(base_url: str, **options: Any) -> DeepSeekResponsesModel:
    settings: dict[str, Any] = {"api_key": KEY, "base_url": base_url, "max_retries": 0}
    return DeepSeekResponsesModel("deepseek-flash", **{**settings, "timeout": 5.0, **options})


def run_one(reply: Reply, **options: Any) -> tuple[ProviderError, LocalResponsesServer]:
    """Play one reply to a one-turn run; return the typed error it ended with."""
    with LocalResponsesServer([reply]) as server, pytest.raises(ProviderError) as caught:
        AgentRuntime(adapter(server.base_url, **options), build_tools()).run("Hi")
    assert_no_key(*texts_of(caught.value))
    return caught.value, server


def completed(text: str = "Hello.") -> dict[str, Any]:
    """A whole Responses API object answering ``text``, as JSON."""
    return {
        "id": "resp_001",
        "object": "response",
        "created_at": CREATED_AT,
        "status": "completed",
        "model": "deepseek-flash",
        "output": [{"id": "msg_1", "status": "completed", **message(text)}],
    }


# --- 1. settings from the environment never reach a request ---------------------------------


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("OPENAI_CUSTOM_HEADERS", "Authorization: Bearer sk-openai-learner-key\nX-Team: blue"),
        ("OPENAI_CUSTOM_HEADERS", "X-Stainless-Lang: learner-secret\nauthorization: learner"),
        ("OPENAI_ORG_ID", "org-learner"),
        ("OPENAI_PROJECT_ID", "proj-learner"),
        ("OPENAI_BASE_URL", CLOSED),
        ("OPENAI_API_KEY", "sk-openai-learner-key"),
        ("OPENAI_ADMIN_KEY", "sk-admin-learner-key"),
    ],
)
def test_openai_variables_do_not_reach_the_request(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    with LocalResponsesServer(weather_script(), api_key=KEY) as server:
        result = AgentRuntime(adapter(server.base_url), build_tools()).run("Tokyo?")
    assert result.model_turns == 3  # every request reached this server, with this key
    for request in server.requests:
        assert request.sent_bearer(KEY)
        assert not {"openai-organization", "openai-project", "x-team"} & set(request.headers)
        assert not [header for header in request.headers.values() if "learner" in header]


# --- 2. proxies and redirects ---------------------------------------------------------------


def test_loopback_never_goes_through_the_proxy_settings() -> None:
    with LocalResponsesServer(weather_script()) as server:
        result = AgentRuntime(adapter(server.base_url), build_tools()).run("Tokyo?")
    assert result.tool_executions == 2


def test_provider_traffic_goes_through_the_learners_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    # The local server plays the proxy: the request for the provider's host arrives there.
    with LocalResponsesServer([]) as proxy:
        monkeypatch.setenv("HTTP_PROXY", proxy.base_url)
        monkeypatch.setenv("http_proxy", proxy.base_url)
        with pytest.raises(ProviderStatusError):
            AgentRuntime(adapter("http://provider.example"), build_tools()).run("Tokyo?")
    assert [request.path for request in proxy.requests] == ["http://provider.example/responses"]


def test_a_proxy_that_refuses_is_a_connection_error_naming_it() -> None:
    with pytest.raises(ProviderConnectionError) as caught:
        AgentRuntime(adapter("https://api.deepseek.com"), build_tools()).run("Tokyo?")
    said = "Could not connect to https://api.deepseek.com through the proxy http://127.0.0.1:9"
    assert said in str(caught.value)
    assert "proxy" in caught.value.hint.lower()
    assert_no_key(*texts_of(caught.value))


def test_a_proxys_password_is_not_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTPS_PROXY", "http://learner:hunter2-secret@127.0.0.1:9")
    monkeypatch.setenv("https_proxy", "http://learner:hunter2-secret@127.0.0.1:9")
    with pytest.raises(ProviderConnectionError) as caught:
        AgentRuntime(adapter("https://api.deepseek.com"), build_tools()).run("Tokyo?")
    assert "through the proxy http://127.0.0.1:9 (" in str(caught.value)
    assert "hunter2" not in "".join(texts_of(caught.value))


def test_proxy_for_follows_no_proxy_and_skips_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    assert proxy_for("https://api.deepseek.com") == CLOSED
    assert proxy_for("http://127.0.0.1:8000") is None
    assert proxy_for("http://localhost:8000") is None
    monkeypatch.setenv("no_proxy", "api.deepseek.com")
    monkeypatch.setenv("NO_PROXY", "api.deepseek.com")
    assert proxy_for("https://api.deepseek.com") is None


def test_a_redirect_is_not_followed_and_names_the_status_and_host() -> None:
    redirect = Reply(
        http_status=307,
        raw_body="",
        headers=(("Location", f"https://collector.example/steal?key={KEY}"),),
    )
    error, server = run_one(redirect)
    assert isinstance(error, ProviderStatusError)
    assert error.status_code == 307
    assert "redirect to host collector.example, not followed" in str(error)
    assert "DEEPSEEK_BASE_URL" in error.hint
    assert len(server.requests) == 1


# --- 3. redaction before cutting ------------------------------------------------------------


def test_a_180_character_body_then_the_key_shows_no_part_of_the_key() -> None:
    error, _ = run_one(http_error(401, "x" * 180 + KEY))
    assert isinstance(error, ProviderStatusError)
    assert error.status_code == 401
    assert "x" * 180 + "<redacted>" in error.provider_message


def test_redact_removes_secrets_first_and_cuts_afterwards() -> None:
    text = "y" * 195 + KEY + " and Authorization: Bearer sk-other-token-123"
    cut = redact(text, [KEY])
    assert cut == "y" * 195 + "<reda…"
    assert_no_key(cut)
    assert redact(text, [KEY], limit=None).endswith("Bearer <redacted>")
    assert len(redact("z" * 500)) == PREVIEW_CHARS + 1
    assert redact("short", ["", KEY]) == "short"


# --- 4. unbounded replies -------------------------------------------------------------------


def test_a_gzip_bomb_stops_at_the_decoded_cap() -> None:
    bomb = gzip.compress(b'{"a": "' + b"x" * (MAX_DECODED_BYTES + 1_000_000) + b'"}', 9)
    assert len(bomb) < 100_000
    reply = Reply(raw_body=bomb, headers=(("Content-Encoding", "gzip"),))
    error, _ = run_one(reply)
    assert isinstance(error, ProviderResponseError)
    assert f"expands past {MAX_DECODED_BYTES:,} bytes when decoded" in str(error)


def test_a_body_over_the_wire_cap_is_refused() -> None:
    error, _ = run_one(Reply(raw_body=b"x" * (MAX_WIRE_BYTES + 1)))
    assert isinstance(error, ProviderResponseError)
    assert f"announces {MAX_WIRE_BYTES + 1:,} bytes" in str(error)


def test_a_slow_drip_cannot_hold_a_call_past_its_deadline() -> None:
    drip = Reply(raw_body=json.dumps(completed()), drip_seconds=0.5)  # issue 10's example
    started = time.monotonic()
    error, _ = run_one(drip, timeout=1.0)
    elapsed = time.monotonic() - started
    assert isinstance(error, ProviderTimeoutError)
    assert "No whole reply from" in str(error) and "within 1 s" in str(error)
    assert elapsed < 2.5  # the deadline plus one read, not one byte per 0.5 s of the body


# --- 5. every reply problem is a ProviderResponseError --------------------------------------


def test_a_reply_nested_100000_levels_deep() -> None:
    error, _ = run_one(Reply(raw_body='{"a":' * 100_000 + "1" + "}" * 100_000))
    assert isinstance(error, ProviderResponseError)
    assert f"nested deeper than {MAX_NESTING} levels" in str(error)


def test_a_reply_nested_just_past_the_limit() -> None:
    deep: Any = "bottom"
    for _ in range(MAX_NESTING + 1):
        deep = [deep]
    error, _ = run_one(Reply(raw_body=json.dumps({**completed(), "extra": deep})))
    assert f"nested deeper than {MAX_NESTING} levels" in str(error)


def test_a_reply_holding_invalid_utf8() -> None:
    body = json.dumps(completed()).encode().replace(b"Hello.", b"Hel\xfflo.")
    error, _ = run_one(Reply(raw_body=body))
    assert isinstance(error, ProviderResponseError)
    assert "it is not valid UTF-8" in str(error)


def test_a_broken_gzip_body_is_a_response_error_not_a_connection_error() -> None:
    reply = Reply(raw_body=b"not gzip at all", headers=(("Content-Encoding", "gzip"),))
    error, _ = run_one(reply)
    assert type(error) is ProviderResponseError
    assert "its gzip compression is broken" in str(error)
    assert "connect" not in str(error).lower()


def test_a_cut_short_gzip_body() -> None:
    whole = gzip.compress(json.dumps(completed()).encode())
    reply = Reply(raw_body=whole[: len(whole) // 2], headers=(("Content-Encoding", "gzip"),))
    error, _ = run_one(reply)
    assert "its gzip stream is cut short" in str(error)


def test_a_good_gzip_reply_is_read() -> None:
    reply = Reply(
        raw_body=gzip.compress(json.dumps(completed("Zipped.")).encode()),
        headers=(("Content-Encoding", "gzip"),),
    )
    with LocalResponsesServer([reply]) as server:
        result = AgentRuntime(adapter(server.base_url), build_tools()).run("Hi")
    assert result.answer == "Zipped."
    assert server.requests[0].headers["accept-encoding"] == "gzip, deflate"


def test_an_encoding_it_did_not_ask_for() -> None:
    reply = Reply(raw_body=b"{}", headers=(("Content-Encoding", "br"),))
    error, _ = run_one(reply)
    assert "it uses the content-encoding 'br'" in str(error)


def test_a_refused_connection_names_the_reason() -> None:
    with LocalResponsesServer([]) as stopped:
        pass  # nothing listens on that port any more
    with pytest.raises(ProviderConnectionError) as caught:
        AgentRuntime(adapter(stopped.base_url), build_tools()).run("Hi")
    assert f"Could not connect to {stopped.base_url} (ConnectError:" in str(caught.value)
    assert_no_key(*texts_of(caught.value))


def test_a_key_the_provider_echoes_cut_short_shows_no_part_of_the_key() -> None:
    # A provider that cuts its error text (here at 200 characters) can cut the key it echoes:
    # the whole-key replacement no longer recognises the start of the key that is left.
    long_key = "sk-" + "a1b2c3d4e5" * 30
    with LocalResponsesServer([http_error(401, "bad key: " + long_key[:200])]) as server:
        model = DeepSeekResponsesModel(
            api_key=long_key, base_url=server.base_url, model="deepseek-flash", max_retries=0
        )
        with pytest.raises(ProviderStatusError) as caught:
            model.generate([{"role": "user", "content": "Hi"}], [])
    texts = [str(caught.value), repr(caught.value), caught.value.provider_message]
    pieces = [long_key[start : start + 8] for start in range(len(long_key) - 8)]
    assert not [text for text in texts if any(piece in text for piece in pieces)], texts
    assert "bad key: <redacted>" in caught.value.provider_message


def test_redact_removes_any_run_of_eight_characters_of_a_secret() -> None:
    assert redact("key " + KEY[:12] + " end", [KEY]) == "key <redacted> end"
    assert redact("tail " + KEY[-9:], [KEY]) == "tail <redacted>"
    assert redact("short " + KEY[:7], [KEY]) == "short " + KEY[:7]


# --- 8. credentials in URLs, and every fault of the client's environment typed (issue 21) ----

PASSWORD = "hunter2-url-secret"


def test_redact_removes_the_userinfo_of_every_url_and_keeps_the_rest() -> None:
    said = redact(f"see https://learner:{PASSWORD}@api.example.com/v1 and socks5://bob@px:1080")
    assert said == "see https://<redacted>@api.example.com/v1 and socks5://<redacted>@px:1080"
    assert redact("mail a@b.example or https://host/path@x") == (
        "mail a@b.example or https://host/path@x"
    )  # an @ after the path or outside a URL is no userinfo
    assert redact(redact(f"http://u:{PASSWORD}@h")) == "http://<redacted>@h"
    cut = redact("x" * 190 + f" https://u:{PASSWORD}@h")
    assert PASSWORD[:6] not in cut  # redacted before the cut, so no start of it survives


# RFC 3986 userinfo: unreserved, percent-encoded, sub-delims and ":" (no "/", "?", "#", "@").
USERINFO = st.text(st.sampled_from("abcXYZ019-._~!$&()*+,;=:%"), min_size=6, max_size=30).filter(
    lambda text: "redacted" not in text
)


@given(userinfo=USERINFO, scheme=st.sampled_from(["http", "https", "socks5h"]), before=st.text())
def test_no_userinfo_of_any_url_survives_redact(userinfo: str, scheme: str, before: str) -> None:
    url = f"{scheme}://{userinfo}@proxy.example:8080/v1?x=1"
    said = redact(f"{before} {url} end", limit=None)
    assert f"{scheme}://<redacted>@proxy.example:8080/v1?x=1 end" in said
    assert userinfo not in said.replace(before, "", 1)


@pytest.mark.parametrize("where", ["remote", "loopback"])
def test_a_password_in_the_base_url_is_refused_before_anything_is_sent(where: str) -> None:
    # Was: redacted in every text, then silently not sent; the provider answered 401 later.
    host = "api.example.com" if where == "remote" else "127.0.0.1:9"
    with pytest.raises(ProviderSettingsError, match="user name and password") as caught:
        adapter(f"https://learner:{PASSWORD}@{host}")
    assert f"https://<redacted>@{host}" in str(caught.value)
    assert PASSWORD not in "".join(texts_of(caught.value))


def settings_error(monkeypatch: pytest.MonkeyPatch, **env: str) -> ProviderSettingsError:
    """Build a provider adapter with ``env`` set; return the typed error it raised."""
    for name in ("SSL_CERT_FILE", "SSL_CERT_DIR"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ProviderSettingsError) as caught:
        adapter("https://api.deepseek.com")
    assert isinstance(caught.value, ValueError)  # a setting whose value cannot be used
    shown = caught.value.__cause__ or (
        None if caught.value.__suppress_context__ else caught.value.__context__
    )
    assert shown is None  # no untyped ImportError, ValueError or OSError printed under it
    return caught.value


@pytest.mark.parametrize(
    ("env", "variable", "said"),
    [
        (
            {"HTTPS_PROXY": f"socks5://bob:{PASSWORD}@proxy.example:1080"},
            "HTTPS_PROXY",
            "it names a SOCKS proxy and the socksio package is not installed",
        ),
        (
            {"https_proxy": f"socks4://bob:{PASSWORD}@proxy.example:1080"},
            "https_proxy",
            "its scheme 'socks4' is not one of http, https, socks5, socks5h",
        ),
        ({"https_proxy": f"bob:{PASSWORD}@[::1"}, "https_proxy", "it is not a URL"),
    ],
)
def test_a_proxy_the_client_cannot_use_is_a_settings_error_naming_it(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], variable: str, said: str
) -> None:
    for name in ("HTTPS_PROXY", "https_proxy"):
        monkeypatch.delenv(name)
    if "socks5" in env.get("HTTPS_PROXY", ""):
        monkeypatch.setitem(__import__("sys").modules, "socksio", None)  # not installed
    error = settings_error(monkeypatch, **env)
    assert error.variable == variable
    assert said in error.problem
    assert f"The setting {variable}=" in str(error)
    assert PASSWORD not in "".join(texts_of(error))
    assert "<redacted>@" in error.value
    assert "unset" in error.hint


def test_a_certificate_setting_the_client_cannot_use_is_a_settings_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    garbage = tmp_path / "bundle.pem"
    garbage.write_text("not a certificate\n")
    empty = tmp_path / "empty.pem"
    empty.write_text("")
    for value, said in [
        (str(tmp_path / "missing.pem"), "it names no file"),
        (str(garbage), "the file holds no certificate that can be read"),
        (str(empty), "the file holds no certificate that can be read"),
        (str(tmp_path), "it names a folder, not a certificate file"),
    ]:
        error = settings_error(monkeypatch, SSL_CERT_FILE=value)
        assert (error.variable, error.value) == ("SSL_CERT_FILE", value)
        assert said in str(error), str(error)
        assert "SSL_CERT_FILE" in error.hint
    error = settings_error(monkeypatch, SSL_CERT_DIR=str(tmp_path / "no-folder"))
    assert error.variable == "SSL_CERT_DIR" and "it names no folder" in str(error)


def test_loopback_ignores_the_certificate_settings(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "missing.pem"))
    with LocalResponsesServer(weather_script()) as server:
        result = AgentRuntime(adapter(server.base_url), build_tools()).run("Tokyo?")
    assert result.tool_executions == 2


def test_a_base_url_that_is_no_url_is_a_settings_error() -> None:
    with pytest.raises(ProviderSettingsError) as caught:
        adapter(f"http://learner:{PASSWORD}@[::1")
    assert caught.value.variable == "base_url"
    assert PASSWORD not in "".join(texts_of(caught.value))
    assert "DEEPSEEK_BASE_URL" in caught.value.hint


def test_a_settings_error_round_trips_through_pickle_and_copy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import copy
    import pickle

    error = settings_error(monkeypatch, SSL_CERT_FILE="/nowhere/bundle.pem")
    for twin in (pickle.loads(pickle.dumps(error)), copy.copy(error), copy.deepcopy(error)):
        assert type(twin) is ProviderSettingsError and twin == error
        assert (twin.variable, twin.value, twin.problem, twin.hint, str(twin)) == (
            error.variable,
            error.value,
            error.problem,
            error.hint,
            str(error),
        )


# --- each way a connection fails says what happened, not "Could not connect" -----------------


class RawServer:
    """A loopback TCP server that answers every connection with ``answer(connection)``: bytes
    no HTTP server would send (a reset mid-body, another protocol, a huge header)."""

    def __init__(self, answer: Callable[[socket.socket], None]) -> None:
        self._answer = answer
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.base_url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def __enter__(self) -> RawServer:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes the accept() below
        self._listener.close()
        self._thread.join(5)

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self._listener.accept()
            except OSError:  # the listener was closed
                return
            with connection:
                connection.recv(65536)
                with contextlib.suppress(OSError):  # the client hung up first
                    self._answer(connection)


def reset(connection: socket.socket) -> None:
    """Close with a TCP reset (SO_LINGER 0) instead of an orderly close."""
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def reset_mid_body(connection: socket.socket) -> None:
    connection.sendall(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
        b'{"id": "resp_1", '
    )
    time.sleep(0.3)  # the client is waiting for the rest of the body
    reset(connection)


def another_protocol(connection: socket.socket) -> None:
    connection.sendall(b"SSH-2.0-OpenSSH_9.6\r\n\r\n")


def huge_header(connection: socket.socket) -> None:
    connection.sendall(b"HTTP/1.1 200 OK\r\nX-Padding: " + b"a" * 200_000 + b"\r\n\r\n{}")


def no_answer(connection: socket.socket) -> None:
    """An orderly close before any answer (a reset may reach the client as either)."""


CONNECTION_FAULTS: dict[str, tuple[Callable[[socket.socket], None], type[ProviderError], str]] = {
    "reset mid-body": (
        reset_mid_body,
        ProviderResponseError,
        "the connection broke after 17 bytes of the body had arrived",
    ),
    "another protocol": (another_protocol, ProviderResponseError, "answered, but not in HTTP"),
    "200 KB header": (huge_header, ProviderResponseError, "header block over 16,384 bytes"),
    "closed without answering": (
        no_answer,
        ProviderConnectionError,
        "closed the connection without answering",
    ),
}


@pytest.mark.parametrize("fault", CONNECTION_FAULTS)
def test_each_broken_connection_says_what_happened(fault: str) -> None:
    answer, error_type, said = CONNECTION_FAULTS[fault]
    with RawServer(answer) as server, pytest.raises(error_type) as caught:
        adapter(server.base_url, timeout=3.0).generate([{"role": "user", "content": "Hi"}], [])
    assert said in str(caught.value)
    assert "Could not connect" not in str(caught.value)


def test_nothing_listening_is_still_could_not_connect() -> None:
    with pytest.raises(
        ProviderConnectionError, match=r"^Could not connect to http://127\.0\.0\.1:9"
    ):
        adapter("http://127.0.0.1:9").generate([{"role": "user", "content": "Hi"}], [])


@pytest.mark.parametrize(
    "base_url",
    [
        "https://me:pa/ss@host/v1",  # a "/" in the password: no valid URL, still no password shown
        "https://me:p#ss@host/v1",
        "https://me:pa?ss@host/v1",
        "me:passw0rd@api.example.com",  # no scheme
        "https:\\\\me:passw0rd@host",  # backslashes: no host
    ],
)
def test_a_base_url_with_a_password_is_refused_without_showing_any_of_it(base_url: str) -> None:
    from agentcore.providers.errors import ProviderSettingsError
    from agentcore.providers.openai_compatible import OpenAICompatibleChatModel

    with pytest.raises(ProviderSettingsError) as caught:
        OpenAICompatibleChatModel("m", base_url=base_url)
    shown = str(caught.value) + repr(caught.value)
    for piece in ("pa/ss", "p#ss", "pa?ss", "passw0rd", "'pa'", "'p'"):
        assert piece not in shown, shown
    assert "<redacted>@" in shown
