"""The words under a retrain's before / after table: on how many held-out documents the
figures rest, their 95% intervals, and plainly when that is too little to judge."""

from __future__ import annotations

from ..core.learn.uncertainty import MIN_DOCUMENTS, Comparison


def _ci(bounds: tuple[float, float]) -> str:
    return f"{bounds[0]:.2f}–{bounds[1]:.2f}"


def caveat_text(c: Comparison) -> str:
    docs = f"{c.documents} held-out document{'s' if c.documents != 1 else ''}"
    lines = [
        f"Compared on {docs} ({c.words:,} PHI words). 95% intervals (Wilson, words counted as independent, "
        f"so the real uncertainty is wider): recall before {_ci(c.recall_before)}, after {_ci(c.recall_after)}; "
        f"precision before {_ci(c.precision_before)}, after {_ci(c.precision_after)}."
    ]
    if c.too_few_documents:
        lines.append(f"Too few held-out documents to judge (fewer than {MIN_DOCUMENTS}): review more documents, or raise the held-out share.")
    elif c.within_uncertainty:
        lines.append("The intervals overlap: these documents cannot tell the two models apart.")
    return " ".join(lines)


def verdict_suffix(c: Comparison) -> str:
    """Appended to "scored better / no better": a verdict on too little data says so."""
    return "" if c.judgeable else " That verdict rests on too little data to be relied on."
