"""scripts/rise_patch.py: the patch that lets widgets render in RISE's slideshow (rise#126).

The edit is tested on a copy of the installed template: it goes right before RISE's bundle,
applying twice changes nothing, a changed script replaces the old block, and a template it does
not fit or a RISE version it was not tested with is refused. That the patched slideshow really
shows and steps the widget is tests/browser/test_slides_demo.py.
"""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

import jinja2
import pytest

from scripts import rise_patch


@pytest.fixture
def pristine(tmp_path: Path) -> Path:
    """A copy of the installed RISE template without the patch."""
    path = tmp_path / "index.html"
    installed = rise_patch.template().read_text(encoding="utf-8")
    path.write_text(rise_patch.without_patch(installed), encoding="utf-8")
    assert rise_patch.BEGIN not in path.read_text(encoding="utf-8")
    return path


def test_the_patch_goes_before_the_bundle_once(pristine: Path) -> None:
    original = pristine.read_text(encoding="utf-8")
    assert not rise_patch.is_applied(pristine)
    assert rise_patch.apply(pristine) is True
    patched = pristine.read_text(encoding="utf-8")
    assert patched.index(rise_patch.BEGIN) < patched.index(rise_patch.BUNDLE_TAG)
    assert "IConsoleTracker" in patched
    assert rise_patch.apply(pristine) is False
    assert pristine.read_text(encoding="utf-8") == patched
    assert rise_patch.is_applied(pristine)
    assert rise_patch.without_patch(patched) == original, "it adds its block, nothing else"
    assert patched.replace(rise_patch.block(), "") == original


def test_the_patched_template_renders_with_the_script_intact(pristine: Path) -> None:
    rise_patch.apply(pristine)
    page = jinja2.Template(pristine.read_text(encoding="utf-8")).render(
        page_config={"appName": "RISE", "fullStaticUrl": "/static/rise"}, base_url="/", ws_url=""
    )
    script = rise_patch.SCRIPT.read_text(encoding="utf-8")
    assert script in page
    assert page.index(script) < page.index('src="/static/rise/bundle.js"')


def test_an_older_block_is_replaced(pristine: Path) -> None:
    rise_patch.apply(pristine)
    text = pristine.read_text(encoding="utf-8")
    old = text.replace("No code consoles in a RISE slideshow", "an older wording")
    pristine.write_text(old, encoding="utf-8")
    assert not rise_patch.is_applied(pristine)
    assert rise_patch.apply(pristine) is True
    assert pristine.read_text(encoding="utf-8") == text


def test_a_template_without_the_bundle_tag_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "index.html"
    path.write_text("<html><body><script src='other.js'></script></body></html>")
    with pytest.raises(rise_patch.RisePatchError, match="does not fit"):
        rise_patch.apply(path)
    assert "agentcore" not in path.read_text()


def test_another_rise_version_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(metadata, "version", lambda name: "0.44.0")
    with pytest.raises(rise_patch.RisePatchError, match=r"0\.44\.0 is installed.*0\.43\.1"):
        rise_patch.template()


def test_the_pinned_rise_is_the_one_the_patch_fits() -> None:
    pyproject = (rise_patch.SCRIPT.parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert f'"jupyterlab-rise=={rise_patch.SUPPORTED[0]}"' in pyproject
    assert metadata.version("jupyterlab-rise") in rise_patch.SUPPORTED
