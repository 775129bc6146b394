"""BRAT standoff: a folder (or one file) of NAME.txt + NAME.ann pairs; "T1<TAB>NAME 0 5<TAB>text";
fine types as attributes "A1<TAB>Fine T1 DOCTOR"."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable

from ...categories import Category
from ...errors import ConfigError
from ...safe_files import atomic_text
from ...spans import first_of_overlaps, sort_spans
from .base import AnnotatedDocument, LabelMapper, ReadReport, make_span
from .registry import register


_BRAT_T = re.compile(r"^(T\d+)\t(\S+) ([\d ;]+)\t?(.*)$")
_BRAT_A = re.compile(r"^(?:A|M)\d+\t(\S+) (T\d+)(?: (\S+))?$")


def _brat_pairs(p: Path) -> list[tuple[Path, Path | None]]:
    if p.is_dir():
        return [(t, t.with_suffix(".ann") if t.with_suffix(".ann").is_file() else None) for t in sorted(p.glob("*.txt"))]
    txt = p.with_suffix(".txt")
    if not txt.is_file():
        raise ConfigError(f"{p.name}: the matching .txt file is missing")
    ann = p.with_suffix(".ann")
    return [(txt, ann if ann.is_file() else None)]


def read_brat(p: Path, mapper: LabelMapper, report: ReadReport) -> list[AnnotatedDocument]:
    out = []
    for txt, ann in _brat_pairs(p):
        # newline="" keeps \r\n as two characters, as brat counts them.
        with txt.open(encoding="utf-8-sig", newline="") as f:
            text = f.read()
        spans: dict[str, list[tuple[int, int, str]]] = {}
        fine: dict[str, str] = {}
        if ann is not None:
            for n, line in enumerate(ann.read_text(encoding="utf-8-sig").splitlines(), 1):
                if not line.strip() or line[0] in "#RE*N":
                    continue  # notes, relations, events, equivalences, normalisations
                m = _BRAT_T.match(line)
                if m:
                    frags = []
                    for frag in m.group(3).split(";"):
                        bits = frag.split()
                        if len(bits) == 2:
                            frags.append((int(bits[0]), int(bits[1]), m.group(2)))
                    spans[m.group(1)] = frags
                    continue
                a = _BRAT_A.match(line)
                if a and a.group(1).lower() in ("fine", "sublabel", "type") and a.group(3):
                    fine[a.group(2)] = a.group(3)
                    continue
                report.problems.append(f"{ann.name} line {n}: not a brat annotation line")
        doc_spans = []
        for tid, frags in spans.items():
            for s, e, label in frags:
                sp = make_span(text, s, e, label, fine.get(tid), mapper, report, f"{ann.name if ann else txt.name} {tid}")
                if sp:
                    doc_spans.append(sp)
        out.append(AnnotatedDocument(txt.stem, text, sort_spans(doc_spans)))
    return out


def _safe_name(doc_id: str, k: int) -> str:
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", doc_id).strip("._") or f"doc{k}"
    return stem[:80]


def write_brat(docs: Iterable[AnnotatedDocument], out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    used: set[str] = set()
    for k, d in enumerate(docs, 1):
        name = _safe_name(d.id, k)
        while name in used:
            name = f"{name}_{k}"
        used.add(name)
        with atomic_text(out / f"{name}.txt", newline="") as f:
            f.write(d.text)
        lines = []
        attrs = []
        for i, s in enumerate(first_of_overlaps(d.spans), 1):
            frags = []
            # brat fragments cannot hold a line break
            for a, b in _line_fragments(d.text, s.start, s.end):
                frags.append((a, b))
            offsets = ";".join(f"{a} {b}" for a, b in frags)
            shown = " ".join(d.text[a:b] for a, b in frags)
            lines.append(f"T{i}\t{s.category.value} {offsets}\t{shown}")
            if s.fine != "OTHER":
                attrs.append(f"A{len(attrs) + 1}\tFine T{i} {s.fine}")
        with atomic_text(out / f"{name}.ann", newline="\n") as f:
            f.write("".join(line + "\n" for line in lines + attrs))
        n += 1
    fines = sorted({f for c in Category for f in _fines(c)})
    conf = "[entities]\n" + "\n".join(c.value for c in Category) + "\n\n[relations]\n\n[events]\n\n[attributes]\n"
    conf += f"Fine\tArg:<ENTITY>, Value:{'|'.join(fines)}\n"
    with atomic_text(out / "annotation.conf", newline="\n") as f:
        f.write(conf)
    return n


def _fines(c: Category) -> list[str]:
    from ...categories import FINE_TYPES

    return [f for f in FINE_TYPES[c] if f != "OTHER"]


def _line_fragments(text: str, s: int, e: int) -> list[tuple[int, int]]:
    out = []
    pos = s
    for m in re.finditer(r"[\r\n]+", text[s:e]):
        if m.start() + s > pos:
            out.append((pos, m.start() + s))
        pos = m.end() + s
    if e > pos:
        out.append((pos, e))
    return out or [(s, e)]


register("brat", read_brat, write_brat, writes_folder=True)
