"""Time one peer de-identification tool's detection the way `deid-desktop detect --timing` is timed.

    .venv-peers/philter/bin/python benchmarks/peers/run_peer.py philter DOCS.jsonl OUT.json
    .venv-peers/py311/bin/python benchmarks/peers/run_peer.py {presidio,scrubadub} DOCS.jsonl OUT.json

Runs in the tool's environment under .venv-peers (`make peers`: Philter's is
.venv-peers/philter, the others' .venv-peers/py311), never in the product's. DOCS.jsonl holds one
{"id", "text"} object a line. Each tool is built with its standard, documented default
configuration (load_s), detects PHI in the first document once untimed (lazy loading,
first-call allocation), then is timed on every document (detect_s): only what the tool does to
find PHI, not writing redacted text. OUT.json has the keys `detect --timing` writes (load_s,
detect_s, n_docs, n_chars, docs_per_s, chars_per_s) with the tool, its version and its
configuration in words. No document text is printed, and none is left behind (Philter's
note files live in a private temporary folder while it runs).

- Philter (philter-ucsf): its default configuration, configs/philter_delta.json, as its README
  runs it. Philter reads notes from a folder, so the documents are written one file each to a
  private temporary folder and `Philter.map_coordinates()` (the pass that finds PHI; the
  redacted text is only written by `transform()`) is timed over that folder; the time its
  per-file encoding detection takes is reported apart (encoding_s) and left out of detect_s,
  as reading is left out of ours. The warm-up is one such pass over a folder with the first
  document, on a Philter of its own (a pass drops the word lists it used).
- Presidio: `AnalyzerEngine().analyze(text, language="en")`. Its default NLP engine is spaCy's
  en_core_web_lg, which is not on PyPI; without an English spaCy pipeline installed it runs on
  Presidio's own no-op engine (conf/no_op.yaml): the pattern recognisers only.
- scrubadub: `Scrubber().iter_filth(text)` with the default detectors.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable


def read_docs(path: Path) -> list[str]:
    texts = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                texts.append(json.loads(line)["text"])
    return texts


def figures(tool: str, version: str, config: str, load_s: float, detect_s: float, texts: list[str], **extra) -> dict:
    """The keys and rounding of `deid-desktop detect --timing` (deid_desktop/cli.py, write_timing)."""
    n_docs, n_chars = len(texts), sum(len(t) for t in texts)
    return {
        "tool": tool,
        "version": version,
        "config": config,
        "python": platform.python_version(),
        "load_s": round(load_s, 3),
        "detect_s": round(detect_s, 4),
        "n_docs": n_docs,
        "n_chars": n_chars,
        "docs_per_s": round(n_docs / detect_s, 3) if detect_s > 0 else None,
        "chars_per_s": round(n_chars / detect_s, 1) if detect_s > 0 else None,
        **extra,
    }


def time_per_document(detect: Callable[[str], list], texts: list[str]) -> tuple[float, int]:
    """Seconds in the detection calls, after one untimed warm-up call; and the findings."""
    detect(texts[0])
    total, found = 0.0, 0
    for text in texts:
        t0 = time.perf_counter()
        result = detect(text)
        total += time.perf_counter() - t0
        found += len(result)
    return total, found


# -- Philter ----------------------------------------------------------------------------

def _write_notes(folder: Path, texts: list[str]) -> None:
    # the notes are the documents' text: owner-only, like anything holding it
    for i, text in enumerate(texts):
        path = folder / f"note-{i:05d}.txt"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)


def run_philter(texts: list[str]) -> dict:
    import nltk
    import philter_ucsf
    from philter_ucsf.philter import Philter

    # NLTK's tagger, installed by benchmarks/peers/nltk_tagger.py; NLTK reads data only
    # under the roots in nltk.data.path
    nltk.data.path.insert(0, str(Path(sys.prefix) / "nltk_data"))
    package = Path(philter_ucsf.__file__).resolve().parent
    config = "configs/philter_delta.json"
    # the configuration names its word lists and patterns relative to the package
    os.chdir(package)

    with tempfile.TemporaryDirectory(prefix="peer-philter-") as tmp:
        tmp = Path(tmp)
        warm, notes, out = tmp / "warm", tmp / "notes", tmp / "out"
        for d in (warm, notes, out):
            d.mkdir(mode=0o700)
        _write_notes(warm, texts[:1])
        _write_notes(notes, texts)

        def make(folder: Path) -> Philter:
            # the settings of Philter's own `--prod` run (philter_ucsf/__main__.py)
            return Philter({"verbose": False, "run_eval": False, "finpath": str(folder), "foutpath": str(out),
                            "outformat": "i2b2", "filters": config, "cachepos": None})

        # Philter prints each file it reads; nothing of it belongs on our output
        with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
            t0 = time.perf_counter()
            warm_philter = make(warm)
            load_s = time.perf_counter() - t0
            warm_philter.map_coordinates()

            philter = make(notes)
            encoding_s = 0.0
            detect_encoding = philter.detect_encoding

            def timed_detect_encoding(path):
                nonlocal encoding_s
                t = time.perf_counter()
                try:
                    return detect_encoding(path)
                finally:
                    encoding_s += time.perf_counter() - t

            philter.detect_encoding = timed_detect_encoding
            t0 = time.perf_counter()
            philter.map_coordinates()
            pass_s = time.perf_counter() - t0
        n_found = sum(len(v["phi"]) for v in philter.data_all_files.values())
    return figures("Philter", importlib.metadata.version("philter-ucsf"), config, load_s, pass_s - encoding_s, texts,
                   encoding_s=round(encoding_s, 4), n_found=n_found)


# -- Presidio ---------------------------------------------------------------------------

def _spacy_pipeline() -> str | None:
    """The English spaCy pipeline installed, Presidio's default (en_core_web_lg) first."""
    import spacy.util

    for name in ("en_core_web_lg", "en_core_web_trf", "en_core_web_md", "en_core_web_sm"):
        if spacy.util.is_package(name):
            return name
    return None


def run_presidio(texts: list[str]) -> dict:
    import presidio_analyzer
    from presidio_analyzer import AnalyzerEngine
    from presidio_analyzer.nlp_engine import NlpEngineProvider

    pipeline = _spacy_pipeline()
    t0 = time.perf_counter()
    if pipeline == "en_core_web_lg":
        analyzer, config = AnalyzerEngine(), "default (spaCy en_core_web_lg)"
    elif pipeline:
        engine = NlpEngineProvider(nlp_configuration={
            "nlp_engine_name": "spacy", "models": [{"lang_code": "en", "model_name": pipeline}]}).create_engine()
        analyzer, config = AnalyzerEngine(nlp_engine=engine), f"default recognisers, spaCy {pipeline}"
    else:
        no_op = Path(presidio_analyzer.__file__).resolve().parent / "conf" / "no_op.yaml"
        engine = NlpEngineProvider(conf_file=str(no_op)).create_engine()
        analyzer, config = AnalyzerEngine(nlp_engine=engine), "pattern recognisers only (no spaCy model)"
    load_s = time.perf_counter() - t0
    detect_s, found = time_per_document(lambda text: analyzer.analyze(text=text, language="en"), texts)
    return figures("Presidio", importlib.metadata.version("presidio-analyzer"), config, load_s, detect_s, texts,
                   n_found=found)


# -- scrubadub --------------------------------------------------------------------------

def run_scrubadub(texts: list[str]) -> dict:
    import scrubadub

    t0 = time.perf_counter()
    scrubber = scrubadub.Scrubber()
    load_s = time.perf_counter() - t0
    detect_s, found = time_per_document(lambda text: list(scrubber.iter_filth(text)), texts)
    return figures("scrubadub", importlib.metadata.version("scrubadub"),
                   "default detectors (" + ", ".join(sorted(scrubber._detectors)) + ")", load_s, detect_s, texts,
                   n_found=found)


TOOLS = {"philter": run_philter, "presidio": run_presidio, "scrubadub": run_scrubadub}


def main(argv: list[str]) -> int:
    if len(argv) != 4 or argv[1] not in TOOLS:
        print(__doc__, file=sys.stderr)
        return 2
    docs, out = Path(argv[2]).resolve(), Path(argv[3]).resolve()
    texts = read_docs(docs)
    if not texts:
        print("no documents", file=sys.stderr)
        return 2
    result = TOOLS[argv[1]](texts)
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"{result['tool']} {result['version']}: {result['n_docs']} documents, {result['docs_per_s']} documents/s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
