"""Name pools per origin, and what a name token tells about itself (origin, gender, role).

Pools come from Faker's person providers plus the hand-written lists under
``resources/surrogates/names`` for origins Faker lacks or writes in another script. Every
list is read in a fixed order and de-duplicated in that order, so the pools (and with them
every keyed choice) are the same in every process. They change only when Faker's lists or
ours change; ``pools_fingerprint()`` lets a workspace notice that.

Origin of a token, strongest evidence first:
1. a hand-written list names it (these lists hold only names typical of that origin);
2. Faker's British or New Zealand list names it: English;
3. any other Faker list names it, in ``NAME_ORIGINS`` order.
"""

from __future__ import annotations

import hashlib
import importlib
import re
from dataclasses import dataclass, field
from functools import cache, lru_cache

from .keys import ascii_fold, normalise_key
from .resources import has, load

# Origins, each with the Faker person locales it draws from. Faker has no en_AU person
# provider (its en_AU names are the generic English ones), so Australia is covered by
# "english".
ORIGIN_LOCALES: dict[str, tuple[str, ...]] = {
    "english": ("en_GB", "en_NZ", "en_US"),
    "irish": ("en_IE",),
    "indian": ("en_IN",),
    "hispanic": ("es_MX", "es_ES"),
    "portuguese": ("pt_BR",),
    "french": ("fr_FR",),
    "german": ("de_DE",),
    "italian": ("it_IT",),
    "polish": ("pl_PL",),
    "dutch": ("nl_NL",),
    "turkish": ("tr_TR",),
    "vietnamese": ("vi_VN",),
    "maori": (),
    "pacific": (),
    "arabic": (),
    "west_african": ("yo_NG", "ig_NG", "ha_NG", "tw_GH", "en_NG"),
    "chinese": ("zh_CN",),
    "korean": (),
    "japanese": ("ja_JP",),
}
NAME_ORIGINS: list[str] = list(ORIGIN_LOCALES)
DEFAULT_ORIGIN = "english"
_ENGLISH_CORE = ("en_GB", "en_NZ")
# When several lists hold a token, the first origin here wins: lists that hold few foreign
# names come first (fr_FR lists "Muller", "Rossi" and "Hernandez"; de_DE lists "Mehmet").
# European lists go before the others because en_IN and the like also hold European names
# ("Hans"); the hand-written lists decide the typical names of those origins anyway.
_GUESS_ORDER = [
    "turkish", "polish", "hispanic", "portuguese", "italian", "german", "french", "dutch",
    "irish", "indian", "vietnamese", "chinese", "korean", "japanese", "maori", "pacific",
    "arabic", "west_african", "english",
]

# One word: letters with optional inner apostrophes ("O'Brien"); no spaces or hyphens, so a
# surrogate replaces exactly one token.
_NAME_WORD = re.compile(r"[^\W\d_]{2,}(?:['’][^\W\d_]+)*")


@dataclass(frozen=True)
class NameLists:
    female: tuple[str, ...] = ()
    male: tuple[str, ...] = ()
    last: tuple[str, ...] = ()


@dataclass
class OriginPool:
    female: list[str] = field(default_factory=list)
    male: list[str] = field(default_factory=list)
    last: list[str] = field(default_factory=list)
    # Given names of either gender, each once (filled when the pool is built).
    any_first: list[str] = field(default_factory=list)

    def first(self, gender: str | None) -> list[str]:
        if gender == "F":
            return self.female
        if gender == "M":
            return self.male
        return self.any_first

    def both(self, gender: str | None) -> list[str]:
        """Names that serve as given name and surname alike ("Thomas", "Lee")."""
        firsts = {normalise_key(n) for n in self.first(gender)}
        return [n for n in self.last if normalise_key(n) in firsts]


@dataclass(frozen=True)
class Candidate:
    name: str
    key: str
    initial: str


# Below this many typical names a pool keeps all its names.
_MIN_TYPICAL = 15


@cache
def typical_pool(origin: str) -> OriginPool:
    """The names of an origin's pool whose guessed origin is that origin: Faker's Ghanaian
    list also holds "Tom", its British list "Aroha", and neither should stand in for a
    name of the other."""
    pool = origin_pool(origin)
    guessed = _index().origin

    def typical(names: list[str]) -> list[str]:
        kept = [n for n in names if guessed.get(normalise_key(n)) == origin]
        return kept if len(kept) >= _MIN_TYPICAL else names

    female, male = typical(pool.female), typical(pool.male)
    return OriginPool(female, male, typical(pool.last), _dedupe(female + male))


@cache
def candidates(origin: str, kind: str, gender: str | None = None) -> tuple[Candidate, ...]:
    """Surrogate candidates of one origin: kind is "first", "last" or "both"."""
    pool = typical_pool(origin)
    names = {"first": pool.first, "both": pool.both}.get(kind, lambda g: pool.last)(gender)
    return tuple(Candidate(n, normalise_key(n), initial_of(n)) for n in names)


@dataclass(frozen=True)
class TokenInfo:
    origin: str | None
    gender: str | None  # "F", "M" or None when unknown or used for both
    is_first: bool
    is_last: bool

    @property
    def known(self) -> bool:
        return self.is_first or self.is_last


def _keys(items) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))  # Faker uses tuples and weighted OrderedDicts


# Letters whose upper or lower case changes length or does not come back ("İ".lower() is
# two characters, "ß".upper() is "SS", "ı".upper().lower() is "i"), spelt as English-language
# records usually spell them, so a name keeps its length and identity in every case.
_CASE_STABLE = str.maketrans({"ı": "i", "İ": "I", "ß": "ss", "ẞ": "SS"})


def _case_stable(name: str) -> bool:
    return len(name.upper()) == len(name) == len(name.lower()) and name.upper().lower() == name.lower()


def _clean(names) -> tuple[str, ...]:
    cleaned = (n.translate(_CASE_STABLE) for n in _keys(names))
    return tuple(n for n in dict.fromkeys(cleaned) if _NAME_WORD.fullmatch(n) and _case_stable(n))


def _dedupe(names: list[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for n in names:
        k = normalise_key(n)
        if k not in seen:
            seen.add(k)
            out.append(n)
    return out


@cache
def faker_lists(locale: str) -> NameLists:
    provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
    if locale == "ja_JP":
        return NameLists(
            _clean(provider.first_romanized_names_female),
            _clean(provider.first_romanized_names_male),
            _clean(provider.last_romanized_names),
        )
    if locale == "zh_CN":  # romanised given names carry no gender; the hand list has them
        return NameLists(last=_clean(provider.last_romanized_names))
    unisex = tuple(getattr(provider, "first_names_unisex", ()))
    female = _keys(provider.first_names_female) + unisex
    male = _keys(provider.first_names_male) + unisex
    if locale == "pl_PL":  # Faker keeps Polish surnames in gendered lists
        last = _keys(provider.unisex_last_names) + _keys(provider.male_last_names)
    else:
        last = _keys(provider.last_names)
    return NameLists(_clean(female), _clean(male), _clean(last))


@cache
def hand_lists(origin: str) -> NameLists:
    if not has(f"names/{origin}"):
        return NameLists()
    data = load(f"names/{origin}")
    return NameLists(
        _clean(data.get("female", ())), _clean(data.get("male", ())), _clean(data.get("last", ()))
    )


def _sources(origin: str) -> list[NameLists]:
    return [hand_lists(origin)] + [faker_lists(loc) for loc in ORIGIN_LOCALES[origin]]


@cache
def origin_pool(origin: str) -> OriginPool:
    if origin not in ORIGIN_LOCALES:
        raise ValueError(f"unknown name origin {origin!r}; expected one of {', '.join(NAME_ORIGINS)}")
    pool = OriginPool()
    for lists in _sources(origin):
        pool.female.extend(lists.female)
        pool.male.extend(lists.male)
        pool.last.extend(lists.last)
    pool.female, pool.male, pool.last = _dedupe(pool.female), _dedupe(pool.male), _dedupe(pool.last)
    pool.any_first = _dedupe(pool.female + pool.male)
    return pool


@dataclass
class _Index:
    origin: dict[str, str] = field(default_factory=dict)
    female: dict[str, int] = field(default_factory=dict)
    male: dict[str, int] = field(default_factory=dict)
    first: set[str] = field(default_factory=set)
    last: set[str] = field(default_factory=set)


@cache
def _index() -> _Index:
    idx = _Index()

    def claim(names, origin: str) -> None:
        for n in names:
            idx.origin.setdefault(normalise_key(n), origin)

    for origin in _GUESS_ORDER:
        h = hand_lists(origin)
        claim(h.female + h.male + h.last, origin)
    for loc in _ENGLISH_CORE:
        f = faker_lists(loc)
        claim(f.female + f.male + f.last, DEFAULT_ORIGIN)
    for origin in _GUESS_ORDER:
        for f in _sources(origin)[1:]:
            claim(f.female + f.male + f.last, origin)
    for origin in NAME_ORIGINS:
        pool = origin_pool(origin)
        for n in pool.female:
            k = normalise_key(n)
            idx.female[k] = idx.female.get(k, 0) + 1
        for n in pool.male:
            k = normalise_key(n)
            idx.male[k] = idx.male.get(k, 0) + 1
        idx.first.update(normalise_key(n) for n in pool.female + pool.male)
        idx.last.update(normalise_key(n) for n in pool.last)
    return idx


@lru_cache(maxsize=65536)
def token_info(token: str) -> TokenInfo:
    key = normalise_key(token)
    idx = _index()
    return TokenInfo(
        origin=idx.origin.get(key),
        gender=gender_of_key(key),
        is_first=key in idx.first,
        is_last=key in idx.last,
    )


def gender_of_key(key: str) -> str | None:
    """By how many origins list the name as female or male; a tie means unknown."""
    idx = _index()
    f, m = idx.female.get(key, 0), idx.male.get(key, 0)
    if f > m:
        return "F"
    if m > f:
        return "M"
    return None


def gender_of(first_name: str) -> str | None:
    return gender_of_key(normalise_key(first_name))


def is_known_name(token: str) -> bool:
    return token_info(token).known


def initial_of(name: str) -> str:
    folded = ascii_fold(name)
    return folded[:1].upper()


def pools_fingerprint() -> str:
    """Changes whenever a pool changes (a Faker upgrade, an edited list): surrogates made
    before and after such a change may differ."""
    h = hashlib.sha256()
    for origin in NAME_ORIGINS:
        pool = origin_pool(origin)
        for part in (pool.female, pool.male, pool.last):
            h.update("\x1f".join(part).encode("utf-8"))
            h.update(b"\x1e")
    return h.hexdigest()[:16]
