"""How an export replaces what it found: the three replacement modes."""

from __future__ import annotations

from enum import StrEnum


class ExportMode(StrEnum):
    """A StrEnum: the values are what the CLI's ``--mode``, the GUI setting ``export/mode``
    and reports hold, and a mode still equals its string."""

    SURROGATE = "surrogate"  # realistic replacements, keyed per subject
    TAG = "tag"  # [NAME], [DATE], ...
    BLACKOUT = "blackout"  # █████

    @classmethod
    def parse(cls, value: "ExportMode | str") -> "ExportMode":
        """The mode ``value`` names; a ValueError listing the modes otherwise."""
        try:
            return cls(value)
        except ValueError:
            raise ValueError(f"unknown replacement mode {value!r}; expected one of {', '.join(MODES)}") from None


# The mode names, for argument parsers and choice lists.
MODES: tuple[str, ...] = tuple(m.value for m in ExportMode)
