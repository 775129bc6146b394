"""Where shipped resources and local models live."""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent
PROJECT_DIR = PACKAGE_DIR.parent


def resources_dir() -> Path:
    env = os.environ.get("DEID_RESOURCES")
    return Path(env) if env else PROJECT_DIR / "resources"


def models_dir() -> Path:
    env = os.environ.get("DEID_MODELS")
    return Path(env) if env else PROJECT_DIR / "models"


def resource(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)
