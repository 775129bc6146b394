"""Person names: each token of a name is replaced on its own, keyed by the token.

"John Smith", "Mr Smith", "SMITH, JOHN" and "J. Smith" in one subject all become the same
surrogate name because "john" and "smith" always key the same way, and because a per-subject
letter map sends the initial J to the initial of John's surrogate. Titles and degrees stay;
case and accents follow the original token; a given name keeps its gender and a name keeps
its origin when the lists tell them.
"""

from __future__ import annotations

import random
import re
import string
from functools import cached_property

from ..categories import Category
from .base import SurrogateContext, SurrogateGenerator, register
from .casing import match_style
from .keys import ascii_fold, normalise_key
from .name_pools import (
    DEFAULT_ORIGIN,
    NAME_ORIGINS,
    Candidate,
    TokenInfo,
    candidates,
    initial_of,
    token_info,
    typical_pool,
)
from .shape import randomise_shape

_COMPOUND = re.compile(r"[^\W_]+(?:['’][^\W_]+)*(?:-[^\W_]+(?:['’][^\W_]+)*)*")
_POSSESSIVE = re.compile(r"^(.+?)(['’]s?)$")

TITLES = frozenset(
    "mr mrs ms miss mx dr doctor prof professor sir dame lady lord rev reverend fr father "
    "sister nurse master madam mme mlle herr frau sr jr snr jnr ii iii iv md rn np phd mbbs "
    "mbchb frcp frcs fracp fracs frcpc dds dmd esq msc bsc lpn cnp aprn crna pharmd psyd facp "
    "facs mrcp mrcgp frcsc dnp".split()
)
# Degrees that are also surnames ("Ma", "Do", "Pa"): only a degree after a comma.
_AMBIGUOUS_DEGREES = frozenset({"do", "ma", "pa"})
PARTICLES = frozenset(
    "van von der den de del della di da du dos das la le bin binti bint ibn al el ter ten zu y".split()
)

# Prefixes joined to a surname by a hyphen ("Al-Hassan", "El-Sayed", "Abu-Bakr").
_HYPHEN_PARTICLES = frozenset({"al", "el", "abu", "bin", "ibn", "ben", "abd"})

# Letters that start many names, and the rest: the initials map permutes each class within
# itself so a common initial maps to another common one and a surrogate can usually be found.
_COMMON_INITIALS = "ABCDEGHJKLMNPRSTW"
_RARE_INITIALS = "FIOQUVXYZ"


def initials_map(ctx: SurrogateContext) -> dict[str, str]:
    """Per-subject map of initial letters with no fixed point, so an initial always changes."""
    rng = ctx.stable_rng("NAME", "initials")
    mapping: dict[str, str] = {}
    for group in (_COMMON_INITIALS, _RARE_INITIALS):
        order = list(group)
        rng.shuffle(order)
        # Sending each letter to the next one of a shuffled cycle never maps a letter to itself.
        for i, letter in enumerate(order):
            mapping[letter] = order[(i + 1) % len(order)]
    return mapping


def map_initial(letter: str, mapping: dict[str, str]) -> str:
    base = initial_of(letter) or letter
    new = mapping.get(base, base)
    return new.lower() if letter.islower() else new


def _looks_like_initials(token: str) -> bool:
    """"JWB", "JS", "jwb": capitals, or letters no name is made of (no vowel)."""
    return token.isupper() or not any(c in "aeiouy" for c in token.lower())


def _is_title(token: str, before: str) -> bool:
    low = token.casefold()
    return low in TITLES and not (low in _AMBIGUOUS_DEGREES and not before.rstrip().endswith(","))


def _is_initials(token: str) -> bool:
    """One letter, or up to four that read as initials ("TF", "JWB", "tf") rather than a name."""
    if not token.isalpha():
        return False
    return len(token) == 1 or (len(token) <= 4 and _looks_like_initials(token) and not token_info(token).known)


def full_name_words(text: str) -> tuple[str, ...]:
    """The name words of a full name in reading order ("Smith, John" -> John, Smith);
    empty unless there are at least two (a surname alone stands for no initials)."""
    head, comma, tail = text.partition(",")
    ordered = f"{tail} {head}" if comma and tail.strip() and "," not in tail else text
    found = []
    for m in _COMPOUND.finditer(ordered):
        t = m.group()
        if any(c.isdigit() for c in t) or _is_title(t, ordered[: m.start()]) or t in PARTICLES or _is_initials(t):
            continue
        found.append(t)
    return tuple(found) if len(found) >= 2 else ()


class FullNames(tuple):
    """A document's distinct full names (tuples of name words) in a fixed order, with an
    index from an initial at one position to the names that could stand there.

    Every name span of a document with initials was tried against every full name of the
    document: the product of the two (about 50 s on a 2 MB note). The index hands
    ``_initials_of_known_name`` only the names whose word at the first initial's position
    starts with that letter, in the same fixed order, so the first fit is the same name."""

    @cached_property
    def _by_initial(self) -> dict[tuple[int, int, str], list[int]]:
        # (items in the value or -2 for "two initials of a longer name", position, letter)
        index: dict[tuple[int, int, str], list[int]] = {}
        for n, words in enumerate(self):
            for p, word in enumerate(words):
                index.setdefault((len(words), p, initial_of(word)), []).append(n)
            if len(words) > 2:
                for p, word in enumerate((words[0], words[-1])):
                    index.setdefault((-2, p, initial_of(word)), []).append(n)
        return index

    def fitting(self, n_items: int, position: int, letter: str) -> list[tuple[str, ...]]:
        """The names, in order, whose word lined up with item ``position`` of a value of
        ``n_items`` items starts with ``letter``: the only names ``_line_up`` can fit."""
        found = self._by_initial.get((n_items, position, letter), [])
        if n_items == 2:
            found = sorted({*found, *self._by_initial.get((-2, position, letter), [])})
        return [self[n] for n in found]


def document_full_names(values) -> FullNames:
    """The distinct full names among a document's name values, in a fixed order."""
    names = {normalise_key(" ".join(w)): w for w in map(full_name_words, values) if w}
    return FullNames(names[k] for k in sorted(names))


def document_words(values) -> frozenset[str]:
    """The keys of the words of a document's original values (see ``SurrogateContext``)."""
    return frozenset(normalise_key(w) for v in values for w in _COMPOUND.findall(v))


class NameTokens:
    """Replaces the tokens of one name; shared by the name and e-mail generators."""

    def __init__(self, ctx: SurrogateContext):
        self.ctx = ctx
        self.initials = initials_map(ctx)

    def replace_text(self, text: str) -> str:
        matches = list(_COMPOUND.finditer(text))
        following = self._initials_of_known_name(text, matches)
        out: list[str] = []
        pos = 0
        for i, m in enumerate(matches):
            out.append(text[pos : m.start()])
            if i in following:
                out.append(_with_letters(m.group(), following[i]))
            else:
                out.append(self._replace_compound(m.group(), text[: m.start()]))
            pos = m.end()
        out.append(text[pos:])
        return "".join(out)

    def _initials_of_known_name(self, text: str, matches: list[re.Match]) -> dict[int, dict[int, str]]:
        """Initials that stand for a full name of the document ("TF", "T.F." or "T. Fifita"
        beside "Tevita Fifita") take the initials of that name's surrogate, so "TF" reads
        "SL" where Tevita Fifita became Sione Lātū. Returns, per token, the new letter of
        each of its letter positions; empty when no full name of the document fits.

        A fit: the name's words line up one for one with the value's initials and words
        (an initial matching a word's first letter, a word matching the same word), or two
        initials stand for a longer name's first and last words. Where two names fit, the
        first in a fixed (alphabetical) order decides, so the result is the same in any
        order of work."""
        if not self.ctx.known_names:
            return {}
        items: list[tuple[int, int, str]] = []  # (token, letter position or -1 for a word, initial or key)
        for i, m in enumerate(matches):
            t = m.group()
            if any(c.isdigit() for c in t) or _is_title(t, text[: m.start()]) or t in PARTICLES:
                continue
            if _is_initials(t):
                items.extend((i, j, initial_of(c)) for j, c in enumerate(t))
            else:
                items.append((i, -1, normalise_key(t)))
        first = next((p for p, (_, j, _) in enumerate(items) if j >= 0), None)
        if first is None:
            return {}
        known = self.ctx.known_names
        if not isinstance(known, FullNames):
            known = FullNames(known)
        for words in known.fitting(len(items), first, items[first][2]):
            slots = _line_up(items, words)
            if slots is None:
                continue
            letters: dict[int, dict[int, str]] = {}
            for (i, j, _), word in zip(items, slots):
                if j >= 0:
                    letters.setdefault(i, {})[j] = initial_of(self._replace_compound(word, ""))
            return letters
        return {}

    def _replace_compound(self, compound: str, before: str) -> str:
        """"O'Neil-Patel" part by part; "Ji-woo" whole when the lists know it whole;
        "Al-Hassan" keeps its particle."""
        parts = compound.split("-")
        if len(parts) > 1 and token_info(compound).known:
            return self.name_word(compound)
        out = []
        for i, part in enumerate(parts):
            if i == 0 and len(parts) > 1 and part.lower() in _HYPHEN_PARTICLES:
                out.append(part)
            else:
                out.append(self._replace_token(part, before))
        return "-".join(out)

    def _replace_token(self, token: str, before: str) -> str:
        if any(c.isdigit() for c in token):  # a signature code such as "DF14"
            return randomise_shape(token, self.ctx.stable_rng("NAME", "code", normalise_key(token)))
        if _is_title(token, before):
            return token
        if token in PARTICLES:  # written in lower case, as particles are
            return token
        if len(token) == 1:
            return map_initial(token, self.initials)
        if len(token) <= 4 and _looks_like_initials(token) and not token_info(token).known:
            return "".join(map_initial(c, self.initials) for c in token)  # "JWB" -> "KTR"
        m = _POSSESSIVE.match(token)
        if m and len(m.group(1)) > 1 and not token_info(token).known:
            return self.name_word(m.group(1)) + m.group(2)
        return self.name_word(token)

    def name_word(self, token: str) -> str:
        """The surrogate of one name word; the same word gives the same surrogate."""
        key = normalise_key(token)
        rng = self.ctx.stable_rng("NAME", key)
        info = token_info(token)
        want = map_initial(initial_of(token), self.initials) if initial_of(token) else ""
        for pool in _candidate_pools(info):
            # Not the name itself, nor a spelling of it ("Mohammad" -> "Mohamed"), nor a
            # word of another original of the document. Leaving those out changes the pick
            # only where one of them was in the list, so the same word keeps its surrogate
            # in every other document.
            free, by_initial = _free_candidates(pool, self.ctx.document_words)
            with_initial = [c for c in by_initial.get(want, ()) if c.key[:3] != key[:3]]
            usable = with_initial or [c for c in free if c.key[:3] != key[:3]]
            if usable:
                return match_style(token, rng.choice(usable).name)
        # A document whose originals hold every name of the pools (a huge text of many
        # notes run together): a surrogate that is also another original's word beats
        # none, which failed the whole file.
        for pool in _candidate_pools(info):
            usable = [c for c in pool if c.key[:3] != key[:3]]
            if usable:
                return match_style(token, rng.choice(usable).name)
        raise LookupError("name pools are empty")  # the shipped pools never are


# Per pool (by identity; the entry holds the pool, so its id is not reused): the document
# words it was filtered for, and what was left, in the pool's order and by initial.
_FREE: dict[int, tuple[tuple[Candidate, ...], frozenset[str], list[Candidate], dict[str, list[Candidate]]]] = {}


def _free_candidates(pool: tuple[Candidate, ...], taken: frozenset[str]) -> tuple[list[Candidate], dict[str, list[Candidate]]]:
    """A pool's candidates that are no word of the document, in the pool's order, and the
    same by initial: made once per pool and document, not once per name word (a note of
    thousands of names filtered the whole pool for each)."""
    hit = _FREE.get(id(pool))
    if hit is not None and hit[0] is pool and (hit[1] is taken or hit[1] == taken):
        return hit[2], hit[3]
    free = [c for c in pool if c.key not in taken]
    by_initial: dict[str, list[Candidate]] = {}
    for c in free:
        by_initial.setdefault(c.initial, []).append(c)
    _FREE[id(pool)] = (pool, taken, free, by_initial)
    return free, by_initial


def _line_up(items: list[tuple[int, int, str]], words: tuple[str, ...]) -> list[str] | None:
    """The name word each item stands for, or None when the items do not fit the name."""
    if len(items) == len(words):
        slots = list(words)
    elif len(items) == 2 and len(words) > 2:
        slots = [words[0], words[-1]]
    else:
        return None
    for (_, j, value), word in zip(items, slots):
        if (j >= 0 and initial_of(word) != value) or (j < 0 and normalise_key(word) != value):
            return None
    return slots


def _with_letters(token: str, letters: dict[int, str]) -> str:
    """The token with some letters replaced, each in the case of the letter it replaces."""
    return "".join(
        (letters[j].lower() if c.islower() else letters[j].upper()) if j in letters else c
        for j, c in enumerate(token)
    )


def _candidate_pools(info: TokenInfo) -> list[tuple[Candidate, ...]]:
    """Where a surrogate for a token is looked for, most fitting first: the same origin and
    gender, then relaxing gender, then English names."""
    origin = info.origin or DEFAULT_ORIGIN
    if info.is_first and not info.is_last:
        return [candidates(origin, "first", info.gender), candidates(origin, "first"),
                candidates(DEFAULT_ORIGIN, "first", info.gender)]
    if info.is_first and info.is_last:
        both = candidates(origin, "both", info.gender)
        return [both if len(both) >= 5 else (), candidates(origin, "last"),
                candidates(DEFAULT_ORIGIN, "both", info.gender)]
    return [candidates(origin, "last"), candidates(DEFAULT_ORIGIN, "last")]


@register
class PersonNameGenerator(SurrogateGenerator):
    category = Category.NAME
    fines = ("PATIENT", "DOCTOR", "RELATIVE", "OTHER")
    order = 50
    fallback = True

    def surrogate(self, original: str, ctx: SurrogateContext) -> str:
        return NameTokens(ctx).replace_text(original)

    def sample(self, rng: random.Random, locale: str | None, gender: str | None) -> str:
        origin = origin_for_locale(rng, locale)
        first, last, gender = sample_name(rng, origin=origin, gender=gender)
        style = rng.choices(
            ["full", "last_first", "initial_last", "full_middle", "first", "last", "upper"],
            weights=[40, 10, 10, 8, 12, 14, 6],
        )[0]
        if style == "last_first":
            return f"{last}, {first}"
        if style == "initial_last":
            return f"{first[0]}. {last}"
        if style == "full_middle":
            return f"{first} {rng.choice(string.ascii_uppercase)}. {last}"
        if style == "first":
            return first
        if style == "last":
            return last
        if style == "upper":
            return f"{first} {last}".upper()
        return f"{first} {last}"


@register
class UsernameGenerator(SurrogateGenerator):
    category = Category.NAME
    fines = ("USERNAME",)
    order = 10

    def accepts(self, original: str, ctx: SurrogateContext) -> bool:
        # A login looks like one lower-case word with digits or dots ("jsmith01", "j.smith").
        return (
            " " not in original
            and original == original.lower()
            and bool(re.fullmatch(r"[a-z][a-z0-9._-]*\d[a-z0-9._-]*|[a-z]+[._][a-z]+", original))
        )

    def surrogate(self, original: str, ctx: SurrogateContext) -> str:
        return randomise_shape(original, ctx.rng("NAME", "USERNAME", normalise_key(original)),
                               letters=string.ascii_lowercase)

    def sample(self, rng: random.Random, locale: str | None, gender: str | None) -> str:
        first, last, _ = sample_name(rng, origin=origin_for_locale(rng, locale), gender=gender)
        first, last = ascii_fold(first).lower(), ascii_fold(last).lower()
        style = rng.randrange(4)
        if style == 0:
            return f"{first[0]}{last}{rng.randint(1, 99)}"
        if style == 1:
            return f"{first}.{last}"
        if style == 2:
            return f"{last}{first[0]}"
        return "".join(rng.choice(string.ascii_lowercase) for _ in range(3)) + str(rng.randint(100, 9999))


# Rough population mix used by the synthetic corpus: which origins a name in a clinical
# letter from each country tends to come from. Weights, not census figures.
LOCALE_ORIGIN_MIX: dict[str, dict[str, float]] = {
    "US": {"english": 60, "hispanic": 14, "west_african": 4, "chinese": 3, "vietnamese": 2,
           "korean": 2, "indian": 3, "arabic": 2, "irish": 3, "italian": 2, "german": 2,
           "polish": 1, "french": 1, "japanese": 1},
    "UK": {"english": 68, "indian": 9, "irish": 5, "polish": 3, "arabic": 3, "west_african": 3,
           "chinese": 2, "italian": 1, "french": 1, "portuguese": 1, "turkish": 1,
           "german": 1, "hispanic": 1, "dutch": 1},
    "AU": {"english": 65, "chinese": 6, "indian": 5, "vietnamese": 3, "italian": 4,
           "irish": 4, "arabic": 3, "korean": 1, "german": 2, "hispanic": 1, "pacific": 2,
           "dutch": 1, "japanese": 1, "french": 1, "maori": 1},
    "NZ": {"english": 55, "maori": 15, "pacific": 8, "chinese": 6, "indian": 5, "korean": 2,
           "dutch": 2, "irish": 2, "german": 1, "hispanic": 1, "arabic": 1, "vietnamese": 1,
           "japanese": 1},
}


def origin_for_locale(rng: random.Random, locale: str | None) -> str:
    if locale is None:
        return rng.choice(NAME_ORIGINS)
    mix = LOCALE_ORIGIN_MIX[_locale_key(locale)]
    return rng.choices(list(mix), weights=list(mix.values()))[0]


def _locale_key(locale: str) -> str:
    loc = locale.upper()
    loc = "UK" if loc == "GB" else loc
    if loc not in LOCALE_ORIGIN_MIX:
        raise ValueError(f"unknown locale {locale!r}; expected US, UK, AU or NZ")
    return loc


def normalise_gender(gender: str | None) -> str | None:
    if gender is None:
        return None
    g = gender.strip().upper()[:1]
    if g not in ("F", "M"):
        raise ValueError(f"gender must be 'F', 'M' or None, not {gender!r}")
    return g


def sample_name(rng: random.Random, *, origin: str | None = None, gender: str | None = None) -> tuple[str, str, str]:
    """(first, last, gender) drawn fresh from the typical names of one origin; gender is
    "F" or "M"."""
    origin = origin or rng.choice(NAME_ORIGINS)
    gender = normalise_gender(gender) or rng.choice("FM")
    pool = typical_pool(origin)
    return rng.choice(pool.first(gender)), rng.choice(pool.last), gender
