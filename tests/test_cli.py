"""``python -m agentcore``: the headless main job."""

from __future__ import annotations

import errno
import os
import subprocess
import sys

import pytest
from chapter import CHAPTER_TRACE

from agentcore.course.cli import main


def test_module_entry_point_prints_the_chapter_trace_and_counts() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "agentcore"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines(keepends=True)
    assert lines[0].startswith("request: ")
    assert "".join(lines[1:6]) == CHAPTER_TRACE
    assert lines[6] == "model turns: 3 of max_steps=6; tool executions: 2 of max_tool_calls=6\n"


def test_chinese_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--language", "zh-CN", "--city", "Paris"]) == 0
    out = capsys.readouterr().out
    assert "[3] FINAL   按教学数据，巴黎 12.0°C（53.6°F），小雨。" in out
    assert "模型轮次：3（max_steps=6）" in out


def test_a_failed_run_exits_1_with_type_message_and_counts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--max-steps", "1"]) == 1
    captured = capsys.readouterr()
    assert "[1] ERROR   MaxStepsExceeded: The run did not finish within max_steps=1" in captured.out
    assert "model turns: 1 of max_steps=1; tool executions: 1" in captured.out
    assert "Traceback" not in captured.out + captured.err
    assert "MaxStepsExceeded" in captured.err


def test_tool_budget_flag(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--max-tool-calls", "0"]) == 1
    assert "ToolBudgetExceeded" in capsys.readouterr().out
    assert main(["--task", "greet", "--max-tool-calls", "0"]) == 0


def test_show_transcript_prints_every_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--task", "weather", "--show-transcript"]) == 0
    out = capsys.readouterr().out
    assert out.count('{"role": ') == 4
    assert '"tool_call_id": "call-weather"' in out


@pytest.mark.parametrize(
    "argv",
    [
        ["--city", "Berlin"],
        ["--max-steps", "0"],
        ["--max-steps", "two"],
        ["--max-tool-calls", "-1"],
        ["--provider", "gpt"],
        ["--language", "fr"],
        ["--nope"],
    ],
)
def test_bad_flags_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for variable in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")  # flag errors follow LANG when --language is not given
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    assert "error:" in capsys.readouterr().err


# --- --provider deepseek ---------------------------------------------------------------------

KEY = "sk-cli-test-4c1e8a7d"


@pytest.fixture
def no_deepseek_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DEEPSEEK_API_KEY", "DEEPSEEK_MODEL", "DEEPSEEK_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def deepseek_settings(no_deepseek_settings: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A learner's shell with a key and a model set (the base URL is left to each test)."""
    monkeypatch.setenv("DEEPSEEK_API_KEY", KEY)
    monkeypatch.setenv("DEEPSEEK_MODEL", "deepseek-flash")


@pytest.mark.usefixtures("no_deepseek_settings")
def test_offline_deepseek_plays_the_chapter_trace_over_local_http(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--provider", "deepseek", "--offline"]) == 0
    lines = capsys.readouterr().out.splitlines(keepends=True)
    assert lines[0].startswith("offline: DeepSeekResponsesModel sends real HTTP requests")
    assert "scripted, not a model's" in lines[0]
    assert lines[1].startswith("request: ")
    assert "".join(lines[2:7]) == CHAPTER_TRACE
    assert lines[7] == "model turns: 3 of max_steps=6; tool executions: 2 of max_tool_calls=6\n"


def test_offline_never_sends_a_real_key(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import agentcore.providers.local_server

    started: list[agentcore.providers.local_server.LocalResponsesServer] = []

    class Recorded(agentcore.providers.local_server.LocalResponsesServer):
        def __enter__(self) -> agentcore.providers.local_server.LocalResponsesServer:
            started.append(self)
            return super().__enter__()

    monkeypatch.setattr(agentcore.providers.local_server, "LocalResponsesServer", Recorded)
    monkeypatch.setenv("DEEPSEEK_API_KEY", KEY)
    assert main(["--provider", "deepseek", "--offline", "--language", "zh-CN"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("离线：")
    (server,) = started
    assert len(server.requests) == 3
    assert not any(request.sent_bearer(KEY) for request in server.requests)
    assert all(request.sent_bearer("offline-placeholder") for request in server.requests)


@pytest.mark.usefixtures("deepseek_settings")
def test_deepseek_with_settings_talks_to_the_configured_server(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from agentcore.course.cli import INSTRUCTIONS
    from agentcore.course.offline_replies import weather_script
    from agentcore.providers.local_server import LocalResponsesServer

    with LocalResponsesServer(weather_script()) as server:
        monkeypatch.setenv("DEEPSEEK_BASE_URL", server.base_url)
        assert main(["--provider", "deepseek"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        f"provider: DeepSeek Responses API at {server.base_url}, model deepseek-flash\n"
    )
    assert CHAPTER_TRACE in out
    assert "offline" not in out
    assert all(request.sent_bearer(KEY) for request in server.requests)
    assert [request.body["instructions"] for request in server.requests] == [INSTRUCTIONS] * 3
    assert KEY not in out


@pytest.mark.usefixtures("deepseek_settings")
def test_a_provider_failure_exits_1_with_the_typed_error_and_no_key(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from agentcore.providers.local_server import LocalResponsesServer, http_error

    with LocalResponsesServer([http_error(401, f"bad key {KEY}")]) as server:
        monkeypatch.setenv("DEEPSEEK_BASE_URL", server.base_url)
        assert main(["--provider", "deepseek"]) == 1
    captured = capsys.readouterr()
    assert "[1] ERROR   ProviderStatusError: The provider refused the API key" in (captured.out)
    assert "model turns: 1 of max_steps=6; tool executions: 0" in captured.out
    assert KEY not in captured.out + captured.err
    assert "Traceback" not in captured.out + captured.err


def test_deepseek_without_a_key_exits_2_with_one_sentence_and_no_traceback() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEEPSEEK_")}
    done = subprocess.run(
        [sys.executable, "-m", "agentcore", "--provider", "deepseek"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("error: DEEPSEEK_API_KEY and DEEPSEEK_MODEL are not set: ")
    assert 'export DEEPSEEK_API_KEY="your-deepseek-api-key"' in done.stderr
    assert '$env:DEEPSEEK_API_KEY="your-deepseek-api-key"' in done.stderr
    assert 'set "DEEPSEEK_API_KEY=your-deepseek-api-key"' in done.stderr
    assert "--offline" in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1


def test_offline_goes_only_with_deepseek(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--offline"])
    assert caught.value.code == 2
    assert "--offline goes with --provider deepseek" in capsys.readouterr().err


def test_the_scripted_default_does_not_import_the_sdk() -> None:
    code = (
        "import sys; from agentcore.course.cli import main; main([]); "
        "print('openai' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "False"


@pytest.mark.usefixtures("no_deepseek_settings")
def test_offline_ignores_a_proxy_on_a_closed_port(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.setenv(name, "http://127.0.0.1:9")  # the discard port: nothing listens
    assert main(["--provider", "deepseek", "--offline", "--reasoning-effort", "none"]) == 0
    assert CHAPTER_TRACE in capsys.readouterr().out


@pytest.mark.usefixtures("deepseek_settings")
def test_a_proxy_setting_the_client_refuses_is_one_sentence_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HTTPS_PROXY", "garbage::::")
    assert main(["--provider", "deepseek"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: the HTTP client could not start (")
    assert "Traceback" not in err


@pytest.mark.usefixtures("deepseek_settings")
@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_a_proxy_the_adapter_types_is_named_with_its_fix_in_the_learners_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], language: str
) -> None:
    for name in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTPS_PROXY", "socks4://learner:hunter2-cli@proxy.example:1080")
    assert main(["--provider", "deepseek", "--language", language]) == 1
    err = capsys.readouterr().err
    assert "HTTPS_PROXY" in err and "hunter2" not in err and "Traceback" not in err
    assert ("socks4" in err) if language == "en" else ("删除这个变量" in err)


@pytest.mark.usefixtures("deepseek_settings")
@pytest.mark.parametrize("api", ["responses", "chat"])
def test_a_password_in_deepseek_base_url_is_refused_and_shown_nowhere(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], api: str
) -> None:
    # Was: redacted in the banner and the errors, then silently not sent.
    monkeypatch.setenv("DEEPSEEK_BASE_URL", "http://learner:hunter2-cli@127.0.0.1:9")
    assert main(["--provider", "deepseek", "--api", api]) == 1
    captured = capsys.readouterr()
    said = captured.out + captured.err
    assert "holds a user name and password" in said and "http://<redacted>@127.0.0.1:9" in said
    assert "hunter2" not in said and "Traceback" not in said


def test_reasoning_effort_goes_only_with_deepseek(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--reasoning-effort", "high"])
    assert caught.value.code == 2
    assert "--reasoning-effort goes with --provider deepseek" in capsys.readouterr().err


# --- the learner's console (issue 9 §6) -----------------------------------------------------


def test_a_console_that_cannot_show_chinese_prints_replacement_characters() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "cp1252"}
    done = subprocess.run(
        [sys.executable, "-m", "agentcore", "--language", "zh-CN"],
        capture_output=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode("cp1252")
    assert "Traceback" not in out + done.stderr.decode("cp1252", "replace")
    assert out.splitlines()[0] == "?" * len("请求：读取东京的教学天气，并把摄氏度换算成华氏度。")
    assert "[3] FINAL   " in out and "18.0°C" in out  # what cp1252 has, it shows


def test_a_reader_that_stops_reading_ends_the_run_quietly() -> None:
    done = subprocess.run(
        ["bash", "-c", f"{sys.executable} -m agentcore --show-transcript | head -3"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    assert done.stdout.splitlines()[0].startswith("request: ")
    assert len(done.stdout.splitlines()) == 3
    assert done.stderr == ""


def test_a_pipe_closed_before_the_first_line_is_a_quiet_exit_141() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "agentcore", "--show-transcript"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # the reader is gone before the CLI writes anything
    assert process.wait(timeout=60) == 141
    assert process.stderr.read() == b""
    process.stderr.close()


class FullDisk:
    """A stdout on a full disk: every write fails with ENOSPC."""

    encoding = "utf-8"
    errors = "strict"

    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def flush(self) -> None:
        pass


@pytest.mark.usefixtures("no_deepseek_settings")
@pytest.mark.parametrize("argv", [[], ["--provider", "deepseek", "--offline"]])
def test_a_failed_write_is_reported_as_that(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdout", FullDisk())
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: the output could not be written ([Errno 28] ")
    assert "HTTP client" not in err and "Traceback" not in err


def test_a_failed_write_is_reported_in_chinese(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdout", FullDisk())
    assert main(["--language", "zh-CN"]) == 1
    assert capsys.readouterr().err.startswith("错误：无法写出输出（[Errno 28] ")


@pytest.mark.parametrize(
    ("argv", "last_line"),
    [
        (
            ["--max-steps", "0"],
            "python -m agentcore：错误：参数 --max-steps：至少要是 1，收到的是 0",
        ),
        (
            ["--max-steps", "two"],
            "python -m agentcore：错误：参数 --max-steps：需要一个整数，收到的是 'two'",
        ),
        (["--nope"], "python -m agentcore：错误：无法识别的参数：--nope"),
        (
            ["--offline"],
            "python -m agentcore：错误：--offline 要和 --provider deepseek 或 openai-compatible "
            "一起用；脚本模型本来就是离线的",
        ),
    ],
)
def test_flag_errors_follow_language(
    argv: list[str], last_line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--language", "zh-CN", *argv])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("用法：python -m agentcore")
    assert err.splitlines()[-1] == last_line


def test_a_failed_run_explains_its_error_in_the_run_language(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--language", "zh-CN", "--max-steps", "1"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "运行失败，错误类型：MaxStepsExceeded",
        "说明：模型在 max_steps 之内没有给出最终答案：已经用了 1 个模型轮次。"
        "请检查任务、模型或预算。",
    ]


def test_ctrl_c_during_the_run_reads_as_interrupted(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from agentcore.course import cli

    def interrupted(self: object, messages: object, tools: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli.ScriptedWeatherModel, "generate", interrupted)
    assert main(["--language", "zh-CN"]) == 130
    captured = capsys.readouterr()
    assert captured.err.splitlines()[0] == "状态：已中断"
    assert captured.err.splitlines()[1].startswith("说明：运行被 KeyboardInterrupt 中断了")
    assert (
        captured.out.splitlines()[-1]
        == "模型轮次：1（max_steps=6）；工具执行：0（max_tool_calls=6）"
    )
    assert "Traceback" not in captured.out + captured.err


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_help_fits_80_display_columns_with_full_width_punctuation_in_chinese(
    language: str,
) -> None:
    from agentcore.course.cli import build_parser
    from agentcore.course.text import display_width

    help_text = build_parser(language).format_help()  # type: ignore[arg-type]
    widths = [display_width(line) for line in help_text.splitlines()]
    assert max(widths) <= 80, help_text
    if language == "zh-CN":
        assert "\n选项：\n" in help_text and "选项:" not in help_text
        assert "用法：" in help_text


@pytest.mark.parametrize(
    "flags",
    [
        [],
        ["--max-steps", "1"],
        ["--task", "describe", "--show-transcript"],
        ["--provider", "deepseek", "--offline"],
        ["--help"],
        ["--max-steps", "0"],
    ],
    ids=["run", "failed", "describe", "offline", "help", "bad-flag"],
)
def test_chinese_cli_prints_no_english_word_outside_the_kinds_kept_english(
    flags: list[str],
) -> None:
    from zh_lines import foreign_lines

    done = subprocess.run(
        [sys.executable, "-m", "agentcore", "--language", "zh-CN", *flags],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        env={**os.environ, "DEEPSEEK_API_KEY": "", "DEEPSEEK_MODEL": ""},
    )
    assert done.returncode in (0, 1, 2), done.stderr
    # The help's own words are the flags and their values (identifiers), kept as typed.
    allowed = {"python", "agentcore", "Paris", "Tokyo", "convert", "weather", "greet", "describe"}
    allowed |= {"en", "scripted", "deepseek", "responses", "chat", "none", "low", "high", "max"}
    allowed |= {"Completions", "LANG", "doctor", "ollama", "vllm", "generic", "quirk"}
    allowed |= {"URL", "NAME", "PROFILE", "QUIRK"}  # metavars, as the flags spell them
    found = foreign_lines(done.stdout + done.stderr, allowed)
    assert found == [], found


# A setting whose own check refuses its value (a blank --model, an API key with a character an
# HTTP header cannot carry) is named with its explanation, in the run's language; the proxy,
# certificate and DEEPSEEK_BASE_URL hint is for settings the HTTP client refused (issue 20).
BAD_SETTINGS = {
    "blank model": (
        ["--model", " "],
        {},
        "model must not be empty",
        {"en": "model is empty", "zh-CN": "model 是空的"},
    ),
    "non-ASCII API key": (
        ["--api-key-env", "COURSE_TEST_KEY"],
        {"COURSE_TEST_KEY": "sk-课程密钥"},
        "api_key holds a space, a non-ASCII or an invisible character",
        {"en": "The API key holds a space", "zh-CN": "API 密钥里混进了空格"},
    ),
}


@pytest.mark.parametrize("language", ["en", "zh-CN"])
@pytest.mark.parametrize("case", BAD_SETTINGS)
def test_a_setting_with_a_wrong_value_is_named_and_explained_not_blamed_on_the_http_client(
    case: str, language: str
) -> None:
    from zh_lines import foreign_lines

    flags, extra_env, error, explained = BAD_SETTINGS[case]
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES")}
    env |= {"LANG": "zh_CN.UTF-8", **extra_env}  # Chinese from the locale; English by the flag
    language_flag = ["--language", "en"] if language == "en" else []
    argv = [*language_flag, "--provider", "openai-compatible", "--offline", *flags]
    done = subprocess.run(
        [sys.executable, "-m", "agentcore", *argv],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    first, why = done.stderr.splitlines()
    said = {"en": "error: a setting has a wrong value: ", "zh-CN": "错误：某项设置的值无效："}
    assert first.startswith(said[language] + f"ValueError: {error}")
    assert why.startswith({"en": "why: ", "zh-CN": "说明："}[language])
    assert explained[language] in why
    for hint in ("DEEPSEEK_BASE_URL", "HTTP", "proxy", "代理", "意料之外", "unexpected"):
        assert hint not in done.stderr
    assert "Traceback" not in done.stderr and "课程密钥" not in done.stdout + done.stderr
    if language == "zh-CN":
        allowed = {"OpenAICompatibleChatModel", "model", "ASCII"}  # a class, a setting, an acronym
        assert foreign_lines(done.stdout + done.stderr, allowed) == []
