"""Review actions as plain commands: what accepting, rejecting, relabelling, resizing,
adding, "all identical" and "mark reviewed" do to the workspace, and how each is undone.

A command is a dataclass: ``apply(workspace)`` makes its decisions and returns a
:class:`StepResult`; ``undo(workspace, result)`` takes them back by appending UNDO decisions
(the decision log stays append-only). Applying it again after an undo decides again with
fresh decisions. The GUI's undo stack (``gui/review_steps.py``) only wraps these; the tests
run them without Qt (``tests/core/usecases/test_review_actions.py``).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Sequence

from ..categories import Category, display_name, normalise_fine
from ..errors import DeidError
from ..spans import Span, snap_to_words
from ..store import DecisionAction, DocStatus
from ..text import words

PHI_STATES = ("accepted", "added")
Scope = Literal["document", "subject"]
Edge = Literal["start", "end"]


# -- pure helpers -------------------------------------------------------------------------


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def find_occurrences(text: str, needle: str) -> list[tuple[int, int]]:
    """Where ``needle`` occurs in ``text`` exactly, never as part of a longer word ("Ann" is
    not found inside "Annual")."""
    out: list[tuple[int, int]] = []
    if not needle:
        return out
    pos = text.find(needle)
    while pos != -1:
        end = pos + len(needle)
        left_ok = pos == 0 or not (_is_word_char(text[pos - 1]) and _is_word_char(needle[0]))
        right_ok = end == len(text) or not (_is_word_char(text[end]) and _is_word_char(needle[-1]))
        if left_ok and right_ok:
            out.append((pos, end))
        pos = text.find(needle, pos + 1)
    return out


def resized_extent(text: str, start: int, end: int, edge: Edge, grow: bool) -> tuple[int, int] | None:
    """The span moved by one word at ``edge``; None when that would leave no word or there
    is no word to take in."""
    toks = words(text)
    if edge == "start":
        if grow:
            before = [s for s, _ in toks if s < start]
            return (before[-1], end) if before else None
        inside = [s for s, _ in toks if start < s < end]
        return (inside[0], end) if inside else None
    if grow:
        after = [e for _, e in toks if e > end]
        return (start, after[0]) if after else None
    inside = [e for _, e in toks if start < e < end]
    return (start, inside[-1]) if inside else None


def overlaps(a_start: int, a_end: int, b_start: int, b_end: int) -> bool:
    return a_start < b_end and b_start < a_end


def span_order(span) -> tuple[int, int, int]:
    """Findings in reading order; of two starting together the longer first."""
    return (span.start, -span.end, span.id)


def span_at(spans: Sequence, position: int):
    """The finding under a character position; a decided-PHI or undecided finding wins over
    a rejected one, then the shortest."""
    hits = [s for s in spans if s.start <= position < s.end]
    if not hits:
        return None
    return min(hits, key=lambda s: (s.state == "rejected", s.end - s.start))


def next_undecided(spans: Sequence, after=None):
    """Where a decision moves the selection: the next undecided finding below ``after``, else
    the first one above; None when every finding is decided."""
    undecided = [s for s in spans if s.state == "undecided"]
    if not undecided:
        return None
    if after is None:
        return undecided[0]
    below = [s for s in undecided if span_order(s) > span_order(after)]
    return (below or undecided)[0]


def selection_extent(text: str, start: int, end: int, category: Category) -> tuple[int, int] | None:
    """A text selection snapped to whole words, as a reviewer's new span covers them; None
    when it holds no text."""
    start, end = max(0, min(start, end)), min(len(text), max(start, end))
    if end <= start or not text[start:end].strip():
        return None
    snapped = snap_to_words(text, Span(start, end, category, source="reviewer"))
    return snapped.start, snapped.end


def first_to_show(spans: Sequence):
    """The finding selected when a document opens: the first undecided one, else the first."""
    return next((s for s in spans if s.state == "undecided"), spans[0] if spans else None)


def undecided_count(spans: Sequence) -> int:
    return sum(1 for s in spans if s.state == "undecided")


def step_selection(spans: Sequence, current_id: int | None, direction: int) -> tuple[int | None, str]:
    """J / K: the finding after (``direction`` 1) or before (-1) the selected one, or, with
    nothing to move to, None and what to tell the reviewer instead."""
    if not spans:
        return None, "This document has no findings."
    ids = [s.id for s in spans]
    if current_id not in ids:
        return (ids[0] if direction > 0 else ids[-1]), ""
    i = ids.index(current_id) + direction
    if 0 <= i < len(ids):
        return ids[i], ""
    return None, "Last finding of this document." if direction > 0 else "First finding of this document."


def refresh_in_place(spans: list, fresh: Sequence, changed: frozenset[int]) -> bool | None:
    """Put the re-read findings ``fresh`` (those a step ``changed``) in their places in
    ``spans`` (the open document's, in reading order; kept in order). Returns whether one of
    them moved, or None, leaving ``spans`` alone, when they cannot replace the old ones one
    for one (a finding added, removed, or of another document): then all must be re-read.
    In place because the list is the one the views were drawn from."""
    index = {s.id: i for i, s in enumerate(spans)}
    if len(fresh) != len(changed) or not all(s.id in index for s in fresh):
        return None
    moved = False
    for s in fresh:
        old = spans[index[s.id]]
        moved = moved or (old.start, old.end) != (s.start, s.end)
        spans[index[s.id]] = s
    if moved:
        spans.sort(key=span_order)
    return moved


def focus_after_replay(spans: Sequence, focus: int | None, current_id: int | None) -> int | None:
    """The selection after an undo or redo, which does not move on: the step's own finding
    when it is still there (``focus``, already checked), else the selected one, else — when
    the selected one is gone — the first finding."""
    if focus is not None:
        return focus
    if current_id is not None and not any(s.id == current_id for s in spans):
        return spans[0].id if spans else current_id
    return current_id


def begin_review(workspace, document_id: int) -> bool:
    """Opening a detected document starts its review: DETECTED becomes IN_REVIEW. The
    transition itself is the store's (``ReviewRepository.begin_review``), the same one a
    first decision makes. Returns whether the status changed."""
    return workspace.begin_review(document_id)


def add_decision_id(workspace, document_id: int, span_id: int) -> int:
    """The ADD decision that created the reviewer's span ``span_id`` (undoing it removes the
    span)."""
    adds = [d for d in workspace.decisions(document_id=document_id) if d.span_id == span_id and d.action == DecisionAction.ADD]
    if not adds:
        raise DeidError("the workspace recorded no ADD decision for the new span")
    return max(d.id for d in adds)


# -- results and commands -----------------------------------------------------------------


@dataclass
class StepResult:
    """What one reviewer action did: the decisions it appended (in order), the finding to
    select afterwards and the documents whose counts changed.

    ``changed`` names the findings of the open document the action changed in place, when
    it added or removed none: only those are re-read and redrawn, so a decision costs the
    same in a 40-page note as in a letter. None means "re-read them all"."""

    decision_ids: list[int] = field(default_factory=list)
    focus: int | None = None
    touched: set[int] = field(default_factory=set)
    summary: str = ""
    advance: bool = False
    changed: frozenset[int] | None = None
    second_review: bool = False  # "mark reviewed" finished the second review, not the document


@dataclass
class ReviewCommand:
    """One undoable reviewer action on the document ``document_id`` (the one undo opens)."""

    document_id: int
    reviewer: str

    # a command that changes only a status records no decisions, yet is a real step
    always_a_step = False
    # undone and redone under the name of whoever does it then (False: the name it was made with)
    follows_reviewer = True

    def apply(self, workspace) -> StepResult:
        raise TypeError(f"{type(self).__name__} defines no apply")

    def undo(self, workspace, result: StepResult) -> None:
        for decision_id in reversed(result.decision_ids):
            workspace.undo_decision(decision_id, reviewer=self.reviewer)


@dataclass
class Decide(ReviewCommand):
    """One decision about one finding (accept, reject, relabel, resize)."""

    span_id: int = 0
    action: DecisionAction = DecisionAction.ACCEPT
    advance: bool = False
    options: dict[str, Any] = field(default_factory=dict)  # category/fine, start/end

    def apply(self, workspace) -> StepResult:
        did = workspace.decide(self.span_id, self.action, reviewer=self.reviewer, **self.options)
        return StepResult([did], self.span_id, {self.document_id}, advance=self.advance, changed=frozenset({self.span_id}))


@dataclass
class DecideMany(ReviewCommand):
    """Accept (or reject) a list of findings in one batch: "accept remaining" in a document,
    "accept all identical" across the queue. ``targets`` is called when the step runs, so a
    redo decides what is undecided then."""

    targets: Callable[[Any], Sequence[tuple[int, int]]] = lambda ws: ()  # (document id, span id)
    action: DecisionAction = DecisionAction.ACCEPT
    focus: int | None = None
    summary: Callable[[int, set[int]], str] = lambda n, docs: ""
    in_place: bool = True  # False: the open document's findings are all re-read afterwards

    def apply(self, workspace) -> StepResult:
        batch = uuid.uuid4().hex
        pairs = list(self.targets(workspace))
        ids = [workspace.decide(span_id, self.action, reviewer=self.reviewer, batch=batch) for _, span_id in pairs]
        docs = {doc_id for doc_id, _ in pairs}
        changed = frozenset(s for _, s in pairs) if self.in_place else None
        return StepResult(ids, self.focus, docs or {self.document_id}, summary=self.summary(len(ids), docs), changed=changed)


def accept_remaining(document_id: int, reviewer: str, spans: Sequence, focus: int | None, category: Category | None = None) -> DecideMany:
    """Accept the undecided findings of one document (of ``category`` only, when given)."""
    targets = [(document_id, s.id) for s in spans if s.state == "undecided" and (category is None or s.category == category)]
    what = f"remaining {display_name(category)} findings" if category else "remaining findings"
    return DecideMany(
        document_id, reviewer, targets=lambda ws: targets, focus=focus,
        summary=lambda n, docs: f"Accepted {n} {what}.", in_place=False,
    )


@dataclass
class AddSpan(ReviewCommand):
    """The reviewer marked text no detector found."""

    start: int = 0
    end: int = 0
    category: Category = Category.NAME

    def apply(self, workspace) -> StepResult:
        sid = workspace.add_span(self.document_id, self.start, self.end, self.category, reviewer=self.reviewer)
        return StepResult([add_decision_id(workspace, self.document_id, sid)], sid, {self.document_id})


@dataclass
class CorrectSpan(ReviewCommand):
    """The reviewer marked text overlapping findings: the first takes exactly that extent
    and category, the others are rejected, in one batch."""

    keep_id: int = 0
    keep_category: Category = Category.NAME
    start: int = 0
    end: int = 0
    category: Category = Category.NAME
    fine: str = "OTHER"
    drop: tuple[int, ...] = ()

    def apply(self, workspace) -> StepResult:
        batch = uuid.uuid4().hex
        ids = [workspace.decide(self.keep_id, DecisionAction.RESIZE, reviewer=self.reviewer, start=self.start, end=self.end, batch=batch)]
        if self.keep_category != self.category:
            ids.append(workspace.decide(self.keep_id, DecisionAction.RELABEL, reviewer=self.reviewer, category=self.category, fine=self.fine, batch=batch))
        for sid in self.drop:
            ids.append(workspace.decide(sid, DecisionAction.REJECT, reviewer=self.reviewer, batch=batch))
        return StepResult(ids, self.keep_id, {self.document_id})


@dataclass
class DecideIdentical(ReviewCommand):
    """The selected finding's decision for every identical string in ``document_ids`` (the
    open document first): accepting adds spans where the detectors missed an occurrence and
    leaves alone occurrences overlapping another finding; rejecting rejects findings with the
    same text."""

    document_ids: tuple[int, ...] = ()
    needle: str = ""
    action: DecisionAction = DecisionAction.ACCEPT
    category: Category = Category.NAME
    fine: str = "OTHER"
    focus: int | None = None
    where: str = "this document"
    open_text: str | None = None  # the open document's text, already in memory

    def __post_init__(self) -> None:
        if self.action not in (DecisionAction.ACCEPT, DecisionAction.REJECT):
            raise ValueError("identical-string decisions are accept or reject")

    @property
    def verb(self) -> str:
        return "Accepted" if self.action == DecisionAction.ACCEPT else "Rejected"

    def apply(self, workspace) -> StepResult:
        batch = uuid.uuid4().hex
        res = StepResult(focus=self.focus)
        added = skipped = changed = 0
        for doc_id in self.document_ids:
            text = self.open_text if (doc_id == self.document_id and self.open_text is not None) else workspace.load_document(doc_id).text
            spans = workspace.list_spans(doc_id, reviewer=self.reviewer)
            ids, a, s, c = self._in_document(workspace, doc_id, text, spans, batch)
            if ids:
                res.touched.add(doc_id)
            res.decision_ids += ids
            added, skipped, changed = added + a, skipped + s, changed + c
        msg = f"{self.verb} {changed + added} identical occurrence(s) in {self.where}"
        if added:
            msg += f" ({added} the detectors had missed)"
        if skipped:
            msg += f"; {skipped} left alone because they overlap another finding"
        res.summary = msg + "."
        return res

    def _in_document(self, ws, doc_id: int, text: str, spans, batch: str) -> tuple[list[int], int, int, int]:
        ids: list[int] = []
        added = skipped = changed = 0
        if self.action == DecisionAction.REJECT:
            for s in spans:
                if s.text == self.needle and s.state != "rejected":
                    ids.append(ws.decide(s.id, DecisionAction.REJECT, reviewer=self.reviewer, batch=batch))
                    changed += 1
            return ids, added, skipped, changed
        for start, end in find_occurrences(text, self.needle):
            exact = next((s for s in spans if s.start == start and s.end == end), None)
            if exact is not None:
                if exact.category != self.category:
                    ids.append(ws.decide(exact.id, DecisionAction.RELABEL, reviewer=self.reviewer, category=self.category, fine=self.fine, batch=batch))
                    changed += 1
                elif exact.state not in PHI_STATES:
                    ids.append(ws.decide(exact.id, DecisionAction.ACCEPT, reviewer=self.reviewer, batch=batch))
                    changed += 1
                continue
            if any(s.state != "rejected" and overlaps(s.start, s.end, start, end) for s in spans):
                skipped += 1
                continue
            sid = ws.add_span(doc_id, start, end, self.category, self.fine, reviewer=self.reviewer, batch=batch)
            ids.append(add_decision_id(ws, doc_id, sid))
            added += 1
        return ids, added, skipped, changed


def identical_documents(workspace, document_id: int, subject_id: int | None, scope: Scope) -> tuple[int, ...]:
    """The documents "all identical" reaches: the open one, and under "subject" every other
    readable document of its subject."""
    if scope != "subject" or subject_id is None:
        return (document_id,)
    docs = workspace.list_documents(subject_id=subject_id)
    return (document_id, *[d.id for d in docs if d.id != document_id and d.status != DocStatus.ERROR])


@dataclass
class MarkReviewed(ReviewCommand):
    """The reviewer finished the document (or, for the second reviewer, the second review).
    Undo puts back the status it had, or reopens the second review."""

    status_before: DocStatus = DocStatus.IN_REVIEW
    undecided: int = 0
    focus: int | None = None

    always_a_step = True
    follows_reviewer = False

    def apply(self, workspace) -> StepResult:
        second = workspace.finish_review(self.document_id, reviewer=self.reviewer) == 2
        note = f" {self.undecided} undecided finding(s) will be treated as PHI at export." if self.undecided else ""
        what = "Second review finished." if second else "Document marked reviewed."
        return StepResult([], self.focus, {self.document_id}, summary=f"{what}{note}", changed=frozenset(), second_review=second)

    def undo(self, workspace, result: StepResult) -> None:
        if result.second_review:
            workspace.reopen_second_review(self.document_id)
        else:
            workspace.set_status(self.document_id, self.status_before)


# -- what a key means for the selected finding ----------------------------------------------


@dataclass(frozen=True)
class Intent:
    """A reviewer's key turned into a step: the command and its undo-stack label, or no
    command and a message saying why there is nothing to decide."""

    label: str
    command: ReviewCommand | None = None


def accept_intent(document_id: int, reviewer: str, span) -> Intent:
    """A: accept the finding and move on; one already kept as PHI only moves on."""
    if span.state in PHI_STATES:
        return Intent("Already accepted")
    return Intent("Accept finding", Decide(document_id, reviewer, span.id, DecisionAction.ACCEPT, advance=True))


def reject_intent(document_id: int, reviewer: str, span) -> Intent:
    """R: reject the finding and move on; one already rejected only moves on."""
    if span.state == "rejected":
        return Intent("Already rejected")
    return Intent("Reject finding", Decide(document_id, reviewer, span.id, DecisionAction.REJECT, advance=True))


def relabel_intent(document_id: int, reviewer: str, span, category: Category) -> Intent:
    """A category key on a finding: relabel it (keeping its fine type where the category
    has it); its own category accepts it."""
    name = display_name(category)
    if span.category == category:
        if span.state in PHI_STATES:
            return Intent(f"Already accepted as {name}.")
        return Intent(f"Accept as {name}", Decide(document_id, reviewer, span.id, DecisionAction.ACCEPT))
    options = {"category": category, "fine": normalise_fine(category, span.fine)}
    return Intent(f"Relabel as {name}", Decide(document_id, reviewer, span.id, DecisionAction.RELABEL, options=options))


def resize_intent(document_id: int, reviewer: str, text: str, span, edge: Edge, grow: bool) -> Intent:
    """[ ] { }: move one edge of the finding by a word."""
    extent = resized_extent(text, span.start, span.end, edge, grow)
    if extent is None:
        return Intent("The span cannot be shrunk below one word." if not grow else f"No word to take in at the {edge}.")
    what = ("Widen" if grow else "Shrink") + f" span {edge}"
    return Intent(what, Decide(document_id, reviewer, span.id, DecisionAction.RESIZE, options={"start": extent[0], "end": extent[1]}))


def mark_intent(document_id: int, reviewer: str, spans: Sequence, start: int, end: int, category: Category) -> Intent:
    """Selected text and a category key, where no finding has exactly that extent: a new
    span, or — over findings — the first made exactly this and the others rejected."""
    name = display_name(category)
    overlapping = [s for s in spans if s.state != "rejected" and overlaps(s.start, s.end, start, end)]
    if not overlapping:
        return Intent(f"Add {name} span", AddSpan(document_id, reviewer, start, end, category))
    keep = overlapping[0]
    fix = CorrectSpan(
        document_id, reviewer, keep.id, keep.category, start, end, category,
        normalise_fine(category, keep.fine), tuple(s.id for s in overlapping[1:]),
    )
    return Intent(f"Correct span to {name}", fix)
