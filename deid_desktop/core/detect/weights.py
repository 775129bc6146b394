"""Closed-form ensemble weights by minimising the Brier score (Singh et al., 002, Eq. 6).

For two members the paper's solution is
    w = sum (y - f2)(f1 - f2) / sum (f1 - f2)^2,  f = w f1 + (1 - w) f2.
For M members we minimise ||y - F w||^2 subject to sum(w) = 1 (the same objective, the same
constraint), which is an equality-constrained least-squares problem with a closed-form KKT
solution; weights that come out negative are dropped (set to 0) and the rest re-solved, so the
result is a convex combination. With M = 2 and an interior optimum it equals Eq. 6 exactly.
"""

from __future__ import annotations

import numpy as np


def brier_score(F: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    F2, y2 = _flatten(F, y)
    r = F2 @ np.asarray(w, dtype=float) - y2
    return float(np.mean(r * r))


def _flatten(F: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Accepts F (n, M) with y (n,) for the binary form, or F (n, K, M) with y (n, K) for the
    multi-class form of Eq. 4 (the sum over classes becomes extra rows)."""
    F = np.asarray(F, dtype=float)
    y = np.asarray(y, dtype=float)
    if F.ndim == 3:
        n, k, m = F.shape
        return F.reshape(n * k, m), y.reshape(n * k)
    if F.ndim != 2 or y.ndim != 1 or F.shape[0] != y.shape[0]:
        raise ValueError("F must be (n, members) with y (n,), or (n, classes, members) with y (n, classes)")
    return F, y


def eq6_weight(f1: np.ndarray, f2: np.ndarray, y: np.ndarray) -> float:
    """The paper's two-member formula, clipped to [0, 1]. Returns 0.5 when the members agree
    everywhere (the objective is then flat in w)."""
    f1, f2, y = (np.asarray(a, dtype=float).ravel() for a in (f1, f2, y))
    d = f1 - f2
    den = float(np.sum(d * d))
    if den <= 1e-12:
        return 0.5
    return float(np.clip(np.sum((y - f2) * d) / den, 0.0, 1.0))


def fit_brier_weights(F: np.ndarray, y: np.ndarray, ridge: float = 1e-9) -> np.ndarray:
    """Weights (M,) summing to 1, non-negative, minimising the Brier score of F @ w against y."""
    F2, y2 = _flatten(F, y)
    m = F2.shape[1]
    if m == 1:
        return np.ones(1)
    active = list(range(m))
    w = np.zeros(m)
    while active:
        A = F2[:, active]
        k = len(active)
        # KKT system of min ||y - A v||^2 s.t. 1'v = 1
        kkt = np.zeros((k + 1, k + 1))
        kkt[:k, :k] = 2.0 * (A.T @ A) + ridge * np.eye(k)
        kkt[:k, k] = 1.0
        kkt[k, :k] = 1.0
        rhs = np.concatenate([2.0 * (A.T @ y2), [1.0]])
        sol = np.linalg.lstsq(kkt, rhs, rcond=None)[0][:k]
        if np.all(sol >= -1e-12):
            w[:] = 0.0
            w[active] = np.clip(sol, 0.0, None)
            break
        active.pop(int(np.argmin(sol)))
    total = w.sum()
    return w / total if total > 0 else np.full(m, 1.0 / m)


def fit_brier_weights_by_category(
    F: np.ndarray, labels: np.ndarray, y: np.ndarray, categories, *, min_rows: int = 20
) -> dict:
    """Eq. 6 per category: for each category c, the weights (M,) minimising the Brier score
    of sum_m w_m F[t, m] [labels[t, m] == c] against y over the words some member labels c.

    F (n, M) member scores, labels (n, M) the category each member gives each word (anything
    else where it says O), y (n,) 1 for a PHI word. A member that never says c gets weight 0
    for c; a category with fewer than ``min_rows`` such words is left out (the caller falls
    back to the overall weights), since a handful of words fits noise."""
    F = np.asarray(F, dtype=float)
    y = np.asarray(y, dtype=float)
    labels = np.asarray(labels, dtype=object)
    out = {}
    for c in categories:
        says = labels == c
        rows = says.any(axis=1)
        if int(rows.sum()) < min_rows:
            continue
        Fc = np.where(says, F, 0.0)[rows]
        active = np.flatnonzero(np.abs(Fc).sum(axis=0) > 0)
        w = np.zeros(F.shape[1])
        w[active] = fit_brier_weights(Fc[:, active], y[rows])
        out[c] = w
    return out
