"""Documents: ingest of .txt/.docx/.pdf into text plus a source map, and export writers."""

from .export import ExportResult, ExportWarning, export_document, output_suffix, write_document
from .ingest import SUPPORTED_SUFFIXES, iter_input_files, load_document
from .model import Document, Replacement, Segment, apply_replacements

__all__ = [
    "Document",
    "ExportResult",
    "ExportWarning",
    "Replacement",
    "SUPPORTED_SUFFIXES",
    "Segment",
    "apply_replacements",
    "export_document",
    "iter_input_files",
    "load_document",
    "output_suffix",
    "write_document",
]
