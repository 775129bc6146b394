"""Format-preserving replacement: digits by digits, letters by letters, the rest kept.

Used for identifiers, phone numbers, postcodes, plates and anything whose value is random
but whose shape (length, punctuation, case) tells the reader what it is.
"""

from __future__ import annotations

import random
import re
import string

_DIGIT_RUN = re.compile(r"\d+")


def random_letter(rng: random.Random, like: str, alphabet: str = string.ascii_uppercase) -> str:
    ch = rng.choice(alphabet)
    return ch.lower() if like.islower() else ch.upper()


def randomise_digits(run: str, rng: random.Random) -> str:
    """A run of digits of the same length and magnitude: zero padding stays padding
    ("000123" -> "000847") and a non-zero lead stays non-zero ("3" never becomes "0")."""
    if not run.strip("0"):  # all zeros: nothing to keep
        return "".join(str(rng.randint(0, 9)) for _ in run)
    zeros = len(run) - len(run.lstrip("0"))
    rest = len(run) - zeros
    return "0" * zeros + str(rng.randint(1, 9)) + "".join(str(rng.randint(0, 9)) for _ in range(rest - 1))


def randomise_shape(text: str, rng: random.Random, *, letters: str = string.ascii_uppercase) -> str:
    """Every digit run replaced by a same-length run, every letter by a random letter of
    the same case; spaces and punctuation unchanged."""
    out: list[str] = []
    pos = 0
    for m in _DIGIT_RUN.finditer(text):
        out.append(_letters(text[pos : m.start()], rng, letters))
        out.append(randomise_digits(m.group(), rng))
        pos = m.end()
    out.append(_letters(text[pos:], rng, letters))
    return "".join(out)


def _letters(chunk: str, rng: random.Random, alphabet: str) -> str:
    return "".join(random_letter(rng, c, alphabet) if c.isalpha() else c for c in chunk)


def digits_of(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


def put_digits(template: str, digits: str) -> str:
    """Write ``digits`` into the digit positions of ``template`` in order."""
    it = iter(digits)
    return "".join(next(it) if c.isdigit() else c for c in template)
