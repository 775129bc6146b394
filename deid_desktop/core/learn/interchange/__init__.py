"""Annotations in and out: gold JSONL, BRAT standoff, CoNLL/BIO, and the JSON exports of
Prodigy, doccano and Label Studio, so reviewed documents move both ways between this app and
the annotation tools a team already uses.

One module per format (``jsonl``, ``brat``, ``conll``, ``prodigy``, ``doccano``,
``labelstudio``), each registering its reader and writer in ``registry``; ``base`` holds what
they share (label mapping, span checks), ``workspace`` the import into and export from a
workspace. Add a format: write a module with ``read_x(path, mapper, report)`` and
``write_x(docs, out)``, call ``register("x", read_x, write_x)`` at its end, and import it
below.
"""

from __future__ import annotations

from .base import IMPORT_REVIEWER, AnnotatedDocument, LabelMapper, ReadReport
from .registry import AnnotationFormat, annotation_format, detect_format, format_names, read_annotations, register, write_annotations

# Registration order is the order ``FORMATS`` lists (and the CLI offers) them.
from . import jsonl, brat, conll, prodigy, doccano, labelstudio  # noqa: E402,F401  (each registers itself)
from .labelstudio import labelstudio_config  # noqa: E402
from .workspace import ImportReport, export_reviewed, import_reviewed, reviewed_annotations  # noqa: E402

FORMATS = format_names()

__all__ = [
    "FORMATS",
    "IMPORT_REVIEWER",
    "AnnotatedDocument",
    "AnnotationFormat",
    "ImportReport",
    "LabelMapper",
    "ReadReport",
    "annotation_format",
    "detect_format",
    "export_reviewed",
    "format_names",
    "import_reviewed",
    "labelstudio_config",
    "read_annotations",
    "register",
    "reviewed_annotations",
    "write_annotations",
]
