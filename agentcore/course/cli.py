"""Command line: run the weather trajectory and print the trace and the counts.

``python -m agentcore`` runs the chapter's offline example (section 6) with the scripted
model: no network, no API key. ``--provider deepseek`` runs the same task through
:class:`agentcore.DeepSeekResponsesModel`, or with ``--api chat`` through
:class:`agentcore.DeepSeekChatModel` (section 10): against DeepSeek when ``DEEPSEEK_API_KEY``
and ``DEEPSEEK_MODEL`` are set, or, with ``--offline``, against the loopback server for that
wire format on 127.0.0.1 (:class:`~agentcore.providers.local_server.LocalResponsesServer` or
:class:`~agentcore.providers.local_chat_server.LocalChatServer`), whose replies are scripted.

Exit status: 0 when the model answered, 1 when the run failed (the error type, its message
and the counts are printed, without a traceback) or the output could not be written (a full
disk: one sentence says so), 2 for bad flags, for a provider without its settings (one
sentence says what to set; no traceback) or for a setting whose value its own check refuses
(a blank ``--model``, an API key with a non-ASCII character: the error and its
explanation), 130 when Ctrl-C interrupted the run (its status, why, and the counts are
printed), 141 when the reader of the output stopped reading (``| head``), quietly, as Unix
tools do.

Language: one rule for everything the command prints (``--help``, flag errors, configuration
errors and the run itself): ``--language`` when it is given, else the locale (``LC_ALL``,
``LC_MESSAGES``, then ``LANG``; ``zh*`` gives Chinese), else English. Every string
comes from the message catalogs, through :mod:`agentcore.course.text`. Characters the console
cannot encode (``cp1252``) print as replacement characters instead of ending the run.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import SecretStr

from agentcore.course.snapshot import RunSnapshot
from agentcore.course.teaching_tools import DESCRIBE_TEMPERATURE_TOOL, TEACHING_WEATHER, build_tools
from agentcore.course.text import LANGUAGES, Language, display_width, explain, phrase, wrap
from agentcore.course.weather import TASKS, ScriptedWeatherModel, weather_request
from agentcore.protocol import Model
from agentcore.providers.errors import ProviderConfigurationError, ProviderSettingsError
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
OFFLINE_LOCAL_MODEL = "local-model"
"""The model name ``--provider openai-compatible --offline`` and ``doctor --offline`` send
when ``--model`` is not given (the local server serves the name it is asked for)."""
OFFLINE_API_KEY = "offline-placeholder"
"""What ``--offline`` sends as the key: a real ``DEEPSEEK_API_KEY`` never goes to the server."""


def help_language(argv: Sequence[str]) -> Language:
    """The language of everything the command prints (help, flag errors, the run).

    Input: the command's arguments. Output: ``--language``'s value in ``argv`` when it names
    one, else the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``: ``zh*`` gives ``"zh-CN"``),
    else ``"en"``. It is also ``--language``'s default, so the run follows the same rule."""
    for index, token in enumerate(argv):
        name, equals, value = token.partition("=")
        if len(name) > 4 and "--language".startswith(name):  # argparse accepts --lang too
            if not equals:
                value = argv[index + 1] if index + 1 < len(argv) else ""
            if value in LANGUAGES:
                return "zh-CN" if value == "zh-CN" else "en"
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        locale = os.environ.get(variable, "")
        if locale:
            return "zh-CN" if locale.lower().startswith("zh") else "en"
    return "en"


HELP_WIDTH = 78
"""``--help`` lines end by column 78, so they fit an 80-column terminal in both languages."""
HELP_POSITION = 24
"""Where a flag's help starts (argparse's default ``max_help_position``)."""


def _formatter(language: Language) -> Any:
    class Formatter(argparse.RawTextHelpFormatter):
        """argparse's layout for texts already wrapped by display width (:func:`wrapped`),
        with the ``usage:`` prefix in ``language``. argparse itself counts characters, and
        a Chinese character takes two columns."""

        def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: Any = None) -> None:
            prefix = phrase("cli.usage", language) if prefix is None else prefix
            super().add_usage(usage, actions, groups, prefix)

    def make(*, prog: str) -> argparse.HelpFormatter:
        # The usage prefix "用法：" is 6 columns but 3 characters: leave argparse the room.
        room = display_width(phrase("cli.usage", language)) - len(phrase("cli.usage", language))
        return Formatter(prog, max_help_position=HELP_POSITION, width=HELP_WIDTH - room)

    return make


def wrapped(text: str, width: int = HELP_WIDTH - HELP_POSITION) -> str:
    """``text`` wrapped to ``width`` display columns, for the raw-text formatter."""
    return "\n".join(wrap(text, width))


_ARGUMENT = re.compile(r"^argument (\S+?): (.*)$", re.S)
_CHOICE = re.compile(r"^invalid choice: (.+?) \(choose from (.+)\)$", re.S)
_UNRECOGNIZED = re.compile(r"^unrecognized arguments: (.*)$", re.S)
_CJK = re.compile(r"[\u3400-\u9fff]")


def _flag_error(message: str, language: Language) -> str:
    """argparse's English error ``message`` said in ``language`` (unchanged in English)."""
    if language == "en":
        return message
    flag = None
    if match := _ARGUMENT.match(message):
        flag, message = match.groups()
    if match := _CHOICE.match(message):
        value, choices = match.groups()
        message = phrase("cli.invalid choice", language, value=value, choices=choices)
    elif message == "expected one argument":
        message = phrase("cli.expected one", language)
    elif match := _UNRECOGNIZED.match(message):
        message = phrase("cli.unrecognized", language, arguments=match.group(1))
    elif not _CJK.search(message):  # an argparse message this table does not know
        message = phrase("cli.other flag error", language, message=message)
    return phrase("cli.argument", language, flag=flag, message=message) if flag else message


class LocalizedParser(argparse.ArgumentParser):
    """An argument parser whose help, usage and errors speak ``language``.

    Every flag goes into one group titled in ``language``; ``-h`` is added with a localized
    help line; :meth:`error` translates argparse's messages (:func:`_flag_error`).
    """

    def __init__(self, language: Language, **kwargs: Any) -> None:
        super().__init__(add_help=False, formatter_class=_formatter(language), **kwargs)
        self.language: Language = language
        self._flags = self.add_argument_group(phrase("cli.options", language))
        self._flags.add_argument(
            "-h", "--help", action="help", help=wrapped(phrase("cli.help", language))
        )

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        """Add a flag to the parser's one localized group (see ``argparse``)."""
        return self._flags.add_argument(*args, **kwargs)

    def format_help(self) -> str:
        """argparse's help, its group heading ended by the language's colon (full width in zh)."""
        heading = phrase("cli.options", self.language)
        ended = phrase("cli.heading", self.language, heading=heading)
        return super().format_help().replace(f"\n{heading}:\n", f"\n{ended}\n")

    def error(self, message: str) -> Any:  # argparse: prints, then exits with status 2
        self.print_usage(sys.stderr)
        said = _flag_error(message, self.language)
        self.exit(2, phrase("cli.error", self.language, prog=self.prog, message=said) + "\n")


def _positive_int(minimum: int, language: Language) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                phrase("cli.whole number", language, text=repr(text))
            ) from None
        if value < minimum:
            raise argparse.ArgumentTypeError(
                phrase("cli.at least", language, minimum=minimum, value=value)
            )
        return value

    return parse


def build_parser(language: Language = "en") -> argparse.ArgumentParser:
    """Return the argument parser of ``python -m agentcore``, its help and errors in
    ``language``, which is also ``--language``'s default (its flags are in ``--help``)."""

    def say(key: str) -> str:
        return wrapped(phrase(key, language))

    description = wrapped(phrase("cli.description", language), HELP_WIDTH)
    parser = LocalizedParser(language, prog="python -m agentcore", description=description)
    parser.add_argument(
        "--city", choices=sorted(TEACHING_WEATHER), default="Tokyo", help=say("cli.city")
    )
    parser.add_argument("--task", choices=TASKS, default="convert", help=say("cli.task"))
    parser.add_argument("--language", choices=LANGUAGES, default=language, help=say("cli.language"))
    parser.add_argument(
        "--max-steps", type=_positive_int(1, language), default=6, help=say("cli.max steps")
    )
    parser.add_argument(
        "--max-tool-calls",
        type=_positive_int(0, language),
        default=6,
        help=say("cli.max tool calls"),
    )
    parser.add_argument("--show-transcript", action="store_true", help=say("cli.show transcript"))
    parser.add_argument(
        "--provider",
        choices=["scripted", "deepseek", "openai-compatible"],
        default="scripted",
        help=say("cli.provider"),
    )
    _add_server_flags(parser, language)
    parser.add_argument(
        "--api",
        choices=["responses", "chat"],
        default="responses",
        help=say("cli.api"),
    )
    parser.add_argument("--offline", action="store_true", help=say("cli.offline"))
    parser.add_argument(
        "--reasoning-effort",
        choices=["none", "low", "high", "max"],
        default=None,
        help=say("cli.reasoning effort"),
    )
    return parser


def _add_server_flags(parser: argparse.ArgumentParser, language: Language) -> None:
    """The flags of ``--provider openai-compatible`` and of ``doctor``."""
    # Imported here: the profiles and quirk names live with the adapter and the server.
    from agentcore.providers.chat_profiles import CHAT_PROFILES
    from agentcore.providers.local_chat_server import QUIRKS

    def say(key: str) -> str:
        return wrapped(phrase(key, language))

    parser.add_argument("--base-url", metavar="URL", help=say("cli.base url"))
    parser.add_argument("--model", metavar="NAME", help=say("cli.model"))
    parser.add_argument("--api-key-env", metavar="NAME", help=say("cli.api key env"))
    parser.add_argument(
        "--profile",
        choices=list(CHAT_PROFILES),
        default="generic",
        metavar="PROFILE",  # the choices are listed in the help line, not in the usage
        help=wrapped(phrase("cli.profile", language, choices=", ".join(CHAT_PROFILES))),
    )
    parser.add_argument(
        "--quirk",
        choices=list(QUIRKS),
        action="append",
        metavar="QUIRK",  # eleven names: listed in the help line, not in the usage
        help=wrapped(phrase("cli.quirk", language, choices=", ".join(QUIRKS))),
    )


def build_doctor_parser(language: Language = "en") -> argparse.ArgumentParser:
    """Return the argument parser of ``python -m agentcore doctor``, in ``language``."""
    parser = LocalizedParser(
        language,
        prog="python -m agentcore doctor",
        description=wrapped(phrase("doctor.description", language), HELP_WIDTH),
    )
    parser.add_argument(
        "--language",
        choices=LANGUAGES,
        default=language,
        help=wrapped(phrase("cli.language", language)),
    )
    _add_server_flags(parser, language)
    parser.add_argument(
        "--offline", action="store_true", help=wrapped(phrase("doctor.offline", language))
    )
    return parser


class _OutputFailed(Exception):
    """Writing the output failed (a full disk, a closed file): ``error`` is the OSError."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


def _say(text: str, *, error: bool = False) -> None:
    """Print one line to stdout (or stderr) now; a failed write raises :class:`_OutputFailed`
    (``BrokenPipeError``, a reader that stopped reading, goes on up as itself)."""
    stream = sys.stderr if error else sys.stdout
    try:
        stream.write(text + "\n")
        stream.flush()
    except BrokenPipeError:
        raise
    except OSError as failed:
        raise _OutputFailed(failed) from failed


def _replace_unencodable(stream: object) -> None:
    """Let a console that cannot show a character (``cp1252``) print ``?`` instead of failing."""
    if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
        stream.reconfigure(errors="replace")


def _stop_writing_quietly() -> None:
    """After a broken pipe: point the process's stdout at devnull, so that the interpreter's
    last flush at exit has nowhere to fail (the recipe of Python's ``signal`` docs)."""
    stdout = sys.__stdout__
    if stdout is None or sys.stdout is not stdout:  # captured (a test, a notebook): leave it
        return
    with contextlib.suppress(OSError, ValueError):  # no file descriptor: nothing to redirect
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stdout.fileno())


def _print_transcript(messages: Sequence[Message], title: str) -> None:
    _say(title)
    for message in messages:
        _say("  " + json.dumps(message, ensure_ascii=False))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI with ``argv`` (default ``sys.argv[1:]``); return the exit status.

    Bad flags and ``--help`` end with ``SystemExit`` (status 2 and 0), as argparse does.
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    _replace_unencodable(sys.stdout)
    language = help_language(argv)
    try:
        return _main(argv, language)
    except BrokenPipeError:  # `| head -3`: the reader has all it wanted
        _stop_writing_quietly()
        return 141
    except _OutputFailed as failed:  # a full disk is that, not a provider or HTTP problem
        with contextlib.suppress(OSError):  # stderr may be on the same full disk
            sys.stderr.write(phrase("cli.write failed", language, error=failed.error) + "\n")
        return 1


def _main(argv: Sequence[str], help_in: Language) -> int:
    if argv and argv[0] == "doctor":
        return _doctor(argv[1:], help_in)
    parser = build_parser(help_in)
    args = parser.parse_args(argv)
    compatible = args.provider == "openai-compatible"
    if args.offline and args.provider == "scripted":
        parser.error(phrase("cli.offline needs deepseek", help_in))
    server_flags = (args.base_url, args.model, args.api_key_env, args.quirk)
    if not compatible and (
        any(flag is not None for flag in server_flags) or args.profile != "generic"
    ):
        parser.error(phrase("cli.server flags need openai-compatible", help_in))
    if compatible:
        _check_server_flags(parser, args, help_in)
    if args.api != "responses" and args.provider != "deepseek":
        parser.error(phrase("cli.api needs deepseek", help_in))
    if args.reasoning_effort is not None and args.provider != "deepseek":
        parser.error(phrase("cli.reasoning effort needs deepseek", help_in))
    tools = build_tools()
    if args.task == "describe":
        tools.append(DESCRIBE_TEMPERATURE_TOOL)
    if args.provider == "scripted":
        model = ScriptedWeatherModel(city=args.city, task=args.task, language=args.language)
        return _run(model, tools, args)
    if compatible:
        return _run_compatible(tools, args)
    return _run_deepseek(tools, args)


def _check_server_flags(
    parser: argparse.ArgumentParser, args: argparse.Namespace, language: Language
) -> None:
    """Online a server needs --base-url and --model; offline the loopback server is the one
    (no --base-url), and --quirk is only for it."""
    if args.offline and args.base_url is not None:
        parser.error(phrase("cli.base url offline", language))
    if not args.offline and (args.base_url is None or args.model is None):
        parser.error(phrase("cli.server needs url and model", language))
    if args.quirk and not args.offline:
        parser.error(phrase("cli.quirk needs offline", language))


def _api_key(args: argparse.Namespace, language: Language) -> SecretStr | int | None:
    """The key from the variable ``--api-key-env`` names (never a command-line value, never
    ``OPENAI_*``), as a ``SecretStr`` so that no repr or traceback shows it; ``None`` without
    the flag; exit status 2, said in one line, if it is unset."""
    if args.api_key_env is None:
        return None
    if not os.environ.get(args.api_key_env, "").strip():
        _say(phrase("cli.api key env unset", language, name=args.api_key_env), error=True)
        return 2
    return SecretStr(os.environ[args.api_key_env].strip())


@contextlib.contextmanager
def _compatible_server(
    args: argparse.Namespace, key: SecretStr | None, language: Language, script: list[Any]
) -> Any:
    """Yield ``(base_url, model name)``: the given server online, else a loopback
    :class:`~agentcore.providers.local_chat_server.LocalChatServer` in the ``--quirk`` modes
    playing ``script`` (it needs the key only when ``--api-key-env`` named one)."""
    if not args.offline:
        yield args.base_url, args.model
        return
    from agentcore.providers.local_chat_server import LocalChatServer

    name = args.model or OFFLINE_LOCAL_MODEL
    with LocalChatServer(
        script,
        models=(name,),
        api_key=None if key is None else key.get_secret_value(),  # the loopback server compares it
        requires_key=key is not None,
        quirks=args.quirk or (),
    ) as server:
        quirks = ", ".join(args.quirk) if args.quirk else "-"
        _say(phrase("cli.offline compatible banner", language, quirks=quirks))
        yield server.base_url, name


def _run_compatible(tools: list[Tool], args: argparse.Namespace) -> int:
    """Run the task through OpenAICompatibleChatModel, against a server or offline."""
    from agentcore.course.offline_replies import weather_script
    from agentcore.providers.http import redact
    from agentcore.providers.openai_compatible import OpenAICompatibleChatModel

    language: Language = args.language
    key = _api_key(args, language)
    if isinstance(key, int):
        return key
    script = weather_script(args.city, args.task, language)
    with _compatible_server(args, key, language, script) as (base_url, name):
        model = _client(
            lambda: OpenAICompatibleChatModel(
                name,
                base_url=base_url,
                api_key=key,
                profile=args.profile,
                instructions=INSTRUCTIONS,
                max_retries=0 if args.offline else None,
            ),
            language,
        )
        if isinstance(model, int):
            return model
        if not args.offline:
            _say(
                phrase(
                    "cli.compatible banner",
                    language,
                    base_url=redact(base_url, limit=None),  # a password in the URL stays hidden
                    model=name,
                    profile=args.profile,
                )
            )
        return _run(model, tools, args)


def _doctor(argv: Sequence[str], help_in: Language) -> int:
    """``python -m agentcore doctor``: exit 0 if the server can do tool calls, 1 if not (or
    nothing answered), 2 for bad flags or an unset ``--api-key-env`` variable."""
    from agentcore.course.doctor import diagnose, report
    from agentcore.providers.http import redact
    from agentcore.providers.local_server import Reply, function_call
    from agentcore.providers.openai_compatible import OpenAICompatibleChatModel

    parser = build_doctor_parser(help_in)
    args = parser.parse_args(argv)
    _check_server_flags(parser, args, help_in)
    language: Language = args.language
    key = _api_key(args, language)
    if isinstance(key, int):
        return key
    # Offline, the loopback server answers both probes with the call a good server makes.
    call = function_call("get_teaching_weather", {"city": "Tokyo"}, "call-weather")
    script = [Reply(output=(call,))] * 2
    with _compatible_server(args, key, language, script) as (base_url, name):
        _say(
            phrase(
                "doctor.title",
                language,
                base_url=redact(base_url, limit=None) if not args.offline else "127.0.0.1",
                model=name,
                profile=args.profile,
            )
        )
        diagnosis = diagnose(
            lambda choice: OpenAICompatibleChatModel(
                name,
                base_url=base_url,
                api_key=key,
                profile=args.profile,
                tool_choice=choice,
                max_retries=0,  # a probe reports what one request gets
            ),
            language,
        )
    for line in report(diagnosis, args.profile, language):
        _say(line)
    return 0 if diagnosis.can_call_tools else 1


def _client(build: Callable[[], Model], language: Language) -> Model | int:
    """Build the adapter, or say why it cannot start: exit 2 for missing settings (one
    sentence) or a setting with a wrong value (a blank ``--model``, an API key with a space:
    the error, then its explanation), 1 for an HTTP setting (proxy, certificate, URL) the
    client refused."""
    try:
        return build()
    except ProviderSettingsError as error:  # typed by the adapter: variable, value, fix
        _say(phrase("cli.client could not start", language, error=explain(error, language)),
             error=True)  # fmt: skip
        return 1
    except ProviderConfigurationError as error:
        _say(phrase("cli.missing settings", language, explanation=explain(error, language)),
             error=True)  # fmt: skip
        return 2
    except ValueError as error:  # a setting's own check refused its value: not the HTTP stack
        from agentcore.providers.http import redact  # loaded with the adapter already

        problem = redact(f"{type(error).__name__}: {error}")
        _say(phrase("cli.bad setting", language, error=problem), error=True)
        why = phrase("typed error.explanation", language, text=explain(error, language))
        _say(why, error=True)
        return 2
    except Exception as error:  # a setting the HTTP stack refused in a way not typed yet
        from agentcore.providers.http import redact  # loaded with the adapter already

        problem = redact(f"{type(error).__name__}: {error}")  # a URL's password stays hidden
        _say(phrase("cli.client could not start", language, error=problem), error=True)
        return 1


def _run_deepseek(tools: list[Tool], args: argparse.Namespace) -> int:
    """Run the task through the DeepSeek adapter for ``--api``, offline or online."""
    # Imported here: only this path needs the openai SDK.
    from agentcore.course.offline_replies import weather_script
    from agentcore.providers import local_server
    from agentcore.providers.deepseek import DeepSeekResponsesModel
    from agentcore.providers.deepseek_chat import DeepSeekChatModel
    from agentcore.providers.local_chat_server import LocalChatServer

    language: Language = args.language
    adapter: type[DeepSeekResponsesModel | DeepSeekChatModel] = DeepSeekResponsesModel
    server_type: type[local_server.LoopbackServer] = local_server.LocalResponsesServer
    api = "Responses API"
    if args.api == "chat":
        adapter, server_type, api = DeepSeekChatModel, LocalChatServer, "Chat Completions API"
    if args.offline:
        script = weather_script(args.city, args.task, language)
        # The Chat server plays DeepSeek's thinking mode (the adapter's default), so each reply
        # carries the reasoning the adapter sends back; reasoning_effort="none" turns it off.
        with server_type(script, thinking=args.api == "chat") as server:
            _say(phrase("cli.offline banner", language, adapter=adapter.__name__))
            offline = _client(
                lambda: adapter(
                    OFFLINE_MODEL,
                    api_key=OFFLINE_API_KEY,
                    base_url=server.base_url,
                    max_retries=0,  # a local script gains nothing from a retry
                    reasoning_effort=args.reasoning_effort,
                    instructions=INSTRUCTIONS,
                ),
                language,
            )
            return offline if isinstance(offline, int) else _run(offline, tools, args)
    online = _client(
        lambda: adapter(reasoning_effort=args.reasoning_effort, instructions=INSTRUCTIONS),
        language,
    )
    if isinstance(online, int):
        return online
    assert isinstance(online, DeepSeekResponsesModel | DeepSeekChatModel)
    _say(
        phrase("cli.online banner", language, api=api, base_url=online.base_url, model=online.model)
    )
    return _run(online, tools, args)


def _run(model: Model, tools: list[Tool], args: argparse.Namespace) -> int:
    """Run the task with ``model``, print the trace, the counts (and the transcript)."""
    language: Language = args.language
    runtime = AgentRuntime(
        model, tools, max_steps=args.max_steps, max_tool_calls=args.max_tool_calls
    )
    request = weather_request(args.city, args.task, language)
    _say(phrase("user request.line", language, request=request))
    run = runtime.start(request)
    try:
        for event in run:  # the runtime's own loop, one event at a time
            if (line := event.trace_line()) is not None:
                _say(line)
    except KeyboardInterrupt as interrupted:  # Ctrl-C: the run reads as interrupted
        run.interrupt(interrupted)  # also when it came while a line was printed
        status = phrase("run status.interrupted", language)
        _say(phrase("run status.line", language, status=status), error=True)
        why = phrase("typed error.explanation", language, text=explain(interrupted, language))
        _say(why, error=True)
        _say(RunSnapshot.of_run(run, language=language).budgets())
        return 130  # 128 + SIGINT, as shells report it
    if run.error is not None:
        # The trace already showed the error line; stderr says why the exit status is 1.
        _say(phrase("cli.failed", language, error=type(run.error).__name__), error=True)
        why = phrase("typed error.explanation", language, text=explain(run.error, language))
        _say(why, error=True)
    _say(RunSnapshot.of_run(run, language=language).budgets())
    if args.show_transcript:
        _print_transcript(run.messages, phrase("transcript.title", language))
    return 1 if run.error is not None else 0
