"""What every adapter owns (agentcore/providers/connection.py): its key, its settings, close().

The key is held in a pydantic ``SecretStr`` from the first line that receives it: a repr, a
message or a traceback that prints every frame's local variables (``%xmode Verbose`` in
IPython, ``pytest -l``) never shows it. Settings that would fail only at the server (an
example key, a quoted one, a base URL with a password) are refused when the adapter is built,
naming the setting. Loopback servers only.
"""

from __future__ import annotations

import gc
import traceback
import warnings
from collections.abc import Callable
from typing import Any

import httpx2
import pytest
from pydantic import SecretStr

from agentcore import (
    DeepSeekChatModel,
    DeepSeekResponsesModel,
    Model,
    OpenAICompatibleChatModel,
    ProviderConfigurationError,
    ProviderError,
)
from agentcore.course.text import explain
from agentcore.providers.deepseek_settings import deepseek_settings
from agentcore.providers.errors import ProviderSettingsError
from agentcore.providers.local_chat_server import LocalChatServer
from agentcore.providers.local_server import (
    LocalResponsesServer,
    LoopbackServer,
    Reply,
    function_call,
    http_error,
    message,
)

KEY = "sk-frames-test-5e6f7a8b9c0d"
"""A made-up key; read from a module global, so that no test frame holds it as a local."""
MODEL = "deepseek-flash"
USER = [{"role": "user", "content": "Weather in Tokyo?"}]
TOOL = {
    "name": "get_weather",
    "description": "Weather in a city.",
    "parameters": {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
        "additionalProperties": False,
    },
}

ADAPTERS: dict[str, tuple[type[LoopbackServer], Callable[..., Model]]] = {
    "responses": (LocalResponsesServer, DeepSeekResponsesModel),
    "deepseek-chat": (LocalChatServer, DeepSeekChatModel),
    "generic-chat": (
        LocalChatServer,
        lambda model, **options: OpenAICompatibleChatModel(model, **options),
    ),
}


def verbose_traceback(error: BaseException) -> str:
    """The traceback as ``%xmode Verbose`` or ``pytest -l`` prints it: every frame's locals,
    except this test module's own frames (which hold the key on purpose, to pass it)."""
    caught = traceback.TracebackException.from_exception(error, capture_locals=True)
    caught.stack = traceback.StackSummary.from_list(
        [frame for frame in caught.stack if frame.filename != __file__]
    )
    assert caught.stack, "no frame of the adapter was on the stack"
    return "".join(caught.format())


def key_shown(text: str) -> bool:
    text += text.replace("', b'", "")  # a body read one byte at a time: [b's', b'k', ...]
    runs = {KEY[start : start + 8] for start in range(len(KEY) - 7)}
    return KEY in text or any(run in text for run in runs)


# --- the key in one object ------------------------------------------------------------------


def test_the_settings_tuple_shows_no_key() -> None:
    settings = deepseek_settings(MODEL, KEY, "http://127.0.0.1:9", None)
    assert isinstance(settings.api_key, SecretStr)
    assert settings.api_key.get_secret_value() == KEY
    assert "api_key=SecretStr('**********')" in repr(settings)
    assert not key_shown(repr(settings) + str(settings))


@pytest.mark.parametrize("adapter", ADAPTERS)
@pytest.mark.parametrize("given", ["argument", "secret", "environment"])
def test_a_failed_construction_shows_no_key_in_a_verbose_traceback(
    adapter: str, given: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, build = ADAPTERS[adapter]
    options: dict[str, Any] = {"base_url": "http://127.0.0.1:9", "timeout": -1}
    if given == "environment" and adapter != "generic-chat":
        monkeypatch.setenv("DEEPSEEK_API_KEY", KEY)
    else:
        options["api_key"] = SecretStr(KEY) if given == "secret" else KEY
    with pytest.raises(ValueError, match="timeout must be a positive number") as caught:
        build(MODEL, **options)
    shown = verbose_traceback(caught.value)
    assert "api_key = SecretStr('**********')" in shown or "key = SecretStr(" in shown
    assert not key_shown(shown)


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_half_built_adapter_has_a_repr_and_the_traceback_prints(
    adapter: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The HTTP client is built last: a proxy it cannot use fails after the settings were set.
    _, build = ADAPTERS[adapter]
    monkeypatch.setenv("HTTPS_PROXY", "ftp://proxy.example:21")
    with pytest.raises(ProviderSettingsError, match="HTTPS_PROXY") as caught:
        build(MODEL, api_key=KEY, base_url="https://api.example.com")
    shown = verbose_traceback(caught.value)
    assert "(<not built>)" in shown  # the repr of `self` in __init__ did not fail
    assert "repr() failed" not in shown
    assert not key_shown(shown)


SERVER_FAILURES: dict[str, list[Reply]] = {
    "status 401": [http_error(401, "Authentication Fails: the key is invalid")],
    "refused reply": [  # the model echoes the key in malformed arguments
        Reply(output=(function_call("get_weather", f'{{"city": "{KEY}"', "call-1"),))
    ],
    "redirect": [Reply(http_status=307, headers=(("Location", "https://elsewhere.example/"),))],
    "slow reply": [Reply(output=(message("late"),), delay_seconds=2.0)],
    "a 2xx body that is no JSON, echoing the key": [Reply(raw_body=f"Bearer {KEY} is fine")],
    "an encoding it did not ask for, echoing the key": [
        Reply(raw_body=f"Bearer {KEY}", headers=(("Content-Encoding", "br"),))
    ],
    "a slow drip that begins with the key": [
        Reply(raw_body=f"{KEY} {'.' * 40}", drip_seconds=0.04)
    ],
}


@pytest.mark.parametrize("adapter", ADAPTERS)
@pytest.mark.parametrize("failure", SERVER_FAILURES)
def test_a_failed_request_shows_no_key_in_a_verbose_traceback(adapter: str, failure: str) -> None:
    server_type, build = ADAPTERS[adapter]
    with (
        server_type(SERVER_FAILURES[failure]) as server,
        build(MODEL, api_key=KEY, base_url=server.base_url, max_retries=0, timeout=0.5) as model,
    ):
        with pytest.raises(ProviderError) as caught:
            model.generate(USER, [TOOL])
        assert server.requests[0].sent_bearer(KEY)  # the key went where it belongs
        assert not key_shown(repr(model))
    shown = verbose_traceback(caught.value)
    assert " = " in shown  # locals were printed
    assert not key_shown(shown), shown


# --- settings that would fail only at the server are refused when the adapter is built -------

BAD_KEYS = {
    "the course's example": "your-deepseek-api-key",
    "another example": "YOUR_API_KEY",
    "angle brackets": "<DeepSeekKey>",
    "x's": "sk-xxxxxxxxxxxx",
    "double quotes": '"sk-quoted-0123456789"',
    "single quote at the end": "sk-quoted-0123456789'",
    "a line break inside": "sk-line\nbreak-0123456789",
    "a space inside": "sk-space 0123456789",
    "a tab inside": "sk-tab\t0123456789",
}


@pytest.mark.parametrize("case", BAD_KEYS)
@pytest.mark.parametrize("adapter", ["responses", "deepseek-chat"])
@pytest.mark.parametrize("given", ["argument", "environment"])
def test_a_deepseek_key_that_cannot_work_is_refused_naming_the_variable(
    case: str, adapter: str, given: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, build = ADAPTERS[adapter]
    key = BAD_KEYS[case]
    options = {"base_url": "http://127.0.0.1:9"}
    if given == "environment":
        monkeypatch.setenv("DEEPSEEK_API_KEY", key)
    else:
        options["api_key"] = key
    with pytest.raises(ProviderConfigurationError, match=r"^DEEPSEEK_API_KEY (holds|starts|is an)"):
        build(MODEL, **options)


@pytest.mark.parametrize("case", BAD_KEYS)
def test_a_server_key_that_cannot_work_is_refused_naming_api_key_and_explained(case: str) -> None:
    with pytest.raises(ValueError, match=r"^api_key (holds|starts|is an)") as caught:
        OpenAICompatibleChatModel(MODEL, base_url="http://127.0.0.1:9", api_key=BAD_KEYS[case])
    assert BAD_KEYS[case].strip("\"'") not in str(caught.value)
    for language in ("en", "zh-CN"):
        explained = explain(caught.value, language)
        assert explained != explain(ValueError("something else"), language)  # its own words


@pytest.mark.parametrize(
    "key", ["offline-placeholder", "sk-0123456789abcdef", " sk-trimmed-0123 \n"]
)
def test_real_looking_keys_are_accepted_and_surrounding_white_space_is_removed(key: str) -> None:
    with LocalChatServer([Reply(output=(message("Hi."),))]) as server:
        with OpenAICompatibleChatModel(MODEL, base_url=server.base_url, api_key=key) as model:
            model.generate(USER, [])
        assert server.requests[0].sent_bearer(key.strip())


@pytest.mark.parametrize("adapter", ADAPTERS)
@pytest.mark.parametrize("given", ["argument", "environment"])
def test_a_base_url_with_a_user_name_and_password_is_refused_and_the_password_not_shown(
    adapter: str, given: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, build = ADAPTERS[adapter]
    url = "https://learner:hunter2-password@api.example.com/v1"
    options: dict[str, Any] = {"api_key": KEY}
    if given == "environment" and adapter != "generic-chat":
        monkeypatch.setenv("DEEPSEEK_BASE_URL", url)
    else:
        options["base_url"] = url
    with pytest.raises(ProviderSettingsError, match="user name and password") as caught:
        build(MODEL, **options)
    assert caught.value.variable == "base_url"
    assert "hunter2" not in str(caught.value) and "learner" not in str(caught.value)
    assert "api_key" in caught.value.hint


# --- close() and the context manager --------------------------------------------------------


def unclosed_resources(action: Callable[[], object]) -> list[str]:
    """The ResourceWarnings (unclosed sockets) seen while ``action`` runs and is collected."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", ResourceWarning)
        action()
        gc.collect()
    return [str(warning.message) for warning in seen if warning.category is ResourceWarning]


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_an_adapter_closes_its_connections_in_a_with_block(adapter: str) -> None:
    server_type, build = ADAPTERS[adapter]
    script = [Reply(output=(message("Hi."),))] * 2
    with server_type(script, keep_alive=True) as server:

        def use() -> Model:
            with build(MODEL, api_key=KEY, base_url=server.base_url) as model:
                model.generate(USER, [])
                model.generate(USER, [])  # the same kept-alive connection
            return model

        closed: list[Model] = []
        assert unclosed_resources(lambda: closed.append(use())) == []
        with pytest.raises(RuntimeError, match="was closed; build a new adapter"):
            closed[0].generate(USER, [])
        assert len(server.requests) == 2
        closed[0].close()  # closing again is harmless


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_an_adapter_dropped_without_close_closes_its_connections_when_collected(
    adapter: str,
) -> None:
    server_type, build = ADAPTERS[adapter]
    with server_type([Reply(output=(message("Hi."),))], keep_alive=True) as server:

        def run_once() -> None:  # as a notebook cell run again drops the adapter before it
            build(MODEL, api_key=KEY, base_url=server.base_url).generate(USER, [])

        assert unclosed_resources(run_once) == []

        def leak_a_client() -> None:  # the check sees a leak: an HTTP client never closed
            client = httpx2.Client()
            client.post(f"{server.base_url}/elsewhere", json={})

        assert any("unclosed" in text for text in unclosed_resources(leak_a_client))
