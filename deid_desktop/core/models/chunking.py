"""Cutting a document into pieces a model can read (004: greedy, at sentence boundaries).

Sentences (``text.sentences``) are packed greedily into a chunk while the chunk's sub-word
count stays within the model's budget; a sentence that alone is too long is cut at word
boundaries, and a single word longer than the budget at sub-word boundaries. Every chunk keeps
its character offsets into the document, so labels and predictions map back exactly.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import Any, Sequence

from ..text import sentences as split_sentences
from ..text import words


@dataclass(frozen=True, slots=True)
class Chunk:
    start: int
    end: int
    n_tokens: int

    def text(self, doc_text: str) -> str:
        return doc_text[self.start : self.end]


def content_budget(tokenizer: Any, max_length: int) -> int:
    """Sub-words left for text once the model's special tokens ([CLS], [SEP]) are added."""
    budget = max_length - tokenizer.num_special_tokens_to_add(pair=False)
    if budget < 1:
        raise ValueError(f"max_length {max_length} leaves no room for text")
    return budget


def token_offsets(tokenizer: Any, texts: Sequence[str]) -> list[list[tuple[int, int]]]:
    """Character offsets of the sub-words of each text, special tokens left out."""
    if not texts:
        return []
    from .hf import quiet

    with quiet():  # long inputs make the tokenizer warn about model length; we cut them ourselves
        enc = tokenizer(list(texts), add_special_tokens=False, return_offsets_mapping=True, return_attention_mask=False)
    return [[(int(s), int(e)) for s, e in offs] for offs in enc["offset_mapping"]]


class _Tokens:
    """The sub-words of one text by start offset, for counting those inside a range."""

    def __init__(self, offsets: Sequence[tuple[int, int]]):
        self.offsets = list(offsets)
        self.starts = [s for s, _ in self.offsets]

    def first_at(self, pos: int) -> int:
        return bisect_left(self.starts, pos)

    def count(self, start: int, end: int) -> int:
        return self.first_at(end) - self.first_at(start)


def chunk_text(
    text: str,
    tokenizer: Any,
    max_tokens: int,
    *,
    sentence_ranges: Sequence[tuple[int, int]] | None = None,
) -> list[Chunk]:
    """Greedy chunks of ``text`` of at most ``max_tokens`` sub-words (special tokens not
    counted; see ``content_budget``). ``sentence_ranges`` restricts chunking to those
    sentences, and a chunk never spans a gap between two ranges that are not neighbours in
    ``text.sentences(text)`` order — so a subset of sentences chunks as separate runs."""
    all_sents = split_sentences(text)
    if sentence_ranges is None:
        runs = [all_sents] if all_sents else []
    else:
        runs = _runs(all_sents, sentence_ranges)
    out: list[Chunk] = []
    for run in runs:
        out.extend(_chunk_run(text, run, tokenizer, max_tokens))
    return out


def _runs(all_sents: list[tuple[int, int]], chosen: Sequence[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    index = {s: i for i, s in enumerate(all_sents)}
    runs: list[list[tuple[int, int]]] = []
    last = None
    for s in sorted(chosen):
        i = index.get(s)
        if runs and i is not None and last is not None and i == last + 1:
            runs[-1].append(s)
        else:
            runs.append([s])
        last = i
    return runs


def _chunk_run(text: str, sents: list[tuple[int, int]], tokenizer: Any, max_tokens: int) -> list[Chunk]:
    if not sents:
        return []
    base = sents[0][0]
    region = text[base : sents[-1][1]]
    toks = _Tokens([(s + base, e + base) for s, e in token_offsets(tokenizer, [region])[0]])
    out: list[Chunk] = []
    cur_start: int | None = None
    cur_end = 0
    for s, e in sents:
        n = toks.count(s, e)
        if n > max_tokens:
            if cur_start is not None:
                out.append(Chunk(cur_start, cur_end, toks.count(cur_start, cur_end)))
                cur_start = None
            out.extend(split_long(text, s, e, toks.offsets, max_tokens))
            continue
        if cur_start is not None and toks.count(cur_start, e) <= max_tokens:
            cur_end = e
            continue
        if cur_start is not None:
            out.append(Chunk(cur_start, cur_end, toks.count(cur_start, cur_end)))
        cur_start, cur_end = s, e
    if cur_start is not None:
        out.append(Chunk(cur_start, cur_end, toks.count(cur_start, cur_end)))
    return [c for c in out if c.n_tokens > 0 or c.end > c.start]


def split_long(
    text: str, start: int, end: int, offsets: Sequence[tuple[int, int]], max_tokens: int
) -> list[Chunk]:
    """Cut text[start:end] into pieces of at most ``max_tokens`` sub-words, at word
    boundaries where possible. ``offsets`` are sub-word offsets into ``text`` (any superset of
    the range)."""
    toks = [(s, e) for s, e in offsets if start <= s < end and e > s]
    if not toks:
        return [Chunk(start, end, 0)] if end > start else []
    word_starts = {start + ws for ws, _ in words(text[start:end])}
    out: list[Chunk] = []
    i = 0
    while i < len(toks):
        j = min(i + max_tokens, len(toks))  # exclusive
        if j < len(toks):
            # Move the cut back to the last sub-word that starts a word (or follows a space),
            # so no word is split unless one word alone is longer than the budget.
            k = j
            while k > i + 1 and not _starts_word(text, toks[k][0], word_starts):
                k -= 1
            if k > i + 1 or _starts_word(text, toks[k][0], word_starts):
                j = k
        piece_start = toks[i][0]
        piece_end = toks[j - 1][1]
        out.append(Chunk(piece_start, piece_end, j - i))
        i = j
    # The first and last piece reach the range ends so no character is dropped.
    first, last = out[0], out[-1]
    out[0] = Chunk(start, first.end, first.n_tokens)
    out[-1] = Chunk(out[-1].start, end, last.n_tokens)
    return out


def _starts_word(text: str, pos: int, word_starts: set[int]) -> bool:
    return pos in word_starts or (pos > 0 and text[pos - 1].isspace())
