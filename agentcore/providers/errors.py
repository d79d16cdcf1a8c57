"""The provider errors: what an adapter raises when a model API fails (chapter section 10).

Every error here subclasses :class:`ProviderError`, which subclasses
:class:`agentcore.errors.ModelError`, so a failed provider call reaches the runtime as a model
failure and carries the transcript like every runtime error. Each message is the cause (a
sentence) followed by a hint saying what to do. None ever holds the API key: the adapters build
every text through :func:`agentcore.providers.http.redact` before it reaches an error.

=========================== ===================================== ===============================
error                       raised when                           look first at
=========================== ===================================== ===============================
ProviderConfigurationError  no API key or no model is configured  ``DEEPSEEK_API_KEY``,
                                                                  ``DEEPSEEK_MODEL``
ProviderSettingsError       the HTTP client cannot be built from  the variable it names
                            a proxy, certificate or URL setting   (``HTTPS_PROXY``,
                                                                  ``SSL_CERT_FILE``, ...)
ProviderRequestError        the adapter cannot build a valid      the transcript (unpaired
                            request; nothing was sent             calls and outputs, roles)
ProviderConnectionError     nothing answered at the base URL      ``DEEPSEEK_BASE_URL``, network,
                            (refused, DNS, proxy)                 proxy settings
ProviderTimeoutError        no whole reply within the deadline    the network, ``timeout=``
ProviderStatusError         the provider answered with an HTTP    ``status_code`` and its hint
                            error status or a redirect            (:data:`STATUS_HINTS`)
ProviderResponseError       the reply breaks the wire format or   the provider, the base URL
                            the adapter's limits (size, nesting,
                            encoding, items, arguments)
ServerQuirkError            a Chat Completions server showed a    ``quirk`` and ``fix``: the
                            known quirk the adapter refuses       server's flag or setting
=========================== ===================================== ===============================
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from agentcore.errors import ModelError

CURRENT_MODELS = ("deepseek-flash",)
"""The model names DeepSeek serves today (its docs, 2026-09). ``deepseek-v4-flash`` is a
retired name DeepSeek still routes to ``deepseek-flash`` and may remove."""

_RETRY = (
    "Wait a little and run again (the SDK already retried up to max_retries times before "
    "giving up)."
)
_FORMAT = (
    "The adapter sent something the provider does not accept; compare the request body with "
    "the provider's documentation of that API (Responses API or Chat Completions)."
)

STATUS_HINTS: dict[int | str, tuple[str, str]] = {
    400: ("The provider rejected the request format", _FORMAT),
    "model not exist": (
        "The provider does not serve the model in DEEPSEEK_MODEL",
        f"Set DEEPSEEK_MODEL to a current name: {', '.join(CURRENT_MODELS)} "
        "(deepseek-v4-flash is a retired alias that DeepSeek may remove).",
    ),
    "reasoning dropped": (
        "The provider wants its reasoning back (thinking mode)",
        "Every reply of a user turn in which the model called tools must come back with its "
        "reasoning (reasoning_content, or the reasoning item in place); a transcript made "
        "with thinking off, by another model or edited by hand lacks it. Continue it with "
        "thinking off (reasoning_effort='none'), or start a new transcript.",
    ),
    401: (
        "The provider refused the API key",
        "Check that DEEPSEEK_API_KEY holds a current key from "
        "https://platform.deepseek.com/api_keys, without quotes or spaces.",
    ),
    402: (
        "The account has insufficient balance",
        "Top up at https://platform.deepseek.com/top_up, or run offline with the local "
        "server (python -m agentcore --provider deepseek --offline).",
    ),
    403: (
        "The API key may not use this model or endpoint",
        "Check the account's access to the model in DEEPSEEK_MODEL.",
    ),
    404: (
        "No such model or endpoint at the base URL",
        "Check DEEPSEEK_MODEL for a typo, and that DEEPSEEK_BASE_URL is "
        "https://api.deepseek.com (without /responses or /chat/completions).",
    ),
    422: ("The provider rejected a parameter", _FORMAT),
    429: ("Too many requests at once", _RETRY),
    "tools need jinja": (
        "llama-server refused the tools: it runs without its chat templates",
        "Start llama-server with --jinja (llama.cpp docs/function-calling.md); the adapter "
        "cannot send tools to it otherwise.",
    ),
    "tools need auto tool choice": (
        "vLLM refused the tools: its tool-call parser is not on",
        "Start vLLM with --enable-auto-tool-choice --tool-call-parser NAME (the parser of your "
        "model's family, vLLM docs features/tool_calling).",
    ),
    "3xx": (
        "The provider answered with a redirect, which the adapter does not follow",
        "Set DEEPSEEK_BASE_URL to the provider's API address itself (https://api.deepseek.com "
        "for DeepSeek); a redirect would carry the key and the transcript to another host.",
    ),
    "5xx": ("The provider's server failed", _RETRY),
    "other": ("The provider answered with an error", "Look up the status in the provider's docs."),
}
"""The cause and the hint for each HTTP status, read by :class:`ProviderStatusError`.

Keys: the statuses DeepSeek documents (400, 401, 402, 422, 429, 5xx) and those an HTTP server
may send besides (403, 404); ``"model not exist"`` for a 400 whose message says the model does
not exist (DeepSeek answers an unknown model with ``400 Model Not Exist``, not 404);
``"reasoning dropped"`` for DeepSeek's 400 when a thinking-mode reasoning item was not sent back;
``"tools need jinja"`` and ``"tools need auto tool choice"`` for a local server that refuses
``tools`` until a flag is set (llama-server answers 500 ``tools param requires --jinja flag``,
reported in AstrBotDevs/AstrBot#758; vLLM answers 400 naming ``--enable-auto-tool-choice``);
``"3xx"``
for a redirect; ``"other"`` for anything else.
"""

SERVER_STATUS_HINTS: dict[int | str, tuple[str, str]] = {
    **STATUS_HINTS,
    "model not exist": (
        "The server does not serve the model named in model",
        "Check the model name (model=, --model on the command line) against the names the "
        "server lists (`ollama list` for Ollama; GET /v1/models for most servers).",
    ),
    "reasoning dropped": (
        "The server wants its reasoning back (thinking mode)",
        "Every reply of a user turn in which the model called tools must come back with its "
        "reasoning_content; use the profile that sends it back (profile='deepseek', or "
        "DeepSeekChatModel for DeepSeek), or start a new transcript.",
    ),
    401: (
        "The server refused the API key",
        "Check the key the server expects (api_key=, --api-key-env on the command line); a "
        "local server started without a key needs none (api_key=None).",
    ),
    402: (
        "The server asks for payment",
        "Check the account's balance on the provider's own site.",
    ),
    403: (
        "The API key may not use this model or endpoint",
        "Check the key's access to the model named in model= (--model on the command line).",
    ),
    404: (
        "No such model or endpoint at the base URL",
        "Check the model name (model=, --model) and that base_url (--base-url) is the server's "
        "API root, which usually ends in /v1 (http://localhost:11434/v1 for Ollama), without "
        "/chat/completions.",
    ),
    "3xx": (
        "The server answered with a redirect, which the adapter does not follow",
        "Set base_url (--base-url on the command line) to the server's API address itself; a "
        "redirect would carry the key and the transcript to another host.",
    ),
}
"""The causes and hints for a Chat Completions server other than DeepSeek's adapters
(:class:`~agentcore.providers.openai_compatible.OpenAICompatibleChatModel`): they name the
adapter's own settings (``model``, ``base_url``, ``api_key``, or the command line's flags),
never ``DEEPSEEK_*`` variables, which that adapter does not read."""

STATUS_HINT_TABLES: dict[str, dict[int | str, tuple[str, str]]] = {
    "deepseek": STATUS_HINTS,
    "server": SERVER_STATUS_HINTS,
}
"""Each adapter's table, by the name a :class:`ProviderStatusError` keeps in ``hints``."""

_MODEL_NOT_EXIST = re.compile(r"model\W*(does\W*)?not\W*exist", re.IGNORECASE)
_REASONING_DROPPED = re.compile(r"reasoning_(text|content).*passed back", re.IGNORECASE)
_NEEDS_JINJA = re.compile(r"requires\W+--jinja", re.IGNORECASE)
_NEEDS_AUTO_TOOL_CHOICE = re.compile(r"--enable-auto-tool-choice", re.IGNORECASE)


def status_key(status_code: int, provider_message: str = "") -> int | str:
    """The :data:`STATUS_HINTS` key for a status and the provider's message.

    Inputs: the HTTP status and the provider's own explanation. Output: a key of the table
    (a 400 whose message says the model does not exist gets ``"model not exist"``, one that
    says a reasoning item was not passed back gets ``"reasoning dropped"``).
    """
    if status_code == 400 and _MODEL_NOT_EXIST.search(provider_message):
        return "model not exist"
    if status_code == 400 and _REASONING_DROPPED.search(provider_message):
        return "reasoning dropped"
    if status_code in (400, 500) and _NEEDS_JINJA.search(provider_message):
        return "tools need jinja"
    if status_code in (400, 500) and _NEEDS_AUTO_TOOL_CHOICE.search(provider_message):
        return "tools need auto tool choice"
    if status_code in STATUS_HINTS:
        return status_code
    if 300 <= status_code < 400:
        return "3xx"
    if status_code >= 500:
        return "5xx"
    return "other"


class ProviderError(ModelError):
    """A provider adapter failed to get a valid model turn (chapter section 10).

    Inputs: ``message`` (the cause, one sentence), and keyword-only ``hint`` (what to do),
    ``status_code`` (the HTTP status, when the provider answered with one) and ``rejected``
    (the raw reply items the adapter refused, as JSON values; the runtime records them in the
    transcript, contract decision 10).

    Attributes: ``hint``, ``status_code``, ``rejected`` (a tuple). The message is the cause
    followed by the hint. Raised inside ``Model.generate``, it reaches the runtime unchanged.
    """

    def __init__(
        self,
        message: str,
        *,
        hint: str = "",
        status_code: int | None = None,
        rejected: Iterable[Any] = (),
    ) -> None:
        super().__init__(f"{message} {hint}" if hint else message, rejected=tuple(rejected))
        self.hint = hint
        self.status_code = status_code


class ProviderConfigurationError(ProviderError):
    """The adapter is missing its API key or model, or a setting cannot be used.

    Raised when the adapter is constructed. The message names the environment variables to
    set, with the command for bash, PowerShell and cmd.
    """


class ProviderSettingsError(ProviderConfigurationError, ValueError):
    """A connection setting of the environment or the adapter cannot be used; nothing was sent.

    Raised when the adapter builds its HTTP client, for: a proxy variable (``HTTPS_PROXY``,
    ``HTTP_PROXY``, ``ALL_PROXY``) whose scheme is not ``http``, ``https``, ``socks5`` or
    ``socks5h``, that is not a URL, or that names a SOCKS proxy while the ``socksio`` package
    is missing; ``SSL_CERT_FILE`` naming a missing file, a folder, or a file holding no readable
    certificate; ``SSL_CERT_DIR`` naming no folder; a base URL that is not a URL. httpx2 and
    ``ssl`` raise ``ImportError``, ``ValueError``, ``OSError`` or ``ssl.SSLError`` for these;
    :func:`agentcore.providers.http.build_http_client` turns each into this error.

    Inputs: ``variable`` (the setting's name: an environment variable or ``base_url``),
    ``value`` (as set, credentials already removed), ``problem`` (what is wrong with it) and
    keyword-only ``hint`` (the fix). Attributes: ``variable``, ``value``, ``problem``,
    ``hint``. Also a ``ValueError``: a setting with a value that cannot be used.
    """

    def __init__(self, variable: str, value: str, problem: str, *, hint: str) -> None:
        super().__init__(f"The setting {variable}={value!r} cannot be used: {problem}.", hint=hint)
        self.variable = variable
        self.value = value
        self.problem = problem


class ProviderRequestError(ProviderError):
    """The adapter cannot build a valid request from the transcript; nothing was sent.

    Raised for a ``function_call_output`` whose ``call_id`` has no earlier call, a call with
    no output, and a message the adapter cannot translate; the message names the id or the
    message's index and role.
    """


class ProviderConnectionError(ProviderError):
    """No reply came from the provider's base URL: the connection was refused, the name not
    found or the proxy down ("Could not connect"), or the server closed the connection
    without answering, or the connection broke before a reply arrived (each said as such).

    The message names the base URL, what happened and the transport's own reason (redacted).
    """


class ProviderTimeoutError(ProviderConnectionError):
    """The whole reply did not arrive within the request's deadline (``timeout=`` seconds).

    The deadline covers connecting, sending and reading the whole body, so a server that
    sends one byte at a time cannot hold a call longer than the deadline plus one read.
    """


class ProviderStatusError(ProviderError):
    """The provider answered with an HTTP error status or a redirect.

    Inputs: ``status_code`` and ``provider_message`` (the provider's own explanation, already
    redacted and shortened by the adapter; for a redirect, the host it pointed to), and
    keyword-only ``hints``: whose table gives the cause and the hint, ``"deepseek"``
    (:data:`STATUS_HINTS`, naming ``DEEPSEEK_*``: DeepSeek's adapters) or ``"server"``
    (:data:`SERVER_STATUS_HINTS`, naming ``model``, ``base_url`` and ``api_key``: any other
    Chat Completions server).

    Attributes: ``status_code``, ``provider_message``, ``hint``, ``kind`` (the table key),
    ``hints``.
    """

    def __init__(
        self, status_code: int, provider_message: str = "", *, hints: str = "deepseek"
    ) -> None:
        self.kind = status_key(status_code, provider_message)
        self.hints = hints
        what, hint = STATUS_HINT_TABLES[hints][self.kind]
        said = f": {provider_message}" if provider_message else ""
        super().__init__(f"{what} (HTTP {status_code}{said}).", hint=hint, status_code=status_code)
        self.status_code: int = status_code
        self.provider_message = provider_message


RESPONSE_KINDS: dict[str, str] = {
    "shape": "a field of the wrong shape, or a reply that is not of the API the adapter speaks",
    "no choice": "a chat completion without a choice",
    "several choices": "a chat completion with more than one choice (the adapter asks for one)",
    "no message": "a choice whose message is null or missing",
    "cut off": "the reply stopped at the output limit (finish_reason 'length', status "
    "'incomplete' for max_output_tokens)",
    "content filter": "the provider's content filter stopped the reply",
    "capacity": "the provider ran short of capacity (finish_reason 'insufficient_system_resource')",
    "unfinished": "any other finish_reason, or a status other than 'completed'",
    "no reasoning": "thinking mode: tool calls without reasoning_content (absent, null or empty)",
    "refusal": "the model refused instead of answering",
    "empty reply": "no tool call and no text",
    "not a function": "a tool call of a type other than function",
    "unknown item": "a Responses output item of a type the adapter does not model "
    "(custom_tool_call, web_search_call, ...)",
    "call name": "a call whose name is missing, empty or not a string",
    "call id": "a call whose id is missing, empty or not a string (an integer, ...)",
    "shared call id": "two calls of one reply sharing one id",
    "arguments": "arguments that are not one JSON object in a string (malformed, truncated, too "
    "long, not an object), or that the server itself could not parse",
    "too large": "a body over the adapter's caps, on the wire or decoded, or a header block "
    "over the HTTP client's limit",
    "not http": "an answer that is not HTTP (another service on that port)",
    "error body": "a 2xx reply that holds the server's error instead of a result",
    "unreadable": "a body that cannot be read: not UTF-8, not JSON, nested too deep, an unknown "
    "or broken compression, ended early",
    "event stream": "an event stream (server-sent events) to a request that asked for none",
    "local model": "llama-cpp-python returned no message",
    "server quirk": "a known server quirk (ServerQuirkError: its quirk says which)",
    "other": "anything else (the default)",
}
"""The causes of a :class:`ProviderResponseError`, its ``kind``: each raise site in the adapters
sets one, and :func:`agentcore.course.text.explain` explains each in the learner's language."""


class ProviderResponseError(ProviderError):
    """The provider's reply breaks the wire format or the adapter's limits.

    Raised for: a body over the size limit (on the wire or decoded), not valid UTF-8, not
    JSON, nested too deep, or with a broken compression; a status other than ``completed``;
    no function call and no text; function arguments that are not a JSON object; an empty
    ``call_id`` or name. The turn is rejected before any handler runs; ``rejected`` holds the
    refused output items when there were any.

    Inputs: those of :class:`ProviderError`, and keyword-only ``kind``: the cause, a key of
    :data:`RESPONSE_KINDS` (default ``"other"``). Attributes: ``kind``, and those of
    :class:`ProviderError`.
    """

    def __init__(
        self,
        message: str,
        *,
        kind: str = "other",
        hint: str = "",
        status_code: int | None = None,
        rejected: Iterable[Any] = (),
    ) -> None:
        super().__init__(message, hint=hint, status_code=status_code, rejected=rejected)
        self.kind = kind


class ServerQuirkError(ProviderResponseError):
    """A Chat Completions server showed a known quirk that the adapter refuses.

    Inputs: ``message`` and ``hint`` as every provider error; keyword-only ``quirk`` (the
    quirk's name, one of
    :data:`~agentcore.providers.local_chat_server.QUIRKS`: ``"call-as-text"``,
    ``"concatenated-arguments"``, ``"legacy-function-call"``, ``"arguments-as-object"``)
    and ``fix`` (the server flag or setting that removes it, as the profile names it; may be
    empty); ``profile`` (the name of the adapter's profile, so that an explanation can name
    that server's setting); ``rejected`` as every provider error.

    Attributes: ``quirk``, ``fix``, ``profile``, and those of :class:`ProviderResponseError`
    (``kind`` is ``"server quirk"``). Raised by
    :func:`~agentcore.providers.openai_compatible.to_chat_model_turn`; the turn is rejected
    before any handler runs, and nothing is parsed out of prose or split by guess.
    """

    def __init__(
        self,
        message: str,
        *,
        quirk: str,
        fix: str = "",
        profile: str = "",
        hint: str = "",
        rejected: Iterable[Any] = (),
    ) -> None:
        super().__init__(message, kind="server quirk", hint=hint, rejected=rejected)
        self.quirk = quirk
        self.fix = fix
        self.profile = profile

    def __reduce__(self) -> tuple[Any, ...]:
        # quirk is keyword-only: rebuild from the message, then restore every attribute.
        return (_quirk_error, (str(self),), dict(vars(self)))


def _quirk_error(text: str) -> ServerQuirkError:
    return ServerQuirkError(text, quirk="")
