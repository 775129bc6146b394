"""Device identifiers and serial numbers after "serial", "S/N", "model", "UDI", "IMEI"."""

from __future__ import annotations

import re

from ...categories import Category
from ...spans import Span
from ..base import register
from .common import RuleDetector

_DEVICE = re.compile(
    r"(?:\b(?i:serial(?:\s*(?:no\b\.?|number|#))?|model(?:\s*(?:no\b\.?|number|#))?|device\s*(?:id|no\b\.?|number)"
    r"|udi|imei|lot(?:\s*(?:no\b\.?|number|#))?|catalogue\s*(?:no\b\.?|number)|cat\.?\s*no\b\.?)|\bS/N|\bSN\b)"
    r"\s*[:#.-]?\s*(?P<v>(?=[A-Za-z0-9./-]*\d)[A-Za-z0-9][A-Za-z0-9./-]{2,30}[A-Za-z0-9])(?![\w-])"
)


@register("device_serial")
class DeviceSerialDetector(RuleDetector):
    def detect(self, text: str) -> list[Span]:
        return [self.span(m.start("v"), m.end("v"), Category.ID, "DEVICE", 0.85) for m in _DEVICE.finditer(text)]
