"""Shared by the learning-loop tests: a workspace with reviewed documents made through the
real review API (detections saved, then accepted / rejected / resized / relabelled / added),
and a tiny token-classification model registered as the active version."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from deid_desktop.core.categories import Category
from deid_desktop.core.documents.model import Document
from deid_desktop.core.spans import Span
from deid_desktop.core.store import DecisionAction, DocStatus, Workspace

REVIEWER = "tester"

NAMES = ["Hemi Walker", "Aroha Ngata", "Sione Tupou", "Li Wei", "Priya Patel", "Mere Parata", "Tavita Faleolo", "Ana Kupu"]
WARDS = ["Kowhai", "Rata", "Totara", "Rimu"]


def at(text: str, value: str, start: int = 0) -> tuple[int, int]:
    s = text.index(value, start)
    return s, s + len(value)


@dataclass
class Note:
    """One reviewed note and the values it holds."""

    document_id: int
    text: str
    name: str


def note_text(i: int) -> tuple[str, str]:
    name = NAMES[i % len(NAMES)]
    ward = WARDS[i % len(WARDS)]
    text = (
        f"Whanau hui minutes\n"
        f"Ward: {ward}  Bed: {i + 3}  Consultant: Dr {name}\n"
        f"Attended on {10 + i % 18}/03/2024 with whanau.\n"
        f"Parkinson disease reviewed; Foley catheter removed.\n"
        f"Plan discussed and agreed by all present.\n"
    )
    return text, name


def add_note(ws: Workspace, i: int, *, subject: str | None = None) -> Note:
    """A note detected (name found, date found, Parkinson wrongly flagged) and reviewed to gold:
    name accepted, Parkinson rejected, date accepted."""
    text, name = note_text(i)
    res = ws.import_document(Document.from_text(text, path=f"note{i}.txt"), subject_label=subject or f"subject-{i}", source_path=f"note{i}.txt")
    run = ws.start_detection_run(config={}, model_versions={}, device="cpu")
    ns, ne = at(text, name)
    ds, de = at(text, "/03/2024")
    ds -= 2
    ps, pe = at(text, "Parkinson")
    ids = ws.save_detections(
        res.document_id,
        run,
        [Span(ns, ne, Category.NAME, "DOCTOR", 0.9, "model"), Span(ds, de, Category.DATE, "OTHER", 0.95, "rules"), Span(ps, pe, Category.NAME, "OTHER", 0.6, "model")],
    )
    ws.decide(ids[0], DecisionAction.ACCEPT, reviewer=REVIEWER)
    ws.decide(ids[1], DecisionAction.ACCEPT, reviewer=REVIEWER)
    ws.decide(ids[2], DecisionAction.REJECT, reviewer=REVIEWER)
    ws.set_status(res.document_id, DocStatus.REVIEWED)
    return Note(res.document_id, text, name)


def open_workspace(tmp_path: Path, name: str = "ws.sqlite") -> Workspace:
    return Workspace.open(tmp_path / name)


def write_ensemble(tmp_path: Path, *, deny_file: Path | None = None, strategy: str = "union") -> Path:
    """An ensemble of the workspace model and (optionally) a deny list, independent of the
    shipped rule set so these tests only exercise the learning loop."""
    body = f'[ensemble]\nstrategy = "{strategy}"\nthreshold = 0.5\n\n'
    body += '[[member]]\nname = "minilm-balanced"\ntype = "transformer"\nmodel = "minilm-balanced"\noptional = true\nweight = 0.5\nquantize = false\n\n'
    if deny_file is not None:
        body += f'[[member]]\nname = "staff"\ntype = "allow_deny"\ndeny_file = "{deny_file}"\nweight = 0.5\n'
    p = tmp_path / "ensemble.toml"
    p.write_text(body, encoding="utf-8")
    return p


def tiny_model(tmp_path: Path) -> Path:
    from deid_desktop.core.models.tiny import build_tiny_model

    return build_tiny_model(tmp_path / "tiny-model", hidden=32, layers=1, heads=2)
