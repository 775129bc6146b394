"""Pictures re-encoded from their pixels alone, so nothing but pixels leaves with them.

A camera or scanner writes the patient's name, the author, GPS positions and dates into EXIF,
XMP, ICC descriptions, JPEG comments and PNG text chunks. Copying only the pixel buffer into
a fresh image and saving that drops every one of them, whatever the format hides them in;
Pillow would otherwise carry some over (ICC profile, comments) from the decoded image.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass
from typing import Callable

from PIL import Image, ImageOps, JpegImagePlugin

# Output format, file extension and content type for each decoded format; anything else
# (WebP, ICO, TIFF...) becomes PNG, which Word shows everywhere.
_FORMATS = {
    "PNG": ("PNG", "png", "image/png"),
    "JPEG": ("JPEG", "jpeg", "image/jpeg"),
    "MPO": ("JPEG", "jpeg", "image/jpeg"),
    "GIF": ("GIF", "gif", "image/gif"),
    "BMP": ("BMP", "bmp", "image/bmp"),
}
_PNG = ("PNG", "png", "image/png")
# Generous for a letter's pictures, small enough that a hostile header cannot exhaust memory.
MAX_PIXELS = 100_000_000
_ORIENTATION = 0x0112  # the EXIF tag


@dataclass(frozen=True, slots=True)
class CleanImage:
    data: bytes
    extension: str  # without the dot
    content_type: str


def reencode(data: bytes, edit: Callable[[Image.Image], Image.Image] | None = None) -> CleanImage | None:
    """The picture's pixels in a fresh file without any metadata, or None when Pillow cannot
    decode it (EMF/WMF drawings, damaged files). ``edit`` may change the upright pixels
    first (paint out words read by OCR); it returns the image to save."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as im:
                upright = _upright(im)
                if upright is None:
                    return None
                if edit is not None:
                    return _save_pixels(edit(upright), im.format, like=im)
                return _save_pixels(upright, im.format, like=im)
    except _UNDECODABLE:
        return None


def open_upright(data: bytes) -> Image.Image | None:
    """The picture's first frame as it is shown (EXIF orientation applied), decoded under
    the same limits as ``reencode``; None when it cannot be decoded."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as im:
                upright = _upright(im)
                return None if upright is None else upright.copy()
    except _UNDECODABLE:
        return None


_UNDECODABLE = (OSError, ValueError, SyntaxError, EOFError, Image.DecompressionBombError, Image.DecompressionBombWarning)


def _upright(im: Image.Image) -> Image.Image | None:
    if im.width * im.height > MAX_PIXELS:
        return None
    im.seek(0)  # an animation keeps its first frame only
    im.load()
    # The EXIF orientation goes with the EXIF block, so it is applied to the pixels first:
    # a phone photo taken upright stays upright in the export.
    if im.getexif().get(_ORIENTATION, 1) != 1:
        return ImageOps.exif_transpose(im)
    return im


def placeholder(width: int = 8, height: int = 8) -> CleanImage:
    """A plain light-grey picture for one that cannot be re-encoded: the document keeps its
    layout (Word sizes a picture by the drawing's extent, not the file's pixels)."""
    buf = io.BytesIO()
    Image.new("L", (width, height), 220).save(buf, format="PNG")
    return CleanImage(buf.getvalue(), "png", "image/png")


def _save_pixels(im: Image.Image, source_format: str | None = None, like: Image.Image | None = None) -> CleanImage:
    """``im``'s pixels alone, saved in the format of the original (``source_format``), with
    the JPEG quantisation of ``like`` (the decoded original) where it has one."""
    fmt, ext, content_type = _FORMATS.get(source_format or im.format or "", _PNG)
    fresh = Image.frombytes(im.mode, im.size, im.tobytes())
    if im.mode in ("P", "PA"):
        fresh.putpalette(im.getpalette(rawmode="RGBA" if im.palette.mode == "RGBA" else "RGB"), rawmode=im.palette.mode)
    options: dict = {}
    transparency = im.info.get("transparency")
    if transparency is not None and fmt in ("PNG", "GIF"):
        options["transparency"] = transparency
    like = like if like is not None else im
    if fmt == "JPEG" and isinstance(like, JpegImagePlugin.JpegImageFile) and like.mode == fresh.mode:
        # The original quantisation tables and sampling: re-encoding costs as little as it can.
        options["qtables"] = like.quantization
        options["subsampling"] = JpegImagePlugin.get_sampling(like)
    buf = io.BytesIO()
    try:
        fresh.save(buf, format=fmt, **options)
    except (OSError, ValueError, KeyError):
        # A mode this format cannot store (16-bit grey as GIF...): PNG stores them all.
        fmt, ext, content_type = _PNG
        buf = io.BytesIO()
        fresh.save(buf, format="PNG")
    return CleanImage(buf.getvalue(), ext, content_type)
