"""Organisations: hospitals, companies and other named bodies.

The words that say what kind of body it is ("Hospital", "Medical Centre", "Ltd",
"University of") stay; each run of the other words (the proper name) becomes an invented
one, the same invented one wherever that proper name appears for the subject. Acronyms
("MGH") become other letters of the same length.
"""

from __future__ import annotations

import random
import re

from ..categories import Category
from .base import SurrogateContext, SurrogateGenerator, register
from .casing import match_style
from .keys import distinct, normalise_key
from .name_pools import DEFAULT_ORIGIN, origin_pool
from .invented import INVENTED_SHARE, invented_company, invented_health_org, invented_organisation
from .resources import load, words
from .shape import randomise_shape

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*|&")


def _proper_phrase(rng: random.Random, style: str) -> str:
    data = load("organisations")
    place = rng.choice(data["places"])
    surname = rng.choice(origin_pool(DEFAULT_ORIGIN).last[:400])
    if style == "hospital":
        return rng.choice([
            place, f"{place} {rng.choice(data['memorial'])}", f"St {rng.choice(data['saints'])}'s",
            f"{surname} Memorial", f"{place} Valley",
        ])
    if style == "company":
        return rng.choice([surname, f"{surname} & {rng.choice(origin_pool(DEFAULT_ORIGIN).last[:400])}",
                           place, f"{place} {rng.choice(data['industries'])}"])
    if style == "place":
        return place
    return rng.choice([place, place, surname])


def replace_proper_words(text: str, ctx: SurrogateContext, type_words, style: str) -> str:
    """Keep the type words, replace each run of proper words and each acronym."""
    types = {w.lower() for w in type_words}
    tokens = list(_WORD.finditer(text))
    kinds = []
    for m in tokens:
        t = m.group()
        if t.lower() in types:
            kinds.append("keep")
        elif t.isupper() and 2 <= len(t) <= 5 and t.isalpha():
            kinds.append("acronym")
        elif any(c.isdigit() for c in t):
            kinds.append("number")
        else:
            kinds.append("proper")
    out: list[str] = []
    pos = i = 0
    while i < len(tokens):
        m = tokens[i]
        out.append(text[pos : m.start()])
        kind = kinds[i]
        if kind == "proper":
            j = i
            while j + 1 < len(tokens) and kinds[j + 1] == "proper" and text[tokens[j].end() : tokens[j + 1].start()].isspace():
                j += 1
            run = text[m.start() : tokens[j].end()]
            out.append(proper_name_surrogate(run, ctx, style))
            pos, i = tokens[j].end(), j + 1
            continue
        if kind == "acronym" or kind == "number":
            out.append(randomise_shape(m.group(), ctx.stable_rng("ORGANIZATION", "letters", m.group())))
        else:
            out.append(m.group())
        pos, i = m.end(), i + 1
    out.append(text[pos:])
    result = "".join(out)
    if normalise_key(result) == normalise_key(text):
        # Only type words ("General Hospital"): put an invented place name in front.
        phrase = _proper_phrase(ctx.rng("ORGANIZATION", style, normalise_key(text)), "place")
        result = match_style(text, phrase) + " " + text
    return result


def proper_name_surrogate(run: str, ctx: SurrogateContext, style: str) -> str:
    """The same run gets the same phrase wherever it stands; a redraw (``ctx.attempt``,
    when the phrase is another original of the document) takes a later one of the same
    sequence, so the redraw is as stable as the first pick."""
    rng = ctx.stable_rng("ORGANIZATION", style, normalise_key(run))
    skipped = 0
    for _ in range(20 + ctx.attempt):
        phrase = _proper_phrase(rng, style)
        if distinct(phrase, run):
            if skipped >= ctx.attempt:
                break
            skipped += 1
    return match_style(run, phrase)


def _has_any(text: str, markers: tuple[str, ...]) -> bool:
    lowered = {t.lower() for t in _WORD.findall(text)}
    return any(w in lowered for w in markers)


_HOSPITAL_MARKERS = ("hospital", "hospitals", "infirmary", "clinic", "hospice", "health",
                     "healthcare", "medical", "surgery", "dhb", "nhs", "sanatorium", "practice")
_COMPANY_MARKERS = ("ltd", "limited", "inc", "incorporated", "llc", "llp", "corp", "corporation",
                    "pty", "plc", "gmbh", "holdings", "co")


@register
class HospitalGenerator(SurrogateGenerator):
    category = Category.ORGANIZATION
    fines = ("HOSPITAL",)
    order = 10

    def accepts(self, original: str, ctx: SurrogateContext) -> bool:
        return _has_any(original, _HOSPITAL_MARKERS)

    def surrogate(self, original: str, ctx: SurrogateContext) -> str:
        types = words("organisations", "hospital_types") + words("organisations", "organisation_types")
        return replace_proper_words(original, ctx, types, "hospital")

    def sample(self, rng: random.Random, locale: str | None, gender: str | None) -> str:
        centre = "Medical Center" if locale == "US" else "Medical Centre"
        if rng.random() < INVENTED_SHARE:
            return invented_health_org(rng, locale)
        kind = rng.choices(["Hospital", centre, "Clinic", "Health", "Hospice", "Surgery", "Infirmary"],
                           weights=[50, 15, 12, 8, 4, 6 if locale == "UK" else 1, 2 if locale == "UK" else 0])[0]
        return f"{_proper_phrase(rng, 'hospital')} {kind}"


@register
class CompanyGenerator(SurrogateGenerator):
    category = Category.ORGANIZATION
    fines = ("COMPANY",)
    order = 20

    def accepts(self, original: str, ctx: SurrogateContext) -> bool:
        return _has_any(original, _COMPANY_MARKERS)

    def surrogate(self, original: str, ctx: SurrogateContext) -> str:
        return replace_proper_words(original, ctx, words("organisations", "company_types"), "company")

    def sample(self, rng: random.Random, locale: str | None, gender: str | None) -> str:
        if rng.random() < INVENTED_SHARE:
            return invented_company(rng, locale)
        suffix = rng.choice(words("organisations", "company_suffixes"))
        if locale == "AU" and suffix in ("Ltd", "Limited"):
            suffix = "Pty Ltd"
        return f"{_proper_phrase(rng, 'company')} {suffix}"


@register
class OrganisationGenerator(SurrogateGenerator):
    """Any other named body: councils, schools, churches, agencies, clubs."""

    category = Category.ORGANIZATION
    fines = ("OTHER",)
    fallback = True

    def surrogate(self, original: str, ctx: SurrogateContext) -> str:
        return replace_proper_words(original, ctx, words("organisations", "organisation_types"), "other")

    def sample(self, rng: random.Random, locale: str | None, gender: str | None) -> str:
        if rng.random() < INVENTED_SHARE:
            return invented_organisation(rng, locale)
        place = rng.choice(load("organisations")["places"])
        return rng.choice([f"{place} District Council", f"University of {place}", f"{place} High School",
                           f"{place} Community Trust", f"{place} Rugby Club", f"{place} Baptist Church",
                           f"{place} Primary School", f"{place} Bowling Club"])
