"""Command line: run the weather trajectory and print the trace and the counts.

``python -m agentcore`` runs the chapter's offline example (section 6) with the scripted
model: no network, no API key. Exit status: 0 when the model answered, 1 when the run failed
(the error type, its message and the counts are printed, without a traceback), 2 for bad
flags.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from agentcore.errors import AgentRuntimeError
from agentcore.runtime import AgentRuntime
from agentcore.scripted import LANGUAGES, TASKS, ScriptedWeatherModel, weather_request
from agentcore.teaching_tools import DESCRIBE_TEMPERATURE_TOOL, TEACHING_WEATHER, build_tools
from agentcore.transcript import Message

_LABELS = {
    "en": {
        "request": "request: {request}",
        "counts": "model turns: {turns} of max_steps={max_steps}; "
        "tool executions: {tools} of max_tool_calls={max_tools}",
        "transcript": "transcript:",
        "failed": "the run failed with {error}",
    },
    "zh-CN": {
        "request": "请求：{request}",
        "counts": "模型轮次：{turns}（max_steps={max_steps}）；"
        "工具执行：{tools}（max_tool_calls={max_tools}）",
        "transcript": "运行记录（transcript）：",
        "failed": "运行失败，错误类型：{error}",
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
        choices=["scripted"],
        default="scripted",
        help="who plays the model (default: the offline scripted model)",
    )
    return parser


def _print_transcript(messages: Sequence[Message], title: str) -> None:
    print(title)
    for message in messages:
        print("  " + json.dumps(message, ensure_ascii=False))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    args = build_parser().parse_args(argv)
    labels = _LABELS[args.language]
    tools = build_tools()
    if args.task == "describe":
        tools.append(DESCRIBE_TEMPERATURE_TOOL)
    model = ScriptedWeatherModel(city=args.city, task=args.task, language=args.language)
    runtime = AgentRuntime(
        model,
        tools,
        max_steps=args.max_steps,
        max_tool_calls=args.max_tool_calls,
        verbose=True,
    )
    request = weather_request(args.city, args.task, args.language)
    print(labels["request"].format(request=request))
    try:
        result = runtime.run(request)
    except AgentRuntimeError as error:
        # The trace already showed the error line; stderr says why the exit status is 1.
        print(labels["failed"].format(error=type(error).__name__), file=sys.stderr)
        counts, messages = (error.model_turns, error.tool_executions), error.messages
        status = 1
    else:
        counts, messages = (result.model_turns, result.tool_executions), result.messages
        status = 0
    print(
        labels["counts"].format(
            turns=counts[0],
            max_steps=runtime.max_steps,
            tools=counts[1],
            max_tools=runtime.max_tool_calls,
        )
    )
    if args.show_transcript:
        _print_transcript(messages, labels["transcript"])
    return status
