from __future__ import annotations

import random

import numpy as np
import pytest
import torch

from deid_desktop.core.categories import Category
from deid_desktop.core.detect.base import DETECTORS
from deid_desktop.core.detect.transformer import TransformerDetector
from deid_desktop.core.models.device import cpu_has_native_bf16
from deid_desktop.core.models.hf import load_token_classifier
from deid_desktop.core.models.labels import DEFAULT_SCHEME, WordDecoder
from deid_desktop.core.models.tiny import build_tiny_model
from deid_desktop.core.text import words

from tests.core.learn_fixtures import clinic_letter, letters, train_tiny


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("det")
    result = train_tiny(tmp)
    return result.save("tiny-names", models_root=tmp / "models")


@pytest.fixture(scope="module")
def det(model_dir):
    return TransformerDetector(str(model_dir), name="tx", quantize=False, precision="fp32", batch_size=4, threads=1)


def gold_set(doc):
    return {(s.start, s.end, s.category) for s in doc.spans}


def found_set(spans):
    return {(s.start, s.end, s.category) for s in spans}


def test_registered_under_transformer():
    assert DETECTORS["transformer"] is TransformerDetector


def test_finds_names_and_dates_in_unseen_letters(det):
    docs = letters(10, seed=123)
    results = det.detect_many([d.text for d in docs])
    hits = sum(len(gold_set(d) & found_set(r)) for d, r in zip(docs, results))
    assert hits >= 0.8 * sum(len(d.spans) for d in docs)
    for r in results:
        for s in r:
            assert s.source == "tx" and 0.0 <= s.score <= 1.0


def test_spans_are_word_aligned_with_unicode_and_crlf(det):
    rng = random.Random(4)
    doc = clinic_letter(rng, "u", newline="\r\n")
    text = "Ünïcode 😀 header line.\r\n" + doc.text
    spans = det.detect(text)
    starts = {s for s, _ in words(text)}
    ends = {e for _, e in words(text)}
    assert spans
    for s in spans:
        assert s.start in starts and s.end in ends
        assert "\r" not in text[s.start : s.end] and "\n" not in text[s.start : s.end]


def test_batched_and_single_results_agree(det):
    docs = [d.text for d in letters(6, seed=8)]
    det.memo.clear()
    together = det.detect_many(docs)
    alone = []
    for t in docs:
        det.memo.clear()  # each text read by the model alone, not taken from the memo
        alone.append(det.detect(t))
    assert [found_set(a) for a in together] == [found_set(b) for b in alone]
    for a, b in zip(together, alone):
        assert [round(x.score, 4) for x in a] == [round(y.score, 4) for y in b]


def test_short_lines_are_read_in_fuller_batches_with_the_same_results(det, monkeypatch):
    lines = [f"HR {60 + i} reg, seen by Dr Aroha Ngata on {i % 28 + 1}/03/2024." for i in range(40)]
    text = "\n".join(lines)
    det.memo.clear()
    sizes = []
    original = det._forward

    def counting(batch):
        sizes.append(len(batch))
        return original(batch)

    monkeypatch.setattr(det, "_forward", counting)
    fuller = det.detect(text)
    assert max(sizes) > det.batch_size  # more than batch_size short lines in one pass
    monkeypatch.setattr(det, "batch_size", 1)  # one line a pass
    det.memo.clear()
    one_by_one = det.detect(text)
    assert found_set(fuller) == found_set(one_by_one)
    assert [round(x.score, 4) for x in fuller] == [round(y.score, 4) for y in one_by_one]


def test_long_pieces_keep_batches_of_batch_size(det):
    plan = list(det._batches([100] * 10 + [400] * 5))
    assert all(e - b <= det.batch_size for b, e in plan) and plan[-1][1] == 15
    short = list(det._batches([5] * 100))
    assert short[0] == (0, min(det.batch_size * 8, det.batch_size * 32 // 5))


def test_identical_sentences_are_run_once_and_placed_everywhere(det, monkeypatch):
    doc = letters(1, seed=5)[0]
    texts = [doc.text, "Intro line.\n" + doc.text, doc.text]
    det.memo.clear()
    pieces_seen = []
    original = det._forward

    def counting(batch):
        pieces_seen.extend(p.text for p in batch)
        return original(batch)

    monkeypatch.setattr(det, "_forward", counting)
    results = det.detect_many(texts)
    assert len(pieces_seen) == len(set(pieces_seen))  # each distinct sentence once
    shift = len("Intro line.\n")
    first = found_set(results[0])
    assert found_set(results[2]) == first
    assert {(s + shift, e + shift, c) for s, e, c in first} <= found_set(results[1])


def counting_forward(det, monkeypatch) -> list[str]:
    """The sentences (pieces) the model reads from now on."""
    seen: list[str] = []
    original = det._forward
    monkeypatch.setattr(det, "_forward", lambda batch: (seen.extend(p.text for p in batch), original(batch))[1])
    return seen


def test_a_text_read_again_is_answered_from_the_memo_with_the_same_spans(det, monkeypatch):
    doc = letters(1, seed=21)[0]
    det.memo.clear()
    first = det.detect(doc.text)
    seen = counting_forward(det, monkeypatch)
    again = det.detect("Header line.\n" + doc.text)
    assert seen == ["Header line."]  # only the new sentence went through the model
    shift = len("Header line.\n")
    assert [(s.start + shift, s.end + shift, s.category, round(s.score, 5)) for s in first] == [
        (s.start, s.end, s.category, round(s.score, 5)) for s in again if s.start >= shift
    ]


def test_a_rescan_reads_only_the_sentences_a_surrogate_changed(det, monkeypatch):
    doc = letters(1, seed=22)[0]
    det.memo.clear()
    spans = det.detect(doc.text)
    name = next(s for s in spans if s.category is Category.NAME)
    changed = doc.text[: name.start] + "Zebedee Quill" + doc.text[name.end :]
    seen = counting_forward(det, monkeypatch)
    det.detect(changed)
    assert seen and all("Zebedee Quill" in piece for piece in seen)


def test_the_memo_forgets_the_least_recently_used_past_its_size():
    from deid_desktop.core.detect.transformer import SentenceMemo

    memo = SentenceMemo(max_chars=10)
    memo.put("aaaa", [])
    memo.put("bbbb", [])
    assert memo.get("aaaa") == []  # used: now the most recent
    memo.put("cccc", [])  # 12 characters: the least recently used goes
    assert memo.get("bbbb") is None and memo.get("aaaa") == [] and memo.get("cccc") == []
    memo.put("x" * 11, [])  # longer than the whole memo: not kept, nothing pushed out
    assert len(memo) == 2 and memo.chars == 8


def test_sentences_on_the_inclusion_list_are_skipped(det, monkeypatch):
    doc = letters(1, seed=6)[0]
    name_sentence = doc.text.split(".")[0] + "."

    class Inclusion:
        def contains(self, sentence: str) -> bool:
            return sentence == name_sentence

    det.memo.clear()
    seen = counting_forward(det, monkeypatch)
    monkeypatch.setattr(det, "inclusion", Inclusion())
    spans = det.detect(doc.text)
    assert name_sentence not in seen
    assert all(s.start >= len(name_sentence) for s in spans)


def test_empty_and_blank_texts(det):
    assert det.detect_many(["", "   \n\r\n", "... -- !!"]) == [[], [], []]
    assert det.detect_many([]) == []


def test_sentences_longer_than_the_model_are_read_in_pieces(tmp_path):
    # A model whose head always answers I-NAME marks each piece it reads as one span, so the
    # spans show exactly how an over-long sentence was cut and where the pieces landed.
    folder = build_tiny_model(tmp_path / "always-name")
    model = load_token_classifier(folder)
    with torch.no_grad():
        model.classifier.weight.zero_()
        model.classifier.bias.fill_(-5.0)
        model.classifier.bias[DEFAULT_SCHEME.inside_id(Category.NAME)] = 5.0
    model.save_pretrained(str(folder))
    short = TransformerDetector(str(folder), max_length=24, quantize=False)
    text = "Intro. " + " ".join(f"word{i} Kowalski-Ngata, ok" for i in range(40))  # one long sentence after "Intro."
    spans = short.detect(text)
    assert len(spans) > 5
    covered = [any(s.start <= ws and we <= s.end for s in spans) for ws, we in words(text)]
    assert all(covered)  # every word was read, none lost at a cut
    word_starts = {ws for ws, _ in words(text)}
    word_ends = {we for _, we in words(text)}
    for s in spans:
        assert s.start in word_starts and s.end in word_ends
        n = len(short.tokenizer(text[s.start : s.end], add_special_tokens=False)["input_ids"])
        assert n <= 22


def test_int8_quantisation_keeps_the_spans(model_dir):
    docs = [d.text for d in letters(8, seed=31)]
    plain = TransformerDetector(str(model_dir), quantize=False).detect_many(docs)
    q = TransformerDetector(str(model_dir), quantize=True)
    assert q.describe()["dtype"] == "int8-dynamic" and q.quantized
    quant = q.detect_many(docs)
    same = sum(len(found_set(a) & found_set(b)) for a, b in zip(plain, quant))
    assert same >= 0.9 * sum(len(a) for a in plain)


def test_describe_and_device(det, model_dir):
    d = det.describe()
    assert d["name"] == "tx" and d["model"] == "tiny-names" and d["version"] == "v1"
    assert d["device"] == det.device == "cpu"
    assert d["dtype"] == "float32" and d["quantized"] is False
    assert d["labels"] == "native" and d["batch_size"] == 4 and d["threads"] == 1
    default = TransformerDetector(str(model_dir))
    assert default.name == "tiny-names" and default.quantized is False
    # on a CPU the default runs in ONNX Runtime, float32; torch autocasts where bf16 is native
    assert default.backend == "onnxruntime" and default.dtype == "float32" and default.batch_size == 8
    on_torch = TransformerDetector(str(model_dir), backend="torch")
    assert on_torch.dtype == ("bfloat16" if cpu_has_native_bf16() else "float32") and on_torch.batch_size == 64


def test_decoder_merges_begin_inside_and_splits_at_a_new_begin():
    sch = DEFAULT_SCHEME
    dec = WordDecoder(sch.meanings())
    text = "Anna Smith Tom Chen on 3 4"
    ws = words(text)
    tags = ["B-NAME", "I-NAME", "B-NAME", "I-NAME", "O", "B-DATE", "I-DATE"]
    probs = np.zeros((len(ws), len(sch.tags)), dtype=np.float32)
    for i, t in enumerate(tags):
        probs[i, sch.label2id[t]] = 0.8
        probs[i, 0] += 0.2
    spans = dec.decode(ws, probs, offset=100, source="m")
    assert [(s.start - 100, s.end - 100, s.category) for s in spans] == [
        (0, 10, Category.NAME), (11, 19, Category.NAME), (23, 26, Category.DATE),
    ]
    assert all(s.score == pytest.approx(0.8) for s in spans)
    # a word the model never saw (no sub-word) breaks a span and is not PHI
    probs[1] = 0.0
    assert [(s.start, s.end) for s in dec.decode(ws, probs)][:2] == [(0, 4), (11, 19)]


def test_span_score_is_the_mean_word_probability():
    sch = DEFAULT_SCHEME
    dec = WordDecoder(sch.meanings())
    ws = [(0, 3), (4, 7)]
    probs = np.zeros((2, len(sch.tags)), dtype=np.float32)
    probs[0, sch.label2id["B-ID"]], probs[0, 0] = 0.9, 0.1
    probs[1, sch.label2id["I-ID"]], probs[1, sch.label2id["B-ID"]], probs[1, 0] = 0.5, 0.2, 0.3
    (span,) = dec.decode(ws, probs)
    assert span.category == Category.ID and span.score == pytest.approx((0.9 + 0.7) / 2)
