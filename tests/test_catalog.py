"""The message catalogs (issue 20): gettext .po files a translator can open, checked with Babel.

* both catalogs are complete and agree: every message in both languages (non-empty), the same
  ``{placeholders}``, no fuzzy or obsolete entry, valid headers (``scripts/catalog.py``);
* every message id the code asks for exists and every catalog entry is used;
* the checker catches each of those faults in a written-down bad catalog;
* a missing or malformed catalog is a :class:`CatalogError` naming the file.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import polib
import pytest

from agentcore.course import text
from agentcore.course.text import CatalogError, phrase
from scripts import catalog


def test_both_catalogs_are_complete_agree_and_match_the_code() -> None:
    assert catalog.problems() == []


def test_the_catalogs_hold_the_messages_the_package_looks_up() -> None:
    assert len(text.all_keys()) > 250
    assert phrase("run status.failed", "zh-CN") == "失败"
    assert phrase("user request.convert", "en", city="Tokyo") == (
        "Read Tokyo's teaching weather and convert the temperature to Fahrenheit."
    )
    places = catalog.extracted_ids()["cli.usage"]
    assert places and all(place.startswith("agentcore/course/cli.py:") for place in places)


def test_an_id_in_a_lesson_cell_is_found_with_its_place(monkeypatch: pytest.MonkeyPatch) -> None:
    # Lesson code cells hold plain strings now; the extractor still reads them, so an id put
    # back into one is checked like the package's.
    cell = 'print(phrase("run status.failed"))\n'
    monkeypatch.setattr(catalog, "lesson_code", lambda: {"notebooks/en/x.ipynb#cell-3": cell})
    assert "notebooks/en/x.ipynb#cell-3:1" in catalog.extracted_ids()["run status.failed"]


@pytest.fixture
def copies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, polib.POFile]:
    """Both catalogs copied to ``tmp_path``; the checker reads the copies once they are saved."""
    files = {}
    for name, path in catalog.CATALOGS.items():
        copy = tmp_path / name / "agentcore.po"
        copy.parent.mkdir()
        copy.write_bytes(path.read_bytes())
        files[name] = copy
    monkeypatch.setattr(catalog, "CATALOGS", files)
    return {name: polib.pofile(str(path), wrapwidth=0) for name, path in files.items()}


def _save(copies: dict[str, polib.POFile]) -> list[str]:
    for name, po in copies.items():
        po.save(str(catalog.CATALOGS[name]))
    return catalog.problems()


def test_the_checker_finds_a_fuzzy_an_empty_and_a_changed_placeholder(
    copies: dict[str, polib.POFile],
) -> None:
    zh = copies["zh_CN"]
    zh.find("run status.failed").flags.append("fuzzy")
    zh.find("run status.running").msgstr = ""
    zh.find("user request.convert").msgstr = "读取{town}的教学天气。"
    found = "\n".join(_save(copies))
    assert "'run status.failed' is fuzzy" in found
    assert "'run status.running' has an empty msgstr" in found
    assert "'user request.convert': placeholders ['city'] in en, ['town'] in zh_CN" in found


def test_the_checker_finds_a_one_language_an_unused_and_a_missing_message(
    copies: dict[str, polib.POFile],
) -> None:
    copies["en"].append(polib.POEntry(msgid="nobody.asks for this", msgstr="Unused"))
    copies["zh_CN"].append(polib.POEntry(msgid="nobody.asks for this", msgstr="没人用"))
    copies["zh_CN"].append(polib.POEntry(msgid="only.chinese", msgstr="只有中文"))
    for po in copies.values():
        po.remove(po.find("cli.description"))
    found = "\n".join(_save(copies))
    assert "'nobody.asks for this' is in the catalogs but no code uses it" in found
    assert "'only.chinese' is in the zh_CN catalog, not the en one" in found
    assert "'cli.description' is used at agentcore/course/cli.py:" in found


def test_the_checker_finds_an_obsolete_entry_and_a_missing_header(
    copies: dict[str, polib.POFile],
) -> None:
    copies["en"].append(polib.POEntry(msgid="gone.old", msgstr="Old", obsolete=True))
    del copies["zh_CN"].metadata["Plural-Forms"]
    found = "\n".join(_save(copies))
    assert "obsolete entry 'gone.old'" in found
    assert "zh_CN/agentcore.po: the Plural-Forms header is missing" in found


@pytest.fixture
def broken_catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The zh-CN catalog read from ``tmp_path/agentcore.po`` (not created) while the test runs."""
    path = tmp_path / "agentcore.po"
    original = text._catalog_file
    monkeypatch.setattr(
        text, "_catalog_file", lambda language: path if language == "zh-CN" else original(language)
    )
    text._catalog.cache_clear()
    yield path
    monkeypatch.undo()
    text._catalog.cache_clear()


def test_a_missing_catalog_is_a_typed_error_naming_the_file(broken_catalog: Path) -> None:
    with pytest.raises(CatalogError, match=f"cannot read the message catalog {broken_catalog}"):
        phrase("run status.failed", "zh-CN")
    assert phrase("run status.failed", "en") == "failed"  # the other language still works


def test_a_malformed_catalog_is_a_typed_error_naming_the_file_and_line(
    broken_catalog: Path,
) -> None:
    broken_catalog.write_text('msgid "run status.failed"\n失败\n', encoding="utf-8")
    with pytest.raises(CatalogError, match=rf"{broken_catalog}: Syntax error .*\(line 2\)"):
        phrase("run status.failed", "zh-CN")


def test_an_empty_catalog_is_a_typed_error_too(broken_catalog: Path) -> None:
    broken_catalog.write_text("", encoding="utf-8")
    with pytest.raises(CatalogError, match="holds no messages"):
        phrase("run status.failed", "zh-CN")
