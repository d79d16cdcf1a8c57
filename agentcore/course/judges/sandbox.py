"""The player's confinement in a grade: the kernel, not Python, keeps learner code in its place.

The player (:mod:`agentcore.course.judges.player`) runs the learner's cells with the grader's
own user account. Python's audit hooks (the player has one) are not a boundary: a process
started through ``_posixsubprocess`` raises no audit event and runs without the hook. So before
it runs any cell the player confines itself with Linux Landlock (kernel 5.13 or newer, through
the ``landlock`` package): the confinement holds for every thread and child process it starts
later and can never be lifted. Confined, learner code

* writes, creates, renames or deletes no file outside the player's own scratch folder (no
  module written into the package for the referee to import, no edited judge or ``.pth`` file
  for a later grade, no edited gradebook or notebook);
* reads files only under the folders Python imports from (the standard library,
  site-packages, the ``agentcore`` package itself) and the system's (``/usr``, ``/etc``,
  ``/dev``, ...): not the teacher's source notebook with its solutions, nor the gradebook;
* starts no program (``execve`` is refused everywhere);
* opens no other process's memory or file descriptors under ``/proc``: Landlock refuses
  ptrace-class access to any process outside the player's own domain (the nbgrader process
  that reads the verdicts included).

Still possible (README says so): signals to the grader's other processes (a grade can be
stopped, which scores zero, not forged) and network connections (a Jupyter kernel of the same
user that listens on loopback). Elsewhere (no Landlock) :func:`confine` returns the reason, and
only the audit hook stands.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import sysconfig
from collections.abc import Iterable
from pathlib import Path

SYSTEM_READ_ROOTS = ("/usr", "/lib", "/lib64", "/etc", "/dev", "/proc", "/sys")
"""Folders of the system a Python process reads from (shared libraries, certificates, time
zones, ``/dev/urandom``, ``/proc/self``); another process's entries under ``/proc`` stay closed
by Landlock's ptrace rule. Not ``/run``, where Jupyter may keep its kernels' connection files."""


def read_roots(package_dir: Path) -> list[str]:
    """The folders the confined player may read: ``sys.path``'s folders, the interpreter's,
    the system's (:data:`SYSTEM_READ_ROOTS`) and ``package_dir`` (the ``agentcore`` folder).

    When ``agentcore`` is not installed in a ``site-packages`` folder but runs from a checkout
    (an editable install), the checkout's root is on ``sys.path`` and also holds the solution
    notebooks: it, and any folder above it, is left out; ``package_dir`` alone is read."""
    package_dir = package_dir.resolve()
    holder = package_dir.parent
    installed = holder.name in ("site-packages", "dist-packages")
    candidates = [*sys.path, sys.prefix, sys.base_prefix, sys.exec_prefix]
    candidates += [sysconfig.get_path(name) for name in ("stdlib", "platstdlib", "purelib")]
    roots = {str(package_dir)}
    for entry in candidates:
        if not entry:
            continue
        folder = Path(entry).resolve()
        if not installed and (folder == holder or folder in holder.parents):
            continue
        roots.add(str(folder))
    roots.update(root for root in SYSTEM_READ_ROOTS if os.path.isdir(root))
    return sorted(root for root in roots if os.path.exists(root))


def unavailable() -> str | None:
    """Why :func:`confine` cannot confine a process here (not Linux, no ``landlock`` package,
    a kernel without Landlock or with it disabled), or ``None`` when it can. Changes nothing."""
    if not sys.platform.startswith("linux"):
        return f"Landlock is Linux's; this is {sys.platform}"
    try:
        from landlock import landlock_abi_version  # type: ignore[import-untyped]
    except ImportError:
        return "the landlock package is not installed (pip install landlock)"
    try:
        version = landlock_abi_version()
    except OSError as error:
        return f"this kernel has no Landlock ({error})"
    return None if version >= 1 else "this kernel has no Landlock"


def confine(
    scratch: Path,
    package_dir: Path,
    *,
    also_read: Iterable[Path] = (),
    may_execute: bool = False,
) -> str | None:
    """Confine this process and all it starts later with Landlock, for good.

    Inputs: ``scratch``, the one folder the process may write in (created by the caller, made
    the process's ``TMPDIR``, ``HOME`` and ``IPYTHONDIR`` here); ``package_dir``, the
    ``agentcore`` folder; ``also_read``, files or folders readable besides :func:`read_roots`
    (nbgrader's kernel: its working folder and its one connection file); ``may_execute``,
    whether programs under the readable folders may be started (the player: no; nbgrader's
    kernel, started through :mod:`agentcore.course.judges.execute_kernel`: yes, it still runs
    confined). Call it before any other thread exists: Landlock confines the calling thread,
    and threads and processes inherit it from their creator.

    Returns ``None`` once confined, or why it could not be (not Linux, no ``landlock`` package,
    a kernel without Landlock or with it disabled); raises nothing."""
    reason = unavailable()
    if reason is not None:
        return reason
    from landlock import FSAccess, LandlockError, Ruleset

    try:
        everything = FSAccess.all()
        reading = FSAccess.READ_FILE | FSAccess.READ_DIR
        # IOCTL_DEV stays unhandled: it would refuse isatty() on /dev/null, and grants nothing
        # a grade could use
        handled = everything & ~FSAccess.IOCTL_DEV
        ruleset = Ruleset(restrict_rules=handled)
        if may_execute:
            reading |= FSAccess.EXECUTE
        for root in [*read_roots(package_dir), *(str(path) for path in also_read)]:
            ruleset.allow(root, rules=reading if os.path.isdir(root) else FSAccess.READ_FILE)
        ruleset.allow(str(scratch), rules=handled & ~FSAccess.EXECUTE)
        ruleset.allow(os.devnull, rules=FSAccess.READ_FILE | FSAccess.WRITE_FILE)
        for name in ("TMPDIR", "HOME", "IPYTHONDIR"):
            os.environ[name] = str(scratch)
        ruleset.apply()
    except (LandlockError, OSError) as error:
        return f"Landlock is not available here: {error}"
    scope_signals_and_sockets()
    return None


SCOPED_ABI = 6
"""The Landlock ABI (Linux 6.12) from which a ruleset can scope signals and abstract UNIX
sockets: a confined process may then signal, or connect to an abstract socket of, only
processes in its own Landlock domain (the kernel's Landlock documentation, "Scoping")."""

SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1
"""``LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET`` and ``LANDLOCK_SCOPE_SIGNAL`` (linux/landlock.h)."""


class _ScopedRulesetAttr(ctypes.Structure):
    """``struct landlock_ruleset_attr`` as of ABI 6 (the ``landlock`` package knows only its
    first field)."""

    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


def scope_signals_and_sockets() -> str | None:
    """Add a Landlock layer that scopes signals and abstract UNIX sockets to this process's
    domain, for good (call it after :func:`confine`'s filesystem layer, which set
    ``no_new_privs``). A confined player or Execute kernel then cannot stop, kill or forge
    signals to the grader's processes (a process left behind could otherwise kill every later
    grade's referee, or stop the launcher of nbgrader's kernel so that it never sweeps).

    Returns ``None`` once applied, or why not (a kernel older than :data:`SCOPED_ABI`: the
    filesystem confinement still holds, README says what then stays open)."""
    from landlock import landlock_abi_version
    from landlock.plumbing import (  # type: ignore[import-untyped]
        SYSCALL_CREATE_RULESET,
        SYSCALL_RESTRICT_SELF,
    )

    version = landlock_abi_version()
    if version < SCOPED_ABI:
        return f"Landlock ABI {version} cannot scope signals (ABI {SCOPED_ABI}, Linux 6.12)"
    libc = ctypes.CDLL(None, use_errno=True)
    attr = _ScopedRulesetAttr(0, 0, SCOPE_SIGNAL | SCOPE_ABSTRACT_UNIX_SOCKET)
    descriptor = libc.syscall(SYSCALL_CREATE_RULESET, ctypes.byref(attr), ctypes.sizeof(attr), 0)
    if descriptor < 0:
        return f"landlock_create_ruleset failed: {os.strerror(ctypes.get_errno())}"
    try:
        if libc.syscall(SYSCALL_RESTRICT_SELF, descriptor, 0) != 0:
            return f"landlock_restrict_self failed: {os.strerror(ctypes.get_errno())}"
    finally:
        os.close(descriptor)
    return None


PR_SET_CHILD_SUBREAPER = 36
"""Linux prctl(2) option: orphaned descendants are adopted by this process, not by init."""

MAX_SWEEPS = 100
"""How many times :func:`end_children` looks again for processes (each sweep kills what it
finds; a process adopted during one is found by the next)."""


def prctl(option: int, value: int) -> None:
    """Linux ``prctl(option, value)``; raises ``OSError`` when the kernel refuses it."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(option, value, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), f"prctl({option}) failed")


def become_subreaper() -> bool:
    """Make this process the child subreaper of all it starts (Linux): a descendant whose
    parent ends, however detached (``fork``, ``setsid``), is adopted here, where
    :func:`end_children` finds it. Returns whether that holds (``False`` off Linux)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        prctl(PR_SET_CHILD_SUBREAPER, 1)
    except OSError:
        return False
    return True


def children() -> set[int]:
    """The processes whose parent is this one, read from ``/proc`` (zombies included; empty
    where there is no ``/proc``)."""
    me, found = os.getpid(), set[int]()
    try:
        entries = list(os.scandir("/proc"))
    except OSError:
        return found
    for entry in entries:
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:  # it ended while we looked
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == me:
            found.add(int(entry.name))
    return found


def end_children(keep: Iterable[int] = ()) -> None:
    """Kill and reap every child of this process but ``keep``, and what they leave, until none
    is left (at most :data:`MAX_SWEEPS` rounds). With :func:`become_subreaper` this ends all
    that learner code started, however detached (such a process could edit the
    gradebook after the save, or kill every later grade)."""
    kept = set(keep)
    for _ in range(MAX_SWEEPS):
        left = children() - kept
        if not left:
            return
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for pid in left:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)


__all__ = [
    "SYSTEM_READ_ROOTS",
    "become_subreaper",
    "children",
    "confine",
    "end_children",
    "prctl",
    "read_roots",
    "scope_signals_and_sockets",
    "unavailable",
]
