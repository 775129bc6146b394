from __future__ import annotations

import random

import numpy as np
import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.models.alignment import IGNORE_INDEX, first_subwords
from deid_desktop.core.models.chunking import chunk_text, content_budget, token_offsets
from deid_desktop.core.learn.dataset import build_examples, encode_examples
from deid_desktop.core.models.hf import load_tokenizer, resolve_base_model
from deid_desktop.core.models.labels import DEFAULT_SCHEME, WordDecoder
from deid_desktop.core.spans import Span
from deid_desktop.core.text import sentences, words

from tests.core.learn_fixtures import DocBuilder, letters


@pytest.fixture(scope="module")
def tok():
    return load_tokenizer(resolve_base_model("builtin:minilm"))


def _tokens_in(text, tok, start, end):
    return sum(1 for s, _ in token_offsets(tok, [text])[0] if start <= s < end)


def assert_exact_cover(text, chunks, tok, budget):
    """Every sub-word of the document is in exactly one chunk and no chunk is over budget."""
    all_starts = [s for s, _ in token_offsets(tok, [text])[0]]
    owner = [sum(1 for c in chunks if c.start <= s < c.end) for s in all_starts]
    assert owner == [1] * len(all_starts)
    for c in chunks:
        assert 0 < c.n_tokens <= budget
        assert c.n_tokens == _tokens_in(text, tok, c.start, c.end)


def test_chunks_are_greedy_runs_of_whole_sentences(tok):
    text = " ".join(d.text for d in letters(30)).replace("\n", " ")
    budget = content_budget(tok, 64)
    assert budget == 62  # [CLS] and [SEP]
    chunks = chunk_text(text, tok, budget)
    assert len(chunks) > 3
    assert_exact_cover(text, chunks, tok, budget)
    starts = {s for s, _ in sentences(text)}
    ends = {e for _, e in sentences(text)}
    for a, b in zip(chunks, chunks[1:]):
        assert a.start in starts and a.end in ends
        # greedy: the next sentence would not have fitted
        next_sentence_end = min(e for s, e in sentences(text) if s >= b.start)
        assert _tokens_in(text, tok, a.start, next_sentence_end) > budget


def test_one_overlong_sentence_is_cut_between_words(tok):
    rng = random.Random(1)
    text = " ".join(rng.choice(["kidney", "function", "stable", "Kowalski", "reviewed", "42mg"]) for _ in range(400))
    budget = 50
    chunks = chunk_text(text, tok, budget)
    assert len(chunks) >= 8
    assert_exact_cover(text, chunks, tok, budget)
    word_starts = {s for s, _ in words(text)}
    word_ends = {e for _, e in words(text)}
    for c in chunks:
        assert c.start in word_starts and c.end in word_ends  # no word is cut


def test_a_word_longer_than_the_budget_is_cut_between_subwords(tok):
    text = "Record " + "qzxv" * 60 + " ends."
    chunks = chunk_text(text, tok, 16)
    assert_exact_cover(text, chunks, tok, 16)
    assert chunks[0].start == 0 and chunks[-1].end == len(text)


def test_unicode_and_crlf_keep_exact_offsets(tok):
    text = "Zoë Müller 😀 saw Hēmi in 北京市.\r\nNext line, ngā mihi.\r\n\r\nFin — ok."
    chunks = chunk_text(text, tok, 8)
    assert_exact_cover(text, chunks, tok, 8)
    for c in chunks:
        piece = c.text(text)
        assert piece == piece.strip() and "\r" not in piece and "\n" not in piece


def test_only_neighbouring_chosen_sentences_share_a_chunk(tok):
    text = "First one. Second one. Third one. Fourth one."
    sents = sentences(text)
    chosen = [sents[0], sents[1], sents[3]]
    chunks = chunk_text(text, tok, 100, sentence_ranges=chosen)
    assert [(c.start, c.end) for c in chunks] == [(sents[0][0], sents[1][1]), sents[3]]


def test_long_documents_chunk_completely(tok):
    text = "\n".join(d.text for d in letters(400))
    chunks = chunk_text(text, tok, 126)
    covered = sum(c.n_tokens for c in chunks)
    assert covered == len(token_offsets(tok, [text])[0])


@pytest.mark.parametrize("unit", ["chunk", "sentence"])
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_labels_round_trip_through_chunking_and_tokenisation(tok, unit, newline):
    docs = letters(40, seed=3, newline=newline)
    b = DocBuilder()
    # one document longer than several chunks, with a name straddling nothing but Unicode
    for i in range(30):
        b.add("Seen by ").add("Zoë Ngāti-Müller", Category.NAME).add(f" on visit {i}.{newline}")
    docs.append(b.build("long"))
    examples, summary = build_examples(docs, tok, max_length=32, selection="imbalanced", unit=unit)
    assert summary.sentences == summary.selected_sentences
    encoded = encode_examples(examples, tok, 32)
    assert len(encoded) == len(examples)
    by_id = {d.id: d for d in docs}
    decoder = WordDecoder(DEFAULT_SCHEME.meanings())
    rebuilt: dict[str, set] = {d.id: set() for d in docs}
    for ex, enc in zip(examples, encoded):
        assert len(enc.input_ids) <= 32
        offs = tok(ex.text, return_offsets_mapping=True, truncation=True, max_length=32)["offset_mapping"]
        firsts = first_subwords(ex.word_ranges, offs)
        assert None not in firsts  # every word keeps a labelled sub-word
        probs = np.zeros((len(ex.word_ranges), len(DEFAULT_SCHEME.tags)), dtype=np.float32)
        for w, j in enumerate(firsts):
            probs[w, enc.labels[j]] = 1.0
        # only first sub-words carry labels
        assert sum(1 for x in enc.labels if x != IGNORE_INDEX) == len(set(firsts))
        for sp in decoder.decode(ex.word_ranges, probs, offset=ex.start):
            rebuilt[ex.doc_id].add((sp.start, sp.end, sp.category))
    for doc_id, doc in by_id.items():
        assert rebuilt[doc_id] == {(s.start, s.end, s.category) for s in doc.spans}


def test_word_tags_mark_first_word_begin_and_rest_inside():
    from deid_desktop.core.models.labels import word_tags

    text = "Dr Anna Smith-Jones, 12 Main St"
    ws = words(text)
    spans = [Span(3, 19, Category.NAME), Span(21, 31, Category.LOCATION)]
    tags = [DEFAULT_SCHEME.tags[t] for t in word_tags(ws, spans)]
    assert tags == ["O", "B-NAME", "I-NAME", "I-NAME", "B-LOCATION", "I-LOCATION", "I-LOCATION"]
