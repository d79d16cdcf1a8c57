"""Every string the package shows, in English and Simplified Chinese, looked up by message id.

The course speaks two languages. Everything the package shows a learner (the weather task's
requests and answers, snapshot and widget labels, the command line's help and messages, the
experiments' titles, the explanation of an error) is a message of the gettext catalogs
``agentcore/course/locale/<language>/LC_MESSAGES/agentcore.po``: one ``.po`` file per
language, which Poedit or Weblate open, read at run time with ``polib`` (no compiled ``.mo``
file, so editable installs, wheels and the browser edition read the same files). The code holds
message ids only; the terms of ``docs/GLOSSARY.md`` are used the same way in both catalogs.
``python -m scripts.catalog`` extracts the ids the code uses (Babel) and checks the catalogs;
``notebooks/README.md`` says how to add a message.

* :data:`Language` and :func:`check_language`: the one language type and its check.
* :func:`set_language` / :func:`current_language`: the language used where a function's
  ``language`` argument is left out (a zh-CN lesson calls ``set_language("zh-CN")`` once, in
  its setup cell). The default is English.
* :func:`phrase`: the string for a key, in a language, with its fields filled in.
* :func:`explain`: a localized explanation of an error for display. The typed errors keep
  their English messages (what a learner searches for); this says the same for a reader.
* :func:`display_width` and :func:`pad`: columns that line up when they hold Chinese (a CJK
  character takes two columns of a terminal or a notebook's monospaced output).
* :func:`all_keys`, :func:`catalog_path` and :class:`CatalogError`: for tests and translators.

Message ids (gettext's ``msgid``) start with the glossary term they are about
(``"final answer"``, ``"model turn"``, ``"transcript"``...), then what the string is for; the
English catalog's ``msgstr`` is the English text.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping
from importlib import resources
from typing import TYPE_CHECKING, Literal

import polib

if TYPE_CHECKING:
    from importlib.abc import Traversable

Language = Literal["en", "zh-CN"]
"""The languages of the course: English and Simplified Chinese."""

LANGUAGES: tuple[Language, ...] = ("en", "zh-CN")

_current: list[Language] = ["en"]


def check_language(language: object) -> Language:
    """Return ``language`` if it is ``"en"`` or ``"zh-CN"``; raise ``ValueError`` otherwise."""
    if language == "en":
        return "en"
    if language == "zh-CN":
        return "zh-CN"
    raise ValueError(f"language must be one of {list(LANGUAGES)}, got {language!r}")


def set_language(language: Language) -> None:
    """Make ``language`` the default wherever a ``language`` argument is left out.

    Input: ``"en"`` or ``"zh-CN"``; ``ValueError`` otherwise. A zh-CN lesson calls
    ``set_language("zh-CN")`` once in its setup cell; requests, answers, snapshots, widgets
    and experiments built afterwards speak Chinese.
    """
    _current[0] = check_language(language)


def current_language() -> Language:
    """The language set by :func:`set_language` (``"en"`` until it is called)."""
    return _current[0]


def resolve_language(language: object = None) -> Language:
    """``language`` checked, or :func:`current_language` when it is ``None``."""
    return current_language() if language is None else check_language(language)


CATALOG_DIRECTORIES: Mapping[Language, str] = {"en": "en", "zh-CN": "zh_CN"}
"""The gettext locale folder of each language (gettext spells Simplified Chinese ``zh_CN``)."""


class CatalogError(ValueError):
    """A message catalog of the package is missing or cannot be read.

    Raised by :func:`phrase` (and everything that shows text) the first time a language is
    used; the message names the ``.po`` file and what is wrong with it (polib's syntax error
    and line, or the missing file). Fix or restore that file: ``python -m scripts.catalog``
    checks both catalogs.
    """


def catalog_path(language: Language) -> str:
    """The ``.po`` file of ``language``, as a path inside the installed package.

    Input: ``"en"`` or ``"zh-CN"`` (``ValueError`` otherwise). Output: a ``str`` path such as
    ``.../agentcore/course/locale/zh_CN/LC_MESSAGES/agentcore.po`` (the file may be missing;
    :func:`phrase` then raises :class:`CatalogError`).
    """
    return str(_catalog_file(check_language(language)))


def _catalog_file(language: Language) -> Traversable:
    folder = resources.files("agentcore.course") / "locale" / CATALOG_DIRECTORIES[language]
    return folder / "LC_MESSAGES" / "agentcore.po"


@functools.cache
def _catalog(language: Language) -> Mapping[str, str]:
    # Read once per process. Like msgfmt, fuzzy and obsolete entries are not messages;
    # an empty msgstr is a message not yet translated, so phrase() reports it as missing.
    # The text is read here, not by polib: given a missing path, polib parses the path itself.
    path = catalog_path(language)
    try:
        content = _catalog_file(language).read_text(encoding="utf-8")
        entries = polib.pofile(content, check_for_duplicates=True)
    except (OSError, ValueError) as error:  # missing file, syntax error, bad UTF-8, duplicate
        raise CatalogError(f"cannot read the message catalog {path}: {error}") from error
    if not entries:
        raise CatalogError(f"the message catalog {path} holds no messages")
    return {
        entry.msgid: entry.msgstr
        for entry in entries
        if entry.msgstr and not entry.obsolete and "fuzzy" not in entry.flags
    }


def phrase(key: str, language: Language | None = None, **fields: object) -> str:
    """The string for ``key`` in ``language`` (default: :func:`current_language`), filled in.

    Inputs: a message id of the catalogs (``"user request.convert"``...), an optional
    language, and the named fields its text holds (``{city}``, ``{count}``...). Raises
    ``KeyError`` for an id the language's catalog lacks (naming the id and the file),
    ``ValueError`` for an unknown language and :class:`CatalogError` for an unreadable catalog.
    """
    language = resolve_language(language)
    try:
        template = _catalog(language)[key]
    except KeyError:
        raise KeyError(f"no text for {key!r} in {catalog_path(language)}") from None
    return template.format(**fields) if fields else template


def display_width(text: str) -> int:
    """How many columns ``text`` takes in a monospaced font: 2 per wide or full-width character.

    Input: a ``str``. Output: an ``int`` >= 0. Wide (``W``) and full-width (``F``) characters of
    Unicode's East Asian Width property (UAX #11), Chinese and its punctuation included, count
    2; combining marks count 0; everything else 1. ``str.ljust`` and f-string widths count
    characters instead, so a column holding Chinese comes out too narrow.
    """
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def pad(value: object, width: int, right: bool = False) -> str:
    """``str(value)`` padded with spaces to ``width`` display columns (see :func:`display_width`).

    Inputs: any value, the column width in display columns, and ``right=True`` to align it to
    the right (numbers). Output: the padded ``str``; a value already wider is returned whole.
    """
    text = str(value)
    spaces = " " * max(0, width - display_width(text))
    return spaces + text if right else text + spaces


_WRAP_TOKEN = re.compile(r"\s+|[^\s\u2e80-\ufaff\uff00-\uffef]+|.", re.S)
_NO_LINE_START = set(",.;:?!)]}") | set(
    map(chr, (0xFF0C, 0x3002, 0x3001, 0xFF1B, 0xFF1A, 0xFF1F, 0xFF01, 0xFF09, 0x300B, 0x300D))
)
"""Punctuation that may not begin a line: the full-width comma, full stop, colon, closing
brackets and quotes of Chinese typesetting, and their ASCII twins."""


def wrap(text: str, width: int) -> list[str]:
    """``text`` broken into lines of at most ``width`` display columns (:func:`display_width`).

    Inputs: a ``str`` (its own newlines are kept) and the width in columns (>= 1). Output: a
    list of lines without trailing spaces. English words and identifiers are kept whole (a
    word wider than ``width`` gets a line of its own); Chinese may break between any two
    characters, except before closing punctuation (the full-width comma, full stop or closing
    bracket), which stays on the line before. ``textwrap`` counts characters instead, so its
    Chinese lines come out up to twice too wide.
    """
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for token in _WRAP_TOKEN.findall(paragraph):
            if token.isspace():
                line += " " if line else ""
                continue
            if line and display_width(line + token) > width and token[0] not in _NO_LINE_START:
                lines.append(line.rstrip())
                line = ""
            line += token
        lines.append(line.rstrip())
    return lines


def all_keys() -> tuple[str, ...]:
    """Every message id of the English catalog, in the file's order, for tests and translators.

    Raises :class:`CatalogError` if the catalog cannot be read.
    """
    return tuple(_catalog("en"))


def explain(error: BaseException, language: Language | None = None) -> str:
    """A localized explanation of ``error`` for display, in ``language``.

    Input: any exception (the runtime's typed errors, the provider errors, anything else) and
    ``"en"``/``"zh-CN"`` (default :func:`current_language`). Output: one or two sentences
    saying what went wrong and where to look. The error's own message stays English and is
    not changed. The explanation is chosen by the nearest class in the error's MRO that has
    one, by class name, so it also works for errors defined in other modules. Raises
    ``ValueError`` for an unknown language.
    """
    language = resolve_language(language)
    message = str(error)
    if type(error) is ValueError:  # a setting or argument with a bad value: say which and how
        return _explain_setting(message, language)
    for cls in type(error).__mro__:
        name = cls.__name__
        if f"typed error.{name}" not in _catalog("en"):
            continue
        if name == "ProviderConfigurationError":
            return _explain_configuration(message, language)
        if name == "ProviderSettingsError":
            return _explain_settings(error, message, language)
        if name == "ProviderStatusError":
            return _explain_status(error, message, language)
        if name == "ServerQuirkError":
            return _explain_quirk(error, language)
        if name == "ProviderResponseError":
            return _explain_response(error, message, language)
        if name == "StrictSchemaError" and _is_open_object(error):
            return phrase("typed error.StrictSchemaError.open object", language)
        return phrase(
            f"typed error.{name}",
            language,
            message=message,
            name=getattr(error, "name", ""),
            registered=", ".join(getattr(error, "registered", ())) or "-",
            tool=getattr(error, "tool", ""),
            turns=getattr(error, "model_turns", 0),
            variable=getattr(error, "variable", ""),
            field=_field_phrase(getattr(error, "field", ""), language),
        )
    if not isinstance(error, Exception):  # KeyboardInterrupt, SystemExit: a run interrupted
        return phrase("typed error.interrupted", language, type=type(error).__name__)
    return phrase("typed error.other", language, type=type(error).__name__)


_SETTING_PROBLEMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^(?P<name>\w+) must not be empty"), "setting.empty"),
    (re.compile(r"^api_key holds a space"), "setting.api key characters"),
    (re.compile(r"^api_key starts or ends with a quote mark"), "setting.api key quoted"),
    (re.compile(r"^api_key is an example value"), "setting.api key example"),
    (
        re.compile(r"^(?P<name>\w+) must be at most (?P<limit>\S+), got (?P<value>.+)$"),
        "setting.at most",
    ),
    (
        re.compile(r"^(?P<name>\w+) must be at least (?P<limit>\S+), got (?P<value>.+)$"),
        "setting.at least",
    ),
    (
        re.compile(r"^timeout must be a positive number of seconds, got (?P<value>.+)$"),
        "setting.timeout",
    ),
    (
        re.compile(r"^(?P<name>\w+) must be (?:one of )?(?P<choices>.+?),? got (?P<value>.+)$"),
        "setting.choice",
    ),
    (re.compile(r"^the (?P<profile>'[^']+') profile does not support strict"), "setting.strict"),
)
"""The ``ValueError`` messages of the settings (``agentcore.providers.connection``,
``deepseek_settings``, ``openai_compatible``, ``validation``, ``runtime``), each with its
explanation; any other ``ValueError`` gets ``typed error.ValueError``."""


def _explain_setting(message: str, language: Language) -> str:
    for pattern, key in _SETTING_PROBLEMS:
        if match := pattern.match(message):
            return phrase(key, language, **match.groupdict())
    return phrase("typed error.ValueError", language)


def _is_open_object(error: BaseException) -> bool:
    """Whether a ``StrictSchemaError`` is about an object that allows undeclared keys (a
    model without ``extra='forbid'``, the usual slip in a first arguments model)."""
    from agentcore.strict_schema import CLOSE_THE_OBJECT

    return getattr(error, "instead", None) == CLOSE_THE_OBJECT


def _field_phrase(field: object, language: Language) -> str:
    """Where a schema refusal is, for its explanation: a field path, or the arguments object."""
    if isinstance(field, str) and field:
        return phrase("typed error.StrictSchemaError.field", language, field=field)
    return phrase("typed error.StrictSchemaError.arguments", language)


def _explain_configuration(message: str, language: Language) -> str:
    commands = re.findall(r"`([^`]*)`", message)
    names = [name for name in ("DEEPSEEK_API_KEY", "DEEPSEEK_MODEL") if name in message]
    if language == "en":
        return message
    if len(commands) != 3 or not names or "not set" not in message:
        return phrase("typed error.ProviderConfigurationError.other", language, message=message)
    bash, powershell, cmd = (f"`{command}`" for command in commands)
    return phrase(
        "typed error.ProviderConfigurationError",
        language,
        names=phrase("typed error.ProviderConfigurationError.and", language).join(names),
        bash=bash,
        powershell=powershell,
        cmd=cmd,
    )


def _explain_settings(error: BaseException, message: str, language: Language) -> str:
    """A connection setting's explanation: the fix for that kind of setting (a proxy variable,
    a certificate variable, the base URL), said in ``language``."""
    variable = str(getattr(error, "variable", ""))
    if variable.upper().endswith("_PROXY"):
        fix = "proxy"
    elif variable.startswith("SSL_CERT_"):
        fix = "certificate"
    elif variable == "base_url":
        fix = "base url"
    else:
        fix = "other"
    return phrase(
        "typed error.ProviderSettingsError",
        language,
        message=message,
        variable=variable,
        fix=phrase(f"typed error.ProviderSettingsError.{fix}", language),
    )


def _explain_response(error: BaseException, message: str, language: Language) -> str:
    """A refused reply's explanation: the one of its cause (the error's ``kind``, a key of
    :data:`~agentcore.providers.errors.RESPONSE_KINDS`), else the one every refused reply
    shares."""
    key = f"typed error.ProviderResponseError.{getattr(error, 'kind', '')}"
    if key not in _catalog("en"):
        key = "typed error.ProviderResponseError"
    address = phrase("provider reply.address", language)
    return phrase(key, language, message=message, address=address)


def _explain_quirk(error: BaseException, language: Language) -> str:
    # Each quirk's explanation, with the setup of the server the profile names.
    quirk, profile = getattr(error, "quirk", ""), getattr(error, "profile", "")
    key = f"server quirk.{quirk}"
    if key not in _catalog("en"):
        return phrase("typed error.ProviderResponseError", language, message=str(error))
    setup_key = f"server setup.{profile}"
    setup = phrase(setup_key if setup_key in _catalog("en") else "server setup.generic", language)
    return phrase(key, language, setup=setup)


def _explain_status(error: BaseException, message: str, language: Language) -> str:
    if language == "en":
        return message
    status = getattr(error, "status_code", None)
    kind = getattr(error, "kind", None)  # a 400 with its own cause ("reasoning dropped", ...)
    if isinstance(kind, str) and f"provider status.{kind}" in _catalog("en"):
        hint_key = f"provider status.{kind}"
    elif isinstance(status, int) and 500 <= status <= 599:
        hint_key = "provider status.5xx"
    elif f"provider status.{status}" in _catalog("en"):
        hint_key = f"provider status.{status}"
    else:
        hint_key = "provider status.other"
    # A server other than DeepSeek's adapters has its own words (model, base_url, api_key).
    own = hint_key.replace("provider status.", f"provider status.{getattr(error, 'hints', '')} ")
    if own in _catalog("en"):
        hint_key = own
    return phrase(
        "typed error.ProviderStatusError", language, status=status, hint=phrase(hint_key, language)
    )
