"""``python -m agentcore --provider openai-compatible`` and ``python -m agentcore doctor``.

Offline runs go through the real adapter, SDK and HTTP to LocalChatServer in its quirk modes;
online runs are pointed at a loopback server the test starts (no network).
"""

from __future__ import annotations

import pytest
from chapter import CHAPTER_TRACE

from agentcore.course.cli import main
from agentcore.course.offline_replies import weather_script
from agentcore.providers.local_chat_server import QUIRKS, LocalChatServer

KEY = "sk-local-cli-test-93c1e0b7aa"


def test_offline_runs_the_chapter_trace_through_the_generic_adapter(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--provider", "openai-compatible", "--offline"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("offline: OpenAICompatibleChatModel sends real HTTP requests")
    assert CHAPTER_TRACE in out


def test_offline_with_an_absorbed_quirk_gives_the_same_trace(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--provider", "openai-compatible", "--offline", "--profile", "ollama"]
    assert main([*argv, "--quirk", "arguments-as-object", "--quirk", "missing-call-id"]) == 0
    out = capsys.readouterr().out
    assert "Quirks played: arguments-as-object, missing-call-id" in out
    assert CHAPTER_TRACE in out


def test_offline_with_a_refused_quirk_fails_with_the_flag_to_set_in_chinese(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--provider", "openai-compatible", "--offline", "--profile", "llama-server"]
    assert main([*argv, "--quirk", "call-as-text", "--language", "zh-CN"]) == 1
    captured = capsys.readouterr()
    assert "[1] ERROR   ServerQuirkError" in captured.out
    assert "启动 llama-server 时加上 --jinja。" in captured.err
    assert "工具执行：0" in captured.out


def test_online_the_key_comes_only_from_the_variable_named(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MY_LOCAL_KEY", KEY)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-must-not-be-sent-0000")
    with LocalChatServer(weather_script(), api_key=KEY, models=("qwen3:4b",)) as server:
        argv = ["--provider", "openai-compatible", "--base-url", server.base_url]
        assert main([*argv, "--model", "qwen3:4b", "--api-key-env", "MY_LOCAL_KEY"]) == 0
    out = capsys.readouterr().out
    assert f"Chat Completions server at {server.base_url}, model qwen3:4b, profile generic" in out
    assert CHAPTER_TRACE in out
    assert all(request.sent_bearer(KEY) for request in server.requests)
    assert KEY not in out


def test_online_without_the_flag_no_key_is_sent(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-must-not-be-sent-0000")
    with LocalChatServer(weather_script(), requires_key=False, models=("m",)) as server:
        assert main(["--provider", "openai-compatible", "--base-url", server.base_url,
                     "--model", "m"]) == 0  # fmt: skip
    assert all("authorization" not in request.headers for request in server.requests)
    capsys.readouterr()


def test_an_unset_key_variable_is_one_sentence_and_exit_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NO_SUCH_KEY_VAR", raising=False)
    argv = ["--provider", "openai-compatible", "--offline", "--api-key-env", "NO_SUCH_KEY_VAR"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "NO_SUCH_KEY_VAR named by --api-key-env is not set" in err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--provider", "openai-compatible"], "needs --base-url and --model"),
        (
            ["--provider", "openai-compatible", "--offline", "--base-url", "http://x"],
            "leave out --base-url",
        ),
        (
            [
                "--provider",
                "openai-compatible",
                "--base-url",
                "http://x",
                "--model",
                "m",
                "--quirk",
                "tools-dropped",
            ],
            "add --offline",
        ),
        (["--model", "m"], "go with --provider openai-compatible"),
        (["--provider", "openai-compatible", "--offline", "--quirk", "nope"], "invalid choice"),
    ],
)
def test_flag_mistakes_are_one_line_with_exit_2(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    assert said in capsys.readouterr().err


def test_the_new_flags_have_help_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help", "--language", "zh-CN"])
    out = capsys.readouterr().out
    flat = "".join(out.split())  # the help is wrapped by display width
    assert "存放密钥的环境变量的名字" in flat and "--api-key-env NAME" in out
    with pytest.raises(SystemExit):
        main(["doctor", "--help"])
    out = capsys.readouterr().out
    assert "usage: python -m agentcore doctor" in out and "--quirk" in out


def test_doctor_on_a_good_server_says_it_can_do_tool_calls(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["doctor", "--offline"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2:] == [
        "1. weather question with the weather tool: called get_teaching_weather with "
        "{'city': 'Tokyo'}",
        "2. the same, forcing the tool (tool_choice): called get_teaching_weather with "
        "{'city': 'Tokyo'}",
        "Verdict: this server can do tool calls through the adapter.",
        "Quirks seen: none",
        "To change: nothing: the server calls tools as the Chat Completions format says.",
    ]


@pytest.mark.parametrize(
    ("quirk", "profile", "status", "advice"),
    [
        ("arguments-as-object", "ollama", 0, "this profile accepts that, nothing to change"),
        ("arguments-as-object", "generic", 1, "use profile 'ollama' or 'llama-server'"),
        ("missing-call-id", "vllm", 0, "the adapter made them"),
        ("concatenated-arguments", "ollama", 1, "never splits them by guess"),
        ("call-as-text", "vllm", 1, "Start vLLM with --enable-auto-tool-choice"),
        ("finish-reason-mismatch", "generic", 0, "the reply's content decided"),
        ("tools-need-flag", "llama-server", 1, "Start llama-server with --jinja"),
        ("tools-dropped", "lm-studio", 1, "drops the tools before the model sees them"),
        ("strict-rejected", "generic", 0, "nothing: the server calls tools"),
        ("malformed-arguments", "generic", 1, "are not JSON"),
        ("tool-parse-error", "ollama", 1, "could not parse the model's tool call"),
        ("legacy-function-call", "generic", 0, "only tool_calls is read"),
        ("legacy-call-with-colon", "generic", 1, "Use profile 'llama-cpp-python'"),
        ("legacy-call-with-colon", "llama-cpp-python", 0, "llama-cpp-python's server writes"),
    ],
)
def test_doctor_names_each_quirk_and_what_to_change(
    quirk: str, profile: str, status: int, advice: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["doctor", "--offline", "--quirk", quirk, "--profile", profile]) == status
    out = capsys.readouterr().out
    verdict = "can do tool calls" if status == 0 else "gave no tool call the runtime can run"
    assert verdict in out
    # A profile that omits strict never meets its refusal; the server's own parse failure is
    # a malformed reply like any other.
    seen = {"strict-rejected": "none", "tool-parse-error": "malformed-arguments"}.get(quirk, quirk)
    assert f"Quirks seen: {seen}" in out
    assert advice in out


def test_every_quirk_mode_is_covered_by_the_doctor_test() -> None:
    covered = {
        row[0] for row in test_doctor_names_each_quirk_and_what_to_change.pytestmark[0].args[1]
    }
    assert covered == set(QUIRKS)


def test_doctor_speaks_chinese(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["doctor", "--offline", "--quirk", "tools-dropped", "--profile", "ollama"]
    assert main([*argv, "--language", "zh-CN"]) == 1
    out = capsys.readouterr().out
    assert "结论：这个服务器没有给出 Runtime 能执行的工具调用。" in out
    assert "它在模型看到之前就丢掉了 tools。请换用模板支持工具的模型" in out


def test_doctor_against_nothing_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    with LocalChatServer([]) as server:
        closed = server.base_url
    assert main(["doctor", "--base-url", closed, "--model", "m"]) == 1
    out = capsys.readouterr().out
    assert "Nothing answered at that address" in out
    assert out.count("refused (ProviderConnectionError)") == 1  # stopped after one probe


PASSWORD_URL = "http://learner:hunter2-cli@127.0.0.1:9/v1"
"""A base URL with a user name and password; nothing listens on port 9."""


@pytest.mark.parametrize("argv", [["--provider", "openai-compatible"], ["doctor"]])
def test_a_password_in_base_url_is_refused_and_shown_nowhere(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # Was: the URL was redacted everywhere and its user name and password silently not sent.
    assert main([*argv, "--base-url", PASSWORD_URL, "--model", "m"]) == 1
    captured = capsys.readouterr()
    said = captured.out + captured.err
    assert "holds a user name and password" in said and "Traceback" not in said
    assert "http://<redacted>@127.0.0.1:9/v1" in said
    assert "hunter2" not in said and "learner" not in said


def test_the_key_an_environment_variable_names_is_held_where_no_repr_shows_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--api-key-env``: the CLI keeps the key as a ``SecretStr``, so a traceback that shows
    local variables (``%xmode Verbose``) or a repr never prints it."""
    import argparse

    from agentcore.course.cli import _api_key

    monkeypatch.setenv("COURSE_TEST_KEY", "  sk-course-test-0123456789  ")
    key = _api_key(argparse.Namespace(api_key_env="COURSE_TEST_KEY"), "en")
    assert key is not None and not isinstance(key, int)
    assert "sk-course" not in repr(key) and "sk-course" not in str(key)
    assert key.get_secret_value() == "sk-course-test-0123456789"
