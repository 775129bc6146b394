"""Surrogates: realistic, consistent fake values in place of PHI ("hide in plain sight"),
or a category tag, or a black bar.

    engine = SurrogateEngine(workspace_secret)
    engine.surrogate("John Smith", Category.NAME, subject="patient-17")   # "David Parker"
    engine.replacements(doc.text, spans, subject="patient-17")            # list[Replacement]

The same original in the same subject gets the same surrogate in every document, run and
process; nothing is stored but the workspace secret (``new_workspace_secret()``).
"""

from __future__ import annotations

from .base import GENERATORS, SurrogateContext, SurrogateGenerator, register
from .engine import SurrogateEngine
from .generators import NAME_ORIGINS, sample_name, sample_value
from .keys import new_workspace_secret
from .modes import MODES, ExportMode
from .name_pools import pools_fingerprint
from .options import SurrogateOptions

__all__ = [
    "ExportMode",
    "GENERATORS",
    "MODES",
    "NAME_ORIGINS",
    "SurrogateContext",
    "SurrogateEngine",
    "SurrogateGenerator",
    "SurrogateOptions",
    "new_workspace_secret",
    "pools_fingerprint",
    "register",
    "sample_name",
    "sample_value",
]
