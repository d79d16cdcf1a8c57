"""What each Chat Completions server does differently: :class:`ChatProfile` and one per server.

:class:`~agentcore.providers.openai_compatible.OpenAICompatibleChatModel` reads the profile it
is given; each profile cites the documentation (and the public reports of quirks) it was
written from. Kept apart from the adapter so that the command line can list the profiles
without importing the ``openai`` SDK.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ChatProfile:
    """What one Chat Completions server does differently, as far as this adapter acts on it.

    Fields: ``name`` (shown in the adapter's repr); ``supports_strict``: the server documents
    ``"strict": true`` on a function tool, so the adapter may send it when asked
    (``strict=True``); for a server that does not, asking is a ``ValueError`` before anything
    is sent, and the runtime's own validation of every call's arguments holds either way;
    ``replays_reasoning_content``: the ``reasoning_content`` of every reply of a user turn in
    which the model called tools is sent back on that assistant message (DeepSeek's thinking
    mode answers 400 without it), and the server is taken to think (a tool-call reply with an
    empty one is refused); when ``False`` it is kept in the transcript's ``provider_items``
    but not sent;
    ``arguments_may_be_objects``: the server may send ``function.arguments`` as a JSON object
    instead of a string (llama.cpp#20198, ollama#6155); the adapter then writes it as a JSON
    string and reads it with the same strict :func:`~agentcore.providers.tool_calls.parse_arguments`
    (so it is stored and re-sent as a string); when ``False`` such a reply is a
    :class:`~agentcore.providers.errors.ServerQuirkError`; ``makes_missing_call_ids``: a call
    without an ``id`` gets one made by the adapter, ``call-<turn>-<position>`` (stable: the
    same transcript gives the same ids), listed under ``made_call_ids`` in the turn's
    ``provider_items``; when ``False`` it is refused as today; ``legacy_call_names_unreliable``:
    the server writes a legacy ``function_call`` beside ``tool_calls`` whose name is not the
    call's (empty, or an offered tool's name followed by a colon, ``"get_weather:"``); such a
    legacy call is ignored when its arguments are those of one of the ``tool_calls`` (noted as
    ``ignored_function_call_name``), any other is still refused; ``tool_setup``: what turns the
    server's tool-call parser on (a flag or a setting), named when the server returns a call
    as text; ``docs``: the pages the profile was written from.
    """

    name: str
    supports_strict: bool = False
    replays_reasoning_content: bool = False
    arguments_may_be_objects: bool = False
    makes_missing_call_ids: bool = False
    legacy_call_names_unreliable: bool = False
    tool_setup: str = "the server's tool-call parser (see its docs on tool calling)"
    docs: tuple[str, ...] = ()


DEEPSEEK = ChatProfile(
    name="deepseek",
    supports_strict=True,
    replays_reasoning_content=True,
    docs=(
        "https://api-docs.deepseek.com/guides/tool_calls",
        "https://api-docs.deepseek.com/guides/thinking_mode",
    ),
)
"""DeepSeek: ``strict`` is a documented beta (beta base URL, every function strict, Tool Calls
guide); in thinking mode (on by default) the ``reasoning_content`` of every assistant message
of a user turn in which the model called tools must be sent back in all later requests (HTTP
400 otherwise, Thinking Mode guide)."""

OLLAMA = ChatProfile(
    name="ollama",
    arguments_may_be_objects=True,
    makes_missing_call_ids=True,
    tool_setup="a model whose template supports tools (`ollama show MODEL` lists 'tools')",
    docs=(
        "https://docs.ollama.com/api/openai-compatibility",
        "https://ollama.com/blog/tool-support",
    ),
)
"""Ollama (``http://localhost:11434/v1``): its OpenAI compatibility page lists ``tools`` and
``tool_choice`` among the supported request fields, not ``strict``; a thinking model's reasoning
comes back in Ollama's own ``reasoning`` field, and sending ``reasoning_content`` back in the
history is reported to stall a conversation (anomalyco/opencode#34798), so it is not sent. The
page says the key is "required but ignored". Arguments are reported arriving as JSON objects
(ollama#6155), so they are accepted; a call without an id gets one made by the adapter."""

LLAMA_SERVER = ChatProfile(
    name="llama-server",
    arguments_may_be_objects=True,
    makes_missing_call_ids=True,
    tool_setup="--jinja",
    docs=(
        "https://github.com/ggml-org/llama.cpp/blob/master/docs/function-calling.md",
        "https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md",
    ),
)
"""llama.cpp's ``llama-server`` (``http://localhost:8080/v1``): tool calls need ``--jinja``
(the model's chat template, or the generic handler); ``strict`` is not documented for tools, so
it is not sent, and nothing in its docs asks for ``reasoning_content`` back. Arguments are
reported arriving as JSON objects (llama.cpp#20198), so they are accepted."""

LLAMA_CPP_PYTHON = ChatProfile(
    name="llama-cpp-python",
    legacy_call_names_unreliable=True,
    tool_setup="--chat_format chatml-function-calling (or functionary-v2 with its tokenizer)",
    docs=(
        "https://github.com/abetlen/llama-cpp-python/blob/main/docs/server.md",
        "https://github.com/abetlen/llama-cpp-python/blob/main/llama_cpp/llama_chat_format.py",
    ),
)
"""llama-cpp-python's own server (``python -m llama_cpp.server``, ``http://localhost:8000/v1``):
tool calls need a function-calling chat format (``--chat_format chatml-function-calling``, or
``functionary-v2`` with its tokenizer). With ``chatml-function-calling`` and the model choosing
the tool itself, the reply holds ``tool_calls`` and beside them a legacy ``function_call`` with
the same arguments whose name is whatever its grammar produced next: the tool's name with a
colon (``"get_weather:"``), or nothing (``llama_chat_format.py``, ``chatml_function_calling``);
only ``tool_calls`` is read. ``strict`` is not documented, so it is not sent; arguments come as
strings and every call has an id."""

VLLM = ChatProfile(
    name="vllm",
    makes_missing_call_ids=True,
    tool_setup="--enable-auto-tool-choice --tool-call-parser NAME",
    docs=(
        "https://docs.vllm.ai/en/latest/features/tool_calling/",
        "https://docs.vllm.ai/en/latest/features/reasoning_outputs/",
    ),
)
"""vLLM (``http://localhost:8000/v1``): ``tool_choice: "auto"`` needs ``--enable-auto-tool-choice
--tool-call-parser NAME``; with ``--reasoning-parser`` the reply carries the reasoning in
``reasoning`` (formerly ``reasoning_content``), and the docs' multi-turn example sends back only
``content``; ``strict`` is not documented, so it is not sent."""

LM_STUDIO = ChatProfile(
    name="lm-studio",
    makes_missing_call_ids=True,
    tool_setup="a model LM Studio lists with native tool use",
    docs=(
        "https://lmstudio.ai/docs/developer/openai-compat",
        "https://lmstudio.ai/docs/developer",
    ),
)
"""LM Studio (``http://localhost:1234/v1``): tool calling through ``tools`` on its
OpenAI-compatible endpoints; ``strict`` on a function tool is not documented, so it is not
sent; no key unless "Require Authentication" is on."""

GENERIC = ChatProfile(name="generic")
"""Any other server: nothing beyond the Chat Completions format is sent or accepted (no quirk
is absorbed; ``python -m agentcore doctor`` says which profile a server needs)."""

CHAT_PROFILES = {
    profile.name: profile
    for profile in (DEEPSEEK, OLLAMA, LLAMA_SERVER, LLAMA_CPP_PYTHON, VLLM, LM_STUDIO, GENERIC)
}
"""Every profile by its ``name``; :class:`OpenAICompatibleChatModel` accepts either."""
