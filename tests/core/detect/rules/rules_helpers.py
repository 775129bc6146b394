"""Shared by the rule-detector tests: run one registered detector and read what it found."""

from __future__ import annotations

import deid_desktop.core.detect.rules  # noqa: F401  (registers the rule detectors)
from deid_desktop.core.detect.base import DETECTORS
from deid_desktop.core.spans import Span


def run(name: str, text: str) -> list[Span]:
    spans = DETECTORS[name]().detect(text)
    for s in spans:
        assert s.source == name and 0.0 <= s.score <= 1.0
    return spans


def texts(name: str, text: str) -> list[str]:
    """The strings found, in order."""
    return [text[s.start : s.end] for s in run(name, text)]


def labelled(name: str, text: str) -> list[tuple[str, str]]:
    """(string, fine type) pairs found, in order."""
    return [(text[s.start : s.end], s.fine) for s in run(name, text)]
