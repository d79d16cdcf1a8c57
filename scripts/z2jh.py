"""A class on Zero to JupyterHub (Kubernetes): the roster in the chart's values, and the class
folder that ``python -m scripts.classroom progress`` reads in the teacher's server.

    python -m scripts.z2jh values ROSTER --teacher NAME > roster-values.yaml
    python -m scripts.z2jh class-folder ROSTER [--folder /srv/agentcore-class]

``values`` prints a Helm values file that sets the hub's allow-list (``allowed_users``, the
roster) and its one admin (``admin_users``, the teacher); given to ``helm upgrade --install``
after ``deploy/z2jh/values.yaml`` (``--values values.yaml --values roster-values.yaml``), it
replaces the example names there (Helm replaces lists, it does not merge them).

``class-folder`` runs in the teacher's server (the "Teacher" profile of
``deploy/z2jh/values.yaml``, where the class volume is mounted at ``/srv/agentcore-class`` and
every learner's home is ``homes/NAME`` in it). It writes ``hub/logins.csv`` (the roster, mode
0600, in ``hub/``, mode 0700) in the layout of :class:`scripts.hub.ClassFolder`, so that
``progress`` finds the learners there. It holds no password: on Kubernetes each person chose
theirs at sign-up, and the hub keeps them.

Input: a roster file, one learner name per line (:func:`scripts.accounts.read_roster`). Errors:
``RosterError`` for a bad roster or a teacher's name that is not an account name (the message
says which line and why); ``ValueError`` for a class folder without ``homes/`` (not the class
volume).
"""

from __future__ import annotations

import csv
import os
import sys
from pathlib import Path

import yaml

from scripts.accounts import NAME, RosterError, read_roster
from scripts.hub import ClassFolder


def roster_values(learners: list[str], teacher: str) -> str:
    """The Helm values (YAML text) that make ``learners`` the allow-list and ``teacher`` the
    one admin. Raises ``RosterError`` for a teacher's name that is not an account name, or one
    that is also on the roster."""
    if not NAME.match(teacher):
        raise RosterError(
            f"--teacher {teacher!r} is not an account name: use lower-case letters, digits, "
            "'_' and '-' (at most 32, starting with a letter or '_')"
        )
    if teacher in learners:
        raise RosterError(f"--teacher {teacher!r} is also on the roster: give another name")
    values = {
        "hub": {
            "config": {"Authenticator": {"allowed_users": list(learners), "admin_users": [teacher]}}
        }
    }
    header = "# The class's roster for deploy/z2jh/values.yaml (python -m scripts.z2jh values).\n"
    return header + str(yaml.safe_dump(values, sort_keys=False))


def write_class_folder(folder: ClassFolder, learners: list[str]) -> Path:
    """Write ``hub/logins.csv`` (``name,password,role``; no passwords) for ``learners`` in the
    class folder on the class volume; return its path. Raises ``ValueError`` when the folder
    has no ``homes/`` (the learners' homes: it is not the class volume)."""
    if not folder.homes.is_dir():
        raise ValueError(
            f"{folder.homes} is missing: {folder.root} is not the class volume (start your "
            "server with the Teacher profile, which mounts it at /srv/agentcore-class)"
        )
    folder.hub.mkdir(mode=0o700, exist_ok=True)
    folder.hub.chmod(0o700)
    partial = folder.logins.with_suffix(".tmp")
    partial.unlink(missing_ok=True)
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with open(descriptor, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["name", "password", "role"])
        writer.writerows([name, "", "learner"] for name in learners)
    partial.replace(folder.logins)
    return folder.logins


def main(argv: list[str]) -> int:
    """The command line (``--help``); the exit status."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m scripts.z2jh",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    values = commands.add_parser("values", help="print the roster as Helm values")
    values.add_argument("roster", type=Path, help="one learner name per line")
    values.add_argument("--teacher", required=True, help="the teacher's login (the hub admin)")
    folder = commands.add_parser("class-folder", help="the roster where progress reads it")
    folder.add_argument("roster", type=Path, help="one learner name per line")
    folder.add_argument("--folder", type=Path, default=Path("/srv/agentcore-class"))
    args = parser.parse_args(argv)
    try:
        learners = read_roster(args.roster)
        if args.command == "values":
            print(roster_values(learners, args.teacher), end="")
        else:
            path = write_class_folder(ClassFolder(args.folder.resolve()), learners)
            print(f"{len(learners)} learners in {path}")
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
