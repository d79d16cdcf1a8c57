"""A class's system accounts: the roster, one Unix account per learner and the teacher.

JupyterHub's ``LocalProcessSpawner`` starts each learner's server as that learner's own Unix
user, and its default ``PAMAuthenticator`` checks the password against that account; the hub's
``allowed_users`` is the roster, so nobody else logs in (JupyterHub docs, "Authenticators" and
"Spawners"). These helpers make those accounts and remove them again:

- every account is made by ``useradd`` with its home in the class folder's ``homes/`` (mode
  0700, owned by the account), so no learner can read another's files;
- every account carries :data:`MARKER` in its comment (GECOS) field, and only accounts carrying
  it are ever changed or removed: a roster name that is already a system account of someone
  else is refused;
- each account gets a random password of its own (``chpasswd``), written once to the
  teacher-only ``logins.csv``; a restart never changes it (the learner may, with ``passwd`` in
  a JupyterLab terminal).

Needs root (``useradd``, ``chpasswd``, ``userdel``). Errors: ``RosterError`` for a roster that
cannot be used (the message names the line and the rule); ``AccountError`` for a name that
belongs to an account this class did not make, or when not run as root; a failing system
command raises ``subprocess.CalledProcessError``.
"""

from __future__ import annotations

import csv
import os
import pwd
import re
import secrets
import subprocess
from dataclasses import dataclass
from pathlib import Path

import psutil

MARKER = "agentcore-class"
# useradd's default NAME_REGEX on Debian, lower case only (JupyterHub lowercases names).
NAME = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")


class RosterError(ValueError):
    """The roster cannot be used; the message names the line and what was wrong."""


class AccountError(RuntimeError):
    """An account cannot be made or removed; the message says which and why."""


@dataclass(frozen=True)
class Login:
    """One person's login: the account name, the password (None if set earlier) and role."""

    name: str
    password: str | None
    teacher: bool


def read_roster(path: Path) -> list[str]:
    """Learner names from a roster file: one name per line, ``#`` comments and blanks skipped.

    Input: a text file (UTF-8). Output: the names in file order. Raises ``RosterError`` for a
    name that is not a valid account name (lower-case letters, digits, ``_`` and ``-``, at most
    32, not starting with a digit or ``-``), a repeated name, or an empty roster.
    """
    names: list[str] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        name = line.split("#", 1)[0].strip()
        if not name:
            continue
        if not NAME.match(name):
            raise RosterError(
                f"{path}:{number}: {name!r} is not an account name: use lower-case letters, "
                "digits, '_' and '-' (at most 32, starting with a letter or '_')"
            )
        if name in names:
            raise RosterError(f"{path}:{number}: {name!r} is listed twice")
        names.append(name)
    if not names:
        raise RosterError(f"{path}: no learner names (one name per line)")
    return names


def numbered_roster(count: int) -> list[str]:
    """``learner01`` … ``learnerNN`` for ``--learners N`` (1 <= N <= 999, else ``RosterError``)."""
    if not 1 <= count <= 999:
        raise RosterError(f"--learners {count}: give between 1 and 999 learners")
    width = max(2, len(str(count)))
    return [f"learner{index:0{width}d}" for index in range(1, count + 1)]


def ours(name: str) -> bool:
    """Whether a system account ``name`` exists and was made for a class (carries MARKER)."""
    try:
        return pwd.getpwnam(name).pw_gecos.startswith(MARKER)
    except KeyError:
        return False


def _require_root() -> None:
    if os.geteuid() != 0:
        raise AccountError(
            "a class hub makes one system account per learner: run it as root "
            "(JupyterHub's LocalProcessSpawner starts each server as its learner's user)"
        )


def ensure_accounts(names: list[str], teacher: str, homes: Path, logins: Path) -> list[Login]:
    """Make the accounts that are missing; return every login (passwords of new ones only).

    ``homes`` holds one home per account (mode 0700, the account's own); ``logins`` is the
    teacher-only CSV (``name,password,role``, mode 0600) that new passwords are appended to.
    Raises ``AccountError`` when a name is a system account this class did not make.
    """
    _require_root()
    homes.mkdir(parents=True, exist_ok=True)
    homes.chmod(0o755)
    people = [(teacher, True)] + [(name, False) for name in names if name != teacher]
    for name, _ in people:
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        if not ours(name):
            raise AccountError(
                f"{name!r} is already a system account that this class did not make: "
                "rename it in the roster (or pick another --teacher)"
            )
        if Path(pwd.getpwnam(name).pw_dir).parent.resolve() != homes.resolve():
            raise AccountError(
                f"{name!r} is an account of another class (home {pwd.getpwnam(name).pw_dir}): "
                "use that class's --folder, or rename it in the roster"
            )
    result: list[Login] = []
    new_rows: list[list[str]] = []
    for name, is_teacher in people:
        if ours(name):
            result.append(Login(name, None, is_teacher))
            continue
        home = homes / name
        subprocess.run(
            ["useradd", "--create-home", "--home-dir", str(home), "--shell", "/bin/bash",
             "--comment", f"{MARKER} {'teacher' if is_teacher else 'learner'}", "--user-group",
             name],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        home.chmod(0o700)
        password = secrets.token_urlsafe(9)
        subprocess.run(
            ["chpasswd"], input=f"{name}:{password}\n", check=True, capture_output=True, text=True
        )
        result.append(Login(name, password, is_teacher))
        new_rows.append([name, password, "teacher" if is_teacher else "learner"])
    if new_rows:
        fresh = not logins.exists()
        descriptor = os.open(logins, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with open(descriptor, "a", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            if fresh:
                writer.writerow(["name", "password", "role"])
            writer.writerows(new_rows)
    return result


def trust_repository(name: str, repository: Path) -> None:
    """Let the account's git read ``repository``, a repository another account owns.

    git refuses a repository owned by someone else ("dubious ownership") unless the reader's
    own configuration lists it in ``safe.directory`` (git-config(1)); the configuration that
    the environment can give (``GIT_CONFIG_COUNT``) is dropped for a local clone, so this
    writes the account's ``~/.gitconfig`` (kept, and the account's to change).
    """
    entry = pwd.getpwnam(name)
    config = Path(entry.pw_dir) / ".gitconfig"
    value = str(repository / ".git")
    listed = subprocess.run(
        ["git", "config", "--file", str(config), "--get-all", "safe.directory"],
        capture_output=True, text=True, check=False,
    ).stdout.split()  # fmt: skip
    if value in listed:
        return
    subprocess.run(
        ["git", "config", "--file", str(config), "--add", "safe.directory", value],
        check=True, capture_output=True,
    )  # fmt: skip
    os.chown(config, entry.pw_uid, entry.pw_gid)


def stop_user_processes(name: str) -> None:
    """Stop every process running as the account ``name`` (SIGTERM, then SIGKILL after 10 s)."""
    from scripts.hub import stop_processes

    uid = pwd.getpwnam(name).pw_uid
    stop_processes(
        [
            process.pid
            for process in psutil.process_iter(["uids"])
            if process.info["uids"] and process.info["uids"].real == uid
        ]
    )


def remove_accounts(names: list[str]) -> list[str]:
    """Remove the class's accounts among ``names`` with their homes; return those removed.

    Accounts without :data:`MARKER` are left alone (never someone else's account). Their
    processes are stopped first, as ``userdel`` refuses a logged-in user.
    """
    _require_root()
    removed = []
    for name in names:
        if not ours(name):
            continue
        stop_user_processes(name)
        subprocess.run(["userdel", "--remove", name], check=False, capture_output=True)
        if ours(name):
            raise AccountError(f"userdel could not remove {name!r}")
        removed.append(name)
    return removed


def class_accounts() -> list[str]:
    """Every system account made for a class (carrying :data:`MARKER`)."""
    return [entry.pw_name for entry in pwd.getpwall() if entry.pw_gecos.startswith(MARKER)]
