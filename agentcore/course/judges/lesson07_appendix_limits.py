"""Lesson 07's appendix (07-appendix-limits-of-a-minimal-runtime): ``may_run``.

``may_run(name, arguments, caller, approvals)``
    the policy an application puts in front of a tool's handler (visible is not authorized,
    and authorized is not approved). Inputs: ``name`` (a tool's name) and ``arguments`` (a
    dict), the call the model proposed; ``caller``, a dict ``{"name": str, "role": str}``
    the application knows from its login (never from the model); ``approvals``, a list of
    dicts ``{"tool": str, "arguments": dict}``, each an action a manager approved. Returns
    a ``bool`` (never a truthy stand-in): ``True`` for ``get_teaching_weather_record``
    whoever asks (read-only); for ``refund_order``, ``True`` only when the caller's role is
    ``"clerk"`` and ``approvals`` holds this tool with exactly these arguments; ``False``
    for any other tool (not listed: denied, even when approved).

The cases are built fresh for every verdict, with order numbers drawn from ``os.urandom``, so
an answer cannot look its input up in a table; each is asked twice, in order and shuffled
(:func:`~agentcore.course.judges.core.asked_twice`). Where wrong answers differ from the right
one: a refund for a guest with an approval (role ignored), for a clerk without one (approval
ignored), approved for another order or for another tool with the same arguments (approval not
bound to the exact action), approved for the same order with another amount (approval bound to
the order alone), a refund whose arguments the model wrote to say it is approved, the
matching approval not first in the list, a tool nobody listed and ``get_customer_data`` (default
allow, or any ``get_`` name allowed), a refund for a manager with an approval (a deny-list of
roles), for a guest whose login name starts with ``clerk`` (the role read from the name), and
the weather for a guest (a read-only tool denied).
"""

from __future__ import annotations

import copy
from typing import Any

from agentcore.course.judges.core import (
    Judgement,
    Namespace,
    asked_twice,
    call,
    draw,
    exercise,
    kind,
)

WEATHER, REFUND, OTHER = "get_teaching_weather_record", "refund_order", "delete_orders"
GUEST = {"name": "guest-42", "role": "guest"}
CLERK = {"name": "clerk-7", "role": "clerk"}
MANAGER = {"name": "manager-3", "role": "manager"}
NAMED_CLERK = {"name": "clerk-9", "role": "guest"}
"""A guest whose login name starts like a clerk's: the role decides, never the name."""
UNLISTED_READ = "get_customer_data"
"""A tool the policy does not list, although its name reads like a lookup."""

Case = tuple[str, str, dict[str, Any], dict[str, str], list[dict[str, Any]], bool]
"""(the case's message key, the tool's name, the arguments, the caller, the approvals, the
expected answer)."""


def _orders() -> tuple[str, str]:
    """Two different order numbers, drawn for this verdict."""
    first = draw(900)
    second = (first + 1 + draw(899)) % 900
    return f"A-{first + 100}", f"A-{second + 100}"


def _approval(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"tool": tool, "arguments": dict(arguments)}


def _cases() -> list[Case]:
    """Every case of one verdict, with its own order numbers."""
    order, other = _orders()
    mine = {"order": order}
    approved = [_approval(REFUND, mine)]
    elsewhere = [_approval(REFUND, {"order": other})]
    later = [_approval(REFUND, {"order": other}), _approval(WEATHER, {"city": "Tokyo"}), *approved]
    amount = 20 + draw(50)
    priced = {"order": order, "amount": amount}
    repriced = [_approval(REFUND, {"order": order, "amount": amount + 100 + draw(100)})]
    return [
        ("case_weather_guest", WEATHER, {"city": "Tokyo"}, GUEST, [], True),
        ("case_weather_clerk", WEATHER, {"city": "Paris"}, CLERK, [], True),
        ("case_refund_guest_approved", REFUND, mine, GUEST, approved, False),
        ("case_refund_clerk_unapproved", REFUND, mine, CLERK, [], False),
        ("case_refund_clerk_approved", REFUND, mine, CLERK, approved, True),
        ("case_refund_other_order", REFUND, mine, CLERK, elsewhere, False),
        ("case_refund_other_tool", REFUND, mine, CLERK, [_approval("cancel_order", mine)], False),
        ("case_refund_says_approved", REFUND, {**mine, "approved": True}, CLERK, [], False),
        ("case_refund_approved_later", REFUND, mine, CLERK, later, True),
        ("case_unlisted_tool", OTHER, mine, CLERK, [_approval(OTHER, mine)], False),
        ("case_unlisted_read", UNLISTED_READ, {"customer": "C-17"}, CLERK, [], False),
        ("case_refund_manager_approved", REFUND, mine, MANAGER, approved, False),
        ("case_refund_named_clerk", REFUND, mine, NAMED_CLERK, approved, False),
        ("case_refund_other_amount", REFUND, priced, CLERK, repriced, False),
    ]


@exercise("may_run", ("may_run",))
def may_run(ns: Namespace) -> Judgement:
    """``may_run(name, arguments, caller, approvals)``: a bool, as the module's docstring says."""
    function = ns["may_run"]
    if not callable(function):
        return False, "may_run_not_a_function", {"kind": kind(function)}
    cases = _cases()
    wrong: list[str] = []
    for key, name, arguments, caller, approvals, expected in asked_twice(cases):
        handed = (name, dict(arguments), dict(caller), copy.deepcopy(approvals))
        got = call("may_run", function, *handed)
        if got is None:
            return False, "returns_nothing", {"name": "may_run"}
        if type(got) is not bool:
            return False, "not_a_bool", {"name": "may_run", "kind": kind(got)}
        if got is not expected and key not in wrong:
            wrong.append(key)
    if wrong:
        values = {"wrong": len(wrong), "total": len(cases), "case_key": wrong[0]}
        return False, "may_run_wrong", values
    return True, "may_run_right", {}
