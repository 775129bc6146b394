"""The surrogate engine: one call per value, or all the replacements of a document."""

from __future__ import annotations

from dataclasses import replace

from ..categories import Category, normalise_fine, parse_category
from ..documents.model import Replacement
from ..spans import Span, sort_spans
from . import generators as _registered  # noqa: F401  (registers every generator)
from .base import SurrogateContext, generator_for
from .choices import DocumentChoices
from .country import guess_country
from .dates import date_order_hint, shift_for_subject
from .digit_strings import digit_key, is_digit_string
from .keys import KeyRing, normalise_key
from .modes import MODES, ExportMode
from .names import document_full_names, document_words
from .options import SurrogateOptions
from .tags import blackout, tag

# Redraws before giving up on a realistic surrogate; only values with nothing to vary
# (a title alone, punctuation) ever get that far.
_MAX_ATTEMPTS = 8
# Rounds of redrawing one original whose surrogate another original of the document took.
_MAX_REDRAWS = 8


class SurrogateEngine:
    """Realistic, consistent replacements keyed by the workspace secret.

    The surrogate of a value depends only on (secret, subject, category, normalised value)
    and, through ``replacements``, on what the same document shows (its country, its full
    names, which other originals it holds): nothing is remembered between documents, so
    they can be processed in any order, in any process.
    """

    def __init__(self, secret: bytes, options: SurrogateOptions | None = None):
        self._keys = KeyRing(secret)
        self.options = options or SurrogateOptions()

    def date_shift_days(self, subject: str) -> int:
        """Days every date of this subject moves by (negative: into the past)."""
        return shift_for_subject(self._keys, subject, self.options)

    def surrogate(self, original: str, category: Category | str, fine: str = "OTHER", subject: str = "") -> str:
        """The surrogate of one value on its own (no document around it to learn from)."""
        return self._surrogate(original, _category(category), fine, self._context(subject))

    def tag(self, category: Category | str) -> str:
        return tag(_category(category), self.options.tag_style)

    def replacements(
        self,
        text: str,
        spans: list[Span],
        subject: str = "",
        mode: ExportMode | str = ExportMode.SURROGATE,
        *,
        country: str | None = None,
    ) -> list[Replacement]:
        """One Replacement per span, in document order. Spans must not overlap.

        ``country`` (US, UK, AU or NZ) says where the document comes from; without it the
        options' locale is used, else the country is guessed from the document's
        identifiers, phone numbers and postcodes (see ``country.guess_country``).
        """
        mode = ExportMode.parse(mode)
        ordered = sort_spans(spans)
        for prev, cur in zip(ordered, ordered[1:]):
            if cur.start < prev.end:
                raise ValueError(f"spans overlap at offsets {prev.start}..{prev.end} and {cur.start}..{cur.end}")
        if ordered and ordered[-1].end > len(text):
            raise ValueError(f"span {ordered[-1].start}..{ordered[-1].end} lies beyond the end of the text")
        if mode is ExportMode.TAG:
            return [Replacement(s.start, s.end, tag(s.category, self.options.tag_style), s.category.value) for s in ordered]
        if mode is ExportMode.BLACKOUT:
            return [
                Replacement(s.start, s.end, blackout(s.text(text), self.options.blackout_char), s.category.value)
                for s in ordered
            ]
        values = [s.text(text) for s in ordered]
        ctx = self._document_context(text, ordered, values, subject, country)
        # First pass: every original asks for its choices, once (a repeat asks the same).
        # A surrogate that asked for none is already what the second pass would make.
        settled: dict[tuple[str, Category, str, int], str] = {}
        for value, category, fine in dict.fromkeys((v, s.category, s.fine) for s, v in zip(ordered, values)):
            picks = ctx.choices.picks
            new = self._surrogate(value, category, fine, ctx)
            if ctx.choices.picks == picks:
                settled[(value, category, fine, 0)] = new
        ctx.choices.resolve(ctx)
        news = self._distinct_surrogates(ordered, values, ctx, settled)
        return [Replacement(s.start, s.end, new, s.category.value) for s, new in zip(ordered, news)]

    def _context(self, subject: str, **document: object) -> SurrogateContext:
        document.setdefault("country", self.options.locale)
        return SurrogateContext(
            keys=self._keys,
            subject=subject,
            options=self.options,
            shift_days=self.date_shift_days(subject),
            **document,
        )

    def _document_context(
        self, text: str, spans: list[Span], values: list[str], subject: str, country: str | None
    ) -> SurrogateContext:
        """What the whole document tells each of its values: how it writes dates, where it
        comes from, and which full names it mentions."""
        if country is not None:
            country = SurrogateOptions(locale=country).locale
        return self._context(
            subject,
            day_first_hint=date_order_hint([v for s, v in zip(spans, values) if s.category is Category.DATE]),
            country=country or self.options.locale or guess_country(text, spans),
            choices=_WatchedChoices(),
            known_names=document_full_names(v for s, v in zip(spans, values) if s.category is Category.NAME),
            document_words=document_words(dict.fromkeys(values)),
        )

    def _distinct_surrogates(
        self, spans: list[Span], values: list[str], ctx: SurrogateContext, known: dict[tuple[str, Category, str, int], str]
    ) -> list[str]:
        """Each span's surrogate, with different originals of one kind kept apart.

        Two different originals whose surrogates came out the same (or whose surrogate is
        another original of the document) are told apart by redrawing: the originals are
        taken in their keyed (HMAC) order, so which one keeps its first surrogate depends
        on the document's set of originals, not on the order of the text or of the work.
        Names are left out (their words are keyed one by one and must stay consistent with
        every other mention), as are dates (one shift for all) and ages (capped on purpose).
        """
        groups = [_distinct_group(s.category, v) for s, v in zip(spans, values)]
        offset: dict[tuple[str, str], int] = {}
        # ``known``: surrogates already made, by (original, category, fine type, redraw).
        # A value repeated in the document (a name on every line of a huge note) is worked
        # out once per redraw: with the choices resolved, the surrogate depends only on
        # the exact original (its case shapes the output), its kind and the redraw. Kept
        # for this document only, whose full names and choices it reflects.

        def compute(i: int) -> str:
            s = spans[i]
            attempt = offset.get(groups[i], 0) * _MAX_ATTEMPTS
            key = (values[i], s.category, s.fine, attempt)
            if key not in known:
                known[key] = self._surrogate(values[i], s.category, s.fine, replace(ctx, attempt=attempt))
            return known[key]

        news = [compute(i) for i in range(len(spans))]
        members: dict[tuple[str, str], list[int]] = {}
        for i, g in enumerate(groups):
            if g[0]:
                members.setdefault(g, []).append(i)
        for group in sorted({g[0] for g in members}):
            originals = {k for (grp, k) in members if grp == group}
            written = {normalise_key(values[i]) for (grp, _), idxs in members.items() if grp == group for i in idxs}
            taken: set[str] = set()
            for k in sorted(originals, key=lambda k: ctx.keys.digest("distinct-order", ctx.subject, group, k)):
                idxs = members[(group, k)]
                own = {normalise_key(values[i]) for i in idxs}
                for _ in range(_MAX_REDRAWS):
                    produced = {normalise_key(news[i]) for i in idxs}
                    # taken, or another original of the group; asked per surrogate, since
                    # building "every other original" per original made a document with
                    # thousands of them take the square of that
                    if not any(p in taken or (p in written and p not in own) for p in produced):
                        break
                    offset[(group, k)] = offset.get((group, k), 0) + 1
                    for i in idxs:
                        news[i] = compute(i)
                taken |= {normalise_key(news[i]) for i in idxs}
        return news

    def _surrogate(self, original: str, category: Category, fine: str, ctx: SurrogateContext) -> str:
        fine = normalise_fine(category, fine)
        original_key = normalise_key(original)
        if not original_key:  # nothing identifying to vary, so nothing realistic to put instead
            return tag(category, self.options.tag_style)
        generator = generator_for(category, fine, original, ctx)
        for attempt in range(ctx.attempt, ctx.attempt + _MAX_ATTEMPTS):
            value = generator.surrogate(original, replace(ctx, attempt=attempt))
            if normalise_key(value) != original_key:
                return value
            if category is Category.AGE and self.options.keep_ages_under_cap:
                return value  # the documented exception: ages up to the cap may stay
        return tag(category, self.options.tag_style)


class _WatchedChoices(DocumentChoices):
    """The document's choices, counting the picks asked of them: a surrogate made without
    one does not change when the choices are settled, so it is made once, not twice."""

    picks = 0

    def pick(self, ctx: SurrogateContext, slot: str, key: str, original: str, options) -> str:
        self.picks += 1
        return super().pick(ctx, slot, key, original, options)


def _distinct_group(category: Category, original: str) -> tuple[str, str]:
    """Which originals must not share a surrogate, and the key that tells them apart: digit
    strings share one group whatever their label (one number, one surrogate); names, dates
    and ages are in none ("")."""
    if category in (Category.NAME, Category.DATE, Category.AGE):
        return "", ""
    if category in (Category.CONTACT, Category.ID) and is_digit_string(original):
        return "digits", digit_key(original)
    return category.value, normalise_key(original)


def _category(category: Category | str) -> Category:
    return category if isinstance(category, Category) else parse_category(str(category))
