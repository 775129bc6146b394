"""Ages: above the cap they become the cap text ("92" -> "90+"), as HIPAA Safe Harbor asks.

Ages at or below the cap stay as written unless ``keep_ages_under_cap`` is off; then they
move by a few years (never across the cap). Words around the number stay: "92-year-old"
becomes "90+ year old" (a hyphen after "90+" reads badly), "aged ninety-two" becomes
"aged 90+".
"""

from __future__ import annotations

import random
import re

from ..categories import Category
from .base import SurrogateContext, SurrogateGenerator, register
from .keys import normalise_key

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19,
}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
         "eighty": 80, "ninety": 90}
_TENS_WORDS = "|".join(_TENS)
_UNIT_WORDS = "|".join(sorted(_UNITS, key=len, reverse=True))
_NUMBER = re.compile(
    rf"(?P<digits>\d+(?:\.\d+)?)"
    rf"|(?P<words>(?:one\s+hundred(?:\s+and)?[\s-]*)?(?:(?:{_TENS_WORDS})(?:[\s-]+(?:{_UNIT_WORDS}))?|{_UNIT_WORDS})\b|one\s+hundred\b)",
    re.I,
)
# Words that by themselves say the person is over 89.
_OVER_CAP_WORDS = re.compile(r"\b(?:nonagenarian|centenarian|supercentenarian)\b", re.I)


def _word_value(words: str) -> int:
    total = 0
    for w in re.split(r"[\s-]+", words.lower()):
        if w == "hundred":
            total = (total or 1) * 100
        elif w in _TENS:
            total += _TENS[w]
        elif w in _UNITS:
            total += _UNITS[w]
    return total


@register
class AgeGenerator(SurrogateGenerator):
    category = Category.AGE
    fines = ("OTHER",)
    fallback = True

    def surrogate(self, original: str, ctx: SurrogateContext) -> str:
        opts = ctx.options
        m = _NUMBER.search(original)
        if m is None:
            return _OVER_CAP_WORDS.sub(opts.age_cap_text, original)
        value = float(m.group("digits")) if m.group("digits") else _word_value(m.group("words"))
        before, after = original[: m.start()], original[m.end() :]
        if value > opts.age_cap:
            # "92-year-old" -> "90+ year old": the hyphens of the compound would hang off "+".
            if re.match(r"-[^\W\d_]", after):
                after = " " + re.sub(r"-(?=[^\W\d_])", " ", after[1:])
            elif re.match(r"[^\W\d_]", after):
                after = " " + after
            return before + opts.age_cap_text + after
        if opts.keep_ages_under_cap:
            return original
        rng = ctx.rng("AGE", normalise_key(original))
        age = int(value)
        choices = [a for a in range(max(0, age - 3), min(opts.age_cap, age + 3) + 1) if a != age]
        return before + str(rng.choice(choices or [age + 1])) + after

    def sample(self, rng: random.Random, locale: str | None, gender: str | None) -> str:
        # Adults dominate clinical letters; a few very old patients exercise the cap.
        band = rng.choices(["child", "adult", "old", "very_old"], weights=[12, 60, 24, 4])[0]
        low, high = {"child": (0, 17), "adult": (18, 64), "old": (65, 89), "very_old": (90, 104)}[band]
        return str(rng.randint(low, high))
