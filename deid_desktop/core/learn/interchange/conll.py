"""CoNLL: "token TAG" per line (BIO, or BIOES/BILOU prefixes on reading), a blank line between
sentences, "-DOCSTART-" (or two blank lines) between documents."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterable

from ...safe_files import atomic_text
from ...spans import Span, first_of_overlaps
from ...text import sentences
from .base import AnnotatedDocument, LabelMapper, ReadReport, make_span
from .registry import register


_DOCSTART = "-DOCSTART-"
_TAG = re.compile(r"^([BIESLU])[-_](.+)$")


def _conll_documents(lines: list[str]) -> list[list[list[tuple[str, str]]]]:
    """Documents -> sentences -> (token, tag)."""
    has_docstart = any(line.split()[:1] == [_DOCSTART] for line in lines if line.strip())
    docs: list[list[list[tuple[str, str]]]] = [[]]
    sent: list[tuple[str, str]] = []
    blanks = 0

    def end_sentence() -> None:
        nonlocal sent
        if sent:
            docs[-1].append(sent)
            sent = []

    for line in lines:
        cols = line.split()
        if not cols:
            blanks += 1
            end_sentence()
            if not has_docstart and blanks == 2 and docs[-1]:
                docs.append([])
            continue
        blanks = 0
        if cols[0] == _DOCSTART:
            end_sentence()
            if docs[-1]:
                docs.append([])
            continue
        sent.append((cols[0], cols[-1] if len(cols) > 1 else "O"))
    end_sentence()
    return [d for d in docs if d]


def read_conll(p: Path, mapper: LabelMapper, report: ReadReport) -> list[AnnotatedDocument]:
    lines = p.read_text(encoding="utf-8-sig").splitlines()
    out = []
    for k, doc in enumerate(_conll_documents(lines), 1):
        pieces: list[str] = []
        spans: list[Span] = []
        pos = 0
        open_span: list[Any] | None = None  # [start, end, label]

        def close() -> None:
            nonlocal open_span
            if open_span is not None:
                sp = make_span(text_so_far(), open_span[0], open_span[1], open_span[2], None, mapper, report, f"{p.name} document {k}")
                if sp:
                    spans.append(sp)
                open_span = None

        def text_so_far() -> str:
            return "".join(pieces)

        for si, sent in enumerate(doc):
            if si:
                close()
                pieces.append("\n")
                pos += 1
            for ti, (token, tag) in enumerate(sent):
                if ti:
                    pieces.append(" ")
                    pos += 1
                start, end = pos, pos + len(token)
                pieces.append(token)
                pos = end
                m = _TAG.match(tag)
                if m is None:  # "O" or anything without a prefix
                    close()
                    continue
                prefix, label = m.group(1), m.group(2)
                continues = open_span is not None and open_span[2] == label and prefix in ("I", "E", "L")
                if continues:
                    open_span[1] = end  # type: ignore[index]
                else:
                    close()
                    open_span = [start, end, label]
                if prefix in ("E", "L", "S", "U"):
                    close()
        close()
        text = "".join(pieces) + "\n"
        out.append(AnnotatedDocument(f"{p.stem}-{k}", text, spans))
    return out


_NON_SPACE = re.compile(r"\S+")


def write_conll(docs: Iterable[AnnotatedDocument], out: Path) -> int:
    n = 0
    with atomic_text(out, newline="\n") as f:
        for d in docs:
            f.write(f"{_DOCSTART} O\n\n")
            spans = first_of_overlaps(d.spans)
            for ss, se in sentences(d.text):
                cuts = sorted({x for sp in spans for x in (sp.start, sp.end) if ss < x < se})
                rows = []
                prev_span: Span | None = None
                # Whitespace tokens, cut at span edges: "12/03/2024" stays one token and comes
                # back whole, while "Walker," still splits into "Walker" and ",".
                for ts, te in _split_at(_ws_tokens(d.text, ss, se), cuts):
                    sp = next((x for x in spans if x.start < te and ts < x.end), None)
                    if sp is None:
                        tag = "O"
                    elif sp is prev_span:
                        tag = f"I-{sp.category.value}"
                    else:
                        tag = f"B-{sp.category.value}"
                    prev_span = sp
                    rows.append(f"{d.text[ts:te]} {tag}")
                if rows:
                    f.write("\n".join(rows) + "\n\n")
            n += 1
    return n


def _ws_tokens(text: str, start: int, end: int) -> list[tuple[int, int]]:
    return [m.span() for m in _NON_SPACE.finditer(text, start, end)]


def _split_at(tokens: list[tuple[int, int]], cuts: list[int]) -> list[tuple[int, int]]:
    """Tokens cut where a span starts or ends inside them, so tags fit spans exactly."""
    out = []
    for s, e in tokens:
        inner = [c for c in cuts if s < c < e]
        prev = s
        for c in inner:
            out.append((prev, c))
            prev = c
        out.append((prev, e))
    return out


register("conll", read_conll, write_conll)
