"""Reading the labels of models trained elsewhere.

A published de-identification or NER model names its outputs in its own words ("B-PATIENT",
"I-HCW", "PER", "U-LOC"). A label map (``resources/label_maps/*.toml``) says which of our coarse
categories each bare label means, and which labels are not PHI at all:

    description = "i2b2 2006/2014 and models trained on them"
    ignore = ["O", "MISC"]
    [labels]
    PATIENT = "NAME/PATIENT"      # category, optionally "/" fine type
    HOSPITAL = "ORGANIZATION/HOSPITAL"

Labels that already are one of our categories ("B-NAME", "U-AGE") need no map.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from ..categories import Category, normalise_fine, parse_category
from ..errors import ConfigError, ModelError
from ..config_files import read_toml
from ..paths import resource
from .labels import BEGIN_PREFIXES, OUTSIDE, LabelScheme, TagMeaning

_PREFIX = re.compile(r"^([BIOLUES])[-_](.+)$", re.IGNORECASE)
_UNNAMED = re.compile(r"^LABEL_\d+$")


def split_label(label: str) -> tuple[str, str]:
    """("B", "PATIENT") for "B-PATIENT" or "b_patient"; ("", "PATIENT") for a bare label."""
    s = str(label).strip()
    m = _PREFIX.match(s)
    if m:
        return m.group(1).upper(), _bare(m.group(2))
    return "", _bare(s)


def _bare(s: str) -> str:
    return re.sub(r"[\s\-]+", "_", s.strip()).upper()


@dataclass
class LabelMap:
    name: str
    labels: dict[str, tuple[Category, str]] = field(default_factory=dict)
    ignore: set[str] = field(default_factory=set)
    description: str = ""

    @classmethod
    def from_dict(cls, data: Mapping, name: str = "custom") -> "LabelMap":
        """Either a whole map ({"labels": {...}, "ignore": [...]}) or a plain
        {foreign label: "CATEGORY[/FINE]" or "" / None for not-PHI} table."""
        if "labels" in data and isinstance(data["labels"], Mapping):
            table = dict(data["labels"])
            ignore = {_bare(x) for x in data.get("ignore", [])}
            description = str(data.get("description", ""))
        else:
            table, ignore, description = dict(data), set(), ""
        labels: dict[str, tuple[Category, str]] = {}
        for raw, target in table.items():
            key = _bare(raw)
            if target in (None, "", "O", "IGNORE"):
                ignore.add(key)
                continue
            cat_s, _, fine = str(target).partition("/")
            try:
                cat = parse_category(cat_s)
            except ValueError as e:
                raise ConfigError(f"label map {name}: {raw}: {e}") from None
            labels[key] = (cat, normalise_fine(cat, fine or None))
        ignore.add(OUTSIDE)
        return cls(name=name, labels=labels, ignore=ignore, description=description)

    @classmethod
    def load(cls, spec: str | Path) -> "LabelMap":
        """A map by name (``resources/label_maps/<name>.toml``) or by path."""
        p = Path(spec)
        if not p.suffix:
            p = resource("label_maps", f"{spec}.toml")
        data = read_toml(p, "label map")
        return cls.from_dict(data, name=p.stem)

    def lookup(self, bare: str) -> tuple[Category, str] | None | bool:
        """(category, fine) for a PHI label, None for a label that is not PHI, False when the
        map does not know the label."""
        if bare in self.ignore:
            return None
        if bare in self.labels:
            return self.labels[bare]
        try:
            return parse_category(bare), "OTHER"
        except ValueError:
            return False

    def unknown(self, id2label: Mapping) -> list[str]:
        return sorted({split_label(v)[1] for v in id2label.values() if self.lookup(split_label(v)[1]) is False})

    def meanings(self, id2label: Mapping) -> list[TagMeaning]:
        """One meaning per model output, in output order."""
        n = len(id2label)
        by_id = {int(k): str(v) for k, v in id2label.items()}
        missing = self.unknown(by_id)
        if missing:
            raise ModelError(f"label map {self.name} does not cover the model's labels: {', '.join(missing)}")
        out: list[TagMeaning] = []
        for i in range(n):
            prefix, bare = split_label(by_id[i])
            hit = self.lookup(bare)
            if hit is None or prefix == "O":
                out.append(TagMeaning(None))
            else:
                cat, fine = hit  # type: ignore[misc]
                out.append(TagMeaning(cat, begins=prefix in BEGIN_PREFIXES, fine=fine))
        return out


def available_maps() -> list[Path]:
    folder = resource("label_maps")
    return sorted(folder.glob("*.toml")) if folder.is_dir() else []


def meanings_for(id2label: Mapping, label_map: str | Path | Mapping | None = None) -> tuple[list[TagMeaning], str]:
    """How to read a model's outputs, and a short name of the reading ("native", the map's
    name, or "categories" for foreign prefixes over our own category names).

    With no ``label_map`` the model's labels are checked against our scheme, then against
    our category names, then against every shipped map; the first map that covers every
    label wins, preferring the one that names the most of them."""
    by_id = {int(k): str(v) for k, v in id2label.items()}
    if not by_id:
        raise ModelError("the model declares no output labels")
    if LabelScheme().matches(by_id):
        return LabelScheme().meanings(), "native"
    if label_map is not None:
        lm = label_map if isinstance(label_map, LabelMap) else (
            LabelMap.from_dict(label_map) if isinstance(label_map, Mapping) else LabelMap.load(label_map)
        )
        return lm.meanings(by_id), lm.name
    if all(_UNNAMED.match(v) for v in by_id.values()):
        raise ModelError("the model's labels are unnamed (LABEL_0, LABEL_1, ...); it has no token-classification head for PHI")
    own = LabelMap(name="categories", ignore={OUTSIDE})
    if not own.unknown(by_id):
        return own.meanings(by_id), own.name
    best: tuple[int, LabelMap] | None = None
    for p in available_maps():
        lm = LabelMap.load(p)
        if lm.unknown(by_id):
            continue
        named = sum(1 for v in by_id.values() if split_label(v)[1] in lm.labels)
        if best is None or named > best[0]:
            best = (named, lm)
    if best is None:
        unknown = own.unknown(by_id)
        raise ModelError(
            "no label map covers the model's labels "
            f"({', '.join(unknown)}); add a table under resources/label_maps or pass label_map"
        )
    return best[1].meanings(by_id), best[1].name

