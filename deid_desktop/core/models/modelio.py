"""Model folders on disk: ``models/<name>/<version>/`` plus a ``models/<name>/CURRENT`` file.

A version folder holds what ``save_pretrained`` writes (config, weights, tokenizer), a
``model_card.md`` for people and a ``manifest.json`` for programs: the sha256 of every file,
the label scheme, the training settings, data summary and metrics. ``verify_manifest`` finds
a folder that was changed or only half copied. ``CURRENT`` is a one-line text file naming the
version in use (a text file, not a symlink, so it survives zips and Windows copies).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Mapping

from ..errors import ModelError
from ..paths import models_dir

MANIFEST = "manifest.json"
MODEL_CARD = "model_card.md"
CURRENT = "CURRENT"
MANIFEST_FORMAT = 1
_VERSION = re.compile(r"^v(\d+)$")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _file_table(folder: Path) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for p in sorted(folder.rglob("*")):
        if p.is_file() and p.name != MANIFEST:
            rel = p.relative_to(folder).as_posix()
            out[rel] = {"sha256": sha256_file(p), "bytes": p.stat().st_size}
    return out


def list_versions(name_dir: str | Path) -> list[str]:
    """Versions under ``models/<name>``, oldest first (v1, v2, ..., then other names).
    Hidden folders are not versions: ``save_model`` writes a version under a name starting
    with a dot and renames it when complete, so a save that was stopped (the build's process
    killed) leaves no folder that would be loaded as a model."""
    d = Path(name_dir)
    if not d.is_dir():
        return []
    found = [p.name for p in d.iterdir() if p.is_dir() and not p.name.startswith(".") and (p / "config.json").is_file()]

    def key(v: str) -> tuple[int, int, str]:
        m = _VERSION.match(v)
        return (0, int(m.group(1)), v) if m else (1, 0, v)

    return sorted(found, key=key)


def next_version(name_dir: str | Path) -> str:
    d = Path(name_dir)
    taken = [int(m.group(1)) for p in (d.iterdir() if d.is_dir() else []) if (m := _VERSION.match(p.name))]
    return f"v{max(taken, default=0) + 1}"


def current_version(name_dir: str | Path) -> str | None:
    f = Path(name_dir) / CURRENT
    if not f.is_file():
        return None
    v = f.read_text(encoding="utf-8").strip()
    return v or None


def set_current(name_dir: str | Path, version: str) -> None:
    d = Path(name_dir)
    if not (d / version / "config.json").is_file():
        raise ModelError(f"{d.name}: version {version} does not exist")
    tmp = d / f".{CURRENT}.tmp"
    tmp.write_text(version + "\n", encoding="utf-8")
    os.replace(tmp, d / CURRENT)  # atomic: a reader sees the old or the new version, never half


def resolve_model_dir(spec: str | Path, *, models_root: str | Path | None = None) -> Path:
    """The folder to load for ``spec``: a model folder itself, ``models/<name>`` (its
    CURRENT version, else its newest), or a bare name looked up under ``models_root``."""
    p = Path(spec).expanduser()
    candidates = [p]
    if not p.is_absolute():
        candidates.append(Path(models_root) / p if models_root else models_dir() / p)
    for c in candidates:
        if (c / "config.json").is_file():
            return c
        if c.is_dir():
            v = current_version(c)
            if v and (c / v / "config.json").is_file():
                return c / v
            versions = list_versions(c)
            if versions:
                return c / versions[-1]
    raise ModelError(f"no model found at {spec}")


def save_model(
    model: Any,
    tokenizer: Any,
    name: str,
    *,
    models_root: str | Path | None = None,
    version: str | None = None,
    make_current: bool = True,
    base_model: str = "",
    label_scheme: Mapping[str, Any] | None = None,
    config: Mapping[str, Any] | None = None,
    data: Mapping[str, Any] | None = None,
    metrics: Mapping[str, Any] | None = None,
    metrics_table: str = "",
    extra: Mapping[str, Any] | None = None,
) -> Path:
    """Write ``models_root/name/version/`` atomically (a half-written folder is never visible
    under its final name) and point CURRENT at it. Returns the version folder.

    ``metrics_table`` is the validation table for the model card as the trainer renders it
    (``learn.metrics.format_table``): how a model is scored is training's business, not the
    model folder's."""
    if not _NAME.match(name):
        raise ModelError(f"model name {name!r} may contain only letters, digits, '.', '_' and '-'")
    root = Path(models_root) if models_root else models_dir()
    name_dir = root / name
    name_dir.mkdir(parents=True, exist_ok=True)
    version = version or next_version(name_dir)
    if not _NAME.match(version):
        raise ModelError(f"model version {version!r} may contain only letters, digits, '.', '_' and '-'")
    final = name_dir / version
    if final.exists():
        raise ModelError(f"{name}/{version} already exists")
    staging = Path(tempfile.mkdtemp(prefix=f".{version}.", dir=name_dir))
    staging.chmod(0o755)  # mkdtemp makes it private; a model folder is readable like any other
    try:
        model.save_pretrained(str(staging))
        tokenizer.save_pretrained(str(staging))
        manifest: dict[str, Any] = {
            "format": MANIFEST_FORMAT,
            "name": name,
            "version": version,
            "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "base_model": base_model,
            "label_scheme": dict(label_scheme or {}),
            "config": dict(config or {}),
            "data": dict(data or {}),
            "metrics": dict(metrics or {}),
            **dict(extra or {}),
        }
        (staging / MODEL_CARD).write_text(model_card(manifest, metrics_table), encoding="utf-8")
        manifest["files"] = _file_table(staging)
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(staging, final)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if make_current:
        set_current(name_dir, version)
    return final


def load_manifest(path: str | Path) -> dict[str, Any]:
    """The manifest of a version folder (or of the file itself)."""
    p = Path(path)
    f = p if p.name == MANIFEST else p / MANIFEST
    try:
        data = json.loads(f.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelError(f"{p.name}: no {MANIFEST}") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ModelError(f"{p.name}: {MANIFEST} is not valid JSON") from None
    if not isinstance(data, dict):
        raise ModelError(f"{p.name}: {MANIFEST} is not a JSON object")
    return data


def verify_manifest(path: str | Path) -> list[str]:
    """Problems found in a version folder; an empty list means every file is as saved."""
    folder = Path(path)
    try:
        manifest = load_manifest(folder)
    except ModelError as e:
        return [str(e)]
    problems: list[str] = []
    files = manifest.get("files")
    if not isinstance(files, dict) or not files:
        return ["the manifest lists no files"]
    for rel, info in files.items():
        f = folder / rel
        if not f.is_file():
            problems.append(f"{rel} is missing")
            continue
        if f.stat().st_size != info.get("bytes"):
            problems.append(f"{rel} has a different size than when it was saved")
            continue
        if sha256_file(f) != info.get("sha256"):
            problems.append(f"{rel} was changed after it was saved")
    for p in folder.rglob("*"):
        rel = p.relative_to(folder).as_posix()
        if p.is_file() and p.name != MANIFEST and rel not in files and p.suffix in (".safetensors", ".bin", ".pt", ".json"):
            problems.append(f"{rel} is not listed in the manifest")
    scheme = manifest.get("label_scheme", {}).get("tags")
    cfg_file = folder / "config.json"
    if scheme and cfg_file.is_file():
        try:
            id2label = json.loads(cfg_file.read_text(encoding="utf-8")).get("id2label", {})
            labels = [id2label[str(i)] for i in range(len(id2label))]
        except (json.JSONDecodeError, KeyError, UnicodeDecodeError):
            labels = None
        if labels != scheme:
            problems.append("config.json labels differ from the manifest's label scheme")
    return problems


def _fmt(v: Any) -> str:
    return f"{v:.4f}" if isinstance(v, float) else str(v)


def model_card(manifest: Mapping[str, Any], metrics_table: str = "") -> str:
    """A short human-readable description; ``metrics_table`` is the validation figures."""
    cfg = manifest.get("config", {})
    data = manifest.get("data", {})
    lines = [
        f"# {manifest.get('name', 'model')} {manifest.get('version', '')}".rstrip(),
        "",
        "A token classifier that marks protected health information (PHI) in clinical text, one",
        "member of the deid-desktop detection ensemble. It predicts BIO tags over the coarse",
        "categories and reads one sentence at a time.",
        "",
        "## Base model",
        "",
        f"- {manifest.get('base_model') or 'unknown'}",
    ]
    if manifest.get("init_from"):
        lines.append(f"- fine-tuned further from {manifest['init_from']}")
    shape = manifest.get("shape_features")
    if isinstance(shape, dict):
        lines.append(f"- reads word shapes too (capitals, digits, length, neighbouring punctuation; "
                     f"vocabulary version {shape.get('version')}, {shape.get('vocab_size')} ids)")
    lines += ["", "## Training data", ""]
    lines += [f"- {k.replace('_', ' ')}: {_fmt(v)}" for k, v in data.items()] or ["- not recorded"]
    lines += ["", "## Settings", ""]
    lines += [f"- {k.replace('_', ' ')}: {_fmt(v)}" for k, v in cfg.items()] or ["- not recorded"]
    lines += ["", "## Validation", ""]
    if metrics_table:
        lines += ["```", metrics_table, "```"]
    else:
        lines.append("No validation documents were given; no figures.")
    lines += [
        "",
        "## Limits",
        "",
        "- Trained on the data above; text unlike it (other institutions, languages, note types)",
        "  needs a reviewer's check, and the rule detectors and a second model cover its misses.",
        "- Scores are softmax probabilities of the predicted category averaged over the span's words.",
        "",
        f"Created {manifest.get('created', '')}.",
        "",
    ]
    return "\n".join(lines)
