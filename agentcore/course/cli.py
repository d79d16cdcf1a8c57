"""Command line: run the weather trajectory and print the trace and the counts.

``python -m agentcore`` runs the chapter's offline example (section 6) with the scripted
model: no network, no API key. ``--provider deepseek`` runs the same task through
:class:`agentcore.DeepSeekResponsesModel`, or with ``--api chat`` through
:class:`agentcore.DeepSeekChatModel` (section 10): against DeepSeek when ``DEEPSEEK_API_KEY``
and ``DEEPSEEK_MODEL`` are set, or, with ``--offline``, against the loopback server for that
wire format on 127.0.0.1 (:class:`~agentcore.providers.local_server.LocalResponsesServer` or
:class:`~agentcore.providers.local_chat_server.LocalChatServer`), whose replies are scripted.

Exit status: 0 when the model answered, 1 when the run failed (the error type, its message
and the counts are printed, without a traceback), 2 for bad flags or for ``--provider
deepseek`` without its settings (one sentence says what to set; no traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from agentcore.course.snapshot import RunSnapshot
from agentcore.course.teaching_tools import DESCRIBE_TEMPERATURE_TOOL, TEACHING_WEATHER, build_tools
from agentcore.course.weather import LANGUAGES, TASKS, ScriptedWeatherModel, weather_request
from agentcore.protocol import Model
from agentcore.providers.errors import ProviderConfigurationError
from agentcore.runtime import AgentRuntime
from agentcore.tools import Tool
from agentcore.transcript import Message

INSTRUCTIONS = (
    "You answer questions about fixed teaching weather records. Call the tools for every "
    "lookup and every conversion instead of guessing, then answer in one sentence."
)
"""The ``instructions`` sent with ``--provider deepseek``, online and offline alike."""
OFFLINE_MODEL = "deepseek-flash"
"""The model name sent to the local server with ``--offline`` (it plays a script anyway)."""
OFFLINE_API_KEY = "offline-placeholder"
"""What ``--offline`` sends as the key: a real ``DEEPSEEK_API_KEY`` never goes to the server."""

_LABELS = {
    "en": {
        "request": "request: {request}",
        "transcript": "transcript:",
        "failed": "the run failed with {error}",
        "offline": "offline: {adapter} sends real HTTP requests to a local server "
        "on 127.0.0.1; its replies are scripted, not a model's.",
        "online": "provider: DeepSeek {api} at {base_url}, model {model}",
        "missing": "error: {error} Or add --offline to run against the local scripted server.",
        "environment": "error: the HTTP client could not start ({error}); check the proxy, "
        "certificate and DEEPSEEK_BASE_URL settings of this shell.",
    },
    "zh-CN": {
        "request": "请求：{request}",
        "transcript": "运行记录（transcript）：",
        "failed": "运行失败，错误类型：{error}",
        "offline": "离线：{adapter} 向 127.0.0.1 上的本地服务器发送真实的 HTTP 请求；"
        "回复是预先写好的脚本，不是模型生成的。",
        "online": "提供方：DeepSeek {api}（{base_url}），模型 {model}",
        "missing": "错误：{error} 也可以加上 --offline，改用本地脚本服务器运行。",
        "environment": "错误：HTTP 客户端无法启动（{error}）；请检查当前终端里的代理、证书和 "
        "DEEPSEEK_BASE_URL 设置。",
    },
}


def _positive_int(minimum: int) -> type[int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    return parse  # type: ignore[return-value]


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of ``python -m agentcore`` (its flags are in ``--help``)."""
    parser = argparse.ArgumentParser(
        prog="python -m agentcore",
        description="Run the teaching weather task through the agent runtime and print the "
        "trace. Offline by default: the scripted model needs no network and no API key.",
    )
    parser.add_argument("--city", choices=sorted(TEACHING_WEATHER), default="Tokyo")
    parser.add_argument("--task", choices=TASKS, default="convert")
    parser.add_argument("--language", choices=LANGUAGES, default="en")
    parser.add_argument(
        "--max-steps", type=_positive_int(1), default=6, help="most model turns (default 6)"
    )
    parser.add_argument(
        "--max-tool-calls",
        type=_positive_int(0),
        default=6,
        help="most tool executions (default 6; 0 allows only answers without tools)",
    )
    parser.add_argument(
        "--show-transcript", action="store_true", help="print the transcript after the run"
    )
    parser.add_argument(
        "--provider",
        choices=["scripted", "deepseek"],
        default="scripted",
        help="who plays the model: the offline scripted model (default), or DeepSeek through "
        "the API --api names (needs DEEPSEEK_API_KEY and DEEPSEEK_MODEL, unless --offline)",
    )
    parser.add_argument(
        "--api",
        choices=["responses", "chat"],
        default="responses",
        help="with --provider deepseek: which wire format the adapter speaks, the Responses "
        "API (default) or Chat Completions",
    )
    parser.add_argument(
        "--offline",
        action="store_true",
        help="with --provider deepseek: send the requests to a local server on 127.0.0.1 "
        "that plays scripted replies (no key, no network)",
    )
    parser.add_argument(
        "--reasoning-effort",
        choices=["none", "low", "high", "max"],
        default=None,
        help="with --provider deepseek: DeepSeek's thinking effort, sent as reasoning.effort "
        "(--api chat: reasoning_effort) (none turns thinking off; default: not sent, DeepSeek "
        "thinks at high)",
    )
    return parser


def _print_transcript(messages: Sequence[Message], title: str) -> None:
    print(title)
    for message in messages:
        print("  " + json.dumps(message, ensure_ascii=False))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.offline and args.provider != "deepseek":
        parser.error(
            "--offline goes with --provider deepseek; the scripted model is always offline"
        )
    if args.api != "responses" and args.provider != "deepseek":
        parser.error("--api goes with --provider deepseek; the scripted model has no wire format")
    if args.reasoning_effort is not None and args.provider != "deepseek":
        parser.error("--reasoning-effort goes with --provider deepseek")
    labels = _LABELS[args.language]
    tools = build_tools()
    if args.task == "describe":
        tools.append(DESCRIBE_TEMPERATURE_TOOL)
    if args.provider == "scripted":
        model = ScriptedWeatherModel(city=args.city, task=args.task, language=args.language)
        return _run(model, tools, args)

    try:
        return _run_deepseek(tools, args)
    except ProviderConfigurationError as error:
        print(labels["missing"].format(error=error), file=sys.stderr)
        return 2
    except Exception as error:  # a proxy, certificate or URL setting the HTTP stack refused
        print(labels["environment"].format(error=f"{type(error).__name__}: {error}"),
              file=sys.stderr)  # fmt: skip
        return 1


def _run_deepseek(tools: list[Tool], args: argparse.Namespace) -> int:
    """Run the task through the DeepSeek adapter for ``--api``, offline or online."""
    # Imported here: only this path needs the openai SDK.
    from agentcore.providers import local_server
    from agentcore.providers.deepseek import DeepSeekResponsesModel
    from agentcore.providers.deepseek_chat import DeepSeekChatModel
    from agentcore.providers.local_chat_server import LocalChatServer

    labels = _LABELS[args.language]
    adapter: type[DeepSeekResponsesModel | DeepSeekChatModel] = DeepSeekResponsesModel
    server_type: type[local_server.LoopbackServer] = local_server.LocalResponsesServer
    api = "Responses API"
    if args.api == "chat":
        adapter, server_type, api = DeepSeekChatModel, LocalChatServer, "Chat Completions API"
    if args.offline:
        script = local_server.weather_script(args.city, args.task, args.language)
        with server_type(script) as server:
            print(labels["offline"].format(adapter=adapter.__name__))
            offline = adapter(
                OFFLINE_MODEL,
                api_key=OFFLINE_API_KEY,
                base_url=server.base_url,
                max_retries=0,  # a local script gains nothing from a retry
                reasoning_effort=args.reasoning_effort,
                instructions=INSTRUCTIONS,
            )
            return _run(offline, tools, args)
    online = adapter(reasoning_effort=args.reasoning_effort, instructions=INSTRUCTIONS)
    print(labels["online"].format(api=api, base_url=online.base_url, model=online.model))
    return _run(online, tools, args)


def _run(model: Model, tools: list[Tool], args: argparse.Namespace) -> int:
    """Run the task with ``model``, print the trace, the counts (and the transcript)."""
    labels = _LABELS[args.language]
    runtime = AgentRuntime(
        model, tools, max_steps=args.max_steps, max_tool_calls=args.max_tool_calls
    )
    request = weather_request(args.city, args.task, args.language)
    print(labels["request"].format(request=request))
    run = runtime.start(request)
    for event in run:  # the runtime's own loop, one event at a time
        if (line := event.trace_line()) is not None:
            print(line)
    if run.error is not None:
        # The trace already showed the error line; stderr says why the exit status is 1.
        print(labels["failed"].format(error=type(run.error).__name__), file=sys.stderr)
    print(RunSnapshot.of_run(run, language=args.language).budgets())
    if args.show_transcript:
        _print_transcript(run.messages, labels["transcript"])
    return 1 if run.error is not None else 0
