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
    # "Aroha" has 2 of 3 votes, "Ngata" only 1: a's name is accepted in part, so it is
    # accepted whole (no surname left behind in the export)
    assert ("Aroha Ngata", Category.NAME) in got
    assert not any(t == "Parkinson" for t, _ in got)
    # per-word voting alone, without whole-span acceptance, shrinks it to the agreed word
    e = ens("majority", {"a": [NAME, DATE], "b": [FIRST, DATE], "c": [PARK]}, whole_span_categories=())
    assert ("Aroha", Category.NAME) in texts(e.detect(TEXT))


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
    for name in ("default", "union", "majority", "soft_vote", "rules_only", "int8"):
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


# -- issue 10: what the precise members know is not thrown away --------------------------------

NOTE = "DOB 25.10.99, portal https://remote-cardiac.example.org/login, NHI ZZZ0016. Parkinson disease."


def at(text: str, sub: str) -> tuple[int, int]:
    i = text.index(sub)
    return i, i + len(sub)


def rules_and_two_silent_models(strategy: str, **kw) -> Ensemble:
    """The shipped rule set beside two 'models' that say O everywhere."""
    from deid_desktop.core.detect.guards import ClinicalTermGuard
    from deid_desktop.core.detect.inclusion import InclusionList
    from deid_desktop.core.detect.rules import RuleSet

    cfg = EnsembleConfig(strategy=strategy, members=[MemberConfig(n, "fixed") for n in ("rules", "m1", "m2")], **kw)
    cfg.validate()
    members = {"rules": RuleSet(inclusion=InclusionList()), "m1": Fixed([]), "m2": Fixed([])}
    return Ensemble(cfg, members, weights={"rules": 0.1, "m1": 0.45, "m2": 0.45}, guard=ClinicalTermGuard.default())


@pytest.mark.parametrize("strategy", ["union", "majority", "soft_vote"])
def test_a_validated_pattern_is_never_out_voted(strategy):
    # two members of three say O and the rules' weight is small, yet a check-digit NHI, a
    # URL with its scheme and a full date are PHI, whole
    got = {(NOTE[s.start : s.end], s.category) for s in rules_and_two_silent_models(strategy).detect(NOTE)}
    assert ("25.10.99", Category.DATE) in got
    assert ("https://remote-cardiac.example.org/login", Category.CONTACT) in got
    assert ("ZZZ0016", Category.ID) in got


def test_validated_spans_can_be_out_voted_only_when_the_configuration_says_so():
    e = rules_and_two_silent_models("majority", trust_validated=False)
    assert e.detect(NOTE) == []


def test_a_member_span_accepted_in_part_is_output_whole():
    url = Span(*at(NOTE, "https://remote-cardiac.example.org/login"), Category.CONTACT, "URL", 0.8, "rules")
    part = Span(*at(NOTE, "https://remote-cardiac"), Category.CONTACT, "URL", 0.9, "m1")
    dob = Span(*at(NOTE, "25.10.99"), Category.DATE, "OTHER", 0.8, "rules")
    day = Span(*at(NOTE, "25"), Category.DATE, "OTHER", 0.7, "m1")
    for strategy in ("majority", "soft_vote"):
        e = Ensemble(
            EnsembleConfig(strategy=strategy, members=[MemberConfig(n, "fixed") for n in ("rules", "m1", "m2")]),
            {"rules": Fixed([url, dob]), "m1": Fixed([part, day]), "m2": Fixed([])},
        )
        got = [NOTE[s.start : s.end] for s in e.detect(NOTE)]
        # the vote accepted "https", "remote", "cardiac" and "25"; no piece of either is left behind
        assert got == ["25.10.99", "https://remote-cardiac.example.org/login"], strategy


def test_the_guard_still_vetoes_an_eponym_and_a_score():
    from deid_desktop.core.detect.guards import ClinicalTermGuard

    text = "Parkinson disease, GCS 14/15 on review."
    eponym = Span(*at(text, "Parkinson"), Category.NAME, "PATIENT", 0.99, "x", validated=True)
    score = Span(*at(text, "14/15"), Category.DATE, "OTHER", 0.99, "x", validated=True)
    e = Ensemble(
        EnsembleConfig(strategy="majority", members=[MemberConfig(n, "fixed") for n in ("a", "b", "c")]),
        {"a": Fixed([eponym, score]), "b": Fixed([eponym]), "c": Fixed([])},
        guard=ClinicalTermGuard.default(),
    )
    assert e.detect(text) == []


def test_soft_vote_trusts_a_member_on_the_categories_it_is_precise_on():
    date = Span(*find("12/03/2021"), Category.DATE, "OTHER", 0.9, "a")
    name = Span(*find("Aroha Ngata"), Category.NAME, "DOCTOR", 0.9, "a")
    cfg = EnsembleConfig(strategy="soft_vote", members=[MemberConfig("a", "fixed"), MemberConfig("b", "fixed")], whole_span_categories=())
    members = {"a": Fixed([date, name]), "b": Fixed([])}
    overall_only = Ensemble(cfg, members, weights={"a": 0.5, "b": 0.5})
    assert overall_only.detect(TEXT) == []  # 0.5 * 0.9 < 0.5
    by_cat = Ensemble(cfg, members, weights={"a": 0.5, "b": 0.5}, category_weights={
        "a": {Category.DATE: 0.9, Category.NAME: 0.2}, "b": {Category.DATE: 0.1, Category.NAME: 0.8}})
    assert texts(by_cat.detect(TEXT)) == [("12/03/2021", Category.DATE)]
    assert by_cat.describe()["category_weights"]["a"]["DATE"] == pytest.approx(0.9)


def test_per_category_fit_recovers_known_weights():
    from deid_desktop.core.detect.weights import fit_brier_weights_by_category

    rng = np.random.default_rng(3)
    true = {Category.DATE: np.array([0.7, 0.2, 0.1]), Category.NAME: np.array([0.1, 0.5, 0.4])}
    Fs, Ls, ys = [], [], []
    for cat, w in true.items():
        F = rng.uniform(0.05, 1.0, size=(400, 3))
        Fs.append(F)
        Ls.append(np.full((400, 3), cat, dtype=object))
        ys.append(F @ w + rng.normal(0, 0.005, 400))
    fitted = fit_brier_weights_by_category(np.vstack(Fs), np.vstack(Ls), np.concatenate(ys), list(Category))
    assert set(fitted) == {Category.DATE, Category.NAME}  # no data, no weights for the rest
    for cat, w in true.items():
        assert np.allclose(fitted[cat], w, atol=0.02)


def test_per_category_fit_follows_each_members_reliability_per_category():
    """Member scores drawn from known per-category precisions: the rules are right on every
    date they mark and wrong on 70 % of the names; the model the other way round."""
    from deid_desktop.core.detect.weights import fit_brier_weights_by_category

    rng = np.random.default_rng(7)
    precision = {("rules", Category.DATE): 0.99, ("model", Category.DATE): 0.4, ("rules", Category.NAME): 0.3, ("model", Category.NAME): 0.97}
    F, L, y = [], [], []
    for cat in (Category.DATE, Category.NAME):
        for _ in range(3000):
            phi = rng.random() < 0.5
            row_f, row_l = [], []
            for member in ("rules", "model"):
                p = precision[(member, cat)]
                # says the category on a PHI word always, on a non-PHI word as often as its
                # precision allows
                says = phi or rng.random() < (1 - p) / p
                row_f.append(0.9 if says else 0.0)
                row_l.append(cat if says else None)
            F.append(row_f)
            L.append(row_l)
            y.append(1.0 if phi else 0.0)
    fitted = fit_brier_weights_by_category(np.array(F), np.array(L, dtype=object), np.array(y), list(Category))
    assert fitted[Category.DATE][0] > 0.8 > 0.2 > fitted[Category.DATE][1]
    assert fitted[Category.NAME][1] > 0.8 > 0.2 > fitted[Category.NAME][0]


def test_misspelt_or_invalid_ensemble_keys_are_config_errors(tmp_path):
    cases = {
        '[ensemble]\nstratgy = "soft_vote"\n': "stratgy",  # silently ran union before
        '[ensemble]\nstrategy = "union"\n[extra]\nx = 1\n': "extra",
        '[ensemble]\nwhole_span_categories = ["NAMES"]\n': "whole_span_categories",
        '[ensemble]\ncategory_weights = "nowhere.toml"\n': "nowhere.toml",
    }
    for body, word in cases.items():
        p = tmp_path / "e.toml"
        p.write_text(body + '[[member]]\nname = "rules"\ntype = "rules"\n', encoding="utf-8")
        with pytest.raises(ConfigError, match=word):
            Ensemble.from_config(EnsembleConfig.load(p))


def test_a_bad_category_weights_file_is_a_config_error(tmp_path):
    (tmp_path / "w.toml").write_text('[weights.rules]\nDATE = -1\n', encoding="utf-8")
    (tmp_path / "e.toml").write_text(
        '[ensemble]\ncategory_weights = "w.toml"\n[[member]]\nname = "rules"\ntype = "rules"\n', encoding="utf-8"
    )
    with pytest.raises(ConfigError, match="DATE"):
        Ensemble.from_config(EnsembleConfig.load(tmp_path / "e.toml"))


def test_whole_span_acceptance_stops_at_a_layout_gap():
    text = "Consultant: Dr Aroha Ngata      Ward: Kowhai\n"
    joined = Span(*at(text, "Aroha Ngata      Ward"), Category.NAME, "DOCTOR", 0.8, "a")  # runs into the next field
    first = Span(*at(text, "Aroha"), Category.NAME, "DOCTOR", 0.9, "b")
    e = Ensemble(
        EnsembleConfig(strategy="majority", members=[MemberConfig(n, "fixed") for n in ("a", "b", "c")]),
        {"a": Fixed([joined]), "b": Fixed([first]), "c": Fixed([])},
    )
    assert [text[s.start : s.end] for s in e.detect(text)] == ["Aroha Ngata"]


def test_a_span_across_two_cells_of_a_row_is_output_as_two():
    text = "MMR (1)            02/2024        MM1182\n"
    across = Span(*at(text, "1)            02/2024"), Category.DATE, "OTHER", 0.9, "a")  # a model's, over the gap
    date = Span(*at(text, "02/2024"), Category.DATE, "OTHER", 0.9, "b")
    e = ens("union", {"a": [across], "b": [date]})
    assert [text[s.start : s.end] for s in e.detect(text)] == ["1", "02/2024"]


def test_one_span_that_every_member_ran_across_a_column_gap_is_still_two():
    # both models read a form's name field and the next column's label as one organisation;
    # before, words the same span covered joined across the gap whatever the gap was
    text = "Pt: Beulah Mae Ashcraft   Hospice ID HO-55217\n"
    across = Span(*at(text, "Beulah Mae Ashcraft   Hospice"), Category.ORGANIZATION, "OTHER", 0.95, "a")
    e = ens("majority", {"a": [across], "b": [across.with_(source="b")], "c": []})
    assert [text[s.start : s.end] for s in e.detect(text)] == ["Beulah Mae Ashcraft", "Hospice"]


def test_a_name_with_a_nickname_in_brackets_is_one_span_with_its_brackets_and_a_phone_keeps_its_own():
    text = "Resident: Mrs Elspeth (Betty) Gruar, ph (09) 555 1234\n"
    across = Span(*at(text, "Betty) Gruar"), Category.NAME, "PATIENT", 0.9, "a")  # a model's, over the bracket
    first = Span(*at(text, "Elspeth"), Category.NAME, "PATIENT", 0.9, "b")
    phone = Span(*at(text, "(09) 555 1234"), Category.CONTACT, "PHONE", 0.9, "b")
    e = ens("union", {"a": [across], "b": [first, phone]})
    # the three pieces are one name again after completion, brackets and all
    assert [text[s.start : s.end] for s in e.detect(text)] == ["Elspeth (Betty) Gruar", "(09) 555 1234"]


class Stepwise(Fixed):
    """A member that, like a transformer, reports how far it is through its batches."""

    def detect_many(self, texts, progress=None):
        for done in (0.25, 0.5, 0.75, 1.0):
            if progress is not None:
                progress(done)
        return [list(self.spans) for _ in texts]


def test_member_spans_reports_the_share_done_inside_members_that_report_it():
    cfg = EnsembleConfig(strategy="union", members=[MemberConfig("rules", "fixed"), MemberConfig("model", "fixed")])
    e = Ensemble(cfg, {"rules": Fixed([DATE]), "model": Stepwise([NAME])})
    started, shares = [], []
    (by_member,) = e.member_spans([TEXT], progress=started.append, fraction=shares.append)
    assert started == ["rules", "model"]
    # The rules finish in a blink; the model's batches make up the whole bar.
    assert shares == [0.0, 0.25, 0.5, 0.75, 1.0, 1.0]
    assert by_member == {"rules": [DATE.with_(source="rules")], "model": [NAME.with_(source="model")]}
    assert e.member_spans([TEXT]) == [by_member]  # the callbacks change nothing found


def test_member_spans_without_reporting_members_moves_one_member_at_a_time():
    e = ens("union", {"a": [NAME], "b": [DATE]})
    shares = []
    e.member_spans([TEXT], fraction=shares.append)
    assert shares == [0.5, 1.0]


def test_what_completion_cuts_from_a_value_is_judged_by_the_guard_again():
    # two models read "Jewish ancestry" as an organisation; the guard passed the two words,
    # completion cut the lower-case word off, and "Jewish" alone went out as an organisation
    from deid_desktop.core.detect.guards import ClinicalTermGuard

    text = "You are of Ashkenazi Jewish ancestry on both sides, seen at Fonterra site B.\n"
    org = Span(*at(text, "Jewish ancestry"), Category.ORGANIZATION, "OTHER", 0.9, "a")
    work = Span(*at(text, "Fonterra site"), Category.ORGANIZATION, "COMPANY", 0.9, "a")
    cfg = EnsembleConfig(strategy="majority", members=[MemberConfig(n, "fixed") for n in ("a", "b", "c")])
    e = Ensemble(cfg, {"a": Fixed([org, work]), "b": Fixed([org.with_(source="b"), work.with_(source="b")]), "c": Fixed([])},
                 guard=ClinicalTermGuard.default())
    assert [text[s.start : s.end] for s in e.detect(text)] == ["Fonterra"]


def test_where_no_two_members_agree_on_a_word_the_rules_reading_wins():
    # "Wendell": a name to the rules (after "Patient:"), an identifier to one model and a
    # place to the other. The tie-breaker model's "identifier" was then dropped by the guard
    # and the first name went out as written.
    text = "Patient: Abernathy-Cole, Wendell   66 y/o M\n"
    name = Span(*at(text, "Abernathy-Cole, Wendell"), Category.NAME, "PATIENT", 0.9, "rules")
    ident = Span(*at(text, "Wendell"), Category.ID, "OTHER", 0.44, "b")
    place = Span(*at(text, "Wendell"), Category.LOCATION, "CITY", 0.79, "c")
    cfg = EnsembleConfig(
        strategy="majority",
        members=[MemberConfig("rules", "rules"), MemberConfig("b", "fixed"), MemberConfig("c", "fixed")],
        tie_breaker="b",
    )
    e = Ensemble(cfg, {"rules": Fixed([name]), "b": Fixed([ident]), "c": Fixed([place])})
    assert [(text[s.start : s.end], s.category) for s in e.detect(text)] == [("Abernathy-Cole, Wendell", Category.NAME)]


def test_a_value_completion_adds_survives_the_guards_second_look_at_what_it_changed():
    # completion cut "Fonterra site" (so the guard judged the cut value again) and added the
    # state after "Mountain Home,"; the second look kept only what it had judged, and the
    # state, judged by no one, went out as written. "Denver, CO" parted from one span keeps
    # its state, though "CO" alone reads as a clinical abbreviation.
    from deid_desktop.core.detect.guards import ClinicalTermGuard

    text = "Works at the Fonterra site. Home: Mountain Home, AR; moved from Denver, CO\n"
    work = Span(*at(text, "Fonterra site"), Category.ORGANIZATION, "COMPANY", 0.9, "a")
    town = Span(*at(text, "Mountain Home"), Category.LOCATION, "CITY", 0.9, "a")
    both = Span(*at(text, "Denver, CO"), Category.LOCATION, "CITY", 0.9, "a")
    cfg = EnsembleConfig(strategy="majority", members=[MemberConfig(n, "fixed") for n in ("a", "b", "c")])
    spans = [work, town, both]
    e = Ensemble(cfg, {"a": Fixed(spans), "b": Fixed([s.with_(source="b") for s in spans]), "c": Fixed([])},
                 guard=ClinicalTermGuard.default())
    assert [text[s.start : s.end] for s in e.detect(text)] == ["Fonterra", "Mountain Home", "AR", "Denver", "CO"]


def test_a_word_without_digits_that_two_models_read_differently_keeps_its_words_reading():
    # one model: an identifier, the other: a place, the rules nothing. The tie-breaker's
    # "identifier" was dropped by the guard (no digit), and the first name went out as written.
    from deid_desktop.core.detect.guards import ClinicalTermGuard

    text = "Patient: Abernathy-Cole, Wendell   66 y/o M   IHI 8003 6012 3456 7890\n"
    ident = Span(*at(text, "Wendell"), Category.ID, "OTHER", 0.44, "b")
    place = Span(*at(text, "Wendell"), Category.LOCATION, "CITY", 0.79, "c")
    label_b = Span(*at(text, "IHI"), Category.ID, "OTHER", 0.6, "b")  # a record's label, read two ways
    label_c = Span(*at(text, "IHI"), Category.NAME, "OTHER", 0.6, "c")
    cfg = EnsembleConfig(strategy="majority", members=[MemberConfig(n, "fixed") for n in ("a", "b", "c")], tie_breaker="b")
    e = Ensemble(cfg, {"a": Fixed([]), "b": Fixed([ident, label_b]), "c": Fixed([place, label_c])}, guard=ClinicalTermGuard.default())
    assert [(text[s.start : s.end], s.category) for s in e.detect(text)] == [("Wendell", Category.LOCATION)]
