"""Inline-marked gold (``{{CATEGORY|text}}``): the format of the hand-written benchmark notes."""

from __future__ import annotations

from pathlib import Path

import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.learn.gold import from_inline_markup

NOTES = Path(__file__).resolve().parents[3] / "benchmarks" / "data" / "unseen_notes"


def test_markup_is_removed_and_each_marked_text_becomes_a_span():
    doc = from_inline_markup(
        "Dr {{NAME|Aroha Ngata}}'s patient, a {{AGE|67}}-year-old,\nseen {{DATE|3/4/24}} at {{ORGANIZATION|St Ebba's Hospice}}.",
        "n1",
    )
    assert doc.text == "Dr Aroha Ngata's patient, a 67-year-old,\nseen 3/4/24 at St Ebba's Hospice."
    assert [(doc.text[s.start : s.end], s.category) for s in doc.spans] == [
        ("Aroha Ngata", Category.NAME),
        ("67", Category.AGE),
        ("3/4/24", Category.DATE),
        ("St Ebba's Hospice", Category.ORGANIZATION),
    ]


@pytest.mark.parametrize(
    "marked, reason",
    [
        ("Seen by {{DOCTOR|Ann Lee}}.", "line 1: unknown category 'DOCTOR'"),
        ("ok\nSeen by {{NAME| Ann Lee}}.", "line 2: a marked span is empty or starts or ends with a space"),
        ("ok\nok\nSeen by {{NAME|Ann Lee}.", "line 3: unclosed or malformed markup"),
        ("Seen by {{NAME|}}.", "line 1: a marked span is empty"),
    ],
)
def test_malformed_markup_is_refused_naming_the_line_not_the_text(marked, reason):
    with pytest.raises(ValueError) as e:
        from_inline_markup(marked, "note.txt")
    assert str(e.value).startswith("note.txt " + reason.split(":")[0])
    assert reason.split(": ", 1)[1] in str(e.value)
    assert "Ann Lee" not in str(e.value)


FRESH = NOTES.parent / "fresh_notes"
TRAINING = Path(__file__).resolve().parents[3] / "resources" / "training" / "notes"
HAND_WRITTEN = sorted(NOTES.glob("*.txt")) + sorted(FRESH.glob("*.txt")) + sorted(TRAINING.glob("*.txt"))


@pytest.mark.parametrize("path", HAND_WRITTEN, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_hand_written_benchmark_note_parses_into_spans_on_its_own_words(path: Path):
    """The benchmarks score against these golds and the default models train on the training
    notes: a note whose markup cannot be read, or whose spans cut a word, would skew every
    figure measured on it or teach the models to cut words."""
    doc = from_inline_markup(path.read_text(encoding="utf-8"), path.name)
    assert len(doc.spans) >= 10
    for s in doc.spans:
        value = doc.text[s.start : s.end]
        assert value == value.strip()
        before = doc.text[s.start - 1] if s.start else " "
        after = doc.text[s.end] if s.end < len(doc.text) else " "
        # a span may touch punctuation or change from digits to letters ("86F", "3yo"), never
        # cut a run of letters or of digits
        assert not _same_run(before, value[0]), (path.name, s.start)
        assert not _same_run(value[-1], after), (path.name, s.end)


def _same_run(a: str, b: str) -> bool:
    return (a.isalpha() and b.isalpha()) or (a.isdigit() and b.isdigit())
