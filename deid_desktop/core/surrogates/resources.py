"""Word lists shipped under ``resources/surrogates`` (TOML, read once per process)."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from ..paths import resource


def resource_dir() -> Path:
    return resource("surrogates")


@cache
def load(name: str) -> dict[str, Any]:
    """``load("places")`` reads ``resources/surrogates/places.toml``."""
    with (resource_dir() / f"{name}.toml").open("rb") as fh:
        return tomllib.load(fh)


def has(name: str) -> bool:
    return (resource_dir() / f"{name}.toml").exists()


def words(name: str, key: str) -> tuple[str, ...]:
    """One list from a resource file; dotted keys reach into tables ("US.cities")."""
    node: Any = load(name)
    for part in key.split("."):
        node = node[part]
    return tuple(node)
