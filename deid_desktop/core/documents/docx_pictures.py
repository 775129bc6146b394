"""Pictures in a Word file read by OCR, and their PHI painted out of the pixels on export.

A photographed referral form or a scanned letter pasted into a note is text the reader
cannot see in the XML. Each picture the story parts show (body, headers, footers, notes;
each picture part once, in the order the parts first show it) is decoded upright (EXIF
orientation applied), turned to grey on white, straightened and cleaned (``ocr.read_image``)
and read by Tesseract.

Which pictures count (``ocr``, ``ocr.holds_text``): "auto" those where OCR reads at least
``ocr.MIN_SURE_WORDS`` words of two or more letters or digits at ``ocr.LOW_CONFIDENCE`` or
better (text, not a photo's texture); "always" every picture OCR reads anything from;
"never" none.

Where the text goes: after all the story text (after the footers), one block per picture,
each block preceded by a blank line. Not where the picture is anchored: there, its words
would sit between the text items of a paragraph, and every offset of the source map the
Word writer edits by would shift; as a block of its own the picture's text touches no Word
segment, and the reviewer reads each form whole rather than spliced into a sentence. The
warning names how many pictures were read, and the Text tab shows the blocks last.

Source map: one Segment per word, locator ``{"picture": part name, "line": k, "box":
[x0, y0, x1, y1] (pixels of the upright picture), "ocr_box": [...] (pixels of the
straightened frame), "conf": c}``; no "part" key, so the Word writer's text edits never
see them. ``meta["pictures"]`` lists each read picture (part, angle, size, words, mean
confidence) and ``meta["ocr"]`` the figures a report gives (pictures read, words, mean
confidence, low-confidence word offsets).

On export (``paint``), every word box a replacement touches is filled in the upright
picture's pixels (white, or black for blacked-out values) and the surrogate or tag drawn at
the line's size (``ocr_write.burn``); the picture is then re-encoded from its pixels alone
(``images.reencode``), so nothing of the original file travels on.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lxml import etree

from ..errors import IngestError
from .docx_xml import R_ID
from .images import open_upright
from .model import Replacement, Segment
from .opc import OpcPackage

log = logging.getLogger(__name__)

R_NS = R_ID.split("}")[0][1:]
_REFERENCE_ATTRIBUTES = (f"{{{R_NS}}}embed", f"{{{R_NS}}}id", f"{{{R_NS}}}link")
_MIN_SIDE = 24  # pixels: icons, bullets and rules hold no readable text
PICTURE_SEPARATOR = "\n\n"
# A picture is read as if scanned at this resolution: it only sets the (unused) size in points.
_PICTURE_DPI = 300


def pictures_in_order(pkg: OpcPackage, parts: list[str], roots: dict[str, etree._Element]) -> list[str]:
    """Picture parts the story parts show, each once, in the order they first appear."""
    found: list[str] = []
    for part in parts:
        rels = {r.id: r for r in pkg.relationships(part)}
        for el in roots[part].iter():
            for attr in _REFERENCE_ATTRIBUTES:
                rid = el.get(attr)
                rel = rels.get(rid) if rid else None
                if rel is None or rel.external or rel.kind != "image":
                    continue
                name = pkg.find(rel.target)
                if name is not None and not name.lower().endswith((".xml", ".svg", ".vml")):
                    found.append(name)
    return list(dict.fromkeys(found))


@dataclass
class PictureText:
    """What OCR read from a Word file's pictures, laid out after the story text."""

    text: str = ""
    segments: list[Segment] = field(default_factory=list)
    pictures: list[dict[str, Any]] = field(default_factory=list)
    low: list[list[int]] = field(default_factory=list)
    confidences: list[float] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    ran: bool = False  # whether OCR looked at the pictures at all

    def summary(self) -> dict[str, Any]:
        """What a report may say (counts and offsets, never text)."""
        mean = sum(self.confidences) / len(self.confidences) if self.confidences else 0.0
        return {
            "pictures": list(range(1, len(self.pictures) + 1)),
            "words": len(self.confidences),
            "mean_conf": round(mean, 1),
            "low_confidence": self.low,
        }


def read_pictures(pkg: OpcPackage, names: list[str], start: int, ocr: str, path: str | Path) -> PictureText:
    """OCR of the pictures ``names`` whose text counts under ``ocr``, as blocks starting at
    text offset ``start`` (each after ``PICTURE_SEPARATOR``)."""
    from .ocr import LOW_CONFIDENCE, holds_text, layout, read_image, tesseract_missing

    out = PictureText()
    if ocr == "never" or not names:
        return out
    problem = tesseract_missing()
    if problem is not None:
        if ocr == "always":
            raise IngestError(path, f"OCR was asked for but cannot run: {problem}", code="ocr_unavailable")
        out.warnings.append(f"text inside the pictures was not read ({problem}); check them before release")
        return out
    out.ran = True
    pos = start
    for name in names:
        grey = _grey(pkg.get(name) or b"")
        if grey is None or min(grey.size) < _MIN_SIDE:
            continue
        try:
            page = read_image(grey, _PICTURE_DPI)
        except Exception as e:  # Tesseract failing on one picture is named, never a traceback
            log.debug("OCR failed on a picture", exc_info=True)
            raise IngestError(path, f"OCR failed on a picture ({type(e).__name__})", code="ocr_failed") from None
        if not holds_text(page, ocr):
            continue
        text, placed, _lines = layout(page.words)
        pos += len(PICTURE_SEPARATOR)
        number = len(out.pictures) + 1
        for a, b, w, k in placed:
            box = [round(v) for v in _unrotated(w.box, page)]
            out.segments.append(
                Segment(pos + a, pos + b, {"picture": name, "line": k, "box": box, "ocr_box": list(w.box), "conf": round(w.conf, 1)})
            )
            out.confidences.append(w.conf)
            if w.conf < LOW_CONFIDENCE:
                out.low.append([pos + a, pos + b])
        out.pictures.append(
            {"part": name, "start": pos, "angle": page.angle, "size": list(grey.size), "words": len(page.words), "mean_conf": round(page.mean_conf, 1)}
        )
        if page.mean_conf < LOW_CONFIDENCE:
            out.warnings.append(f"picture {number} was read by OCR with low confidence; check it before release")
        out.text += PICTURE_SEPARATOR + text
        pos += len(text)
    return out


def _unrotated(box, page) -> tuple[float, float, float, float]:
    from .ocr import unrotated_box

    return unrotated_box(box, page.size, page.angle)


def _grey(data: bytes):
    """The picture upright, in grey, transparent parts on white paper (as Word shows them)."""
    from PIL import Image

    image = open_upright(data)
    if image is None:
        return None
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        paper = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        image = Image.alpha_composite(paper, rgba)
    return image.convert("L")


def picture_words(segments: list[Segment], name: str):
    """The OCR'd words of picture ``name``, with their boxes in the upright picture."""
    from .ocr_write import Word

    words = [
        Word(s.start, s.end, int(s.locator.get("line", 0)), tuple(s.locator["box"]))  # type: ignore[arg-type]
        for s in segments
        if s.locator.get("picture") == name and "box" in s.locator
    ]
    return sorted(words, key=lambda w: w.pos)


class PicturePainter:
    """Paints the PHI of each OCR'd picture out of its pixels; counts the boxes painted."""

    def __init__(self, segments: list[Segment], replacements: list[Replacement]):
        self.segments = [s for s in segments if "picture" in s.locator]
        self.boxes_painted = 0
        self._owners: dict[int, Replacement] = {}
        if not self.segments:
            return
        lo = min(s.start for s in self.segments)
        for r in replacements:
            for pos in range(max(r.start, lo), r.end):
                self._owners[pos] = r

    def edit_for(self, name: str):
        """An edit for ``images.reencode`` that paints picture ``name``, or None when OCR
        read nothing there that was replaced."""
        words = picture_words(self.segments, name)
        if not any(p in self._owners for w in words for p in range(w.pos, w.end)):
            return None

        def edit(image):
            from .ocr_write import burn

            image = _paintable(image)
            self.boxes_painted += burn(image, words, self._owners)
            return image

        return edit


def _paintable(image):
    """A copy in a mode black and white can be painted in (palette and 1-bit pictures are
    widened; an alpha channel is kept)."""
    if image.mode in ("L", "RGB", "RGBA", "LA"):
        return image.copy()
    has_alpha = image.mode in ("PA",) or "transparency" in image.info
    return image.convert("RGBA" if has_alpha else "RGB")
