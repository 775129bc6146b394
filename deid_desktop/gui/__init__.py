"""The PySide6 review application.

Views are thin: they read rows from the workspace and plain controllers (``review.py``,
``detection.py``, ``exporting.py``, ``importing.py``) and turn user gestures into calls on
those controllers. Nothing under ``deid_desktop.core`` imports this package.
"""

from __future__ import annotations

import sys


def _emit_drops_a_bool_reference() -> bool:
    from PySide6.QtCore import QObject, Signal

    class _Probe(QObject):
        ping = Signal()

    probe = _Probe()
    before = sys.getrefcount(True) + sys.getrefcount(False)
    probe.ping.emit()
    return sys.getrefcount(True) + sys.getrefcount(False) < before


def _protect_bool_singletons() -> None:
    """PySide6 6.12 on CPython 3.11: ``SignalInstance.emit()`` returns True/False without
    owning a reference, so every emit from Python lowers the singleton's refcount by one and
    after a few hundred emits CPython aborts ("bool_dealloc: deallocating True or False").
    CPython 3.12 made these singletons immortal; on 3.11 we give them the same property by
    raising their refcount far out of reach. Applied only when the defect is observed."""
    if sys.implementation.name != "cpython" or sys.version_info >= (3, 12) or hasattr(sys, "getobjects"):
        return
    if not _emit_drops_a_bool_reference():
        return
    import ctypes

    for singleton in (True, False):
        ctypes.c_ssize_t.from_address(id(singleton)).value += 1 << 40


_protect_bool_singletons()
