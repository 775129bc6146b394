"""Entry point of the bundled (PyInstaller) app: the same command line as ``deid-desktop``
from a wheel, so ``/opt/deid-desktop/deid-desktop gui`` and ``... deidentify IN --out OUT``
work without Python on the machine."""

import multiprocessing
import sys

from deid_desktop.cli import main

if __name__ == "__main__":
    # ``deidentify --workers N`` starts spawned processes; in a frozen app each child re-runs
    # this executable and freeze_support() turns it into the worker instead of a second CLI.
    multiprocessing.freeze_support()
    sys.exit(main())
