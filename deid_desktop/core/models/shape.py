"""Word shape: what an uncased encoder cannot see.

The built-in MiniLM lower-cases its input, so ``Ward``, ``WARD`` and ``ward`` reach it as one
token; yet capitals are most of the evidence for names in headers, sign-offs and message
logs, and what sits around a word (``kavitha:`` at a line start, ``-TP``) is most of the rest.
A shape id sums up one word of the ORIGINAL text (before any lower-casing) and every sub-word
of that word carries it, so the model can learn one small embedding per shape.

The vocabulary is fixed by ``SHAPE_SPEC`` and saved with a model: id 0 is special tokens and
padding, id 1 a sub-word outside every word (punctuation), and 2.. the combinations of

    case    none | lower | initial | upper | mixed      (a lone capital counts as initial)
    digits  none | some | all
    length  1 | 2-3 | 4-7 | 8+                          (characters of the word)
    before  line start | space | punctuation            (spaces and tabs are skipped back to
                                                         a line start)
    after   line end | space | colon | other punctuation
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any, Sequence

from ..text import words

SHAPE_VERSION = 1
PAD_SHAPE = 0
PUNCT_SHAPE = 1
CASES = ("none", "lower", "initial", "upper", "mixed")
DIGITS = ("none", "some", "all")
LENGTHS = ("1", "2-3", "4-7", "8+")
BEFORE = ("line_start", "space", "punct")
AFTER = ("line_end", "space", "colon", "punct")
SHAPE_VOCAB_SIZE = 2 + len(CASES) * len(DIGITS) * len(LENGTHS) * len(BEFORE) * len(AFTER)

# What a saved model records (config.json key CONFIG_KEY and the manifest), so that a later
# change of the features cannot be fed silently to a model trained on the old ones.
CONFIG_KEY = "deid_shape_features"
SHAPE_SPEC: dict[str, Any] = {
    "version": SHAPE_VERSION,
    "vocab_size": SHAPE_VOCAB_SIZE,
    "special_ids": {"padding_and_special_tokens": PAD_SHAPE, "outside_words": PUNCT_SHAPE},
    "features": {"case": list(CASES), "digits": list(DIGITS), "length": list(LENGTHS),
                 "before": list(BEFORE), "after": list(AFTER)},
}


def case_class(word: str) -> int:
    letters = [c for c in word if c.isalpha()]
    if not letters:
        return 0
    uppers = [c.isupper() for c in letters]
    if not any(uppers):
        return 1
    if len(letters) == 1 or (uppers[0] and not any(uppers[1:])):
        return 2
    if all(uppers):
        return 3
    return 4


def _digit_class(word: str) -> int:
    n = sum(c.isdigit() for c in word)
    return 0 if n == 0 else (2 if n == len(word) else 1)


def _length_class(n: int) -> int:
    return 0 if n == 1 else 1 if n <= 3 else 2 if n <= 7 else 3


def _before_class(text: str, start: int) -> int:
    i = start - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    if i < 0 or text[i] in "\r\n":
        return 0
    return 1 if i < start - 1 else 2


def _after_class(text: str, end: int) -> int:
    if end >= len(text) or text[end] in "\r\n":
        return 0
    ch = text[end]
    if ch.isspace():
        return 1
    return 2 if ch == ":" else 3


def word_shape(text: str, start: int, end: int) -> int:
    """The shape id of the word ``text[start:end]`` in its context."""
    w = text[start:end]
    k = case_class(w)
    k = k * len(DIGITS) + _digit_class(w)
    k = k * len(LENGTHS) + _length_class(len(w))
    k = k * len(BEFORE) + _before_class(text, start)
    k = k * len(AFTER) + _after_class(text, end)
    return 2 + k


def shape_ids(text: str, token_offsets: Sequence[tuple[int, int]]) -> list[int]:
    """One shape id per sub-word: the shape of the word (``text.words``) it starts in,
    PUNCT_SHAPE for a sub-word outside every word, PAD_SHAPE for special tokens (empty
    offsets). Offsets are character offsets into ``text`` as the fast tokenizer reports them."""
    ranges = words(text)
    starts = [s for s, _ in ranges]
    shapes = [word_shape(text, s, e) for s, e in ranges]
    out: list[int] = []
    for s, e in token_offsets:
        if s >= e:
            out.append(PAD_SHAPE)
            continue
        k = bisect_right(starts, s) - 1
        out.append(shapes[k] if k >= 0 and ranges[k][1] > s else PUNCT_SHAPE)
    return out


def check_spec(spec: Any) -> bool:
    """Whether a saved model's shape vocabulary is the one this code computes."""
    return isinstance(spec, dict) and spec.get("version") == SHAPE_VERSION and spec.get("vocab_size") == SHAPE_VOCAB_SIZE
