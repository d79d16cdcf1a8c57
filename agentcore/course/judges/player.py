"""The player: the process of a grade that runs the notebook's cells, the learner's among them.

Started by the referee (:mod:`agentcore.course.judges.referee`) as
``python -I -S grade_boot.py SETTINGS player READ_FD WRITE_FD SCRATCH``. Before anything else it
confines itself (:func:`agentcore.course.judges.sandbox.confine`: Landlock on Linux, where no
file outside ``SCRATCH`` can be written, no program started and no other process read). It
reads the referee's
requests (pickles, :mod:`agentcore.course.judges.wire`) from ``READ_FD`` and answers each with
one JSON frame on ``WRITE_FD``:

* ``cell``: run a cell's source in its IPython shell, the names of its ``forget`` cleared
  first, and put IPython's cell hooks back as they were before the first cell (a hook an
  answer cell registers could define a later answer after that answer's own cell ran);
  answer what the cell raised (described), or ``None``;
* ``has`` / ``get``: whether the namespace holds a name; its value, described;
* ``call``: call a kept object with arguments (the referee's, pickled); answer the value
  described, or what it raised, and the state of every list or dict argument after the call;
* ``validate`` / ``model_validate`` / ``execute``: a kept ``Tool``'s arguments validated
  (the validated instance kept), its arguments model's Python-mode validation, its handler run;
* ``replace_list``: a list of the namespace given new items, in place (``outbox``).

A function of the referee's that the learner's code receives (a model factory) arrives as a
:class:`Callback`; calling it asks the referee, which may ask the player more while it answers.
Nothing the player says is trusted: the referee judges what it answers, and a player that
lies only gives another answer.
"""

from __future__ import annotations

import io
import os
import pickle
import sys
from typing import Any

from agentcore.course.judges.wire import (
    NotDescribable,
    describe,
    describe_error,
    read_frame,
    write_json,
)


class Player:
    """One player: its pipes, its kept objects and its shell."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        from IPython.core.interactiveshell import InteractiveShell

        self.read_fd, self.write_fd = read_fd, write_fd
        self.kept: list[Any] = []
        self.shell = InteractiveShell.instance()
        self.next_id = 0
        self.refusing = False
        self.cell_hooks = {e: list(hooks) for e, hooks in self.shell.events.callbacks.items()}

    def keep(self, value: Any) -> int:
        """Keep ``value`` for the referee; return its handle."""
        self.kept.append(value)
        return len(self.kept) - 1

    def describe(self, value: Any) -> Any:
        return describe(value, self.keep)

    def receive(self) -> dict[str, Any]:
        tag, body = read_frame(self.read_fd)
        if tag != b"P":
            raise SystemExit("the referee sent a frame that is not a pickle")
        message: dict[str, Any] = _Unpickler(io.BytesIO(body), self).load()
        return message

    def serve(self, waiting_for: int | None = None) -> dict[str, Any]:
        """Answer the referee's requests until the answer ``waiting_for`` comes (or, for
        ``None``, until the referee closes the pipe)."""
        while True:
            message = self.receive()
            if message.get("op") == "answer":
                if message.get("id") != waiting_for:
                    raise SystemExit("an answer nobody waited for")
                return message
            try:
                reply = self.handle(message)
            except BaseException as error:  # the learner's code, or describing what it gave
                reply = {"raised": describe_error(error)}
            reply["reply"] = message.get("id")
            write_json(self.write_fd, reply)

    def handle(self, message: dict[str, Any]) -> dict[str, Any]:
        """One request's answer (without its id); raises what learner code raises."""
        op = message["op"]
        names = self.shell.user_ns
        if op == "cell":
            if not self.refusing:
                sys.addaudithook(_refusing_hook())
                self.refusing = True
            for name in message["names"]:
                names.pop(name, None)
            run_cell = self.shell.run_cell
            outcome = run_cell(message["source"], store_history=False)  # type: ignore[no-untyped-call]
            for event, hooks in self.cell_hooks.items():
                self.shell.events.callbacks[event] = list(hooks)
            error = outcome.error_in_exec or outcome.error_before_exec
            return {"error": None if error is None else describe_error(error)}
        if op == "names":
            return {"value": [name for name in list(names) if type(name) is str]}
        if op == "has":
            return {"value": message["name"] in names}
        if op == "get":
            return {"value": self.describe(names[message["name"]])}
        if op == "call":
            function = self.kept[message["handle"]]
            args, kwargs = message["args"], message["kwargs"]
            value = function(*args, **kwargs)
            after = [self.describe(arg) if type(arg) in (list, dict) else None for arg in args]
            return {"value": self.describe(value), "after": after}
        if op == "validate":
            from agentcore.errors import ToolArgumentsError

            tool = self.kept[message["handle"]]
            try:
                validated = tool.validate(message["arguments"])
            except ToolArgumentsError as error:
                return {"problems": self.describe(list(error.errors))}
            return {"value": self.keep(validated)}
        if op == "model_validate":
            from pydantic import ValidationError

            tool = self.kept[message["handle"]]
            try:
                tool.arguments_model.model_validate(message["data"])
            except ValidationError:
                return {"value": False}
            return {"value": True}
        if op == "execute":
            tool = self.kept[message["handle"]]
            validated = self.kept[message["arguments"]]
            from agentcore.tools import call_handler

            return {"value": self.describe(call_handler(tool, validated))}
        if op == "replace_list":
            target = names[message["name"]]
            if not isinstance(target, list):
                raise TypeError(f"{message['name']} is not a list")
            list.__setitem__(target, slice(None), message["items"])
            return {"value": None}
        raise SystemExit(f"an unknown request: {op!r}")

    def callback(self, number: int, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """Call the referee's function ``number``; return what it returned or raise its error."""
        self.next_id -= 1  # the player's ids are negative: never one of the referee's
        asking = self.next_id
        try:
            described = {"args": self.describe(list(args)), "kwargs": self.describe(kwargs)}
        except NotDescribable as error:
            raise TypeError("an argument nests too deeply to be sent") from error
        write_json(self.write_fd, {"callback": number, "id": asking, **described})
        answer = self.serve(asking)
        if "raised" in answer:
            raise answer["raised"]
        return answer["value"]


class Callback:
    """A function of the referee's, in the player: calling it asks the referee to call it."""

    def __init__(self, player: Player, number: int) -> None:
        self._player, self._number = player, number

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._player.callback(self._number, args, kwargs)

    def __repr__(self) -> str:
        return f"<the judge's function {self._number}>"


class _Unpickler(pickle.Unpickler):
    """Reads the referee's pickles: its own functions become :class:`Callback` objects, the
    player's kept objects are found again by their handles."""

    def __init__(self, file: io.BytesIO, player: Player) -> None:
        super().__init__(file)
        self.player = player

    def persistent_load(self, pid: Any) -> Any:
        side, number = pid
        if side == "player":
            return self.player.kept[number]
        return Callback(self.player, number)


_REFUSED_EVENTS = frozenset(
    {
        "os.fork",
        "os.forkpty",
        "os.system",
        "os.posix_spawn",
        "os.spawn",
        "os.exec",
        "subprocess.Popen",
        "pty.spawn",
    }
)
"""Audit events (PEP 578) the player refuses once its first cell runs: new processes, which
would run without this hook."""


def _refusing_hook() -> Any:
    """The player's audit hook, installed before its first cell and never removed (Python
    removes none): it refuses new processes, ``ctypes`` (raw memory, system calls) and opening
    anything that may lie under ``/proc``, where the processes of the same user show their
    memory and file descriptors (the referee's parent holds the nonce; the referee makes
    itself unreadable there, :func:`agentcore.course.judges.referee._refuse_inspection`). A
    relative path counts, since the ``open`` event does not say which folder it is relative
    to. Nothing in the player is secret, so frames, gc and tracers are allowed."""

    def refuse(event: str, args: tuple[Any, ...]) -> None:
        if event in _REFUSED_EVENTS or event.startswith("ctypes."):
            raise RuntimeError(f"grading: {event} is not allowed in an answer")
        if event == "open" and _may_open_the_processes(args[0]):
            raise RuntimeError("grading: opening that path is not allowed in an answer")

    return refuse


def _may_open_the_processes(path: Any) -> bool:
    """Whether an ``open`` event's path may reach ``/proc`` (an ``int`` is already open)."""
    if type(path) is int:
        return False
    if type(path) not in (str, bytes):
        return True
    name = os.fsdecode(path)
    if not os.path.isabs(name):
        return True
    real = os.path.realpath(name)
    return real == "/proc" or real.startswith("/proc/")


def main(read_fd: int, write_fd: int, scratch: str) -> None:
    """Confine this process (the only thread yet), then serve the referee until it closes the
    pipe (or learner code breaks the player), and end the process at once: no atexit handler
    or thread of learner code runs after. ``scratch``: the one folder the player may write in.

    Where Landlock is missing, the player still runs, with its audit hook alone (the nbgrader
    preprocessor warns the teacher: :func:`agentcore.course.judges.sandbox.unavailable`)."""
    from pathlib import Path

    from agentcore.course.judges.sandbox import confine

    confine(Path(scratch), Path(__file__).resolve().parents[2])
    try:
        Player(read_fd, write_fd).serve()
    finally:
        os._exit(0)
