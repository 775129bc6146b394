"""Documents: ingest of .txt/.docx/.pdf into text plus a source map, and export writers."""

from .model import Document, Replacement, Segment, apply_replacements

__all__ = ["Document", "Replacement", "Segment", "apply_replacements"]
