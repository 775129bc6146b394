"""Allow-list and deny-list: terms a workspace has declared never PHI or always PHI.

Allow terms are local eponyms, drug and device names, the hospital's own service names;
deny terms are staff lists, vendor and software names (004 keeps such per-institution lists).
A term is a literal (matched case-insensitively, whole words, any run of spaces between its
words) or a regular expression. Each term carries a scope: the whole workspace, one subject
or one document.

The deny list is a detector (``allow_deny`` in the registry, usable as an ensemble member).
The allow list cannot be a member, because a member can only add votes; it is applied as a
filter on the combined output with ``apply_allow_list``.

Plain list files, so lists move between workspaces and sites: one term per line for an
allow list, ``CATEGORY<TAB>term`` for a deny list; ``re:`` before a term marks a regular
expression; blank lines and lines starting with ``#`` are ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Literal

from ..categories import Category, normalise_fine, parse_category
from ..errors import ConfigError
from ..safe_files import write_atomic_text
from ..spans import Span, sort_spans
from .base import Detector, register

ListKind = Literal["allow", "deny"]
KINDS: tuple[str, ...] = ("allow", "deny")
SCOPES: tuple[str, ...] = ("workspace", "subject", "document")
REGEX_PREFIX = "re:"
SOURCE = "allow_deny"


@dataclass(frozen=True)
class ListTerm:
    kind: ListKind
    term: str
    is_regex: bool = False
    category: Category | None = None  # deny terms only: what the match is
    fine: str = "OTHER"
    scope: str = "workspace"
    scope_id: str = ""  # document id or subject id as text; "" for the workspace
    id: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown list {self.kind!r}; expected allow or deny")
        if self.scope not in SCOPES:
            raise ValueError(f"unknown scope {self.scope!r}; expected one of {', '.join(SCOPES)}")
        if not self.term.strip():
            raise ValueError("a list term must not be empty")
        if self.kind == "deny":
            if self.category is None:
                raise ValueError("a deny-list term needs a PHI category")
            if not isinstance(self.category, Category):
                object.__setattr__(self, "category", parse_category(str(self.category)))
            object.__setattr__(self, "fine", normalise_fine(self.category, self.fine))
        else:
            object.__setattr__(self, "category", None)
            object.__setattr__(self, "fine", "OTHER")
        object.__setattr__(self, "scope_id", "" if self.scope == "workspace" else str(self.scope_id))
        term_pattern(self.term, self.is_regex)  # refuse a bad expression when the term is made

    @property
    def pattern(self) -> re.Pattern[str]:
        return term_pattern(self.term, self.is_regex)


@lru_cache(maxsize=4096)
def term_pattern(term: str, is_regex: bool) -> re.Pattern[str]:
    if is_regex:
        try:
            return re.compile(term)
        except re.error as e:
            # The reason only: the expression may itself contain a name.
            raise ValueError(f"not a valid regular expression ({e.msg})") from None
    body = r"\s+".join(re.escape(w) for w in term.split())
    # Whole words only: "Ward" in an allow list must not touch "Edwards".
    return re.compile(rf"(?<!\w){body}(?!\w)", re.IGNORECASE)


def matches(text: str, terms: Iterable[ListTerm]) -> list[tuple[int, int, ListTerm]]:
    out: list[tuple[int, int, ListTerm]] = []
    for t in terms:
        for m in t.pattern.finditer(text):
            if m.end() > m.start():
                out.append((m.start(), m.end(), t))
    return out


def deny_spans(text: str, terms: Iterable[ListTerm]) -> list[Span]:
    """A span for every match of every deny term (score 1: the user said always)."""
    found: dict[tuple[int, int], Span] = {}
    for s, e, t in matches(text, (t for t in terms if t.kind == "deny")):
        found.setdefault((s, e), Span(s, e, t.category, t.fine, 1.0, source=SOURCE))  # type: ignore[arg-type]
    return sort_spans(found.values())


def _trimmed(text: str, s: int, e: int) -> tuple[int, int] | None:
    while s < e and (text[s].isspace() or text[s] in ",;:.()[]{}\"'-/"):
        s += 1
    while e > s and (text[e - 1].isspace() or text[e - 1] in ",;:()[]{}\"'-/"):
        e -= 1
    if e <= s or not any(ch.isalnum() for ch in text[s:e]):
        return None
    return s, e


def apply_allow_list(text: str, spans: Iterable[Span], terms: Iterable[ListTerm]) -> list[Span]:
    """``spans`` without the characters an allow term matches.

    A span inside an allowed stretch disappears; a span that only partly overlaps keeps the
    rest of itself ("Dr Smith Parkinson" with "Parkinson" allowed keeps "Dr Smith") when that
    rest still holds a letter or digit. Deny terms in ``terms`` are ignored here.
    """
    allowed = sorted((s, e) for s, e, _ in matches(text, (t for t in terms if t.kind == "allow")))
    spans = list(spans)
    if not allowed:
        return spans
    out: list[Span] = []
    for sp in spans:
        pieces = [(sp.start, sp.end)]
        for a, b in allowed:
            if b <= sp.start or a >= sp.end:
                continue
            nxt: list[tuple[int, int]] = []
            for s, e in pieces:
                if b <= s or a >= e:
                    nxt.append((s, e))
                    continue
                if s < a:
                    nxt.append((s, a))
                if b < e:
                    nxt.append((b, e))
            pieces = nxt
        if pieces == [(sp.start, sp.end)]:
            out.append(sp)
            continue
        for s, e in pieces:
            kept = _trimmed(text, s, e)
            if kept is not None:
                out.append(sp.with_(start=kept[0], end=kept[1]))
    return sort_spans(out)


# -- plain list files ----------------------------------------------------------------------


def parse_terms(lines: Iterable[str], kind: ListKind, *, scope: str = "workspace", scope_id: str = "", name: str = "list") -> list[ListTerm]:
    """Terms of a plain list file; ``name`` is only used in error messages."""
    out: list[ListTerm] = []
    for n, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        category: Category | None = None
        fine = "OTHER"
        if kind == "deny":
            if "\t" not in line:
                raise ConfigError(f"{name} line {n}: a deny-list line is CATEGORY<TAB>term")
            label, line = line.split("\t", 1)
            cat_s, _, fine_s = label.strip().partition("/")
            try:
                category = parse_category(cat_s)
            except ValueError as e:
                raise ConfigError(f"{name} line {n}: {e}") from None
            fine = fine_s or "OTHER"
        term = line.strip()
        is_regex = term.startswith(REGEX_PREFIX)
        if is_regex:
            term = term[len(REGEX_PREFIX):]
        try:
            out.append(ListTerm(kind, term, is_regex, category, fine, scope, scope_id))
        except ValueError as e:
            raise ConfigError(f"{name} line {n}: {e}") from None
    return out


def read_terms_file(path: str | Path, kind: ListKind, *, scope: str = "workspace", scope_id: str = "") -> list[ListTerm]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ConfigError(f"{p.name}: no such list file") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{p.name}: a list file must be UTF-8 text") from None
    return parse_terms(text.splitlines(), kind, scope=scope, scope_id=scope_id, name=p.name)


def format_terms(terms: Iterable[ListTerm]) -> str:
    lines = []
    for t in terms:
        term = (REGEX_PREFIX + t.term) if t.is_regex else t.term
        if t.kind == "deny":
            label = t.category.value if t.fine == "OTHER" else f"{t.category.value}/{t.fine}"  # type: ignore[union-attr]
            lines.append(f"{label}\t{term}")
        else:
            lines.append(term)
    return "".join(line + "\n" for line in lines)


def write_terms_file(path: str | Path, terms: Iterable[ListTerm]) -> int:
    terms = list(terms)
    # deny lists are patients' names: the file is as private as the workspace
    write_atomic_text(path, format_terms(terms))
    return len(terms)


# -- the detector ---------------------------------------------------------------------------


@register("allow_deny")
class AllowDenyList(Detector):
    """Deny-list matches as spans; ``filter`` applies the allow list to any spans.

    Options (from an ensemble TOML): ``deny_file`` / ``allow_file`` (plain list files) and/or
    ``workspace`` (a workspace file, whose workspace-wide terms are used)."""

    authoritative = True  # the user's own terms / approved rules

    def __init__(
        self,
        terms: Iterable[ListTerm] | None = None,
        *,
        deny_file: str | None = None,
        allow_file: str | None = None,
        workspace: str | None = None,
    ):
        loaded = list(terms or [])
        if deny_file:
            loaded += read_terms_file(deny_file, "deny")
        if allow_file:
            loaded += read_terms_file(allow_file, "allow")
        if workspace:
            from .workspace_sources import workspace_terms_from_file

            loaded += workspace_terms_from_file(workspace)
        self.terms = loaded

    @property
    def allow_terms(self) -> list[ListTerm]:
        return [t for t in self.terms if t.kind == "allow"]

    @property
    def deny_terms(self) -> list[ListTerm]:
        return [t for t in self.terms if t.kind == "deny"]

    def detect(self, text: str) -> list[Span]:
        return deny_spans(text, self.deny_terms)

    def filter(self, text: str, spans: Iterable[Span]) -> list[Span]:
        return apply_allow_list(text, spans, self.allow_terms)

    def describe(self) -> dict:
        return {"type": "allow_deny", "allow": len(self.allow_terms), "deny": len(self.deny_terms)}
