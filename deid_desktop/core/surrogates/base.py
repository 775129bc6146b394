"""The surrogate generator interface and the registry that lists the generators.

Presidio's split between finding and changing: detectors find spans, and one small
generator per kind of value ("operator") says what replaces it. A generator serves the fine
types it names; when a span only carries its coarse category (what the models predict), the
category's generators are asked in order whether the value has their shape.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from ..categories import Category
from .choices import DocumentChoices, preferences
from .keys import KeyRing, normalise_key
from .options import SurrogateOptions


@dataclass(frozen=True)
class SurrogateContext:
    """What a generator may use besides the original text: keyed randomness for this
    subject, the options, and hints gathered from the whole document."""

    keys: KeyRing
    subject: str
    options: SurrogateOptions
    shift_days: int
    # Redraw counter: the engine raises it when a surrogate came out equal to its original.
    attempt: int = 0
    # How the document writes ambiguous numeric dates; None when it gives no clue.
    day_first_hint: bool | None = None
    # The country the document comes from (US, UK, AU, NZ): given by the caller or the
    # options, else guessed from the document's identifiers; None when unknown.
    country: str | None = None
    # Document-wide choices that must differ between different originals (towns, streets);
    # None when a value is replaced on its own.
    choices: DocumentChoices | None = None
    # The full names of the document (each a tuple of its name words), so initials such as
    # "TF" follow the surrogate of the name they stand for.
    known_names: tuple[tuple[str, ...], ...] = ()
    # The words of every original value of the document (``normalise_key`` of each): a name
    # word's surrogate is never one of them, or the output would carry another person's
    # real name of the same letter (the receptionist's "Taeyang" written for the patient).
    document_words: frozenset[str] = frozenset()

    def rng(self, *parts: object) -> random.Random:
        """Randomness for one whole value; changes with each redraw."""
        return self.keys.rng("value", self.subject, *parts, self.attempt)

    def stable_rng(self, *parts: object) -> random.Random:
        """Randomness for a part that must stay the same wherever it appears (one name
        token, one street name), whatever the value around it."""
        return self.keys.rng("part", self.subject, *parts)

    @property
    def day_first(self) -> bool:
        return self.options.day_first if self.day_first_hint is None else self.day_first_hint

    @property
    def home_country(self) -> str:
        """Where places of unknown country are drawn from."""
        return self.country or self.options.home_country

    def pick(self, slot: str, original: str, options: Sequence[str]) -> str:
        """One of ``options`` for ``original``: its first keyed preference, or, inside a
        document where another original of the same slot already holds that one, the next
        (see ``choices.DocumentChoices``)."""
        key = normalise_key(original)
        if self.choices is not None:
            return self.choices.pick(self, slot, key, original, options)
        return preferences(self, slot, key, original, options)[0]


class SurrogateGenerator(ABC):
    category: ClassVar[Category]
    # Fine types this generator serves when the span names them.
    fines: ClassVar[tuple[str, ...]] = ()
    # Lower runs first when the generators of a category are asked about a value's shape.
    order: ClassVar[int] = 100
    # The category's catch-all: used when no generator recognises the value.
    fallback: ClassVar[bool] = False

    def accepts(self, original: str, ctx: SurrogateContext) -> bool:
        """Whether ``original`` has this generator's shape (used when the fine type is OTHER)."""
        return False

    @abstractmethod
    def surrogate(self, original: str, ctx: SurrogateContext) -> str:
        """A realistic replacement for ``original``; deterministic given ``ctx``."""

    @abstractmethod
    def sample(self, rng: random.Random, locale: str | None, gender: str | None) -> str:
        """A fresh realistic value, for the synthetic training corpus."""


GENERATORS: dict[Category, list[SurrogateGenerator]] = {c: [] for c in Category}


def register(cls: type[SurrogateGenerator]) -> type[SurrogateGenerator]:
    generators = GENERATORS[cls.category]
    if any(type(g) is cls for g in generators):
        return cls
    generators.append(cls())
    generators.sort(key=lambda g: (g.order, type(g).__name__))
    return cls


def generator_for(category: Category, fine: str, original: str, ctx: SurrogateContext) -> SurrogateGenerator:
    generators = GENERATORS[category]
    if fine != "OTHER":
        for g in generators:
            if fine in g.fines:
                return g
    for g in generators:
        if g.accepts(original, ctx):
            return g
    return _fallback(category)


def sampler_for(category: Category, fine: str) -> SurrogateGenerator:
    for g in GENERATORS[category]:
        if fine in g.fines:
            return g
    return _fallback(category)


def _fallback(category: Category) -> SurrogateGenerator:
    for g in GENERATORS[category]:
        if g.fallback:
            return g
    raise LookupError(f"no surrogate generator registered for {category}")


