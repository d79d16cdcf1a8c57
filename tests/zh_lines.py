"""Counting English lines in text meant for a Chinese reader (issue 14's measured target).

The rules are those of the course's measuring tool ``check_zh.py`` (shared with the lead),
copied here so that the project's own tests need nothing outside the repository. An "English
line" holds four or more consecutive English words separated by whitespace and prose
punctuation only. Skipped, because the course keeps them in English: printed source listings,
tracebacks, JSON and Python-literal lines and spans, ``Name(...)`` calls and reprs, ``<...>``
placeholders, inline code in backticks, URLs, code-looking lines, and an error message right
after an exception class name (the typed errors keep their English messages).
"""

from __future__ import annotations

import ast
import json
import re

CJK = re.compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]"
)
TOKEN = re.compile(r"-{0,2}[A-Za-z0-9_]+(?:['\u2019./-][A-Za-z0-9_]+)*")
WORD = re.compile(r"[A-Za-z]+(?:['\u2019][A-Za-z]+)*")
# Between two words of one run: spaces (at least one) and prose punctuation only.
GAP = re.compile(r"[\s,.;:!?'\"()\u2018\u2019\u201c\u201d\u2013\u2014*-]*")
EXC_NAME = r"[A-Z][A-Za-z0-9]*(?:Error|Exception|Exceeded|Warning|Exit|Interrupt|Iteration)"
EXC_MSG = re.compile(r"\b" + EXC_NAME + r"\b(?:\s+\d{3})?\s*(?:[:\uff1a]|\s-\s|\s\u2014\s)")
URL = re.compile(r"\b(?:https?|file|ftp)://\S+|\bwww\.\S+")
BACKTICKS = re.compile(r"``.*?``|`[^`\n]*`")
ANGLE = re.compile(r"<[^<>\n]{0,80}>")
CALL_START = re.compile(r"[A-Za-z_][\w.]*\(")
SRC_START = re.compile(r"^(\s*)(?:@[\w.]+|(?:async\s+)?def\s+\w+\s*\(|class\s+\w+\s*[(:])")
CODE_LINE = re.compile(
    r"^\s*(?:(?:async\s+)?def\s+\w+\s*\(|class\s+\w+\s*[(:]|(?:from\s+[\w.]+\s+)?import\s+[\w.]+"
    r"|@[\w.]+|>>>\s)"
    r"|\bdef\s+\w+\s*\(|\s=\s|\)\s*->\s*[^\n]*:\s*$"
)
JSON_START = re.compile(r"^[\[{]\s*(?:$|[\"'{\[\]}])")
JSON_KEY = re.compile(r"^\s*\"[^\"]*\"\s*:")
JSON_PUNCT = re.compile(r"^\s*[\[\]{}(),]+\s*$")
TRACEBACK = re.compile(r"^\s*Traceback \(most recent call last\)", re.M)


def _literal(text: str) -> bool:
    text = text.strip().rstrip(",")
    if not text:
        return False
    try:
        json.loads(text)
        return True
    except ValueError:
        pass
    try:
        ast.literal_eval(text)
        return True
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def skipped_lines(lines: list[str]) -> dict[int, str]:
    """Line index -> why it is skipped as a whole (source listing, traceback, JSON block)."""
    skip: dict[int, str] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        m = SRC_START.match(line)
        if m:  # a printed source listing: the def/class line and everything indented below it
            k = len(m.group(1))
            j = i + 1
            while j < len(lines):
                nxt = lines[j]
                if (
                    not nxt.strip()
                    or _indent(nxt) > k
                    or (_indent(nxt) == k and (nxt.strip()[0] in ")]}" or SRC_START.match(nxt)))
                ):
                    j += 1
                    continue
                break
            for t in range(i, j):
                skip[t] = "source"
            i = j
            continue
        if TRACEBACK.match(line):
            j = i + 1
            while j < len(lines) and (not lines[j].strip() or lines[j][0].isspace()):
                j += 1
            for t in range(i, min(j + 1, len(lines))):  # the final "SomeError: ..." line too
                skip[t] = "traceback"
            i = j + 1
            continue
        if JSON_START.match(line.strip()) and not _literal(line):
            for j in range(i + 1, min(i + 600, len(lines))):
                if _literal("\n".join(lines[i : j + 1])):
                    for t in range(i, j + 1):
                        skip[t] = "json"
                    break
            if i in skip:
                i = max(skip) + 1
                continue
        i += 1
    return skip


def _remove_calls(text: str) -> str:
    """Remove every `Name(...)` span (calls, reprs), balancing parentheses outside quotes."""
    text = text.replace("(s)", "s")
    out, pos = [], 0
    while True:
        m = CALL_START.search(text, pos)
        if not m:
            out.append(text[pos:])
            return "".join(out)
        out.append(text[pos : m.start()])
        depth, j, quote = 1, m.end(), None
        while j < len(text) and depth:
            ch = text[j]
            if quote:
                if ch == "\\":
                    j += 1
                elif ch == quote:
                    quote = None
            elif ch in "'\"" and not (
                ch == "'"
                and j > 0
                and text[j - 1].isalpha()
                and j + 1 < len(text)
                and text[j + 1].isalpha()
            ):
                quote = ch
            elif ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            j += 1
        pos = j


def _remove_literals(text: str) -> str:
    """Remove {...} and [...] spans that parse as JSON or a Python literal."""
    for _ in range(50):
        changed = False
        for m in re.finditer(r"[\[{]", text):
            start = m.start()
            close = "]" if text[start] == "[" else "}"
            end = start
            while True:
                end = text.find(close, end + 1)
                if end < 0:
                    break
                if _literal(text[start : end + 1]):
                    text = text[:start] + " \x00 " + text[end + 1 :]
                    changed = True
                    break
            if changed:
                break
        if not changed:
            return text
    return text


def prose(line: str) -> str | None:
    """The part of one output line that is prose, or None when the line is skipped whole."""
    s = line.strip()
    if not s:
        return None
    if (
        (JSON_START.match(s) and (_literal(s) or re.match(r"^[\[{]\s*[\"'{\[]", s)))
        or JSON_KEY.match(s)
        or JSON_PUNCT.match(s)
    ):
        return None
    if re.match(r'^\s*File "', line) or re.match(r"^\s*\^[\^~ ]*$", line):
        return None
    if CODE_LINE.search(line):
        return None
    text = BACKTICKS.sub(" \x00 ", line)
    text = URL.sub(" \x00 ", text)
    text = _remove_literals(text)
    m = EXC_MSG.search(text)
    if m:  # the typed errors keep their English message
        text = text[: m.start()]
    text = _remove_calls(text)
    text = ANGLE.sub(" \x00 ", text)
    return text


def english_run(text: str) -> int:
    """Length of the longest run of English words in ``text``."""
    best = run = 0
    prev_end = None
    for m in TOKEN.finditer(text):
        tok = m.group()
        is_word = (
            WORD.fullmatch(tok) is not None
            and (len(tok) >= 2 or tok in ("a", "A", "I"))
            and re.search(r"[a-z][A-Z]", tok) is None  # CamelCase: an identifier
            and "-" not in tok  # call-weather, zh-CN: ids, not prose
            and tok not in ("True", "False", "None")
        )
        gap = text[prev_end : m.start()] if prev_end is not None else ""
        if is_word and run and GAP.fullmatch(gap) and re.search(r"\s", gap):
            run += 1
        elif is_word:
            run = 1
        else:
            run = 0
        best = max(best, run)
        prev_end = m.end()
    return best


def english_lines(text: str) -> list[str]:
    lines = text.splitlines()
    skip = skipped_lines(lines)
    found = []
    for i, line in enumerate(lines):
        if i in skip:
            continue
        p = prose(line)
        if p is not None and english_run(p) >= 4:
            found.append(line)
    return found


def notebook_output_texts(cell: dict) -> list[str]:  # type: ignore[type-arg]
    """The text a learner reads in a code cell's outputs (streams and text/plain)."""
    texts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            text = out.get("text", "")
        elif out.get("output_type") in ("execute_result", "display_data"):
            text = out.get("data", {}).get("text/plain", "")
        else:
            continue
        texts.append("".join(text) if isinstance(text, list) else text)
    return texts


# --- issue 20: no English word at all in a zh-CN output line, outside the kinds kept English ---

_KEPT_ENGLISH = (
    # the glossary's terms that stay English in Chinese prose (docs/GLOSSARY.md)
    "Agent Runtime Tool Model Provider handler "
    "JSON API HTTP SDK SHA Python JupyterLab pydantic Bearer "
    # proper names of products, servers and wire formats
    "DeepSeek OpenAI Responses Chat Completions POST GET gzip openai deepseek "
    # wire text: roles, item types, a header name
    "user assistant tool system message reasoning authorization input "
    # the trace's event kinds and a run's status values (identifiers, printed as such)
    "ACTION OBSERVE FINAL DECIDE ERROR stop observe "
    # the options of the ready-made experiments (keyword arguments, lesson 06's appendix)
    "registered retries"
)
KEPT_ENGLISH = frozenset(_KEPT_ENGLISH.split())
"""English words a zh-CN output line may hold besides identifiers, reprs and error messages."""

QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|(?<![\w.])/[\w./-]+")
WIRE_JSON = re.compile(r"\"\w+\":")


def code_names(source: str) -> set[str]:
    """The Python names a code cell defines or uses (variables, attributes, arguments)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.arg) or (isinstance(node, ast.keyword) and node.arg):
            names.add(node.arg)
    return names


def foreign_words(line: str, allowed: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """The English words of one zh-CN output line that are not kept English on purpose.

    Kept, as issue 20 keeps them: whatever :func:`prose` skips (source listings, tracebacks,
    JSON, reprs, ``Name(...)`` calls, ``<...>``, backticks, URLs, a typed error's message after
    its class name), quoted strings (reprs and wire text), identifiers (underscores, dots,
    hyphens, inner capitals, digits), :data:`KEPT_ENGLISH` and the names in ``allowed`` (the
    cell's own variables and attributes, printed as labels of themselves).
    """
    text = prose(line)
    if text is None or WIRE_JSON.search(line):  # a line of pretty-printed wire JSON
        return []
    text = QUOTED.sub(" \x00 ", text)
    found = []
    for token in TOKEN.findall(text):
        word = token.lstrip("-")
        if (
            not WORD.fullmatch(word)
            or token.startswith("-")
            or re.search(r"[a-z][A-Z]", word)
            or (word.isupper() and len(word) <= 3)  # units and acronyms: F, C, ID
            or word in ("True", "False", "None", "Ellipsis")  # reprs of constants
            or word in KEPT_ENGLISH
            or word in allowed
            or (word[0].isupper() and EXC_NAME and re.fullmatch(EXC_NAME, word))
        ):
            continue
        found.append(word)
    return found


def foreign_lines(text: str, allowed: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """The lines of ``text`` holding at least one :func:`foreign_words` word."""
    lines = text.splitlines()
    skip = skipped_lines(lines)
    return [line for i, line in enumerate(lines) if i not in skip and foreign_words(line, allowed)]
