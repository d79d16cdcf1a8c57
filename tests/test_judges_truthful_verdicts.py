"""Verdicts that tell the truth (issue 18), tried on the judges without a kernel.

* ``bad_reply``: when the check's own loopback server runs out of scripted replies, the verdict
  says that the check's fixture failed, in the learner's language, and is not a ✔; the lesson's
  break is recognised as a kind (any missing closing brace), not as one string.
* ``unanswered_calls`` / ``unpaired_outputs``: a list of dicts where call_id strings belong
  gets a hint that names the expected form.
"""

from __future__ import annotations

from typing import Any

import pytest

from agentcore.course import checks
from agentcore.course.judges import lesson05_appendix
from agentcore.course.text import phrase

pytest.importorskip("openai")  # the adapter of lesson 05's appendix needs the SDK

ACCEPTED_CALL = (
    "from agentcore.providers.local_server import Reply, function_call\n"
    "my_bad_reply = Reply(output=(function_call("
    "'celsius_to_fahrenheit', '{\"temperature_c\": 18.0}', 'call-convert'),))\n"
)


def answer(code: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {}
    exec(code, namespace)
    return namespace


def test_a_fixture_that_runs_out_says_so_and_does_not_blame_the_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # With its closing reply, a reply the adapter accepts runs to an answer and is told so.
    ok, line = checks.verdict("bad_reply", "en", answer(ACCEPTED_CALL))
    assert not ok and line.endswith(phrase("check.reply_answered", "en"))
    # Without it, the server runs out after that reply: the verdict names the check's fixture.
    monkeypatch.setattr(lesson05_appendix, "closing_replies", lambda: ())
    for language in ("en", "zh-CN"):
        ok, line = checks.verdict("bad_reply", language, answer(ACCEPTED_CALL))
        assert not ok
        assert line.endswith(phrase("check.fixture_ran_out", language)), line


@pytest.mark.parametrize(
    ("arguments", "is_the_lesson_break"),
    [
        ('{"temperature_c": 18.0', True),
        ('{"temperature_c": 64.4', True),
        # the same text cut elsewhere (a new learner's answer got a tick for the first one)
        ('{"temperature_c": 18.', True),
        ('{"temperature_c": 1', True),
        ('{"temperature_c":', True),
        ('{"temperature_c"', True),
        ('{"temp', True),
        ('{"temperature_c": 18.0, ', True),
        ('{"temperature_c": tr', True),
        ('{"city": "Tok\\', True),
        ("[18.0,", True),
        ("{", True),
        # other breaks: JSON that is whole, or broken some other way
        ('{"temperature_c": NaN}', False),
        ('{"temperature_c": 18.0}}', False),
        ('{"temperature_c": 18,0}', False),
        ("{'temperature_c': 18.0}", False),
        ("", False),
        ("   ", False),
        ("[18.0]", False),
        ('{"temperature_c": 18.0}', False),
        (None, False),
    ],
)
def test_the_lesson_break_is_a_kind_not_one_string(
    arguments: Any, is_the_lesson_break: bool
) -> None:
    assert lesson05_appendix.cut_short(arguments) is is_the_lesson_break


CALL_DICTS = {
    "unanswered_calls": (
        "def unanswered_calls(messages):\n"
        "    observed = {m['tool_call_id'] for m in messages if m['role'] == 'tool'}\n"
        "    return [c for m in messages for c in m.get('tool_calls', [])\n"
        "            if c['call_id'] not in observed]\n"
    ),
    "unpaired_outputs": (
        "def unpaired_outputs(items):\n"
        "    called = set()\n"
        "    unpaired = []\n"
        "    for item in items:\n"
        "        if item['type'] == 'function_call':\n"
        "            called.add(item['call_id'])\n"
        "        elif item['type'] == 'function_call_output' and item['call_id'] not in called:\n"
        "            unpaired.append(item)\n"
        "    return unpaired\n"
    ),
}


@pytest.mark.parametrize("exercise", sorted(CALL_DICTS))
def test_a_list_of_dicts_gets_a_hint_naming_call_id_strings(exercise: str) -> None:
    for language in ("en", "zh-CN"):
        ok, line = checks.verdict(exercise, language, answer(CALL_DICTS[exercise]))
        expected = phrase("check.not_call_ids", language, name=exercise, kind="dict")
        assert not ok and line.endswith(expected), line
