"""Which sub-word speaks for which word.

Training labels and predictions both live on the FIRST sub-word of each word (a word is a
``text.words`` token); the other sub-words of a word are ignored (label -100). Aligning by
character offsets, not by the tokenizer's own word ids, keeps our notion of a word the same
for every tokenizer and for the metrics and the ensemble.
"""

from __future__ import annotations

from typing import Sequence

IGNORE_INDEX = -100


def first_subwords(
    word_ranges: Sequence[tuple[int, int]], token_offsets: Sequence[tuple[int, int]]
) -> list[int | None]:
    """For each word, the index of the first sub-word overlapping it, or None when the
    tokenizer dropped it (or it was truncated away). Special tokens have empty offsets and
    never match. Both inputs are sorted by start."""
    out: list[int | None] = []
    j = 0
    n = len(token_offsets)
    for ws, we in word_ranges:
        while j < n and (token_offsets[j][1] <= ws or token_offsets[j][0] == token_offsets[j][1]):
            j += 1
        if j < n and token_offsets[j][0] < we:
            out.append(j)
        else:
            out.append(None)
    return out


def token_labels(
    n_tokens: int, firsts: Sequence[int | None], word_tag_ids: Sequence[int]
) -> list[int]:
    """The label row for one sequence: each word's tag on its first sub-word, -100 elsewhere.
    When one sub-word covers two words (rare, e.g. SentencePiece joins), the first word wins."""
    labels = [IGNORE_INDEX] * n_tokens
    for j, tag in zip(firsts, word_tag_ids):
        if j is not None and labels[j] == IGNORE_INDEX:
            labels[j] = tag
    return labels
