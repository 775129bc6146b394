"""Members' weights fitted on gold documents (002's closed-form Brier fit, overall and per
category)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ...categories import Category
from ...spans import Span
from ...text import words
from .config import CategoryWeights
from .detector import Ensemble
from .voting import token_votes


def member_token_matrix(
    text: str, by_member: dict[str, list[Span]], gold: list[Span], names: Sequence[str]
) -> tuple[np.ndarray, np.ndarray]:
    """F (tokens, members) of member PHI scores and y (tokens,) of gold PHI labels for one
    document — the data the Brier fit runs on."""
    F, _, y = member_token_data(text, by_member, gold, names)
    return F, y


def member_token_data(
    text: str, by_member: dict[str, list[Span]], gold: list[Span], names: Sequence[str]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """F (tokens, members) of member PHI scores, labels (tokens, members) of the category
    each member gives each word (None for O) and y (tokens,) of gold PHI labels."""
    toks = words(text)
    if not toks:
        return np.zeros((0, len(names))), np.empty((0, len(names)), dtype=object), np.zeros(0)
    votes = token_votes(toks, {n: by_member.get(n, []) for n in names})
    F = np.array([[votes[n][t].score if votes[n][t] is not None else 0.0 for n in names] for t in range(len(toks))])
    labels = np.array(
        [[votes[n][t].category if votes[n][t] is not None else None for n in names] for t in range(len(toks))], dtype=object
    )
    gv = token_votes(toks, {"gold": gold})["gold"]
    y = np.array([1.0 if g is not None else 0.0 for g in gv])
    return F, labels, y


def fit_weights_on(
    names: Sequence[str], docs: Sequence[tuple[str, list[Span]]], member_spans: Sequence[dict[str, list[Span]]]
) -> tuple[dict[str, float], CategoryWeights]:
    """(overall weights, per-category weights) by the closed-form Brier fit (002, Eq. 6) on
    documents with gold spans and the members' spans on them. Empty dicts without words."""
    from ..weights import fit_brier_weights, fit_brier_weights_by_category

    data = [member_token_data(text, bm, gold, names) for (text, gold), bm in zip(docs, member_spans)]
    data = [d for d in data if len(d[2])]
    if not data:
        return {}, {}
    F = np.concatenate([d[0] for d in data])
    labels = np.concatenate([d[1] for d in data])
    y = np.concatenate([d[2] for d in data])
    overall = {n: float(v) for n, v in zip(names, fit_brier_weights(F, y))}
    by_cat = fit_brier_weights_by_category(F, labels, y, list(Category))
    per_member: CategoryWeights = {n: {} for n in names}
    for c, w in by_cat.items():
        for n, v in zip(names, w):
            per_member[n][c] = float(v)
    return overall, per_member


def fit_all_weights(
    ensemble: Ensemble, docs: Sequence[tuple[str, list[Span]]]
) -> tuple[dict[str, float], CategoryWeights]:
    """Overall and per-category soft-vote weights fitted on (text, gold spans) pairs; the
    ensemble's current ones where there is nothing to fit on."""
    names = list(ensemble.order)
    overall, by_cat = fit_weights_on(names, docs, ensemble.member_spans([t for t, _ in docs]))
    if not overall:
        return dict(ensemble.weights), {n: dict(r) for n, r in ensemble.category_weights.items()}
    return overall, by_cat


def fit_ensemble_weights(ensemble: Ensemble, docs: Sequence[tuple[str, list[Span]]]) -> dict[str, float]:
    """Fit the overall soft-vote weights on (text, gold spans) pairs; returns {member: weight}."""
    return fit_all_weights(ensemble, docs)[0]
