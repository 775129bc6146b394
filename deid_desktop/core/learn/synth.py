"""The synthetic clinical training corpus: templates filled with surrogate values.

A document is built piece by piece; each PHI value is recorded as a gold span the moment it
is appended, so offsets are exact by construction (the noise steps that follow move them
with the text). PHI values come from the surrogate engine's generators; this module only
formats them ("SMITH, John", "Dr J. Smith", "js", "jsmith").

Gold format (one JSON object per line):
    {"id", "text", "spans": [{"start", "end", "label", "sublabel"}],
     "meta": {"family", "note_type", "convention", "origin_mix", "noise"}}
"""

from __future__ import annotations

import json
import random
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Iterator

from ..categories import Category
from ..errors import ConfigError
from . import noise
from .noise import NoiseConfig, Piece, SpanTuple
from .templates import (
    DEFAULT_ROOT,
    Choice,
    Library,
    Maybe,
    Node,
    Phrase,
    Repeat,
    Slot,
    Template,
    Text,
    _read_toml,
    load_library,
    load_template_files,
)

SPLITS = ("train", "heldout", "all")


def _generators():
    # Imported when first needed so that loading templates never drags in the surrogate
    # engine (and a broken generator module fails generation, not import).
    from ..surrogates import generators

    return generators


# --- templates and splits ----------------------------------------------------------------


@lru_cache(maxsize=8)
def _library(root: Path) -> Library:
    return load_library(root)


@lru_cache(maxsize=8)
def _templates(root: Path) -> tuple[Template, ...]:
    return tuple(load_template_files(root, _library(root)))


@lru_cache(maxsize=8)
def _noise(root: Path) -> NoiseConfig:
    return NoiseConfig.load(root)


def _root(root: Path | None) -> Path:
    return Path(root).resolve() if root is not None else DEFAULT_ROOT


def load_templates(root: Path | None = None) -> list[Template]:
    """Every template family under ``root/families`` (default: resources/templates)."""
    return list(_templates(_root(root)))


@dataclass(frozen=True)
class Splits:
    """What evaluation holds out: families never used for training, and name origins whose
    names never appear in training documents."""

    heldout_families: frozenset[str]
    heldout_origins: frozenset[str]
    heldout_note_types: frozenset[str] = field(default=frozenset())
    heldout_pairs: frozenset[tuple[str, str]] = field(default=frozenset())  # (convention, note_type)

    def is_heldout(self, template: Template) -> bool:
        return template.family in self.heldout_families


def load_splits(root: Path | None = None) -> Splits:
    root = _root(root)
    path = root / "splits.toml"
    raw = _read_toml(path).get("heldout", {})
    templates = _templates(root)
    by_family = {t.family: t for t in templates}
    note_types = frozenset(raw.get("note_types", []))
    pairs = frozenset((str(c), str(n)) for c, n in raw.get("convention_note_types", []))
    families = set(raw.get("families", []))
    unknown = sorted(families - set(by_family))
    if unknown:
        raise ConfigError(f"{path.name}: held-out families not found: {unknown}")
    known_types = {t.note_type for t in templates}
    if note_types - known_types:
        raise ConfigError(f"{path.name}: held-out note types without templates: {sorted(note_types - known_types)}")
    for t in templates:
        if t.note_type in note_types or (t.convention, t.note_type) in pairs:
            families.add(t.family)
    origins = frozenset(raw.get("origins", []))
    return Splits(
        heldout_families=frozenset(families),
        heldout_origins=origins,
        heldout_note_types=note_types,
        heldout_pairs=pairs,
    )


def split_templates(split: str, root: Path | None = None) -> list[Template]:
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; expected one of {', '.join(SPLITS)}")
    splits = load_splits(root)
    templates = load_templates(root)
    if split == "all":
        return templates
    want_heldout = split == "heldout"
    return [t for t in templates if splits.is_heldout(t) == want_heldout]


def split_origins(split: str, root: Path | None = None) -> list[str]:
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; expected one of {', '.join(SPLITS)}")
    all_origins = list(_generators().NAME_ORIGINS)
    heldout = load_splits(root).heldout_origins
    missing = sorted(heldout - set(all_origins))
    if missing:
        raise ConfigError(f"splits.toml: held-out name origins the generator does not know: {missing}")
    if split == "all":
        return all_origins
    if split == "heldout":
        return [o for o in all_origins if o in heldout]
    return [o for o in all_origins if o not in heldout]


# --- people --------------------------------------------------------------------------------


@dataclass
class Person:
    first: str
    last: str
    gender: str
    origin: str
    role: str
    title: str
    relation: str = ""
    rel_short: str = ""
    middle: str = ""


def _ascii(s: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", s) if c.isascii() and c.isalnum())


def _initial(name: str) -> str:
    for ch in name:
        if ch.isalpha():
            return ch.upper()
    return name[:1]


def _surname_initial(last: str) -> str:
    # "van der Berg" is filed under B by most clinical systems' initials ("JvdB" is rarer).
    capitals = [w for w in last.replace("-", " ").split() if w[:1].isupper()]
    return _initial(capitals[0] if capitals else last)


_PRONOUNS = {
    "M": {"he": "he", "He": "He", "his": "his", "His": "His", "him": "him", "sex": "M", "male": "male", "man": "man"},
    "F": {"he": "she", "He": "She", "his": "her", "His": "Her", "him": "her", "sex": "F", "male": "female", "man": "woman"},
}
_NEUTRAL = {"he": "they", "He": "They", "his": "their", "His": "Their", "him": "them", "sex": "X", "male": "non-binary", "man": "person"}


# --- one document ---------------------------------------------------------------------------


class _Renderer:
    """Fills one template for one document; holds the people and values it has drawn so
    that a slot used twice gives the same value twice."""

    def __init__(self, template: Template, rng: random.Random, origins: list[str], library: Library, cfg: NoiseConfig):
        if not origins:
            raise ValueError("no name origins to draw names from")
        self.t = template
        self.conv = template.convention
        self.rng = rng
        self.origins = origins
        self.lib = library
        self.cfg = cfg
        self.gen = _generators()
        self.pieces: list[Piece] = []
        self.people: dict[str, Person] = {}
        self.values: dict[tuple[str, str], str] = {}
        self.origin_mix: list[str] = []
        self.used: dict[str, set[int]] = {}
        self.family_origin = rng.choice(origins)
        self.depth = 0

    # output
    def plain(self, text: str) -> None:
        if text:
            self.pieces.append((text, None))

    def phi(self, text: str, category: str, fine: str) -> None:
        core = text.strip()
        if not core:
            self.plain(text)
            return
        lead = text[: len(text) - len(text.lstrip())]
        trail = text[len(text.rstrip()) :]
        self.plain(lead)
        self.pieces.append((core, (category, fine)))
        self.plain(trail)

    # tree walk
    def run(self, nodes: tuple[Node, ...]) -> None:
        for node in nodes:
            if isinstance(node, Text):
                self.plain(node.value)
            elif isinstance(node, Slot):
                self.slot(node)
            elif isinstance(node, Phrase):
                items = self.lib.phrase_items(node.name, self.conv)
                self.depth += 1
                if self.depth > 20:
                    raise ConfigError(f"{self.t.family}: phrase lists refer to each other without end")
                self.run(items[self.pick(node.name, len(items))])
                self.depth -= 1
            elif isinstance(node, Choice):
                self.run(node.options[self.rng.randrange(len(node.options))])
            elif isinstance(node, Maybe):
                if self.rng.random() < node.probability:
                    self.run(node.body)
            elif isinstance(node, Repeat):
                for _ in range(self.rng.randint(node.low, node.high)):
                    self.run(node.body)

    def pick(self, name: str, count: int) -> int:
        # Real notes rarely say the same thing twice; avoid repeating an item of a list
        # within one document while unused items remain.
        used = self.used.setdefault(name, set())
        k = self.rng.randrange(count)
        if len(used) < count:
            while k in used:
                k = self.rng.randrange(count)
        used.add(k)
        return k

    def slot(self, slot: Slot) -> None:
        kind = self.lib.persons.get(slot.base)
        if kind is not None:
            self.person_slot(self.person(slot.kind, slot.base), slot.arg or "full")
            return
        vkind = self.lib.values[slot.base]
        key = (slot.kind, slot.arg)
        value = self.values.get(key)
        if value is None:
            patterns = vkind.patterns_for(self.conv)
            if patterns:
                value = self.compose(patterns[self.rng.randrange(len(patterns))])
            else:
                value = self.gen.sample_value(vkind.category, vkind.sample_for(self.conv), self.rng, locale=self.conv)
            self.values[key] = value
        self.phi(value, vkind.category.value, vkind.fine_for(self.conv))

    def compose(self, pattern: tuple[Node, ...]) -> str:
        outer = self.pieces
        self.pieces = []
        try:
            self.run(pattern)
            return "".join(text for text, _ in self.pieces)
        finally:
            self.pieces = outer

    # people
    def _origin(self, base: str) -> str:
        if base in ("PATIENT", "RELATIVE") and self.rng.random() < 0.85:
            origin = self.family_origin
        else:
            origin = self.rng.choice(self.origins)
        if origin not in self.origin_mix:
            self.origin_mix.append(origin)
        return origin

    def person(self, key: str, base: str) -> Person:
        found = self.people.get(key)
        if found is not None:
            return found
        kind = self.lib.persons[base]
        rng = self.rng
        relation = None
        if kind.role == "RELATIVE":
            relation = self.lib.relations[rng.randrange(len(self.lib.relations))]
        gender = relation.gender if relation is not None else None
        origin = self._origin(base)
        first, last, gender = self.gen.sample_name(rng, origin=origin, gender=gender)
        patient = self.people.get("PATIENT")
        if relation is not None and patient is not None and rng.random() < self.cfg.relative_shares_surname:
            last = patient.last
        else:
            r = rng.random()
            if r < self.cfg.hyphenated_surname + self.cfg.double_surname:
                other = self.gen.sample_name(rng, origin=rng.choice(self.origins))[1]
                joiner = "-" if r < self.cfg.hyphenated_surname else " "
                if other != last:
                    last = f"{last}{joiner}{other}"
        person = Person(
            first=first,
            last=last,
            gender=gender,
            origin=origin,
            role=kind.role,
            title=self._title(kind.title, gender),
            relation=relation.word if relation else "",
            rel_short=relation.short if relation else "",
        )
        self.people[key] = person
        return person

    def _title(self, style: str, gender: str) -> str:
        rng = self.rng
        dot = "." if self.conv == "US" else ""
        if style == "doctor":
            return "Dr" + dot
        if style == "surgeon" and self.conv != "US" and rng.random() < 0.7:
            style = "courtesy"
        elif style == "surgeon":
            return "Dr" + dot
        if gender == "M":
            return "Mr" + dot
        if gender == "F":
            return rng.choice(("Mrs", "Ms", "Ms", "Miss")) if not dot else rng.choice(("Mrs.", "Ms.", "Ms."))
        return "Mx" + dot

    def middle(self, p: Person) -> str:
        if not p.middle:
            p.middle = self.gen.sample_name(self.rng, origin=p.origin, gender=p.gender)[0]
        return p.middle

    def person_slot(self, p: Person, fmt: str) -> None:
        pron = _PRONOUNS.get(p.gender, _NEUTRAL)
        if fmt in pron:
            self.plain(pron[fmt])
            return
        if fmt == "title":
            self.plain(p.title)
            return
        if fmt == "relation":
            self.plain(p.relation or "friend")
            return
        if fmt == "Relation":
            word = p.relation or "friend"
            self.plain(word[:1].upper() + word[1:])
            return
        if fmt == "rel_short":
            self.plain(p.rel_short or "friend")
            return
        fine = p.role
        if fmt.startswith("title_"):
            self.plain(p.title + " ")
            fmt = {"title_last": "last", "title_full": "full", "title_LAST": "LAST",
                   "title_initial_last": "initial_last"}[fmt]
        if fmt == "username":
            self.phi(self.username(p), "NAME", "USERNAME")
            return
        self.phi(self.render_name(p, fmt), "NAME", fine)

    def username(self, p: Person) -> str:
        first, last = _ascii(p.first).lower(), _ascii(p.last).lower()
        if not first or not last:  # names in a script with no ASCII letters: keep them
            first = first or "".join(p.first.lower().split())
            last = last or "".join(p.last.lower().split())
        shape = self.rng.randrange(4)
        if shape == 0:
            return first[:1] + last
        if shape == 1:
            return last + first[:1]
        if shape == 2:
            return f"{first}.{last}"
        return f"{last[:6]}{first[:2]}{self.rng.randint(1, 99)}"

    def render_name(self, p: Person, fmt: str) -> str:
        first, last = p.first, p.last
        if fmt == "full":
            return f"{first} {last}"
        if fmt == "first":
            return first
        if fmt == "last":
            return last
        if fmt == "middle":
            return self.middle(p)
        if fmt == "full_middle":
            return f"{first} {self.middle(p)} {last}"
        if fmt == "last_first":
            return f"{last}, {first}"
        if fmt == "LAST_first":
            return f"{last.upper()}, {first}"
        if fmt == "LAST_FIRST_mi":  # EHR sign-off lines: "SURNAME, FIRST M"
            return f"{last.upper()}, {first.upper()} {_initial(self.middle(p))}"
        if fmt == "LAST":
            return last.upper()
        if fmt == "FIRST":
            return first.upper()
        if fmt == "FULL":
            return f"{first} {last}".upper()
        if fmt == "first_lower":
            return first.lower()
        if fmt == "last_lower":
            return last.lower()
        if fmt == "full_lower":
            return f"{first} {last}".lower()
        if fmt == "initial_last":
            return f"{_initial(first)}{self.rng.choice(('. ', ' ', '.'))}{last}"
        if fmt == "initials":
            return _initial(first) + _surname_initial(last)
        if fmt == "initials_lower":
            return (_initial(first) + _surname_initial(last)).lower()
        if fmt == "initials_dots":
            return f"{_initial(first)}.{_surname_initial(last)}."
        raise ConfigError(f"{self.t.family}: unknown name format {fmt!r}")


def _join(pieces: list[Piece]) -> tuple[str, list[SpanTuple]]:
    parts: list[str] = []
    spans: list[SpanTuple] = []
    pos = 0
    for text, label in pieces:
        if not text:
            continue
        if label is not None:
            spans.append((pos, pos + len(text), label[0], label[1]))
        parts.append(text)
        pos += len(text)
    return "".join(parts), spans


def generate_document(template: Template, rng: random.Random, *, origins: list[str], root: Path | None = None) -> dict:
    """One gold document from ``template``; names are drawn from ``origins`` only."""
    base = _root(root)
    cfg = _noise(base)
    renderer = _Renderer(template, rng, list(origins), _library(base), cfg)
    renderer.run(template.body)
    pieces, applied = noise.noisy_pieces(renderer.pieces, rng, cfg)
    text, spans = _join(pieces)
    text = text.rstrip() + "\n"  # templates end however they end; documents end with one newline
    text, spans, more = noise.noisy_text(text, spans, rng, cfg)
    return {
        "id": f"synth-{template.family}-{rng.getrandbits(48):012x}",
        "text": text,
        "spans": [{"start": s, "end": e, "label": c, "sublabel": f} for s, e, c, f in spans],
        "meta": {
            "family": template.family,
            "note_type": template.note_type,
            "convention": template.convention,
            "origin_mix": list(renderer.origin_mix),
            "noise": applied + more,
        },
    }


def generate_corpus(
    n: int, seed: int = 0, *, split: str = "train", families: list[str] | None = None, root: Path | None = None
) -> Iterator[dict]:
    """``n`` documents, the same ones for the same arguments on any machine.

    split "train": training families and names of non-held-out origins only; "heldout": the
    held-out families and held-out origins only; "all": everything. ``families`` narrows the
    choice further and must lie inside the split (so a held-out family cannot leak into
    training by being asked for).
    """
    if n < 0:
        raise ValueError("n must not be negative")
    pool = split_templates(split, root)
    if families is not None:
        wanted = set(families)
        known = {t.family for t in load_templates(root)}
        unknown = sorted(wanted - known)
        if unknown:
            raise ValueError(f"unknown template families: {unknown}")
        outside = sorted(wanted - {t.family for t in pool})
        if outside:
            raise ValueError(f"families not in split {split!r}: {outside}")
        pool = [t for t in pool if t.family in wanted]
    if not pool:
        raise ValueError(f"split {split!r} has no template families")
    origins = split_origins(split, root)
    if not origins:
        raise ValueError(f"split {split!r} has no name origins")
    for i in range(n):
        rng = random.Random(f"deid-synth/{split}/{seed}/{i}")
        template = pool[rng.randrange(len(pool))]
        doc = generate_document(template, rng, origins=origins, root=root)
        doc["id"] = f"synth-{split}-{seed}-{i:06d}"
        yield doc


def write_jsonl(docs: Iterable[dict], path: Path) -> int:
    """Writes one JSON object per line (UTF-8, non-ASCII kept); returns how many."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    # synthetic documents only (invented values): no one's PHI, so the usual mode
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        for doc in docs:
            fh.write(json.dumps(doc, ensure_ascii=False))
            fh.write("\n")
            count += 1
    return count


def check_document(doc: dict) -> list[str]:
    """Why a gold document is malformed (empty when it is sound): offsets outside the text,
    empty or overlapping spans, labels that are not categories."""
    problems: list[str] = []
    text = doc.get("text", "")
    last_end = 0
    for k, span in enumerate(sorted(doc.get("spans", []), key=lambda s: (s["start"], s["end"]))):
        start, end = span["start"], span["end"]
        if not (0 <= start < end <= len(text)):
            problems.append(f"span {k}: offsets {start}..{end} outside the text")
            continue
        if start < last_end:
            problems.append(f"span {k}: overlaps the span before it")
        if text[start:end] != text[start:end].strip():
            problems.append(f"span {k}: starts or ends with whitespace")
        try:
            Category(span["label"])
        except ValueError:
            problems.append(f"span {k}: label {span['label']!r} is not a category")
        last_end = max(last_end, end)
    return problems
