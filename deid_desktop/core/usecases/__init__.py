"""Use cases without Qt: what the window does to the workspace and the files, in a form the
command line and the tests can run as well.

Each module holds what one user-visible task does to the workspace and the files: review
actions as undoable commands (``review``), the "never/always flag" terms (``terms``), a
detection run (``detection``), import planning (``importing``), export jobs (``exporting``)
and the queue decisions the window makes between them (``queue``). The GUI wraps them in
signals, threads and widgets; it holds no rule of its own.
"""
