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
