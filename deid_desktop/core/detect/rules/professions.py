"""Occupations, after words that say a person does that job: "works as a plumber",
"Occupation: teacher", "retired builder".

After a label or "works as a" the words that follow name a job whether or not our list has
it ("Occupation: forestry skid worker / log loader", "works as a fly-in fly-out jumbo
operator"): most jobs are in no list, so there the phrase is taken up to where it plainly
ends, and the span is validated (the wording proves it; the models may not out-vote it)."""

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


# Contexts after which the next phrase is a job even when no list has it.
_OPEN_CONTEXT = (
    r"(?:\b(?:occupation|profession|job title|job|employment|trade)[ \t]*[:\-][ \t]*"
    r"|\b(?:works?|worked|working|employed)[ \t]+as[ \t]+(?:an?[ \t]+)?)"
)
_WORD = r"[A-Za-z][A-Za-z'’-]*"
# The phrase: up to six words joined by single spaces or " / "; it ends at punctuation, a
# line break, a wider gap (a form's next field) or a word that starts a new clause.
_OPEN = re.compile(rf"(?i){_OPEN_CONTEXT}(?P<job>{_WORD}(?:(?: | / ){_WORD}){{0,5}})")
_CLAUSE = frozenset(
    "at in on for with from to by since until and or but who which when while because after before during "
    "of the his her their there here".split()
)
# Labels that say there is no job, or say something else about work.
_NOT_A_JOB = frozenset(
    "unemployed none nil na n/a unknown retired not home homemaker independent unable off sick leave usual "
    "normal full part well previously currently still also now same team member".split()
)


def _open_job(phrase: str) -> str:
    """The job at the start of ``phrase``: its words up to the first clause word; empty when
    the label says there is none."""
    words = phrase.split(" ")
    kept: list[str] = []
    for w in words:
        if w.lower() in _CLAUSE:
            break
        kept.append(w)
    while kept and kept[-1] == "/":
        kept.pop()
    if not kept or kept[0].lower() in _NOT_A_JOB or len(kept[0]) < 2:  # "N/A" reads as "N"
        return ""
    return " ".join(kept)


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
        for m in _OPEN.finditer(text):
            job = _open_job(m["job"])
            if not job:
                continue
            start = m.start("job")
            end = start + len(job)
            out = [s for s in out if s.end <= start or s.start >= end]  # the whole phrase wins
            out.append(self.span(start, end, Category.PROFESSION, "OTHER", 0.9, validated=True))
        return sorted(out, key=lambda s: s.start)
