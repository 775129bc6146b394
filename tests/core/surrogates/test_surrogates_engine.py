"""The surrogate engine as callers use it: consistency, keys, modes, replacements."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from deid_desktop.core.categories import FINE_TYPES, Category
from deid_desktop.core.documents.model import apply_replacements
from deid_desktop.core.spans import Span
from deid_desktop.core.surrogates import (
    SurrogateEngine,
    SurrogateOptions,
    new_workspace_secret,
    sample_value,
)
from deid_desktop.core.surrogates.keys import normalise_key

SECRET = bytes(range(32))
ROOT = Path(__file__).resolve().parents[3]

# A value of every kind, as it might appear in a note.
ORIGINALS = [
    ("John Smith", Category.NAME, "PATIENT"),
    ("Dr. J. Smith", Category.NAME, "DOCTOR"),
    ("14/03/2021", Category.DATE, "OTHER"),
    ("March 14th, 2021", Category.DATE, "OTHER"),
    ("92-year-old", Category.AGE, "OTHER"),
    ("12 Rosewood Avenue", Category.LOCATION, "STREET"),
    ("Springfield, IL 62704", Category.LOCATION, "OTHER"),
    ("St Mary's Hospital", Category.ORGANIZATION, "HOSPITAL"),
    ("546-123-0543", Category.CONTACT, "PHONE"),
    ("john.smith@care.com", Category.CONTACT, "EMAIL"),
    ("943 476 5919", Category.ID, "OTHER"),
    ("teacher", Category.PROFESSION, "OTHER"),
]


@pytest.fixture(scope="module")
def engine() -> SurrogateEngine:
    return SurrogateEngine(SECRET)


def test_workspace_secret_is_32_random_bytes():
    a, b = new_workspace_secret(), new_workspace_secret()
    assert len(a) == 32 and isinstance(a, bytes) and a != b


def test_short_or_text_secret_is_refused():
    with pytest.raises(ValueError):
        SurrogateEngine(b"short")
    with pytest.raises(TypeError):
        SurrogateEngine("a text secret of enough length")  # type: ignore[arg-type]


def test_same_subject_same_original_gives_same_surrogate_in_any_order(engine):
    first = [engine.surrogate(o, c, f, subject="patient-1") for o, c, f in ORIGINALS]
    other = SurrogateEngine(SECRET)
    again = [other.surrogate(o, c, f, subject="patient-1") for o, c, f in reversed(ORIGINALS)]
    assert first == list(reversed(again))


def test_case_and_spacing_of_the_original_do_not_change_the_choice(engine):
    a = engine.surrogate("John Smith", Category.NAME, subject="s")
    b = engine.surrogate("JOHN  SMITH", Category.NAME, subject="s")
    c = engine.surrogate("john smith", Category.NAME, subject="s")
    assert b == a.upper().replace(" ", "  ")
    assert c == a.lower()


def test_surrogates_are_the_same_in_another_process_with_another_hash_seed(engine):
    expected = [engine.surrogate(o, c, f, subject="patient-7") for o, c, f in ORIGINALS]
    code = (
        "import json, sys\n"
        "from deid_desktop.core.categories import Category\n"
        "from deid_desktop.core.surrogates import SurrogateEngine\n"
        f"items = {[(o, c.value, f) for o, c, f in ORIGINALS]!r}\n"
        f"e = SurrogateEngine(bytes(range(32)))\n"
        "print(json.dumps([e.surrogate(o, Category(c), f, subject='patient-7') for o, c, f in items]))\n"
    )
    for seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=True)
        assert json.loads(out.stdout) == expected


def test_different_subjects_get_different_surrogates(engine):
    for original, category, fine in ORIGINALS:
        if category is Category.AGE:
            continue  # every age above the cap becomes the same "90+"
        values = {engine.surrogate(original, category, fine, subject=f"patient-{i}") for i in range(6)}
        assert len(values) >= 4, original


def test_different_secrets_give_different_surrogates():
    a = SurrogateEngine(SECRET).surrogate("John Smith", Category.NAME, subject="s")
    b = SurrogateEngine(bytes(32)).surrogate("John Smith", Category.NAME, subject="s")
    assert a != b


def test_date_shift_is_per_subject_within_the_range_and_into_the_past():
    engine = SurrogateEngine(SECRET, SurrogateOptions(date_shift_min_days=30, date_shift_max_days=60))
    shifts = {engine.date_shift_days(f"s{i}") for i in range(40)}
    assert all(-60 <= d <= -30 for d in shifts)
    assert len(shifts) > 10
    assert all(d % 7 for d in shifts)  # a weekday alone must change too
    assert engine.date_shift_days("s1") == SurrogateEngine(SECRET, engine.options).date_shift_days("s1")


def test_future_shift_option():
    engine = SurrogateEngine(SECRET, SurrogateOptions(date_shift_direction="future"))
    assert all(14 <= engine.date_shift_days(f"s{i}") <= 365 for i in range(20))


@pytest.mark.parametrize("bad", [
    dict(date_shift_min_days=0), dict(date_shift_min_days=20, date_shift_max_days=10),
    dict(tag_style="curly"), dict(blackout_char="##"), dict(locale="FR"), dict(date_shift_direction="sideways"),
])
def test_bad_options_are_refused(bad):
    with pytest.raises(ValueError):
        SurrogateOptions(**bad)


def _random_original(rng: random.Random) -> str:
    alphabet = "ABCDEFGHJKabcdefgh0123456789 -./,'"
    while True:
        s = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 14))).strip()
        if normalise_key(s):
            return s


def test_a_surrogate_never_equals_its_original_random_strings(engine):
    rng = random.Random(20240601)
    for _ in range(500):
        category = rng.choice(list(Category))
        fine = rng.choice(FINE_TYPES[category])
        original = _random_original(rng)
        value = engine.surrogate(original, category, fine, subject=str(rng.random()))
        if category is Category.AGE and value == original:
            continue  # the documented exception: ages up to the cap may stay
        assert normalise_key(value) != normalise_key(original), (category, fine)


def test_a_surrogate_never_equals_its_original_realistic_values(engine):
    rng = random.Random(7)
    locales = [None, "US", "UK", "AU", "NZ"]
    for category, fines in FINE_TYPES.items():
        for fine in fines:
            for _ in range(25):
                original = sample_value(category, fine, rng, locale=rng.choice(locales))
                value = engine.surrogate(original, category, fine, subject=str(rng.randint(0, 99)))
                if category is Category.AGE and int(original) <= 89:
                    assert value == original
                    continue
                assert normalise_key(value) != normalise_key(original), (category, fine)


def test_ages_under_the_cap_change_when_the_option_is_off():
    engine = SurrogateEngine(SECRET, SurrogateOptions(keep_ages_under_cap=False))
    for age in ("0", "5", "45", "89"):
        value = engine.surrogate(age, Category.AGE, subject="s")
        assert value != age and 0 <= int(value) <= 89


def test_text_without_letters_or_digits_becomes_the_tag(engine):
    assert engine.surrogate("--", Category.ID) == "[ID]"


TEXT = "Seen: John Smith (DOB 14/03/1950) at\nSt Mary's Hospital. Phone 546-123-0543."


def _spans() -> list[Span]:
    def at(value: str, category: Category, fine: str = "OTHER") -> Span:
        start = TEXT.index(value)
        return Span(start, start + len(value), category, fine)

    return [
        at("546-123-0543", Category.CONTACT, "PHONE"),
        at("John Smith", Category.NAME, "PATIENT"),
        at("14/03/1950", Category.DATE),
        at("St Mary's Hospital", Category.ORGANIZATION, "HOSPITAL"),
    ]


def test_replacements_come_in_document_order_one_per_span(engine):
    reps = engine.replacements(TEXT, _spans(), subject="p")
    assert [r.start for r in reps] == sorted(r.start for r in reps)
    assert [r.category for r in reps] == ["NAME", "DATE", "ORGANIZATION", "CONTACT"]
    out = apply_replacements(TEXT, reps)
    for original in ("John Smith", "14/03/1950", "St Mary", "546-123-0543"):
        assert original not in out
    assert out.startswith("Seen: ") and "\n" in out
    assert reps[0].new_text == engine.surrogate("John Smith", Category.NAME, "PATIENT", subject="p")


def test_tag_mode_brackets_and_stars():
    reps = SurrogateEngine(SECRET).replacements(TEXT, _spans(), mode="tag")
    assert [r.new_text for r in reps] == ["[NAME]", "[DATE]", "[ORGANIZATION]", "[CONTACT]"]
    stars = SurrogateEngine(SECRET, SurrogateOptions(tag_style="stars")).replacements(TEXT, _spans(), mode="tag")
    assert stars[0].new_text == "<**PERSON**>"
    assert apply_replacements(TEXT, stars).startswith("Seen: <**PERSON**> (DOB <**DATE**>)")


def test_blackout_keeps_length_and_whitespace():
    text = "Name: John\nSmith, ward 4"
    span = Span(6, 16, Category.NAME)
    [rep] = SurrogateEngine(SECRET).replacements(text, [span], mode="blackout")
    assert rep.new_text == "████\n█████"
    [rep] = SurrogateEngine(SECRET, SurrogateOptions(blackout_char="#")).replacements(text, [span], mode="blackout")
    assert rep.new_text == "####\n#####"


def test_overlapping_spans_are_refused(engine):
    spans = [Span(6, 16, Category.NAME), Span(11, 20, Category.NAME)]
    with pytest.raises(ValueError, match="overlap"):
        engine.replacements(TEXT, spans)


def test_unknown_mode_and_span_past_the_end_are_refused(engine):
    with pytest.raises(ValueError):
        engine.replacements(TEXT, _spans(), mode="scramble")
    with pytest.raises(ValueError):
        engine.replacements("short", [Span(0, 10, Category.NAME)])


def test_category_may_be_given_as_text(engine):
    assert engine.surrogate("John", "name", subject="s") == engine.surrogate("John", Category.NAME, subject="s")
