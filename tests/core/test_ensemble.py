"""The three ensemble strategies, span rebuilding, config validation, and the Brier fit."""

from __future__ import annotations

import numpy as np
import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.detect.base import Detector
from deid_desktop.core.detect.ensemble import Ensemble, EnsembleConfig, MemberConfig, fit_ensemble_weights
from deid_desktop.core.detect.weights import brier_score, eq6_weight, fit_brier_weights
from deid_desktop.core.errors import ConfigError
from deid_desktop.core.spans import Span

TEXT = "Seen by Dr Aroha Ngata on 12/03/2021, ph (09) 555 1234, re Parkinson disease."


def find(sub: str) -> tuple[int, int]:
    i = TEXT.index(sub)
    return i, i + len(sub)


class Fixed(Detector):
    """A member that always reports the same spans (stands in for a model or rule set)."""

    def __init__(self, spans):
        self.spans = spans

    def detect(self, text):
        return list(self.spans)


def ens(strategy, members: dict[str, list[Span]], **kw) -> Ensemble:
    cfg = EnsembleConfig(strategy=strategy, members=[MemberConfig(n, "fixed") for n in members], **kw)
    cfg.validate()
    return Ensemble(cfg, {n: Fixed(s) for n, s in members.items()})


NAME = Span(*find("Aroha Ngata"), Category.NAME, "DOCTOR", 0.9, "a")
FIRST = Span(*find("Aroha"), Category.NAME, "OTHER", 0.8, "b")
LOC = Span(*find("Aroha Ngata"), Category.LOCATION, "CITY", 0.6, "c")
DATE = Span(*find("12/03/2021"), Category.DATE, "OTHER", 0.95, "a")
PHONE = Span(*find("(09) 555 1234"), Category.CONTACT, "PHONE", 0.99, "a")
PARK = Span(*find("Parkinson"), Category.NAME, "OTHER", 0.55, "c")


def texts(spans):
    return [(TEXT[s.start : s.end], s.category) for s in spans]


def test_union_takes_any_member_and_priority_decides_category():
    e = ens("union", {"a": [NAME, DATE, PHONE], "b": [FIRST], "c": [LOC, PARK]}, priority=["c", "a", "b"])
    out = e.detect(TEXT)
    got = texts(out)
    # c is first in priority, so its LOCATION wins over a's NAME for the same words
    assert ("Aroha Ngata", Category.LOCATION) in got
    assert ("Parkinson", Category.NAME) in got  # union keeps a lone member's finding
    assert ("12/03/2021", Category.DATE) in got
    # the phone keeps its opening bracket although "(" is not a word character
    assert ("(09) 555 1234", Category.CONTACT) in got
    e2 = ens("union", {"a": [NAME], "c": [LOC]}, priority=["a", "c"])
    assert texts(e2.detect(TEXT)) == [("Aroha Ngata", Category.NAME)]


def test_majority_needs_more_than_half():
    e = ens("majority", {"a": [NAME, DATE], "b": [FIRST, DATE], "c": [PARK]})
    got = texts(e.detect(TEXT))
    assert ("12/03/2021", Category.DATE) in got
    # "Aroha" has 2 of 3 votes, "Ngata" only 1: the span shrinks to the agreed word
    assert ("Aroha", Category.NAME) in got
    assert not any(t == "Parkinson" for t, _ in got)


def test_majority_tie_is_broken_by_the_best_member():
    members = {"a": [NAME], "b": []}
    assert texts(ens("majority", members, tie_breaker="a").detect(TEXT)) == [("Aroha Ngata", Category.NAME)]
    assert ens("majority", members, tie_breaker="b").detect(TEXT) == []


def test_soft_vote_uses_weights_and_threshold():
    members = {"a": [NAME], "c": [PARK]}
    cfg = EnsembleConfig(strategy="soft_vote", threshold=0.5, members=[MemberConfig("a", "x", weight=0.8), MemberConfig("c", "x", weight=0.2)])
    e = Ensemble(cfg, {n: Fixed(s) for n, s in members.items()})
    got = texts(e.detect(TEXT))
    assert got == [("Aroha Ngata", Category.NAME)]  # 0.8*0.9 >= 0.5; 0.2*0.55 < 0.5
    e2 = Ensemble(cfg, {n: Fixed(s) for n, s in members.items()}, weights={"a": 0.2, "c": 0.8})
    assert texts(e2.detect(TEXT)) == []  # 0.2*0.9 and 0.8*0.55 both below 0.5


def test_members_recorded_on_spans():
    e = ens("union", {"a": [NAME], "b": [FIRST]})
    (span,) = e.detect(TEXT)
    assert set(span.members) == {"a", "b"} and span.fine == "DOCTOR"


def test_config_errors_are_clear(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text('[ensemble]\nstrategy = "vote"\n[[member]]\nname="r"\ntype="rules"\n')
    with pytest.raises(ConfigError, match="unknown ensemble strategy"):
        EnsembleConfig.load(p)
    p.write_text('[ensemble]\nstrategy = "union"\n')
    with pytest.raises(ConfigError, match="no members"):
        EnsembleConfig.load(p)
    p.write_text("[ensemble\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        EnsembleConfig.load(p)


def test_shipped_configs_load():
    for name in ("default", "union", "majority", "soft_vote", "rules_only"):
        from deid_desktop.core.paths import resource

        cfg = EnsembleConfig.load(resource("ensembles", f"{name}.toml"))
        assert cfg.members[0].type == "rules"


# -- Brier weights (002, Eq. 6) ---------------------------------------------------------

def test_eq6_recovers_known_weight_on_synthetic_data():
    rng = np.random.default_rng(0)
    n = 20000
    f1, f2 = rng.random(n), rng.random(n)
    w_true = 0.7
    y = w_true * f1 + (1 - w_true) * f2 + rng.normal(0, 0.05, n)
    assert eq6_weight(f1, f2, y) == pytest.approx(w_true, abs=0.01)
    w = fit_brier_weights(np.stack([f1, f2], 1), y)
    assert w[0] == pytest.approx(eq6_weight(f1, f2, y), abs=1e-6)


def test_general_fit_recovers_three_member_weights_and_minimises_brier():
    rng = np.random.default_rng(1)
    F = rng.random((30000, 3))
    true = np.array([0.5, 0.3, 0.2])
    y = F @ true + rng.normal(0, 0.02, len(F))
    w = fit_brier_weights(F, y)
    assert np.allclose(w, true, atol=0.01) and w.sum() == pytest.approx(1.0)
    for other in ([1 / 3] * 3, [0.6, 0.2, 0.2], [0.4, 0.4, 0.2]):
        assert brier_score(F, y, w) <= brier_score(F, y, np.array(other))


def test_useless_member_gets_zero_weight():
    rng = np.random.default_rng(2)
    y = (rng.random(5000) > 0.7).astype(float)
    good = np.clip(y + rng.normal(0, 0.1, len(y)), 0, 1)
    anti = 1 - y  # always wrong
    w = fit_brier_weights(np.stack([good, anti], 1), y)
    assert w[1] == 0.0 and w[0] == 1.0


def test_fit_ensemble_weights_prefers_the_member_that_matches_gold():
    gold = [NAME, DATE]
    e = ens("soft_vote", {"a": [NAME, DATE], "c": [PARK, LOC]})
    w = fit_ensemble_weights(e, [(TEXT, gold)])
    assert w["a"] > 0.9 and w["c"] < 0.1


def test_adjacent_values_of_different_kinds_stay_separate_spans():
    text = "Address: 22 Cromwell Street, Leeds LS6 2PQ"
    city = Span(text.index("Leeds"), text.index("Leeds") + 5, Category.LOCATION, "CITY", 0.8, "r")
    zipc = Span(text.index("LS6"), len(text), Category.LOCATION, "ZIP", 0.9, "r")
    out = ens("union", {"r": [city, zipc]}).detect(text)
    assert [(text[s.start:s.end], s.fine) for s in out] == [("Leeds", "CITY"), ("LS6 2PQ", "ZIP")]


def test_majority_with_a_missing_tie_breaker_falls_back_to_the_first_member():
    cfg = EnsembleConfig(strategy="majority", tie_breaker="gone", members=[MemberConfig("a", "x"), MemberConfig("b", "x"), MemberConfig("gone", "x")])
    e = Ensemble(cfg, {"a": Fixed([NAME]), "b": Fixed([])})  # "gone" did not load (no model built)
    assert texts(e.detect(TEXT)) == [("Aroha Ngata", Category.NAME)]


def test_shipped_ensemble_guards_model_findings_in_clinical_terms():
    """A member that reads an eponym or a unit as a name is overruled by the guard."""
    from deid_desktop.core.detect.guards import ClinicalTermGuard

    text = "Known Parkinson's disease; troponin 2150\nng/L. Seen by Dr Aroha Ngata."
    wrong = [Span(text.index("Parkinson"), text.index("Parkinson") + 9, Category.NAME, score=0.9),
             Span(text.index("ng/L"), text.index("ng/L") + 2, Category.NAME, score=0.9)]
    right = Span(text.index("Aroha"), len(text) - 1, Category.NAME, score=0.9)
    cfg = EnsembleConfig(strategy="union", members=[MemberConfig("m", "x")])
    e = Ensemble(cfg, {"m": Fixed(wrong + [right])}, guard=ClinicalTermGuard.default())
    assert [text[s.start:s.end] for s in e.detect(text)] == ["Aroha Ngata"]
