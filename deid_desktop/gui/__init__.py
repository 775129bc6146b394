"""The PySide6 review application.

Views are thin: what an action does to the workspace is a use case of
``deid_desktop.core.usecases`` (review commands, detection runs, import planning, export
jobs); the GUI adds signals (``review.py`` adapts the review commands to an undo stack),
threads (``workers.py``) and widgets. Nothing under ``deid_desktop.core`` imports this
package.
"""
