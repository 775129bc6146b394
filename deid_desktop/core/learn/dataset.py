"""Training examples from gold documents.

Gold documents are JSONL lines ``{"id", "text", "spans": [{"start","end","label","sublabel"}]}``.
Two selections (003): *balanced* keeps every sentence with PHI plus an equal number of PHI-free
sentences drawn at random (more recall), *imbalanced* keeps every sentence (more precision).
Kept sentences are packed greedily into chunks (004) or used one by one; each word's tag goes on
its first sub-word.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

import torch

from ..text import sentences as split_sentences
from ..text import words
from ..models.alignment import IGNORE_INDEX, first_subwords, token_labels
from ..models.chunking import chunk_text, content_budget, split_long, token_offsets
from .gold import GoldDocument, as_gold, load_jsonl, save_jsonl
from ..models.hf import quiet
from ..models.labels import DEFAULT_SCHEME, LabelScheme, word_tags
from ..models.shape import shape_ids as word_shape_ids

__all__ = [
    "GoldDocument", "as_gold", "load_jsonl", "save_jsonl", "Example", "DataSummary", "EncodedExample",
    "build_examples", "encode_examples", "PaddingCollator", "length_grouped_batches", "AugmentFn",
]

SELECTIONS = ("balanced", "imbalanced")
UNITS = ("chunk", "sentence")

AugmentFn = Callable[[GoldDocument], list[GoldDocument]]


@dataclass(frozen=True)
class Example:
    """One model input: a stretch of a document, its words and their gold tags."""

    doc_id: str
    start: int  # offset of the stretch in the document
    text: str
    word_ranges: tuple[tuple[int, int], ...]  # relative to ``text``
    tag_ids: tuple[int, ...]

    @property
    def has_phi(self) -> bool:
        return any(t != DEFAULT_SCHEME.outside_id for t in self.tag_ids)


@dataclass
class DataSummary:
    selection: str
    unit: str
    documents: int = 0
    augmented_documents: int = 0
    sentences: int = 0
    phi_sentences: int = 0
    selected_sentences: int = 0
    examples: int = 0
    labelled_words: int = 0
    phi_words: int = 0
    tokens: int = 0

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def expand_with_augmentation(docs: Sequence[GoldDocument], augment: AugmentFn | None) -> tuple[list[GoldDocument], int]:
    """The documents plus every variant ``augment`` makes of each (004: surrogates as
    augmentation). Returns (documents, number of variants added)."""
    if augment is None:
        return list(docs), 0
    out: list[GoldDocument] = []
    added = 0
    for i, d in enumerate(docs):
        out.append(d)
        for v in augment(d) or []:
            out.append(as_gold(v, i))
            added += 1
    return out, added


def select_sentences(doc: GoldDocument) -> tuple[list[tuple[int, int]], list[bool]]:
    """The sentences of ``doc`` and, for each, whether a gold span touches it."""
    sents = split_sentences(doc.text)
    flags = [any(s.start < e and st < s.end for s in doc.spans) for st, e in sents]
    return sents, flags


def build_examples(
    docs: Iterable[Any],
    tokenizer: Any,
    *,
    max_length: int,
    selection: str = "imbalanced",
    unit: str = "chunk",
    scheme: LabelScheme = DEFAULT_SCHEME,
    seed: int = 0,
    augment: AugmentFn | None = None,
) -> tuple[list[Example], DataSummary]:
    if selection not in SELECTIONS:
        raise ValueError(f"unknown training selection {selection!r}; expected one of {', '.join(SELECTIONS)}")
    if unit not in UNITS:
        raise ValueError(f"unknown training unit {unit!r}; expected one of {', '.join(UNITS)}")
    gold = [as_gold(d, i) for i, d in enumerate(docs)]
    summary = DataSummary(selection=selection, unit=unit, documents=len(gold))
    gold, summary.augmented_documents = expand_with_augmentation(gold, augment)
    rng = random.Random(seed)

    per_doc: list[tuple[GoldDocument, list[tuple[int, int]], list[bool]]] = []
    phi_refs: list[tuple[int, int]] = []
    free_refs: list[tuple[int, int]] = []
    for di, doc in enumerate(gold):
        sents, flags = select_sentences(doc)
        per_doc.append((doc, sents, flags))
        for si, f in enumerate(flags):
            (phi_refs if f else free_refs).append((di, si))
    summary.sentences = len(phi_refs) + len(free_refs)
    summary.phi_sentences = len(phi_refs)
    if selection == "balanced":
        kept_free = rng.sample(free_refs, min(len(free_refs), len(phi_refs)))
        keep = set(phi_refs) | set(kept_free)
    else:
        keep = set(phi_refs) | set(free_refs)
    summary.selected_sentences = len(keep)

    budget = content_budget(tokenizer, max_length)
    examples: list[Example] = []
    for di, (doc, sents, _flags) in enumerate(per_doc):
        chosen = [sents[si] for si in range(len(sents)) if (di, si) in keep]
        if not chosen:
            continue
        doc_words = words(doc.text)
        doc_tags = word_tags(doc_words, doc.spans, scheme)
        for start, end in _pieces(doc.text, chosen, tokenizer, budget, unit):
            ex = _example(doc, start, end, doc_words, doc_tags, scheme)
            if ex.word_ranges:
                examples.append(ex)
    summary.examples = len(examples)
    summary.labelled_words = sum(len(e.tag_ids) for e in examples)
    summary.phi_words = sum(sum(1 for t in e.tag_ids if scheme.is_phi(t)) for e in examples)
    return examples, summary


def _pieces(text: str, chosen: list[tuple[int, int]], tokenizer: Any, budget: int, unit: str) -> list[tuple[int, int]]:
    if unit == "chunk":
        return [(c.start, c.end) for c in chunk_text(text, tokenizer, budget, sentence_ranges=chosen)]
    out: list[tuple[int, int]] = []
    offsets = token_offsets(tokenizer, [text[s:e] for s, e in chosen])
    for (s, e), offs in zip(chosen, offsets):
        if len(offs) <= budget:
            out.append((s, e))
        else:
            shifted = [(a + s, b + s) for a, b in offs]
            out.extend((c.start, c.end) for c in split_long(text, s, e, shifted, budget))
    return out


def _example(
    doc: GoldDocument,
    start: int,
    end: int,
    doc_words: list[tuple[int, int]],
    doc_tags: list[int],
    scheme: LabelScheme,
) -> Example:
    text = doc.text[start:end]
    local = words(text)
    # Tags come from the document's words so a span cut by a chunk edge keeps its label; the
    # first word of a piece that continues a span becomes a beginning.
    starts = [ws for ws, _ in doc_words]
    tags: list[int] = []
    for ls, _le in local:
        k = bisect_right(starts, start + ls) - 1
        tag = doc_tags[k] if k >= 0 and doc_words[k][1] > start + ls else scheme.outside_id
        tags.append(tag)
    if tags and scheme.is_phi(tags[0]):
        meaning = scheme.meanings()[tags[0]]
        if meaning.category is not None and not meaning.begins:
            tags[0] = scheme.begin_id(meaning.category)
    return Example(doc_id=doc.id, start=start, text=text, word_ranges=tuple(local), tag_ids=tuple(tags))


@dataclass
class EncodedExample:
    input_ids: list[int]
    attention_mask: list[int]
    labels: list[int]
    token_type_ids: list[int] | None = None
    shape_ids: list[int] | None = None  # only for models with word-shape features

    def __len__(self) -> int:
        return len(self.input_ids)


def encode_examples(
    examples: Sequence[Example], tokenizer: Any, max_length: int, *, shapes: bool = False
) -> list[EncodedExample]:
    """Tokenise with offsets and put each word's tag on its first sub-word; with ``shapes``,
    also the word-shape id of every sub-word, read from the example's original (cased) text.
    Examples whose words all vanished in tokenisation are dropped (they teach nothing)."""
    if not examples:
        return []
    with quiet():
        enc = tokenizer(
            [e.text for e in examples],
            truncation=True,
            max_length=max_length,
            return_offsets_mapping=True,
        )
    out: list[EncodedExample] = []
    has_types = "token_type_ids" in enc
    for i, ex in enumerate(examples):
        offs = enc["offset_mapping"][i]
        firsts = first_subwords(ex.word_ranges, offs)
        labels = token_labels(len(offs), firsts, ex.tag_ids)
        if all(x == IGNORE_INDEX for x in labels):
            continue
        out.append(
            EncodedExample(
                input_ids=list(enc["input_ids"][i]),
                attention_mask=list(enc["attention_mask"][i]),
                labels=labels,
                token_type_ids=list(enc["token_type_ids"][i]) if has_types else None,
                shape_ids=word_shape_ids(ex.text, offs) if shapes else None,
            )
        )
    return out


class PaddingCollator:
    """Pads a batch to its own longest sequence (dynamic padding)."""

    def __init__(self, pad_token_id: int):
        self.pad_token_id = pad_token_id

    def __call__(self, batch: Sequence[EncodedExample]) -> dict[str, torch.Tensor]:
        n = max(len(b) for b in batch)

        def pad(rows: list[list[int]], value: int) -> torch.Tensor:
            return torch.tensor([r + [value] * (n - len(r)) for r in rows], dtype=torch.long)

        out = {
            "input_ids": pad([b.input_ids for b in batch], self.pad_token_id),
            "attention_mask": pad([b.attention_mask for b in batch], 0),
            "labels": pad([b.labels for b in batch], IGNORE_INDEX),
        }
        if batch[0].token_type_ids is not None:
            out["token_type_ids"] = pad([b.token_type_ids or [] for b in batch], 0)
        if batch[0].shape_ids is not None:
            out["shape_ids"] = pad([b.shape_ids or [] for b in batch], 0)
        return out


def length_grouped_batches(lengths: Sequence[int], batch_size: int, rng: random.Random, group: int = 50) -> list[list[int]]:
    """Shuffled batches of similar lengths: shuffle, sort within windows of ``group``
    batches, cut, shuffle the batches. Less padding, same randomness between epochs."""
    idx = list(range(len(lengths)))
    rng.shuffle(idx)
    window = batch_size * group
    batches: list[list[int]] = []
    for w in range(0, len(idx), window):
        part = sorted(idx[w : w + window], key=lambda i: lengths[i])
        batches.extend(part[b : b + batch_size] for b in range(0, len(part), batch_size))
    rng.shuffle(batches)
    return batches
