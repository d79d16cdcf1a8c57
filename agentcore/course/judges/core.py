"""The shared core of the self-checks: answer cells, the guard around learner code, verdicts.

An exercise is two cells. The answer cell starts with ``forget("name", ...)``: it deletes the
names the answer defines, so a check never reads an answer left over from an earlier run, and
it notes whether the rest of that cell raised. The check cell calls ``check("exercise")``,
which prints exactly one verdict line in the lesson's language:

* ``✔ ...`` the answer is accepted;
* ``✘ ...`` not attempted yet, the answer cell raised (its error type is named), the answer
  holds a value from another cell than its answer cell (which is all a grade reads), a
  prerequisite cell was not run (named), the learner's code raised or ran past the time limit,
  or a hint.

A verdict never prints the expected answer. A self-check runs in the learner's own kernel: it
resists accidents (stale names, mutated inputs, odd shapes, any ``BaseException``, an endless
loop) but is an oracle by design and keeps no secret; grades come from the hidden tests, which
judge the answer in a fresh interpreter (:mod:`agentcore.course.judges.grade`).

The lesson modules (``lesson00`` ... ``lesson06_appendix``) each hold their exercises'
judges and register them in :data:`EXERCISES` with :func:`exercise`.
"""

from __future__ import annotations

import dis
import functools
import os
import random
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType, FrameType
from typing import Any, TypeVar

from agentcore.course.text import check_language, explain, phrase, resolve_language

Namespace = MutableMapping[str, Any]
T = TypeVar("T")
Judgement = tuple[bool, str, dict[str, Any]]
"""(accepted, message key, values for the message's placeholders)."""

TIME_LIMIT_SECONDS = 10.0
"""How long one verdict may run the learner's code: far above what any solution needs (well
under a second), short enough that an endless loop ends with a ✘ instead of a hung kernel."""


def text(key: str, language: str, **values: Any) -> str:
    """The message ``check.<key>`` in ``language``, with ``values`` filled in.

    Raises ``KeyError`` for an unknown key and ``ValueError`` for an unknown language.
    """
    return phrase("check." + key, check_language(language), **values)


# ----------------------------------------------------------------------------- the registry


@dataclass(frozen=True)
class Exercise:
    """One exercise: the names its answer cell defines, the judge, and its prerequisites.

    ``needs`` maps a name an earlier cell of the lesson defines (``calls``, ``outbox``...) to
    the message key that says which cell that is; a verdict names the cell when it is missing.
    """

    names: tuple[str, ...]
    judge: Callable[[Namespace], Judgement]
    needs: Mapping[str, str] = field(default_factory=dict)


GRADE_KEYS: dict[str, Any] = {}
"""The graded key of an exercise whose answer is a fixed key (lesson 00's jobs), by exercise:
set only in the grading interpreter, from the teacher's hidden test."""

EXERCISES: dict[str, Exercise] = {}
"""Every exercise of the lessons, by the name its check cell uses; filled by the lesson
modules."""


def exercise(
    name: str, names: tuple[str, ...], needs: Mapping[str, str] | None = None
) -> Callable[[Callable[[Namespace], Judgement]], Callable[[Namespace], Judgement]]:
    """Decorator: register ``judge`` as exercise ``name`` whose answer defines ``names``."""

    def register(judge: Callable[[Namespace], Judgement]) -> Callable[[Namespace], Judgement]:
        EXERCISES[name] = Exercise(names, judge, dict(needs or {}))
        return judge

    return register


# ----------------------------------------------------------------------------- answer cells


@dataclass
class _Watch:
    """Which names the current cell's ``forget`` cleared, and what each answer cell raised."""

    pending: tuple[str, ...] = ()
    errors: dict[str, str] = field(default_factory=dict)
    raised: dict[str, BaseException] = field(default_factory=dict)
    """The error itself, for an error of the package (``StrictSchemaError`` from ``Tool(...)``):
    the verdict explains it in the learner's language (:func:`explained_in_cell`)."""
    answers: dict[str, tuple[Any, tuple[Any, ...] | None]] = field(default_factory=dict)
    """The value each name held when its answer cell finished, with its contents then
    (:func:`_contents`): a check compares both by identity, to see an answer written in,
    rebound by or completed in another cell (``my_script.append(...)``), which the grade
    never reads."""
    hooked: bool = False


_WATCH = _Watch()


def _ipython() -> Any:
    try:
        from IPython import get_ipython
    except ImportError:  # outside IPython there is no cell to watch
        return None
    return get_ipython()


def namespace_of(namespace: Namespace | None) -> Namespace:
    """``namespace``, or the running notebook's; ``RuntimeError`` outside IPython without one."""
    if namespace is not None:
        return namespace
    shell = _ipython()
    if shell is None:
        raise RuntimeError("outside IPython, pass the namespace that holds the answer")
    return shell.user_ns  # type: ignore[no-any-return]


def note_cell_result(names: tuple[str, ...], error: BaseException | None) -> None:
    """Record whether the answer cell that defines ``names`` raised (``error``) or not."""
    for name in names:
        _WATCH.raised.pop(name, None)
        if error is None:
            _WATCH.errors.pop(name, None)
        else:
            _WATCH.errors[name] = type(error).__name__
            if type(error).__module__.startswith("agentcore."):
                _WATCH.raised[name] = error


def _after_cell(result: Any) -> None:
    """IPython ``post_run_cell`` hook: record whether the answer cell that just ran raised."""
    if not _WATCH.pending:
        return
    error = result.error_in_exec or result.error_before_exec
    note_cell_result(_WATCH.pending, error)
    shell = _ipython()
    for name in _WATCH.pending:
        if error is None and shell is not None and name in shell.user_ns:
            value = shell.user_ns[name]
            _WATCH.answers[name] = (value, _contents(value))
        else:
            _WATCH.answers.pop(name, None)
    _WATCH.pending = ()


def _contents(value: Any) -> tuple[Any, ...] | None:
    """What a list or dict holds (its items, or its keys and values, in order); ``None`` for
    any other value. Exact types only, so no learner-defined method runs."""
    if type(value) is list:
        return tuple(value)
    if type(value) is dict:
        return tuple(part for item in dict.items(value) for part in item)
    return None


def _same_answer(kept: tuple[Any, tuple[Any, ...] | None], value: Any) -> bool:
    """Whether ``value`` is the object its answer cell left, holding the same objects."""
    answer, contents = kept
    now = _contents(value)
    if answer is not value or (contents is None) != (now is None):
        return False
    return contents is None or (
        now is not None
        and len(contents) == len(now)
        and all(before is after for before, after in zip(contents, now, strict=True))
    )


FORGET_CALL = re.compile(r"^forget\(([^)]*)\)", re.M)
"""An answer cell's first statement, as written in the lessons: ``forget("name", ...)``."""


def forgotten_names(source: str) -> tuple[str, ...]:
    """The names an answer cell's ``forget(...)`` line clears; ``()`` without one."""
    match = FORGET_CALL.search(source or "")
    return () if match is None else tuple(re.findall(r"[\"'](\w+)[\"']", match.group(1)))


def _before_cell(info: Any) -> None:
    """IPython ``pre_run_cell`` hook: clear an answer cell's names even if it cannot run.

    A cell with a syntax error never reaches its ``forget`` call; clearing the names here
    still keeps its check from reading the answer of an earlier run.
    """
    names = forgotten_names(getattr(info, "raw_cell", "") or "")
    shell = _ipython()
    if shell is not None and names:
        for name in names:
            shell.user_ns.pop(name, None)
        _WATCH.pending = names


def watch_answer_cells() -> None:
    """Register the hooks that clear answer cells' names and note what each cell raised.

    Called when this module is imported in IPython (a lesson's import cell), and by
    ``forget``; registering twice is a no-op.
    """
    shell = _ipython()
    if shell is None or _WATCH.hooked:
        return
    shell.events.register("pre_run_cell", _before_cell)
    shell.events.register("post_run_cell", _after_cell)
    _WATCH.hooked = True


def forget(*names: str, namespace: Namespace | None = None) -> None:
    """Delete ``names`` from the notebook's namespace; call it first in an answer cell.

    A check then never reads an answer left over from an earlier run: if the rest of the
    cell raises (or the cell does not even parse), the names stay undefined and the check says
    which error the cell raised. Inputs: the names the answer defines. Raises
    ``RuntimeError`` outside IPython without a ``namespace``.
    """
    space = namespace_of(namespace)
    for name in names:
        space.pop(name, None)
    if namespace is None and _ipython() is not None:
        watch_answer_cells()
        _WATCH.pending = tuple(names)


# ----------------------------------------------------------------------------- the guard


class AnswerRaised(Exception):
    """The learner's code raised while a judge used it: ``name`` is the answer's name."""

    def __init__(self, name: str, error: BaseException) -> None:
        super().__init__(name)
        self.name, self.error = name, error


class FixtureFailed(Exception):
    """The check's own fixture failed (not the learner's answer): ``reason`` is a message key."""

    def __init__(self, reason: str, **values: Any) -> None:
        super().__init__(reason)
        self.reason, self.values = reason, values


class TimeLimitExceeded(BaseException):
    """The learner's code ran past :data:`TIME_LIMIT_SECONDS`.

    A ``BaseException``, so a learner's ``except Exception`` does not swallow it. Where
    SIGALRM exists (a kernel's main thread), the tracer raises it again at the next traced line,
    so a loop whose ``except BaseException`` catches it stops at its handler. Where it does not
    (the browser edition), the tracer is the only guard, and Python removes a tracer that
    raises: a loop that swallows it with ``except BaseException`` is not stopped by the
    self-check (the browser tab must be reloaded). A grade always ends: the referee's alarm
    ends its wait for the player, which is then killed (:mod:`agentcore.course.judges.referee`).
    """


_PACKAGE_DIR = str(Path(__file__).resolve().parents[2])
_LIBRARY_PREFIXES = tuple({sys.prefix, sys.base_prefix, sys.exec_prefix, _PACKAGE_DIR})


def is_learner_code(frame: FrameType) -> bool:
    """Whether ``frame`` runs learner code: a notebook cell's or the learner's own file, not
    the package's, an installed library's, Python's own or a frozen import module's."""
    filename = frame.f_code.co_filename
    return not filename.startswith(_LIBRARY_PREFIXES) and not filename.startswith("<frozen")


@functools.lru_cache(maxsize=4096)
def loops_within_one_line(code: CodeType) -> bool:
    """Whether ``code`` jumps back to an instruction of the jump's own source line.

    Such a loop may give the tracer no ``"line"`` event at all: ``while True: pass`` compiles
    to one jump to itself, so line tracing alone never sees it run again. A loop over several
    lines gives a ``"line"`` event at every round, on every CPython. When in doubt (a
    bytecode this cannot read), ``True``: the frame is then traced per opcode, which is slower
    but never misses a round."""
    try:
        lines: dict[int, int | None] = {}
        for start, end, line in code.co_lines():
            for offset in range(start, end, 2):
                lines[offset] = line
        for instruction in dis.get_instructions(code):
            if "JUMP" not in instruction.opname:
                continue
            target = getattr(instruction, "jump_target", None)
            if target is None:
                target = instruction.argval
            if not isinstance(target, int):
                return True
            if target <= instruction.offset and lines.get(target) == lines.get(instruction.offset):
                return True
        return False
    except Exception:  # an unknown bytecode layout: trace every opcode rather than miss a loop
        return True


def alarm_available() -> bool:
    """Whether SIGALRM can interrupt this thread: not in the browser edition (Pyodide), not on
    a platform without ``signal.setitimer`` (Windows), not outside the main thread."""
    return (
        sys.platform != "emscripten"
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )


class Budget:
    """A deadline enforced in learner code by ``sys.settrace`` and, where it exists, SIGALRM.

    Why both: ``sys.settrace`` works everywhere CPython runs, including the browser edition
    (Pyodide has no threads with signals and no subprocess), and stops a pure-Python endless
    loop at its next line. ``signal.setitimer`` also stops a loop stuck in one C call
    (``time.sleep``), but only in the main thread of a process that has it, so it is added
    there and the trace is the fallback. Only learner frames get line tracing, so the
    runtime's own code runs at nearly full speed; a learner frame whose code loops within one
    line (``while True: pass``, which gives no line event) is traced per opcode as well
    (:func:`loops_within_one_line`), so the fallback stops it too.

    With the alarm, the deadline is the alarm's alone, and it repeats every
    :data:`REPEAT_SECONDS` until the work ends: a layer that turns one ``TimeLimitExceeded``
    into its own error (``Tool.execute`` makes it a ``ToolExecutionError`` and the run goes on
    to the next turn) cannot leave the learner's next blocking call running for ever. The
    tracer then raises only after an alarm did, at the next learner line, which is the handler
    of a learner ``except BaseException`` that swallowed the alarm's (Python removes a tracer
    that raised, so it must not be the first to raise). Work that returns after the deadline
    still ends in ``TimeLimitExceeded``: what it returned was computed with interrupted code.
    """

    REPEAT_SECONDS = 0.25

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.deadline = 0.0
        self.expired = False
        self.alarm = False
        self.active = False
        self.interrupted = False
        """Whether a SIGINT (Kernel → Interrupt, Ctrl-C) came while the work ran: only then is
        a ``KeyboardInterrupt`` the learner's stop, not an exception their code raised."""

    def _over(self) -> bool:
        if not self.alarm and not self.expired and time.monotonic() > self.deadline:
            self.expired = True
        return self.expired

    def _line(self, frame: FrameType, event: str, arg: Any) -> Any:
        # not at an "exception" event: that comes where the alarm's error was raised, inside
        # the learner's try, which would swallow this one too and Python would drop the tracer
        if event != "exception" and self._over():
            raise TimeLimitExceeded(self.seconds)
        return self._line

    def _call(self, frame: FrameType, event: str, arg: Any) -> Any:
        if not is_learner_code(frame):
            return None
        if self._over():
            raise TimeLimitExceeded(self.seconds)
        if loops_within_one_line(frame.f_code):
            frame.f_trace_opcodes = True
        return self._line

    def _alarm(self, signum: int, frame: FrameType | None) -> None:
        if not self.active:  # an alarm that lands while run() restores its state does nothing
            return
        if frame is not None and frame.f_code in _TRACER_CODES:
            # Raised inside the tracer, the error would make Python drop the tracer; and the
            # tracer must not raise before the alarm does (it would raise inside the learner's
            # try). The next alarm, REPEAT_SECONDS later, lands in learner code instead.
            return
        self.expired = True
        raise TimeLimitExceeded(self.seconds)

    def _interrupt(self, signum: int, frame: FrameType | None) -> None:
        self.interrupted = True
        raise KeyboardInterrupt

    def run(self, work: Callable[[], T]) -> T:
        """Run ``work`` under the deadline and return what it returns; restore any earlier
        tracer and alarm handler. Raises ``TimeLimitExceeded`` when the deadline passed, even
        if ``work`` returned after it."""
        self.deadline = time.monotonic() + self.seconds
        self.expired = False
        previous_trace = sys.gettrace()
        self.alarm = alarm_available()
        previous_handler: Any = None
        previous_interrupt: Any = None
        self.active = True
        self.interrupted = False
        if self.alarm:
            previous_handler = signal.signal(signal.SIGALRM, self._alarm)
            previous_interrupt = signal.signal(signal.SIGINT, self._interrupt)
            signal.setitimer(signal.ITIMER_REAL, self.seconds, self.REPEAT_SECONDS)
        try:  # the tracer is set inside: if setting it fails, the alarm is still taken back
            sys.settrace(self._call)
            result = work()
        finally:
            self.active = False
            sys.settrace(previous_trace)
            if self.alarm:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous_handler)
                signal.signal(signal.SIGINT, previous_interrupt)
        if self.expired:
            raise TimeLimitExceeded(self.seconds)
        return result


_TRACER_CODES = frozenset(
    method.__code__ for method in (Budget._over, Budget._line, Budget._call, Budget._alarm)
)


def call(name: str, function: Any, *args: Any) -> Any:
    """``function(*args)``; any ``BaseException`` it raises becomes ``AnswerRaised(name, ...)``.

    ``TimeLimitExceeded`` passes through, so the verdict can say the code ran too long.
    """
    try:
        return function(*args)
    except TimeLimitExceeded:
        raise
    except BaseException as error:  # SystemExit, KeyboardInterrupt... from learner code: a ✘
        raise AnswerRaised(name, error) from error


_ORDER = random.SystemRandom()
"""Draws from the operating system (``os.urandom``): no seed a learner's code sets decides it."""


def asked_twice(cases: Sequence[T]) -> list[T]:
    """Every case twice: once in the given order, then again in a random order.

    An answer must depend on its input alone. One that counts its calls, or replays a fixed
    list of replies learned from the order the hints revealed, cannot agree with the second
    round; the first round keeps the hint for an ordinary mistake the same on every run.
    Input: the cases (any sequence). Output: a new list of ``2 * len(cases)`` items."""
    return [*cases, *shuffled(cases)]


def shuffled(cases: Sequence[T]) -> list[T]:
    """A new list of ``cases`` in a random order drawn from ``os.urandom`` (no seed a learner's
    code sets decides it)."""
    again = list(cases)
    _ORDER.shuffle(again)
    return again


def draw(below: int) -> int:
    """A number from 0 to ``below - 1`` drawn from ``os.urandom``: no seed a learner's code
    sets, and no random-number object it can patch, decides a made-up case."""
    return int.from_bytes(os.urandom(8), "big") % below


def fresh_call_id(taken: set[str]) -> str:
    """A call_id never drawn before in ``taken`` (which it joins): ``call-`` and 10 hex digits."""
    while True:
        call_id = "call-" + os.urandom(5).hex()
        if call_id not in taken:
            taken.add(call_id)
            return call_id


class Remote:
    """A learner value that lives in another process: a grade's player
    (:mod:`agentcore.course.judges.referee` holds the proxies derived from this class).

    ``handle``: the number the player keeps the value under; ``kind``: the name of the
    learner's type there, which :func:`kind` reports in a hint."""

    def __init__(self, handle: int, kind: str) -> None:
        self.handle, self.kind = handle, kind

    def __repr__(self) -> str:
        return f"<the answer's {self.kind}>"


def replace_list(ns: Namespace, name: str, items: list[Any]) -> None:
    """Give the list ``ns[name]`` the items ``items``, in place: the same list object the
    learner's code holds (lesson 06's ``outbox``, which the learner's handler appends to).

    In a grade the namespace is the player's (``replace_list`` of
    :class:`agentcore.course.judges.referee.RemoteNamespace`); in a self-check, the kernel's.
    Raises ``TypeError`` if ``ns[name]`` is not a list."""
    if hasattr(type(ns), "replace_list"):
        ns.replace_list(name, items)  # type: ignore[attr-defined]
        return
    target = ns[name]
    if not isinstance(target, list):
        raise TypeError(f"{name} is not a list")
    list.__setitem__(target, slice(None), items)


def kind(value: Any) -> str:
    """The type name of ``value``, for a hint that names the wrong form (for a value of a
    grade's player, the name of its type there)."""
    if isinstance(value, Remote):
        return value.kind
    return type(value).__name__


def shape(value: Any) -> str:
    """:func:`kind`, and for a list or tuple the kinds of what it holds, written as Python
    writes the type: ``list[ToolCall]``, ``tuple[ModelTurn | str]``, ``list`` when empty. A
    hint then says what the learner's list holds, not only that it is a list."""
    if type(value) not in (list, tuple):
        return kind(value)
    items = list(value)
    if not items:
        return type(value).__name__
    kinds = list(dict.fromkeys(kind(item) for item in items))
    return f"{type(value).__name__}[{' | '.join(kinds)}]"


def error_name(error: BaseException) -> str:
    """The type name of ``error``."""
    return type(error).__name__


def error_text(error: BaseException, limit: int = 80) -> str:
    """``error`` as a hint names an exception the learner's own code raised: its type name and
    its message (``KeyError: 'temp'``), the message cut to ``limit`` characters; the type name
    alone for an error without a message."""
    try:
        message = str(error)
    except Exception:  # a learner's exception whose __str__ fails: its type still says enough
        message = ""
    if not message:
        return error_name(error)
    if len(message) > limit:
        message = message[: limit - 1] + "…"
    return f"{error_name(error)}: {message}"


# ----------------------------------------------------------------------------- plain data


def spelled(value: Any) -> Any:
    """The one rule by which every exercise compares a name, key or word the learner writes
    (``"workflow"``, ``"stop"``, ``"runtime.py"``, ``"AgentRun"``, an error's type name):
    case and surrounding blanks aside, and nothing else. A ``str`` comes back stripped and
    case-folded (``" Workflow "`` is ``"workflow"``); any other value unchanged. No other
    spelling counts: ``"tool_executions"`` is not ``"tool executions"``, ``"runtime"`` is not
    ``"runtime.py"``, a part of a name is not the name. Lesson 00 states the rule, and every
    task repeats it."""
    return str.casefold(str.strip(value)) if isinstance(value, str) else value


def same_words(left: Any, right: Any) -> bool:
    """:func:`same`, with text compared by :func:`spelled` (``"Stop"`` is ``"stop"``)."""
    if isinstance(left, str) and isinstance(right, str):
        return bool(spelled(left) == spelled(right))
    return same(left, right)


def normalized_keys(value: dict[str, Any]) -> dict[str, Any]:
    """A dict with its text keys :func:`spelled`: ``"Tool Executions "`` and ``"tool
    executions"`` are one key, ``"tool_executions"`` another."""
    return {spelled(key): item for key, item in value.items()}


def dict_with_keys(value: Any, name: str, keys: Sequence[str]) -> dict[str, Any] | Judgement:
    """``value`` (the learner's ``name``) as a plain dict keyed by ``keys``, spelled as the
    course's one rule reads them (:func:`normalized_keys`: case and surrounding blanks aside),
    or the judgement that names the expected form: ``prediction_not_a_dict`` for anything but
    a dict, ``prediction_keys`` for other keys."""
    shown = ", ".join(repr(key) for key in keys)
    if not isinstance(value, dict):
        return False, "prediction_not_a_dict", {"name": name, "keys": shown, "kind": kind(value)}
    given = normalized_keys(plain(value))
    if set(given) != set(keys):
        written = ", ".join(repr(key) for key in plain(value)) or "-"
        return False, "prediction_keys", {"name": name, "keys": shown, "given": written}
    return given


def written_key(value: dict[str, Any], key: str) -> Any:
    """The key of ``value`` as the learner spelled it, for the normalized ``key``
    (:func:`normalized_keys`): a hint then names ``my_counts['Model_Turns']`` when that is what
    the learner wrote, not the judge's ``'model_turns'``. ``key`` itself when none matches."""
    return next((raw for raw in value if spelled(raw) == key), key)


class NotPlain(Exception):
    """A learner value is not plain data (str, int, float, bool, None, list, tuple, dict)."""

    def __init__(self, value: Any) -> None:
        super().__init__(kind(value))
        self.kind = kind(value)


def plain(value: Any) -> Any:
    """A copy of ``value`` built only of exact built-in types, read through their C slots.

    A learner's subclass cannot take part in a comparison this way: its ``__eq__``,
    ``__iter__`` or ``items`` are never called. Tuples become tuples, lists lists, dicts dicts
    (their items read with ``dict.items``). Raises :class:`NotPlain` for anything else.
    """
    if value is None or type(value) is bool:
        return value
    if isinstance(value, bool):  # pragma: no cover - bool cannot be subclassed
        return bool(value)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, tuple):
        return tuple(plain(item) for item in tuple.__getitem__(value, slice(None)))
    if isinstance(value, list):
        return [plain(item) for item in list.copy(value)]
    if isinstance(value, dict):
        return {plain(key): plain(item) for key, item in dict.items(value)}
    raise NotPlain(value)


def same(left: Any, right: Any) -> bool:
    """Equal plain data with equal types all the way down (``1`` is not ``True`` or ``1.0``)."""
    if type(left) is not type(right):
        return False
    if isinstance(left, (list, tuple)):
        return len(left) == len(right) and all(map(same, left, right))
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(same(left[k], right[k]) for k in left)
    return bool(left == right)


# ----------------------------------------------------------------------------- verdicts

_NESTED: dict[str, tuple[str, str]] = {
    "job_key": ("question", "job_"),
    "hint_key": ("hint", ""),
    "case_key": ("case", ""),
    "model_key": ("model", ""),
    "what_key": ("what", ""),
    "cell_key": ("cell", "cell_"),
}
"""A value that names another message: (the placeholder it fills, the key's prefix)."""


def _message(key: str, language: str, values: dict[str, Any]) -> str:
    filled = dict(values)
    for nested, (slot, prefix) in _NESTED.items():
        if nested in filled:
            filled[slot] = text(prefix + str(filled.pop(nested)), language)
    if "moment" in filled:
        moment = filled.pop("moment")
        filled["when"] = (
            text("before_any_step", language)
            if moment == 0
            else text("after_step", language, step=moment)
        )
    return text(key, language, **filled)


def judge_namespace(spec: Exercise, ns: Namespace) -> Judgement:
    """Judge the answer in ``ns`` (no answer-cell bookkeeping): one judgement, never raises.

    Runs the judge under the time limit; turns what the learner's code raised into a ✘
    judgement naming the error, and a fixture that ran out into a judgement saying so.
    """
    missing_needs = [name for name in spec.needs if name not in ns]
    if missing_needs:
        return (
            False,
            "prerequisite_missing",
            {
                "names": ", ".join(missing_needs),
                "cell_key": spec.needs[missing_needs[0]],
            },
        )
    budget = Budget(TIME_LIMIT_SECONDS)
    try:
        judgement = budget.run(lambda: spec.judge(ns))
    except TimeLimitExceeded:
        return False, "time_limit", {"seconds": int(TIME_LIMIT_SECONDS)}
    except AnswerRaised as failure:
        if isinstance(failure.error, TimeLimitExceeded) or budget.expired:
            return False, "time_limit", {"seconds": int(TIME_LIMIT_SECONDS)}
        if isinstance(failure.error, KeyboardInterrupt):
            return _interruption(budget)
        return (
            False,
            "answer_raised",
            {
                "name": failure.name,
                "error": error_name(failure.error),
            },
        )
    except FixtureFailed as failure:
        return False, failure.reason, failure.values
    except NotPlain as failure:
        return False, "not_plain", {"names": ", ".join(spec.names), "kind": failure.kind}
    except BaseException as error:  # the answer broke the judge: still one ✘ line
        if budget.expired:
            return False, "time_limit", {"seconds": int(TIME_LIMIT_SECONDS)}
        if isinstance(error, KeyboardInterrupt):
            return _interruption(budget)
        return False, "answer_raised", {"name": ", ".join(spec.names), "error": error_name(error)}
    if budget.expired:
        return False, "time_limit", {"seconds": int(TIME_LIMIT_SECONDS)}
    return judgement


def _interruption(budget: Budget) -> Judgement:
    """The judgement for a ``KeyboardInterrupt``: the learner stopped the check (a SIGINT came,
    or no SIGINT could be watched: the browser edition), or their code raised it (a handler's
    ``raise KeyboardInterrupt``), which the runtime lets through as a stop, not a failure."""
    if budget.interrupted or not budget.alarm:
        return False, "interrupted", {}
    return False, "raised_interrupt", {}


def verdict(
    exercise: str, language: str | None = None, namespace: Namespace | None = None
) -> tuple[bool, str]:
    """Judge an exercise: ``(accepted, the one verdict line)``.

    Inputs: the exercise's name (a key of ``EXERCISES``), the lesson's language (default:
    :func:`agentcore.course.text.current_language`, what ``set_language`` chose), and the
    namespace holding the answer (default: the running notebook's). Never raises for a wrong
    or broken answer; raises ``KeyError`` for an unknown exercise and ``ValueError`` for an
    unknown language.
    """
    language = resolve_language(language)
    if exercise not in EXERCISES:  # the lessons' judges not imported yet (see judges.load)
        from agentcore.course.judges import load

        load()
    if exercise not in EXERCISES:  # a typo in a check cell: say which names exist
        known = ", ".join(sorted(EXERCISES))
        raise KeyError(f"no exercise is named {exercise!r}; the exercises are: {known}")
    spec = EXERCISES[exercise]
    ns = namespace_of(namespace)
    raised = [_WATCH.errors[name] for name in spec.names if name in _WATCH.errors]
    missing = [name for name in spec.names if name not in ns]
    # In a notebook (the hooks watch its cells), an answer must be the value its answer cell
    # left, holding what it held then: the grade runs only that cell, so an answer written or
    # completed elsewhere would score zero. A
    # check called from inside the answer cell itself (still running: its names are pending)
    # reads the value that cell just made.
    elsewhere = [
        name
        for name in spec.names
        if namespace is None
        and _WATCH.hooked
        and name in ns
        and name not in _WATCH.pending
        and not (name in _WATCH.answers and _same_answer(_WATCH.answers[name], ns[name]))
    ]
    if raised:
        # Even when the names were defined before the error: the cell did not run whole.
        ok, key, values = False, "answer_cell_raised", {"error": raised[0]}
        reason = explained_in_cell(spec.names, language)
        if reason:
            key, values = "answer_cell_raised_reason", {"error": raised[0], "reason": reason}
    elif missing:
        ok, key, values = False, "not_attempted", {"names": ", ".join(missing)}
    elif elsewhere:
        ok, key, values = False, "defined_elsewhere", {"names": ", ".join(elsewhere)}
    else:
        ok, key, values = judge_namespace(spec, ns)
    return ok, verdict_line(ok, key, language, values)


def explained_in_cell(names: Sequence[str], language: str) -> str:
    """Why the answer cell that defines ``names`` raised, in ``language``: the package's
    explanation (:func:`agentcore.course.text.explain`) of an error the package raised there,
    such as the ``StrictSchemaError`` of ``Tool(...)``, whose own message is English; ``""``
    for any other error (the learner's own ``NameError`` names itself)."""
    for name in names:
        if name in _WATCH.raised:
            return explain(_WATCH.raised[name], check_language(language))
    return ""


def verdict_line(ok: bool, key: str, language: str, values: dict[str, Any]) -> str:
    """The one verdict line: ``✔``/``✘`` prefix and the message ``check.<key>``."""
    prefix_key = "not attempted" if key == "not_attempted" else "right" if ok else "not yet"
    prefix = phrase("check.prefix." + prefix_key, check_language(language))
    return prefix + _message(key, language, values)


def check(exercise: str, language: str | None = None) -> None:
    """Print the exercise's one verdict line (``✔ ...`` or ``✘ ...``); never raises for one.

    ``language`` defaults to the one ``set_language`` chose (see :func:`verdict`)."""
    print(verdict(exercise, language)[1])


def accepted(exercise: str, language: str | None = None) -> bool:
    """Whether the answer is accepted in this kernel (a self-check's judgement as a bool).

    ``language`` defaults to the one ``set_language`` chose (see :func:`verdict`). The graded
    hidden tests use :func:`agentcore.course.judges.grade.graded` instead, which does not
    trust the learner's kernel."""
    return verdict(exercise, language)[0]
