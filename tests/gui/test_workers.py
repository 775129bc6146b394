"""Background threads: a job's end is always reported, however quickly it ends, and waiting
for a job that has ended returns at once."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import QObject, Slot

from deid_desktop.gui.workers import Worker, start_in_thread

pytestmark = pytest.mark.gui


class Instant(Worker):
    @Slot()
    def run(self) -> None:
        self.finished.emit()


class Owner(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.ended = 0

    def on_end(self) -> None:
        self.ended += 1


def test_a_job_that_ends_before_the_caller_looks_is_still_reported(qtbot):
    owner = Owner()
    worker = Instant()
    thread = start_in_thread(owner, worker, owner.on_end)
    time.sleep(0.3)  # the GUI thread is busy elsewhere; the job has long ended
    assert thread.wait(5_000)
    qtbot.waitUntil(lambda: owner.ended == 1, timeout=5_000)


def test_waiting_for_an_ended_job_does_not_wait_for_the_event_loop(qtbot):
    owner = Owner()
    worker = Instant()  # the caller keeps the worker alive until it ends
    thread = start_in_thread(owner, worker, owner.on_end)
    t0 = time.perf_counter()
    finished = thread.wait(20_000)  # no event processing while waiting
    assert finished and time.perf_counter() - t0 < 10  # not the 20 s timeout
    qtbot.waitUntil(lambda: owner.ended == 1, timeout=5_000)
