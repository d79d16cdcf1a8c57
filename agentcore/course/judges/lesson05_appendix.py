"""Lesson 05's appendix (05-appendix-inside-the-adapter): ``bad_reply``."""

from __future__ import annotations

from agentcore.course.judges.core import FixtureFailed, Judgement, Namespace, error_name, exercise
from agentcore.errors import AgentRuntimeError

RAN_OUT = "has no scripted reply left"
"""What the loopback server's 500 says when its script is spent (``local_server.py``)."""


@exercise(
    "bad_reply",
    ("my_bad_reply",),
    needs={
        "run_offline": "05a_run_offline",
        "tokyo_first_turn": "05a_run_offline",
        "broken_arguments": "05a_broken_arguments",
    },
)
def bad_reply(ns: Namespace) -> Judgement:
    """``my_bad_reply``: a second-turn ``Reply`` the adapter refuses before any handler runs.

    Uses the lesson's ``run_offline``, ``tokyo_first_turn`` and ``broken_arguments``. The
    script ends with a final message, so a reply the adapter accepts runs to an answer (and is
    told so) instead of running the server out of replies; if the server still runs out, the
    verdict says the check's fixture did, not that the answer failed.
    """
    from agentcore import ProviderResponseError, ProviderStatusError
    from agentcore.providers.local_server import Reply, message

    reply = ns["my_bad_reply"]
    if not isinstance(reply, Reply):
        return False, "reply_not_a_reply", {"kind": type(reply).__name__}
    if reply is ns["broken_arguments"] or reply == ns["broken_arguments"]:
        return False, "reply_reused", {}
    closing = Reply(output=(message("done"),))
    outcome = ns["run_offline"]([ns["tokyo_first_turn"], reply, closing], verbose=False)[0]
    if isinstance(outcome, ProviderStatusError) and RAN_OUT in str(outcome):
        raise FixtureFailed("fixture_ran_out")
    if not isinstance(outcome, AgentRuntimeError):
        return False, "reply_answered", {}
    if not isinstance(outcome, ProviderResponseError):
        return False, "reply_other_error", {"error": error_name(outcome)}
    if (outcome.model_turns, outcome.tool_executions) != (2, 1):
        return (
            False,
            "reply_counts",
            {"turns": outcome.model_turns, "executions": outcome.tool_executions},
        )
    return True, "reply_right", {}
