from __future__ import annotations

import threading

import pytest
import torch

from deid_desktop.core.categories import Category
from deid_desktop.core.errors import ConfigError, ModelError
from deid_desktop.core.models.alignment import IGNORE_INDEX
from deid_desktop.core.learn.dataset import PaddingCollator, build_examples, encode_examples
from deid_desktop.core.models.device import cpu_has_native_bf16
from deid_desktop.core.learn.gold import GoldDocument, load_jsonl, save_jsonl
from deid_desktop.core.models.hf import load_tokenizer, resolve_base_model
from deid_desktop.core.models.labels import DEFAULT_SCHEME
from deid_desktop.core.models.tiny import build_tiny_model
from deid_desktop.core.learn.train import TrainConfig, TrainingCancelled, class_weights, train_model
from deid_desktop.core.paths import resource
from deid_desktop.core.spans import Span

from tests.core.learn_fixtures import DocBuilder, letters


@pytest.fixture(scope="module")
def tok():
    return load_tokenizer(resolve_base_model("builtin:minilm"))


@pytest.fixture(scope="module")
def tiny_base(tmp_path_factory):
    return build_tiny_model(tmp_path_factory.mktemp("tiny") / "base")


def tiny_config(base, **changes) -> TrainConfig:
    settings = dict(
        name="tiny", base_model=str(base), epochs=2, batch_size=8, learning_rate=3e-3,
        warmup_ratio=0.1, max_length=64, seed=5, freeze_embeddings=False, precision="fp32",
        threads=1,
    )
    settings.update(changes)
    return TrainConfig(**settings)


# -- settings ---------------------------------------------------------------------------


def test_shipped_training_settings_follow_the_papers_where_the_cpu_allows():
    d = TrainConfig.load()
    assert (d.batch_size, d.warmup_ratio, d.phi_weight) == (32, 0.4, 3.0)
    assert d.unit == "sentence" and d.freeze_embeddings
    assert d.shape_features and not TrainConfig().shape_features  # shipped on; code default off
    assert d.base_model == "builtin:minilm" and d.max_length == 128
    bal = TrainConfig.load(resource("training", "balanced.toml"))
    imb = TrainConfig.load(resource("training", "imbalanced.toml"))
    assert (bal.name, bal.selection) == ("minilm-balanced", "balanced")
    assert (imb.name, imb.selection) == ("minilm-imbalanced", "imbalanced")
    assert imb.learning_rate == d.learning_rate  # inherited through `extends`
    assert TrainConfig.load(resource("training", "balanced.toml"), epochs=1).epochs == 1


def test_bad_settings_are_refused(tmp_path):
    p = tmp_path / "t.toml"
    p.write_text('[training]\nepochs = 2\nlearning_rat = 0.1\n')
    with pytest.raises(ConfigError, match="learning_rat"):
        TrainConfig.load(p)
    p.write_text('[training]\nselection = "half"\n')
    with pytest.raises(ConfigError, match="selection"):
        TrainConfig.load(p)
    p.write_text('extends = "t.toml"\n')
    with pytest.raises(ConfigError, match="loops"):
        TrainConfig.load(p)


def test_phi_tags_weigh_three_times_outside():
    w = class_weights(DEFAULT_SCHEME, 3.0)
    assert w[DEFAULT_SCHEME.outside_id] == 1.0
    assert w[DEFAULT_SCHEME.begin_id(Category.NAME)] == 3.0 and w[DEFAULT_SCHEME.inside_id(Category.AGE)] == 3.0


# -- data -------------------------------------------------------------------------------


def test_balanced_set_keeps_all_phi_sentences_and_as_many_without(tok):
    docs = letters(20)  # each letter: 2 sentences with PHI, 2 without
    extra = DocBuilder().add("Stable. " * 30).build("quiet")  # 30 PHI-free sentences
    _, bal = build_examples(docs + [extra], tok, max_length=64, selection="balanced", unit="sentence")
    _, imb = build_examples(docs + [extra], tok, max_length=64, selection="imbalanced", unit="sentence")
    assert bal.phi_sentences == imb.phi_sentences == 40
    assert bal.sentences == imb.sentences == 110
    assert bal.selected_sentences == 80 and bal.examples == 80
    assert imb.selected_sentences == 110 and imb.examples == 110
    assert bal.phi_words == imb.phi_words


def test_balanced_selection_is_reproducible_by_seed(tok):
    docs = letters(10) + [DocBuilder().add("Stable. " * 40).build("quiet")]
    a, _ = build_examples(docs, tok, max_length=64, selection="balanced", unit="sentence", seed=1)
    b, _ = build_examples(docs, tok, max_length=64, selection="balanced", unit="sentence", seed=1)
    c, _ = build_examples(docs, tok, max_length=64, selection="balanced", unit="sentence", seed=2)
    key = lambda xs: [(e.doc_id, e.start) for e in xs]  # noqa: E731
    assert key(a) == key(b) and key(a) != key(c)


def test_augmentation_adds_variants(tok):
    def swap_names(doc: GoldDocument) -> list[GoldDocument]:
        text = doc.text
        for sp in sorted(doc.spans, key=lambda s: -s.start):
            if sp.category == Category.NAME:
                text = text[: sp.start] + "X" * sp.length + text[sp.end :]
        return [GoldDocument(doc.id + "-aug", text, list(doc.spans))]

    examples, summary = build_examples(letters(5), tok, max_length=64, augment=swap_names)
    assert summary.documents == 5 and summary.augmented_documents == 5
    assert {e.doc_id for e in examples} >= {"doc0", "doc0-aug"}


def test_only_the_first_subword_of_a_word_is_labelled(tok):
    b = DocBuilder().add("Reviewed by ").add("Kowalski-Ngata", Category.NAME).add(", twice.")
    examples, _ = build_examples([b.build("x")], tok, max_length=64)
    (enc,) = encode_examples(examples, tok, 64)
    toks = tok.convert_ids_to_tokens(enc.input_ids)
    labelled = [(t, DEFAULT_SCHEME.tags[l]) for t, l in zip(toks, enc.labels) if l != IGNORE_INDEX]
    assert labelled == [("reviewed", "O"), ("by", "O"), ("kowalski", "B-NAME"), ("ng", "I-NAME"), ("twice", "O")]
    # "##ata", "-", "," and the special tokens carry no label
    assert {"##ata", "-", ",", "[CLS]", "[SEP]"} <= set(toks)


def test_collator_pads_to_the_longest_in_the_batch(tok):
    examples, _ = build_examples(letters(3), tok, max_length=64, unit="sentence")
    enc = encode_examples(examples, tok, 64)
    batch = PaddingCollator(tok.pad_token_id)(enc[:4])
    longest = max(len(e) for e in enc[:4])
    assert batch["input_ids"].shape == (4, longest)
    short = min(range(4), key=lambda i: len(enc[i]))
    n = len(enc[short])
    if n < longest:
        assert batch["attention_mask"][short, n:].sum() == 0
        assert (batch["labels"][short, n:] == IGNORE_INDEX).all()


def test_gold_jsonl_round_trip(tmp_path):
    docs = letters(3, newline="\r\n")
    save_jsonl(docs, tmp_path / "g.jsonl")
    back = load_jsonl(tmp_path / "g.jsonl")
    key = lambda ds: [(d.id, d.text, [(s.start, s.end, s.category, s.fine) for s in d.spans]) for d in ds]  # noqa: E731
    assert key(back) == key(docs)
    (tmp_path / "bad.jsonl").write_text('{"id": "1", "text": "ab", "spans": [{"start": 0, "end": 9, "label": "NAME"}]}\n')
    with pytest.raises(ValueError, match="bad.jsonl line 1"):
        load_jsonl(tmp_path / "bad.jsonl")


# -- training ---------------------------------------------------------------------------


def test_tiny_model_learns_loss_falls_and_progress_is_reported(tiny_base):
    seen: list[tuple[int, int]] = []
    r = train_model(tiny_config(tiny_base, epochs=6), letters(40), progress=lambda s, n, loss: seen.append((s, n)))
    first, last = sum(r.losses[:5]) / 5, sum(r.losses[-5:]) / 5
    assert last < 0.5 * first
    assert seen[-1] == (r.steps, r.steps) and [s for s, _ in seen] == list(range(1, r.steps + 1))
    assert r.train_seq_per_s > 0 and r.metrics is None


def test_same_seed_same_model(tiny_base):
    a = train_model(tiny_config(tiny_base, epochs=1), letters(16))
    b = train_model(tiny_config(tiny_base, epochs=1), letters(16))
    assert a.losses == b.losses


def test_training_stops_when_asked(tiny_base):
    stop = threading.Event()

    def progress(step, total, loss):
        if step == 2:
            stop.set()

    with pytest.raises(TrainingCancelled):
        train_model(tiny_config(tiny_base, epochs=5), letters(40), progress=progress, should_stop=stop)
    calls = []
    with pytest.raises(TrainingCancelled):
        train_model(tiny_config(tiny_base), letters(40), progress=lambda *a: calls.append(a), should_stop=lambda: len(calls) >= 1)
    assert len(calls) == 1


def test_fine_tuning_from_a_trained_model_starts_where_it_left_off(tiny_base, tmp_path):
    first = train_model(tiny_config(tiny_base, epochs=6), letters(40))
    saved = first.save(models_root=tmp_path)
    again = train_model(tiny_config(tiny_base, epochs=1), letters(40, seed=9), init_from=str(saved))
    scratch = train_model(tiny_config(tiny_base, epochs=1), letters(40, seed=9))
    assert again.losses[0] < 0.5 * scratch.losses[0]
    assert again.init_from == str(saved)


def test_validation_documents_are_scored_at_the_end(tiny_base):
    r = train_model(tiny_config(tiny_base, epochs=6), letters(40), letters(6, seed=50))
    assert r.metrics.documents == 6
    # per letter: a two-word name, a three-word date (d/m/yyyy) and a one-word doctor
    assert r.metrics.token.support == 6 * 6
    assert r.metrics.token.recall > 0.5
    assert r.validation["dtype"] == ("bfloat16" if cpu_has_native_bf16() else "float32")


def test_documents_without_words_cannot_train(tiny_base):
    with pytest.raises(ModelError, match="no training examples"):
        train_model(tiny_config(tiny_base), [GoldDocument("e", "... --- !!!", [])])


def test_a_model_with_other_labels_gets_a_new_head(tmp_path):
    foreign = build_tiny_model(tmp_path / "foreign", labels=["O", "B-PER", "I-PER"])
    r = train_model(tiny_config(foreign, epochs=1), letters(8))
    assert r.model.config.id2label == DEFAULT_SCHEME.id2label
    assert r.model.classifier.out_features == len(DEFAULT_SCHEME.tags)
    with torch.no_grad():
        assert torch.isfinite(r.model.classifier.weight).all()


def test_spans_do_not_need_to_align_with_words(tok):
    # A gold span cutting a word still labels the whole word.
    b = DocBuilder().add("Pt ").add("DrSmi", Category.NAME).add("th seen.")
    doc = b.build("x")
    doc.spans[:] = [Span(3, 8, Category.NAME)]
    examples, _ = build_examples([doc], tok, max_length=32)
    assert DEFAULT_SCHEME.tags[examples[0].tag_ids[1]] == "B-NAME"


def test_frozen_embeddings_stay_as_they_were(tiny_base):
    from deid_desktop.core.models.hf import load_token_classifier

    before = load_token_classifier(tiny_base).get_input_embeddings().weight.detach().clone()
    frozen = train_model(tiny_config(tiny_base, epochs=1, freeze_embeddings=True), letters(8))
    assert torch.equal(frozen.model.get_input_embeddings().weight.detach(), before)
    free = train_model(tiny_config(tiny_base, epochs=1, freeze_embeddings=False), letters(8))
    assert not torch.equal(free.model.get_input_embeddings().weight.detach(), before)


def test_command_line_trains_saves_and_reports(tiny_base, tmp_path, capsys):
    from deid_desktop.core.learn.train import main

    save_jsonl(letters(20), tmp_path / "train.jsonl")
    save_jsonl(letters(4, seed=60), tmp_path / "val.jsonl")
    cfg = tmp_path / "tiny.toml"
    cfg.write_text(
        'extends = "%s"\n[training]\nname = "cli-tiny"\nbase_model = "%s"\nepochs = 2\nbatch_size = 8\n'
        'learning_rate = 3e-3\nmax_length = 64\nfreeze_embeddings = false\nprecision = "fp32"\nnotes = ""\n'
        % (resource("training", "default.toml").as_posix(), tiny_base.as_posix())
    )
    code = main([
        "--config", str(cfg), "--train", str(tmp_path / "train.jsonl"), "--val", str(tmp_path / "val.jsonl"),
        "--models-dir", str(tmp_path / "models"), "--set", "seed=3",
    ])
    out = capsys.readouterr().out
    assert code == 0
    assert (tmp_path / "models" / "cli-tiny" / "CURRENT").read_text().strip() == "v1"
    assert "PHI words" in out and "saved" in out
    assert main(["--config", str(cfg), "--models-dir", str(tmp_path / "models")]) != 0  # no documents
    assert main(["--config", str(tmp_path / "missing.toml"), "--train", str(tmp_path / "train.jsonl")]) == 1


def test_training_leaves_the_process_thread_setting_as_it_was(tiny_base):
    before = torch.get_num_threads()
    train_model(tiny_config(tiny_base, epochs=1, threads=1 if before != 1 else 2), letters(4))
    assert torch.get_num_threads() == before


# -- word-shape features ------------------------------------------------------------------


def test_shape_ids_tell_ward_from_WARD_from_ward():
    from deid_desktop.core.models.shape import case_class, word_shape

    text = "Ward WARD ward"
    shapes = {word_shape(text, s, s + 4) for s in (0, 5, 10)}
    assert len(shapes) == 3
    assert [case_class(w) for w in ("ward", "Ward", "WARD", "McKay", "J", "0940")] == [1, 2, 3, 4, 2, 0]
    # What surrounds a word is part of its shape: a speaker tag at a line start, a sign-off.
    assert word_shape("x\nkavitha: called", 2, 9) != word_shape("x kavitha called", 2, 9)
    assert word_shape("ok -TP", 4, 6) != word_shape("ok TP", 3, 5)


def test_every_subword_of_a_word_carries_the_word_shape_from_the_cased_text(tok):
    from deid_desktop.core.models.shape import PAD_SHAPE, PUNCT_SHAPE, shape_ids, word_shape

    text = "KAVITHAMMA: rang\nkavithamma: rang"
    enc = tok(text, return_offsets_mapping=True)
    offs = [tuple(o) for o in enc["offset_mapping"]]
    ids = shape_ids(text, offs)
    assert ids[0] == PAD_SHAPE and ids[-1] == PAD_SHAPE  # [CLS], [SEP]
    upper = [i for (s, e), i in zip(offs, ids) if e > s and e <= 10]
    lower = [i for (s, e), i in zip(offs, ids) if s >= 17 and e <= 27]
    assert len(upper) > 1 and set(upper) == {word_shape(text, 0, 10)}  # split into sub-words
    assert set(lower) == {word_shape(text, 17, 27)} and lower[0] != upper[0]
    # The tokenizer lower-cases: the ids alone cannot tell the two names apart, shapes can.
    assert [enc["input_ids"][i] for i, (s, e) in enumerate(offs) if e > s and e <= 10] == \
        [enc["input_ids"][i] for i, (s, e) in enumerate(offs) if s >= 17 and e <= 27]
    assert [i for (s, e), i in zip(offs, ids) if text[s:e] == ":"] == [PUNCT_SHAPE, PUNCT_SHAPE]


def test_encoded_examples_carry_shape_ids_only_when_asked(tok):
    ex, _ = build_examples(letters(2), tok, max_length=64, selection="imbalanced", unit="sentence")
    plain = encode_examples(ex, tok, 64)
    shaped = encode_examples(ex, tok, 64, shapes=True)
    assert all(e.shape_ids is None for e in plain)
    assert all(len(e.shape_ids) == len(e.input_ids) for e in shaped)
    assert "shape_ids" not in PaddingCollator(0)(plain[:3])
    batch = PaddingCollator(0)(shaped[:3])
    assert batch["shape_ids"].shape == batch["input_ids"].shape


def test_a_model_with_shape_features_trains_and_its_loss_falls(tiny_base):
    from deid_desktop.core.models.shape_model import ShapeTokenClassifier

    r = train_model(tiny_config(tiny_base, epochs=6, shape_features=True), letters(40))
    assert isinstance(r.model, ShapeTokenClassifier)
    assert sum(r.losses[-5:]) / 5 < 0.5 * sum(r.losses[:5]) / 5
    assert r.model.shape_embeddings.weight.abs().sum() > 0  # it learned shapes, from zero


def test_a_fresh_shape_embedding_changes_nothing_until_trained(tiny_base, tok):
    from deid_desktop.core.models.hf import load_token_classifier
    from deid_desktop.core.models.shape import shape_ids
    from deid_desktop.core.models.shape_model import ShapeTokenClassifier

    plain = load_token_classifier(tiny_base).eval()
    wrapped = ShapeTokenClassifier(load_token_classifier(tiny_base)).eval()
    text = "Seen by WARD today"
    enc = tok(text, return_offsets_mapping=True, return_tensors="pt")
    offs = [tuple(o) for o in enc.pop("offset_mapping")[0].tolist()]
    sid = torch.tensor([shape_ids(text, offs)])
    with torch.no_grad():
        a = plain(**enc).logits
        b = wrapped(**enc, shape_ids=sid).logits
        assert torch.allclose(a, b, atol=1e-6)
        # Once shapes are learned, "WARD" and "ward" (the same sub-word ids) read differently.
        wrapped.shape_embeddings.weight.normal_()
        lower = "Seen by ward today"
        enc2 = tok(lower, return_tensors="pt")
        sid2 = torch.tensor([shape_ids(lower, offs)])
        assert torch.equal(enc["input_ids"], enc2["input_ids"])
        assert not torch.allclose(wrapped(**enc, shape_ids=sid).logits, wrapped(**enc2, shape_ids=sid2).logits)
