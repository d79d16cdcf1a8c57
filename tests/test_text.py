"""One text module, one glossary: a Chinese learner reads Chinese (issue 14).

* the message catalogs (``agentcore/course/locale``, looked up by ``agentcore.course.text``)
  hold every string in both languages, and explain every typed error in both (the error
  itself keeps its English message);
* ``python -m agentcore --language zh-CN`` prints no English line under any flag (the rules
  of ``tests/zh_lines.py``);
* the variant terms that ``docs/GLOSSARY.md`` retired appear nowhere: package, READMEs, docs,
  and (once the lesson owner applies the glossary) the zh-CN lessons.
"""

from __future__ import annotations

import ast
import json
import os
import re
import string
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import polib
import pytest
from zh_lines import CJK, english_lines, notebook_output_texts

from agentcore import (
    AgentRuntime,
    InvalidModelTurnError,
    MaxStepsExceeded,
    ModelError,
    ScriptExhaustedError,
    ToolArgumentsError,
    ToolBudgetExceeded,
    ToolExecutionError,
    UnknownToolError,
    build_tools,
)
from agentcore.course import text
from agentcore.course.text import check_language, explain, phrase

ROOT = Path(__file__).resolve().parents[1]
CATALOGS = sorted((ROOT / "agentcore" / "course" / "locale").glob("*/LC_MESSAGES/agentcore.po"))


@pytest.fixture(autouse=True)
def english_by_default() -> Iterator[None]:
    """Each test starts, and leaves the process, in English."""
    text.set_language("en")
    yield
    text.set_language("en")


# --- the text module ------------------------------------------------------------------------


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_key_has_both_languages_with_the_same_fields() -> None:
    for key in text.all_keys():
        english, chinese = phrase(key, "en"), phrase(key, "zh-CN")
        assert english and chinese, key
        # Provider errors (the server-quirk and local-model ones included) are explained in
        # English by their own message; an unknown argparse message is not repeated in Chinese
        # (it would mix the languages in one sentence).
        dropped = (
            "typed error.Provider",
            "typed error.ServerQuirkError",
            "typed error.LocalModelUnavailable",
            "cli.other flag",
            "final answer.tool failed",
        )
        if not key.startswith(dropped):
            assert _fields(english) == _fields(chinese), key
        assert english != chinese or not re.search("[A-Za-z]{3}", english), key


def test_no_chinese_string_of_the_package_reads_as_english() -> None:
    fields = {"city": "东京", "count": 2, "text": "东京", "message": "…"}
    for key in text.all_keys():
        chinese = phrase(key, "zh-CN")
        filled = chinese.format_map({name: fields.get(name, "x") for name in _fields(chinese)})
        assert english_lines(filled) == [], (key, filled)


def test_the_language_check_and_the_course_default() -> None:
    assert check_language("zh-CN") == "zh-CN"
    with pytest.raises(ValueError, match=r"language must be one of \['en', 'zh-CN'\], got 'fr'"):
        check_language("fr")
    with pytest.raises(KeyError, match="no text for 'nope'"):
        phrase("nope")
    assert phrase("run status.failed") == "failed"
    text.set_language("zh-CN")
    assert text.current_language() == "zh-CN"
    assert phrase("run status.failed") == "失败"
    with pytest.raises(ValueError):
        text.set_language("fr")  # type: ignore[arg-type]
    assert text.current_language() == "zh-CN"  # a refused value changes nothing


def test_the_language_is_defined_once() -> None:
    """One ``Language`` and one ``check_language`` in the package (issue 8)."""
    defined: list[str] = []
    for path in sorted((ROOT / "agentcore").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == "check_language":
                defined.append(f"{path.name}:check_language")
            if isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = [t.id for t in targets if isinstance(t, ast.Name)]
                defined += [f"{path.name}:{n}" for n in names if n in ("Language", "LANGUAGES")]
    assert sorted(defined) == ["text.py:LANGUAGES", "text.py:Language", "text.py:check_language"]


def test_set_language_makes_requests_answers_and_snapshots_chinese() -> None:
    from agentcore.course.experiments import max_steps_limit
    from agentcore.course.teaching_tools import DESCRIBE_TEMPERATURE_TOOL
    from agentcore.course.weather import ScriptedWeatherModel, weather_request

    text.set_language("zh-CN")
    request = weather_request(task="describe")
    tools = [*build_tools(), DESCRIBE_TEMPERATURE_TOOL]
    result = AgentRuntime(ScriptedWeatherModel(task="describe"), tools).run(request)
    assert request == "读取东京的教学天气，换算成华氏度，再说说是冷、温和还是热。"
    assert result.answer.endswith("，多云，气温温和。")
    snapshot = max_steps_limit(1).play()
    lines = snapshot.text().splitlines()
    assert lines[0] == "状态：失败"
    assert lines[-1].startswith("说明：模型在 max_steps 之内没有给出最终答案")
    assert all(english_lines(line) == [] for line in lines)


def test_the_describe_answer_says_mild_without_translationese() -> None:
    from agentcore.course.experiments import third_tool

    answer = third_tool(language="zh-CN").play().answer
    assert answer == "按教学数据，东京 18.0°C（64.4°F），多云，气温温和。"
    assert "体感" not in answer


# --- explain(error, language) ---------------------------------------------------------------


def _errors() -> list[BaseException]:
    exhausted = ScriptExhaustedError("ScriptedModel was asked for turn 2 but its script has only 1")
    return [
        InvalidModelTurnError("ModelTurn needs exactly one of final_text or tool_calls"),
        UnknownToolError("delete_everything", ["get_teaching_weather"]),
        ToolArgumentsError("celsius_to_fahrenheit", [{"loc": ("temperature_c",), "msg": "bad"}]),
        ToolExecutionError("celsius_to_fahrenheit", "the handler raised ConnectionError"),
        MaxStepsExceeded("The run did not finish within max_steps=1 model turns"),
        ToolBudgetExceeded("The turn asks for more tool calls (2) than max_tool_calls leaves (1)"),
        ModelError("The model raised ValueError while producing turn 1: boom"),
        exhausted,
        KeyboardInterrupt(),
        ValueError("a bug"),
    ]


@pytest.mark.parametrize("error", _errors(), ids=lambda error: type(error).__name__)
def test_every_error_is_explained_in_both_languages_and_keeps_its_english_message(
    error: BaseException,
) -> None:
    message = str(error)
    english, chinese = explain(error, "en"), explain(error, "zh-CN")
    assert english and chinese and english != chinese
    assert CJK.search(chinese) and not CJK.search(english)
    assert english_lines(chinese) == []
    assert str(error) == message  # the error itself is unchanged: English, searchable


def test_an_explanation_names_the_tool_and_what_exists() -> None:
    error = UnknownToolError("delete_everything", ["get_teaching_weather", "celsius_to_fahrenheit"])
    assert explain(error, "zh-CN") == (
        "模型请求了工具 delete_everything，但注册表里没有它"
        "（已注册：get_teaching_weather, celsius_to_fahrenheit）；没有任何 handler 执行。"
        "请检查工具列表或模型的请求。"
    )
    assert explain(error, "en") == (  # the same advice in both languages
        "The model asked for the tool delete_everything, which the registry does not hold"
        " (it holds: get_teaching_weather, celsius_to_fahrenheit); no handler ran."
        " Check the tool list or the model's request."
    )


def test_an_unexpected_error_is_explained_alike_in_both_languages() -> None:
    english, chinese = explain(KeyError("x"), "en"), explain(KeyError("x"), "zh-CN")
    assert "typed errors" in english and "bug" in english and "message above" in english
    assert "有明确类型的错误" in chinese and "bug" in chinese and "英文信息" in chinese


def test_provider_errors_are_explained_by_class_name_wherever_they_are_defined() -> None:
    class ProviderStatusError(Exception):  # stands in for the provider family, moved or not
        def __init__(self, status_code: int) -> None:
            super().__init__(f"HTTP {status_code}")
            self.status_code = status_code

    class ProviderServerError(ProviderStatusError):
        pass

    assert explain(ProviderStatusError(402), "zh-CN") == (
        "Provider 返回了 HTTP 错误状态 402：账户余额不足；请充值后再试。"
    )
    assert "HTTP 错误状态 503" in explain(ProviderServerError(503), "zh-CN")
    assert explain(ProviderStatusError(402), "en") == "HTTP 402"


# --- the command line in Chinese ------------------------------------------------------------

CLI_RUNS = {
    "no flag": [],
    "--max-steps 1": ["--max-steps", "1"],
    "--task describe --show-transcript": ["--task", "describe", "--show-transcript"],
    "--task greet": ["--task", "greet"],
    "--city Paris --task weather": ["--city", "Paris", "--task", "weather"],
    "--max-tool-calls 0": ["--max-tool-calls", "0"],
    "--provider deepseek --offline": ["--provider", "deepseek", "--offline"],
    "--help": ["--help"],
    "--max-steps 0 (a bad flag)": ["--max-steps", "0"],
    "--city Berlin (a bad choice)": ["--city", "Berlin"],
    "--nope (an unknown flag)": ["--nope"],
    "--offline alone": ["--offline"],
    "--provider deepseek without settings": ["--provider", "deepseek"],
}


def _cli(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("DEEPSEEK_")}
    environment.update(PYTHONIOENCODING="utf-8", DEEPSEEK_BASE_URL="http://127.0.0.1:9", **env)
    return subprocess.run(
        [sys.executable, "-m", "agentcore", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=environment,
        stdin=subprocess.DEVNULL,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("args", list(CLI_RUNS.values()), ids=list(CLI_RUNS))
def test_the_chinese_command_line_prints_no_english_line(args: list[str]) -> None:
    done = _cli(["--language", "zh-CN", *args])
    found = english_lines(done.stdout) + english_lines(done.stderr)
    print(f"English lines: {len(found)}")
    assert done.returncode in (0, 1, 2), done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert found == []
    if done.returncode == 2 and "--help" not in args:  # a flag error: said in Chinese
        last = [line for line in done.stderr.splitlines() if line.strip()][-1]
        assert CJK.search(last), last


def test_help_follows_lang_when_no_language_is_given() -> None:
    chinese = _cli(["--help"], LANG="zh_CN.UTF-8", LC_ALL="", LC_MESSAGES="")
    english = _cli(["--help"], LANG="C.UTF-8", LC_ALL="", LC_MESSAGES="")
    assert chinese.stdout.startswith("用法：python -m agentcore")
    assert "显示这条帮助信息并退出" in chinese.stdout
    assert english.stdout.startswith("usage: python -m agentcore")
    assert _cli(["--language", "en", "--help"], LANG="zh_CN.UTF-8").stdout.startswith("usage:")
    flag_error = _cli(["--max-steps", "0"], LANG="zh_CN.UTF-8", LC_ALL="", LC_MESSAGES="")
    assert flag_error.stderr.splitlines()[-1] == (
        "python -m agentcore：错误：参数 --max-steps：至少要是 1，收到的是 0"
    )


def test_the_missing_settings_error_is_one_chinese_sentence() -> None:
    done = _cli(["--language", "zh-CN", "--provider", "deepseek"])
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(
        "错误：没有设置 DEEPSEEK_API_KEY 和 DEEPSEEK_MODEL：在 bash 中用 `"
    )
    assert done.stderr.endswith("也可以加上 --offline，改用本地脚本服务器运行。\n")
    assert done.stderr.count("\n") == 1
    assert " and " not in done.stderr and " are not set" not in done.stderr


# --- the retired variant terms --------------------------------------------------------------


def retired_variants() -> list[str]:
    """The first column of the "Retired variants" table of docs/GLOSSARY.md."""
    glossary = (ROOT / "docs" / "GLOSSARY.md").read_text(encoding="utf-8")
    section = glossary.split("## Retired variants", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")][1:]
    return [row.split("|")[1].strip() for row in rows]


def _package_strings() -> str:
    """Every string literal of the package's code and every message of its catalogs."""
    strings = [entry.msgstr for path in CATALOGS for entry in polib.pofile(str(path))]
    for path in sorted((ROOT / "agentcore").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        strings += [
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
        ]
    return "\n".join(strings)


def _count(texts: dict[str, str]) -> dict[str, int]:
    hits = {}
    for name, content in texts.items():
        for term in retired_variants():
            if term in content:
                hits[f"{name}: {term}"] = content.count(term)
    return hits


def test_the_glossary_lists_the_variants_the_issue_names() -> None:
    expected = {"答对了", "提供方", "验证", "原文", "脚本化模型", "最大步数", "最终回答", "体感"}
    expected |= {"带类型的错误", "有类型的错误", "控件", "单步器", "侦察版", "浮出来"}  # issue 20
    expected |= {"API Key"}  # issue 20: API 密钥 (a bare key/Key: test_chinese_prose_says_...)
    assert expected <= set(retired_variants())


def test_no_retired_variant_in_the_package_readmes_and_docs() -> None:
    texts = {"agentcore/ strings": _package_strings()}
    for path in [ROOT / "README.md", ROOT / "README.zh-CN.md", *(ROOT / "docs").rglob("*.md")]:
        if path.name != "GLOSSARY.md":
            texts[str(path.relative_to(ROOT))] = path.read_text(encoding="utf-8")
    assert _count(texts) == {}


ZH_LESSONS = sorted(
    path
    for path in (ROOT / "notebooks" / "zh-CN").rglob("[0-9][0-9]-*.ipynb")
    if ".ipynb_checkpoints" not in path.parts
)
"""Every zh-CN lesson: learner and solution notebooks, appendices too."""


def _lesson_text(path: Path) -> str:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    parts = []
    for cell in notebook.get("cells", []):
        source = cell.get("source", "")
        parts.append("".join(source) if isinstance(source, list) else source)
        parts += notebook_output_texts(cell)
    return "\n".join(parts)


@pytest.mark.parametrize(
    "path", ZH_LESSONS, ids=lambda path: path.relative_to(ROOT / "notebooks").as_posix()
)
def test_no_retired_variant_in_the_zh_cn_lessons(path: Path) -> None:
    hits = _count({str(path.relative_to(ROOT)): _lesson_text(path)})
    print(f"retired variants in {path.relative_to(ROOT)}: {sum(hits.values())}: {hits}")
    assert hits == {}


# --- "API key" is 「API 密钥」 in Chinese prose, never a bare key or Key (docs/GLOSSARY.md) ------

BARE_KEY = re.compile(r"(?<![\w\-./`$@{])(?<!idempotency )[Kk]eys?(?![\w\-./`}])")
"""The English word key(s) on its own: not part of an identifier such as ``api_key``,
``DEEPSEEK_API_KEY``, ``--api-key-env`` or a ``{keys}`` placeholder, nor the English term
glossed after 幂等键 (idempotency key), which names no API key."""


def _prose(markdown: str) -> str:
    """``markdown`` without its code: fenced blocks, inline code, ``<code>`` spans, link
    targets, URLs and ``{placeholders}``; a term table (``## 术语对照``) keeps only its
    Chinese column, as its other column is the English term itself."""
    text = re.sub(r"^[ \t]*(```|~~~).*?^[ \t]*\1", " ", markdown, flags=re.S | re.M)
    text = re.sub(r"``.*?``|`[^`\n]*`|<code>.*?</code>", " ", text, flags=re.S)
    text = re.sub(r"\]\([^)\s]*\)|https?://\S+|\{\w*\}", " ", text)
    if "## 术语对照" in markdown:
        text = "\n".join(
            line.split("|")[1] if line.startswith("|") else line for line in text.splitlines()
        )
    return text


def bare_keys(markdown: str) -> list[str]:
    """The lines of Chinese ``markdown`` whose prose holds the bare English word key(s)."""
    return [line.strip() for line in _prose(markdown).splitlines() if BARE_KEY.search(line)]


def test_the_bare_key_check_skips_identifiers_code_and_the_term_table() -> None:
    assert bare_keys("请把它设为服务器的 key，如果服务器不需要 key，就去掉。") != []
    assert bare_keys("Provider 拒绝了这个 Key。") != []
    assert bare_keys("也就是**幂等键**（idempotency key）。") == []
    assert bare_keys("请设置 DEEPSEEK_API_KEY 或 `api_key`，或加上 --api-key-env。") == []
    assert bare_keys("请删掉 {keys}。\n```python\nkey = 1\n```\n见 `request.body.keys()`") == []
    assert bare_keys("## 术语对照\n\n| 中文 | 英文 |\n| --- | --- |\n| API 密钥 | API key |") == []


def _zh_markdown_texts() -> dict[str, str]:
    """The Chinese prose a learner reads: the zh catalog, README.zh-CN.md, the zh-CN docs and
    every Markdown cell of the zh-CN lessons (learner and solution notebooks)."""
    texts = {}
    catalog = ROOT / "agentcore" / "course" / "locale" / "zh_CN" / "LC_MESSAGES" / "agentcore.po"
    for entry in polib.pofile(str(catalog)):
        texts[f"zh_CN catalog: {entry.msgid}"] = entry.msgstr
    for path in [ROOT / "README.zh-CN.md", *sorted((ROOT / "docs").rglob("*zh-CN*.md"))]:
        texts[str(path.relative_to(ROOT))] = path.read_text(encoding="utf-8")
    for path in ZH_LESSONS:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for index, cell in enumerate(cells):
            if cell["cell_type"] == "markdown":
                texts[f"{path.relative_to(ROOT)} cell {index}"] = "".join(cell["source"])
    return texts


def test_chinese_prose_says_api_mi_yao_not_a_bare_key() -> None:
    texts = _zh_markdown_texts()
    assert any("README.zh-CN.md" in name for name in texts) and len(texts) > 1000
    found = {name: hits for name, text in texts.items() if (hits := bare_keys(text))}
    assert found == {}


def test_every_chinese_string_of_the_package_is_in_the_catalog() -> None:
    outside = {}
    for path in sorted((ROOT / "agentcore").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found = [
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            if CJK.search(node.value)
        ]
        if found:
            outside[path.name] = found
    assert outside == {}


def test_columns_and_wrapping_count_display_width() -> None:
    from agentcore.course.text import display_width, pad, wrap

    assert display_width("模型轮次：1") == 11
    assert pad("缺了工具", 10) + "|" == "缺了工具  |"
    assert pad(7, 3, right=True) == "  7"
    lines = wrap("由谁扮演模型：离线的脚本模型（默认），或通过 --api 指定的 API 调用 DeepSeek", 20)
    assert all(display_width(line) <= 20 for line in lines)
    assert "--api" in " ".join(lines).split()  # an identifier is never cut
    assert not any(line.startswith(("，", "）", "。")) for line in lines)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("model must not be empty; pass the model your server serves", "model 是空的"),
        ("max_retries must be at most 10, got 11", "超过了上限 10"),
        ("timeout must be a positive number of seconds, got -1", "正的秒数"),
        ("max_steps must be at least 1, got 0", "低于下限 1"),
        ("on_tool_error must be 'stop' or 'observe', got 'x'", "不在可选范围"),
        ("user_input is blank; ask the agent something", "传入的某个值不对"),
    ],
)
def test_every_settings_value_error_is_explained_in_both_languages(
    message: str, expected: str
) -> None:
    chinese = explain(ValueError(message), "zh-CN")
    assert expected in chinese and "意料之外" not in chinese
    assert "unexpected" not in explain(ValueError(message), "en").lower()


def test_the_new_provider_faults_are_explained_in_chinese_with_their_cause() -> None:
    from agentcore.providers.errors import ProviderSettingsError, ProviderStatusError

    settings = ProviderSettingsError(
        "SSL_CERT_FILE", "/nope.pem", "it names no file", hint="Point it at a PEM bundle."
    )
    assert "SSL_CERT_FILE" in explain(settings, "zh-CN") and CJK.search(explain(settings, "zh-CN"))
    assert explain(settings, "en") == str(settings)
    dropped = ProviderStatusError(
        400, "The reasoning_content in the thinking mode must be passed back to the API."
    )
    said = explain(dropped, "zh-CN")
    assert "推理内容" in said and "reasoning_effort='none'" in said and "请求格式有误" not in said
    assert english_lines(said) == [] and english_lines(explain(settings, "zh-CN")) == []


def _explained_kinds() -> list[str]:
    from agentcore.providers.errors import RESPONSE_KINDS

    return [kind for kind in RESPONSE_KINDS if kind not in ("other", "server quirk")]


@pytest.mark.parametrize("kind", _explained_kinds())
def test_each_cause_of_a_refused_reply_has_its_own_chinese_explanation(kind: str) -> None:
    # Was: every ProviderResponseError got one generic Chinese sentence, whatever the cause.
    from agentcore.providers.errors import ProviderResponseError

    error = ProviderResponseError("The reply was refused.", kind=kind, hint="Run again.")
    generic = ProviderResponseError("The reply was refused.", hint="Run again.")
    chinese = explain(error, "zh-CN")
    assert chinese != explain(generic, "zh-CN")
    assert CJK.search(chinese) and english_lines(chinese) == []
    assert "请" in chinese  # the fix, in Chinese
    assert explain(error, "en") == str(error)  # English: the message, its hint the fix


def test_a_refused_reply_of_an_unknown_kind_keeps_the_shared_explanation() -> None:
    from agentcore.providers.errors import ProviderResponseError

    error = ProviderResponseError("The reply was refused.", kind="something new")
    assert explain(error, "zh-CN") == phrase(
        "typed error.ProviderResponseError", "zh-CN", message=str(error)
    )


@pytest.mark.parametrize(
    ("variable", "fix"),
    [
        ("HTTPS_PROXY", "socks5://"),
        ("all_proxy", "NO_PROXY"),
        ("SSL_CERT_FILE", "PEM"),
        ("SSL_CERT_DIR", "文件夹"),
        ("base_url", "根地址"),
        ("SOME_SETTING", "删除它"),
    ],
)
def test_a_settings_error_states_its_fix_in_chinese(variable: str, fix: str) -> None:
    # Was: "请按英文错误信息里的提示修改它": the fix was left to the English message.
    from agentcore.providers.errors import ProviderSettingsError

    error = ProviderSettingsError(variable, "x://y", "it cannot be used", hint="Fix it.")
    chinese = explain(error, "zh-CN")
    assert variable in chinese and fix in chinese and "英文" not in chinese
    assert english_lines(chinese) == []
    assert explain(error, "en") == str(error)
