"""Lesson 00 (00-fixed-script): ``workflow_or_agent`` and ``both_cities``."""

from __future__ import annotations

import hashlib

from agentcore.course.judges.core import (
    GRADE_KEYS,
    Judgement,
    Namespace,
    exercise,
    kind,
    plain,
    spelled,
)
from agentcore.course.judges.runs import failure_shown, outcome
from agentcore.course.teaching_tools import build_tools
from agentcore.errors import AgentRuntimeError, ToolArgumentsError
from agentcore.protocol import ModelTurn
from agentcore.scripted import ScriptedModel

JOB_NAMES = ("A", "B", "C", "D")
JOB_KEYS = {spelled(job): job for job in JOB_NAMES}
CHOICES = ("workflow", "agent")


def job_digest(job: str, answer: str) -> str:
    """A fingerprint of one job's answer: the package ships these, never the answers.

    A self-check is an oracle by design (two choices per job can be tried), but no table in
    the package prints the key; the graded key lives in the teacher's hidden tests.
    """
    return hashlib.sha256(f"agentcore lesson 00, job {job}: {answer}".encode()).hexdigest()[:16]


_RIGHT_DIGESTS = {
    "A": "1e4963429ae451ba",
    "B": "2338985d49792e86",
    "C": "c9fcbbe4c116409e",
    "D": "4852cf07514a5e6c",
}


@exercise("workflow_or_agent", ("my_answers",))
def workflow_or_agent(ns: Namespace) -> Judgement:
    """``my_answers``: a dict, job letter -> ``"workflow"`` or ``"agent"``."""
    if not isinstance(ns["my_answers"], dict):
        return False, "jobs_not_a_dict", {"kind": kind(ns["my_answers"])}
    written = plain(ns["my_answers"])
    # names, keys and words: case and surrounding blanks aside (core.spelled), nothing else
    answers = {
        JOB_KEYS.get(spelled(key), key): spelled(value)
        for key, value in written.items()
    }
    missing = [job for job in JOB_NAMES if job not in answers]
    if missing:
        return False, "jobs_missing", {"jobs": ", ".join(missing)}
    odd = [job for job in JOB_NAMES if answers[job] not in CHOICES]
    if odd:  # "workflows", "agent?", True: the key is there, its value is not one of the words
        shown = next(v for k, v in written.items() if k == odd[0] or spelled(k) == spelled(odd[0]))
        return False, "jobs_bad_value", {"job": odd[0], "value": repr(shown)}
    extra = [repr(key) for key in written if spelled(key) not in JOB_KEYS]
    if extra:  # a key for a job that does not exist is a misread task, not a harmless extra
        return False, "jobs_extra", {"keys": ", ".join(extra)}
    key = GRADE_KEYS.get("workflow_or_agent")  # the teacher's key, when grading
    if key is not None:
        wrong = [job for job in JOB_NAMES if answers[job] != spelled(key[job])]
    else:
        wrong = [job for job in JOB_NAMES if job_digest(job, answers[job]) != _RIGHT_DIGESTS[job]]
    if wrong:
        return False, "jobs_wrong", {"count": len(wrong), "job": wrong[0], "job_key": wrong[0]}
    return True, "jobs_right", {}


@exercise("both_cities", ("both_cities",))
def both_cities(ns: Namespace) -> Judgement:
    """``both_cities``: one ``ModelTurn`` asking ``get_teaching_weather`` for Tokyo and Paris."""
    turn = ns["both_cities"]
    if type(turn) is not ModelTurn:
        return False, "turn_not_a_model_turn", {"kind": kind(turn)}
    calls = turn.tool_calls
    if len(calls) != 2:
        return False, "turn_call_count", {"count": len(calls)}
    if {plain(call.name) for call in calls} != {"get_teaching_weather"}:
        return False, "turn_tool_names", {}
    names = sorted({key for call in calls for key in plain(dict(call.arguments))})
    if names != ["city"]:  # {"location": "Tokyo"}: the tool's argument is called city
        return False, "turn_argument_names", {"names": ", ".join(map(repr, names)) or "none"}
    cities = sorted(str(plain(call.arguments.get("city"))) for call in calls)
    if cities != ["Paris", "Tokyo"]:
        return False, "turn_cities", {}
    # The turn must also be one the runtime accepts and runs.
    result = outcome(ScriptedModel([turn, ModelTurn(final_text="done")]), build_tools(), "both")
    if isinstance(result, ToolArgumentsError):  # an extra argument ("units"), or a bad type
        return False, "turn_arguments", {"error": failure_shown(result, "both_cities")}
    if isinstance(result, AgentRuntimeError):  # one call_id used twice, or an empty one
        return False, "turn_refused", {"error": failure_shown(result, "both_cities")}
    return True, "turn_right", {}
