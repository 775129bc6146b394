"""Noise steps of the synthetic corpus keep every gold span on its value."""

from __future__ import annotations

import random

from deid_desktop.core.learn import noise
from deid_desktop.core.learn.noise import NoiseConfig

TEXT = (
    "Seen by Dr Aroha Ngata on 12/03/2021 at 14:30 regarding his Parkinson's disease and "
    "hyperkalaemia; Glasgow Coma Scale 14, Braden score 16. Daughter Mere Ngata rang on "
    "021 555 0192.\nPlan: metoprolol 25 mg bd, review 3/12.\n"
)
VALUES = [("Aroha Ngata", "NAME", "DOCTOR"), ("12/03/2021", "DATE", "OTHER"),
          ("Mere Ngata", "NAME", "RELATIVE"), ("021 555 0192", "CONTACT", "PHONE")]


def _spans(text: str) -> list[tuple[int, int, str, str]]:
    out = []
    for value, label, fine in VALUES:
        start = text.index(value)
        out.append((start, start + len(value), label, fine))
    return sorted(out)


def _same_value(got: str, want: str) -> bool:
    return " ".join(got.split()) == want


def test_crlf_keeps_spans_on_their_values():
    text, spans = noise.to_crlf(TEXT, _spans(TEXT))
    assert "\r\n" in text and "\n" not in text.replace("\r\n", "")
    for (start, end, _, _), (value, _, _) in zip(spans, sorted(VALUES, key=lambda v: TEXT.index(v[0]))):
        assert text[start:end] == value


def test_hard_wrap_breaks_long_lines_and_never_hyphenates_a_value():
    rng = random.Random(3)
    for width in range(20, 81, 3):
        text, spans = noise.hard_wrap(TEXT, _spans(TEXT), rng, width, hyphenate=1.0)
        assert max(len(line) for line in text.split("\n")) <= max(width, len("hyperkalaemia;") + 1)
        got = [text[s:e] for s, e, _, _ in spans]
        want = [v for v, _, _ in sorted(VALUES, key=lambda v: TEXT.index(v[0]))]
        assert all(_same_value(g, w) for g, w in zip(got, want)), (width, got)
        assert all("-\n" not in g for g in got)
        # Only the inserted hyphen-newlines and the broken spaces differ from the source.
        assert text.replace("-\n", "").replace("\n", " ") == TEXT.replace("\n", " ")


def test_hyphenation_happens_at_narrow_widths():
    wrapped = [noise.hard_wrap(TEXT, _spans(TEXT), random.Random(0), w, hyphenate=1.0)[0] for w in range(20, 40)]
    assert sum("-\n" in text for text in wrapped) >= 5


def test_shift_spans_puts_text_inserted_at_a_boundary_outside_the_span():
    spans = [(5, 10, "NAME", "PATIENT")]
    assert noise.shift_spans(spans, [(5, "ab")]) == [(7, 12, "NAME", "PATIENT")]
    assert noise.shift_spans(spans, [(10, "ab")]) == [(5, 10, "NAME", "PATIENT")]
    assert noise.shift_spans(spans, [(7, "ab")]) == [(5, 12, "NAME", "PATIENT")]


def test_typo_keeps_the_first_letter_and_changes_the_word():
    rng = random.Random(1)
    changed = 0
    for _ in range(200):
        word = "metoprolol"
        out = noise.typo(word, rng)
        assert out[0] == "m"
        assert abs(len(out) - len(word)) <= 1
        changed += out != word
    assert changed > 180


def test_piece_noise_never_moves_text_between_pieces():
    cfg = NoiseConfig(typo_document=1.0, typo_word=0.5, typo_phi=1.0, name_upper=0.5, name_lower=0.5,
                      upper_case_document=0.0)
    pieces = [("Seen by Dr ", None), ("Aroha Ngata", ("NAME", "DOCTOR")), (" on ", None),
              ("12/03/2021", ("DATE", "OTHER")), (" regarding Parkinson's disease.", None)]
    out, applied = noise.noisy_pieces(pieces, random.Random(5), cfg)
    assert applied == ["typos"]
    assert [label for _, label in out] == [label for _, label in pieces]
    assert out[1][0].lower() != "zzz" and out[1][0][0].lower() == "a"


def test_shipped_noise_settings_load():
    cfg = NoiseConfig.load()
    assert 0 < cfg.crlf < 1 and 0 < cfg.pdf_wrap < 1
    assert 20 <= cfg.wrap_width[0] <= cfg.wrap_width[1]
