"""What every adapter owns (agentcore/providers/connection.py): its key, its settings, close().

The key is held in a pydantic ``SecretStr`` from the first line that receives it: a repr, a
message or a traceback that prints every frame's local variables (``%xmode Verbose`` in
IPython, ``pytest -l``) never shows it. Settings that would fail only at the server (an
example key, a quoted one, a base URL with a password) are refused when the adapter is built,
naming the setting. Loopback servers only.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import SecretStr

from agentcore import (
    DeepSeekChatModel,
    DeepSeekResponsesModel,
    Model,
    OpenAICompatibleChatModel,
    ProviderError,
)
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
