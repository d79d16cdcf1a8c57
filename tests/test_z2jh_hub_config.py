"""What deploy/z2jh/values.yaml makes of the hub, without Kubernetes.

The chart hands ``hub.config`` to JupyterHub as traitlets configuration and runs
``hub.extraConfig`` as Python in the hub's config file. Here the same configuration is loaded
into the authenticator class it names (NativeAuthenticator, from PyPI, resolved through
JupyterHub's ``jupyterhub.authenticators`` entry points as the hub resolves ``native``), with a
gradebook-free in-memory hub database, and the teacher's profile function is called for a
learner and for an admin. Then ``python -m scripts.z2jh`` writes the roster where
``python -m scripts.classroom progress`` reads it in the teacher's server (the class volume's
layout), and ``progress`` reports each learner. What Kubernetes does with the pods is not
tested.
"""

from __future__ import annotations

import copy
import stat
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml

from scripts import z2jh
from scripts.accounts import RosterError
from scripts.hub import DISTRIBUTION, ClassFolder

pytest.importorskip("nativeauthenticator", reason="needs the classroom extra")
from jupyterhub import orm
from nativeauthenticator.orm import UserInfo
from traitlets.config import Config

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy" / "z2jh"
LESSON = "03-errors.ipynb"


def values() -> dict[str, Any]:
    loaded = yaml.safe_load((DEPLOY / "values.yaml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def with_roster(base: dict[str, Any], roster_yaml: str) -> dict[str, Any]:
    """Helm's merge of a second values file over the first (mappings merge, lists replace)."""

    def merge(into: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
        result = copy.deepcopy(into)
        for key, value in new.items():
            if isinstance(value, dict) and isinstance(result.get(key), dict):
                result[key] = merge(result[key], value)
            else:
                result[key] = copy.deepcopy(value)
        return result

    return merge(base, yaml.safe_load(roster_yaml))


def authenticator(hub_config: dict[str, Any]) -> Any:
    """The configured authenticator, made as the hub makes it, on an empty hub database."""
    name = hub_config["JupyterHub"]["authenticator_class"]
    (found,) = entry_points(group="jupyterhub.authenticators", name=name)
    cls = found.load()
    session = orm.new_session_factory("sqlite://")()
    return cls(config=Config(copy.deepcopy(hub_config)), db=session)


def passwords(tree: Any) -> list[str]:
    """Every setting anywhere in ``tree`` whose name speaks of a password and whose value is
    text or a mapping (a password, or passwords by name): not a length or a switch."""
    if isinstance(tree, dict):
        named = [
            key
            for key, value in tree.items()
            if "password" in key.lower() and isinstance(value, (str, dict))
        ]
        return [*named, *(key for value in tree.values() for key in passwords(value))]
    if isinstance(tree, list):
        return [key for value in tree for key in passwords(value)]
    return []


def finished(coroutine: Any) -> Any:
    """The value of a coroutine that awaits nothing that suspends (NativeAuthenticator's
    ``authenticate`` reads the database and returns)."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    raise AssertionError("authenticate waited on something: it needs an event loop")


def test_only_the_roster_logs_in_and_nobody_has_a_password_before_signing_up() -> None:
    roster = z2jh.roster_values(["ada", "grace"], "mrs-lin")
    hub_config = with_roster(values(), roster)["hub"]["config"]
    auth = authenticator(hub_config)
    assert type(auth).__name__ == "NativeAuthenticator"
    assert auth.allowed_users == {"ada", "grace"}
    assert auth.admin_users == {"mrs-lin"}
    assert auth.allow_all is False and auth.open_signup is False
    # No password of any kind is configured (no shared or default password).
    assert passwords(hub_config) == []
    assert passwords({"DummyAuthenticator": {"password": "x"}}) == ["password"]
    assert "DummyAuthenticator" not in hub_config

    def log_in(name: str, password: str) -> str | None:
        data = {"username": name, "password": password}
        # Driven by hand, not by asyncio.run: this worker's thread may hold a running loop
        # (Playwright's), and the in-memory database lives in this thread only.
        result: str | None = finished(auth.authenticate(None, data))
        return result

    # Before signing up nobody logs in, the teacher neither, whatever the password.
    for name in ("mrs-lin", "teacher", "ada"):
        assert log_in(name, "") is None and log_in(name, name) is None
    # A password that is short or common is refused at sign-up.
    assert auth.create_user("ada", "short") is None
    assert auth.create_user("ada", "password123") is None
    # The teacher and a learner of the roster sign up and are let in at once...
    assert auth.create_user("mrs-lin", "a teacher's own words").is_authorized
    assert auth.create_user("ada", "ada's own long phrase").is_authorized
    assert log_in("ada", "ada's own long phrase") == "ada"
    assert log_in("ada", "a wrong long phrase") is None
    # ...a name off the roster may sign up but is not authorized, and is not allowed either.
    stranger = auth.create_user("mallory", "mallory's long phrase")
    assert stranger is not None and not stranger.is_authorized
    assert log_in("mallory", "mallory's long phrase") is None
    assert auth.check_allowed("mallory", None) is False
    assert auth.check_allowed("ada", None) is True
    assert UserInfo.find(auth.db, "grace") is None  # nobody made grace's account for her


def test_the_example_values_name_no_guessable_admin() -> None:
    hub_config = values()["hub"]["config"]
    assert hub_config["Authenticator"]["admin_users"] == ["TEACHER_NAME"]
    assert hub_config["Authenticator"]["allowed_users"] == ["learner01", "learner02", "learner03"]


def test_the_roster_values_refuse_a_bad_name_or_a_teacher_on_the_roster(tmp_path: Path) -> None:
    with pytest.raises(RosterError, match="not an account name"):
        z2jh.roster_values(["ada"], "Mrs Lin")
    with pytest.raises(RosterError, match="also on the roster"):
        z2jh.roster_values(["ada"], "ada")
    roster = tmp_path / "roster.txt"
    roster.write_text("ada\ngrace  # the second row\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "scripts.z2jh", "values", str(roster), "--teacher", "mrs-lin"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    printed = yaml.safe_load(done.stdout)["hub"]["config"]["Authenticator"]
    assert printed == {"allowed_users": ["ada", "grace"], "admin_users": ["mrs-lin"]}


def profiles(admin: bool) -> list[dict[str, Any]]:
    """What the values' extraConfig gives a hub admin, or a learner, to choose from."""
    config = Config()
    for name, code in values()["hub"]["extraConfig"].items():
        exec(compile(code, f"extraConfig {name}", "exec"), {"c": config})
    spawner = SimpleNamespace(user=SimpleNamespace(admin=admin, name="x"))
    result: list[dict[str, Any]] = config.KubeSpawner.profile_list(spawner)
    return result


def test_only_the_teacher_gets_the_profile_that_mounts_every_home() -> None:
    assert profiles(admin=False) == []
    learner, teacher = profiles(admin=True)
    assert learner["default"] is True and "kubespawner_override" not in learner
    mounts = teacher["kubespawner_override"]["volume_mounts"]
    storage = values()["singleuser"]["storage"]
    # The teacher's own home is mounted as every learner's is, and the whole volume beside it.
    assert {"name": "home", "mountPath": "/home/jovyan",
            "subPath": storage["static"]["subPath"]} in mounts  # fmt: skip
    assert {"name": "home", "mountPath": "/srv/agentcore-class"} in mounts
    assert storage["type"] == "static" and storage["static"]["subPath"] == "homes/{username}"


def saved_lesson(solved: bool) -> str:
    folder = ROOT / "notebooks" / "en"
    return (folder / "solutions" / LESSON if solved else folder / LESSON).read_text("utf-8")


def test_progress_runs_on_the_class_volume_from_the_roster(tmp_path: Path) -> None:
    """The class volume as the pods leave it: homes/NAME with the pulled lessons."""
    volume = tmp_path / "agentcore-class"
    folder = ClassFolder(volume)
    for learner, solved in (("ada", True), ("grace", False)):
        lesson = folder.homes / learner / DISTRIBUTION / "notebooks" / "en" / LESSON
        lesson.parent.mkdir(parents=True)
        lesson.write_text(saved_lesson(solved), encoding="utf-8")
    source = folder.distribution / "notebooks" / "en"
    source.mkdir(parents=True)
    (source / LESSON).write_text(saved_lesson(False), encoding="utf-8")
    roster = tmp_path / "roster.txt"
    roster.write_text("ada\ngrace\n", encoding="utf-8")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
        )

    # Not the class volume (no homes/): said so, nothing written.
    wrong = run("scripts.z2jh", "class-folder", str(roster), "--folder", str(tmp_path / "x"))
    assert wrong.returncode == 1 and "not the class volume" in wrong.stderr
    made = run("scripts.z2jh", "class-folder", str(roster), "--folder", str(volume))
    assert made.returncode == 0, made.stderr
    assert stat.S_IMODE(folder.hub.stat().st_mode) == 0o700
    assert stat.S_IMODE(folder.logins.stat().st_mode) == 0o600
    assert set(folder.passwords().values()) == {""}
    shown = run("scripts.classroom", "progress", "--folder", str(volume))
    assert shown.returncode == 0, shown.stderr
    rows = {line.split()[0]: line.split()[1:] for line in shown.stdout.splitlines()[1:3]}
    assert rows == {"ada": ["✔", "✔", "2/2"], "grace": ["·", "·", "0/2"]}
