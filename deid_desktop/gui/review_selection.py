"""The review controller's selection: which finding is selected, J / K through the findings,
and where the selection goes after a decision. Which finding that is, is decided in
``core/usecases/review.py``; this part holds the selected id and signals its change."""

from __future__ import annotations

from ..core.usecases.review import next_undecided, span_at, step_selection, undecided_count


class ReviewSelection:
    """Part of :class:`~deid_desktop.gui.review.ReviewController` (a mixin: it uses the
    controller's ``spans``, ``current_id`` and signals)."""

    @property
    def current(self):
        return self.span(self.current_id) if self.current_id is not None else None

    def span(self, span_id: int):
        return next((s for s in self.spans if s.id == span_id), None)

    def select(self, span_id: int | None) -> None:
        if span_id is not None and self.span(span_id) is None:
            return
        if span_id == self.current_id:
            return
        self.current_id = span_id
        self.current_changed.emit(span_id if span_id is not None else -1)

    def span_at(self, position: int):
        """The finding under a character position (``core.usecases.review.span_at``)."""
        return span_at(self.spans, position)

    def next_finding(self) -> None:
        self._step_selection(+1)

    def previous_finding(self) -> None:
        self._step_selection(-1)

    def _step_selection(self, direction: int) -> None:
        target, why = step_selection(self.spans, self.current_id, direction)
        if target is not None:
            self.select(target)
        else:
            self.message.emit(why)

    def _advance_from(self, span_id: int | None) -> None:
        """After a decision: the next undecided finding below, else the first one above."""
        ref = self.span(span_id) if span_id is not None else None
        target = next_undecided(self.spans, ref)
        if target is None:
            if ref is not None:
                self.select(span_id)
            self.message.emit("Every finding in this document is decided — Ctrl+Enter marks it reviewed.")
            return
        self.select(target.id)

    def _require_current(self):
        cur = self.current
        if cur is None:
            self.message.emit("Select a finding first (J / K move through them).")
        return cur

    def undecided_count(self) -> int:
        return undecided_count(self.spans)

    def select_first_undecided(self) -> None:
        """Go to the first undecided finding, with a reminder of the keys that decide it."""
        first = next((s for s in self.spans if s.state == "undecided"), None)
        if first is None:
            return
        self.select(first.id)
        n = self.undecided_count()
        self.message.emit(f"{n:,} finding(s) to decide: A accepts, R rejects, J / K move; Ctrl+Enter when done.")
