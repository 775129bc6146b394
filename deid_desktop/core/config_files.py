"""Reading the TOML files users edit (ensembles, training settings, label maps), with errors
that name the file and what it is.

Two things every such file gets here: ``extends = "other.toml"`` (read the other file first,
then let this one's tables override it key by key), and a schema check, so that a misspelt
key (``stratgy``), a value of the wrong type or an unknown name is an error naming the file,
the key and what is allowed, rather than a default silently used in its place.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Mapping

from .errors import ConfigError

EXTENDS = "extends"

# key -> the Python types its TOML value may have (int is also accepted where float is)
Schema = Mapping[str, tuple[type, ...]]
NUMBER: tuple[type, ...] = (int, float)

_TYPE_NAMES = {str: "a string", bool: "true or false", int: "a whole number", float: "a number", list: "a list", dict: "a table"}


def read_toml(path: str | Path, what: str) -> dict[str, Any]:
    """``what`` names the kind of file in the message ("ensemble configuration")."""
    p = Path(path)
    try:
        return tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{what} {p} does not exist") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{what} {p.name} is not valid TOML: {e}") from None


def read_toml_chain(path: str | Path, what: str, *, shipped: Path | None = None, check=None) -> dict[str, Any]:
    """The file's content with ``extends`` resolved, the extended file first.

    ``extends`` names a file beside this one or, failing that, one in ``shipped`` (so a
    user's file can extend a shipped one by its bare name). Tables merge key by key; any
    other value (an array of tables such as ``[[member]]``) is replaced whole. ``check(raw,
    file_name)`` is called on each file of the chain as written, so an error names the file
    that holds the mistake."""
    return _chain(Path(path), what, shipped, check, seen=[])


def _chain(p: Path, what: str, shipped: Path | None, check, seen: list[Path]) -> dict[str, Any]:
    rp = p.resolve()
    if rp in seen:
        raise ConfigError(f"{p.name}: '{EXTENDS}' loops back to itself")
    seen.append(rp)
    raw = read_toml(p, what)
    base = raw.pop(EXTENDS, None)
    if check is not None:
        check(raw, p.name)
    if base is None:
        return raw
    if not isinstance(base, str):
        raise ConfigError(f"{p.name}: '{EXTENDS}' must name a file, not {_type_name(base)}")
    parent = p.parent / base
    if not parent.is_file() and shipped is not None and (shipped / base).is_file():
        parent = shipped / base
    merged = _chain(parent, what, shipped, check, seen)
    for key, value in raw.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    return merged


def check_table(table: Mapping[str, Any], schema: Schema, file: str, where: str) -> None:
    """Every key of ``table`` is in ``schema`` and has one of its types."""
    for key, value in table.items():
        if key not in schema:
            raise ConfigError(f"{file}: unknown key {key!r} in {where}; allowed: {', '.join(sorted(schema))}")
        check_value(value, schema[key], file, f"{key!r} in {where}")


def check_value(value: Any, types: tuple[type, ...], file: str, what: str) -> None:
    # bool is an int to Python; in a settings file true is not a number
    ok = isinstance(value, types) and not (isinstance(value, bool) and bool not in types)
    if not ok:
        expected = " or ".join(_TYPE_NAMES.get(t, t.__name__) for t in types)
        raise ConfigError(f"{file}: {what} must be {expected}, not {_type_name(value)}")


def check_choice(value: Any, allowed: tuple[str, ...] | list[str], file: str, what: str) -> None:
    """``what`` names the kind of value: "ensemble strategy" gives "unknown ensemble strategy 'vote'"."""
    if value not in allowed:
        raise ConfigError(f"{file}: unknown {what} {value!r}; allowed: {', '.join(allowed)}")


def _type_name(value: Any) -> str:
    return _TYPE_NAMES.get(type(value), type(value).__name__)
