"""Hand in a lesson: ``python -m agentcore.course.submit notebooks/en/01-the-loop.ipynb``.

On a class hub, a learner submits a lesson when it is done (from a JupyterLab terminal, or a
notebook cell: ``from agentcore.course.submit import submit; submit("01-the-loop.ipynb")``).
Save the notebook first: what is submitted is the notebook as saved on disk.

:func:`submit` copies the saved lesson into the learner's own home,
``~/submissions/<lesson>-<language>/<time>/<lesson>.ipynb``, with a ``timestamp.txt`` in
nbgrader's format, folders mode 0700 and files 0600, so only the learner (and the teacher's
``collect``, which runs as root) can read it. Every submission is kept; the teacher's
``collect`` takes, for each lesson, the last one made before the lesson's deadline, or the last
one when none was on time (then it counts as late), as nbgrader's ``collect --before-duedate``
does. The time that counts is when the copy was written, as the file system records it (its
change time, which no learner can set back), not the time written in ``timestamp.txt``.

Input: the path of a lesson notebook whose folder is named after its language (``en`` or
``zh-CN``), as the learner copy of the course has them. Output: the submission's folder; the
command prints where it is and when it was made, in the lesson's language. Errors:
``ValueError`` for a path that is no lesson notebook (not a regular ``NN-*.ipynb`` file in an
``en`` or ``zh-CN`` folder), saying what to give instead; the command prints it and exits 1.
"""

from __future__ import annotations

import datetime
import itertools
import os
import re
import stat
import sys
from pathlib import Path

from agentcore.course.text import LANGUAGES, Language, phrase

SUBMISSIONS = "submissions"
"""The folder of the learner's home that holds every submission."""
TIMESTAMP_FORMAT = "%Y-%m-%d %H:%M:%S.%f UTC"
"""nbgrader's ``timestamp.txt`` format (``Exchange.timestamp_format`` with the zone named)."""
LESSON_NAME = re.compile(r"[0-9][0-9]-[A-Za-z0-9-]+\.ipynb")


def lesson_of(path: Path) -> tuple[str, Language]:
    """The assignment name (``01-the-loop-en``) and language of a lesson notebook's path.

    Raises ``ValueError`` when ``path`` is not a regular ``NN-*.ipynb`` file in an ``en`` or
    ``zh-CN`` folder (a solution notebook, a symbolic link, a copy elsewhere)."""
    language = path.parent.name
    if language not in LANGUAGES or not LESSON_NAME.fullmatch(path.name):
        raise ValueError(phrase("submit.not a lesson", "en", path=str(path)))
    lang: Language = "zh-CN" if language == "zh-CN" else "en"
    try:
        status = path.lstat()
    except OSError:
        raise ValueError(phrase("submit.no file", lang, path=str(path))) from None
    if not stat.S_ISREG(status.st_mode):
        raise ValueError(phrase("submit.not a lesson", lang, path=str(path)))
    return f"{path.stem}-{language}", lang


def submit(
    lesson: str | os.PathLike[str],
    home: Path | None = None,
    now: datetime.datetime | None = None,
) -> Path:
    """Copy the saved ``lesson`` into ``home``'s ``submissions/`` (default: the user's home);
    return the new submission's folder. ``now`` (any time zone, converted to UTC) is the time
    written in its ``timestamp.txt`` and the folder's name, default the current time; two
    submissions at the same instant get two folders (the second named ``...Z-1``). Raises
    ``ValueError`` (see the module), and for a ``now`` without a time zone."""
    path = Path(lesson).absolute()
    name, _ = lesson_of(path)
    if now is not None and now.utcoffset() is None:
        raise ValueError(f"now={now.isoformat()} has no time zone: give an aware datetime")
    moment = (now or datetime.datetime.now(datetime.timezone.utc)).astimezone(datetime.timezone.utc)
    home = home or Path.home()
    stamp = moment.strftime("%Y%m%dT%H%M%S%fZ")
    previous = os.umask(0o077)
    try:
        (home / SUBMISSIONS / name).mkdir(mode=0o700, parents=True, exist_ok=True)
        for count in itertools.count():
            folder = home / SUBMISSIONS / name / (f"{stamp}-{count}" if count else stamp)
            try:
                folder.mkdir(mode=0o700)
                break
            except FileExistsError:
                continue
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        with open(descriptor, "rb") as handle:
            data = handle.read()
        (folder / path.name).write_bytes(data)
        (folder / "timestamp.txt").write_text(moment.strftime(TIMESTAMP_FORMAT) + "\n")
    finally:
        os.umask(previous)
    return folder


def main(argv: list[str]) -> int:
    """``python -m agentcore.course.submit LESSON.ipynb``: submit it and say so; the status."""
    if len(argv) != 1 or argv[0].startswith("-"):
        print(phrase("submit.usage", "en"), file=sys.stderr)
        return 2
    try:
        name, language = lesson_of(Path(argv[0]).absolute())
        folder = submit(argv[0])
    except ValueError as error:
        print(error, file=sys.stderr)
        return 1
    moment = (folder / "timestamp.txt").read_text().strip().split(".")[0]
    print(phrase("submit.done", language, lesson=name, time=moment, folder=str(folder)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
