"""Review questions: every lesson with exercises ends with a checked quiz and model answers."""

from __future__ import annotations

import json
import re
from collections import Counter
from configparser import ConfigParser
from pathlib import Path
from typing import Any

import nbformat
import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from agentcore.course import quiz
from scripts.lessons import LANGUAGES, NOTEBOOKS, PACKAGE_QUIZZES, quiz_name, solutions

SOLUTIONS = [path for language in LANGUAGES for path in solutions(language)]
# The learner notebooks released from them, beside solutions/.
LEARNER = [path.parent.parent / path.name for path in SOLUTIONS]
# Every quiz file, one per lesson notebook (an appendix's own quiz included): the checks below
# run on each, so a quiz no lesson name folds into another's is checked too.
LESSONS = sorted(path.stem for path in PACKAGE_QUIZZES.glob("*.json"))


def test_every_quiz_file_is_the_quiz_of_a_lesson_and_every_lesson_has_one() -> None:
    assert sorted({quiz_name(path) for path in SOLUTIONS}) == LESSONS


def lesson_of(path: Path) -> str:
    # appendix lessons: NN-appendix-<topic>.ipynb has its own quiz, quizzes/NN-appendix.json
    # (a further appendix: quizzes/NN-appendix-<topic>.json)
    return quiz_name(path)


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_question_has_one_right_choice_and_feedback_on_every_choice(lesson: str) -> None:
    english, chinese = quiz.questions(lesson, "en"), quiz.questions(lesson, "zh-CN")
    assert 3 <= len(english) <= 5
    assert [len(q["choices"]) for q in english] == [len(q["choices"]) for q in chinese]
    for item in english + chinese:
        correct = [choice for choice in item["choices"] if choice["correct"]]
        assert len(correct) == 1, item["question"]
        assert len(item["choices"]) >= 3, item["question"]
        assert all(choice["feedback"].strip() for choice in item["choices"]), item["question"]
        assert item["model_answer"].strip()
    for en, zh in zip(english, chinese, strict=True):  # the same right choice in both languages
        assert [c["correct"] for c in en["choices"]] == [c["correct"] for c in zh["choices"]]
        # the right choice's feedback opens as every quiz's does (the glossary's ✔ 正确 in zh-CN)
        assert right_choice(en)["feedback"].startswith("Right"), en["question"]
        assert right_choice(zh)["feedback"].startswith("✔ 正确"), zh["question"]


def right_choice(item: dict[str, Any]) -> dict[str, Any]:
    return next(choice for choice in item["choices"] if choice["correct"])


def giveaways(items: list[dict[str, Any]]) -> list[str]:
    """What gives the right choices of a quiz away: the right choice is the longest, or the
    shortest (a tie counts, it gives no cover), in more than 40 % of the questions, or more than
    half of the right choices sit at one position (as written in the JSON: the widget shuffles,
    the JSON does not). A new learner found "always pick the shortest" scored 26 of 47."""
    longest = sum(
        all(len(c["answer"]) <= len(right_choice(item)["answer"]) for c in item["choices"])
        for item in items
    )
    shortest = sum(
        all(len(c["answer"]) >= len(right_choice(item)["answer"]) for c in item["choices"])
        for item in items
    )
    positions = Counter(item["choices"].index(right_choice(item)) for item in items)
    problems = []
    if longest > 0.4 * len(items):
        problems.append(f"the right choice is the longest in {longest} of {len(items)} questions")
    if shortest > 0.4 * len(items):
        problems.append(
            f"the right choice is the shortest in {shortest} of {len(items)} questions"
        )
    position, count = positions.most_common(1)[0]
    if count > 0.5 * len(items):
        problems.append(f"{count} of {len(items)} right choices are choice {position + 1}")
    return problems


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("lesson", LESSONS)
def test_neither_length_nor_position_gives_the_right_choice_away(
    lesson: str, language: str
) -> None:
    assert giveaways(quiz.questions(lesson, language)) == []


def question(answers: list[str], right: int) -> dict[str, Any]:
    return {"choices": [{"answer": a, "correct": i == right} for i, a in enumerate(answers)]}


def test_the_giveaway_rule_catches_the_old_pattern_and_passes_a_varied_quiz() -> None:
    # The quizzes before issue 18: second of three and the longest, in nearly every question.
    old = [question(["no", "the right one, longest", "nope"], 1)] * 4 + [
        question(["a long wrong choice here", "right", "no"], 1)
    ]
    assert giveaways(old) == [
        "the right choice is the longest in 4 of 5 questions",
        "5 of 5 right choices are choice 2",
    ]
    # Two of five longest (40 %) and two of five at one position are still allowed; ties count.
    varied = [
        question(["right, longest", "no", "nope"], 0),
        question(["same", "size"], 1),
        question(["wrong but long", "no", "right"], 2),
        question(["wrong but long", "right", "no"], 1),
        question(["wrong but long", "no", "nah", "right"], 3),
    ]
    assert giveaways(varied) == []
    assert giveaways([*varied, question(["right, longest", "no"], 0)]) == [
        "the right choice is the longest in 3 of 6 questions"
    ]
    # the shortest gives it away as well (a tie counts): 2 of 6 pass, 3 of 7 do not
    terse = [
        question(["ok", "a wrong one, longer", "another wrong one"], 0),
        question(["a wrong one, longer", "ok", "another wrong one"], 1),
        question(["a wrong one, longer", "another wrong one", "ok"], 2),
    ]
    assert giveaways(terse) == ["the right choice is the shortest in 3 of 3 questions"]
    assert giveaways([*varied, terse[0]]) == []
    assert giveaways([*varied, *terse[:2]]) == [
        "the right choice is the shortest in 3 of 7 questions"
    ]


def test_review_quiz_shuffles_the_choices_and_keeps_every_question_and_feedback() -> None:
    InteractiveShell.instance()
    with capture_output() as captured:
        quiz.review_quiz("02", "zh-CN")
    html = captured.outputs[0].data["text/html"]
    script = captured.outputs[1].data["application/javascript"]
    assert 'data-shuffleanswers="True"' in html  # jupyterquiz shuffles in the browser
    assert 'data-shufflequestions="False"' in html  # the questions keep the lesson's numbering
    for item in quiz.questions("02", "zh-CN"):
        assert json.dumps(quiz.as_html(item["question"])) in script
        for choice in item["choices"]:
            assert json.dumps(quiz.as_html(choice["answer"])) in script
            assert json.dumps(quiz.as_html(choice["feedback"])) in script
    # jupyterquiz shows these strings as HTML: code spans as <code>, no backtick left to read.
    assert json.dumps("<code>round_to</code>")[1:-1] in script


def test_quiz_text_becomes_html_with_code_spans_and_nothing_left_to_interpret() -> None:
    assert quiz.as_html('`extra="forbid"` refuses `round_to`') == (
        '<code>extra="forbid"</code> refuses <code>round_to</code>'
    )
    assert quiz.as_html("`a < b` & <b>bold</b>") == (
        "<code>a &lt; b</code> &amp; &lt;b&gt;bold&lt;/b&gt;"
    )
    assert quiz.as_html("no code here") == "no code here"


def language_of(path: Path) -> str:
    return path.parent.parent.name if path.parent.name == "solutions" else path.parent.name


@pytest.mark.parametrize("path", SOLUTIONS + LEARNER, ids=lambda p: str(p.relative_to(NOTEBOOKS)))
def test_without_javascript_the_lesson_still_shows_every_question_and_model_answer(
    path: Path,
) -> None:
    # Where widgets do not render (GitHub, nbviewer, a plain-text export), the quiz output is
    # blank; the Markdown cell before it must list the questions and the one after it must hold
    # one model answer per question, as plain Markdown.
    cells = nbformat.read(path, as_version=4).cells
    at = next(
        i for i, c in enumerate(cells) if c.cell_type == "code" and "review_quiz(" in c.source
    )
    items = quiz.questions(lesson_of(path), language_of(path))
    before, after = cells[at - 1], cells[at + 1]
    assert before.cell_type == "markdown" and after.cell_type == "markdown"
    listed = re.findall(r"^(\d+)\. ", before.source.split("\n## ")[-1], flags=re.MULTILINE)
    assert listed == [str(n) for n in range(1, len(items) + 1)]
    assert after.source.count("<details>") == len(items)
    for item in items:
        assert item["model_answer"] in after.source


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_lesson_ends_with_its_quiz_and_the_current_model_answers(path: Path) -> None:
    language = path.parent.parent.name
    cells = nbformat.read(path, as_version=4).cells
    calls = [c.source for c in cells if c.cell_type == "code" and "review_quiz(" in c.source]
    assert len(calls) == 1
    assert calls[0].splitlines()[-1] == f'review_quiz("{lesson_of(path)}", "{language}")'

    answers = quiz.model_answers_markdown(lesson_of(path), language)
    assert any(c.cell_type == "markdown" and c.source == answers for c in cells), (
        "the model answers in the lesson differ from agentcore/course/quizzes: regenerate the "
        "cell from quiz.model_answers_markdown"
    )


def sanitize(text: str) -> str:
    config = ConfigParser()
    config.read(NOTEBOOKS / "nbval-sanitize.cfg")
    for section in config.sections():
        text = re.sub(config[section]["regex"], config[section]["replace"], text)
    return text


def test_quiz_output_is_the_same_on_every_run_once_sanitized() -> None:
    InteractiveShell.instance()
    runs = []
    for _ in range(2):
        with capture_output() as captured:
            quiz.review_quiz("00", "en")
        runs.append([sanitize(str(output.data)) for output in captured.outputs])
    assert len(runs[0]) == 2  # the quiz's HTML, then its JavaScript
    assert runs[0] == runs[1]
    assert "QUIZID" in runs[0][0]


def test_the_quiz_script_never_sees_the_pages_mathjax() -> None:
    # jupyterquiz (pinned in pyproject.toml) typesets with the page's MathJax when the name
    # `MathJax` finds one, and loads MathJax from a CDN when that one has no typeset(). The quiz
    # runs its script where `MathJax` is an undefined parameter; that hides the page's only if
    # the script reads MathJax through that bare name, never as window.MathJax or the like.
    InteractiveShell.instance()
    with capture_output() as captured:
        quiz.review_quiz("00", "en")
    script = captured.outputs[1].data["application/javascript"]
    head, tail = quiz.WITHOUT_MATHJAX.split("{script}")
    assert script.startswith(head.format()) and script.endswith(tail.format())
    inner = script[len(head.format()) : -len(tail.format())]
    assert "MathJax.typeset" in inner and "cdn.jsdelivr.net/npm/mathjax" in inner
    # Every `x.MathJax` or `x["MathJax"]`: only window.MathJax being set, in the CDN branch.
    reached = re.findall(r"[\w$\]\)]+\s*(?:\.|\[['\"])\s*MathJax\b['\"\]]?\s*=?", inner)
    assert reached and set(reached) == {"window.MathJax ="}, (
        f"jupyterquiz reaches MathJax other than by its bare name: {reached}"
    )
