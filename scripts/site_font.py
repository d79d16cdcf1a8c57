"""The Chinese web font the lesson website bundles: Chinese renders on a machine with no CJK font.

``bundle_cjk_font(target, characters)`` unpacks Noto Sans SC from the npm package
``@fontsource/noto-sans-sc`` (SIL Open Font License 1.1, whose text it copies beside the font,
as the license asks) into ``target``: WOFF2 slices of the regular weight (``WEIGHTS``) and
``noto-sans-sc.css``, Fontsource's own ``@font-face`` rules for them with their
``unicode-range``. A browser downloads a slice only when the page shows a character in its
range. Given ``characters`` (the text of the pages that use it), only the slices that hold one
of them are kept, so the stylesheet a page loads is as short as the site allows. The CSS is
Fontsource's, with two changes:

* each ``src`` names the WOFF2 file only (every browser that runs JupyterLite reads WOFF2), so
  the older WOFF copies, which would double the size, stay out;
* the font covers CJK code points only, ``FIRST_CODE_POINT`` (U+2E80, CJK radicals) and up:
  the faces of Fontsource's Latin, Cyrillic and Vietnamese subsets are left out and the other
  faces' ranges cut there. So the font can come first in every font list of the site and draw
  all the Chinese (with the font after a generic family such as ``sans-serif``, Chromium on a
  machine with no CJK font drew some Chinese characters as empty boxes), while Latin letters,
  quotes and apostrophes (U+2018-U+201D), dashes and arrows fall through to the Latin fonts
  after it: English text reads "runtime's", never a full-width "runtime’ s".
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
WEIGHTS = (400,)
"""Regular only. Bold Chinese (headings, ``**bold**``) is the browser's synthetic bold of it: the
bold weight's own slices nearly doubled what a Chinese lesson page downloads (lesson 01:
1.18 MiB with them, measured 2026-12-07), past the 1.2 MB a page may weigh."""
FONT_DIR = "fonts/noto-sans-sc"
"""Where the font goes, under the site's ``_static/``."""
CSS = "noto-sans-sc.css"
FIRST_CODE_POINT = 0x2E80
"""The font covers this code point and up: CJK radicals, punctuation (、。「」), ideographs,
full-width forms (，：（）); never General Punctuation (U+2000-U+206F: quotes, dashes)."""
_FACE = re.compile(r"@font-face \{[^}]*\}")
_RANGE = re.compile(r"unicode-range: ([^;]+);")


def _from_first_code_point(face: str) -> str | None:
    """The ``@font-face`` rule ``face`` with its ``unicode-range`` cut to ``FIRST_CODE_POINT``
    and up, or ``None`` when nothing is left. Raises ``RuntimeError`` for a face without one."""
    found = _RANGE.search(face)
    if found is None:
        raise RuntimeError(f"{FONT_NPM}: a face with no unicode-range: {face}")
    kept = []
    for item in found.group(1).split(","):
        low, _, high = item.strip().removeprefix("U+").partition("-")
        start, end = int(low, 16), int(high or low, 16)
        if end >= FIRST_CODE_POINT:
            start = max(start, FIRST_CODE_POINT)
            kept.append(f"U+{start:x}" if start == end else f"U+{start:x}-{end:x}")
    if not kept:
        return None
    return face[: found.start(1)] + ",".join(kept) + face[found.end(1) :]


# Fontsource writes each face's source as the WOFF2 file, then the WOFF file of the same slice.
_SRC = re.compile(
    r"src: url\(\./files/(?P<woff2>[\w.-]+\.woff2)\) format\('woff2'\), "
    r"url\(\./files/[\w.-]+\.woff\) format\('woff'\);"
)


def _covers(face: str, code_points: set[int]) -> bool:
    """Whether the ``unicode-range`` of ``face`` holds one of ``code_points``."""
    found = _RANGE.search(face)
    assert found is not None  # every face kept by _from_first_code_point has one
    for item in found.group(1).split(","):
        low, _, high = item.strip().removeprefix("U+").partition("-")
        start, end = int(low, 16), int(high or low, 16)
        if any(start <= point <= end for point in code_points):
            return True
    return False


def bundle_cjk_font(target: Path, characters: str | None = None) -> Path:
    """Unpack the font's WOFF2 slices of ``WEIGHTS``, its license and its CSS (WOFF2 only) into
    the folder ``target`` (emptied first); returns the CSS file's path. With ``characters``,
    only the slices that hold one of them (the CJK ones) are kept; without, every slice.

    Raises ``RuntimeError`` when npm fails (``scripts.site_fetch.npm_package``) or when the
    package's CSS is not laid out as Fontsource 5 writes it (a face whose ``src`` is not a
    WOFF2 and a WOFF file, or a file the CSS names that the package lacks): pinning another
    release needs this function checked against it.
    """
    archive = npm_package(FONT_NPM)
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
            rules.extend(filter(None, map(_from_first_code_point, _FACE.findall(rewritten))))
        if characters is not None:
            wanted_points = {ord(c) for c in characters if ord(c) >= FIRST_CODE_POINT}
            rules = [face for face in rules if _covers(face, wanted_points)]
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
              "beside this file. Fontsource's rules, WOFF2 only, U+2E80 and up. */\n")  # fmt: skip
    (target / CSS).write_text(header + "\n\n".join(rules) + "\n", encoding="utf-8")
    return target / CSS
