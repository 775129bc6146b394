"""The mess real clinical text carries, applied to synthetic documents with probabilities
read from ``noise.toml``: typos, names typed in capitals or lower case, whole documents in
capitals, hard line wraps from PDF extraction (with hyphenation), trailing spaces and CRLF.

Every step keeps the gold spans exact. Steps on *pieces* (runs of text that are either one
PHI value or plain text, before they are joined) may change lengths freely; steps on the
joined text record what they insert and move the spans with ``shift_spans``.
"""

from __future__ import annotations

import bisect
import random
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import ConfigError
from .templates import DEFAULT_ROOT, _read_toml

# A piece of a document: its text and, for a PHI value, (category, fine type).
Piece = tuple[str, tuple[str, str] | None]
# A gold span while a document is assembled: start, end (exclusive), category, fine type.
SpanTuple = tuple[int, int, str, str]


@dataclass(frozen=True)
class NoiseConfig:
    crlf: float = 0.1
    pdf_wrap: float = 0.15
    wrap_width: tuple[int, int] = (60, 80)
    hyphenate: float = 0.35
    upper_case_document: float = 0.03
    trailing_spaces: float = 0.08
    hyphenated_surname: float = 0.06
    double_surname: float = 0.02
    relative_shares_surname: float = 0.6
    name_upper: float = 0.04
    name_lower: float = 0.04
    typo_document: float = 0.35
    typo_word: float = 0.012
    typo_phi: float = 0.03

    @classmethod
    def load(cls, root: Path | None = None) -> "NoiseConfig":
        path = (Path(root) if root is not None else DEFAULT_ROOT) / "noise.toml"
        raw = _read_toml(path)
        flat: dict[str, object] = {}
        for section in raw.values():
            if not isinstance(section, dict):
                raise ConfigError(f"{path.name}: settings must sit in [sections]")
            flat.update(section)
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(flat) - known)
        if unknown:
            raise ConfigError(f"{path.name}: unknown settings {unknown}")
        values: dict[str, object] = {}
        for key, value in flat.items():
            if key == "wrap_width":
                if not (isinstance(value, list) and len(value) == 2 and 20 <= value[0] <= value[1]):
                    raise ConfigError(f"{path.name}: wrap_width must be [low, high] columns")
                values[key] = (int(value[0]), int(value[1]))
            else:
                p = float(value)  # type: ignore[arg-type]
                if not 0.0 <= p <= 1.0:
                    raise ConfigError(f"{path.name}: {key} = {value} is not a probability")
                values[key] = p
        return cls(**values)  # type: ignore[arg-type]


# --- typos -------------------------------------------------------------------------------

# Neighbouring keys on a QWERTY keyboard: a slipped finger, the commonest real typo.
_NEIGHBOURS = {
    "a": "qwsz", "b": "vghn", "c": "xdfv", "d": "serfcx", "e": "wsdr", "f": "drtgvc",
    "g": "ftyhbv", "h": "gyujnb", "i": "ujko", "j": "huikmn", "k": "jiolm", "l": "kop",
    "m": "njk", "n": "bhjm", "o": "iklp", "p": "ol", "q": "wa", "r": "edft", "s": "awedxz",
    "t": "rfgy", "u": "yhji", "v": "cfgb", "w": "qase", "x": "zsdc", "y": "tghu", "z": "asx",
    "0": "9", "1": "2", "2": "13", "3": "24", "4": "35", "5": "46", "6": "57", "7": "68",
    "8": "79", "9": "80",
}

_WORD = re.compile(r"[^\W_]{4,}")


def typo(word: str, rng: random.Random) -> str:
    """One keyboard slip inside ``word``; the first character is kept so the word stays
    recognisable (people rarely mistype the first letter)."""
    if len(word) < 3:
        return word
    i = rng.randrange(1, len(word) - 1)
    kind = rng.random()
    if kind < 0.4:  # transposition
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    if kind < 0.6:  # dropped letter
        return word[:i] + word[i + 1 :]
    if kind < 0.75:  # doubled letter
        return word[:i] + word[i] + word[i:]
    near = _NEIGHBOURS.get(word[i].lower())
    if not near:
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    ch = rng.choice(near)
    return word[:i] + (ch.upper() if word[i].isupper() else ch) + word[i + 1 :]


def _typos_in_plain(text: str, rng: random.Random, rate: float) -> str:
    if rate <= 0.0:
        return text
    out: list[str] = []
    last = 0
    for m in _WORD.finditer(text):
        if rng.random() < rate:
            out.append(text[last : m.start()])
            out.append(typo(m.group(), rng))
            last = m.end()
    if not out:
        return text
    out.append(text[last:])
    return "".join(out)


def noisy_pieces(pieces: list[Piece], rng: random.Random, cfg: NoiseConfig) -> tuple[list[Piece], list[str]]:
    """Piece-level noise; returns the new pieces and the names of the steps applied."""
    applied: list[str] = []
    with_typos = rng.random() < cfg.typo_document
    upper = rng.random() < cfg.upper_case_document
    if with_typos:
        applied.append("typos")
    if upper:
        applied.append("upper_case")
    out: list[Piece] = []
    for text, label in pieces:
        if label is None:
            if with_typos:
                text = _typos_in_plain(text, rng, cfg.typo_word)
        else:
            if label[0] == "NAME" and label[1] != "USERNAME":
                r = rng.random()
                if r < cfg.name_upper:
                    text = text.upper()
                elif r < cfg.name_upper + cfg.name_lower:
                    text = text.lower()
            if with_typos and rng.random() < cfg.typo_phi:
                text = _typo_in_value(text, rng)
        if upper:
            text = text.upper()
        out.append((text, label))
    return out, applied


def _typo_in_value(text: str, rng: random.Random) -> str:
    words = list(re.finditer(r"[^\W_]{3,}", text))
    if not words:
        return text
    m = rng.choice(words)
    return text[: m.start()] + typo(m.group(), rng) + text[m.end() :]


# --- steps on the joined text ----------------------------------------------------------------


def shift_spans(spans: list[SpanTuple], insertions: list[tuple[int, str]]) -> list[SpanTuple]:
    """Move spans for text inserted at positions of the old text (before the character at
    that position). Text inserted where a span starts goes before it; where it ends, after."""
    if not insertions:
        return spans
    insertions = sorted(insertions, key=lambda x: x[0])
    positions = [p for p, _ in insertions]
    cumulative = [0]
    for _, s in insertions:
        cumulative.append(cumulative[-1] + len(s))
    out = []
    for start, end, label, fine in spans:
        new_start = start + cumulative[bisect.bisect_right(positions, start)]
        new_end = end + cumulative[bisect.bisect_left(positions, end)]
        out.append((new_start, new_end, label, fine))
    return out


def apply_insertions(text: str, insertions: list[tuple[int, str]]) -> str:
    if not insertions:
        return text
    parts: list[str] = []
    last = 0
    for pos, s in sorted(insertions, key=lambda x: x[0]):
        parts.append(text[last:pos])
        parts.append(s)
        last = pos
    parts.append(text[last:])
    return "".join(parts)


_TOKEN = re.compile(r"(\n)|([^\S\n]+)|(\S+)")


def hard_wrap(
    text: str, spans: list[SpanTuple], rng: random.Random, width: int, hyphenate: float
) -> tuple[str, list[SpanTuple]]:
    """Break lines longer than ``width`` the way PDF text extraction does: at a space, or
    inside a long plain word with a hyphen. PHI values are never hyphenated (a real PDF may
    do it, but then the gold span would have to cover a hyphen that is not the value's)."""
    starts = [s for s, _, _, _ in spans]
    ends = [e for _, e, _, _ in spans]

    def in_phi(a: int, b: int) -> bool:
        k = bisect.bisect_right(starts, b - 1) - 1
        return k >= 0 and ends[k] > a

    chars: list[str] | None = None
    insertions: list[tuple[int, str]] = []
    col = 0
    last_space: tuple[int, int] | None = None
    for m in _TOKEN.finditer(text):
        if m.group(1):
            col, last_space = 0, None
            continue
        if m.group(2):
            last_space = m.span()
            col += len(m.group(2))
            continue
        a, b = m.span()
        word_len = b - a
        if col + word_len <= width or col == 0:
            col += word_len
            continue
        room = width - col - 1
        letters = len(m.group(3).rstrip(",.;:)"))
        if (
            letters >= 8
            and room >= 3
            and letters - room >= 3
            and m.group(3)[:letters].isalpha()
            and not in_phi(a, b)
            and rng.random() < hyphenate
        ):
            insertions.append((a + room, "-\n"))
            col = word_len - room
        elif last_space is not None:
            if chars is None:
                chars = list(text)
            ws_a, ws_b = last_space
            chars[ws_a] = "\n"
            col = (ws_b - ws_a - 1) + word_len
        else:
            col += word_len
        last_space = None
    if chars is not None:
        text = "".join(chars)
    return apply_insertions(text, insertions), shift_spans(spans, insertions)


def trailing_spaces(text: str, spans: list[SpanTuple], rng: random.Random) -> tuple[str, list[SpanTuple]]:
    insertions = [(m.start(), " " * rng.randint(1, 3)) for m in re.finditer(r"\n", text) if rng.random() < 0.3]
    return apply_insertions(text, insertions), shift_spans(spans, insertions)


def to_crlf(text: str, spans: list[SpanTuple]) -> tuple[str, list[SpanTuple]]:
    insertions = [(m.start(), "\r") for m in re.finditer(r"(?<!\r)\n", text)]
    return apply_insertions(text, insertions), shift_spans(spans, insertions)


def noisy_text(
    text: str, spans: list[SpanTuple], rng: random.Random, cfg: NoiseConfig
) -> tuple[str, list[SpanTuple], list[str]]:
    applied: list[str] = []
    if rng.random() < cfg.pdf_wrap:
        width = rng.randint(*cfg.wrap_width)
        text, spans = hard_wrap(text, spans, rng, width, cfg.hyphenate)
        applied.append("pdf_wrap")
    if rng.random() < cfg.trailing_spaces:
        text, spans = trailing_spaces(text, spans, rng)
        applied.append("trailing_spaces")
    if rng.random() < cfg.crlf:
        text, spans = to_crlf(text, spans)
        applied.append("crlf")
    return text, spans, applied
