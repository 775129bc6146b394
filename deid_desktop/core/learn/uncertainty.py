"""How far to trust a before / after comparison on a few held-out documents.

A retrain is compared on the reviewed documents it held out — often one or two. The figures
then carry a wide margin, and a reviewer must see it before activating a model on them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .metrics import Evaluation

# Fewer held-out documents than this cannot support a verdict, whatever the intervals say:
# words of one document share its author, template and patient.
MIN_DOCUMENTS = 5
Z_95 = 1.959964


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (Wilson 1927): unlike the normal
    approximation it stays inside [0, 1] and behaves at 0 / n and n / n, as small held-out
    sets often give. (0, 1) when there are no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Comparison:
    documents: int
    words: int  # gold PHI words in the held-out documents
    recall_before: tuple[float, float]
    recall_after: tuple[float, float]
    precision_before: tuple[float, float]
    precision_after: tuple[float, float]

    @property
    def too_few_documents(self) -> bool:
        return self.documents < MIN_DOCUMENTS

    @property
    def within_uncertainty(self) -> bool:
        """Both recall and precision intervals overlap: the data cannot tell old from new."""
        return _overlap(self.recall_before, self.recall_after) and _overlap(self.precision_before, self.precision_after)

    @property
    def judgeable(self) -> bool:
        return not self.too_few_documents and not self.within_uncertainty


def _overlap(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


def compare(before: Evaluation, after: Evaluation) -> Comparison:
    """From two ``evaluate_detector`` results on the same documents (token counts tp/fp/fn)."""
    b, a = before.token, after.token
    return Comparison(
        documents=after.documents,
        words=a.tp + a.fn,
        recall_before=wilson_interval(b.tp, b.tp + b.fn),
        recall_after=wilson_interval(a.tp, a.tp + a.fn),
        precision_before=wilson_interval(b.tp, b.tp + b.fp),
        precision_after=wilson_interval(a.tp, a.tp + a.fp),
    )
