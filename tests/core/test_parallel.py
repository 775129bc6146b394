"""Work run a few items at a time in threads, results taken in order (core/parallel.py)."""

from __future__ import annotations

import threading
import time

import pytest

from deid_desktop.core.parallel import in_order


def test_results_come_in_the_order_given_whatever_finishes_first():
    def work(i: int) -> int:
        time.sleep(0.02 * (i % 3))  # later items often finish first
        return i * i

    assert list(in_order(work, range(12), 3, "t-order")) == [(i, i * i) for i in range(12)]
    assert list(in_order(work, [], 3, "t-order")) == []


def test_items_run_at_the_same_time_in_named_threads():
    both = threading.Barrier(2)
    names: set[str] = set()

    def work(i: int) -> int:
        names.add(threading.current_thread().name)
        both.wait(timeout=10)  # only passes when two items are inside at once
        return i

    assert [r for _, r in in_order(work, range(4), 2, "t-named")] == [0, 1, 2, 3]
    assert len(names) == 2 and all(n.startswith("t-named") for n in names)


def test_one_thread_runs_in_the_callers_thread():
    seen = []
    list(in_order(lambda i: seen.append(threading.current_thread().name), range(3), 1, "t-none"))
    assert set(seen) == {threading.current_thread().name}


def test_a_caller_that_stops_early_leaves_no_thread_and_starts_no_more_work():
    started = []

    def work(i: int) -> int:
        started.append(i)
        return i

    for _, r in in_order(work, range(100), 2, "t-stop"):
        if r == 1:
            break
    assert len(started) <= 6  # two threads, a few ahead: not the hundred
    assert not [t for t in threading.enumerate() if t.name.startswith("t-stop")]


def test_a_failing_item_is_raised_to_the_caller():
    def work(i: int) -> int:
        if i == 3:
            raise ValueError("item 3")
        return i

    with pytest.raises(ValueError, match="item 3"):
        list(in_order(work, range(10), 2, "t-fail"))
    assert not [t for t in threading.enumerate() if t.name.startswith("t-fail")]
