"""The PySide6 review application.

Views are thin: they read rows from the workspace and plain controllers (``review.py``,
``detection.py``, ``exporting.py``, ``importing.py``) and turn user gestures into calls on
those controllers. Nothing under ``deid_desktop.core`` imports this package.
"""
