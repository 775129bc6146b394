"""Reading the TOML files users edit (ensembles, training settings, label maps), with errors
that name the file and what it is."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from .errors import ConfigError


def read_toml(path: str | Path, what: str) -> dict[str, Any]:
    """``what`` names the kind of file in the message ("ensemble configuration")."""
    p = Path(path)
    try:
        return tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{what} {p} does not exist") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{what} {p.name} is not valid TOML: {e}") from None
