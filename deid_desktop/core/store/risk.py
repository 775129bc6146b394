"""Residual risk per document: which documents a reviewer should open first.

A document's risk is what could still leak from it, judged only from what the workspace
already records about its open (undecided) findings:

    risk = sum over open findings of (1 + uncertainty + disagreement)  [+ STALE_EXPORT]

* every open finding counts 1: nobody has looked at it yet;
* uncertainty, 0 to 1, is how close the finding's score lies to the detection run's
  threshold (1 at the threshold, 0 at a score of 1): the ensemble itself was unsure;
* disagreement is 1 when some ensemble member of the run that found it did not give it
  this category (it was found by, say, the rules but not by the models): one detector
  missed or mislabelled it, so it is likelier to be wrong, and its neighbours to be missed;
* STALE_EXPORT is added, when the caller says so, for a document whose decisions changed
  after its de-identified copy was exported: the released copy is out of date.

Near-misses (member findings the vote dropped) are not part of it: a detection run stores
only the ensemble's output, so the workspace has no record of them. Nor are the export's
re-scan findings: they go to the report in the export folder, not into the workspace.

Decided findings carry no residual risk, so a reviewed document with nothing open scores 0.
Reasons count findings and never quote them: they are shown in the queue and hold no PHI.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from sqlalchemy import and_, case, func, select

from .documents import current_span_filter
from .models import DetectionRun, DocumentRecord, SpanRecord
from .rows import DocStatus, SpanState

# The ensemble's own default: a score half way between "no" and "sure".
DEFAULT_THRESHOLD = 0.5
# A released copy known to be out of date weighs as much as a few unsure open findings.
STALE_EXPORT = 3.0
# Below this uncertainty a finding is not called low-confidence: its score lies in the upper
# half of the range above the threshold (above 0.75 with the default threshold).
LOW_CONFIDENCE = 0.5
# Keeps the uncertainty finite for a run whose threshold is (nearly) 1.
_MIN_RANGE = 0.05


@dataclass(frozen=True, slots=True)
class DocumentRisk:
    """One document's residual risk and the counts behind it. ``score`` is None where there
    is nothing to rank: the document failed to import or has not been through detection."""

    document_id: int
    score: float | None
    open: int = 0
    disagreed: int = 0
    low_confidence: int = 0
    stale_export: bool = False
    status: DocStatus = DocStatus.DETECTED

    @property
    def reason(self) -> str:
        """Why the document ranks where it does, in counts only (never its text)."""
        if self.status == DocStatus.ERROR:
            return "could not be imported: nothing to review"
        if self.score is None:
            return "PHI detection has not run yet: no findings to rank"
        parts = []
        if self.open:
            parts.append(f"{self.open} open finding{'s' if self.open != 1 else ''}")
        if self.disagreed:
            parts.append(f"{self.disagreed} where the detectors disagree")
        if self.low_confidence:
            parts.append(f"{self.low_confidence} low-confidence")
        if self.stale_export:
            parts.append("changed since export")
        return ", ".join(parts) if parts else "nothing left open"


def document_risks(
    workspace, document_ids: Iterable[int] | None = None, *, changed_since_export: Collection[int] = ()
) -> dict[int, DocumentRisk]:
    """The risk of every document (or of ``document_ids``), by document id.

    Two queries whatever the number of documents: open findings are counted in SQL, grouped
    by document, detection run and the members that found them, so Python only walks those
    few groups per document, never the spans.
    """
    ids = None if document_ids is None else sorted(set(document_ids))
    stale = set(changed_since_export)
    with workspace.session(readonly=True) as session:
        doc_stmt = select(DocumentRecord.id, DocumentRecord.status)
        if ids is not None:
            doc_stmt = doc_stmt.where(DocumentRecord.id.in_(ids))
        statuses = {doc_id: DocStatus(status) for doc_id, status in session.execute(doc_stmt)}
        groups = list(session.execute(_open_findings_stmt(ids)))
        run_ids = {g.detection_run_id for g in groups}
        runs = {
            run_id: frozenset(json.loads(versions or "{}"))
            for run_id, versions in session.execute(
                select(DetectionRun.id, DetectionRun.model_versions_json).where(DetectionRun.id.in_(run_ids))
            )
        }
    totals: dict[int, list[float]] = {}  # document id -> [score, open, disagreed, low]
    for g in groups:
        members = frozenset(json.loads(g.members_json or "[]"))
        disagree = _disagree(members, runs.get(g.detection_run_id, frozenset()))
        t = totals.setdefault(g.document_id, [0.0, 0, 0, 0])
        t[0] += g.n + g.uncertainty + (g.n if disagree else 0)
        t[1] += g.n
        t[2] += g.n if disagree else 0
        t[3] += g.low
    return {doc_id: _risk(doc_id, status, totals.get(doc_id), doc_id in stale) for doc_id, status in statuses.items()}


def _open_findings_stmt(ids: list[int] | None):
    """Open findings per (document, run, members): how many, their summed uncertainty and
    how many of them are low-confidence."""
    threshold = func.coalesce(
        func.json_extract(DetectionRun.config_json, "$.ensemble.threshold"), DEFAULT_THRESHOLD
    )
    spread = func.max(1.0 - threshold, _MIN_RANGE)  # two arguments: SQLite's scalar max
    uncertainty = func.max(0.0, 1.0 - func.abs(SpanRecord.score - threshold) / spread)
    conditions = [SpanRecord.state == SpanState.UNDECIDED, current_span_filter()]
    if ids is not None:
        conditions.append(SpanRecord.document_id.in_(ids))
    return (
        select(
            SpanRecord.document_id,
            SpanRecord.detection_run_id,
            SpanRecord.members_json,
            func.count().label("n"),
            func.total(uncertainty).label("uncertainty"),
            func.total(case((uncertainty > LOW_CONFIDENCE, 1), else_=0)).label("low"),
        )
        .outerjoin(DetectionRun, DetectionRun.id == SpanRecord.detection_run_id)
        .where(and_(*conditions))
        .group_by(SpanRecord.document_id, SpanRecord.detection_run_id, SpanRecord.members_json)
    )


def _disagree(found_by: frozenset[str], ran: frozenset[str]) -> bool:
    """Some but not all of the run's members found it. Findings made only outside the vote
    (propagation, the user's own lists, template rules) are no disagreement: no member of
    the run was asked about them."""
    agreeing = found_by & ran
    return bool(agreeing) and agreeing != ran


def _risk(doc_id: int, status: DocStatus, totals: list[float] | None, stale: bool) -> DocumentRisk:
    if status in (DocStatus.ERROR, DocStatus.IMPORTED):
        return DocumentRisk(doc_id, None, status=status)
    score, n_open, disagreed, low = totals or (0.0, 0, 0, 0)
    score += STALE_EXPORT if stale else 0.0
    return DocumentRisk(
        doc_id, round(score, 6), open=int(n_open), disagreed=int(disagreed), low_confidence=int(low),
        stale_export=stale, status=status,
    )
