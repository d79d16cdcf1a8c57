"""The stored lessons: both languages in step, really executed, stamped, released, and clean.

nbval (run by the README's test command over ``notebooks/``) replays every lesson, learner and
solution versions, and compares outputs. These tests check what nbval cannot: that there is
something to compare, that the two languages hold the same code (the text of strings aside)
and outputs, that translations were reviewed against the current English notebook, that every
learner notebook is what
``python -m scripts.lessons release`` makes of its solution notebook (no answer in it), and
that nothing private leaked into a stored output, and that a Chinese learner reads Chinese in
the stored outputs of the zh-CN lessons (issue 14's measured target).
"""

from __future__ import annotations

import ast
import io
import json
import re
import string
import tokenize
from pathlib import Path
from typing import Any, NamedTuple

import nbformat
import pytest
from zh_lines import (
    CJK,
    code_names,
    english_lines,
    foreign_lines,
    foreign_words,
    notebook_output_texts,
)

from agentcore.course.judges.grade import code_stub, holds_code_stub
from scripts.lessons import (
    LANGUAGE_SPECIFIC_TAG,
    LANGUAGES,
    ROOT,
    WIDGET_VIEW,
    english_twin,
    language_of,
    learner_twin,
    lessons,
    release_notebook,
    solutions,
    source_hash,
)

LESSON_FILES = [
    "00-fixed-script.ipynb",
    "01-the-loop.ipynb",
    "02-tools-and-registry.ipynb",
    "03-errors.ipynb",
    "04-scripted-model-and-tests.ipynb",
    "05-deepseek-adapter.ipynb",
    "06-experiments.ipynb",
    "07-the-tool-the-model-sees.ipynb",
]
LEARNER = [path for language in LANGUAGES for path in lessons(language)]
SOLUTIONS = [path for language in LANGUAGES for path in solutions(language)]
ALL_LESSONS = LEARNER + SOLUTIONS
ZH_LESSONS = lessons("zh-CN") + solutions("zh-CN")


def read(path: Path) -> Any:
    return nbformat.read(path, as_version=4)


def lesson_id(path: Path) -> str:
    return path.relative_to(ROOT / "notebooks").as_posix()


def code_cells(notebook: Any) -> list[Any]:
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def comparable_outputs(cell: Any) -> list[Any]:
    """Outputs as nbval compares them: streams merged, no execution counts or widget views."""
    outputs: list[dict[str, Any]] = []
    for output in cell.get("outputs", []):
        output = {k: v for k, v in output.items() if k not in ("execution_count", "metadata")}
        if "data" in output:
            output["data"] = {k: v for k, v in output["data"].items() if k != WIDGET_VIEW}
        previous = outputs[-1] if outputs else None
        if (
            output.get("output_type") == "stream"
            and previous is not None
            and previous.get("output_type") == "stream"
            and previous.get("name") == output.get("name")
        ):
            previous["text"] = previous["text"] + output["text"]  # one print, split in transit
            continue
        outputs.append(output)
    return outputs


def tags(cell: Any) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


# appendix lessons: ``NN-appendix-<topic>.ipynb`` sits beside lesson NN and follows every rule
# of a lesson; the seven numbered lessons stay exactly these, and both languages hold the same
# appendices.
def is_appendix(path: Path) -> bool:
    return "-appendix-" in path.name


class _Text(NamedTuple):
    """One string constant of a cell, as ``_StringsSetAside`` found it (see ``same_text``)."""

    kind: str  # "open", "code", "fstring" or "template"
    text: str  # the text; an f-string's literal parts with ``{}`` where it shows a value
    exact: tuple[Any, ...] = ()  # what must match even when the text is prose


LANGUAGE_CODES = {"en", "zh-CN"}
"""The lesson's language code (``set_language("en")``, ``check(..., "zh-CN")``) is the one
identifier-like string that differs between the languages by design."""


def reads_as_prose(text: str) -> bool:
    """True when a string holds a space or a non-ASCII character: text a learner reads.

    ``"temperature_c"``, ``"answer"``, ``"notes.txt"`` or ``"/work"`` hold neither, so they are
    code (a key, an attribute, a path, an exercise name) and must be the same in both languages.
    """
    return any(char.isspace() or not char.isascii() for char in text)


def same_text(english: _Text, chinese: _Text) -> bool:
    """Whether two string constants at the same place in a code cell may stand for each other.

    They may when they are equal; when they are the lesson's language code; and when either
    reads as prose (``reads_as_prose``) and the place is not code. Code places compare exactly:
    the attribute name of ``getattr``/``hasattr``/``setattr``/``delattr`` and the arguments of
    ``open``, ``Path`` and ``os.*``/``shutil.*``. A prose ``str.format`` template may differ in
    its words, not in its fields (names, conversions, specs); a prose f-string in its words, not
    in what it shows (compared in the tree, specs exactly). So ``print("Tokyo")`` may be
    ``print("东京")``, and ``record["temperature_c"]`` may not be ``record["temperature_f"]``.
    """
    if english == chinese:
        return True
    if english.kind != chinese.kind or english.kind == "code":
        return False
    if english.kind == "open" and {english.text, chinese.text} == LANGUAGE_CODES:
        return True
    if not (reads_as_prose(english.text) or reads_as_prose(chinese.text)):
        return False
    return english.kind != "template" or english.exact == chinese.exact


class _StringsSetAside(ast.NodeTransformer):
    """Rewrites a tree so that what is not a string's text is left to compare as a tree.

    Every ``str`` constant becomes the same placeholder and is kept, in order, in ``texts`` for
    ``same_text``; an f-string becomes that placeholder holding the sorted dumps of what it
    shows (expression, conversion and format spec), so the words around them and their order
    may differ when the words are prose, what they show may not. Docstrings are dropped.
    Numbers, names, bytes and the structure stay as they are.
    """

    PLACEHOLDER = "<str>"

    def __init__(self) -> None:
        self.texts: list[_Text] = []
        self._kinds: dict[int, str] = {}

    def visit_Call(self, node: ast.Call) -> ast.AST:
        func, args = node.func, node.args
        called = ast.unparse(func)
        if called in ("getattr", "hasattr", "setattr", "delattr") and len(args) > 1:
            self._kinds[id(args[1])] = "code"
        elif called in ("open", "Path") or called.startswith(("os.", "shutil.")):
            for argument in [*args, *(keyword.value for keyword in node.keywords)]:
                self._kinds[id(argument)] = "code"
        elif isinstance(func, ast.Attribute) and func.attr == "format":
            self._kinds[id(func.value)] = "template"
        return self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, str):
            kind = self._kinds.get(id(node), "open")
            self.texts.append(_Text(kind, node.value, _template_fields(node.value, kind)))
            return ast.Constant(value=self.PLACEHOLDER)
        return ast.Constant(value=node.value)  # drops ``kind`` (the old ``u`` prefix)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        if not any(isinstance(value, ast.FormattedValue) for value in node.values):
            plain = ast.Constant(value=_literal(node))  # f"plain" is a plain string
            self._kinds[id(plain)] = self._kinds.get(id(node), "open")
            return self.visit_Constant(plain)
        words: list[str] = []
        in_order: list[str] = []
        shown: list[tuple[str, list[_Text]]] = []
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                inner = _StringsSetAside()
                spec = ast.unparse(value.format_spec) if value.format_spec else None
                dump = repr((ast.dump(inner.visit(value.value)), value.conversion, spec))
                shown.append((dump, inner.texts))
                words.append("{}")
                in_order.append(dump)
            elif isinstance(value, ast.Constant):
                words.append(str(value.value))
                in_order.append(repr(value.value))
        shown.sort(key=lambda item: item[0])
        self.texts.append(_Text("fstring", "".join(words), tuple(in_order)))
        for _, texts in shown:
            self.texts += texts
        return ast.Tuple(
            elts=[ast.Constant(value=self.PLACEHOLDER), *[ast.Constant(d) for d, _ in shown]],
            ctx=ast.Load(),
        )

    def generic_visit(self, node: ast.AST) -> ast.AST:
        body = getattr(node, "body", None)
        if isinstance(node, _DOCSTRING_OWNERS) and isinstance(body, list) and _is_docstring(body):
            node.body = body[1:] or [ast.Pass()]  # type: ignore[attr-defined]
        return super().generic_visit(node)


_DOCSTRING_OWNERS = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def _is_docstring(body: list[ast.stmt]) -> bool:
    first = body[0] if body else None
    return (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    )


def _literal(node: ast.JoinedStr) -> str:
    return "".join(str(v.value) for v in node.values if isinstance(v, ast.Constant))


def _template_fields(text: str, kind: str) -> tuple[Any, ...]:
    """A ``str.format`` template's fields, sorted, ``{}`` numbered: what prose may not change."""
    if kind != "template":
        return ()
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError:
        return (text,)  # not a template after all: the text itself must match
    fields, auto = [], 0
    for _, name, spec, conversion in parsed:
        if name is None:
            continue
        if name == "" or name[0] in ".[":
            name, auto = f"{auto}{name}", auto + 1
        fields.append((name, conversion, spec))
    return tuple(sorted(fields, key=repr))


def _tokens_without_comments(source: str) -> list[tuple[int, str]]:
    """The code tokens of a cell that ``ast`` cannot read (an IPython magic): no comments."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (SyntaxError, tokenize.TokenError):
        return [(-1, source)]
    return [(t.type, t.string) for t in tokens if t.type in _CODE_TOKENS]


_CODE_TOKENS = {tokenize.NAME, tokenize.OP, tokenize.NUMBER, tokenize.STRING, tokenize.ERRORTOKEN}


def code_apart_from_text(source: str) -> tuple[str | list[tuple[int, str]], list[_Text]]:
    """A code cell as two languages' versions of it must share it: its tree, and its strings.

    The AST of ``source`` with comments, docstrings and the text of every string set aside
    (``_StringsSetAside``), and those strings in order, for ``same_text`` to pair up: an English
    cell may print ``f"{n} calls"`` where the Chinese cell prints ``f"调用了 {n} 次"``, and
    nothing else may differ. A cell that is not plain Python (an IPython magic) is compared
    token by token, comments aside, strings exactly.
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return _tokens_without_comments(source), []
    aside = _StringsSetAside()
    return ast.dump(aside.visit(tree), include_attributes=False), aside.texts


def code_differences(english: str, chinese: str) -> list[str]:
    """What differs between two versions of a cell, beyond what ``same_text`` lets differ."""
    (en_tree, en_texts), (zh_tree, zh_texts) = (
        code_apart_from_text(english),
        code_apart_from_text(chinese),
    )
    if en_tree != zh_tree or len(en_texts) != len(zh_texts):
        return ["the code (string text, comments and docstrings aside)"]
    return [
        f"{en.text!r} / {zh.text!r} ({en.kind})"
        for en, zh in zip(en_texts, zh_texts, strict=True)
        if not same_text(en, zh)
    ]


def same_code(english: str, chinese: str) -> bool:
    return not code_differences(english, chinese)


def language_specific_output(cell: Any) -> bool:
    """True when a zh-CN output follows the lesson's language: it holds Chinese, or names it.

    The language is set once per lesson (``set_language``), so a cell with the same code may
    print Chinese text, or a repr that shows ``language='zh-CN'``; any other output must equal
    the English lesson's.
    """
    return any(
        CJK.search(text) or "'zh-CN'" in text or '"zh-CN"' in text
        for text in notebook_output_texts(cell)
    )


def test_both_languages_hold_the_seven_lessons() -> None:
    for language in LANGUAGES:
        main = [path.name for path in lessons(language) if not is_appendix(path)]
        assert main == LESSON_FILES, language
    appendices = [[p.name for p in lessons(language) if is_appendix(p)] for language in LANGUAGES]
    assert appendices[0] == appendices[1]
    assert {name[:2] for name in appendices[0]} <= {name[:2] for name in LESSON_FILES}


def test_both_languages_hold_the_same_solution_notebooks() -> None:
    english = [path.name for path in solutions("en")]
    assert english, "no solution notebooks in notebooks/en/solutions/"
    assert [path.name for path in solutions("zh-CN")] == english
    assert {name for name in english if "-appendix-" not in name} <= set(LESSON_FILES)


def nbgrader(cell: Any) -> dict[str, Any]:
    return dict(cell.get("metadata", {}).get("nbgrader", {}))


@pytest.mark.parametrize("path", SOLUTIONS, ids=lesson_id)
def test_learner_notebook_is_fresh_against_its_solution_notebook(path: Path) -> None:
    expected = release_notebook(read(path), language_of(path))
    learner = read(learner_twin(path))
    fresh = [
        (c.cell_type, c.source, nbgrader(c), c.metadata.get("agentcore")) for c in expected.cells
    ]
    stored = [
        (c.cell_type, c.source, nbgrader(c), c.metadata.get("agentcore")) for c in learner.cells
    ]
    assert stored == fresh, (
        f"{lesson_id(learner_twin(path))} is stale against its solution notebook: run "
        "python -m scripts.lessons release"
    )


@pytest.mark.parametrize("path", SOLUTIONS, ids=lesson_id)
def test_learner_notebook_holds_placeholders_not_answers(path: Path) -> None:
    learner = read(learner_twin(path))
    text = "\n".join(cell.source for cell in learner.cells)
    for marker in ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS"):
        assert marker not in text
    answers = [cell for cell in learner.cells if nbgrader(cell).get("solution")]
    assert all(code_stub(language_of(path)) in cell.source for cell in answers)
    for cell in answers:  # run unanswered, an answer cell shows nothing (no "Out: Ellipsis")
        assert cell.get("outputs") == [], f"{cell.source}\n shows {cell.get('outputs')}"
    checks = [cell for cell in learner.cells if nbgrader(cell).get("grade")]
    for cell in checks:  # a learner notebook opens "not attempted": every check says ✘
        lines = "".join(o.get("text", "") for o in cell.outputs).splitlines()
        assert len(lines) == 1 and lines[0].startswith("✘"), cell.source


ENGLISH_STUB = "pass  # YOUR CODE HERE"
CHINESE_STUB = "pass  # 在这里写你的代码"
"""What an answer cell holds before the learner answers: nbgrader's English stub, and the one a
Chinese learner reads (issue 20)."""


def stub_lines(source: str) -> list[str]:
    """The lines of an answer cell that are a stub (``pass  #`` or ``...``), indentation aside."""
    stubs = ("pass  #", "...")
    return [line.strip() for line in source.splitlines() if line.strip().startswith(stubs)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_code_stub_runs_silently_and_still_means_not_attempted(language: str) -> None:
    # IPython shows the value of a cell's last expression: ``...`` showed "Ellipsis".
    assert not isinstance(ast.parse(code_stub(language)).body[-1], ast.Expr)
    assert holds_code_stub(f'forget("x")\n{code_stub(language)}')
    assert holds_code_stub(f'forget("x")\n...{code_stub(language).removeprefix("pass")}')
    assert not holds_code_stub('forget("x")\nx = 1  # my answer')


@pytest.mark.parametrize("path", lessons("zh-CN"), ids=lesson_id)
def test_zh_cn_answer_cells_hold_the_chinese_stub_and_no_english_one(path: Path) -> None:
    learner = read(path)
    answers = [cell for cell in learner.cells if nbgrader(cell).get("solution")]
    if not answers:
        pytest.skip("a lesson without exercises")
    for cell in answers:
        assert stub_lines(cell.source) == [CHINESE_STUB], cell.source
    assert "YOUR CODE HERE" not in "\n".join(cell.source for cell in learner.cells)


@pytest.mark.parametrize("path", lessons("en"), ids=lesson_id)
def test_english_answer_cells_keep_nbgraders_stub(path: Path) -> None:
    answers = [cell for cell in read(path).cells if nbgrader(cell).get("solution")]
    for cell in answers:
        assert stub_lines(cell.source) == [ENGLISH_STUB], cell.source


@pytest.mark.parametrize("path", SOLUTIONS, ids=lesson_id)
def test_solution_notebook_checks_accept_their_answers(path: Path) -> None:
    checks = [cell for cell in read(path).cells if nbgrader(cell).get("grade")]
    for cell in checks:
        lines = "".join(o.get("text", "") for o in cell.outputs).splitlines()
        assert len(lines) == 1 and lines[0].startswith("✔"), cell.source


def test_learners_work_in_a_git_ignored_folder() -> None:
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert "my-work/" in ignored


DIFFERENT_CODE_TAG = "language-specific-code"
"""A cell whose code itself differs between the languages (a column padded for CJK width):
not compared. ``language-specific`` alone excuses only the outputs."""


@pytest.mark.parametrize("path", ZH_LESSONS, ids=lesson_id)
def test_code_cells_are_the_same_code_and_neutral_outputs_equal_between_languages(
    path: Path,
) -> None:
    english, chinese = code_cells(read(english_twin(path))), code_cells(read(path))
    assert len(english) == len(chinese), "the two languages need the same code cells"
    for index, (en, zh) in enumerate(zip(english, chinese, strict=True)):
        where = f"{path.name} code cell {index + 1}"
        assert (LANGUAGE_SPECIFIC_TAG in tags(en)) == (LANGUAGE_SPECIFIC_TAG in tags(zh)), (
            f"{where}: tag '{LANGUAGE_SPECIFIC_TAG}' must be on both languages or neither"
        )
        if DIFFERENT_CODE_TAG not in tags(en):
            differences = code_differences(en.source, zh.source)
            assert not differences, f"{where}: en and zh-CN differ in {'; '.join(differences)}"
        if LANGUAGE_SPECIFIC_TAG in tags(en) or language_specific_output(zh):
            continue  # same code, output in each learner's language
        assert comparable_outputs(en) == comparable_outputs(zh), f"{where}: outputs differ"


def test_comparing_code_sets_aside_comments_docstrings_and_string_text_only() -> None:
    english = 'def f(x):\n    """Add one."""\n    return x + 1  # one more\n\nprint("# kept")\n'
    chinese = 'def f(x):\n    """加一。"""\n    return x + 1  # 再加一\n\nprint("# 保留")\n'
    assert same_code(english, chinese)
    assert same_code('print(f"{n} calls")\n', 'print(f"调用了 {n} 次")\n')
    assert same_code('print(f"{a} then {b!r}")\n', 'print(f"先 {b!r}，再 {a}")\n')
    assert same_code('print("Tokyo")\n', "print('东京')\n")
    assert same_code('print(f"{x:>{w}}")\n', 'print(f"个 {x:>{w}}")\n')
    assert same_code('print(", ".join(xs))\n', 'print("、".join(xs))\n')
    assert same_code('print("{0} of {1}".format(a, b))\n', 'print("{1} 的 {0}".format(a, b))\n')
    assert same_code('print("{} of {}".format(a, b))\n', 'print("{}的{}".format(a, b))\n')
    assert same_code('if "Paris" in request:\n    pass\n', 'if "巴黎" in request:\n    pass\n')
    assert same_code('set_language("en")\n', 'set_language("zh-CN")\n')  # the lesson's language
    assert same_code('x = "a"\n', 'x = f"甲"\n')  # an f-string showing nothing is a string
    assert same_code("%time x = 1  # one\n", "%time x = 1  # 一\n")  # a magic, as tokens
    # what a learner would see differ: numbers, names, calls, what an f-string shows, structure
    assert not same_code("x = 1\n", "x = 2\n")
    assert not same_code('print(f"{n}")\n', 'print(f"{m}")\n')
    assert not same_code('print(f"{n}")\n', 'print(f"{n!r}")\n')
    assert not same_code('print(f"{n} {n}")\n', 'print(f"{n}")\n')
    assert not same_code('print(f"{n} calls")\n', 'print("调用了 n 次")\n')
    assert not same_code('print("a")\n', 'print("a", "b")\n')
    assert not same_code('print("a")\n', 'show("a")\n')
    assert not same_code('x = "a"\n', "x = b'a'\n")
    assert not same_code('x = "a" + y\n', 'x = f"a{y}"\n')
    assert not same_code('def f():\n    """Doc."""\n', "def f():\n    pass\n    return 1\n")
    assert not same_code("%time x = 1\n", "%time x = 2\n")
    # strings that are code, not text a learner reads: keys, attribute and exercise names, paths,
    # format specs and template fields. An identifier-like string (no space, ASCII only) is code.
    assert not same_code('print(f"{t:.1f}")\n', 'print(f"{t:.0f}")\n')
    assert not same_code('print(f"{x:>{w}}")\n', 'print(f"{x:<{w}} 个")\n')
    assert not same_code('print(f"{x:>9} 度")\n', 'print(f"{x:>8} degrees")\n')
    assert not same_code('x = record["temperature_c"]\n', 'x = record["temperature_f"]\n')
    assert not same_code('x = getattr(run, "answer")\n', 'x = getattr(run, "messages")\n')
    assert not same_code('x = getattr(run, "final answer")\n', 'x = getattr(run, "最终答案")\n')
    assert not same_code('x = "{0} of {1}".format(a, b)\n', 'x = "{1} 的 {1}".format(a, b)\n')
    assert not same_code('x = "{0} of {1}".format(a, b)\n', 'x = "{0!r} 的 {1}".format(a, b)\n')
    assert not same_code('os.remove("notes.txt")\n', 'os.remove("/work")\n')
    assert not same_code('open("my notes.txt")\n', 'open("我的笔记.txt")\n')
    assert not same_code('check("a")\n', 'check("b")\n')
    assert not same_code('check("a", "en")\n', 'check("b", "zh-CN")\n')
    assert not same_code('call = f"call-send-{n}"\n', 'call = f"call-recv-{n}"\n')
    assert not same_code('x = f"{a}-{b}"\n', 'x = f"{b}-{a}"\n')
    assert not same_code("print(f\"{d['a']} {n}\")\n", "print(f\"{d['b']} {n}\")\n")
    # an English plural picks its ending with code the Chinese cell does not need: such a cell
    # is tagged language-specific (scripts.lessons.LANGUAGE_SPECIFIC_TAG), not compared
    plural = "print(f\"{n} call{'s' if n != 1 else ''}\")\n"
    assert not same_code(plural, 'print(f"{n} 次调用")\n')


# --- issue 14's measured target: no English line in the zh-CN lessons' stored outputs -------

ZH_ALL = sorted(
    path
    for path in (ROOT / "notebooks" / "zh-CN").rglob("[0-9][0-9]-*.ipynb")
    if ".ipynb_checkpoints" not in path.parts
)
"""Every zh-CN lesson: learner and solution notebooks, appendices too."""


def english_output_lines(path: Path) -> list[str]:
    """Lines of four or more English words in a notebook's stored outputs (tests/zh_lines.py)."""
    found = []
    for index, cell in enumerate(read(path).cells):
        if cell.cell_type != "code":
            continue
        for text in notebook_output_texts(cell):
            found += [f"code cell {index + 1}: {line}" for line in english_lines(text)]
    return found


@pytest.mark.parametrize("path", ZH_ALL, ids=lesson_id)
def test_zh_cn_outputs_hold_no_english_line(path: Path) -> None:
    found = english_output_lines(path)
    print(f"{lesson_id(path)}: {len(found)} English lines in stored outputs")
    for line in found:
        print("   ", line)
    assert len(found) == 0, f"{len(found)} English lines: {found[:5]}"


def test_the_english_line_count_skips_code_json_identifiers_and_tracebacks() -> None:
    assert english_lines("handler runs so far: 2") == ["handler runs so far: 2"]
    assert english_lines("读取东京的教学天气。") == []
    assert english_lines('{"city": "Tokyo", "note": "read the fixed teaching weather"}') == []
    assert english_lines("    def validate(self, arguments: Mapping[str, Any]) -> BaseModel:") == []
    assert english_lines("ToolArgumentsError: Invalid arguments for tool 'x': unit: bad") == []
    traceback = (
        "Traceback (most recent call last):\n  File x, line 1\nValueError: it was not a number"
    )
    assert english_lines(traceback) == []


@pytest.mark.parametrize("path", ZH_ALL, ids=lesson_id)
def test_zh_cn_outputs_hold_no_english_word_outside_the_kinds_kept_english(path: Path) -> None:
    # Issue 20: not even a two-word label ("spy saw:") in English. Kept: typed errors' English
    # messages, reprs, quoted and wire text, identifiers and the glossary's English terms.
    found = []
    for index, cell in enumerate(read(path).cells):
        if cell.cell_type != "code":
            continue
        names = code_names(cell.source)
        for text in notebook_output_texts(cell):
            found += [f"code cell {index + 1}: {line}" for line in foreign_lines(text, names)]
    assert found == [], f"{len(found)} lines with English words: {found[:5]}"


def test_the_english_word_check_catches_short_labels_and_keeps_what_stays_english() -> None:
    assert foreign_words("spy saw: ['Tokyo']") == ["spy", "saw"]
    assert foreign_words("trajectory: ['call-weather']") == ["trajectory"]
    assert foreign_words("kept: 1 messages, 1 model turn(s)") != []
    assert foreign_words("间谍记下的调用：['Tokyo']") == []
    assert foreign_words("[1] ACTION  get_teaching_weather({'city': 'Tokyo'})") == []
    assert foreign_words("ToolArgumentsError: Invalid arguments for tool 'x'") == []
    assert foreign_words("Provider 拒绝了 API 密钥；请检查 DEEPSEEK_API_KEY。") == []
    assert foreign_words("outbox: []", {"outbox"}) == []  # the cell's own variable
    assert foreign_words("outbox: []") == ["outbox"]


def printed_literals(source: str) -> list[str]:
    """The text a cell's code would print on a path the stored outputs may not show.

    The string literals (f-strings with their fields left out) of every ``print(...)``
    argument, ``assert`` message, ``raise AssertionError(...)`` and ``pytest.fail(...)`` (a
    helper's failure line prints only when a check fails). Only literals that are the printed
    text itself count: a ``phrase(...)`` call, a subscript key (``m["role"]``) or a
    comprehension inside the argument is code, not text.
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []

    def texts(node: ast.expr) -> list[str]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if isinstance(node, ast.JoinedStr):
            parts = [v.value if isinstance(v, ast.Constant) else " \x00 " for v in node.values]
            return ["".join(map(str, parts))]
        if isinstance(node, ast.BinOp):  # "a" + "b", "%s" % x
            return texts(node.left) + texts(node.right)
        if isinstance(node, ast.IfExp):
            return texts(node.body) + texts(node.orelse)
        return []

    def failing(call: ast.expr | None) -> bool:
        name = call.func if isinstance(call, ast.Call) else None
        return (isinstance(name, ast.Name) and name.id in ("print", "AssertionError")) or (
            isinstance(name, ast.Attribute) and name.attr == "fail"
        )

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert) and node.msg is not None:
            found += texts(node.msg)
        elif isinstance(node, ast.Call) and failing(node):
            found += [text for argument in node.args for text in texts(argument)]
    return found


@pytest.mark.parametrize("path", ZH_ALL, ids=lesson_id)
def test_zh_cn_code_holds_no_english_text_it_would_print(path: Path) -> None:
    # Issue 20: an English failure line prints only when a check fails, so no stored output
    # shows it (lesson 04's check_trajectory built f"answer was {...}"); its text must come
    # from the catalog, phrase("lesson.answer was", ...), as the cell's other lines do.
    found = []
    for index, cell in enumerate(read(path).cells):
        if cell.cell_type != "code":
            continue
        names = code_names(cell.source)
        for text in printed_literals(cell.source):
            found += [
                f"code cell {index + 1}: {line!r}"
                for line in text.splitlines()
                if foreign_words(line, names)
            ]
    assert found == [], f"{len(found)} English lines the code would print: {found[:5]}"


def test_the_printed_literals_are_the_failure_lines_and_prints_not_code() -> None:
    source = (
        'assert ok, f"answer was {answer!r}"\n'
        'assert ok, phrase("lesson.answer was", answer=answer)\n'
        'print("观察结果：", [m["tool_call_id"] for m in messages if m["role"] == "tool"])\n'
        'pytest.fail("call ids were " + str(ids))\n'
        'raise AssertionError(f"trajectory {ids}")\n'
    )
    assert printed_literals(source) == [
        "answer was  \x00 ",
        "观察结果：",
        "call ids were ",
        "trajectory  \x00 ",
    ]


@pytest.mark.parametrize("path", ALL_LESSONS, ids=lesson_id)
def test_every_code_cell_ran_once_in_order(path: Path) -> None:
    # A stripped notebook would pass nbval with nothing compared; this catches it.
    cells = code_cells(read(path))
    assert cells, "a lesson without code cells"
    counts = [cell.execution_count for cell in cells]
    assert counts == list(range(1, len(cells) + 1)), (
        f"execution counts {counts}: re-execute on a fresh kernel "
        "(python -m scripts.lessons execute ...)"
    )
    assert any(cell.outputs for cell in cells), "no stored outputs at all"
    errors = [
        cell.source[:60]
        for cell in cells
        if any(output.output_type == "error" for output in cell.outputs)
    ]
    assert errors == [], f"cells stored with an uncaught error: {errors}"


@pytest.mark.parametrize("path", ZH_LESSONS, ids=lesson_id)
def test_translation_was_stamped_against_the_current_english(path: Path) -> None:
    stamp = read(path).metadata.get("agentcore", {}).get("translated_from", {})
    assert stamp.get("path") == english_twin(path).relative_to(ROOT).as_posix()
    assert stamp.get("source_sha256") == source_hash(read(english_twin(path))), (
        "the English notebook changed since this translation was reviewed: update the "
        f"translation, then run: python -m scripts.lessons stamp {path.relative_to(ROOT)}"
        " (a learner notebook: stamp its solution notebook, then release)"
    )


LEAKS = {
    "absolute path": re.compile(
        r"(?<![\w.])/(?:home|root|Users|tmp|work|opt|usr|var)/"
        r"|[A-Za-z]:\\\\(?:Users|Windows)"
    ),
    "memory address": re.compile(r"\b0x[0-9a-fA-F]{6,}\b"),
    "API key": re.compile(r"\bsk-[A-Za-z0-9_-]{16,}"),
    "bearer token": re.compile(r"Bearer\s+(?!\.\.\.)[A-Za-z0-9._-]{12,}"),
}


def private_names() -> list[re.Pattern[str]]:
    """This machine's user and host names, where they would show in a path or an address.

    The user name is matched only in path or address shapes, so a user called "root" does
    not flag the word "root" in printed source code.
    """
    import getpass
    import socket

    user, host = re.escape(getpass.getuser()), socket.gethostname()
    patterns = [rf"/home/{user}\b", rf"\\Users\\{user}\b", rf"\b{user}@"]
    if len(host) > 3 and host != "localhost":
        patterns.append(rf"\b{re.escape(host)}\b")
    return [re.compile(pattern) for pattern in patterns]


@pytest.mark.parametrize("path", ALL_LESSONS, ids=lesson_id)
def test_no_stored_output_leaks_paths_addresses_or_secrets(path: Path) -> None:
    private = private_names()
    for index, cell in enumerate(code_cells(read(path))):
        text = json.dumps(cell.get("outputs", []), ensure_ascii=False)
        for label, pattern in LEAKS.items():
            assert not pattern.search(text), f"code cell {index + 1} output holds an {label}"
        for pattern in private:
            assert not pattern.search(text), (
                f"code cell {index + 1} output holds this machine's user or host name"
            )


KEY_ASSIGNMENT = re.compile(r"""^\s*[A-Z_]*KEY[A-Z_]*\s*=\s*["']([^"'\n]{8,})["']""", re.MULTILINE)
"""A made-up key a lesson defines (``DEMO_KEY = "..."``): it may be sent, never shown."""


def key_runs(key: str, size: int = 8) -> set[str]:
    """Every run of ``size`` characters of ``key``: a cut key still shows one of them."""
    return {key[start : start + size] for start in range(len(key) - size + 1)}


@pytest.mark.parametrize("path", ALL_LESSONS, ids=lesson_id)
def test_no_output_or_metadata_holds_a_key_or_any_eight_characters_of_one(path: Path) -> None:
    notebook = read(path)
    keys = {key for cell in code_cells(notebook) for key in KEY_ASSIGNMENT.findall(cell.source)}
    runs = {run for key in keys for run in key_runs(key)}
    places = {"the notebook's metadata": json.dumps(notebook.metadata, ensure_ascii=False)}
    for index, cell in enumerate(notebook.cells):
        places[f"cell {index + 1}'s metadata"] = json.dumps(cell.metadata, ensure_ascii=False)
        if cell.cell_type == "code":
            places[f"cell {index + 1}'s output"] = json.dumps(cell.outputs, ensure_ascii=False)
    for where, text in places.items():
        shown = sorted(run for run in runs if run in text)
        assert not shown, f"{where} holds part of a lesson's key: {shown}"
        for label, pattern in LEAKS.items():
            assert not pattern.search(text), f"{where} holds an {label}"


def test_my_work_copies_the_learner_notebooks_and_keeps_a_saved_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import scripts.lessons as lessons_script

    monkeypatch.setattr(lessons_script, "MY_WORK", tmp_path / "my-work")
    written = lessons_script.my_work()
    assert sorted(p.relative_to(tmp_path / "my-work").as_posix() for p in written) == sorted(
        f"{path.parent.name}/{path.name}" for path in LEARNER
    )
    saved = written[0]
    saved.write_text("my answers", encoding="utf-8")
    assert lessons_script.my_work() == []  # nothing overwritten without --force
    assert saved.read_text(encoding="utf-8") == "my answers"


# --- issue 20: one voice in the zh-CN lessons -----------------------------------------------

SLOGAN = "「模型提议下一步，Runtime 管理下一步，Tool 实现下一步」"
SLOGAN_VARIANTS = (
    "提议下一步",
    "管理下一步",
    "实现下一步",
    "Runtime 管理，",
    "模型提出，",
    "模型提议，",
)
ZH_CHECK_COMMENT = "# 自检：只打印一行，✔ 或 ✘。"
ZH_FORGET_COMMENT = "  # 清掉之前的答案，检查只读取这个单元格里的答案"


@pytest.mark.parametrize("path", ZH_ALL, ids=lesson_id)
def test_zh_cn_lesson_speaks_with_one_voice(path: Path) -> None:
    cells = read(path).cells
    header = cells[0].source.split("\n")
    assert re.match(r"^# \d\d( 附录)? · \S", header[0]), header[0]
    sections = r"^\*\*对应章节\*\*：.+ · \*\*用时\*\*：约 \d+ 分钟$"
    assert any(re.match(sections, x) for x in header)
    assert any(
        "[术语表](../../docs/GLOSSARY.md)" in x and x.endswith("| **简体中文**") for x in header
    )
    assert any(x.startswith("**预备知识**：") for x in header)
    assert any(x in ("**学完这一课，你能够：**", "**学完这份附录，你能够：**") for x in header)
    titles = [
        line
        for cell in cells
        if cell.cell_type == "markdown"
        for line in cell.source.split("\n")
        if line.startswith("#") and "动手" in line
    ]
    numbers = [int(m.group(1)) for t in titles if (m := re.match(r"^#{2,3} 动手练习 (\d+)：\S", t))]
    assert numbers == list(range(1, len(titles) + 1)), titles
    for cell in cells:
        if cell.cell_type != "code":
            continue
        lines = cell.source.split("\n")
        if lines[0].startswith(("# 自检", "# 自测", "# Self-check")):
            assert lines[0] == ZH_CHECK_COMMENT, lines[0]
        for line in lines:
            if line.startswith("forget("):
                assert lines[0].startswith("# 动手练习："), lines[0]
                assert line.endswith(ZH_FORGET_COMMENT), line
    last = [cell.source for cell in cells if cell.cell_type == "markdown"][-1]
    assert "## 术语对照" in last, "a zh-CN lesson ends with its term table"
    prose = "\n".join(cell.source for cell in cells if cell.cell_type == "markdown")
    rest = prose.replace(SLOGAN, "")  # the slogan, quoted in its one wording, and nothing else
    assert not any(v in rest for v in SLOGAN_VARIANTS), "the slogan in another wording"


EN_SOLUTIONS = solutions("en")
EN_ALL = lessons("en") + EN_SOLUTIONS
NAV_LINK = re.compile(r"\]\(([^)\s]+)\)")


def header_lines(path: Path) -> list[str]:
    return str(read(path).cells[0].source).split("\n")


def nav_targets(line: str) -> list[str]:
    """The lesson links of a header's nav line: no glossary, language switch or course overview."""
    return [
        target
        for target in NAV_LINK.findall(line)
        if "GLOSSARY" not in target
        and "README" not in target
        and "/zh-CN/" not in target
        and "/en/" not in target
    ]


@pytest.mark.parametrize("path", EN_ALL, ids=lesson_id)
def test_english_lesson_header_has_the_one_format(path: Path) -> None:
    # The same five lines, in the same order, as the zh-CN header checked above.
    header = header_lines(path)
    appendix = "appendix" in path.name
    assert re.match(r"^# \d\d( appendix)? · [A-Z]", header[0]), header[0]
    assert (" appendix · " in header[0]) == appendix, header[0]
    sections = r"^\*\*Chapter:\*\* .+ · \*\*Time:\*\* about \d+ minutes$"
    assert re.match(sections, header[2]), header[2]
    nav = header[4]
    assert "[Glossary](../../docs/GLOSSARY.md)" in nav, nav
    assert nav.endswith(f"· **English** | [简体中文](../zh-CN/{path.name})"), nav
    assert header[6].startswith("**Prerequisites:** "), header[6]
    wanted = f"**After this {'appendix' if appendix else 'lesson'} you will be able to:**"
    assert wanted in header, header


@pytest.mark.parametrize("path", EN_SOLUTIONS, ids=lesson_id)
def test_both_languages_state_the_same_time_and_links_in_the_header(path: Path) -> None:
    english = header_lines(path)
    chinese = header_lines(ROOT / "notebooks" / "zh-CN" / "solutions" / path.name)
    minutes = re.search(r"about (\d+) minutes", english[2])
    assert minutes, english[2]
    assert f"**用时**：约 {minutes.group(1)} 分钟" in chinese[2], (english[2], chinese[2])
    assert nav_targets(english[4]) == nav_targets(chinese[4]), (english[4], chinese[4])
    assert chinese[4].endswith(f"[English](../en/{path.name}) | **简体中文**"), chinese[4]


def test_the_chinese_docs_quote_the_slogan_in_one_wording() -> None:
    for name in ("README.zh-CN.md", "docs/teaching/README.zh-CN.md", "docs/cheatsheet.zh-CN.md"):
        rest = (ROOT / name).read_text(encoding="utf-8").replace(SLOGAN, "")
        assert not any(v in rest for v in SLOGAN_VARIANTS), name


# --- one slogan: said where lesson 00 introduces it, and once more in the course's recap ------

SLOGAN_PATTERNS = {
    "en": re.compile(r"model\s+proposes\W+the\s+runtime\s+manages", re.I),
    "zh-CN": re.compile(r"模型提议下一步"),
}


def slogan_places(language: str) -> list[str]:
    """Where the slogan is written in the learner notebooks and quizzes of one language."""
    places = []
    for path in sorted((ROOT / "notebooks" / language).glob("[0-9][0-9]-*.ipynb")):
        for index, cell in enumerate(read(path).cells, start=1):
            places += [f"{path.name} cell {index}"] * len(
                SLOGAN_PATTERNS[language].findall(cell.source)
            )
    for path in sorted((ROOT / "agentcore" / "course" / "quizzes").glob("*.json")):
        text = path.read_text(encoding="utf-8")
        places += [path.name] * len(SLOGAN_PATTERNS[language].findall(text))
    return places


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_the_slogan_is_said_where_it_is_introduced_and_in_the_recap_only(language: str) -> None:
    places = slogan_places(language)
    assert places and places[0].startswith("00-"), f"lesson 00 introduces the slogan: {places}"
    assert len(places) <= 2, f"the slogan is repeated: {places}"


def prose_words(source: str) -> float:
    """Words of a Markdown cell's prose: link targets and fenced code blocks left out, two
    Chinese characters counted as one word (the rule of scripts/lesson_times.py)."""
    from scripts.lesson_times import CHINESE_CHARACTER, english_words

    text = re.sub(r"```.*?```", " ", source, flags=re.S)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    return english_words(text) + len(CHINESE_CHARACTER.findall(text)) / 2


@pytest.mark.parametrize(
    "path",
    [path for path in ALL_LESSONS if path.name == "05-deepseek-adapter.ipynb"],
    ids=lesson_id,
)
def test_lesson_05_stays_a_short_lesson_about_the_runtime(path: Path) -> None:
    # Lesson 05 teaches the runtime's side of a provider in at most 40 cells and
    # 2,000 words of prose; connection hardening lives in docs/providers.md, not here.
    cells = read(path).cells
    assert len(cells) <= 40, len(cells)
    words = sum(prose_words(cell.source) for cell in cells if cell.cell_type == "markdown")
    assert words <= 2000, words
    text = "\n".join(cell.source for cell in cells)
    assert not any(word in text for word in ("gzip", "drip_seconds", "proxy_for", "HTTP_PROXY"))
    assert text.count("```bash") <= 1 and text.count("```powershell") <= 1


def test_the_prose_count_leaves_out_links_and_code_blocks() -> None:
    assert prose_words("[the chapter](https://example.com/a#b) says so") == 4
    assert prose_words("one\n```bash\nexport A=1 B=2\n```\ntwo") == 2
    assert prose_words("适配器只负责翻译") == 4
