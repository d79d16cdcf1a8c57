"""Extract the message ids the code uses and check the message catalogs against them.

Usage (from the repository root, in the dev environment)::

    python -m scripts.catalog            # check; exit 1 and list every problem found
    python -m scripts.catalog --pot build/agentcore.pot   # also write the template (.pot)

The catalogs are ``agentcore/course/locale/<language>/LC_MESSAGES/agentcore.po`` (read at run
time by ``agentcore.course.text`` with polib). This script is the development side, with
Babel: it extracts the ids passed as a literal to ``phrase``/``say``/``_say`` (Babel's Python
extractor), reads both catalogs with Babel's reader (the parser Poedit-compatible tools rely on)
and reports, by :func:`problems`:

* a catalog that Babel cannot read, or without its ``Language``, ``Plural-Forms`` or UTF-8
  ``Content-Type`` header;
* a fuzzy or obsolete entry, or an empty ``msgstr``;
* a message in one catalog and not the other, or with different ``{placeholders}`` (except an
  English text that is the error's own message, ``{message}``, which the translation explains);
* an id the code passes that no catalog has, and a catalog entry no code uses.

Ids built at run time (``phrase(f"run status.{status}")``, ``"check." + key``) count as used
when the rest of the id is a string literal of the code (``"failed"``), or the id belongs to a
family in :data:`RUNTIME_FAMILIES` whose rest comes from data (an HTTP status, a class name).
The template is written only on request, to a git-ignored place: nothing generated is committed.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import json
import string
import sys
from collections.abc import Iterable
from pathlib import Path

import polib
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "agentcore"
LOCALE = PACKAGE / "course" / "locale"
CATALOGS = {
    "en": LOCALE / "en/LC_MESSAGES/agentcore.po",
    "zh_CN": LOCALE / "zh_CN/LC_MESSAGES/agentcore.po",
}
KEYWORDS = {"phrase": None, "say": None, "_say": None}
"""The functions whose first argument is a message id (Babel keyword specs: first argument)."""

RUNTIME_FAMILIES = {
    "provider status.": "the rest is a ProviderStatusError's HTTP status (text._explain_status)",
    "typed error.": "the rest is an exception class name, along the error's MRO (text.explain)",
    "server quirk.": "the rest is a ServerQuirkError's quirk (text._explain_quirk)",
    "server setup.": "the rest is a ChatProfile's name (text._explain_quirk, the doctor)",
}
"""Id prefixes whose rest is data, not a literal of the code, with where it comes from."""

DROPPED_PLACEHOLDERS = {
    "cli.other flag error": "argparse's English message is not repeated in the Chinese line",
    "final answer.tool failed": "the English message stays in the transcript; the answer says so",
}
"""Messages whose translation leaves out a placeholder of the English, and why."""


COMMANDS = (ROOT / "scripts" / "lessons.py", ROOT / "scripts" / "slides.py")
"""The course's own commands a learner or teacher runs (``my-work``, ``slides present``): what
they print is looked up in the catalogs too, in the language of the locale or ``--language``."""

LESSONS = ROOT / "notebooks" / "en"
"""The lessons' shared code cells print labels of the catalogs too (the same code in both
languages); the English solution notebooks (and a lesson without one) are their source."""


def lesson_code() -> dict[str, str]:
    """``notebooks/en/...ipynb#cell-N`` -> the Python source of that code cell."""
    sources: dict[str, str] = {}
    for path in sorted(LESSONS.rglob("[0-9][0-9]-*.ipynb")):
        if path.parent == LESSONS and (LESSONS / "solutions" / path.name).exists():
            continue  # a learner notebook, generated from its solution notebook
        for number, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"], 1):
            if cell["cell_type"] == "code":
                source = "".join(cell["source"])
                sources[f"{path.relative_to(ROOT)}#cell-{number}"] = source
    return sources


def _parsed(source: str) -> ast.AST | None:
    try:
        return ast.parse(source)
    except SyntaxError:  # a cell with IPython magics holds no message id
        return None


def extracted_ids() -> dict[str, list[str]]:
    """The literal message ids in the package's code, the lessons' code cells and the course's
    commands (:data:`COMMANDS`), with places."""
    found: dict[str, list[str]] = {}
    for place, source in lesson_code().items():
        tree = _parsed(source)
        for node in ast.walk(tree) if tree else ():
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in KEYWORDS
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.setdefault(node.args[0].value, []).append(f"{place}:{node.lineno}")
    # Babel warns on stderr about each f-string id; those are checked by is_used() instead.
    with contextlib.redirect_stderr(io.StringIO()):
        extracted = list(extract_from_dir(str(PACKAGE), [("**.py", "python")], keywords=KEYWORDS))
    for filename, lineno, message, _comments, _context in extracted:
        # A literal that ends in "." or "_" is the start of an id built at run time
        # ("check." + key); a blank one is cli._say's indent, which prints, not looks up.
        if isinstance(message, str) and message.strip() and not message.endswith((".", "_")):
            found.setdefault(message, []).append(f"agentcore/{filename}:{lineno}")
    for command in COMMANDS:
        with contextlib.redirect_stderr(io.StringIO()):
            extracted_here = list(extract_from_file("python", command, keywords=KEYWORDS))
        for lineno, message, _comments, _context in extracted_here:
            if isinstance(message, str) and message.strip() and not message.endswith((".", "_")):
                found.setdefault(message, []).append(f"{command.relative_to(ROOT)}:{lineno}")
    return found


def _code_literals() -> tuple[set[str], set[str]]:
    """(every string literal of the package, every literal prefix of an id built at run time)."""
    literals: set[str] = set()
    prefixes: set[str] = set()
    sources = [*sorted(PACKAGE.rglob("*.py")), *COMMANDS]
    trees = [ast.parse(path.read_text(encoding="utf-8")) for path in sources]
    trees += [tree for tree in map(_parsed, lesson_code().values()) if tree]
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                literals.add(node.value)
                if node.value.endswith((".", "_")):  # a prefix kept in a table, e.g. "job_"
                    prefixes.add(node.value)
            elif isinstance(node, ast.JoinedStr) and node.values:
                first = node.values[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    prefixes.add(first.value)
            elif (
                isinstance(node, ast.BinOp)
                and isinstance(node.op, ast.Add)
                and isinstance(node.left, ast.Constant)
                and isinstance(node.left.value, str)
            ):
                prefixes.add(node.left.value)
    return literals, {prefix for prefix in prefixes if prefix}


def is_used(msgid: str, literals: set[str], prefixes: set[str]) -> bool:
    """Whether the code can ask for ``msgid``: as a literal, or a run-time prefix + a literal."""
    if msgid in literals or msgid.startswith(tuple(RUNTIME_FAMILIES)):
        return True
    for prefix in prefixes:
        rest = msgid[len(prefix) :]
        if (
            msgid.startswith(prefix)
            and rest
            and (rest in literals or any(rest.startswith(inner) for inner in prefixes))
        ):
            return True
    return False


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _header_problems(name: str, path: Path) -> Iterable[str]:
    # The file's own header, as polib reads it: Babel fills in defaults for missing ones.
    headers = polib.pofile(str(path)).metadata
    if headers.get("Language") != name:
        yield f"{path}: the Language header should be {name!r}, not {headers.get('Language')!r}"
    if "charset=utf-8" not in headers.get("Content-Type", "").lower():
        yield f"{path}: the Content-Type header should say charset=UTF-8"
    if "nplurals=" not in headers.get("Plural-Forms", ""):
        yield f"{path}: the Plural-Forms header is missing"


def read_catalogs() -> tuple[dict[str, dict[str, str]], list[str]]:
    """Each catalog as {msgid: msgstr} (headers left out), and the problems found reading them."""
    messages: dict[str, dict[str, str]] = {}
    found: list[str] = []
    for name, path in CATALOGS.items():
        try:
            with path.open("rb") as file:
                catalog = read_po(file, abort_invalid=True)
            with path.open("rb") as file:
                obsolete = read_po(file, ignore_obsolete=False).obsolete
        except (OSError, ValueError) as error:
            found.append(f"{path}: Babel cannot read it: {error}")
            continue
        found += _header_problems(name, path)
        found += [f"{path}: obsolete entry {msgid!r}; delete it" for msgid in obsolete]
        messages[name] = {}
        for message in catalog:
            if not message.id:
                continue
            if not isinstance(message.id, str) or not isinstance(message.string, str):
                found.append(f"{path}: {message.id!r} has plural forms; the course uses none")
                continue
            if message.fuzzy:
                found.append(f"{path}: {message.id!r} is fuzzy; review it, then drop the flag")
            if not message.string:
                found.append(f"{path}: {message.id!r} has an empty msgstr")
            messages[name][message.id] = message.string
    return messages, found


def problems() -> list[str]:
    """Every problem of the catalogs against each other and against the code (see the module)."""
    messages, found = read_catalogs()
    if len(messages) < len(CATALOGS):
        return found
    english, chinese = messages["en"], messages["zh_CN"]
    for msgid in english.keys() - chinese.keys():
        found.append(f"{msgid!r} is in the en catalog, not the zh_CN one")
    for msgid in chinese.keys() - english.keys():
        found.append(f"{msgid!r} is in the zh_CN catalog, not the en one")
    for msgid in english.keys() & chinese.keys():
        en, zh = _fields(english[msgid]), _fields(chinese[msgid])
        if en != zh and english[msgid] != "{message}" and msgid not in DROPPED_PLACEHOLDERS:
            found.append(f"{msgid!r}: placeholders {sorted(en)} in en, {sorted(zh)} in zh_CN")
    for msgid, places in sorted(extracted_ids().items()):
        if msgid not in english:
            found.append(f"{msgid!r} is used at {', '.join(places)} but is in no catalog")
    literals, prefixes = _code_literals()
    for msgid in english:
        if not is_used(msgid, literals, prefixes):
            found.append(f"{msgid!r} is in the catalogs but no code uses it; delete it")
    return sorted(found)


def write_template(path: Path) -> int:
    """Write the ids of the en catalog, with the code's places, as a .pot; return their count."""
    places = extracted_ids()
    messages, _ = read_catalogs()
    template = Catalog(project="agentcore", charset="utf-8")
    for msgid in messages.get("en", {}):
        locations = [
            (place.rsplit(":", 1)[0], int(place.rsplit(":", 1)[1]))
            for place in places.get(msgid, [])
        ]
        template.add(msgid, locations=locations)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(file, template, width=0)
    return len(template)


def main(argv: list[str] | None = None) -> int:
    """Check the catalogs (and write the template if asked); 0 when clean, 1 otherwise."""
    parser = argparse.ArgumentParser(
        prog="python -m scripts.catalog", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--pot", type=Path, help="also write the extracted template here (e.g. build/agentcore.pot)"
    )
    args = parser.parse_args(argv)
    if args.pot:
        print(f"wrote {write_template(args.pot)} message ids to {args.pot}")
    found = problems()
    for problem in found:
        print(problem)
    checked = ", ".join(str(path.relative_to(ROOT)) for path in CATALOGS.values())
    print(f"{len(found)} problem(s) in {checked}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
