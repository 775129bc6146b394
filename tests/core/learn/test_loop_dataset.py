"""Training data from review decisions: what the reviewer decided is what the model learns."""

from __future__ import annotations

import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.documents.model import Document, Replacement
from deid_desktop.core.learn.augment import rewrite, surrogate_variants
from deid_desktop.core.learn.loop import RetrainSettings, auto_epochs, build_training_set, estimated_sequences, retrain_summary
from deid_desktop.core.learn.reviewed import load_reviewed, reviewed_documents, split_heldout
from deid_desktop.core.spans import Span
from deid_desktop.core.store import DecisionAction, DocStatus

from tests.core.learning_helpers import REVIEWER, add_note, at, open_workspace

TEXT = (
    "Seen by Dr Hemi Walker at Kowhai Ward.\n"
    "Parkinson disease is stable.\n"
    "Call 021 555 1234 before 12 March.\n"
    "Daughter Aroha visited.\n"
)


@pytest.fixture
def ws(tmp_path):
    w = open_workspace(tmp_path)
    yield w
    w.close()


def reviewed_doc(ws):
    """Detections corrected every way the review window can: accept, reject, resize,
    relabel, add, and an undone rejection."""
    doc_id = ws.import_document(Document.from_text(TEXT, path="a.txt"), subject_label="p1").document_id
    run = ws.start_detection_run(config={}, model_versions={}, device="cpu")
    name, kowhai, park, phone, date = (at(TEXT, v) for v in ("Hemi Walker", "Kowhai", "Parkinson", "021 555", "12 March"))
    ids = ws.save_detections(
        doc_id,
        run,
        [
            Span(*name, Category.NAME, "DOCTOR", 0.9, "model"),
            Span(*kowhai, Category.LOCATION, "OTHER", 0.7, "model"),
            Span(*park, Category.NAME, "OTHER", 0.6, "model"),
            Span(*phone, Category.CONTACT, "PHONE", 0.8, "rules"),
            Span(*date, Category.DATE, "OTHER", 0.9, "rules"),
        ],
    )
    ws.decide(ids[0], DecisionAction.ACCEPT, reviewer=REVIEWER)
    ws.decide(ids[1], DecisionAction.RESIZE, reviewer=REVIEWER, start=kowhai[0], end=at(TEXT, "Kowhai Ward")[1])
    ws.decide(ids[1], DecisionAction.RELABEL, reviewer=REVIEWER, category=Category.ORGANIZATION, fine="HOSPITAL")
    ws.decide(ids[2], DecisionAction.REJECT, reviewer=REVIEWER)
    ws.decide(ids[3], DecisionAction.RESIZE, reviewer=REVIEWER, start=phone[0], end=at(TEXT, "021 555 1234")[1])
    undone = ws.decide(ids[4], DecisionAction.REJECT, reviewer=REVIEWER)
    ws.undo_decision(undone, reviewer=REVIEWER)
    ws.decide(ids[4], DecisionAction.ACCEPT, reviewer=REVIEWER)
    ws.add_span(doc_id, *at(TEXT, "Aroha"), Category.NAME, "RELATIVE", reviewer=REVIEWER)
    ws.set_status(doc_id, DocStatus.REVIEWED)
    return doc_id


def texts(doc):
    return {(doc.text[s.start : s.end], s.category.value, s.fine) for s in doc.spans}


def test_gold_is_the_final_spans_at_their_decided_offsets_and_labels(ws):
    doc = load_reviewed(ws, reviewed_doc(ws))
    assert texts(doc) == {
        ("Hemi Walker", "NAME", "DOCTOR"),
        ("Kowhai Ward", "ORGANIZATION", "HOSPITAL"),  # resized, then relabelled
        ("021 555 1234", "CONTACT", "PHONE"),  # resized to the whole number
        ("12 March", "DATE", "OTHER"),  # rejection undone, then accepted
        ("Aroha", "NAME", "RELATIVE"),  # added by the reviewer
    }


def test_rejected_detections_are_explicit_negatives_not_dropped(ws):
    doc = load_reviewed(ws, reviewed_doc(ws))
    gold = doc.to_gold()
    assert [TEXT[n["start"] : n["end"]] for n in gold["negatives"]] == ["Parkinson"]
    # The sentence with the rejection is there and carries no span over the rejected word.
    p = TEXT.index("Parkinson")
    assert not any(s["start"] <= p < s["end"] for s in gold["spans"])
    tset = build_training_set([doc], RetrainSettings(augment=0, synthetic=0, hard_negatives=True))
    extra = [d for d in tset.documents if d["id"].endswith(f"-neg-{p}")]
    assert len(extra) == 1 and extra[0]["text"] == "Parkinson disease is stable." and extra[0]["spans"] == []
    assert tset.counts == {"reviewed": 1, "hard_negatives": 1, "augmented": 0, "synthetic": 0, "replayed_notes": 0, "total": 2}


def test_rejected_words_train_as_outside_with_the_selection_retrain_uses(ws):
    from deid_desktop.core.learn.dataset import build_examples
    from deid_desktop.core.models.hf import load_tokenizer, resolve_base_model
    from deid_desktop.core.models.labels import DEFAULT_SCHEME
    from deid_desktop.core.learn.loop import _train_config

    doc = load_reviewed(ws, reviewed_doc(ws))
    tset = build_training_set([doc], RetrainSettings(augment=0, synthetic=0))
    cfg = _train_config(RetrainSettings())
    tok = load_tokenizer(resolve_base_model("builtin:minilm"))
    examples, _ = build_examples(tset.documents, tok, max_length=64, selection=cfg.selection, unit=cfg.unit, seed=cfg.seed)
    tags = [
        (ex.text[a:b], ex.tag_ids[k]) for ex in examples for k, (a, b) in enumerate(ex.word_ranges)
    ]
    parkinson = [t for w, t in tags if w == "Parkinson"]
    assert len(parkinson) == 2  # the whole document and the hard-negative sentence
    assert set(parkinson) == {DEFAULT_SCHEME.outside_id}
    assert any(w == "Aroha" and t == DEFAULT_SCHEME.begin_id(Category.NAME) for w, t in tags)


def test_a_rejected_span_replaced_by_a_smaller_one_is_a_boundary_fix_not_a_negative(ws):
    doc_id = ws.import_document(Document.from_text(TEXT, path="b.txt")).document_id
    run = ws.start_detection_run(config={}, model_versions={}, device="cpu")
    [sid] = ws.save_detections(doc_id, run, [Span(*at(TEXT, "Dr Hemi Walker at"), Category.NAME, "OTHER", 0.5, "model")])
    ws.decide(sid, DecisionAction.REJECT, reviewer=REVIEWER)
    ws.add_span(doc_id, *at(TEXT, "Hemi Walker"), Category.NAME, "DOCTOR", reviewer=REVIEWER)
    ws.set_status(doc_id, DocStatus.REVIEWED)
    doc = load_reviewed(ws, doc_id)
    assert doc.rejected == []
    assert texts(doc) == {("Hemi Walker", "NAME", "DOCTOR")}


def test_only_reviewed_documents_are_training_data(ws):
    reviewed = reviewed_doc(ws)
    ws.import_document(Document.from_text("Dr Ana Kupu saw the patient.\n", path="c.txt"))
    assert [d.document_id for d in reviewed_documents(ws)] == [reviewed]


def test_rewrite_moves_gold_spans_and_negatives_to_the_new_offsets():
    text = "Dr Ann Lee met Bo at Foley clinic on 1 May."
    spans = [Span(*at(text, "Ann Lee"), Category.NAME, "DOCTOR"), Span(*at(text, "Bo"), Category.NAME, "PATIENT"), Span(*at(text, "1 May"), Category.DATE)]
    reps = [Replacement(s.start, s.end, new, s.category.value) for s, new in zip(spans, ["Wiremu Tane-Karaka", "Li", "23 September"])]
    neg = [{"start": text.index("Foley"), "end": text.index("Foley") + 5, "label": "NAME"}]
    out = rewrite(text, spans, reps, neg)
    assert out["text"] == "Dr Wiremu Tane-Karaka met Li at Foley clinic on 23 September."
    assert [(out["text"][s["start"] : s["end"]], s["label"], s["sublabel"]) for s in out["spans"]] == [
        ("Wiremu Tane-Karaka", "NAME", "DOCTOR"),
        ("Li", "NAME", "PATIENT"),
        ("23 September", "DATE", "OTHER"),
    ]
    assert [out["text"][n["start"] : n["end"]] for n in out["negatives"]] == ["Foley"]


def test_surrogate_variants_rewrite_each_document_k_times_with_different_values(ws):
    from deid_desktop.core.surrogates import SurrogateEngine

    doc = load_reviewed(ws, reviewed_doc(ws)).to_gold()
    variants = surrogate_variants(doc, SurrogateEngine(b"k" * 32), 3)
    assert len(variants) == 3
    originals = {doc["text"][s["start"] : s["end"]] for s in doc["spans"]}
    seen_names = set()
    for v in variants:
        got = [(v["text"][s["start"] : s["end"]], s["label"]) for s in v["spans"]]
        assert [lab for _, lab in got] == [s["label"] for s in doc["spans"]]
        assert all(val and val == val.strip() for val, _ in got)
        assert "Hemi Walker" not in v["text"]
        seen_names.add(got[0][0])
        # the text around the spans is untouched
        assert v["text"].count("Parkinson disease is stable.") == 1
        assert [v["text"][n["start"] : n["end"]] for n in v["negatives"]] == ["Parkinson"]
        assert not originals & {val for val, _ in got}
    assert len(seen_names) > 1  # different subject keys give different surrogates


def test_training_set_mixes_reviewed_rewrites_and_synthetic(ws):
    from deid_desktop.core.surrogates import SurrogateEngine

    docs = [load_reviewed(ws, reviewed_doc(ws))] + [load_reviewed(ws, add_note(ws, i).document_id) for i in range(2)]
    synthetic = [{"id": f"synth-{i}", "text": "Dr Jo Bloggs.\n", "spans": [{"start": 3, "end": 12, "label": "NAME"}]} for i in range(4)]
    tset = build_training_set(docs, RetrainSettings(augment=2), engine=SurrogateEngine(ws.secret), synthetic=synthetic)
    ids = [d["id"] for d in tset.documents]
    assert tset.counts["reviewed"] == 3 and tset.counts["augmented"] == 6 and tset.counts["synthetic"] == 4
    assert sum(i.endswith(("aug0", "aug1")) for i in ids) == 6
    assert len(ids) == tset.counts["total"] == 3 + tset.counts["hard_negatives"] + 6 + 4


def test_heldout_split_is_stable_and_never_empty_with_two_documents(ws):
    docs = [load_reviewed(ws, add_note(ws, i).document_id) for i in range(10)]
    train, held = split_heldout(docs, 0.2)
    assert len(held) == 2 and len(train) == 8
    assert not {d.document_id for d in train} & {d.document_id for d in held}
    # adding documents does not move an already held-out one into training
    more = docs + [load_reviewed(ws, add_note(ws, 10 + i).document_id) for i in range(5)]
    _, held2 = split_heldout(more, 0.2)
    assert len(held2) == 3
    assert split_heldout(docs[:2], 0.1)[1] != []
    with pytest.raises(ValueError):
        split_heldout(docs, 1.0)


def test_summary_counts_decisions_since_the_last_model_per_category(ws):
    reviewed_doc(ws)
    add_note(ws, 0)
    s = retrain_summary(ws)
    assert s.reviewed_documents == 2 and s.new_reviewed_documents == 2
    assert s.per_category["NAME"]["reject"] == 2  # Parkinson in both documents
    assert s.per_category["ORGANIZATION"]["relabel"] == 1
    assert s.per_category["NAME"]["add"] == 1
    assert s.decisions["resize"] == 2
    run = ws.start_training_run({"last_decision_id": max(d.id for d in ws.decisions())})
    ws.finish_training_run(run, status="ok", metrics={})
    add_note(ws, 1)
    s2 = retrain_summary(ws)
    assert s2.reviewed_documents == 3 and s2.new_reviewed_documents == 1
    assert s2.decisions == {"accept": 2, "reject": 1}


def test_training_cost_stays_bounded_small_sets_get_more_passes():
    assert auto_epochs(60, "cpu") == 10  # a handful of documents: several passes, capped
    assert auto_epochs(400, "cpu") == 9
    assert auto_epochs(1200, "cpu") == 3
    assert auto_epochs(5000, "cpu") == 1  # never less than one pass
    assert auto_epochs(5000, "gpu") == 7
    assert estimated_sequences([{"text": "x" * 301}, {"text": "short"}]) == 3


def test_a_retrain_replays_shipped_notes_so_their_skill_is_kept(ws):
    """The starting model learned the shipped hand-written notes; a retrain on a few reviewed
    documents mixes a seeded sample of them back in (docs/benchmarks.md, "learn-from-notes")."""
    from deid_desktop.core.learn.loop import _plan, replay_sample

    notes: list[str] = []
    picked = replay_sample(6, 13, notes)
    assert len(picked) == 6 and not notes
    assert all(d["id"].startswith("note:") and d["spans"] for d in picked)
    assert [d["id"] for d in replay_sample(6, 13, notes)] == [d["id"] for d in picked]  # reproducible
    assert [d["id"] for d in replay_sample(6, 14, notes)] != [d["id"] for d in picked]
    assert replay_sample(0, 13, notes) == []

    add_note(ws, 0)
    add_note(ws, 1)
    plan = _plan(ws, RetrainSettings(replay_notes=6, replay_ratio=3.0, synthetic=0, augment=0))
    ids = [d["id"] for d in plan.training_set.documents]
    assert plan.training_set.counts["replayed_notes"] == 6
    assert sorted(i for i in ids if i.startswith("note:")) == sorted(d["id"] for d in picked)
    assert plan.training_set.counts["total"] == len(ids) == 2 + plan.training_set.counts["hard_negatives"] + 6
    # by default two per reviewed document, at most replay_notes
    assert _plan(ws, RetrainSettings(synthetic=0, augment=0)).training_set.counts["replayed_notes"] == 4
    assert _plan(ws, RetrainSettings(replay_notes=3, synthetic=0, augment=0)).training_set.counts["replayed_notes"] == 3
    assert _plan(ws, RetrainSettings(replay_notes=0, synthetic=0, augment=0)).training_set.counts["replayed_notes"] == 0


def test_replayed_notes_must_not_be_negative():
    from deid_desktop.core.errors import ConfigError

    for bad in ({"replay_notes": -1}, {"replay_ratio": -0.5}):
        with pytest.raises(ConfigError):
            RetrainSettings(**bad).validate()
