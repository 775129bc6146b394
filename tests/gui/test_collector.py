"""Cyclic garbage holding widgets is freed on the GUI thread, never on a worker thread.

Without this a window or dialog left in a reference cycle was collected by whichever thread
allocated next; when that was the detection thread, Qt deleted widgets off the GUI thread and
the process died (a segfault in 2 of 3 runs of the GUI suite while a model loaded)."""

from __future__ import annotations

import gc
import threading


def _cyclic_widget(record: list):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QWidget

    w = QWidget()
    w.myself = w  # a reference cycle: only the cyclic collector can free it
    w.destroyed.connect(lambda *_: record.append(threading.get_ident()), Qt.ConnectionType.DirectConnection)


def test_the_application_collects_garbage_on_the_gui_thread_only(qtbot, gui_thread_collector):
    from deid_desktop.gui.app import application

    app = application()
    assert not gc.isenabled(), "automatic collection would run in worker threads"
    from deid_desktop.gui.collector import GuiThreadCollector

    assert app.findChildren(GuiThreadCollector) == [gui_thread_collector]

    destroyed_in: list[int] = []
    _cyclic_widget(destroyed_in)

    def allocate():  # far past every threshold: the interpreter would collect here
        junk = []
        for _ in range(200_000):
            junk.append([])
            junk[-1].append(junk[-1])

    t = threading.Thread(target=allocate)
    t.start()
    t.join()
    assert destroyed_in == []
    qtbot.waitUntil(lambda: bool(destroyed_in), timeout=5_000)
    assert destroyed_in == [threading.main_thread().ident]


def test_a_tick_collects_only_what_is_due(gui_thread_collector):
    gc.collect()
    assert gui_thread_collector.check() == 0
    for _ in range(gui_thread_collector.thresholds[0] + 10):
        a = []
        a.append(a)
    del a
    assert gui_thread_collector.check() > 0
