"""Choosing from a list so that different originals of one document stay different.

A town, a state or a street name is chosen from a list of a few hundred, so two different
towns of one note could draw the same surrogate, and a reader would take them for one place.
Each original therefore ranks the list in its own keyed order (its preferences), and takes
its first preference unless, in the same document, another original of the same kind holds
it already or the preference is itself one of the document's originals.

What is guaranteed, and why it stays keyed rather than remembered:

- Within one document, different originals of one kind (slot) get different surrogates, and
  no surrogate repeats an original of the document.
- Who yields is decided by the keyed order of the originals (an HMAC of each one), never by
  the order they appear in or are processed in: the same document gives the same result in
  any process.
- Across documents of one subject an original keeps its first preference, so it is the same
  everywhere, except in a document where it had to yield to another original that holds
  that preference; there it takes its next one. That happens only to values that would
  otherwise have been confused with another value of the same document.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .keys import distinct, normalise_key

if TYPE_CHECKING:
    from .base import SurrogateContext


def preferences(ctx: SurrogateContext, slot: str, key: str, original: str, options: Sequence[str]) -> list[str]:
    """The options this original may take, best first, in a keyed order; none of them reads
    as the original itself. A part keeps its order wherever it appears (no redraw counter),
    so "Leeds" alone and "Leeds, LS1 4AP" agree."""
    usable = [o for o in options if distinct(o, original)] or [o for o in options if o != original]
    ranked = sorted(set(usable))  # a fixed order before the keyed shuffle
    ctx.keys.rng("pick", ctx.subject, slot, key).shuffle(ranked)
    return ranked


class DocumentChoices:
    """The choices of one document: first every original asks (collecting), then
    ``resolve`` settles who takes what, and a second pass reads the answers."""

    def __init__(self) -> None:
        self._requests: dict[str, dict[str, tuple[str, tuple[str, ...]]]] = {}
        self._resolved: dict[tuple[str, str], str] | None = None

    def pick(self, ctx: SurrogateContext, slot: str, key: str, original: str, options: Sequence[str]) -> str:
        if self._resolved is None:
            self._requests.setdefault(slot, {}).setdefault(key, (original, tuple(options)))
        elif (slot, key) in self._resolved:
            return self._resolved[(slot, key)]
        return preferences(ctx, slot, key, original, options)[0]

    def resolve(self, ctx: SurrogateContext) -> None:
        resolved: dict[tuple[str, str], str] = {}
        for slot, requests in self._requests.items():
            taken = set(requests)  # no surrogate may repeat an original of the document
            for key in sorted(requests, key=lambda k: ctx.keys.digest("pick-order", ctx.subject, slot, k)):
                original, options = requests[key]
                ranked = preferences(ctx, slot, key, original, options)
                choice = next((o for o in ranked if normalise_key(o) not in taken), ranked[0])
                taken.add(normalise_key(choice))
                resolved[(slot, key)] = choice
        self._resolved = resolved
