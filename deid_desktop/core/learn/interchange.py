"""Annotations in and out: gold JSONL, BRAT standoff, CoNLL/BIO, and the JSON exports of
Prodigy, doccano and Label Studio — so reviewed documents move both ways between this app and
the annotation tools a team already uses.

Reading never trusts a file: offsets outside the text, unknown labels and malformed records
are counted and reported (by record number and label name, never by content) and skipped.
Foreign labels are mapped to our categories through the label maps under
``resources/label_maps/`` (PERSON, PER -> NAME; HOSPITAL -> ORGANIZATION/HOSPITAL; ...).

Formats (``FORMATS``):
  jsonl        {"id", "text", "spans": [{"start", "end", "label", "sublabel"}], "subject"?}
  brat         a folder (or one file) of NAME.txt + NAME.ann pairs; "T1<TAB>NAME 0 5<TAB>text";
               fine types as attributes "A1<TAB>Fine T1 DOCTOR"
  conll        "token TAG" per line (BIO, or BIOES/BILOU prefixes on reading), a blank line
               between sentences, "-DOCSTART-" (or two blank lines) between documents
  prodigy      ner_manual JSONL: text, tokens, spans with token_start/token_end, answer
  doccano      sequence-labelling JSONL: {"id", "text", "label": [[start, end, "LABEL"], ...]}
  labelstudio  a JSON list of tasks: {"data": {"text"}, "annotations": [{"result": [...]}]}
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

from ..categories import Category, normalise_fine, parse_category
from ..errors import ConfigError
from ..safe_files import atomic_text
from ..spans import Span, first_of_overlaps, sort_spans
from ..text import sentences

FORMATS = ("jsonl", "brat", "conll", "prodigy", "doccano", "labelstudio")
IMPORT_REVIEWER = "import"
_SHIPPED_MAPS = ("i2b2", "pii", "conll")


@dataclass
class AnnotatedDocument:
    id: str
    text: str
    spans: list[Span] = field(default_factory=list)
    subject: str | None = None


@dataclass
class ReadReport:
    """What reading skipped, in words that never quote a document."""

    documents: int = 0
    spans: int = 0
    unknown_labels: Counter = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        parts = [f"{self.documents} document(s), {self.spans} span(s)"]
        if self.unknown_labels:
            parts.append("unknown labels skipped: " + ", ".join(f"{k} ({v})" for k, v in sorted(self.unknown_labels.items())))
        if self.problems:
            parts.append(f"{len(self.problems)} problem(s)")
        return "; ".join(parts)


# -- labels -----------------------------------------------------------------------------------


class LabelMapper:
    """Foreign label -> (category, fine). Our own categories and "CATEGORY/FINE" first, then the
    shipped label maps in order, then an optional user table."""

    def __init__(self, extra: dict[str, str] | None = None):
        from ..models.label_map import LabelMap

        self.maps = []
        if extra:
            self.maps.append(LabelMap.from_dict(extra, name="custom"))
        for name in _SHIPPED_MAPS:
            try:
                self.maps.append(LabelMap.load(name))
            except ConfigError:
                continue

    def __call__(self, label: str, sublabel: str | None = None) -> tuple[Category, str] | None:
        from ..models.label_map import split_label

        raw = str(label).strip()
        head, sep, tail = raw.partition("/")
        try:
            cat = parse_category(head)
            return cat, normalise_fine(cat, sublabel or (tail if sep else None))
        except ValueError:
            pass
        _, bare = split_label(raw)
        for m in self.maps:
            hit = m.lookup(bare)
            if hit is False:
                continue
            if hit is None:
                return None
            cat, fine = hit  # type: ignore[misc]
            return cat, normalise_fine(cat, sublabel) if sublabel else fine
        raise KeyError(bare)


def _make_span(text: str, start: Any, end: Any, label: str, sublabel: str | None, mapper: LabelMapper, report: ReadReport, where: str) -> Span | None:
    try:
        s, e = int(start), int(end)
    except (TypeError, ValueError):
        report.problems.append(f"{where}: span offsets are not numbers")
        return None
    if not (0 <= s < e <= len(text)):
        report.problems.append(f"{where}: span {s}..{e} lies outside the text")
        return None
    try:
        meaning = mapper(label, sublabel)
    except KeyError as k:
        report.unknown_labels[str(k.args[0])] += 1
        return None
    if meaning is None:
        return None
    # Tools often include surrounding spaces in a selection; a span never does.
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    if e <= s:
        return None
    report.spans += 1
    return Span(s, e, meaning[0], meaning[1], 1.0, source=IMPORT_REVIEWER)


# -- format detection ----------------------------------------------------------------------------


def detect_format(path: str | Path) -> str:
    p = Path(path)
    if p.is_dir() or p.suffix.lower() in (".ann", ".txt"):
        return "brat"
    suffix = p.suffix.lower()
    if suffix in (".conll", ".bio", ".iob", ".iob2", ".tsv"):
        return "conll"
    if suffix == ".json":
        return "labelstudio"
    if suffix in (".jsonl", ".ndjson"):
        with p.open(encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    try:
                        first = json.loads(line)
                    except json.JSONDecodeError:
                        break
                    if isinstance(first, dict):
                        if "data" in first and "annotations" in first:
                            return "labelstudio"
                        if "tokens" in first or "answer" in first or "_task_hash" in first:
                            return "prodigy"
                        if "label" in first or "entities" in first:
                            return "doccano"
                    break
        return "jsonl"
    raise ConfigError(f"{p.name}: cannot tell the annotation format; give --format ({', '.join(FORMATS)})")


# -- reading ---------------------------------------------------------------------------------


def _jsonl_records(p: Path, report: ReadReport) -> Iterator[tuple[int, dict]]:
    with p.open(encoding="utf-8-sig") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError:
                report.problems.append(f"{p.name} line {n}: not valid JSON")
                continue
            if not isinstance(obj, dict) or not isinstance(obj.get("text"), str):
                report.problems.append(f"{p.name} line {n}: no string field 'text'")
                continue
            yield n, obj


def read_jsonl(p: Path, mapper: LabelMapper, report: ReadReport) -> list[AnnotatedDocument]:
    out = []
    for n, obj in _jsonl_records(p, report):
        text = obj["text"]
        where = f"{p.name} line {n}"
        spans = [
            sp
            for d in obj.get("spans") or []
            if isinstance(d, dict)
            and (sp := _make_span(text, d.get("start"), d.get("end"), d.get("label") or d.get("category") or "", d.get("sublabel") or d.get("fine"), mapper, report, where))
        ]
        subject = obj.get("subject") or (obj.get("meta") or {}).get("subject")
        out.append(AnnotatedDocument(str(obj.get("id", f"{p.stem}-{n}")), text, spans, str(subject) if subject else None))
    return out


def read_prodigy(p: Path, mapper: LabelMapper, report: ReadReport) -> list[AnnotatedDocument]:
    out = []
    for n, obj in _jsonl_records(p, report):
        if obj.get("answer", "accept") != "accept":
            continue  # rejected or ignored in Prodigy: not a reviewed document
        text = obj["text"]
        where = f"{p.name} line {n}"
        spans = [
            sp
            for d in obj.get("spans") or []
            if isinstance(d, dict) and (sp := _make_span(text, d.get("start"), d.get("end"), d.get("label", ""), d.get("sublabel"), mapper, report, where))
        ]
        meta = obj.get("meta") or {}
        doc_id = meta.get("id", obj.get("id", f"{p.stem}-{n}"))
        out.append(AnnotatedDocument(str(doc_id), text, spans, meta.get("subject")))
    return out


def read_doccano(p: Path, mapper: LabelMapper, report: ReadReport) -> list[AnnotatedDocument]:
    out = []
    for n, obj in _jsonl_records(p, report):
        text = obj["text"]
        where = f"{p.name} line {n}"
        spans = []
        for item in obj.get("label") or obj.get("labels") or []:
            if isinstance(item, (list, tuple)) and len(item) == 3:
                sp = _make_span(text, item[0], item[1], str(item[2]), None, mapper, report, where)
                if sp:
                    spans.append(sp)
        for ent in obj.get("entities") or []:
            if isinstance(ent, dict):
                sp = _make_span(text, ent.get("start_offset"), ent.get("end_offset"), str(ent.get("label", "")), None, mapper, report, where)
                if sp:
                    spans.append(sp)
        out.append(AnnotatedDocument(str(obj.get("id", f"{p.stem}-{n}")), text, spans, obj.get("subject")))
    return out


def read_labelstudio(p: Path, mapper: LabelMapper, report: ReadReport) -> list[AnnotatedDocument]:
    try:
        if p.suffix.lower() in (".jsonl", ".ndjson"):
            tasks = [obj for _, obj in _jsonl_records_any(p, report)]
        else:
            tasks = json.loads(p.read_text(encoding="utf-8-sig"))
    except json.JSONDecodeError as e:
        raise ConfigError(f"{p.name}: not valid JSON (line {e.lineno})") from None
    if isinstance(tasks, dict):
        tasks = [tasks]
    out = []
    for n, task in enumerate(tasks, 1):
        where = f"{p.name} task {n}"
        if not isinstance(task, dict):
            report.problems.append(f"{where}: not a task object")
            continue
        data = task.get("data") if isinstance(task.get("data"), dict) else task
        text = data.get("text")
        if not isinstance(text, str):
            report.problems.append(f"{where}: no text")
            continue
        results: list[dict] = []
        annotations = [a for a in task.get("annotations") or [] if isinstance(a, dict) and not a.get("was_cancelled")]
        if annotations:
            results = annotations[-1].get("result") or []  # the latest annotation wins
        elif isinstance(task.get("label"), list):  # the JSON-MIN export
            results = [{"value": v} for v in task["label"]]
        spans = []
        for r in results:
            v = r.get("value") if isinstance(r, dict) else None
            if not isinstance(v, dict) or "start" not in v:
                continue
            labels = v.get("labels") or v.get("hypertextlabels") or []
            for label in labels[:1]:
                sp = _make_span(text, v.get("start"), v.get("end"), str(label), None, mapper, report, where)
                if sp:
                    spans.append(sp)
        meta = task.get("meta") or {}
        out.append(AnnotatedDocument(str(data.get("id") or meta.get("id") or task.get("id") or f"{p.stem}-{n}"), text, spans, meta.get("subject")))
    return out


def _jsonl_records_any(p: Path, report: ReadReport) -> Iterator[tuple[int, dict]]:
    with p.open(encoding="utf-8-sig") as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                try:
                    yield n, json.loads(line)
                except json.JSONDecodeError:
                    report.problems.append(f"{p.name} line {n}: not valid JSON")


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
                sp = _make_span(text, s, e, label, fine.get(tid), mapper, report, f"{ann.name if ann else txt.name} {tid}")
                if sp:
                    doc_spans.append(sp)
        out.append(AnnotatedDocument(txt.stem, text, sort_spans(doc_spans)))
    return out


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
                sp = _make_span(text_so_far(), open_span[0], open_span[1], open_span[2], None, mapper, report, f"{p.name} document {k}")
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


_READERS = {
    "jsonl": read_jsonl,
    "brat": read_brat,
    "conll": read_conll,
    "prodigy": read_prodigy,
    "doccano": read_doccano,
    "labelstudio": read_labelstudio,
}


def read_annotations(path: str | Path, fmt: str | None = None, *, label_map: dict[str, str] | None = None) -> tuple[list[AnnotatedDocument], ReadReport]:
    p = Path(path)
    if not p.exists():
        raise ConfigError(f"{p.name}: no such file or folder")
    fmt = fmt or detect_format(p)
    if fmt not in _READERS:
        raise ConfigError(f"unknown annotation format {fmt!r}; expected one of {', '.join(FORMATS)}")
    report = ReadReport()
    try:
        docs = _READERS[fmt](p, LabelMapper(label_map), report)
    except UnicodeDecodeError:
        raise ConfigError(f"{p.name}: not UTF-8 text") from None
    report.documents = len(docs)
    return docs, report


# -- writing ---------------------------------------------------------------------------------


def write_jsonl(docs: Iterable[AnnotatedDocument], out: Path) -> int:
    n = 0
    with atomic_text(out) as f:
        for d in docs:
            rec: dict[str, Any] = {"id": d.id, "text": d.text, "spans": [{"start": s.start, "end": s.end, "label": s.category.value, "sublabel": s.fine} for s in first_of_overlaps(d.spans)]}
            if d.subject:
                rec["subject"] = d.subject
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")
            n += 1
    return n


_TOKEN = re.compile(r"[^\W_]+|\S")
_NON_SPACE = re.compile(r"\S+")


def _tokens(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    return [m.span() for m in _TOKEN.finditer(text, start, len(text) if end is None else end)]


def write_prodigy(docs: Iterable[AnnotatedDocument], out: Path) -> int:
    n = 0
    with atomic_text(out) as f:
        for d in docs:
            toks = _tokens(d.text)
            tokens = [
                {"text": d.text[s:e], "start": s, "end": e, "id": i, "ws": e < len(d.text) and d.text[e].isspace()}
                for i, (s, e) in enumerate(toks)
            ]
            spans = []
            for s in first_of_overlaps(d.spans):
                inside = [i for i, (a, b) in enumerate(toks) if a < s.end and s.start < b]
                item: dict[str, Any] = {"start": s.start, "end": s.end, "label": s.category.value, "sublabel": s.fine}
                if inside:
                    item["token_start"], item["token_end"] = inside[0], inside[-1]
                spans.append(item)
            meta: dict[str, Any] = {"id": d.id}
            if d.subject:
                meta["subject"] = d.subject
            f.write(json.dumps({"text": d.text, "tokens": tokens, "spans": spans, "answer": "accept", "meta": meta}, ensure_ascii=False) + "\n")
            n += 1
    return n


def write_doccano(docs: Iterable[AnnotatedDocument], out: Path) -> int:
    n = 0
    with atomic_text(out) as f:
        for d in docs:
            rec: dict[str, Any] = {"id": d.id, "text": d.text, "label": [[s.start, s.end, s.category.value] for s in first_of_overlaps(d.spans)]}
            if d.subject:
                rec["subject"] = d.subject
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")
            n += 1
    return n


def write_labelstudio(docs: Iterable[AnnotatedDocument], out: Path) -> int:
    tasks = []
    for k, d in enumerate(docs, 1):
        result = [
            {
                "id": f"r{k}-{i}",
                "from_name": "label",
                "to_name": "text",
                "type": "labels",
                "value": {"start": s.start, "end": s.end, "text": d.text[s.start : s.end], "labels": [s.category.value]},
            }
            for i, s in enumerate(first_of_overlaps(d.spans))
        ]
        meta: dict[str, Any] = {"id": d.id}
        if d.subject:
            meta["subject"] = d.subject
        tasks.append({"id": k, "data": {"text": d.text, "id": d.id}, "meta": meta, "annotations": [{"result": result, "was_cancelled": False}]})
    with atomic_text(out) as f:
        f.write(json.dumps(tasks, ensure_ascii=False, indent=1) + "\n")
    return len(tasks)


def labelstudio_config() -> str:
    """The labelling interface matching our categories, for a new Label Studio project."""
    labels = "\n".join(f'    <Label value="{c.value}"/>' for c in Category)
    return f'<View>\n  <Labels name="label" toName="text">\n{labels}\n  </Labels>\n  <Text name="text" value="$text"/>\n</View>\n'


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
    from ..categories import FINE_TYPES

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


_WRITERS = {
    "jsonl": write_jsonl,
    "brat": write_brat,
    "conll": write_conll,
    "prodigy": write_prodigy,
    "doccano": write_doccano,
    "labelstudio": write_labelstudio,
}


def write_annotations(docs: Iterable[AnnotatedDocument], out: str | Path, fmt: str) -> int:
    if fmt not in _WRITERS:
        raise ConfigError(f"unknown annotation format {fmt!r}; expected one of {', '.join(FORMATS)}")
    p = Path(out)
    if fmt != "brat":
        p.parent.mkdir(parents=True, exist_ok=True)
    return _WRITERS[fmt](list(docs), p)


# -- the workspace side ---------------------------------------------------------------------


@dataclass
class ImportReport:
    imported: int = 0
    duplicates: int = 0
    spans: int = 0
    read: ReadReport = field(default_factory=ReadReport)
    document_ids: list[int] = field(default_factory=list)

    def summary(self) -> str:
        return f"{self.imported} reviewed document(s) imported with {self.spans} span(s), {self.duplicates} already in the workspace; read: {self.read.summary()}"


def import_reviewed(ws, path: str | Path, fmt: str | None = None, *, label_map: dict[str, str] | None = None, reviewer: str = IMPORT_REVIEWER) -> ImportReport:
    """Import annotated documents as reviewed documents: each span becomes an ADD decision by
    ``reviewer``. A document whose text is already in the workspace is left as it is."""
    from ..documents.model import Document
    from ..store import DocStatus

    p = Path(path)
    docs, read = read_annotations(p, fmt, label_map=label_map)
    report = ImportReport(read=read)
    for d in docs:
        result = ws.import_document(Document.from_text(d.text, path=f"{p.name}#{d.id}"), subject_label=d.subject, source_path=f"{p.name}#{d.id}")
        if result.status == "duplicate":
            report.duplicates += 1
            continue
        for s in first_of_overlaps(d.spans):
            ws.add_span(result.document_id, s.start, s.end, s.category, s.fine, reviewer=reviewer)
            report.spans += 1
        ws.set_status(result.document_id, DocStatus.REVIEWED)
        report.imported += 1
        report.document_ids.append(result.document_id)
    return report


def reviewed_annotations(ws) -> list[AnnotatedDocument]:
    from .reviewed import reviewed_document_rows

    out = []
    for row in reviewed_document_rows(ws):
        text = ws.load_document(row.id).text
        out.append(AnnotatedDocument(str(row.id), text, ws.final_spans(row.id, unreviewed_policy="accept"), row.subject_label))
    return out


def export_reviewed(ws, out: str | Path, fmt: str = "jsonl") -> int:
    """Write every reviewed document with its final spans; returns how many."""
    return write_annotations(reviewed_annotations(ws), out, fmt)
