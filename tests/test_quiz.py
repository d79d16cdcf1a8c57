"""Review questions: every lesson with exercises ends with a checked quiz and model answers."""

from __future__ import annotations

import re
from configparser import ConfigParser
from pathlib import Path

import nbformat
import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from agentcore.course import quiz
from scripts.lessons import LANGUAGES, NOTEBOOKS, quiz_name, solutions

SOLUTIONS = [path for language in LANGUAGES for path in solutions(language)]


def lesson_of(path: Path) -> str:
    # appendix lessons: NN-appendix-<topic>.ipynb has its own quiz, quizzes/NN-appendix.json
    # (a further appendix: quizzes/NN-appendix-<topic>.json)
    return quiz_name(path)


@pytest.mark.parametrize("lesson", sorted({lesson_of(path) for path in SOLUTIONS}))
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
