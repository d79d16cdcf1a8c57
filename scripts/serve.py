"""Serve a class from this machine: ``python -m scripts.classroom serve`` and ``remove``.

``serve`` prepares the class folder (default ``/srv/agentcore-class``), then runs the hub
(``scripts.hub.running_hub``) until Ctrl-C:

1. refuses plain HTTP beyond loopback and a busy port before doing anything;
2. makes the teacher's checkout private (``chmod o-rwx``): it holds the solutions, and learners
   are system accounts on this machine;
3. builds the learner distribution into the class folder (``scripts.classroom``) and installs
   it into the learner environment (the first time about 30 s with pip's cache);
4. makes the system accounts that are missing (``scripts.accounts``): the teacher and one per
   roster name, each with a password of its own in the teacher-only ``hub/logins.csv``;
5. starts the hub and prints its address, the teacher's login and how learners log in.

Running ``serve`` again with the same folder keeps every account, password and learner's work;
a longer roster adds accounts. ``serve`` remembers its folder for the other commands
(``scripts.classroom.class_folder``). ``remove`` deletes the class's accounts (with their homes) and
the class folder, when the class is over.

Errors (printed, exit status 1): ``ValueError`` for options that cannot work together,
``RosterError``, ``AccountError``, ``PortBusy``, ``LeakError``; ``RuntimeError`` when the hub or
the learner environment does not start.
"""

from __future__ import annotations

import json
import pwd
import shutil
import signal
import stat
from pathlib import Path
from types import FrameType

from scripts.accounts import (
    Login,
    class_accounts,
    ensure_accounts,
    remove_accounts,
    trust_repository,
)
from scripts.classroom import ROOT, build_distribution, remember_class
from scripts.hub import (
    DISTRIBUTION,
    ClassFolder,
    Hub,
    Settings,
    check_port,
    learner_environment,
    pull_path,
    running_hub,
)

DEFAULT_FOLDER = Path("/srv/agentcore-class")


def protect_checkout(root: Path = ROOT) -> bool:
    """Take every permission of "others" off the teacher's checkout; True if it changed it."""
    mode = stat.S_IMODE(root.stat().st_mode)
    if not mode & 0o007:
        return False
    root.chmod(mode & ~0o007)
    return True


def prepare_class(folder: ClassFolder, settings: Settings) -> list[Login]:
    """Steps 1 to 4 of ``serve``: check, protect, distribute, install, make accounts.

    Returns every login (passwords only for accounts made now). Raises ``ValueError`` when the
    class folder is inside the checkout (learners could not reach it once it is private).
    """
    settings.check()
    check_port(settings.ip, settings.port)
    root = folder.root.resolve()
    if root == ROOT or ROOT in root.parents:
        raise ValueError(f"{root}: put the class folder outside the checkout (--folder)")
    if protect_checkout():
        print(f"made {ROOT} private (chmod o-rwx): it holds the solutions", flush=True)
    folder.prepare()
    commit = build_distribution(folder.distribution)
    if not folder.environment.exists():
        print("installing the learner environment (once; about 30 s with pip's cache)", flush=True)
    learner_environment(folder, commit)
    logins = ensure_accounts(list(settings.learners), settings.teacher, folder.homes, folder.logins)
    for login in logins:
        trust_repository(login.name, folder.distribution)
    record = folder.hub / "accounts.json"
    known = set(json.loads(record.read_text())) if record.exists() else set()
    record.write_text(json.dumps(sorted(known | {login.name for login in logins})) + "\n")
    return logins


def announce(hub: Hub, logins: list[Login]) -> str:
    """What ``serve`` prints once the hub is up: address, teacher's login, learners' logins."""
    teacher = next(login for login in logins if login.teacher)
    learners = [login for login in logins if not login.teacher]
    new = [login for login in learners if login.password]
    lines = [
        f"The class hub is running at {hub.url}/  (Ctrl-C stops it and every learner's server)",
        f"Teacher (hub admin): log in as {teacher.name!r}"
        + (f" with password {teacher.password}" if teacher.password else "")
        + f"; the admin page is {hub.url}/hub/admin",
        f"Learners ({len(learners)}): each logs in with their own name and password, listed in",
        f"  {hub.folder.logins} (teacher only): hand each learner their own line."
        + (f" {len(new)} accounts are new." if new else ""),
        "  Logging in pulls the course into their home and opens lesson 00; this link does the",
        f"  same for the Chinese lessons: {hub.url}/hub/user-redirect/"
        + pull_path(hub.folder, "zh-CN"),
        f"  Their copy is ~/{DISTRIBUTION}; a learner changes their password with `passwd` in a",
        "  JupyterLab terminal.",
    ]
    return "\n".join(lines)


def _stop(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def serve(folder: ClassFolder, settings: Settings) -> int:
    """Prepare the class and run its hub until Ctrl-C (or SIGTERM); the exit status."""
    # Ctrl-C stops the hub even when started from a script that ignores SIGINT (a shell's
    # background job does); the hub and its services inherit the default too, so they stop
    # at once when the hub stops them.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    logins = prepare_class(folder, settings)
    remember_class(folder.root)
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        with running_hub(folder, settings) as hub:
            print(announce(hub, logins), flush=True)
            try:
                hub.process.wait()
            except KeyboardInterrupt:
                # A second Ctrl-C must not cut the clean-up short.
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                print("\nstopping the hub, its proxy and every learner's server", flush=True)
            else:
                print(f"JupyterHub stopped by itself; see {hub.log}", flush=True)
                return 1
        print("stopped; the accounts and the learners' work are kept", flush=True)
        return 0
    finally:
        signal.signal(signal.SIGTERM, previous)
        signal.signal(signal.SIGINT, signal.default_int_handler)


def remove_class(folder: ClassFolder) -> list[str]:
    """Delete the class's accounts (with their homes) and the class folder; return the names.

    Only accounts this class made are removed: those recorded in ``hub/accounts.json`` that
    carry the class marker, and any marked account whose home is in this folder (a learner's
    or the teacher's in ``homes/``, the class's grader in ``grading/``). Another class's
    accounts, its grader too, stay.
    """
    record = folder.hub / "accounts.json"
    names = set(json.loads(record.read_text())) if record.exists() else set()
    homes = folder.homes.resolve()
    grading = (folder.root / "grading").resolve()
    for name in class_accounts():
        home = Path(pwd.getpwnam(name).pw_dir).resolve()
        if home.parent == homes or home == grading:
            names.add(name)
    removed = remove_accounts(sorted(names))
    shutil.rmtree(folder.root, ignore_errors=True)
    return removed
