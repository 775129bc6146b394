"""The synthetic training corpus: gold offsets, splits, determinism, hard negatives."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest

from deid_desktop.core.categories import FINE_TYPES, Category
from deid_desktop.core.learn import synth
from deid_desktop.core.learn.templates import DEFAULT_ROOT, NAME_FORMATS, NAME_FORMATS_PLAIN, Template, parse
from deid_desktop.core.spans import Span
from deid_desktop.core.surrogates import generators

ALL_ZERO_NOISE = """
[layout]
crlf = 0.0
pdf_wrap = 0.0
upper_case_document = 0.0
trailing_spaces = 0.0
[names]
name_upper = 0.0
name_lower = 0.0
[typos]
typo_document = 0.0
"""


class RecordingGenerators:
    """The real surrogate generators, with every value and name origin they hand out
    written down, so a test can check that each gold span covers exactly a value."""

    def __init__(self) -> None:
        self.NAME_ORIGINS = generators.NAME_ORIGINS
        self.values: set[str] = set()
        self.name_tokens: set[str] = set()
        self.origins: set[str | None] = set()

    def sample_value(self, category, fine, rng, *, locale=None, gender=None):
        value = generators.sample_value(category, fine, rng, locale=locale, gender=gender)
        self.values.add(value.strip())
        return value

    def sample_name(self, rng, *, origin=None, gender=None):
        first, last, g = generators.sample_name(rng, origin=origin, gender=gender)
        self.origins.add(origin)
        for part in (first, last):
            self.name_tokens.update(t.casefold() for t in re.findall(r"[^\W\d_]+", part))
        return first, last, g


@pytest.fixture()
def recorder(monkeypatch) -> RecordingGenerators:
    rec = RecordingGenerators()
    monkeypatch.setattr(synth, "_generators", lambda: rec)
    compose = synth._Renderer.compose

    def recording_compose(self, pattern):  # values built from slots.toml patterns count too
        value = compose(self, pattern)
        rec.values.add(value.strip())
        return value

    monkeypatch.setattr(synth._Renderer, "compose", recording_compose)
    return rec


def _root_with_noise(tmp_path: Path, noise_toml: str) -> Path:
    root = tmp_path / "templates"
    shutil.copytree(DEFAULT_ROOT, root)
    (root / "noise.toml").write_text(noise_toml, encoding="utf-8")
    return root


# A span's text must look like a value of its label: what a reviewer would accept.
_PLAUSIBLE = {
    "DATE": re.compile(r"\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec", re.I),
    "AGE": re.compile(r"\d|\b(one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)", re.I),
    "NAME": re.compile(r"[^\W\d_]"),
    "LOCATION": re.compile(r"\w"),
    "ORGANIZATION": re.compile(r"[^\W\d_]{2}"),
    "PROFESSION": re.compile(r"[^\W\d_]{3}"),
    "ID": re.compile(r"\d"),
}
_CONTACT = {
    "PHONE": re.compile(r"(\d\D?){3}"),  # "x3323" (an extension) is a phone number too
    "FAX": re.compile(r"(\d\D?){3}"),
    "EMAIL": re.compile(r"\S@\S"),
    "URL": re.compile(r"\.\w"),
    "IPADDR": re.compile(r"\d+\.\d+\.\d+\.\d+|:"),
}


def _assert_sound(doc: dict) -> None:
    assert synth.check_document(doc) == []
    text = doc["text"]
    for span in doc["spans"]:
        label, fine = span["label"], span["sublabel"]
        assert fine in FINE_TYPES[Category(label)], span
        value = text[span["start"] : span["end"]]
        pattern = _CONTACT[fine] if label == "CONTACT" else _PLAUSIBLE[label]
        assert pattern.search(value), (doc["meta"]["family"], label, fine, value)
        Span.from_json(span)  # the shared span type accepts it


def test_every_family_renders_sound_documents():
    origins = list(generators.NAME_ORIGINS)
    for template in synth.load_templates():
        for k in range(3):
            doc = synth.generate_document(template, random.Random(f"{template.family}/{k}"), origins=origins)
            assert doc["meta"]["family"] == template.family
            assert doc["meta"]["note_type"] == template.note_type
            assert doc["meta"]["convention"] == template.convention
            assert len(doc["spans"]) >= 3, template.family
            _assert_sound(doc)


def test_spans_cover_exactly_the_generated_values(tmp_path, recorder):
    root = _root_with_noise(tmp_path, ALL_ZERO_NOISE)
    docs = list(synth.generate_corpus(150, seed=7, split="all", root=root))
    checked = 0
    for doc in docs:
        _assert_sound(doc)
        for span in doc["spans"]:
            value = doc["text"][span["start"] : span["end"]]
            if span["label"] == "NAME":
                tokens = re.findall(r"[^\W\d_]{3,}", value)
                if span["sublabel"] == "USERNAME":
                    continue
                assert all(t.casefold() in recorder.name_tokens for t in tokens), value
            elif span["label"] == "ORGANIZATION":
                # NHS Trusts and DHBs are built around a generated place name.
                assert value in recorder.values or any(v in value for v in recorder.values), value
            else:
                assert value in recorder.values, (span, value)
            # The span does not stop inside a word or a number ("54M" is the age 54, then the sex).
            before = doc["text"][span["start"] - 1 : span["start"]]
            after = doc["text"][span["end"] : span["end"] + 1]
            for a, b in ((before, value[0]), (value[-1], after)):
                assert not (a.isalpha() and b.isalpha()) and not (a.isdigit() and b.isdigit()), (before, value, after)
            checked += 1
    assert checked > 2000


def test_crlf_and_pdf_wrapped_documents_keep_exact_offsets(tmp_path, recorder):
    noisy = ALL_ZERO_NOISE.replace("crlf = 0.0", "crlf = 1.0").replace("pdf_wrap = 0.0", "pdf_wrap = 1.0\nhyphenate = 1.0")
    root = _root_with_noise(tmp_path, noisy)
    docs = list(synth.generate_corpus(60, seed=3, split="all", root=root))
    for doc in docs:
        text = doc["text"]
        assert {"crlf", "pdf_wrap"} <= set(doc["meta"]["noise"])
        assert "\n" not in text.replace("\r\n", "")
        _assert_sound(doc)
        for span in doc["spans"]:
            value = " ".join(text[span["start"] : span["end"]].split())
            if span["label"] not in ("NAME", "ORGANIZATION"):
                assert value in {" ".join(v.split()) for v in recorder.values}, value
    assert any(max(len(line) for line in d["text"].split("\r\n")) <= 80 for d in docs)
    assert any("-\r\n" in d["text"] for d in docs)


def test_shipped_noise_mixes_crlf_wrapped_typo_and_capitalised_documents():
    docs = list(synth.generate_corpus(300, seed=11, split="all"))
    seen = {step for d in docs for step in d["meta"]["noise"]}
    assert {"crlf", "pdf_wrap", "typos", "upper_case"} <= seen
    for doc in docs:
        _assert_sound(doc)
    plain = [d for d in docs if not d["meta"]["noise"]]
    assert len(plain) > 0.3 * len(docs)


def test_train_never_uses_heldout_families_or_origins(recorder):
    splits = synth.load_splits()
    docs = list(synth.generate_corpus(250, seed=1, split="train"))
    families = {d["meta"]["family"] for d in docs}
    assert families.isdisjoint(splits.heldout_families)
    assert len(families) >= 25
    assert recorder.origins and recorder.origins.isdisjoint(splits.heldout_origins)
    assert all(set(d["meta"]["origin_mix"]).isdisjoint(splits.heldout_origins) for d in docs)


def test_heldout_uses_only_heldout_families_and_origins(recorder):
    splits = synth.load_splits()
    docs = list(synth.generate_corpus(120, seed=1, split="heldout"))
    assert {d["meta"]["family"] for d in docs} <= splits.heldout_families
    assert "lab_report" in {d["meta"]["note_type"] for d in docs}
    assert recorder.origins <= set(splits.heldout_origins)
    assert all(set(d["meta"]["origin_mix"]) <= splits.heldout_origins for d in docs)


def test_asking_for_a_heldout_family_in_train_is_refused():
    with pytest.raises(ValueError, match="not in split"):
        next(synth.generate_corpus(1, split="train", families=["us_lab_panel_table"]))
    with pytest.raises(ValueError, match="unknown template families"):
        next(synth.generate_corpus(1, split="all", families=["no_such_family"]))
    with pytest.raises(ValueError, match="unknown split"):
        next(synth.generate_corpus(1, split="validation"))


def test_families_argument_narrows_the_choice():
    docs = list(synth.generate_corpus(20, seed=2, families=["uk_operation_note", "au_med_chart_pbs"]))
    assert {d["meta"]["family"] for d in docs} == {"uk_operation_note", "au_med_chart_pbs"}


def test_same_seed_same_corpus_other_seed_other_corpus():
    a = list(synth.generate_corpus(40, seed=5))
    b = list(synth.generate_corpus(40, seed=5))
    c = list(synth.generate_corpus(40, seed=6))
    assert a == b
    assert [d["text"] for d in a] != [d["text"] for d in c]
    assert len({d["id"] for d in a}) == 40
    # The n-th document does not depend on how many were asked for.
    assert list(synth.generate_corpus(10, seed=5)) == a[:10]


# Each pattern is a non-PHI phrase the templates write; none may ever be inside a gold span.
HARD_NEGATIVES = [
    r"Parkinson's (disease|meds)", r"Glasgow Coma Scale \d+", r"Braden score \d+",
    r"Foley (catheter|IDC|removed|in place)", r"Hodgkin lymphoma", r"Cushing's syndrome|Cushingoid",
    r"Down syndrome", r"Von Hippel-Lindau", r"Wells score \d", r"Murphy's sign", r"Apgar \d",
    r"\d+ mg (bd|tds|PO|mane|nocte|daily)", r"Hb 112 g/L", r"K\+ 4\.1", r"BP \d+/\d+",
    r"14:30", r"3/12", r"Will review", r"May (require|need|go|benefit)", r"ICD-10", r"whānau",
]


def test_hard_negatives_appear_and_are_never_labelled():
    docs = list(synth.generate_corpus(400, seed=4, split="all"))
    found: dict[str, int] = {}
    for doc in docs:
        text = doc["text"]
        for pattern in HARD_NEGATIVES:
            for m in re.finditer(rf"(?<![\w/.])(?:{pattern})(?![\w/])", text):
                found[pattern] = found.get(pattern, 0) + 1
                for span in doc["spans"]:
                    assert not (span["start"] < m.end() and m.start() < span["end"]), (m.group(), doc["meta"]["family"])
    missing = [p for p in HARD_NEGATIVES if not found.get(p)]
    assert not missing


def test_names_come_in_many_shapes():
    docs = list(synth.generate_corpus(400, seed=9, split="all"))
    names = [d["text"][s["start"] : s["end"]] for d in docs for s in d["spans"] if s["label"] == "NAME"]
    assert any(re.fullmatch(r"[A-Z]{2}", n) for n in names)  # initials
    assert any(n.islower() and n.isalpha() for n in names)  # "spoke w/ dtr aroha"
    assert any(n.isupper() and len(n) > 3 for n in names)
    assert any(re.search(r"\w-\w", n) for n in names)  # hyphenated surnames
    assert any(re.fullmatch(r"[^\W\d_]+, [^\W\d_]+.*", n) for n in names)  # "LAST, First"
    sublabels = {s["sublabel"] for d in docs for s in d["spans"] if s["label"] == "NAME"}
    assert {"PATIENT", "DOCTOR", "RELATIVE", "USERNAME"} <= sublabels


def test_every_category_is_generated():
    docs = list(synth.generate_corpus(300, seed=8, split="all"))
    labels = {s["label"] for d in docs for s in d["spans"]}
    assert labels == {c.value for c in Category}


def test_every_name_format_renders():
    formats = sorted(NAME_FORMATS | NAME_FORMATS_PLAIN)
    body = "\n".join(f"{fmt}: {{PATIENT.{fmt}}} / {{RELATIVE.{fmt}}} / {{SURGEON.{fmt}}}" for fmt in formats)
    template = Template("test_formats", "progress_note", "UK", "every name format", parse(body))
    for seed in range(5):
        doc = synth.generate_document(template, random.Random(seed), origins=list(generators.NAME_ORIGINS))
        _assert_sound(doc)
        lines = doc["text"].splitlines()
        assert len(lines) == len(formats)
        assert all(line.split(": ", 1)[1].strip(" /") for line in lines)


def test_write_jsonl_round_trips(tmp_path):
    docs = list(synth.generate_corpus(25, seed=3))
    path = tmp_path / "out" / "train.jsonl"
    assert synth.write_jsonl(docs, path) == 25
    lines = path.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == docs


def test_corpus_does_not_depend_on_the_process_hash_seed():
    # Workers generating shards in separate processes must agree with each other.
    import os
    import subprocess
    import sys

    code = (
        "import hashlib, json\n"
        "from deid_desktop.core.learn import synth\n"
        "docs = list(synth.generate_corpus(30, seed=12, split='all'))\n"
        "print(hashlib.sha256(json.dumps(docs).encode()).hexdigest())\n"
    )
    digests = set()
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        digests.add(out.stdout.strip())
    assert len(digests) == 1


def _docs_of(family: str, n: int, root: Path, split: str = "train") -> list[dict]:
    return list(synth.generate_corpus(n, seed=3, split=split, families=[family], root=root))


def _spans_of(doc: dict) -> list[tuple[str, str]]:
    return [(s["label"], doc["text"][s["start"]:s["end"]]) for s in doc["spans"]]


def _unlabelled(doc: dict, pattern: str) -> list[str]:
    """Matches of ``pattern`` that no gold span touches."""
    return [m.group() for m in re.finditer(pattern, doc["text"], re.M)
            if not any(s["start"] < m.end() and m.start() < s["end"] for s in doc["spans"])]


def test_new_families_teach_the_note_kinds_models_failed_on(tmp_path):
    root = _root_with_noise(tmp_path, ALL_ZERO_NOISE)
    logs = _docs_of("us_message_log_speaker_tags", 12, root)
    for d in logs:
        _assert_sound(d)
        # a lower-case first name as a speaker tag at a line start is a NAME
        tags = [m for m in re.finditer(r"^([^\W\d_]+):", d["text"], re.M) if m.group(1).islower() and m.group(1) != "pt"]
        assert tags and all(any(s["start"] == m.start(1) and s["label"] == "NAME" for s in d["spans"]) for m in tags)
        # staff initials as a sign-off are a NAME; a time straight after a date is not an ID
        assert any(lab == "NAME" and d["text"][d["text"].index(txt) - 1] == "-" for lab, txt in _spans_of(d) if txt.isupper())
        assert _unlabelled(d, r"(?<=\d )\d{4}$") and not [t for lab, t in _spans_of(d) if re.fullmatch(r"\d{4}", t)]
    assert any(lab == "ORGANIZATION" and re.search(r"Drug|Rx|Pharmacy|Apothecary", t) for d in logs for lab, t in _spans_of(d))
    assert any(lab == "DATE" and re.fullmatch(r"\d{1,2}\.\d{2}\.\d{2}", t) for d in logs for lab, t in _spans_of(d))

    for d in _docs_of("us_progress_lab_series", 6, root):
        _assert_sound(d)
        rows = [line for line in d["text"].splitlines() if re.match(r"(Hb|Plt|WCC|Na|K|Cr|Glucose|UO|INR|CK|Lactate)\b", line)]
        assert len(rows) >= 3
        assert _unlabelled(d, r"^(?:Hb|Plt|WCC|Na|K|Cr|Glucose|UO|INR|CK|Lactate)\b.*$") == rows  # lab columns: no PHI
        assert any(lab == "DATE" and re.fullmatch(r"\d{1,2}/\d{1,2}", t) for lab, t in _spans_of(d))  # "(2/5)" headings

    shifts = _docs_of("uk_nursing_shift_first_name", 6, root)
    for d in shifts:
        starts = [line.split()[0].removesuffix("'s") for line in d["text"].splitlines()[1:3]]
        assert all(any(lab == "NAME" and t == w for lab, t in _spans_of(d)) for w in starts)

    social = _docs_of("nz_social_history_employers", 20, root)
    orgs = [t for d in social for lab, t in _spans_of(d) if lab == "ORGANIZATION"]
    for word in ("Church|Hall|St ", "School|College|Primary|Intermediate|Kindergarten", "Rest Home|Lodge|House|Manor|Court|Village|Care Home"):
        assert any(re.search(word, t) for t in orgs), word
    assert any(lab == "PROFESSION" for d in social for lab, _ in _spans_of(d))
    assert all("retired" not in t.lower() for d in social for lab, t in _spans_of(d) if lab == "PROFESSION")

    for d in _docs_of("us_radiology_esigned", 6, root):
        line = next(line for line in d["text"].splitlines() if line.startswith("Electronically signed by: "))
        name = next(t for lab, t in _spans_of(d) if lab == "NAME" and line.startswith(f"Electronically signed by: {t}"))
        assert re.fullmatch(r"[^\W\d_a-z][^a-z,]*, [^\W\d_a-z]+(?:[- ][^\W\d_a-z]+)* [A-Z]", name)

    held = _docs_of("nz_phone_log_txt_thread", 4, root, split="heldout")
    assert all(not check for check in map(synth.check_document, held))
