"""PyInstaller runtime hook: runs inside the bundled app before any of its modules.

No network at run time: the Hugging Face libraries are switched offline before they are
imported (core/learn/hf.py does the same, but a frozen app must not depend on import order).
``DEID_AUDIT_OPENS=FILE`` records every path the app opens, one per line, so a test can check
the bundle reads nothing outside its folder and the user's data folders on a machine without
strace (tests/packaging/test_bundle.py)."""

import os
import sys

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")


def _install_open_audit(log_path: str) -> None:
    """Appends each opened path (file names only; never contents) to ``log_path``."""
    log = open(log_path, "a", buffering=1, encoding="utf-8", errors="replace")  # noqa: SIM115 (lives as long as the process)

    def hook(event: str, args: tuple) -> None:
        if event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
            path = os.fsdecode(args[0])
            log.write(os.path.abspath(path) + "\n")
        elif event == "os.listdir" and args and args[0] is not None:
            log.write(os.path.abspath(os.fsdecode(args[0])) + "\n")

    sys.addaudithook(hook)


if os.environ.get("DEID_AUDIT_OPENS"):
    _install_open_audit(os.environ["DEID_AUDIT_OPENS"])
