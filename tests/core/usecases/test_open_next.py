"""What the review window opens after "mark reviewed" (core/usecases/queue.py)."""

from __future__ import annotations

from deid_desktop.core.usecases.queue import next_to_review


def test_next_to_review_follows_the_shown_order_and_wraps_round():
    statuses = {1: "in_review", 2: "reviewed", 3: "exported", 4: "detected", 5: "imported"}
    assert next_to_review([4, 1, 2, 3], statuses, 1) == 4  # below 1 nothing needs review: wraps to 4
    assert next_to_review([1, 2, 4], statuses, 2) == 4
    assert next_to_review([2, 3, 5], statuses, 2) is None  # imported is not yet reviewable
    assert next_to_review([4], statuses, 9) == 4  # the reviewed document is filtered out of view
