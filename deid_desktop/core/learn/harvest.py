"""Rules that learn (001): templates and inclusion sentences harvested from reviewed documents.

Templates. Every line of a reviewed document that holds PHI becomes a *syntax template*:
each token is mapped to its shape (W a word, N a number, A letters and digits mixed),
punctuation is kept, and each final span becomes a slot named by its category:

    "Ward: Kowhai  Bed: 12  Consultant: Dr Hemi Walker"  ->  "Ward: W Bed: N Consultant: <NAME>"

Lines with the same shape and the same word before each slot are grouped; inside a group a
word every instance shares stays literal ("Ward", "Bed", "Consultant"), the rest become
shapes. The group's template turns into a regular expression with a named group per slot.
The rule is proposed only when, over *all* reviewed documents, every line it matches carries
exactly that PHI layout, in at least ``min_support`` (3) different documents, and the
template keeps at least one literal word to anchor it. A person approves or rejects it.

Inclusion sentences. A sentence confirmed PHI-free (no final span touches it) in at least
``min_support`` reviewed documents, and never PHI-bearing in any, is proposed for the
inclusion list (sentences on it skip the models).

Nothing here stores or returns an example line: templates and patterns keep only words that
reviewers left unmarked in every instance.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from ..categories import Category
from ..detect.harvested import RuleSlot, TemplateRule
from ..spans import Span
from ..text import iter_lines, normalise_sentence, sentences, words

MIN_SUPPORT = 3
_TOKEN = re.compile(r"[^\W_]+|\S")
_UNIT = {"W": r"[^\W\d_]+", "N": r"\d+", "A": r"[^\W_]+"}


@dataclass(frozen=True)
class HarvestSource:
    """A reviewed document as harvesting sees it: a key (the document id), its text and its
    final spans."""

    key: str
    text: str
    spans: Sequence[Span]


def shape_of(token: str) -> str:
    if token.isdigit():
        return "N"
    if token.isalpha():
        return "W"
    if re.fullmatch(r"[^\W_]+", token):
        return "A"
    return token


@dataclass
class _Lit:
    text: str
    shape: str
    space_before: bool


@dataclass
class _Slot:
    category: Category
    fine: str
    units: list[str]
    seps: list[str]
    prefix: str
    tail: str
    case: str
    space_before: bool


_Element = _Lit | _Slot


def _case(units: list[str]) -> str:
    letters = [u for u in units if any(c.isalpha() for c in u)]
    if not letters:
        return "any"
    if all(u.isupper() for u in letters):
        return "upper"
    if all(u[0].isupper() for u in letters):
        return "title"
    if all(u.islower() for u in letters):
        return "lower"
    return "any"


def _collapse(gap: str) -> str:
    return re.sub(r"\s+", " ", gap)


def line_elements(text: str, ls: int, le: int, spans: Sequence[Span]) -> list[_Element] | None:
    """The line as literals and slots; None when a span does not fall on token edges (the
    rule language cannot express it) or crosses the line."""
    toks = [(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(text, ls, le)]
    inside = [s for s in spans if s.start < le and s.end > ls]
    if any(s.start < ls or s.end > le for s in inside):
        return None
    out: list[_Element] = []
    prev_end = ls
    i = 0
    while i < len(toks):
        s, e, t = toks[i]
        space = s > prev_end
        sp = next((x for x in inside if x.start < e and s < x.end), None)
        if sp is None:
            out.append(_Lit(t, shape_of(t), space))
            prev_end = e
            i += 1
            continue
        if sp.start != s:
            return None
        j = i
        while j < len(toks) and toks[j][0] < sp.end:
            j += 1
        if toks[j - 1][1] != sp.end:
            return None
        part = toks[i:j]
        word_idx = [k for k, (_, _, w) in enumerate(part) if re.fullmatch(r"[^\W_]+", w)]
        if not word_idx:
            return None
        first, last = word_idx[0], word_idx[-1]
        units = [part[k][2] for k in word_idx]
        seps = [_collapse(text[part[a][1] : part[b][0]]) for a, b in zip(word_idx, word_idx[1:])]
        prefix = text[part[0][0] : part[first][0]]
        tail = text[part[last][1] : part[-1][1]]
        out.append(
            _Slot(sp.category, sp.fine, [shape_of(u) for u in units], seps, _collapse(prefix), _collapse(tail), _case(units), space)
        )
        prev_end = sp.end
        i = j
    return out


def _layout(elements: list[_Element]) -> tuple:
    return tuple(("S", el.category.value) if isinstance(el, _Slot) else ("L", el.shape) for el in elements)


def _anchors(elements: list[_Element]) -> tuple:
    out = []
    last = "^"
    for el in elements:
        if isinstance(el, _Slot):
            out.append(last)
        elif el.shape == "W":
            last = el.text.casefold()
    return tuple(out)


def _space(flags: list[bool]) -> str:
    if all(flags):
        return r"[ \t]+"
    if not any(flags):
        return ""
    return r"[ \t]*"


def _sep_regex(sep: str) -> str:
    return "".join(r"[ \t]+" if ch == " " else re.escape(ch) for ch in sep)


def _optional(options: set[str]) -> str:
    options.discard("")
    if not options:
        return ""
    alts = "|".join(_sep_regex(o) for o in sorted(options, key=len, reverse=True))
    return f"(?:{alts})?"


def _slot_regex(slots: list[_Slot], group: str) -> str:
    shapes = {u for s in slots for u in s.units}
    unit = _UNIT["W"] if shapes == {"W"} else _UNIT["N"] if shapes == {"N"} else _UNIT["A"]
    seps = {x for s in slots for x in s.seps} or {" "}
    sep = "|".join(_sep_regex(x) for x in sorted(seps, key=len, reverse=True))
    lo = min(len(s.units) for s in slots) - 1
    hi = max(len(s.units) for s in slots)  # one more unit than ever seen: names grow
    body = f"{unit}(?:(?:{sep}){unit}){{{lo},{hi}}}"
    return f"(?P<{group}>{_optional({s.prefix for s in slots})}{body}{_optional({s.tail for s in slots})})"


def _consensus_case(cases: list[str]) -> str:
    if all(c == "upper" for c in cases):
        return "upper"
    if all(c in ("upper", "title") for c in cases):
        return "title"
    if all(c == "lower" for c in cases):
        return "lower"
    return "any"


def build_rule(instances: list[list[_Element]]) -> TemplateRule | None:
    """The rule a group of same-layout lines stands for; None without a literal word."""
    first = instances[0]
    pattern = [r"[ \t]*"]
    display: list[str] = []
    slots: list[RuleSlot] = []
    literal_word = False
    for p, el in enumerate(first):
        column = [inst[p] for inst in instances]
        space = _space([c.space_before for c in column]) if p > 0 else ""
        pattern.append(space)
        if display and any(c.space_before for c in column):
            display.append(" ")
        if isinstance(el, _Slot):
            col = [c for c in column if isinstance(c, _Slot)]
            group = f"s{len(slots)}"
            pattern.append(_slot_regex(col, group))
            fine = Counter(c.fine for c in col).most_common(1)[0][0]
            slots.append(RuleSlot(group, el.category, fine, _consensus_case([c.case for c in col])))
            display.append(f"<{el.category.value}>")
            continue
        texts = {c.text.casefold() for c in column if isinstance(c, _Lit)}
        if len(texts) == 1:
            if el.shape in _UNIT:
                pattern.append(f"(?i:{re.escape(el.text)})")
                literal_word = literal_word or el.shape == "W"
            else:
                pattern.append(re.escape(el.text))
            display.append(el.text)
        else:
            pattern.append(_UNIT.get(el.shape, re.escape(el.text)))
            display.append(el.shape)
    if not literal_word or not slots:
        return None
    pattern.append(r"[ \t]*")
    return TemplateRule(template="".join(display), pattern="".join(pattern), slots=tuple(slots))


def check_rule(rule: TemplateRule, docs: Iterable[HarvestSource]) -> tuple[set[str], int]:
    """(documents where every match carried the rule's PHI layout, matches that did not)."""
    held: set[str] = set()
    broken = 0
    for d in docs:
        for ls, le in iter_lines(d.text):
            m = rule.regex.fullmatch(d.text, ls, le)
            if m is None:
                continue
            gold = {(s.start, s.end, s.category) for s in d.spans if s.start < le and s.end > ls}
            fired = {(*m.span(sl.group), sl.category) for sl in rule.slots if sl.accepts(m.group(sl.group))}
            if not fired:
                continue
            if fired == gold and len(fired) == len(rule.slots):
                held.add(d.key)
            else:
                broken += 1
    return held, broken


def harvest_templates(docs: Sequence[HarvestSource], *, min_support: int = MIN_SUPPORT) -> list[TemplateRule]:
    """Rules whose template held in at least ``min_support`` documents and never failed."""
    groups: dict[tuple, list[tuple[str, list[_Element]]]] = defaultdict(list)
    for d in docs:
        for ls, le in iter_lines(d.text):
            if not any(s.start < le and s.end > ls for s in d.spans):
                continue
            els = line_elements(d.text, ls, le, d.spans)
            if els is None:
                continue
            groups[(_layout(els), _anchors(els))].append((d.key, els))
    rules: dict[str, TemplateRule] = {}
    for members in groups.values():
        if len({k for k, _ in members}) < min_support:
            continue
        rule = build_rule([els for _, els in members])
        if rule is None or rule.pattern in rules:
            continue
        held, broken = check_rule(rule, docs)
        if broken == 0 and len(held) >= min_support:
            rules[rule.pattern] = TemplateRule(rule.template, rule.pattern, rule.slots, support=len(held))
    return sorted(rules.values(), key=lambda r: (-r.support, r.template))


@dataclass(frozen=True)
class SentenceProposal:
    key: str  # normalise_sentence(sentence)
    sentence: str  # as first seen
    support: int  # reviewed documents it was PHI-free in


def harvest_inclusion_sentences(
    docs: Sequence[HarvestSource], *, min_support: int = MIN_SUPPORT, min_words: int = 2
) -> list[SentenceProposal]:
    """Sentences PHI-free in at least ``min_support`` documents and PHI-bearing in none."""
    free: dict[str, set[str]] = defaultdict(set)
    first_seen: dict[str, str] = {}
    tainted: set[str] = set()
    for d in docs:
        for s, e in sentences(d.text):
            sent = d.text[s:e]
            if len([w for w in words(sent) if not sent[w[0] : w[1]].isdigit()]) < min_words:
                continue
            key = normalise_sentence(sent)
            if any(sp.start < e and s < sp.end for sp in d.spans):
                tainted.add(key)
                continue
            free[key].add(d.key)
            first_seen.setdefault(key, " ".join(sent.split()))
    out = [
        SentenceProposal(k, first_seen[k], len(ds))
        for k, ds in free.items()
        if k not in tainted and len(ds) >= min_support
    ]
    return sorted(out, key=lambda p: (-p.support, p.key))


@dataclass
class HarvestResult:
    rules: list[TemplateRule] = field(default_factory=list)
    sentences: list[SentenceProposal] = field(default_factory=list)
