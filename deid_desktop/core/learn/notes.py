"""Hand-written training notes: real-looking clinical notes marked up by hand, beside the
synthetic corpus.

The default members learn most of what they know from the template generator (synth.py),
whose documents are tidy: a name is capitalised, a date sits after its label. Notes written by
hand are not (a lower-case first name as a message's speaker, staff initials after a dash, a
shift log's columns, a job in a social history), and a model trained on templates alone missed
those. ``resources/training/notes/`` holds such notes, written for this project (synthetic:
no real patient), with PHI marked inline as ``{{CATEGORY|text}}`` (gold.from_inline_markup).
``build-model`` trains on every sentence of them (``max_examples`` caps only the synthetic
corpus) and on ``note_rewrites`` copies of each whose marked values are replaced by surrogates,
so the model learns the layouts and the words around a value, not the values themselves.

None of these notes is in a benchmark's test set; the benchmark notes that are
(``benchmarks/data/unseen_notes`` even numbers, ``benchmarks/data/fresh_notes``) and the
development notes the learning-loop benchmark imports (``unseen_notes`` odd numbers below 100)
are never read here.
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

from .gold import GoldDocument, as_gold, from_inline_markup

log = logging.getLogger(__name__)

ID_PREFIX = "note:"  # ids of training notes and their rewrites


def _number(p: Path) -> tuple[int, str]:
    head = p.name.split("_", 1)[0]
    return (int(head) if head.isdigit() else 0, p.name)


def load_notes(folder: str | Path) -> list[GoldDocument]:
    """Every ``*.txt`` note under ``folder``, in the order of their numbers, as gold documents.
    A note that cannot be read raises ValueError naming the file and the line (never its text)."""
    root = Path(folder)
    if not root.is_dir():
        raise ValueError(f"training notes folder not found: {root}")
    out = []
    for p in sorted(root.glob("*.txt"), key=_number):
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise ValueError(f"{p.name}: cannot be read ({type(e).__name__})") from None
        out.append(from_inline_markup(text, f"{ID_PREFIX}{p.stem}"))
    return out


def rewrite_secret(seed: int) -> bytes:
    """The surrogate key of a build's rewrites: fixed by the seed, so a build is reproducible."""
    return hashlib.sha256(f"deid-desktop build-model notes {seed}".encode()).digest()


def training_notes(folder: str | Path, rewrites: int, seed: int) -> list[GoldDocument]:
    """The notes under ``folder`` and ``rewrites`` surrogate rewrites of each (augment.py)."""
    notes = load_notes(folder)
    if rewrites <= 0 or not notes:
        return notes
    from ..surrogates import SurrogateEngine
    from .augment import surrogate_variants

    engine = SurrogateEngine(rewrite_secret(seed))
    variants: list[GoldDocument] = []
    for d in notes:
        variants += [as_gold(v) for v in surrogate_variants(d.to_json(), engine, rewrites, key=f"build/{seed}")]
    log.info("training notes: %d notes, %d rewrites", len(notes), len(variants))
    return notes + variants


def notes_folder(name: str) -> Path | None:
    """The folder a training configuration's ``notes`` names: a path, or a folder under
    ``resources/training/``; None for ""."""
    if not name:
        return None
    p = Path(name)
    if p.is_absolute():
        return p
    from ..paths import resource

    return resource("training", name)


def config_notes(config) -> list[GoldDocument]:
    """The training notes (with their rewrites) a TrainConfig asks for; [] when it asks for none."""
    folder = notes_folder(config.notes)
    return training_notes(folder, config.note_rewrites, config.seed) if folder is not None else []
