"""The fresh interpreter a grade is computed in (``python -I -S``: ``grade.runner_command``).

Reads one JSON request on stdin (written by :func:`agentcore.course.judges.grade.judge_notebook`):
``{"nonce": str, "language": "en"|"zh-CN", "cells": [{"source": str, "exercise": str|None,
"names": [str, ...]}...], "want": [exercise, ...], "keys": {exercise: value}}``. Runs the cells in
order in an IPython shell of its own (the teacher's setup cells, and in place of each answer cell
the learner's source, its names cleared first); after each wanted answer cell it puts back every
``agentcore`` module, class, function body and builtin as they were before any learner code ran,
judges the answer with :func:`agentcore.course.judges.core.verdict`, and refuses the verdict if the
judge's world was changed while judging or a thread of learner code is alive. Prints on the
original stdout one line per verdict, as soon as it is given: the nonce, then
``{exercise: [accepted, line]}`` as a Python literal (built by ``repr`` and written with
``os.write``, both taken before any learner code ran, so no patch of ``json`` or of a file
object can rewrite it; read back with ``ast.literal_eval``). Everything the cells print goes to
``/dev/null``. Before any learner code runs it imports the whole package (so every module is
watched) and installs an audit hook (:func:`_refusing_hook`) that refuses profilers,
tracers, more audit hooks, gc's object lists, ``ctypes``, new processes and opening anything
under ``/proc`` (:func:`_opens_the_process`) to learner code.
"""

from __future__ import annotations

import _thread
import builtins
import contextlib
import copy
import gc
import importlib
import io
import json
import os
import pkgutil
import signal
import sys
import sysconfig
import traceback
from functools import partial
from pathlib import Path
from types import FrameType, FunctionType, ModuleType
from typing import Any

from agentcore.course.judges.core import is_learner_code

_MISSING = object()

_LAZY_CLASS_KEYS = frozenset(
    {"__annotations__", "__protocol_attrs__", "__non_callable_proto_members__", "_abc_impl"}
)
"""Keys Python or pydantic add to a class on first use (``isinstance`` against a Protocol)."""


_REPORTING_MODULES = (
    "json",
    "json.encoder",
    "json.decoder",
    "json.scanner",
    "os",
    "posix",
    "io",
    "codecs",
    "copy",
    "contextlib",
    "traceback",
    "functools",
    "random",
)
"""The standard library the runner itself uses after learner code ran (to judge, compare,
reorder the cases of ``asked_twice`` and write the verdicts): watched and put back like
``agentcore``, so a patched ``json.dumps`` cannot rewrite the line the grade is read from, nor a
patched ``random.Random.shuffle`` keep the second pass in the first pass's order."""


_REPR = repr
_WRITE = os.write
"""The two functions the verdict line is made and written with, as they were when the runner
was imported: built-in functions, which no learner code can change in place."""


_RUNNER = sys.modules[__name__]
"""This module, as imported (``python -m`` runs it as ``__main__``, a name IPython's shell then
gives to its own namespace): watched like ``agentcore``, so its functions and ``World`` cannot be
rebound by an answer cell."""


def _function_state(function: FunctionType) -> tuple[Any, Any, Any]:
    """What a patch of a function can change besides its name: code and default arguments."""
    return function.__code__, function.__defaults__, function.__kwdefaults__


def _is_package_object(value: Any) -> bool:
    """An instance of one of ``agentcore``'s own classes, with fields (not a class, function
    or module)."""
    kind = type(value)
    return (
        kind.__module__.startswith("agentcore")
        and hasattr(value, "__dict__")
        and not isinstance(value, (type, FunctionType, ModuleType))
    )


def _signal_handlers() -> dict[int, Any]:
    """Every signal's handler now (a handler runs Python code between any two lines)."""
    handlers = {}
    for number in signal.valid_signals():
        with contextlib.suppress(OSError, ValueError):
            handlers[int(number)] = signal.getsignal(number)
    return handlers


def _import_the_package() -> None:
    """Import every ``agentcore`` module now, so the snapshot watches all of them.

    A module first imported by a lesson cell (the providers, ``offline_replies``) would
    otherwise enter ``sys.modules`` after the snapshot, and a patch of it go unseen. Modules
    whose optional dependency is not installed are left out (they cannot be judged with)."""
    import agentcore

    for module in pkgutil.walk_packages(agentcore.__path__, "agentcore."):
        if module.name.endswith(("__main__", "grade_runner", "grade_boot")):
            continue  # the command line (it would run) and this runner (it is running)
        with contextlib.suppress(ImportError):
            importlib.import_module(module.name)


_REFUSED_EVENTS = frozenset(
    {
        "sys.addaudithook",
        "sys.setprofile",
        "sys.settrace",
        "sys._current_frames",
        "gc.get_objects",
        "gc.get_referrers",
        "gc.get_referents",
        "os.fork",
        "os.forkpty",
        "os.kill",
        "os.killpg",
        "os.system",
        "os.posix_spawn",
        "os.spawn",
        "os.exec",
        "subprocess.Popen",
        "pty.spawn",
        # a signal sent to itself, or a CPU limit's SIGXCPU, would hand a handler a frame
        "signal.pthread_kill",
        "resource.setrlimit",
        "resource.prlimit",
    }
)
"""Audit events (PEP 578) refused while learner code is on the stack: hooks that would run the
learner's code inside the judge's (a profiler, a tracer, another audit hook), ways to find the
judge's objects (gc's object lists, other threads' frames), and new processes, which would
outlive the grade and hold its output open. ``ctypes`` (raw memory) is refused too, and every
way to get a frame (:data:`_FRAME_ATTRIBUTES`, ``sys._getframe``) when it would reach learner
code (:func:`_hands_a_frame_to_learner`)."""


_FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
"""The attributes that hand out a frame (audited as ``object.__getattr__`` since 3.10)."""

_STDLIB = tuple({sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib")})
_SITE = tuple({sysconfig.get_paths()[key] for key in ("purelib", "platlib")})
_MODULE_NAME_ONLY = tuple(
    str(Path(_STDLIB[0]) / name) for name in ("collections/__init__.py", "typing.py", "enum.py")
)
"""Standard-library files that ask for their caller's frame only to read its module's name
(``namedtuple``, ``TypeVar``, the functional ``Enum``): they hand no frame back."""


def _hands_a_frame_to_learner(caller: FrameType | None) -> bool:
    """Whether a frame asked for at ``caller`` would reach learner code.

    Walks out from ``caller`` past the standard library's helpers (``inspect.currentframe``,
    ``traceback.extract_stack`` return what they get to their caller), to the first frame of
    any other code: learner code gets it, a library (pydantic, IPython, pytest, the package)
    keeps it to itself."""
    frame = caller
    while frame is not None:
        filename = frame.f_code.co_filename
        if filename.startswith(_MODULE_NAME_ONLY):
            return False
        in_stdlib = filename.startswith("<frozen") or (
            filename.startswith(_STDLIB) and not filename.startswith(_SITE)
        )
        if not in_stdlib:
            return is_learner_code(frame)
        frame = frame.f_back
    return False


_JUDGES_DIR = str(Path(__file__).resolve().parent)


def _is_judge_frame(frame: Any) -> bool:
    """Whether ``frame`` runs the judges' or this runner's code (its locals hold the expected
    values, the graded keys and the verdicts' channel)."""
    return isinstance(frame, FrameType) and frame.f_code.co_filename.startswith(_JUDGES_DIR)


def _refusing_hook(learning: list[bool]) -> Any:
    """The runner's audit hook: it raises ``RuntimeError`` for a refused event while an answer
    cell or a verdict runs (``learning[0]``) and a learner frame is on the stack.

    Installed before any learner code runs; Python never removes an audit hook, and a hook
    added later is refused here (``sys.addaudithook``'s own event), so nothing can take its
    place. Events from the runner and the libraries it calls (no learner frame on the stack)
    pass, so the judges' own time limit can still set its tracer, and the teacher's cells run
    as they do in the lesson. The switch lives in this closure, out of the learner's
    namespace. This closes the ways found to patch a judge *while* it judges, and to read the
    judge's frames (README)."""

    busy = [False]  # the hook's own frame walk asks for frames too

    def refuse(event: str, args: tuple[Any, ...]) -> None:
        if busy[0]:
            return
        frames = event == "sys._getframe" or (
            event == "object.__getattr__" and args[1] in _FRAME_ATTRIBUTES
        )
        opening = event == "open"
        if (
            not frames
            and not opening
            and event not in _REFUSED_EVENTS
            and not event.startswith("ctypes.")
        ):
            return
        if event == "sys.addaudithook":
            raise RuntimeError("grading: no audit hook may be added")
        if not learning[0]:
            return
        busy[0] = True
        try:
            caller = sys._getframe(1)
            if opening:
                if _opens_the_process(args[0]):
                    _refuse_under_learner(event, caller)
                return
            if frames:
                # a frame in learner hands reaches the judge's frames (f_back) and their
                # locals: the expected values, the graded keys, the snapshot of the judge
                if _hands_a_frame_to_learner(caller):
                    raise RuntimeError(f"grading: {event} is not allowed in an answer")
                # a library asked for a judge's frame itself while learner code runs (a
                # helper that returns a frame's locals, at a depth the learner chose)
                obtained = args[0] if event == "sys._getframe" else getattr(args[0], args[1])
                if _is_judge_frame(obtained):
                    _refuse_under_learner(event, caller)
                return
            _refuse_under_learner(event, caller)
        finally:
            busy[0] = False

    return refuse


def _opens_the_process(path: Any) -> bool:
    """Whether opening ``path`` (an ``open`` audit event's first argument) may reach ``/proc``.

    ``/proc/self/mem`` holds the whole run's memory, the run's verdict channel included (issue
    18: an answer found the nonce there and wrote every verdict itself); the rest of ``/proc``
    holds nothing an answer needs. A path is resolved through its links first; a relative one
    counts too, because the ``open`` event does not say which folder (``dir_fd``) it is
    relative to. An open file descriptor (an ``int``) is already open: it passes. The event
    hands over a path already converted to ``str`` or ``bytes``; anything else counts too, so
    no object of the learner's is asked for a name here."""
    if type(path) is int:
        return False
    if type(path) not in (str, bytes):
        return True
    name = os.fsdecode(path)
    if not os.path.isabs(name):
        return True
    real = os.path.realpath(name)
    return real == "/proc" or real.startswith("/proc/")


def _refuse_under_learner(event: str, caller: FrameType | None) -> None:
    """Raise ``RuntimeError`` if any frame from ``caller`` outwards runs learner code."""
    frame = caller
    while frame is not None:
        if is_learner_code(frame):
            raise RuntimeError(f"grading: {event} is not allowed in an answer")
        frame = frame.f_back


def _lazy(key: str) -> bool:
    return key in _LAZY_CLASS_KEYS or key.startswith("__pydantic")


def _watched(name: str) -> bool:
    return name == "agentcore" or name.startswith("agentcore.") or name in _REPORTING_MODULES


def _threads() -> frozenset[int]:
    """The ids of the threads alive now (any thread, also one started with ``_thread``)."""
    return frozenset(sys._current_frames())


class World:
    """What the judge relies on, as it was: ``agentcore`` modules, their classes, function
    bodies, ``sys.modules`` entries and builtins."""

    def __init__(self) -> None:
        self.modules = {
            name: module
            for name, module in sys.modules.items()
            if isinstance(module, ModuleType) and _watched(name)
        }
        self.modules.setdefault(_RUNNER.__spec__.name if _RUNNER.__spec__ else "", _RUNNER)
        self.module_dicts = {name: dict(vars(m)) for name, m in self.modules.items()}
        # The judges' own tables (the registry, the cases, the expected values) are mutable:
        # a copy of each, to see and undo a change made in place.
        self.tables: list[tuple[Any, Any]] = []
        for name, namespace in self.module_dicts.items():
            if not name.startswith("agentcore.course.judges"):
                continue
            for key, value in namespace.items():
                if key.startswith("__") or type(value) not in (dict, list, set):
                    continue  # __builtins__ is a dict too: builtins are checked by identity
                try:
                    self.tables.append((value, copy.deepcopy(value)))
                except TypeError:  # a table of class internals (lesson06's), checked by identity
                    continue
        self.builtins = dict(vars(builtins))
        self.classes: dict[type, dict[str, Any]] = {}
        self.codes: dict[FunctionType, tuple[Any, Any, Any]] = {}
        # The package's own objects (a frozen Tool such as DESCRIBE_TEMPERATURE_TOOL): their
        # fields, which ``object.__setattr__`` can change on a frozen dataclass.
        self.instances: dict[int, tuple[Any, dict[str, Any]]] = {}
        for name, namespace in self.module_dicts.items():
            for value in namespace.values():
                if isinstance(value, type) and value.__module__ == self.modules[name].__name__:
                    self.classes[value] = dict(vars(value))
                    for item in vars(value).values():
                        function = getattr(item, "__func__", item)
                        if isinstance(function, FunctionType):
                            self.codes[function] = _function_state(function)
                elif isinstance(value, FunctionType):
                    self.codes[value] = _function_state(value)
                elif _is_package_object(value):
                    self.instances[id(value)] = (value, dict(vars(value)))
        # Hooks that run Python code in the middle of a judge's work: a change to any of them
        # is a way to patch the judge while it judges, so it is refused like a patch.
        self.gc_callbacks = list(gc.callbacks)
        self.signals = _signal_handlers()

    def changed(self) -> bool:
        """Whether anything taken in the snapshot differs now (by identity)."""
        if any(
            sys.modules.get(name) is not module
            for name, module in self.modules.items()
            if module is not _RUNNER
        ):
            return True
        # Added names are ignored (an import adds a submodule to its package); changed or
        # removed ones are what a patch does.
        for name, saved in self.module_dicts.items():
            now = vars(self.modules[name])
            if any(now.get(k, _MISSING) is not v for k, v in saved.items()):
                return True
        now_builtins = vars(builtins)
        if any(now_builtins.get(k, _MISSING) is not v for k, v in self.builtins.items()):
            return True
        for cls, saved in self.classes.items():
            members = vars(cls)
            added = {key for key in members.keys() - saved.keys() if not _lazy(key)}
            if added or any(members.get(k, _MISSING) is not v for k, v in saved.items()):
                return True
        if any(table != saved for table, saved in self.tables):
            return True
        if any(
            any(vars(value).get(k, _MISSING) is not v for k, v in saved.items())
            for value, saved in self.instances.values()
        ):
            return True
        if gc.callbacks != self.gc_callbacks or _signal_handlers() != self.signals:
            return True
        return any(_function_state(function) != saved for function, saved in self.codes.items())

    def restore(self) -> None:
        """Put everything in the snapshot back."""
        for name, module in self.modules.items():
            if module is not _RUNNER:
                sys.modules[name] = module
            vars(module).update(self.module_dicts[name])
        vars(builtins).update(self.builtins)
        for cls, saved in self.classes.items():
            for key in {k for k in set(vars(cls)) - set(saved) if not _lazy(k)}:
                with contextlib.suppress(AttributeError, TypeError):
                    delattr(cls, key)
            for key, value in saved.items():
                if vars(cls).get(key) is not value:
                    with contextlib.suppress(AttributeError, TypeError):
                        setattr(cls, key, value)
        for function, (code, defaults, keyword_defaults) in self.codes.items():
            function.__code__ = code
            function.__defaults__ = defaults
            function.__kwdefaults__ = keyword_defaults
        for value, saved in self.instances.values():
            vars(value).update(saved)
        gc.callbacks[:] = self.gc_callbacks
        for number, handler in self.signals.items():
            with contextlib.suppress(OSError, ValueError, TypeError):
                signal.signal(number, handler)
        for table, saved in self.tables:
            if table == saved:
                continue
            table.clear()
            if isinstance(table, list):
                table.extend(copy.deepcopy(saved))
            else:
                table.update(copy.deepcopy(saved))


def _quiet() -> contextlib.ExitStack:
    """Send what cells print (Python's and the OS's stdout and stderr) to /dev/null."""
    stack = contextlib.ExitStack()
    sink = io.StringIO()
    stack.enter_context(contextlib.redirect_stdout(sink))
    stack.enter_context(contextlib.redirect_stderr(sink))
    return stack


def _run_cell(shell: Any, source: str) -> Any:
    return shell.run_cell(source, store_history=False)


def main() -> None:
    """Run the request read from stdin; print the nonce and the verdicts on the real stdout.

    If the run itself breaks, its traceback goes to the real stdout without the nonce (the
    caller then reports that the grading run did not report, and a teacher can read why).

    The run happens in a thread of its own (:func:`_work`), started with ``_thread`` so that no
    ``threading.Thread`` object keeps its arguments. Python lets only the main thread set a
    signal handler and runs handlers only there, so no answer can set one (``signal.signal``
    raises ``ValueError`` in the run's thread, a fresh copy of ``_signal`` too), and the main
    thread, which only waits, holds nothing of the request: a handler's frame cannot lead to
    the nonce (issue 18: a handler walked ``f_back`` from the frame it received to the
    runner's and wrote every verdict itself). The cost: the judges' time limit stops learner
    code by its tracer alone there (``SIGALRM`` is the main thread's), so one C call that
    blocks (``time.sleep``) runs until the caller's limit for the whole run.
    """
    out = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    finished = _thread.allocate_lock()
    finished.acquire()
    with contextlib.suppress(ValueError):  # a platform that refuses the size keeps its own
        _thread.stack_size(_STACK_BYTES)
    _thread.start_new_thread(_work, (out, finished))
    while True:  # the run's thread ends the process (os._exit); a Ctrl-C here ends nothing
        with contextlib.suppress(KeyboardInterrupt):
            finished.acquire()
            break
    os._exit(1)


_STACK_BYTES = 64 * 1024 * 1024
"""The run's thread's stack: as deep as a main thread's usually is, for deep learner code."""


def _work(out: int, finished: Any) -> None:
    """The grading run, in its own thread: read the request, grade, end the process."""
    try:
        _grade(json.loads(sys.stdin.read()), out)
    except BaseException:  # the runner's own failure: say why, then end without verdicts
        data = traceback.format_exc().encode("utf-8")
        while data:
            data = data[_WRITE(out, data) :]
        os._exit(1)
    finally:
        finished.release()


def _grade(request: dict[str, Any], out: int) -> None:
    nonce = request["nonce"]
    literal, write = _REPR, _WRITE  # locals: no learner code can rebind them

    from IPython.core.interactiveshell import InteractiveShell

    from agentcore.course.judges import core
    from agentcore.course.text import current_language, set_language

    set_language(request["language"])
    shell = InteractiveShell.instance()
    # The graded keys enter core.GRADE_KEYS only while their own verdict runs: an answer cell
    # that reads that table finds it empty.
    keys = dict(request.get("keys", {}))
    _import_the_package()
    world = World()
    # IPython's own cell hooks: one an answer cell registers could define a later answer after
    # that answer's own cell ran, so they are put back after every cell.
    cell_hooks = {name: list(hooks) for name, hooks in shell.events.callbacks.items()}
    learning = [False]
    sys.addaudithook(_refusing_hook(learning))
    want = set(request["want"])
    results: dict[str, list[Any]] = {}
    # A thread an answer cell (or the learner's code during a verdict) leaves running could
    # change an answer or the judge while a later verdict runs: once one is alive, no verdict
    # is trusted.
    learner_threads: set[int] = set()
    for cell in request["cells"]:
        exercise = cell.get("exercise")
        for name in cell.get("names", []):
            shell.user_ns.pop(name, None)
        before = _threads()
        learning[0] = bool(exercise)
        with _quiet():
            # an answer cell gets the judges' time limit too: a loop at its top level ends
            outcome = (
                core.Budget(core.TIME_LIMIT_SECONDS).run(partial(_run_cell, shell, cell["source"]))
                if exercise
                else _run_cell(shell, cell["source"])
            )
        learning[0] = False
        for name, hooks in cell_hooks.items():
            shell.events.callbacks[name] = list(hooks)
        if exercise is None:
            continue
        learner_threads |= _threads() - before
        core.note_cell_result(
            tuple(cell["names"]), outcome.error_in_exec or outcome.error_before_exec
        )
        if exercise not in want:
            continue
        tampered = world.changed()
        world.restore()
        before = _threads()
        if exercise in keys:
            core.GRADE_KEYS[exercise] = keys[exercise]
        learning[0] = True
        with _quiet():
            # in the language the lesson's setup cell chose (set_language), as in the lesson
            ok, line = core.verdict(exercise, None, shell.user_ns)
        learning[0] = False
        core.GRADE_KEYS.clear()
        learner_threads |= _threads() - before
        refusal = (
            "judge_changed"
            if tampered or world.changed()
            else "thread_running"
            if learner_threads & _threads()
            else None
        )
        if refusal is not None:
            ok, line = False, core.verdict_line(False, refusal, current_language(), {})
        world.restore()
        results[exercise] = [bool(ok is True), str(line)]
        # Written at once: a later cell that hangs in C code (past every time limit) or kills
        # the run cannot take this verdict with it.
        data = (nonce + literal({exercise: results[exercise]}) + "\n").encode("utf-8")
        while data:
            data = data[write(out, data) :]
        if want <= set(results):
            break
    os._exit(0)  # no atexit handler or thread of learner code runs after the verdicts


if __name__ == "__main__":
    main()
