"""Occupations, after words that say a person does that job: "works as a plumber",
"Occupation: teacher", "retired builder"."""

from __future__ import annotations

import re
from functools import lru_cache

from ...categories import Category
from ...spans import Span
from ..base import register
from ..lexicons import professions
from .common import RuleDetector, trie_regex

_QUALIFIERS = r"(?:(?:retired|part-time|full-time|part time|full time|self-employed|senior|junior|head|chief|qualified|trainee|apprentice|casual|former|local|registered|relief)[ \t]+)*"
# (context, score): a label is surest, "is a" weakest.
_CONTEXTS = [
    (r"(?:occupation|profession|job|job title|employment|works as|trade)[ \t]*[:\-][ \t]*", 0.9),
    (r"(?:works?|worked|working|employed|job|career|trained|training|qualified)[ \t]+as[ \t]+(?:an?[ \t]+)?", 0.85),
    (r"(?:retired|former|ex-|previously an?|formerly an?|used to be an?)[ \t]*", 0.8),
    (r"\b(?:is|was)[ \t]+an?[ \t]+", 0.6),
]


@lru_cache(maxsize=1)
def _pattern() -> re.Pattern[str]:
    jobs = trie_regex(professions())
    contexts = "|".join(f"(?P<c{i}>{c})" for i, (c, _) in enumerate(_CONTEXTS))
    return re.compile(rf"(?i)\b(?:{contexts}){_QUALIFIERS}(?P<job>(?:{jobs}))(?:e?s)?\b")


@register("profession")
class ProfessionDetector(RuleDetector):
    def detect(self, text: str) -> list[Span]:
        out = []
        for m in _pattern().finditer(text):
            score = next(s for i, (_, s) in enumerate(_CONTEXTS) if m.group(f"c{i}") is not None)
            out.append(self.span(m.start("job"), m.end(), Category.PROFESSION, "OTHER", score))
        return out
