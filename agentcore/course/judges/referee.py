"""The referee: the process of a grade that holds the judges and never runs learner code.

Started as ``python -I -S grade_boot.py SETTINGS`` (:func:`agentcore.course.judges.grade.
runner_command`). Reads one JSON request on stdin (written by
:func:`agentcore.course.judges.grade.judge_notebook`): ``{"nonce": str, "language": "en" |
"zh-CN", "cells": [{"source": str, "exercise": str | None, "names": [str, ...]}, ...],
"want": [exercise, ...], "keys": {exercise: value}}``, and writes on its stdout one line per
verdict as soon as it is given: the nonce, then ``{exercise: [accepted, line]}`` as a Python
literal (read back with ``ast.literal_eval``).

The cells run in a second process, the *player* (:mod:`agentcore.course.judges.player`),
started by the referee with two pipes and nothing else: no stdout, no stderr, none of the
referee's memory. Each wanted exercise is judged here, by the same judge a self-check runs
(:func:`agentcore.course.judges.core.verdict`), on a :class:`RemoteNamespace`: a name of the
player's namespace reaches the judge as plain data built here from its description
(:mod:`agentcore.course.judges.wire`), and a learner function, object or tool as a proxy whose
every use is one request to the player. So the learner's code can patch nothing the judge
uses, read none of its frames, keys or expected values, and write no verdict: whatever it does
happens in another process, and only what it answers is judged.

Time limits: an answer cell gets :data:`~agentcore.course.judges.core.TIME_LIMIT_SECONDS`, a
verdict the same (the judge's own ``Budget``, whose alarm ends the wait for the player). A
player that runs past a limit, exits or breaks the conversation is killed, and a new one runs
the cells again up to where the grade stands, so the later exercises keep their verdicts.
"""

from __future__ import annotations

import contextlib
import ctypes
import io
import json
import os
import pickle
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, MutableMapping
from types import FunctionType
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from agentcore.course.judges import core, wire
from agentcore.errors import ToolArgumentsError
from agentcore.tools import Tool, handler_failure, observation_text
from agentcore.transcript import freeze

SETUP_TIME_LIMIT_SECONDS = 120.0
"""How long one of the teacher's setup cells may take (they import, build tools, start a
loopback server): far above what any lesson's needs."""


class PlayerGone(Exception):
    """The player cannot be asked any more: it ran past a limit, exited, or broke the wire;
    and a new one could not run the cells again (``reason`` says why)."""


class Link:
    """The referee's end of the conversation with one player process.

    Inputs: the command that starts the player (``grade_boot.py SETTINGS player``, to which the
    two pipes' numbers and ``scratch`` are added) and ``scratch``, the one folder the player
    may write in (:mod:`agentcore.course.judges.sandbox`). :meth:`request` sends one request
    and returns its answer, serving on the way every callback the player makes (a function of
    the judge's that the learner's code calls). A request an exception interrupts (a time
    limit, a broken pipe) leaves the link :attr:`broken`; :meth:`restart` starts a new
    player."""

    def __init__(self, command: list[str], scratch: str) -> None:
        self.command, self.scratch = command, scratch
        self.process: subprocess.Popen[bytes] | None = None
        self.read_fd = self.write_fd = -1
        self.callbacks: list[Callable[..., Any]] = []
        self.next_id = 0
        self.broken = True
        self.restart()

    def restart(self) -> None:
        """Stop the player (if any) and start a new one; the new one has run no cell."""
        self.stop()
        to_player, from_referee = os.pipe()
        to_referee, from_player = os.pipe()
        self.process = subprocess.Popen(
            [*self.command, "player", str(to_player), str(from_player), self.scratch],
            pass_fds=(to_player, from_player),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_player)
        os.close(from_player)
        self.read_fd, self.write_fd = to_referee, from_referee
        self.callbacks = []
        self.broken = False

    def stop(self) -> None:
        """Kill the player and close the pipes (a player stuck in learner code included)."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            self.process.wait()
            self.process = None
        for fd in (self.read_fd, self.write_fd):
            if fd >= 0:
                os.close(fd)
        self.read_fd = self.write_fd = -1
        self.broken = True

    def request(self, message: dict[str, Any], deadline: float | None = None) -> dict[str, Any]:
        """Send ``message`` (an ``op`` and its fields) and return the player's answer.

        ``deadline``: a ``time.monotonic()`` value past which ``wire.WireTimeout`` is raised.
        Raises :class:`PlayerGone` on a broken link, ``wire.WireBroken`` if the player breaks
        the conversation; anything that interrupts the wait (the judge's time limit) passes
        through and leaves the link broken."""
        if self.broken:
            raise PlayerGone("the player stopped earlier in this verdict")
        self.next_id += 1
        ident = self.next_id
        try:
            self._send({**message, "id": ident})
            while True:
                reply = wire.read_json(self.read_fd, deadline)
                if "callback" in reply:
                    self._serve_callback(reply)
                    continue
                if reply.get("reply") != ident:
                    raise wire.WireBroken("an answer to another request")
                return reply
        except BaseException:
            self.broken = True
            raise

    def _send(self, message: dict[str, Any]) -> None:
        buffer = io.BytesIO()
        _Pickler(buffer, self).dump(message)
        wire.write_frame(self.write_fd, b"P", buffer.getvalue())

    def _serve_callback(self, reply: dict[str, Any]) -> None:
        """Call the judge's function the player asked for; send back its value or error."""
        number, ident = reply.get("callback"), reply.get("id")
        if type(number) is not int or not 0 <= number < len(self.callbacks):
            raise wire.WireBroken("a callback to no function")
        function = self.callbacks[number]
        args = wire.rebuild(reply.get("args"), self.proxy)
        kwargs = wire.rebuild(reply.get("kwargs"), self.proxy)
        if type(args) is not list or type(kwargs) is not dict:
            raise wire.WireBroken("a callback's arguments that are not a list and a dict")
        try:
            answer = {"op": "answer", "id": ident, "value": function(*args, **kwargs)}
        except Exception as error:  # the judge's function refused what the learner passed
            answer = {"op": "answer", "id": ident, "raised": error}
        try:
            self._send(answer)
        except (pickle.PicklingError, TypeError, AttributeError) as error:
            unsent = TypeError(f"the judge's answer could not be sent: {error}")
            self._send({"op": "answer", "id": ident, "raised": unsent})

    def proxy(self, data: dict[str, Any]) -> Any:
        """The referee's stand-in for a described ``tool``, ``callable`` or ``object``."""
        if data["t"] == "tool":
            return remote_tool(self, data)
        if data["t"] == "callable":
            return RemoteCallable(self, data["handle"], str(data.get("kind")), data.get("sig"))
        return RemoteObject(self, data["handle"], str(data.get("kind")))

    def rebuild(self, data: Any) -> Any:
        """A description from this player as values here (``wire.rebuild`` with proxies)."""
        return wire.rebuild(data, self.proxy)

    def value_of(self, reply: dict[str, Any]) -> Any:
        """An answer's ``value`` rebuilt, or the learner's error raised again here."""
        if "raised" in reply:
            raise wire.rebuild_error(reply["raised"])
        return self.rebuild(reply.get("value"))


class _Pickler(pickle.Pickler):
    """Pickles the referee's requests: a proxy travels as its player's handle, and a function
    the player could not import by name (a lambda, a judge's local function) as a callback."""

    def __init__(self, file: io.BytesIO, link: Link) -> None:
        super().__init__(file)
        self.link = link

    def persistent_id(self, obj: Any) -> Any:
        if isinstance(obj, core.Remote):
            return ("player", obj.handle)
        if type(obj) is FunctionType and ("<" in obj.__qualname__ or not _importable(obj)):
            self.link.callbacks.append(obj)
            return ("referee", len(self.link.callbacks) - 1)
        return None


def _importable(function: FunctionType) -> bool:
    module = sys.modules.get(function.__module__)
    found: Any = module
    for part in function.__qualname__.split("."):
        found = getattr(found, part, None)
    return found is function


class RemoteCallable(core.Remote):
    """A learner function (or any callable) of the player's.

    Calling it sends the arguments (pickled; see :class:`_Pickler`) and returns the value the
    player describes, rebuilt here; an error the learner's code raised is raised again here as
    :func:`wire.rebuild_error` builds it. A list or dict argument is given the contents it had
    in the player after the call, so a judge sees what a function did to its input."""

    def __init__(self, link: Link, handle: int, kind: str, sig: Any) -> None:
        super().__init__(handle, kind)
        self.link = link
        signature = wire.signature_from(sig)
        if signature is not None:
            self.__signature__ = signature

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        reply = self.link.request(
            {"op": "call", "handle": self.handle, "args": list(args), "kwargs": kwargs}
        )
        value = self.link.value_of(reply)
        after = reply.get("after")
        for arg, state in zip(args, after if type(after) is list else [], strict=False):
            if state is None:
                continue
            now = self.link.rebuild(state)
            if type(arg) is list and type(now) is list:
                list.__setitem__(arg, slice(None), now)
            elif type(arg) is dict and type(now) is dict:
                dict.clear(arg)
                dict.update(arg, now)
        return value


class RemoteObject(core.Remote):
    """A learner value of the player's that is neither plain data nor callable: judged by its
    type's name (:func:`agentcore.course.judges.core.kind`) only."""

    def __init__(self, link: Link, handle: int, kind: str) -> None:
        super().__init__(handle, kind)
        self.link = link


class _RemoteArguments(BaseModel):
    """The stand-in, in the referee, for a learner's arguments model: validating with it asks
    the player's model (:meth:`model_validate`); its instances stand for the player's
    validated arguments (``remote_handle``)."""

    model_config = ConfigDict(frozen=True)
    remote: ClassVar[tuple[Link, int] | None] = None
    remote_handle: int = -1

    @classmethod
    def model_validate(cls, obj: Any, **options: Any) -> Any:
        """Python-mode validation of ``obj`` by the learner's model in the player; raises
        pydantic's ``ValidationError`` if that model refuses it (``options`` are not sent)."""
        if cls.remote is None:
            raise TypeError(f"{cls.__name__} stands for no arguments model")
        link, handle = cls.remote
        if link.value_of(link.request({"op": "model_validate", "handle": handle, "data": obj})):
            return cls.model_construct(remote_handle=-1)
        raise ValidationError.from_exception_data(
            cls.__name__, [{"type": "missing", "loc": ("(the learner's model)",), "input": obj}]
        )


def remote_tool(link: Link, data: dict[str, Any]) -> Tool:
    """The referee's ``Tool`` for a described learner tool.

    A tool whose arguments model is the package's own is rebuilt as a real :class:`Tool` (its
    arguments validated here, its handler a proxy when it is the learner's); any other is a
    :class:`RemoteTool`."""
    name, description = link.rebuild(data.get("name")), link.rebuild(data.get("description"))
    handler = link.rebuild(data.get("handler"))
    model_ref = data.get("model")
    if type(model_ref) is list and len(model_ref) == 2:
        model = wire.resolve(model_ref[0], model_ref[1])
        if isinstance(model, type) and issubclass(model, BaseModel):
            with contextlib.suppress(TypeError, ValueError):
                return Tool(name, description, model, handler)
    return RemoteTool.described(link, data, name, description, handler)


class RemoteTool(Tool, core.Remote):
    """A learner's ``Tool`` with an arguments model of its own, kept in the player.

    Its schema is the one the player's tool built; :meth:`validate` and :meth:`execute` ask
    the player, and turn what it answers into the runtime's own errors
    (``ToolArgumentsError``, ``ToolExecutionError``), as :class:`Tool` does (chapter 5)."""

    def __post_init__(self) -> None:
        """Nothing to build: :meth:`described` sets the schema the player's tool built."""

    @classmethod
    def described(
        cls, link: Link, data: dict[str, Any], name: Any, description: Any, handler: Any
    ) -> RemoteTool:
        """The tool a ``tool`` description stands for (``wire.describe``)."""
        model_name = str(data.get("model_name", "ArgumentsModel"))[:100]
        model = create_model(model_name, __base__=_RemoteArguments)
        model.remote = (link, data["handle"])
        tool = cls(name, description, model, handler)
        # a frozen dataclass: its fields and the proxy's are set as Tool.__post_init__ does
        object.__setattr__(tool, "handle", data["handle"])
        object.__setattr__(tool, "kind", str(data.get("kind", "Tool")))
        object.__setattr__(tool, "link", link)
        object.__setattr__(tool, "_schema", freeze(link.rebuild(data.get("schema")), "schema"))
        object.__setattr__(tool, "_fields", tuple(link.rebuild(data.get("fields"))))
        return tool

    def validate(self, arguments: Any, call_id: str | None = None) -> BaseModel:
        """The player's tool validates ``arguments``; ``ToolArgumentsError`` with its problems."""
        link: Link = self.__dict__["link"]
        reply = link.request(
            {"op": "validate", "handle": self.handle, "arguments": dict(arguments)}
        )
        if "problems" in reply:
            problems = link.rebuild(reply["problems"])
            raise ToolArgumentsError(self.name, problems, call_id=call_id)
        handle = link.value_of(reply)
        return self.arguments_model.model_construct(remote_handle=handle)

    def execute(self, arguments: BaseModel, call_id: str | None = None) -> str:
        """The player's handler runs on the validated arguments; the observation is built
        here (``observation_text``). ``ToolExecutionError`` for what the handler raised."""
        if not isinstance(arguments, _RemoteArguments):
            raise TypeError(
                f"Tool {self.name!r}: execute takes the validated {self.arguments_model.__name__}"
                f", got {type(arguments).__name__}; call tool.execute(tool.validate(arguments))"
            )
        link: Link = self.__dict__["link"]
        reply = link.request(
            {"op": "execute", "handle": self.handle, "arguments": arguments.remote_handle}
        )
        if "raised" in reply:
            error = wire.rebuild_error(reply["raised"])
            if isinstance(error, KeyboardInterrupt):
                raise error
            raise handler_failure(self.name, error, call_id) from error
        return observation_text(self.name, link.rebuild(reply.get("value")), call_id)


class RemoteNamespace(MutableMapping[str, Any]):
    """The player's namespace, as a judge reads it: every read asks the player.

    A name's value is rebuilt on every read (a judge that reads ``outbox`` again sees what the
    learner's handler appended since). Writing a name is refused (``TypeError``): a judge
    changes a list of the player's only with :meth:`replace_list`."""

    def __init__(self, link: Link) -> None:
        self.link = link

    def __getitem__(self, name: str) -> Any:
        reply = self.link.request({"op": "get", "name": name})
        if "raised" in reply and reply["raised"].get("kind") == "KeyError":
            raise KeyError(name)
        return self.link.value_of(reply)

    def __contains__(self, name: object) -> bool:
        return self.link.request({"op": "has", "name": name}).get("value") is True

    def __iter__(self) -> Iterator[str]:
        names = self.link.value_of(self.link.request({"op": "names"}))
        return iter([name for name in names if type(name) is str])

    def __len__(self) -> int:
        return len(list(iter(self)))

    def __setitem__(self, name: str, value: Any) -> None:
        raise TypeError("a grade's namespace is the player's: a judge does not write it")

    def __delitem__(self, name: str) -> None:
        raise TypeError("a grade's namespace is the player's: a judge does not write it")

    def replace_list(self, name: str, items: list[Any]) -> None:
        """Give the player's list ``name`` the items ``items``, in place (the same list the
        learner's code holds); the learner's error (a ``TypeError`` if it is no list) raised."""
        self.link.value_of(self.link.request({"op": "replace_list", "name": name, "items": items}))


def _refuse_inspection() -> None:
    """Make this process undumpable (Linux ``prctl(PR_SET_DUMPABLE, 0)``): another process of
    the same user, the player's included, can then neither read its memory (``/proc/PID/mem``,
    which holds the nonce) nor open its file descriptors (``/proc/PID/fd/1``, the verdicts'
    channel). Elsewhere, nothing is done (the player's own refusals still hold)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE = 4 (linux/prctl.h)


class Referee:
    """One grade: the player, the cells it has run, the verdicts written."""

    def __init__(self, request: dict[str, Any], out: int, command: list[str], scratch: str) -> None:
        self.request, self.out = request, out
        self.link = Link(command, scratch)
        self.ran: list[dict[str, Any]] = []

    def run_cell(self, cell: dict[str, Any]) -> BaseException | None:
        """Run one cell in the player; the error its code raised, or ``None``.

        A cell that runs past its limit, or stops the player, is taken out of the run (a new
        player runs the cells before it again) and gets ``TimeLimitExceeded`` or
        ``SystemExit`` as its error."""
        limit = core.TIME_LIMIT_SECONDS if cell.get("exercise") else SETUP_TIME_LIMIT_SECONDS
        message = {"op": "cell", "source": cell["source"], "names": cell.get("names", [])}
        try:
            raised = self.link.request(message, time.monotonic() + limit).get("error")
            error = None if raised is None else wire.rebuild_error(raised)
        except (wire.WireTimeout, wire.WireBroken, OSError) as failure:
            self.replay()
            if isinstance(failure, wire.WireTimeout):
                return core.TimeLimitExceeded(limit)
            return SystemExit("the cell ended the interpreter or broke the grade's pipe")
        self.ran.append(cell)
        return error

    def replay(self) -> None:
        """A new player, which runs again every cell the run has kept (``PlayerGone`` if one
        of them no longer runs as it did)."""
        self.link.restart()
        for cell in self.ran:
            limit = core.TIME_LIMIT_SECONDS if cell.get("exercise") else SETUP_TIME_LIMIT_SECONDS
            message = {"op": "cell", "source": cell["source"], "names": cell.get("names", [])}
            try:
                self.link.request(message, time.monotonic() + limit)
            except (wire.WireTimeout, wire.WireBroken, OSError) as error:
                raise PlayerGone("a cell that ran before did not run again") from error

    def judge(self, exercise: str) -> tuple[bool, str]:
        """The exercise's verdict, judged here on the player's namespace."""
        keys = self.request.get("keys", {})
        if exercise in keys:
            core.GRADE_KEYS[exercise] = keys[exercise]
        try:
            ok, line = core.verdict(exercise, None, RemoteNamespace(self.link))
        finally:
            core.GRADE_KEYS.clear()
        if self.link.broken:  # the learner's code ran past the limit or ended the player
            self.replay()
        return ok is True, str(line)

    def write(self, exercise: str, ok: bool, line: str) -> None:
        """One verdict line, written at once (a later hang cannot take it with it)."""
        data = (self.request["nonce"] + repr({exercise: [ok, line]}) + "\n").encode("utf-8")
        while data:
            data = data[os.write(self.out, data) :]

    def grade(self) -> None:
        """Run the cells in order and judge each wanted exercise after its answer cell."""
        want = set(self.request["want"])
        done: set[str] = set()
        for cell in self.request["cells"]:
            error = self.run_cell(cell)
            exercise = cell.get("exercise")
            if not exercise:
                continue
            core.note_cell_result(tuple(cell.get("names", [])), error)
            if exercise in want:
                self.write(exercise, *self.judge(exercise))
                done.add(exercise)
            if want <= done:
                break


def main() -> None:
    """Read the request from stdin and grade it; the verdict lines go to the real stdout.

    Everything else either process prints goes to ``/dev/null``. If the grade itself breaks,
    its traceback goes to the real stdout without the nonce (the caller then reports that the
    run did not report, and a teacher can read why)."""
    import shutil
    import tempfile
    import traceback

    from agentcore.course.judges.grade import runner_command
    from agentcore.course.judges.sandbox import become_subreaper, end_children
    from agentcore.course.text import set_language

    _refuse_inspection()
    # the players' orphans, however detached, are adopted here and ended with the grade
    become_subreaper()
    out = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    referee: Referee | None = None
    scratch = tempfile.mkdtemp(prefix="agentcore-grade-")  # the players' only writable folder
    try:
        request = json.loads(sys.stdin.read())
        set_language(request["language"])
        referee = Referee(request, out, runner_command(), scratch)
        referee.grade()
    except PlayerGone:  # the verdicts written so far stand; the others are missing
        pass
    except Exception:  # the grade's own failure: say why, without the nonce
        data = traceback.format_exc().encode("utf-8")
        while data:
            data = data[os.write(out, data) :]
    finally:
        if referee is not None:
            referee.link.stop()
        end_children()
        shutil.rmtree(scratch, ignore_errors=True)
    os._exit(0)


__all__ = [
    "Link",
    "PlayerGone",
    "Referee",
    "RemoteCallable",
    "RemoteNamespace",
    "RemoteObject",
    "RemoteTool",
]
