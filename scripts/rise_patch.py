"""Widgets in RISE slideshows: a small patch to jupyterlab-rise (jupyterlab-contrib/rise#126).

    python -m scripts.rise_patch          # apply (idempotent); restart JupyterLab afterwards
    python -m scripts.rise_patch check    # exit 1 if the installed RISE lacks the patch

Why: RISE presents a notebook in its own small JupyterLab application (``/rise/<path>``), and
that application provides no ``@jupyterlab/console`` module, which the ipywidgets front end
(jupyterlab_widgets 3.0.11 and later) imports; the widget manager then fails to load and every
widget shows only its text (upstream issue jupyterlab-contrib/rise#126, open, no fixed release).
The fix, ``scripts/rise_patch.js``, hands the widget manager a module holding only the optional
``IConsoleTracker`` token, so it loads without console support. It must run before RISE's bundle,
so this module inserts it, between two marker comments, into the page template RISE renders
(``jupyterlab_rise/templates/index.html``), right before the bundle's ``<script>`` tag.

It fits only the template of the versions in ``SUPPORTED`` (``pyproject.toml`` pins the same
range); for any other version it refuses with :class:`RisePatchError` rather than guess. Applying
twice changes nothing; a changed ``rise_patch.js`` replaces the block between the markers.
``tests/test_rise_patch.py`` tests the edit; ``tests/browser/test_slides_demo.py`` clicks Step in
the slideshow with the patch applied.
"""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

SUPPORTED = ("0.43.1",)
"""jupyterlab-rise versions whose template and application this patch was tested against."""
SCRIPT = Path(__file__).with_name("rise_patch.js")
BEGIN = "<!-- agentcore-course: widgets in slides (scripts/rise_patch.py) -->"
END = "<!-- agentcore-course: end -->"
BUNDLE_TAG = '<script src="{{page_config[\'fullStaticUrl\'] | e}}/bundle.js" main="index"></script>'


class RisePatchError(RuntimeError):
    """The installed jupyterlab-rise is missing, of another version, or its template differs."""


def template() -> Path:
    """The page template of the installed jupyterlab-rise, after checking its version.

    Raises :class:`RisePatchError` if jupyterlab-rise is not installed or not in ``SUPPORTED``.
    """
    try:
        version = metadata.version("jupyterlab-rise")
    except metadata.PackageNotFoundError:
        raise RisePatchError('jupyterlab-rise is not installed: pip install -e ".[dev]"') from None
    if version not in SUPPORTED:
        raise RisePatchError(
            f"jupyterlab-rise {version} is installed, but this patch fits only "
            f"{', '.join(SUPPORTED)}: install that (pyproject.toml pins it) or check whether "
            f"jupyterlab-contrib/rise#126 is fixed in {version} and retest the patch"
        )
    import jupyterlab_rise  # type: ignore[import-untyped]

    return Path(jupyterlab_rise.__file__).parent / "templates" / "index.html"


def block() -> str:
    """The text inserted into the template: markers around the script, kept raw for Jinja."""
    script = SCRIPT.read_text(encoding="utf-8")
    return f"{BEGIN}\n{{% raw %}}<script>\n{script}</script>{{% endraw %}}\n{END}\n    "


def without_patch(text: str) -> str:
    """``text`` (RISE's template) with the block between the markers taken out, if it is there."""
    if BEGIN not in text or END not in text:
        return text
    start = text.index(BEGIN)
    stop = text.index(END) + len(END) + len("\n    ")
    return text[:start] + text[stop:]


def patched(text: str) -> str:
    """``text`` (RISE's template) with the block before the bundle tag, replacing an older one.

    Raises :class:`RisePatchError` if the template has no bundle tag where the patch goes.
    """
    text = without_patch(text)
    if BUNDLE_TAG not in text:
        raise RisePatchError(
            "RISE's template has no bundle <script> tag where the patch goes; the patch "
            "does not fit this jupyterlab-rise"
        )
    index = text.index(BUNDLE_TAG)
    return text[:index] + block() + text[index:]


def is_applied(path: Path | None = None) -> bool:
    """Whether the template (default: the installed one) carries the current patch."""
    text = (path or template()).read_text(encoding="utf-8")
    return patched(text) == text


def apply(path: Path | None = None) -> bool:
    """Insert or refresh the patch in the template; return whether the file changed."""
    path = path or template()
    text = path.read_text(encoding="utf-8")
    new = patched(text)
    if new == text:
        return False
    path.write_text(new, encoding="utf-8")
    return True


def main(argv: list[str]) -> int:
    """``apply`` (default) or ``check``; the exit status. Errors are printed, status 2."""
    if argv not in ([], ["apply"], ["check"]):
        print("usage: python -m scripts.rise_patch [apply|check]", file=sys.stderr)
        return 2
    try:
        if argv == ["check"]:
            ok = is_applied()
            print(
                "RISE patch applied" if ok else "RISE patch missing: python -m scripts.rise_patch"
            )
            return 0 if ok else 1
        changed = apply()
    except RisePatchError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print("RISE patch applied (restart JupyterLab)" if changed else "RISE patch already applied")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
