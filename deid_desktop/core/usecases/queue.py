"""What the review window opens next: the queue's order as the reviewer sees it, read
without Qt."""

from __future__ import annotations

from typing import Mapping, Sequence

from ..store import DocStatus

NEEDS_REVIEW = (DocStatus.DETECTED, DocStatus.IN_REVIEW)


def next_to_review(order: Sequence[int], statuses: Mapping[int, str], after: int) -> int | None:
    """After ``after`` was marked reviewed: the first document below it in ``order`` (the
    queue as shown) that still needs review, wrapping round to the top; None when none
    does."""
    following = [*order[order.index(after) + 1 :], *order[: order.index(after)]] if after in order else list(order)
    return next((i for i in following if i in statuses and DocStatus(statuses[i]) in NEEDS_REVIEW), None)
