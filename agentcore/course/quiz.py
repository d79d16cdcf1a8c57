"""Review questions at the end of each lesson: a checked quiz and model answers.

The questions live in ``agentcore/course/quizzes/<lesson>.json`` as
``{"en": [question, ...], "zh-CN": [...]}``; each question is
``{"question", "choices": [{"answer", "correct", "feedback"}], "model_answer"}``, with exactly
one correct choice and feedback on every choice (the explanation a learner sees after picking a
wrong one). ``review_quiz`` shows them with ``jupyterquiz`` (a maintained quiz package: clicking
a choice shows its feedback), which shuffles the choices in the browser each time the quiz is
drawn, so the order written in the JSON is not the order a learner sees; the written choices are
still varied so that neither the right one's position nor its length gives it away
(``tests/test_quiz.py`` holds the limits). Where JavaScript does not render, the lesson's Markdown
cells hold the same questions and, in ``<details>``, the model answers
(``model_answers_markdown``).
"""

from __future__ import annotations

import html
import json
import re
from importlib import resources
from typing import Any

from agentcore.course.text import phrase, resolve_language


def questions(lesson: str, language: str | None = None) -> list[dict[str, Any]]:
    """The review questions of ``lesson`` (e.g. ``"00"``) in ``language`` (default: the one
    ``set_language`` chose).

    Raises ``FileNotFoundError`` for a lesson without questions and ``ValueError`` for an
    unknown language.
    """
    language = resolve_language(language)
    path = resources.files("agentcore.course") / "quizzes" / f"{lesson}.json"
    data: dict[str, list[dict[str, Any]]] = json.loads(path.read_text(encoding="utf-8"))
    return data[language]


CODE_SPAN = re.compile(r"`([^`]+)`")


def as_html(text: str) -> str:
    """``text`` (plain text with Markdown ```code``` spans) as the HTML jupyterquiz shows.

    jupyterquiz puts a question, an answer and a feedback into the page as HTML (``innerHTML``
    in its ``multiple_choice.js``), so the text is escaped (``<`` and ``&`` stay text) and each
    code span becomes ``<code>``; without this a learner would read the backticks.
    """
    return CODE_SPAN.sub(r"<code>\1</code>", html.escape(text, quote=False))


def as_jupyterquiz(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The questions in jupyterquiz's format (multiple choice, one answer right), as HTML."""
    return [
        {
            "question": as_html(item["question"]),
            "type": "multiple_choice",
            "answers": [
                {
                    "answer": as_html(c["answer"]),
                    "correct": c["correct"],
                    "feedback": as_html(c["feedback"]),
                }
                for c in item["choices"]
            ],
        }
        for item in items
    ]


# jupyterquiz's script, run where the name ``MathJax`` means nothing: the function's parameter,
# which is never given, hides the page's ``MathJax`` from it.
WITHOUT_MATHJAX = "(function (MathJax) {{\n{script}\n}})();\n"


def review_quiz(lesson: str, language: str | None = None) -> None:
    """Display the lesson's review questions as a checked quiz (needs ``jupyterquiz``), in
    ``language`` (default: the one ``set_language`` chose), with the choices shuffled.

    Output: jupyterquiz's HTML display as it made it, and its JavaScript display run inside
    ``WITHOUT_MATHJAX``. jupyterquiz typesets its quiz with the page's MathJax; where that is a
    MathJax 3 without ``typeset`` (JupyterLab's own is), it loads MathJax from cdn.jsdelivr.net
    instead, which fails offline. The review questions hold no math (``as_html`` escapes their
    text), so the quiz is drawn the same without MathJax, from this machine alone
    (``tests/browser/test_jupyterlab.py`` records every request the page makes). The questions
    stay in their order and the browser shuffles each question's choices when it draws the quiz
    (jupyterquiz's ``shuffle_answers``: ``data-shuffleanswers="True"`` in the HTML,
    ``getRandomSubarray`` in its JavaScript), so the stored output is the same on every run
    apart from jupyterquiz's random element id, which ``notebooks/nbval-sanitize.cfg`` masks.
    Raises as ``questions`` does.
    """
    from IPython.display import publish_display_data
    from IPython.utils.capture import capture_output
    from jupyterquiz import display_quiz  # type: ignore[import-untyped]  # only lessons need it

    with capture_output(stdout=False, stderr=False) as drawn:
        display_quiz(as_jupyterquiz(questions(lesson, language)), shuffle_answers=True)
    for output in drawn.outputs:
        data = dict(output.data)
        if "application/javascript" in data:
            data["application/javascript"] = WITHOUT_MATHJAX.format(
                script=data["application/javascript"]
            )
        publish_display_data(data, output.metadata)  # type: ignore[no-untyped-call]


def model_answers_markdown(lesson: str, language: str | None = None) -> str:
    """Markdown: each question's model answer, collapsed in ``<details>``, in ``language``
    (default: the one ``set_language`` chose)."""
    language = resolve_language(language)
    label = phrase("quiz.model answer", language)
    parts = []
    for number, item in enumerate(questions(lesson, language), start=1):
        parts.append(
            f"<details><summary>{label} {number}</summary>\n\n{item['model_answer']}\n\n</details>"
        )
    return "\n\n".join(parts)
