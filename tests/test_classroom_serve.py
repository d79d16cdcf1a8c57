"""``serve``'s checks that need no hub: the roster, plain HTTP beyond loopback, a busy port.

The classroom suite (tests/classroom) serves a whole class; these run everywhere, without root,
and assert that ``serve`` refuses before it changes anything on the machine.
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from scripts import classroom
from scripts.accounts import RosterError, numbered_roster, read_roster
from scripts.hub import PortBusy, Settings, check_port


def test_a_roster_is_one_account_name_per_line(tmp_path: Path) -> None:
    roster = tmp_path / "roster.txt"
    roster.write_text("# class A\nada\n\ngrace  # second row\nlinus-t\n")
    assert read_roster(roster) == ["ada", "grace", "linus-t"]
    for text, message in (
        ("ada\nAda Lovelace\n", r"roster.txt:2: 'Ada Lovelace' is not an account name"),
        ("ada\nada\n", r"roster.txt:2: 'ada' is listed twice"),
        ("# nobody\n", r"no learner names"),
    ):
        roster.write_text(text)
        with pytest.raises(RosterError, match=message):
            read_roster(roster)
    assert numbered_roster(3) == ["learner01", "learner02", "learner03"]
    with pytest.raises(RosterError, match="between 1 and 999"):
        numbered_roster(0)


def test_plain_http_beyond_loopback_is_refused_and_nothing_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "class"
    argv = ["serve", "--learners", "2", "--ip", "0.0.0.0", "--folder", str(folder)]
    assert classroom.main(argv) == 1
    error = capsys.readouterr().err
    assert "--ip 0.0.0.0 opens the hub beyond this machine" in error
    assert "--certificate and --key (HTTPS)" in error and "reverse proxy" in error
    assert not folder.exists()
    with pytest.raises(ValueError, match="both --certificate and --key"):
        Settings(("ada",), certificate=tmp_path / "cert.pem").check()
    Settings(("ada",), ip="127.0.0.1").check()  # loopback needs no certificate
    certificate, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    certificate.write_text("x")
    key.write_text("x")
    Settings(("ada",), ip="0.0.0.0", certificate=certificate, key=key).check()


def test_a_busy_port_is_refused_with_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        with pytest.raises(PortBusy, match=f"127.0.0.1:{port} is already in use"):
            check_port("127.0.0.1", port)
        folder = tmp_path / "class"
        argv = ["serve", "--learners", "2", "--port", str(port), "--folder", str(folder)]
        assert classroom.main(argv) == 1
        assert "choose another --port" in capsys.readouterr().err
        assert not folder.exists()


def test_the_class_folder_is_remembered_from_the_variable_or_the_last_serve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    remembered = tmp_path / "checkout" / ".classroom" / "class-folder"
    monkeypatch.setattr(classroom, "REMEMBERED", remembered)
    monkeypatch.delenv("AGENTCORE_CLASS", raising=False)
    english, chinese = tmp_path / "class-en", tmp_path / "class-zh"
    english.mkdir()
    chinese.mkdir()
    assert classroom.class_folder(None) == (Path("/srv/agentcore-class"), "the default")
    classroom.remember_class(english)  # what serve does
    assert classroom.class_folder(None)[0] == english
    monkeypatch.setenv("AGENTCORE_CLASS", str(chinese))
    assert classroom.class_folder(None) == (chinese, "from $AGENTCORE_CLASS")
    assert classroom.class_folder(tmp_path / "other") == (tmp_path / "other", "--folder")
    # A command without --folder says which class it works on.
    assert classroom.main(["progress"]) == 1
    out, err = capsys.readouterr()
    assert f"class folder: {chinese} (from $AGENTCORE_CLASS)" in out
    assert f"{chinese} holds no class (run serve first)" in err
    monkeypatch.delenv("AGENTCORE_CLASS")
    classroom.forget_class(chinese)  # another class removed: the remembered one stays
    assert classroom.class_folder(None)[0] == english
    classroom.forget_class(english)
    assert not remembered.exists()
    classroom.remember_class(english)
    english.rmdir()  # a remembered folder that is gone is not used
    assert classroom.class_folder(None) == (Path("/srv/agentcore-class"), "the default")
