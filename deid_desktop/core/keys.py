"""The secret that keys surrogates when no workspace is used (CLI batches).

It must stay with the data steward, never with released data: by default it lives in the
user's data folder, created owner-only."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from .paths import user_data_dir


def default_key_path() -> Path:
    return user_data_dir() / "surrogate.key"


def load_or_create_key(path: str | Path | None = None) -> bytes:
    p = Path(path) if path else default_key_path()
    if p.is_file():
        data = p.read_bytes()
        if len(data) < 16:
            raise ValueError(f"{p.name}: surrogate key file is too short (need 16+ bytes)")
        return data
    p.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_bytes(32)
    fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key)
    return key
