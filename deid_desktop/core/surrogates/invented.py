"""Invented names of places, organisations and jobs, for the synthetic training corpus only.

The surrogate engine's ``sample()`` feeds the template generator. Drawing towns, streets and
hospitals from fixed lists teaches a model those lists; a model that must find
"Wequetonsing", "Pukeatua Community Health" or a "freezing worker" it never saw has to learn
the context instead. Names here are built from pieces in the sound patterns of several
languages (``resources/surrogates/invented.toml``). Surrogates for real values never come
from here: they keep to common, list-drawn values (see organisations.py, places.py).
"""

from __future__ import annotations

import random

from .name_pools import NAME_ORIGINS, origin_pool
from .resources import load, words

# Share of training values sample() draws from here rather than from the fixed lists.
INVENTED_SHARE = 0.5

STYLES_BY_LOCALE = {
    "US": ("english", "english", "american", "european"),
    "UK": ("english", "english", "english", "european"),
    "AU": ("english", "english", "australian", "european"),
    "NZ": ("english", "maori", "maori", "european", "pacific"),
}


def _syllables(rng: random.Random, onsets: list[str], vowels: list[str], n: int) -> str:
    return "".join(rng.choice(onsets) + rng.choice(vowels) for _ in range(n))


def invented_word(rng: random.Random, style: str) -> str:
    """One capitalised place-like word in ``style`` (english, maori, pacific, australian,
    american, european)."""
    d = load("invented")
    if style == "english":
        word = rng.choice(d["english"]["first"]) + rng.choice(d["english"]["last"])
    elif style == "maori":
        m = d["maori"]
        word = _syllables(rng, m["onsets"], m["vowels"], rng.randint(2, 4))
        if rng.random() < 0.35:
            prefix = rng.choice(m["prefixes"])
            word = prefix + (word if prefix.endswith(" ") else word.lower())
    elif style == "pacific":
        p = d["pacific"]
        word = _syllables(rng, p["onsets"], p["vowels"], rng.randint(2, 4))
    elif style == "australian":
        a = d["australian"]
        word = "".join(rng.choice(a["syllables"]) for _ in range(rng.randint(2, 3))) + rng.choice(a["endings"])
    elif style == "american":
        word = "".join(rng.choice(d["american"]["syllables"]) for _ in range(rng.randint(3, 4)))
    else:
        e = d["european"]
        word = rng.choice(e["roots"]) + rng.choice(e["suffixes"])
    return word[:1].upper() + word[1:]


def invented_place(rng: random.Random, locale: str | None) -> str:
    """A town or suburb: one invented word, sometimes with an ending ("Agawam Shores")."""
    style = rng.choice(STYLES_BY_LOCALE.get(locale or "", tuple(STYLES_BY_LOCALE["US"]) + ("maori", "australian")))
    word = invented_word(rng, style)
    if rng.random() < 0.3:
        word = f"{word} {rng.choice(words('invented', 'places.endings'))}"
    return word


def any_surname(rng: random.Random) -> str:
    """A surname of one of many origins (``surname_origins``), not only the default one."""
    origins = [o for o in load("invented")["surname_origins"] if o in NAME_ORIGINS]
    return rng.choice(origin_pool(rng.choice(origins)).last)


def invented_street(rng: random.Random, locale: str | None) -> str:
    """A street name without its number: "Kōtuku Rise", "Penhallow Mews"."""
    base = invented_word(rng, rng.choice(STYLES_BY_LOCALE.get(locale or "", ("english",))))
    if rng.random() < 0.25:
        base = any_surname(rng)
    return f"{base} {rng.choice(words('invented', 'places.street_kinds'))}"


def invented_site(rng: random.Random, locale: str | None) -> str:
    return f"{invented_place(rng, locale)} {rng.choice(words('invented', 'places.site_kinds'))}"


def _fill(pattern: str, rng: random.Random, locale: str | None, kind: str = "") -> str:
    orgs = load("organisations")
    values = {
        "place": invented_place(rng, locale) if rng.random() < 0.6 else rng.choice(orgs["places"]),
        "place2": invented_place(rng, locale),
        "surname": any_surname(rng),
        "surname2": any_surname(rng),
        "saint": rng.choice(orgs["saints"]),
        "street_kind": rng.choice(("Road", "Street", "Lane", "Avenue", "Park", "Square")),
        "ending": rng.choice(words("invented", "places.endings")),
        "maori": invented_word(rng, "maori").removeprefix("Te "),
        "kind": kind,
    }
    return pattern.format(**values)


def invented_health_org(rng: random.Random, locale: str | None) -> str:
    d = load("invented")["organisations"]
    kind = rng.choice(d["health_kinds"])
    if locale == "US" and kind in ("Medical Centre", "Health Centre"):
        kind = kind.replace("Centre", "Center")
    name = _fill(rng.choice(d["health_patterns"]), rng, locale, kind)
    return name.upper() if rng.random() < 0.08 else name


def invented_company(rng: random.Random, locale: str | None) -> str:
    d = load("invented")["organisations"]
    base = rng.choice([_fill("{place}", rng, locale), any_surname(rng), f"{any_surname(rng)} & {any_surname(rng)}"])
    suffix = rng.choice(d["company_suffixes"])
    if locale == "AU" and suffix in ("Ltd", "Limited"):
        suffix = "Pty Ltd"
    elif locale != "AU" and suffix == "Pty Ltd":
        suffix = "Ltd"
    return " ".join(p for p in (base, rng.choice(d["industries"]), suffix) if p)


def invented_organisation(rng: random.Random, locale: str | None) -> str:
    return _fill(rng.choice(load("invented")["organisations"]["other_patterns"]), rng, locale)


def invented_profession(rng: random.Random) -> str:
    d = load("invented")["professions"]
    if rng.random() < 0.5:
        return rng.choice(d["whole"])
    return f"{rng.choice(d['modifiers'])} {rng.choice(d['heads'])}"
