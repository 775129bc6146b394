"""The detector interface and the registry every detector is listed in.

A detector is one small class per concern (Presidio's recognizer idea): it takes the text of a
document and returns spans. Rule detectors register themselves with ``@register``; the
ensemble builds members from a TOML config by registry name.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from typing import Callable, ClassVar, Sequence

from ..spans import Span

DETECTORS: dict[str, type["Detector"]] = {}

# Every module holding ``@register``ed detectors (the rules package imports its own). They are
# imported on the first lookup, so an ensemble file naming "allow_deny" or "harvested" works in
# a fresh process, not only where something happened to import the module first.
DETECTOR_MODULES = (".rules", ".lists", ".harvested")


def detector_type(name: str) -> type["Detector"] | None:
    """The registered detector class called ``name``, or None."""
    if name not in DETECTORS:
        for module in DETECTOR_MODULES:
            importlib.import_module(module, __package__)
    return DETECTORS.get(name)


def detector_types() -> list[str]:
    detector_type("")  # loads every registering module
    return sorted(DETECTORS)


def register(name: str) -> Callable[[type["Detector"]], type["Detector"]]:
    def deco(cls: type["Detector"]) -> type["Detector"]:
        if name in DETECTORS and DETECTORS[name] is not cls:
            raise ValueError(f"detector name {name!r} registered twice")
        cls.name = name
        DETECTORS[name] = cls
        return cls

    return deco


class Detector(ABC):
    name: ClassVar[str] = "detector"
    # True for members that state the user's own decisions (deny lists, approved template
    # rules): the ensemble's clinical-term guard does not overrule them.
    authoritative: ClassVar[bool] = False

    @abstractmethod
    def detect(self, text: str) -> list[Span]:
        """Spans found in ``text``; offsets are into ``text``; ``source`` is ``self.name``."""

    def detect_many(self, texts: Sequence[str]) -> list[list[Span]]:
        """Batch form; detectors with a per-call cost (models) override it."""
        return [self.detect(t) for t in texts]
