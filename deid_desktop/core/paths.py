"""Where shipped resources, local models and per-user data live.

In a checkout (``make run``, an editable install) resources and models sit beside the
package: ``resources/`` and ``models/``. An installed wheel carries the resources inside the
package (``deid_desktop/_resources``, copied there by setup.py) and keeps models in the
user's data folder. The bundle (packaging/README.md) carries the resources the same way and
ships the default models read-only in its own folder; a user's own models, once built, take
their place. ``DEID_RESOURCES`` and ``DEID_MODELS`` override all of these.

Per-user data follows the XDG base directories: the workspace and the surrogate key under
``$XDG_DATA_HOME`` (``~/.local/share``), settings under ``$XDG_CONFIG_HOME`` (QSettings),
exports of read-only models under ``$XDG_CACHE_HOME`` (core/detect/onnx_runner.py).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent
PROJECT_DIR = PACKAGE_DIR.parent
INSTALLED_RESOURCES = PACKAGE_DIR / "_resources"


def in_checkout() -> bool:
    """True when running from the source tree rather than from an installed wheel."""
    return (PROJECT_DIR / "pyproject.toml").is_file() and (PROJECT_DIR / "resources").is_dir()


def user_data_dir() -> Path:
    """The per-user folder for the workspace, the surrogate key and (installed) models."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "deid-desktop"


def bundle_dir() -> Path | None:
    """The folder of a frozen (PyInstaller) build's files, or None when running from Python."""
    base = getattr(sys, "_MEIPASS", None)
    return Path(base) if getattr(sys, "frozen", False) and base else None


def shipped_models_dir() -> Path | None:
    """The default models a bundle ships (read-only), if it ships them."""
    b = bundle_dir()
    return b / "models" if b is not None and (b / "models").is_dir() else None


def in_bundle(path: Path) -> bool:
    """True for a path inside the running bundle, which is never written to, even by a user
    (root) whom the file system would let."""
    b = bundle_dir()
    if b is None:
        return False
    try:
        Path(path).resolve().relative_to(b.resolve())
    except ValueError:
        return False
    return True


def resources_dir() -> Path:
    env = os.environ.get("DEID_RESOURCES")
    if env:
        return Path(env)
    if INSTALLED_RESOURCES.is_dir():
        return INSTALLED_RESOURCES
    return PROJECT_DIR / "resources"


def own_models_dir() -> Path:
    """Where this user's models are built and saved (never the read-only bundle)."""
    env = os.environ.get("DEID_MODELS")
    if env:
        return Path(env)
    return PROJECT_DIR / "models" if in_checkout() else user_data_dir() / "models"


def _holds_a_model(folder: Path) -> bool:
    return folder.is_dir() and any((d / "CURRENT").is_file() or (d / "config.json").is_file() for d in folder.iterdir() if d.is_dir())


def models_dir() -> Path:
    """Where models are looked up: the user's own, else (in a bundle) the shipped defaults."""
    own = own_models_dir()
    shipped = shipped_models_dir()
    if shipped is not None and not os.environ.get("DEID_MODELS") and not _holds_a_model(own):
        return shipped
    return own


def build_model_command() -> str:
    """What to tell a user who has no model yet: the Makefile target in a checkout, the
    command itself in an installed app."""
    return "make model" if in_checkout() else "deid-desktop build-model"


def resource(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)
