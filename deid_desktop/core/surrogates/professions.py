"""Professions: another common occupation, with leading words such as "retired" kept."""

from __future__ import annotations

import random
import re

from ..categories import Category
from .base import SurrogateContext, SurrogateGenerator, register
from .casing import case_pattern
from .keys import distinct, normalise_key
from .invented import INVENTED_SHARE, invented_profession
from .resources import words

# Words in front of an occupation that say nothing about who the person is.
_MODIFIERS = re.compile(
    r"^((?:(?:retired|former|ex|semi-retired|part-time|full-time|self-employed|senior|junior|"
    r"trainee|apprentice|casual|unemployed|student)[\s-]+)*)(.*)$",
    re.I | re.S,
)


@register
class ProfessionGenerator(SurrogateGenerator):
    category = Category.PROFESSION
    fines = ("OTHER",)
    fallback = True

    def surrogate(self, original: str, ctx: SurrogateContext) -> str:
        m = _MODIFIERS.match(original)
        head, job = (m.group(1), m.group(2)) if m and m.group(2).strip() else ("", original)
        rng = ctx.rng("PROFESSION", normalise_key(job))
        new = rng.choice([p for p in words("professions", "professions") if distinct(p, job)])
        pattern = case_pattern(job)
        if pattern == "upper":
            new = new.upper()
        elif pattern == "title":
            new = " ".join(w[:1].upper() + w[1:] for w in new.split())
        elif job[:1].isupper():
            new = new[:1].upper() + new[1:]
        return head + new

    def sample(self, rng: random.Random, locale: str | None, gender: str | None) -> str:
        if rng.random() < INVENTED_SHARE:
            return invented_profession(rng)
        return rng.choice(words("professions", "professions"))
