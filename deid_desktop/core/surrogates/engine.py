"""The surrogate engine: one call per value, or all the replacements of a document."""

from __future__ import annotations

from dataclasses import replace

from ..categories import Category, normalise_fine, parse_category
from ..documents.model import Replacement
from ..spans import Span, sort_spans
from . import generators as _registered  # noqa: F401  (registers every generator)
from .base import SurrogateContext, generator_for
from .dates import date_order_hint, shift_for_subject
from .keys import KeyRing, normalise_key
from .options import SurrogateOptions
from .tags import blackout, tag

MODES = ("surrogate", "tag", "blackout")
# Redraws before giving up on a realistic surrogate; only values with nothing to vary
# (a title alone, punctuation) ever get that far.
_MAX_ATTEMPTS = 8


class SurrogateEngine:
    """Realistic, consistent replacements keyed by the workspace secret.

    The surrogate of a value depends only on (secret, subject, category, normalised value):
    nothing is remembered, so documents can be processed in any order, in any process.
    """

    def __init__(self, secret: bytes, options: SurrogateOptions | None = None):
        self._keys = KeyRing(secret)
        self.options = options or SurrogateOptions()

    def date_shift_days(self, subject: str) -> int:
        """Days every date of this subject moves by (negative: into the past)."""
        return shift_for_subject(self._keys, subject, self.options)

    def surrogate(self, original: str, category: Category | str, fine: str = "OTHER", subject: str = "") -> str:
        return self._surrogate(original, category, fine, subject, day_first_hint=None)

    def tag(self, category: Category | str) -> str:
        return tag(_category(category), self.options.tag_style)

    def replacements(
        self, text: str, spans: list[Span], subject: str = "", mode: str = "surrogate"
    ) -> list[Replacement]:
        """One Replacement per span, in document order. Spans must not overlap."""
        if mode not in MODES:
            raise ValueError(f"unknown replacement mode {mode!r}; expected one of {', '.join(MODES)}")
        ordered = sort_spans(spans)
        for prev, cur in zip(ordered, ordered[1:]):
            if cur.start < prev.end:
                raise ValueError(f"spans overlap at offsets {prev.start}..{prev.end} and {cur.start}..{cur.end}")
        if ordered and ordered[-1].end > len(text):
            raise ValueError(f"span {ordered[-1].start}..{ordered[-1].end} lies beyond the end of the text")
        hint = None
        if mode == "surrogate":
            hint = date_order_hint([s.text(text) for s in ordered if s.category is Category.DATE])
        out = []
        for s in ordered:
            original = s.text(text)
            if mode == "tag":
                new = tag(s.category, self.options.tag_style)
            elif mode == "blackout":
                new = blackout(original, self.options.blackout_char)
            else:
                new = self._surrogate(original, s.category, s.fine, subject, day_first_hint=hint)
            out.append(Replacement(s.start, s.end, new, s.category.value))
        return out

    def _surrogate(
        self, original: str, category: Category | str, fine: str, subject: str, day_first_hint: bool | None
    ) -> str:
        category = _category(category)
        fine = normalise_fine(category, fine)
        original_key = normalise_key(original)
        if not original_key:  # nothing identifying to vary, so nothing realistic to put instead
            return tag(category, self.options.tag_style)
        ctx = SurrogateContext(
            keys=self._keys,
            subject=subject,
            options=self.options,
            shift_days=self.date_shift_days(subject),
            day_first_hint=day_first_hint,
        )
        generator = generator_for(category, fine, original, ctx)
        for attempt in range(_MAX_ATTEMPTS):
            value = generator.surrogate(original, replace(ctx, attempt=attempt))
            if normalise_key(value) != original_key:
                return value
            if category is Category.AGE and self.options.keep_ages_under_cap:
                return value  # the documented exception: ages up to the cap may stay
        return tag(category, self.options.tag_style)


def _category(category: Category | str) -> Category:
    return category if isinstance(category, Category) else parse_category(str(category))
