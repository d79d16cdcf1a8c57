"""The Chinese web font the lesson website bundles: Chinese renders on a machine with no CJK font.

``bundle_cjk_font(static)`` unpacks Noto Sans SC from the npm package ``@fontsource/noto-sans-sc``
(SIL Open Font License 1.1, whose text it copies beside the font, as the license asks) into
``static/fonts/noto-sans-sc/``: the regular and bold weights as WOFF2 files, about 100 slices
each, and ``noto-sans-sc.css``, Fontsource's own ``@font-face`` rules for those weights with
their ``unicode-range``. A browser downloads a slice only when the page shows a character in
its range, so a lesson page loads the slices its Chinese needs, not the whole font. The CSS is
Fontsource's, with one change: each ``src`` names the WOFF2 file only (every browser that runs
JupyterLite reads WOFF2), so the older WOFF copies, which would double the size, stay out.
"""

from __future__ import annotations

import re
import shutil
import tarfile
from pathlib import Path

from scripts.site_fetch import npm_package

FONT_NPM = "@fontsource/noto-sans-sc@5.3.0"
"""The Fontsource release of Noto Sans SC the site bundles (npm)."""
FAMILY = "Noto Sans SC"
WEIGHTS = (400, 700)
"""Regular for the text, bold for ``**bold**`` (Chinese prose uses bold, never italics)."""
FONT_DIR = "fonts/noto-sans-sc"
"""Where the font goes, under the site's ``_static/``."""
CSS = "noto-sans-sc.css"
# Fontsource writes each face's source as the WOFF2 file, then the WOFF file of the same slice.
_SRC = re.compile(
    r"src: url\(\./files/(?P<woff2>[\w.-]+\.woff2)\) format\('woff2'\), "
    r"url\(\./files/[\w.-]+\.woff\) format\('woff'\);"
)


def bundle_cjk_font(static: Path) -> Path:
    """Unpack the font's WOFF2 slices of ``WEIGHTS``, its license and its CSS (WOFF2 only) into
    ``static/fonts/noto-sans-sc/``; returns the CSS file's path.

    Raises ``RuntimeError`` when npm fails (``scripts.site_fetch.npm_package``) or when the
    package's CSS is not laid out as Fontsource 5 writes it (a face whose ``src`` is not a
    WOFF2 and a WOFF file, or a file the CSS names that the package lacks): pinning another
    release needs this function checked against it.
    """
    archive = npm_package(FONT_NPM)
    target = static / FONT_DIR
    shutil.rmtree(target, ignore_errors=True)
    (target / "files").mkdir(parents=True)
    with tarfile.open(archive) as tar:

        def text(name: str) -> str:
            member = tar.extractfile(f"package/{name}")
            if member is None:
                raise RuntimeError(f"{FONT_NPM} has no file {name}")
            return member.read().decode("utf-8")

        rules: list[str] = []
        for weight in WEIGHTS:
            css = text(f"{weight}.css")
            faces = css.count("@font-face")
            rewritten, sources = _SRC.subn(r"src: url(./files/\g<woff2>) format('woff2');", css)
            if faces == 0 or sources != faces:
                raise RuntimeError(
                    f"{FONT_NPM} {weight}.css: {faces} @font-face rules but {sources} sources "
                    "of the form url(X.woff2) format('woff2'), url(X.woff) format('woff')"
                )
            rules.append(rewritten)
        wanted = set(re.findall(r"url\(\./files/([\w.-]+\.woff2)\)", "".join(rules)))
        for member in tar.getmembers():
            name = member.name.removeprefix("package/files/")
            if member.isfile() and name in wanted:
                extracted = tar.extractfile(member)
                assert extracted is not None  # a regular file always has content
                (target / "files" / name).write_bytes(extracted.read())
                wanted.discard(name)
        if wanted:
            raise RuntimeError(f"{FONT_NPM} lacks the files its CSS names: {sorted(wanted)}")
        (target / "LICENSE").write_text(text("LICENSE"), encoding="utf-8")
    header = (f"/* {FAMILY} from {FONT_NPM} (Fontsource), SIL Open Font License 1.1: see LICENSE "
              "beside this file. Fontsource's rules, WOFF2 only. */\n")  # fmt: skip
    (target / CSS).write_text(header + "\n".join(rules), encoding="utf-8")
    return target / CSS
