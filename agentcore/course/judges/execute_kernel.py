"""nbgrader's ``Execute`` kernel, confined like the player before it runs a cell.

``nbgrader autograde`` runs the submitted notebook in an ordinary kernel (nbgrader's
``Execute``) to fill in its outputs for the feedback. That kernel runs learner code as the
grader's own user, as a child of the nbgrader process: unconfined, it could open the nbgrader
process's memory through ``/proc/PID/mem`` and rewrite verdicts that process holds, or leave a
detached process that edits the gradebook once nbgrader has saved the grades.
:class:`ConfinedKernelManager` starts the kernel through this
module instead::

    python -I -m agentcore.course.judges.execute_kernel -- KERNEL COMMAND ...

whose kernel confines itself with :func:`agentcore.course.judges.sandbox.confine` (Landlock),
then becomes ``KERNEL COMMAND`` (``execve``; the confinement holds for it and for everything it
starts), and which ends every process the kernel leaves behind (:func:`main`). Confined, the
kernel writes only in a scratch folder (its ``HOME``, ``TMPDIR`` and ``IPYTHONDIR``); reads
only what Python imports from, the system's folders, its own working folder (the
submission's) and its one connection file (not the gradebook, not the teacher's source
notebook, not another kernel's connection file); and may not open another process's memory
(Landlock's ptrace rule), the nbgrader process's included.

Hidden tests that call :func:`agentcore.course.judges.grade.graded` in this kernel are told so
(``AGENTCORE_JUDGED_BEFORE_EXECUTE``) and raise at once: the grade was judged before this
kernel started, and :class:`~agentcore.course.judges.grade.GradeInFreshInterpreter` writes it.
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path

from jupyter_client.manager import AsyncKernelManager

from agentcore.course.judges.sandbox import become_subreaper, confine, end_children, prctl

JUDGED_BEFORE_EXECUTE = "AGENTCORE_JUDGED_BEFORE_EXECUTE"
"""Set in the confined kernel's environment: its hidden tests' verdicts are not the grade."""


class ConfinedKernelManager(AsyncKernelManager):
    """A jupyter_client kernel manager whose kernel is started through this module's launcher.

    :meth:`format_kernel_cmd` (jupyter_client's hook for the command that starts a kernel)
    puts ``python -I -m agentcore.course.judges.execute_kernel --`` in front of the kernel
    spec's command. Used by :class:`agentcore.course.judges.grade.ConfinedExecute` where
    :func:`~agentcore.course.judges.sandbox.unavailable` says Landlock is there."""

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        """The kernel spec's command (``[python, -m, ipykernel_launcher, -f, FILE, ...]``)
        started through the launcher: ``[python, -I, -m, this module, --, ...]``."""
        command = super().format_kernel_cmd(extra_arguments)
        return [sys.executable, "-I", "-m", __name__, "--", *command]


def connection_file(command: list[str]) -> Path | None:
    """The connection file a kernel command names (``-f FILE`` or ``--f=FILE``), if any."""
    for at, part in enumerate(command):
        if part == "-f" and at + 1 < len(command):
            return Path(command[at + 1])
        if part.startswith(("--f=", "-f=")):
            return Path(part.split("=", 1)[1])
    return None


PR_SET_PDEATHSIG = 1
"""Linux prctl(2) option: the signal this process gets when its parent dies."""


def main(argv: list[str]) -> None:
    """``-- COMMAND ...``: start ``COMMAND`` confined, wait for it, end what it left.

    The launcher stays outside the confinement, as the kernel's parent and the child subreaper
    of everything the kernel starts: it makes a scratch folder, forks the kernel (which confines
    itself, asks to be killed if the launcher dies, and becomes ``COMMAND``), waits for it,
    then kills every process the kernel left behind (a detached one included) and removes the
    scratch. A SIGINT (jupyter_client's interrupt, sent to the process group) is the kernel's
    alone; a SIGTERM kills the kernel, then the sweep runs. The kernel cannot stop or kill the
    launcher to skip the sweep: Landlock scopes its signals to its own domain where the system
    allows it (:func:`~agentcore.course.judges.sandbox.scope_signals_and_sockets`). Exits with
    the kernel's status; 2 and a message for other arguments; the kernel exits 3 if it could
    not be confined (the manager only uses this launcher where Landlock is there)."""
    if len(argv) < 2 or argv[0] != "--":
        sys.exit(f"usage: python -m {__name__} -- KERNEL COMMAND ...")
    command = argv[1:]
    readable = [Path.cwd()]
    connection = connection_file(command)
    if connection is not None:
        readable.append(connection)
    scratch = Path(tempfile.mkdtemp(prefix="agentcore-execute-"))
    become_subreaper()
    kernel = os.fork()
    if kernel == 0:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        package = Path(__file__).resolve().parents[2]
        reason = confine(scratch, package, also_read=readable, may_execute=True)
        if reason is not None:
            sys.stderr.write(f"the grading kernel could not be confined: {reason}\n")
            os._exit(3)
        os.environ[JUDGED_BEFORE_EXECUTE] = "1"
        os.execv(command[0], command)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # jupyter_client's terminate: end the kernel at once, so the sweep below still runs
    signal.signal(signal.SIGTERM, lambda *_: os.kill(kernel, signal.SIGKILL))
    _, status = os.waitpid(kernel, 0)
    end_children()
    shutil.rmtree(scratch, ignore_errors=True)
    sys.exit(os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main(sys.argv[1:])
