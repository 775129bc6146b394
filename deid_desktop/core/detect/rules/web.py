"""E-mail addresses, web addresses and IP addresses."""

from __future__ import annotations

import ipaddress
import re

from ...categories import Category
from ...spans import Span
from ..base import register
from .common import RuleDetector, before

EMAIL = re.compile(r"(?<![\w.+'’-])[A-Za-z0-9_%+-][A-Za-z0-9._%+'’-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}(?![\w-])")
_SCHEME_URL = re.compile(r"(?<![\w@])(?:(?:https?|ftp)://|www\.)[^\s<>\"'\]\[]+", re.I)
# A bare domain counts only with a known top-level domain: "mayoclinic.org", "health.govt.nz".
_TLDS = r"(?:com|org|net|edu|gov|govt|mil|int|info|biz|health|io|app|nz|au|uk|us|ca|ie)"
_BARE_URL = re.compile(
    rf"(?<![\w@./-])(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+{_TLDS}(?:\.[a-z]{{2}})?(?![\w@-])(?:/[^\s<>\"']*)?", re.I
)
_TRAILING = ".,;:!?)]}'\""
_IPV4 = re.compile(r"(?<![\w.])(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?![\w]|\.\d)")
_IPV6 = re.compile(r"(?<![\w:])(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4}(?![\w:])")
_VERSION_BEFORE = re.compile(r"(?:\bv|version|ver\.?|release|build)\s*$")


def _trim(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1] in _TRAILING:
        end -= 1
    return end


@register("email")
class EmailDetector(RuleDetector):
    def detect(self, text: str) -> list[Span]:
        return [self.span(m.start(), m.end(), Category.CONTACT, "EMAIL", 0.99, validated=True) for m in EMAIL.finditer(text)]


@register("url")
class UrlDetector(RuleDetector):
    def detect(self, text: str) -> list[Span]:
        out: list[Span] = []
        taken: list[tuple[int, int]] = [m.span() for m in EMAIL.finditer(text)]
        for rx, score in ((_SCHEME_URL, 0.95), (_BARE_URL, 0.8)):
            for m in rx.finditer(text):
                start, end = m.start(), _trim(text, m.start(), m.end())
                if end <= start or any(s < end and start < e for s, e in taken):
                    continue
                if rx is _BARE_URL and not any(c.isalpha() for c in text[start:end].split(".")[0]):
                    continue
                taken.append((start, end))
                # A scheme or "www." makes it an address beyond doubt; a bare domain may be
                # a public web site mentioned in passing.
                out.append(self.span(start, end, Category.CONTACT, "URL", score, validated=rx is _SCHEME_URL))
        return sorted(out, key=lambda s: s.start)


@register("ip_address")
class IpAddressDetector(RuleDetector):
    def detect(self, text: str) -> list[Span]:
        out: list[Span] = []
        for m in _IPV4.finditer(text):
            if all(int(g) <= 255 for g in m.groups()) and not _VERSION_BEFORE.search(before(text, m.start(), 12)):
                out.append(self.span(m.start(), m.end(), Category.CONTACT, "IPADDR", 0.95, validated=True))
        for m in _IPV6.finditer(text):
            value = m.group()
            if value.count(":") < 3 and "::" not in value:
                continue  # "14:30:00" is a time
            try:
                ipaddress.IPv6Address(value)
            except ValueError:
                continue
            if any(c.isalpha() for c in value) or "::" in value or value.count(":") == 7:
                out.append(self.span(m.start(), m.end(), Category.CONTACT, "IPADDR", 0.95, validated=True))
        return sorted(out, key=lambda s: s.start)
