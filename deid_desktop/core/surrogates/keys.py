"""Keyed randomness: every surrogate choice is seeded by an HMAC of the workspace secret.

Nothing is remembered between calls. The same (secret, subject, purpose, original) always
seeds the same ``random.Random``, so two workers, two runs or two machines with the same
workspace secret pick the same surrogate without sharing any state.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import secrets
import unicodedata
from functools import lru_cache

# Bumped only if the derivation changes; part of every HMAC message so an old workspace
# never silently mixes two derivations.
_DERIVATION = "deid-desktop/surrogates/v1"

# Letters that do not decompose under NFKD but have an obvious ASCII spelling.
_ASCII_EXTRA = str.maketrans(
    {"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ı": "i", "æ": "ae",
     "Æ": "AE", "œ": "oe", "Œ": "OE", "ß": "ss", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D"}
)


def new_workspace_secret() -> bytes:
    """32 random bytes; stored once per workspace and never shown to the user."""
    return secrets.token_bytes(32)


def ascii_fold(text: str) -> str:
    """"Nguyễn" -> "Nguyen", "Łukasz" -> "Lukasz"; other characters are kept."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_ASCII_EXTRA))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


# Called for every candidate surrogate of every value (``distinct`` compares each against the
# original), so a long note asked it hundreds of thousands of times for a few thousand
# strings: remembered.
@lru_cache(maxsize=1 << 16)
def normalise_key(text: str) -> str:
    """The part of an original that decides its surrogate: case, accents, whitespace and
    punctuation do not count, so "SMITH", "Smith" and "smith," key the same way."""
    return "".join(ch for ch in ascii_fold(text).casefold() if ch.isalnum())


def distinct(candidate: str, original: str) -> bool:
    """A surrogate must read as another value, not as the original spelt differently:
    keys differ and neither contains the other ("Park" -> "Parkside" would not do)."""
    a, b = normalise_key(candidate), normalise_key(original)
    if a == b:
        return False
    if min(len(a), len(b)) >= 3 and (a in b or b in a):
        return False
    return True


class KeyRing:
    """Derives seeded random generators from the workspace secret."""

    def __init__(self, secret: bytes):
        if not isinstance(secret, (bytes, bytearray)):
            raise TypeError("the workspace secret must be bytes")
        if len(secret) < 16:
            raise ValueError("the workspace secret must be at least 16 bytes long")
        self._secret = bytes(secret)

    def digest(self, *parts: object) -> bytes:
        # JSON keeps the parts unambiguous ("a", "bc") != ("ab", "c") without a separator rule.
        message = json.dumps([_DERIVATION, *[str(p) for p in parts]], ensure_ascii=False)
        return hmac.new(self._secret, message.encode("utf-8"), hashlib.sha256).digest()

    def rng(self, *parts: object) -> random.Random:
        return random.Random(int.from_bytes(self.digest(*parts), "big"))
