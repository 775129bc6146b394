"""Locations: streets, towns, states, postcodes, countries and other named places.

A location is read part by part (parts are split at commas and line breaks, and a trailing
postcode or state is split off "Springfield IL 62704"), and each part is replaced by one of
its own kind: a town by a town of the same country when the town is known, a state by a
state (abbreviation by abbreviation), a postcode by a postcode of the same shape, a street
by the same house number shape and street type with another street name.
"""

from __future__ import annotations

import importlib
import random
import re
from dataclasses import dataclass
from functools import cache

from ..categories import Category
from .base import SurrogateContext, SurrogateGenerator, register
from .casing import match_style
from .keys import normalise_key
from .invented import INVENTED_SHARE, invented_place, invented_site, invented_street
from .resources import load, words
from .shape import randomise_shape

COUNTRIES = ("US", "UK", "AU", "NZ")
_WORD = re.compile(r"[^\W_]+(?:['’.][^\W_]+)*\.?")
_PART_SEPARATOR = re.compile(r"(\s*[,;\n]\s*)")
_US_ZIP = re.compile(r"\d{5}(?:-\d{4})?")
_UK_POSTCODE = re.compile(r"(?i)([A-Z]{1,2})(\d[A-Z\d]?)(\s*)(\d)([A-Z]{2})")
_CA_POSTCODE = re.compile(r"(?i)[A-Z]\d[A-Z]\s?\d[A-Z]\d")
_FOUR_DIGIT_POSTCODE = re.compile(r"\d{4}")
_UK_INWARD_LETTERS = "ABDEFGHJLNPQRSTUWXYZ"


@dataclass(frozen=True)
class CountryPlaces:
    cities: tuple[str, ...]
    states: tuple[str, ...]
    state_abbr: tuple[str, ...]


def _faker_address(locale: str):
    return importlib.import_module(f"faker.providers.address.{locale}").Provider


@cache
def country_places(country: str) -> CountryPlaces:
    cities = words("places", f"{country}.cities")
    if country == "US":
        p = _faker_address("en_US")
        return CountryPlaces(cities, tuple(p.states), tuple(p.states_abbr))
    if country == "AU":
        p = _faker_address("en_AU")
        return CountryPlaces(cities, tuple(p.states), tuple(p.states_abbr))
    if country == "UK":
        return CountryPlaces(cities, tuple(_faker_address("en_GB").counties), ())
    return CountryPlaces(cities, words("places", "NZ.regions"), ())


@cache
def countries() -> tuple[str, ...]:
    return tuple(_faker_address("en").countries)


def _search_order(home: str) -> list[str]:
    return [home] + [c for c in COUNTRIES if c != home]


@cache
def _keys_of(country: str, field: str) -> frozenset[str]:
    return frozenset(normalise_key(v) for v in getattr(country_places(country), field))


def countries_with_town(name: str) -> list[str]:
    """The countries whose town list holds this name."""
    key = normalise_key(name)
    return [c for c in COUNTRIES if key in _keys_of(c, "cities")]


def _find(value: str, home: str, field: str) -> str | None:
    """Which country's list (cities, states, state_abbr) holds the value; home first."""
    key = normalise_key(value)
    for country in _search_order(home):
        if key in _keys_of(country, field):
            return country
    return None


def _choose(ctx: SurrogateContext, slot: str, options, original: str) -> str:
    """A keyed choice that no other original of the same slot in the document shares."""
    return match_style(original, ctx.pick(slot, original, options))


# ------------------------------------------------------------------------------ postcodes


def is_postcode(text: str) -> bool:
    t = text.strip()
    return bool(
        _US_ZIP.fullmatch(t) or _UK_POSTCODE.fullmatch(t) or _CA_POSTCODE.fullmatch(t)
        or _FOUR_DIGIT_POSTCODE.fullmatch(t)
    )


def postcode_surrogate(text: str, rng: random.Random) -> str:
    m = _UK_POSTCODE.fullmatch(text.strip())
    if m:
        p = _faker_address("en_GB")
        zones = p.POSTAL_ZONES_ONE_CHAR if len(m.group(1)) == 1 else p.POSTAL_ZONES_TWO_CHARS
        district = str(rng.randint(1, 9)) + "".join(
            str(rng.randint(0, 9)) if c.isdigit() else rng.choice("ABCDEFGHJKMNPRSTUVWXY") for c in m.group(2)[1:]
        )
        inward = str(rng.randint(0, 9)) + "".join(rng.choice(_UK_INWARD_LETTERS) for _ in range(2))
        code = rng.choice(zones) + district + m.group(3) + inward
        lead = text[: len(text) - len(text.lstrip())]
        return lead + (code.lower() if text.strip().islower() else code) + text[len(text.rstrip()) :]
    return randomise_shape(text, rng)


# -------------------------------------------------------------------------------- streets


@cache
def _lowered(name: str, key: str) -> frozenset[str]:
    return frozenset(w.lower().rstrip(".") for w in words(name, key))


def _is_street_type(word: str) -> bool:
    return word.rstrip(".").lower() in _lowered("places", "streets.types")


def _is_unit_word(word: str) -> bool:
    return word.rstrip(".").lower() in _lowered("places", "streets.units")


def looks_like_street(text: str) -> bool:
    """"12 Rosewood Avenue", "St Kilda Road", "Flat 3, 12 ...", "PO Box 123"."""
    tokens = _WORD.findall(text)
    has_number = any(any(c.isdigit() for c in t) for t in tokens)
    has_type = any(_is_street_type(t) for t in tokens[1:])
    ends_with_type = len(tokens) > 1 and _is_street_type(tokens[-1]) and not any(c.isdigit() for c in tokens[0])
    starts_with_unit = bool(tokens) and _is_unit_word(tokens[0])
    return (has_number and has_type) or (starts_with_unit and has_number) or ends_with_type


def street_surrogate(text: str, ctx: SurrogateContext) -> str:
    """House numbers change shape-for-shape, street types and unit words stay, and each run
    of name words becomes another street name (the same one wherever it appears)."""
    rng = ctx.rng("LOCATION", "street-number", normalise_key(text))
    tokens = list(_WORD.finditer(text))
    kinds: list[str] = []
    for m in tokens:
        t = m.group()
        if any(c.isdigit() for c in t):
            kinds.append("number")
        elif _is_unit_word(t):
            kinds.append("keep")
        elif _is_street_type(t) and "name" in kinds:  # a leading "St" (St Kilda Road) is a name
            kinds.append("keep")
        else:
            kinds.append("name")
    out: list[str] = []
    pos = i = 0
    while i < len(tokens):
        m = tokens[i]
        out.append(text[pos : m.start()])
        if kinds[i] == "name":
            j = i
            while j + 1 < len(tokens) and kinds[j + 1] == "name" and text[tokens[j].end() : tokens[j + 1].start()].isspace():
                j += 1
            out.append(street_name_surrogate(text[m.start() : tokens[j].end()], ctx, j - i + 1))
            pos, i = tokens[j].end(), j + 1
        else:
            out.append(randomise_shape(m.group(), rng) if kinds[i] == "number" else m.group())
            pos, i = m.end(), i + 1
    out.append(text[pos:])
    return "".join(out)


def street_name_surrogate(name: str, ctx: SurrogateContext, n_words: int) -> str:
    pool = words("places", "streets.single") if n_words == 1 else words("places", "streets.double")
    return _choose(ctx, "street-name", pool, name)


# ------------------------------------------------------------------------- the dispatcher


def location_surrogate(text: str, ctx: SurrogateContext, kind: str | None) -> str:
    pieces = _PART_SEPARATOR.split(text)
    if len(pieces) == 1:
        return part_surrogate(text, ctx, kind)
    out = []
    for i, piece in enumerate(pieces):
        if i % 2 or not piece.strip():
            out.append(piece)
        else:
            out.append(part_surrogate(piece, ctx, None))
    return "".join(out)


def part_surrogate(part: str, ctx: SurrogateContext, kind: str | None) -> str:
    """One part of a location. An explicit kind (the span's fine type) wins; otherwise the
    part's shape and the place lists decide, and an unknown name becomes a town."""
    lead = part[: len(part) - len(part.lstrip())]
    tail = part[len(part.rstrip()) :]
    core = part.strip()
    return lead + _core_surrogate(core, ctx, kind or _kind_of(core, ctx.home_country)) + tail


def _kind_of(core: str, home: str) -> str:
    if is_postcode(core):
        return "ZIP"
    if _find(core, home, "states") or _find(core, home, "state_abbr"):
        return "STATE"
    if _find_country(core):
        return "COUNTRY"
    if looks_like_street(core):
        return "STREET"
    if _find(core, home, "cities"):
        return "CITY"
    if _split_trailing(core, home) is not None:
        return "TRAILER"
    if _has_facility_word(core):
        return "FACILITY"
    return "CITY"


def _core_surrogate(core: str, ctx: SurrogateContext, kind: str) -> str:
    home = ctx.home_country
    rng = ctx.rng("LOCATION", kind, normalise_key(core))
    if kind == "ZIP":
        return postcode_surrogate(core, rng)
    if kind == "STATE":
        return _state(core, _find(core, home, "states") or _find(core, home, "state_abbr") or home, ctx)
    if kind == "COUNTRY":
        return _choose(ctx, "country", countries(), core)
    if kind == "STREET":
        return street_surrogate(core, ctx)
    if kind == "TRAILER":
        head, trailer = _split_trailing(core, home)
        return part_surrogate(head, ctx, None) + trailer_surrogate(trailer, ctx)
    if kind == "FACILITY":
        return facility_surrogate(core, ctx)
    return _choose(ctx, "town", country_places(_find(core, home, "cities") or home).cities, core)


@cache
def _country_keys() -> frozenset[str]:
    return frozenset(normalise_key(c) for c in countries()) | {"usa", "us", "uk", "nz", "england", "scotland", "wales"}


def _find_country(value: str) -> bool:
    return normalise_key(value) in _country_keys()


def _state(value: str, country: str, ctx: SurrogateContext) -> str:
    places = country_places(country)
    abbr_form = normalise_key(value) in {normalise_key(a) for a in places.state_abbr}
    pool = places.state_abbr if abbr_form else places.states
    return _choose(ctx, "state-abbr" if abbr_form else "state", pool, value)


def _split_trailing(core: str, home: str) -> tuple[str, str] | None:
    """"Springfield IL 62704" -> ("Springfield", " IL 62704"): a trailing postcode or state
    abbreviation (one word, or a UK postcode's two) is its own part."""
    tokens = list(re.finditer(r"\S+", core))
    for take in (2, 1):
        if len(tokens) <= take:
            continue
        trailer = core[tokens[-take].start() :]
        is_state = take == 1 and bool(_find(trailer, home, "state_abbr"))
        if is_postcode(trailer) or is_state:
            head_end = tokens[-take - 1].end()
            return core[:head_end], core[head_end:]
    return None


def trailer_surrogate(trailer: str, ctx: SurrogateContext) -> str:
    lead = trailer[: len(trailer) - len(trailer.lstrip())]
    tokens = trailer.split()
    if len(tokens) >= 2 and not is_postcode(trailer.strip()) and is_postcode(tokens[-1]):
        # "IL 62704": a state then a postcode
        state, code = trailer.strip().rsplit(None, 1)
        gap = trailer.strip()[len(state) : len(trailer.strip()) - len(code)]
        return lead + part_surrogate(state, ctx, "STATE") + gap + part_surrogate(code, ctx, "ZIP")
    return lead + part_surrogate(trailer.strip(), ctx, None)


def _has_facility_word(text: str) -> bool:
    return any(t.lower() in _lowered("places", "facilities.types") for t in _WORD.findall(text))


def facility_surrogate(text: str, ctx: SurrogateContext) -> str:
    """"Ridgeway Nursing Home" -> "Lakeview Nursing Home": type words stay."""
    from .organisations import replace_proper_words  # one shared rule for named places

    return replace_proper_words(text, ctx, words("places", "facilities.types"), "place")


# ----------------------------------------------------------------------------- generators


class _LocationGenerator(SurrogateGenerator):
    category = Category.LOCATION
    kind: str | None = None

    def surrogate(self, original: str, ctx: SurrogateContext) -> str:
        return location_surrogate(original, ctx, self.kind)


@register
class StreetGenerator(_LocationGenerator):
    fines = ("STREET",)
    kind = "STREET"

    def sample(self, rng: random.Random, locale: str | None, gender: str | None) -> str:
        loc = locale or rng.choice(COUNTRIES)
        number = str(rng.choice([rng.randint(1, 99), rng.randint(1, 999), rng.randint(100, 9999)]))
        if loc in ("NZ", "AU") and rng.random() < 0.1:
            number += rng.choice("ABC")
        if rng.random() < INVENTED_SHARE:
            street = f"{number} {invented_street(rng, loc)}"
        else:
            name = rng.choice(words("places", "streets.single") + words("places", "streets.double"))
            kind = rng.choice(["Street", "Road", "Avenue", "Lane", "Drive", "Crescent", "Place", "Terrace",
                               "Way", "Close", "Court", "St", "Rd", "Ave", "Dr"])
            street = f"{number} {name} {kind}"
        unit = rng.random()
        if unit < 0.08:
            return f"Flat {rng.randint(1, 30)}, {street}"
        if unit < 0.14:
            return f"{rng.randint(1, 40)}/{street}" if loc in ("AU", "NZ") else f"{street} Apt {rng.randint(1, 400)}"
        if unit < 0.18:
            return f"PO Box {rng.randint(10, 99999)}"
        return street


@register
class CityGenerator(_LocationGenerator):
    fines = ("CITY",)
    kind = "CITY"

    def sample(self, rng: random.Random, locale: str | None, gender: str | None) -> str:
        loc = locale or rng.choice(COUNTRIES)
        if rng.random() < INVENTED_SHARE:
            return invented_place(rng, loc)
        return rng.choice(country_places(loc).cities)


@register
class StateGenerator(_LocationGenerator):
    fines = ("STATE",)
    kind = "STATE"

    def sample(self, rng: random.Random, locale: str | None, gender: str | None) -> str:
        places = country_places(locale or rng.choice(COUNTRIES))
        if places.state_abbr and rng.random() < 0.5:
            return rng.choice(places.state_abbr)
        return rng.choice(places.states)


@register
class PostcodeGenerator(_LocationGenerator):
    fines = ("ZIP",)
    kind = "ZIP"

    def sample(self, rng: random.Random, locale: str | None, gender: str | None) -> str:
        loc = locale or rng.choice(COUNTRIES)
        if loc == "US":
            code = f"{rng.randint(1, 99999):05d}"
            return code + (f"-{rng.randint(0, 9999):04d}" if rng.random() < 0.15 else "")
        if loc == "UK":
            return postcode_surrogate("AA1 1AA" if rng.random() < 0.7 else "A1 1AA", rng)
        return f"{rng.randint(200, 9999):04d}"


@register
class CountryGenerator(_LocationGenerator):
    fines = ("COUNTRY",)
    kind = "COUNTRY"

    def sample(self, rng: random.Random, locale: str | None, gender: str | None) -> str:
        return rng.choice(countries())


@register
class PlaceGenerator(_LocationGenerator):
    """Any location whose fine type is unknown: its shape and the lists decide."""

    fines = ("OTHER",)
    fallback = True

    def sample(self, rng: random.Random, locale: str | None, gender: str | None) -> str:
        if rng.random() < INVENTED_SHARE:
            return invented_site(rng, locale)
        place = rng.choice(load("organisations")["places"])
        kind = rng.choice(["Retirement Village", "Nursing Home", "Shopping Centre", "Park",
                           "Community Hall", "Marae", "Beach", "Primary School", "Lodge"])
        return f"{place} {kind}"


def sample_full_address(rng: random.Random, locale: str | None) -> str:
    """A whole address line, for templates that print one."""
    loc = locale or rng.choice(COUNTRIES)
    street = StreetGenerator().sample(rng, loc, None)
    city = CityGenerator().sample(rng, loc, None)
    code = PostcodeGenerator().sample(rng, loc, None)
    if loc == "US":
        return f"{street}, {city}, {rng.choice(country_places('US').state_abbr)} {code}"
    if loc == "AU":
        return f"{street}, {city} {rng.choice(country_places('AU').state_abbr)} {code}"
    return f"{street}, {city} {code}"

