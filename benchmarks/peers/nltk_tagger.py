"""Install NLTK's English part-of-speech tagger into the peers' environment.

Philter's default configuration tags every note with ``nltk.pos_tag`` (its name blacklists
only match proper nouns, its number filter only cardinals), so Philter cannot run without
NLTK's averaged perceptron tagger. NLTK ships that model in its data collection, not on
PyPI, and this project does not carry other projects' files, so the site gives its copy:
NLTK_TAGGER_ZIP names averaged_perceptron_tagger.zip from the nltk/nltk_data collection
(commit c9887b5, 2015; its SHA-256 is checked below, so only that file is taken). NLTK 3.9 and later read the model only as JSON
(``taggers/averaged_perceptron_tagger_eng``); this script converts the pickle with an
unpickler that admits plain dicts and sets only, then lets NLTK write its own JSON files.

    NLTK_TAGGER_ZIP=/path/averaged_perceptron_tagger.zip \
        .venv-peers/philter/bin/python benchmarks/peers/nltk_tagger.py .venv-peers/philter/nltk_data
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ZIP = Path(os.environ.get("NLTK_TAGGER_ZIP", "averaged_perceptron_tagger.zip"))
SHA256 = "e1f13cf2532daadfd6f3bc481a49859f0b8ea6432ccdcd83e6a49a5f19008de9"
MEMBER = "averaged_perceptron_tagger/averaged_perceptron_tagger.pickle"


class _DataOnly(pickle.Unpickler):
    """The model is (weights: dict, tagdict: dict, classes: set): nothing else may load."""

    def find_class(self, module: str, name: str):
        if module in ("builtins", "__builtin__") and name in ("dict", "set", "frozenset"):
            return {"dict": dict, "set": set, "frozenset": frozenset}[name]
        raise pickle.UnpicklingError(f"the tagger file names {module}.{name}: refused")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    if not ZIP.is_file():
        print("NLTK_TAGGER_ZIP names no file; Philter's tagger not installed", file=sys.stderr)
        return 1
    data = ZIP.read_bytes()
    if hashlib.sha256(data).hexdigest() != SHA256:
        print(f"{ZIP.name}: SHA-256 differs from NLTK's file; not installed", file=sys.stderr)
        return 1
    with zipfile.ZipFile(ZIP) as z, z.open(MEMBER) as f:
        weights, tagdict, classes = _DataOnly(f, encoding="latin1").load()

    import nltk
    from nltk.tag.perceptron import PerceptronTagger

    root = Path(argv[1]).resolve()
    # NLTK writes and reads data only under the roots named in nltk.data.path
    nltk.data.path.insert(0, str(root))
    out = root / "taggers" / "averaged_perceptron_tagger_eng"
    out.mkdir(parents=True, exist_ok=True)
    tagger = PerceptronTagger(load=False)
    tagger.model.weights, tagger.tagdict, tagger.classes = weights, tagdict, classes
    tagger.model.classes = classes
    tagger.save_to_json(lang="eng", loc=str(out))
    print(f"NLTK's averaged perceptron tagger written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
