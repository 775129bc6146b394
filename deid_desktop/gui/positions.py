"""Character offsets of the workspace ↔ positions in the Qt text view.

Spans are offsets into the Python string (code points). A QTextDocument made from the same
string counts differently in two places: a CRLF line break becomes one paragraph separator,
and a character outside the Basic Multilingual Plane (an emoji, some CJK) takes two UTF-16
units. Without this mapping every highlight after the first CRLF line would drift.
"""

from __future__ import annotations

import bisect
import re
from itertools import accumulate

_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")


class PositionMap:
    def __init__(self, text: str) -> None:
        self.length = len(text)
        events: list[tuple[int, int]] = []  # (first offset the change applies to, change)
        for m in re.finditer("\r\n", text):
            events.append((m.start() + 2, -1))
        for m in _ASTRAL.finditer(text):
            events.append((m.start() + 1, +1))
        events.sort()
        self._at = [e[0] for e in events]
        self._shift = list(accumulate(e[1] for e in events))

    @property
    def identity(self) -> bool:
        return not self._at

    def to_view(self, offset: int) -> int:
        """Qt position of a text offset."""
        i = bisect.bisect_right(self._at, offset)
        return offset + (self._shift[i - 1] if i else 0)

    def to_text(self, position: int) -> int:
        """Text offset of a Qt position (the start of a character the position falls inside)."""
        if self.identity:
            return position
        lo, hi = 0, self.length
        while lo < hi:  # the largest offset whose view position is <= position
            mid = (lo + hi + 1) // 2
            if self.to_view(mid) <= position:
                lo = mid
            else:
                hi = mid - 1
        return lo
