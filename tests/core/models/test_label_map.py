from __future__ import annotations

import numpy as np
import pytest
import torch

from deid_desktop.core.categories import Category
from deid_desktop.core.detect.transformer import TransformerDetector
from deid_desktop.core.errors import ModelError
from deid_desktop.core.models.hf import load_token_classifier
from deid_desktop.core.models.label_map import LabelMap, meanings_for, split_label
from deid_desktop.core.models.labels import TagMeaning, WordDecoder
from deid_desktop.core.models.tiny import build_tiny_model

FOREIGN = ["O", "B-PATIENT", "I-PATIENT", "B-HOSPITAL", "I-HOSPITAL", "B-PHONE", "I-PHONE", "B-MISC", "I-MISC"]
TEXT = "Seen today by the team.\nCall back tomorrow please."


@pytest.mark.parametrize(
    "label, expected",
    [
        ("B-PATIENT", ("B", "PATIENT")),
        ("i_hcw", ("I", "HCW")),
        ("U-LOC", ("U", "LOC")),
        ("PATIENT", ("", "PATIENT")),
        ("LOCATION-OTHER", ("", "LOCATION_OTHER")),
        ("O", ("", "O")),
    ],
)
def test_split_label(label, expected):
    assert split_label(label) == expected


def test_i2b2_map_reads_clinical_labels():
    m = LabelMap.load("i2b2")
    assert m.lookup("PATIENT") == (Category.NAME, "PATIENT")
    assert m.lookup("HCW") == (Category.NAME, "DOCTOR")
    assert m.lookup("VENDOR")[0] == Category.ORGANIZATION
    assert m.lookup("HOSPITAL") == (Category.ORGANIZATION, "HOSPITAL")
    assert m.lookup("PHONE") == (Category.CONTACT, "PHONE")
    assert m.lookup("MEDICALRECORD") == (Category.ID, "MRN")
    assert m.lookup("IDNUM")[0] == Category.ID
    assert m.lookup("CITY") == (Category.LOCATION, "CITY")
    assert m.lookup("PROFESSION")[0] == Category.PROFESSION
    assert m.lookup("MISC") is None  # listed as not PHI
    assert m.lookup("SPACESHIP") is False  # unknown


def test_maps_are_chosen_by_the_models_labels():
    i2b2 = {i: t for i, t in enumerate(["O", "B-PATIENT", "I-PATIENT", "B-HCW", "I-HCW", "B-VENDOR", "I-VENDOR", "B-DATE"])}
    meanings, name = meanings_for(i2b2)
    assert name == "i2b2"
    assert meanings[1] == TagMeaning(Category.NAME, True, "PATIENT")
    assert meanings[2] == TagMeaning(Category.NAME, False, "PATIENT")
    assert meanings[5].category == Category.ORGANIZATION

    conll = dict(enumerate(["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG", "B-MISC", "I-MISC"]))
    meanings, name = meanings_for(conll)
    assert name == "conll"
    assert [m.category for m in meanings] == [
        None, Category.NAME, Category.NAME, Category.LOCATION, Category.LOCATION,
        Category.ORGANIZATION, Category.ORGANIZATION, None, None,
    ]

    bilou_ours = dict(enumerate(["O", "B-NAME", "I-NAME", "L-NAME", "U-NAME", "U-AGE"]))
    meanings, name = meanings_for(bilou_ours)
    assert name == "categories"
    assert [m.begins for m in meanings] == [False, True, False, False, True, True]


def test_unknown_or_unnamed_labels_are_refused_with_the_label_names():
    with pytest.raises(ModelError, match="SPACESHIP"):
        meanings_for({0: "O", 1: "B-SPACESHIP"})
    with pytest.raises(ModelError, match="unnamed"):
        meanings_for({0: "LABEL_0", 1: "LABEL_1"})


def test_an_explicit_table_overrides_the_search():
    meanings, name = meanings_for({0: "O", 1: "B-SPACESHIP", 2: "B-CREW"}, {"SPACESHIP": "ID/VEHICLE", "CREW": None})
    assert name == "custom"
    assert meanings[1] == TagMeaning(Category.ID, True, "VEHICLE")
    assert meanings[2].category is None


def test_decoder_adds_up_the_mass_of_labels_that_mean_one_category():
    # PATIENT 0.3 + DOCTOR 0.3 beat O 0.4 once both count as NAME.
    meanings = [TagMeaning(None), TagMeaning(Category.NAME, True, "PATIENT"), TagMeaning(Category.NAME, True, "DOCTOR")]
    dec = WordDecoder(meanings)
    spans = dec.decode([(0, 4)], np.array([[0.4, 0.3, 0.3]]), source="m")
    assert len(spans) == 1 and spans[0].category == Category.NAME
    assert spans[0].score == pytest.approx(0.6)


@pytest.fixture(scope="module")
def foreign_model(tmp_path_factory):
    return build_tiny_model(tmp_path_factory.mktemp("foreign") / "model", labels=FOREIGN)


def _force(model_dir, label: str, out_dir):
    """A copy of the foreign model whose head always answers ``label``."""
    model = load_token_classifier(model_dir)
    with torch.no_grad():
        model.classifier.weight.zero_()
        model.classifier.bias.fill_(-5.0)
        model.classifier.bias[FOREIGN.index(label)] = 5.0
    model.save_pretrained(str(out_dir))
    for f in model_dir.iterdir():
        if f.name.startswith("tokenizer") or f.name == "vocab.txt" or f.name == "special_tokens_map.json":
            (out_dir / f.name).write_bytes(f.read_bytes())
    return out_dir


@pytest.mark.parametrize(
    "label, category, fine, n_spans",
    [
        ("B-PATIENT", Category.NAME, "PATIENT", 9),  # every word begins a span
        ("I-HOSPITAL", Category.ORGANIZATION, "HOSPITAL", 2),  # words run on: one span per sentence
        ("B-PHONE", Category.CONTACT, "PHONE", 9),
    ],
)
def test_foreign_model_spans_come_out_in_our_categories(foreign_model, tmp_path, label, category, fine, n_spans):
    det = TransformerDetector(str(_force(foreign_model, label, tmp_path)), name="foreign", quantize=False)
    assert det.describe()["labels"] == "i2b2"
    spans = det.detect(TEXT)
    assert spans and {s.category for s in spans} == {category}
    assert {s.fine for s in spans} == {fine}
    assert all(s.source == "foreign" for s in spans)
    assert len(spans) == n_spans
    if n_spans == 2:
        assert [TEXT[s.start : s.end] for s in spans] == ["Seen today by the team", "Call back tomorrow please"]


def test_labels_that_are_not_phi_give_no_spans(foreign_model, tmp_path):
    det = TransformerDetector(str(_force(foreign_model, "B-MISC", tmp_path)), quantize=False)
    assert det.detect(TEXT) == []


def test_label_map_option_by_name_and_by_table(foreign_model, tmp_path):
    forced = _force(foreign_model, "B-PATIENT", tmp_path)
    by_name = TransformerDetector(str(forced), label_map="i2b2", quantize=False)
    assert {s.category for s in by_name.detect(TEXT)} == {Category.NAME}
    table = {"PATIENT": "ID", "HOSPITAL": "ORGANIZATION", "PHONE": "CONTACT", "MISC": None}
    by_table = TransformerDetector(str(forced), label_map=table, quantize=False)
    assert {s.category for s in by_table.detect(TEXT)} == {Category.ID}
