"""Every command README and docs/ give a user runs as written, or says why it cannot run here.

A command is one line of a shell block (a fence marked ``bash``, ``sh``, ``shell``, ``console``,
``powershell`` or ``cmd``) in README.md, README.zh-CN.md or any ``docs/**/*.md``: lines joined
where they end in ``\\``, a trailing ``# comment`` dropped. Each must be either

* **run by CI**: ``.ci/run`` has a line (continuations joined, comments dropped) that is that
  command, or that starts with it and chains more with ``&&`` or ``||``, or of which it is one
  of the ``&&``-chained parts; or
* **listed** in the table of docs/validating.md, section "What CI does not run", with the
  reason (a conda environment, a server that runs until Ctrl-C, a DeepSeek key, the local-model
  build, a cluster, docker).

The table lists nothing that no page gives any more, and docs/validating.zh-CN.md lists the
same commands.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHELLS = {"bash", "sh", "shell", "console", "powershell", "cmd"}
NOT_RUN = {"en": "## What CI does not run", "zh-CN": "## CI 不运行的命令"}
VALIDATING = {"en": ROOT / "docs" / "validating.md", "zh-CN": ROOT / "docs" / "validating.zh-CN.md"}


def pages() -> list[Path]:
    return [ROOT / "README.md", ROOT / "README.zh-CN.md", *sorted((ROOT / "docs").rglob("*.md"))]


def logical_lines(text: str) -> list[str]:
    """``text``'s lines with ``\\`` continuations joined, comments and blank lines dropped, and
    runs of whitespace made one space."""
    joined = re.sub(r"\\\n\s*", " ", text)
    lines = []
    for line in joined.splitlines():
        line = re.sub(r"(^|\s)#\s.*$", "", line).strip()
        if line and not line.startswith("#"):
            lines.append(" ".join(line.split()))
    return lines


def commands(path: Path) -> list[str]:
    """The commands of ``path``'s shell blocks, in order."""
    text = path.read_text(encoding="utf-8")
    fences = re.findall(r"^```(\w*)[^\n]*\n(.*?)^```", text, re.S | re.M)
    return [line for fence, body in fences if fence in SHELLS for line in logical_lines(body)]


def run_by_ci() -> set[str]:
    """Every command ``.ci/run`` runs: each line, each ``&&``/``||`` prefix and part of it."""
    ran: set[str] = set()
    for line in logical_lines((ROOT / ".ci" / "run").read_text(encoding="utf-8")):
        parts = re.split(r"\s+(?:&&|\|\|)\s+", line)
        ran.add(line)
        ran.update(parts)
        ran.update(" && ".join(parts[:end]) for end in range(1, len(parts) + 1))
    return ran


def not_run(language: str) -> dict[str, str]:
    """The table of docs/validating(.zh-CN).md listing what CI does not run: command -> reason."""
    text = VALIDATING[language].read_text(encoding="utf-8")
    start = text.index(NOT_RUN[language] + "\n")
    end = text.find("\n## ", start + 1)
    section = text[start : end if end != -1 else len(text)]
    rows = re.findall(r"^\| `(.+?)` \| (.+?) \|$", section, re.M)
    return {
        " ".join(command.replace("\\|", "|").split()): reason.strip() for command, reason in rows
    }


def test_commands_are_read_as_a_user_would_type_them() -> None:
    block = 'a \\\n  --b c    # a comment\n\n# only a comment\nd "#e"\n'
    assert logical_lines(block) == ["a --b c", 'd "#e"']


@pytest.mark.parametrize("path", pages(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_command_is_run_by_ci_or_listed_with_its_reason(path: Path) -> None:
    ran, listed = run_by_ci(), not_run("en")
    neither = [c for c in commands(path) if c not in ran and c not in listed]
    assert neither == [], (
        "run these verbatim in .ci/run, or list them with the reason in docs/validating.md"
    )


def test_the_list_holds_only_commands_a_page_gives_and_each_has_a_reason() -> None:
    given = {command for path in pages() for command in commands(path)}
    listed = not_run("en")
    assert listed, "the table in docs/validating.md was not found"
    assert set(listed) <= given, set(listed) - given
    assert all(len(reason) > 10 for reason in listed.values())
    assert not set(listed) & run_by_ci(), "listed as not run, yet .ci/run runs it"


def test_both_languages_list_the_same_commands() -> None:
    assert list(not_run("zh-CN")) == list(not_run("en"))


SERVERS = ("jupyter lab ", "python -m scripts.site serve")


def test_the_readme_commands_are_run_by_ci_but_its_servers() -> None:
    # README's own commands (install, run, test, build the site, copy the lessons) run in CI;
    # only the two that serve until Ctrl-C are listed.
    listed = not_run("en")
    for name in ("README.md", "README.zh-CN.md"):
        only_listed = [c for c in commands(ROOT / name) if c in listed]
        assert all(c.startswith(SERVERS) for c in only_listed), (name, only_listed)
