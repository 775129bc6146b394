"""The note-template language of the synthetic corpus, and loading templates from data.

Templates are data (TOML under ``resources/templates/``) so that clinicians can add a layout
without touching code, and so that evaluation can hold whole families out. A template body is
plain text with a few brace constructs:

    {PATIENT.full}      a person slot: kind, then a rendering format (see NAME_FORMATS);
                        every use of one kind in a document is the same person ("DOCTOR2" is
                        a second doctor)
    {DATE.dob}          a value slot: kind, then an optional key; the same kind and key give
                        the same value within a document, a different key a different value
    {@diagnosis}        one item from the phrase list "diagnosis" (items may hold constructs)
    {=GP|General Practitioner}   one of the alternatives
    {?0.4:text}         the text with probability 0.4
    {*2-5:text}         the text repeated 2 to 5 times (each repetition drawn afresh)

``\\{``, ``\\}`` and ``\\|`` stand for the literal characters.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Union

from ..categories import Category, FINE_TYPES, parse_category
from ..errors import ConfigError
from ..paths import resource

CONVENTIONS: tuple[str, ...] = ("US", "UK", "AU", "NZ")

NOTE_TYPES: tuple[str, ...] = (
    "discharge_summary",
    "referral_letter",
    "clinic_letter",
    "outpatient_letter",
    "radiology_report",
    "progress_note",
    "nursing_note",
    "phone_message",
    "lab_report",
    "operation_note",
    "ed_triage",
    "medication_list",
    "mental_health_note",
)

# How a person slot may be written. Formats in NAME_FORMATS_PLAIN render no PHI (pronouns,
# titles, the relation word) and so carry no span.
NAME_FORMATS: frozenset[str] = frozenset(
    {
        "full", "first", "last", "middle", "full_middle",
        "last_first", "LAST_first", "LAST_FIRST_mi", "LAST", "FIRST", "FULL",
        "first_lower", "last_lower", "full_lower",
        "initial_last", "initials", "initials_lower", "initials_dots",
        "title_last", "title_full", "title_initial_last", "title_LAST",
        "username",
    }
)
NAME_FORMATS_PLAIN: frozenset[str] = frozenset(
    {"title", "he", "He", "his", "His", "him", "relation", "Relation", "rel_short", "sex", "male", "man"}
)

# the shipped templates: beside the checkout, or inside an installed wheel (paths.resource)
DEFAULT_ROOT = resource("templates")

_SLOT = re.compile(r"([A-Z][A-Z_]*?)(\d*)(?:\.([A-Za-z0-9_]+))?")
_PHRASE = re.compile(r"[a-z][a-z0-9_]*")
_REPEAT = re.compile(r"(\d+)(?:-(\d+))?")
_FAMILY = re.compile(r"[a-z][a-z0-9_]*")


# --- the syntax tree ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Text:
    value: str


@dataclass(frozen=True, slots=True)
class Slot:
    kind: str  # "DOCTOR2": the kind ("DOCTOR") plus a number that makes it another entity
    base: str  # "DOCTOR"
    arg: str  # name format for persons, memo key for values; "" when absent


@dataclass(frozen=True, slots=True)
class Phrase:
    name: str


@dataclass(frozen=True, slots=True)
class Choice:
    options: tuple[tuple["Node", ...], ...]


@dataclass(frozen=True, slots=True)
class Maybe:
    probability: float
    body: tuple["Node", ...]


@dataclass(frozen=True, slots=True)
class Repeat:
    low: int
    high: int
    body: tuple["Node", ...]


Node = Union[Text, Slot, Phrase, Choice, Maybe, Repeat]


class TemplateSyntaxError(ValueError):
    """A template body does not follow the template language; the message gives the line."""


def parse(source: str) -> tuple[Node, ...]:
    parser = _Parser(source)
    nodes = parser.sequence(nested=False, in_choice=False)
    return tuple(nodes)


class _Parser:
    def __init__(self, source: str) -> None:
        self.s = source
        self.i = 0

    def fail(self, reason: str, at: int | None = None) -> TemplateSyntaxError:
        pos = self.i if at is None else at
        line = self.s.count("\n", 0, pos) + 1
        return TemplateSyntaxError(f"line {line}: {reason}")

    def sequence(self, *, nested: bool, in_choice: bool) -> list[Node]:
        s, n = self.s, len(self.s)
        nodes: list[Node] = []
        buf: list[str] = []

        def flush() -> None:
            if buf:
                nodes.append(Text("".join(buf)))
                buf.clear()

        while self.i < n:
            c = s[self.i]
            if c == "\\" and self.i + 1 < n and s[self.i + 1] in "{}|\\":
                buf.append(s[self.i + 1])
                self.i += 2
            elif c == "{":
                flush()
                self.i += 1
                nodes.append(self.construct())
            elif c == "}":
                if not nested:
                    raise self.fail("'}' without a matching '{'")
                break
            elif c == "|" and in_choice:
                break
            else:
                buf.append(c)
                self.i += 1
        if nested and self.i >= n:
            raise self.fail("'{' is never closed")
        flush()
        return nodes

    def word_until(self, stops: str) -> str:
        start = self.i
        while self.i < len(self.s) and self.s[self.i] not in stops:
            self.i += 1
        if self.i >= len(self.s):
            raise self.fail("'{' is never closed", start)
        return self.s[start : self.i]

    def expect(self, ch: str) -> None:
        if self.i >= len(self.s) or self.s[self.i] != ch:
            raise self.fail(f"expected {ch!r}")
        self.i += 1

    def construct(self) -> Node:
        start = self.i
        if self.i >= len(self.s):
            raise self.fail("'{' is never closed")
        head = self.s[self.i]
        if head == "@":
            self.i += 1
            name = self.word_until("}")
            self.expect("}")
            if not _PHRASE.fullmatch(name):
                raise self.fail(f"bad phrase list name {name!r}", start)
            return Phrase(name)
        if head == "=":
            self.i += 1
            options: list[tuple[Node, ...]] = []
            while True:
                options.append(tuple(self.sequence(nested=True, in_choice=True)))
                if self.s[self.i] == "|":
                    self.i += 1
                    continue
                self.expect("}")
                return Choice(tuple(options))
        if head == "?":
            self.i += 1
            text = self.word_until(":}")
            try:
                probability = float(text)
            except ValueError:
                raise self.fail(f"bad probability {text!r}", start) from None
            if not 0.0 <= probability <= 1.0:
                raise self.fail(f"probability {text} is outside 0..1", start)
            self.expect(":")
            body = tuple(self.sequence(nested=True, in_choice=False))
            self.expect("}")
            return Maybe(probability, body)
        if head == "*":
            self.i += 1
            text = self.word_until(":}")
            m = _REPEAT.fullmatch(text)
            if not m:
                raise self.fail(f"bad repeat count {text!r}", start)
            low = int(m.group(1))
            high = int(m.group(2) or low)
            if high < low:
                raise self.fail(f"repeat range {text} runs backwards", start)
            self.expect(":")
            body = tuple(self.sequence(nested=True, in_choice=False))
            self.expect("}")
            return Repeat(low, high, body)
        text = self.word_until("}")
        self.expect("}")
        m = _SLOT.fullmatch(text)
        if not m:
            raise self.fail(f"bad slot {text!r}", start)
        base, number, arg = m.group(1), m.group(2), m.group(3) or ""
        return Slot(kind=base + number, base=base, arg=arg)


def walk(nodes: tuple[Node, ...]):
    """Every node of a tree, depth first."""
    for node in nodes:
        yield node
        if isinstance(node, Choice):
            for option in node.options:
                yield from walk(option)
        elif isinstance(node, (Maybe, Repeat)):
            yield from walk(node.body)


# --- the data: templates, phrase lists, slot kinds -----------------------------------------


@dataclass(frozen=True)
class Template:
    family: str
    note_type: str
    convention: str
    description: str
    body: tuple[Node, ...] = field(repr=False)
    path: Path | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class PersonKind:
    role: str  # the fine NAME type of its spans: PATIENT, DOCTOR, RELATIVE, OTHER
    title: str  # courtesy | doctor | surgeon | none


@dataclass(frozen=True)
class ValueKind:
    category: Category
    fine: dict[str, str]  # convention (or "*") -> fine type of the span
    sample: dict[str, str]  # convention (or "*") -> fine type asked of the generator
    # convention (or "*") -> patterns such as "{CITY.org} NHS Foundation Trust": the value is
    # built from generated parts and labelled as one span of this kind (the generators have
    # no NHS Trusts or District Health Boards of their own).
    compose: dict[str, tuple[tuple["Node", ...], ...]] = field(default_factory=dict)

    def patterns_for(self, convention: str) -> tuple[tuple["Node", ...], ...]:
        return self.compose.get(convention) or self.compose.get("*") or ()

    def fine_for(self, convention: str) -> str:
        return self.fine.get(convention) or self.fine["*"]

    def sample_for(self, convention: str) -> str:
        return self.sample.get(convention) or self.sample.get("*") or self.fine_for(convention)


@dataclass(frozen=True)
class Relation:
    word: str
    short: str
    gender: str | None  # "F", "M" or None where the relation does not imply one


@dataclass(frozen=True)
class Library:
    """Everything templates refer to: phrase lists, slot kinds, relations."""

    phrases: dict[str, dict[str, tuple[tuple[Node, ...], ...]]]  # name -> convention|"*" -> items
    persons: dict[str, PersonKind]
    values: dict[str, ValueKind]
    relations: tuple[Relation, ...]

    def phrase_items(self, name: str, convention: str) -> tuple[tuple[Node, ...], ...]:
        table = self.phrases[name]
        items = table.get(convention)
        return items if items is not None else table["*"]

    def has_phrase(self, name: str, convention: str) -> bool:
        table = self.phrases.get(name)
        return table is not None and (convention in table or "*" in table)


def _read_toml(path: Path) -> dict:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except OSError as exc:
        raise ConfigError(f"{path.name}: cannot be read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path.name}: not valid TOML ({exc})") from None


def _by_convention(value, path: Path, what: str) -> dict[str, object]:
    """A value given once for all conventions, or as a table keyed by convention/"default"."""
    if not isinstance(value, dict):
        return {"*": value}
    out: dict[str, object] = {}
    for key, item in value.items():
        if key == "default":
            out["*"] = item
        elif key in CONVENTIONS:
            out[key] = item
        else:
            raise ConfigError(f"{path.name}: {what} has unknown convention {key!r}")
    return out


def load_library(root: Path | None = None) -> Library:
    root = Path(root) if root is not None else DEFAULT_ROOT
    phrases_path = root / "phrases.toml"
    raw_phrases = _read_toml(phrases_path)
    phrases: dict[str, dict[str, tuple[tuple[Node, ...], ...]]] = {}
    for name, value in raw_phrases.items():
        if not _PHRASE.fullmatch(name):
            raise ConfigError(f"{phrases_path.name}: bad phrase list name {name!r}")
        table: dict[str, tuple[tuple[Node, ...], ...]] = {}
        for conv, items in _by_convention(value, phrases_path, name).items():
            if not isinstance(items, list) or not items or not all(isinstance(x, str) for x in items):
                raise ConfigError(f"{phrases_path.name}: {name} must be a non-empty list of strings")
            parsed = []
            for k, item in enumerate(items):
                try:
                    parsed.append(parse(item))
                except TemplateSyntaxError as exc:
                    raise ConfigError(f"{phrases_path.name}: {name} item {k + 1}: {exc}") from None
            table[conv] = tuple(parsed)
        phrases[name] = table

    slots_path = root / "slots.toml"
    raw = _read_toml(slots_path)
    persons: dict[str, PersonKind] = {}
    for kind, spec in raw.get("person", {}).items():
        role = str(spec.get("role", "OTHER")).upper()
        if role not in FINE_TYPES[Category.NAME]:
            raise ConfigError(f"{slots_path.name}: person {kind} has unknown role {role!r}")
        persons[kind] = PersonKind(role=role, title=str(spec.get("title", "none")))
    values: dict[str, ValueKind] = {}
    for kind, spec in raw.get("value", {}).items():
        try:
            category = parse_category(str(spec["category"]))
        except (KeyError, ValueError) as exc:
            raise ConfigError(f"{slots_path.name}: value {kind}: {exc}") from None
        fine = {k: str(v).upper() for k, v in _by_convention(spec.get("fine", "OTHER"), slots_path, kind).items()}
        if "*" not in fine:
            fine["*"] = "OTHER"
        for f in fine.values():
            if f not in FINE_TYPES[category]:
                raise ConfigError(f"{slots_path.name}: value {kind} has fine type {f!r} outside {category}")
        sample = {k: str(v).upper() for k, v in _by_convention(spec.get("sample", {}), slots_path, kind).items()}
        compose: dict[str, tuple[tuple[Node, ...], ...]] = {}
        for conv, patterns in _by_convention(spec.get("compose", {}), slots_path, kind).items():
            if not isinstance(patterns, list) or not patterns:
                raise ConfigError(f"{slots_path.name}: value {kind} compose must list patterns")
            try:
                compose[conv] = tuple(parse(str(p)) for p in patterns)
            except TemplateSyntaxError as exc:
                raise ConfigError(f"{slots_path.name}: value {kind} compose: {exc}") from None
        values[kind] = ValueKind(category=category, fine=fine, sample=sample, compose=compose)
    overlap = set(persons) & set(values)
    if overlap:
        raise ConfigError(f"{slots_path.name}: kinds both person and value: {sorted(overlap)}")
    for kind, vkind in values.items():
        for patterns in vkind.compose.values():
            for nodes in patterns:
                for node in walk(nodes):
                    # One level only: a part is drawn straight from a generator.
                    if isinstance(node, Phrase) or (isinstance(node, Slot) and (
                            node.base not in values or values[node.base].compose)):
                        raise ConfigError(f"{slots_path.name}: value {kind} compose may use only plain value slots")
    relations = tuple(
        Relation(word=str(r["word"]), short=str(r.get("short", r["word"])), gender=r.get("gender"))
        for r in raw.get("relation", [])
    )
    if not relations:
        raise ConfigError(f"{slots_path.name}: no [[relation]] entries")
    return Library(phrases=phrases, persons=persons, values=values, relations=relations)


def _check(nodes: tuple[Node, ...], convention: str, library: Library, path: Path, seen: set[str]) -> None:
    for node in walk(nodes):
        if isinstance(node, Phrase):
            if not library.has_phrase(node.name, convention):
                raise ConfigError(f"{path.name}: unknown phrase list {node.name!r}")
            if node.name in seen:
                continue
            seen.add(node.name)
            for item in library.phrase_items(node.name, convention):
                _check(item, convention, library, path, seen)
        elif isinstance(node, Slot):
            if node.base in library.persons:
                if node.arg and node.arg not in NAME_FORMATS and node.arg not in NAME_FORMATS_PLAIN:
                    raise ConfigError(f"{path.name}: unknown name format {node.arg!r} in {{{node.kind}}}")
            elif node.base not in library.values:
                raise ConfigError(f"{path.name}: unknown slot kind {node.kind!r}")


def load_template_file(path: Path, library: Library) -> Template:
    raw = _read_toml(path)
    try:
        family, note_type, convention, body = raw["family"], raw["note_type"], raw["convention"], raw["body"]
    except KeyError as exc:
        raise ConfigError(f"{path.name}: missing key {exc.args[0]!r}") from None
    if not _FAMILY.fullmatch(str(family)):
        raise ConfigError(f"{path.name}: bad family name {family!r}")
    if note_type not in NOTE_TYPES:
        raise ConfigError(f"{path.name}: unknown note_type {note_type!r}")
    if convention not in CONVENTIONS:
        raise ConfigError(f"{path.name}: unknown convention {convention!r}")
    try:
        nodes = parse(str(body).lstrip("\n"))
    except TemplateSyntaxError as exc:
        raise ConfigError(f"{path.name}: {exc}") from None
    template = Template(
        family=family,
        note_type=note_type,
        convention=convention,
        description=str(raw.get("description", "")),
        body=nodes,
        path=path,
    )
    _check(template.body, template.convention, library, path, set())
    return template


def load_template_files(root: Path | None = None, library: Library | None = None) -> list[Template]:
    root = Path(root) if root is not None else DEFAULT_ROOT
    library = library if library is not None else load_library(root)
    templates: list[Template] = []
    seen: dict[str, Path] = {}
    for path in sorted((root / "families").rglob("*.toml")):
        template = load_template_file(path, library)
        if template.family in seen:
            raise ConfigError(f"{path.name}: family {template.family!r} also defined in {seen[template.family].name}")
        seen[template.family] = path
        templates.append(template)
    if not templates:
        raise ConfigError(f"{root.name}: no template families found under families/")
    return templates
