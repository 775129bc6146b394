"""Ensemble and training files are checked against a schema: a misspelt key, a value of the
wrong type, an unknown member type or an option a member does not take is an error naming the
file, the key and what is allowed; ``extends`` lets one file build on another."""

from __future__ import annotations

import pytest

from deid_desktop.core.detect.ensemble import EnsembleConfig
from deid_desktop.core.detect.rules import RuleSet, default_rule_names, rule_detector_names
from deid_desktop.core.errors import ConfigError
from deid_desktop.core.learn.train import TrainConfig
from deid_desktop.core.paths import resource

RULES_MEMBER = '[[member]]\nname = "rules"\ntype = "rules"\n'

# What the shipped default.toml resolved to before the shipped files used `extends`; the
# other three are this with another strategy.
DEFAULT_RESOLVED = {
    "ensemble": {
        "strategy": "majority",
        "priority": ["rules", "minilm-balanced", "minilm-imbalanced"],
        "threshold": 0.5,
        "propagate": True,
        "whole_span_categories": ["NAME", "DATE", "AGE", "LOCATION", "ORGANIZATION", "CONTACT", "ID"],
        "trust_validated": True,
        "side_by_side": True,
        "cascade": True,
        "tie_breaker": "minilm-balanced",
        "category_weights": "category_weights.toml",
    },
    "member": [
        {"name": "rules", "type": "rules", "weight": 0.34, "optional": False},
        {"name": "minilm-balanced", "type": "transformer", "weight": 0.33, "optional": True, "model": "minilm-balanced"},
        {"name": "minilm-imbalanced", "type": "transformer", "weight": 0.33, "optional": True, "model": "minilm-imbalanced"},
    ],
}


def _error(tmp_path, body: str, name: str = "mine.toml") -> str:
    p = tmp_path / name
    p.write_text(body, encoding="utf-8")
    with pytest.raises(ConfigError) as e:
        EnsembleConfig.load(p)
    return str(e.value)


@pytest.mark.parametrize(
    "body, words",
    [
        ('[ensemble]\nstratgy = "soft_vote"\n' + RULES_MEMBER, ["mine.toml", "'stratgy'", "strategy", "threshold"]),
        ('[ensemble]\npropogate = false\n' + RULES_MEMBER, ["mine.toml", "'propogate'", "propagate"]),
        ('[ensemble]\nstrategy = "vote"\n' + RULES_MEMBER, ["mine.toml", "'vote'", "union, majority, soft_vote"]),
        ('[ensemble]\nthreshold = "high"\n' + RULES_MEMBER, ["mine.toml", "'threshold'", "a number", "not a string"]),
        # bool("no") is True: this turned propagation on while it meant off
        ('[ensemble]\npropagate = "no"\n' + RULES_MEMBER, ["mine.toml", "'propagate'", "true or false"]),
        ('[ensemble]\nstrategy = "union"\n[[member]]\nname = "x"\ntype = "allow_denny"\n', ["mine.toml", "'allow_denny'", "allow_deny", "transformer"]),
        # an option a member does not take was dropped without a word
        (RULES_MEMBER + 'detectrs = ["date"]\n', ["mine.toml", "'detectrs'", "detectors"]),
        (RULES_MEMBER + 'detectors = ["date", "nhs_numbr"]\n', ["mine.toml", "'nhs_numbr'", "nhs_number"]),
        (RULES_MEMBER + 'weight = "heavy"\n', ["mine.toml", "'weight'", "a number"]),
        ('[[member]]\nname = "m"\ntype = "transformer"\nmodel = "x"\noptional = true\nbatchsize = 8\n', ["mine.toml", "'batchsize'", "batch_size"]),
        ('[[member]]\nname = "d"\ntype = "allow_deny"\ndeny_fil = "x.txt"\n', ["mine.toml", "'deny_fil'", "deny_file"]),
        ('[ensemble]\nstrategy = "union"\n', ["mine.toml", "no members"]),
    ],
)
def test_a_mistake_in_an_ensemble_file_names_the_file_the_key_and_what_is_allowed(tmp_path, body, words):
    message = _error(tmp_path, body)
    for w in words:
        assert w in message, (w, message)


def test_an_ensemble_file_extends_a_shipped_one_by_its_bare_name(tmp_path):
    p = tmp_path / "mine.toml"
    p.write_text('extends = "default.toml"\n\n[ensemble]\nstrategy = "union"\npropagate = false\n', encoding="utf-8")
    cfg = EnsembleConfig.load(p)
    assert (cfg.strategy, cfg.propagate, cfg.tie_breaker) == ("union", False, "minilm-balanced")
    assert [m.name for m in cfg.members] == ["rules", "minilm-balanced", "minilm-imbalanced"]
    # members given in the extending file replace the extended file's list whole
    p.write_text('extends = "default.toml"\n\n[ensemble]\nstrategy = "union"\npriority = []\ntie_breaker = "rules"\n' + RULES_MEMBER, encoding="utf-8")
    assert [m.name for m in EnsembleConfig.load(p).members] == ["rules"]


def test_a_mistake_in_an_extended_file_names_that_file(tmp_path):
    (tmp_path / "base.toml").write_text('[ensemble]\nstratgy = "union"\n' + RULES_MEMBER, encoding="utf-8")
    message = _error(tmp_path, 'extends = "base.toml"\n')
    assert message.startswith("base.toml: unknown key 'stratgy'")
    assert "loops back" in _error(tmp_path, 'extends = "mine.toml"\n' + RULES_MEMBER)
    assert "does not exist" in _error(tmp_path, 'extends = "nowhere.toml"\n')


def test_the_shipped_ensembles_resolve_as_they_did_before_they_used_extends():
    resolved = {n: EnsembleConfig.load(resource("ensembles", f"{n}.toml")).to_dict() for n in ("default", "majority", "union", "soft_vote")}
    assert resolved["default"] == DEFAULT_RESOLVED
    for name, strategy in (("majority", "majority"), ("union", "union"), ("soft_vote", "soft_vote")):
        assert resolved[name] == {**DEFAULT_RESOLVED, "ensemble": {**DEFAULT_RESOLVED["ensemble"], "strategy": strategy}}, name
    # int8.toml is the default with its models quantised, nothing else
    int8 = EnsembleConfig.load(resource("ensembles", "int8.toml")).to_dict()
    quantised = [{**m, "quantize": True} if m["type"] == "transformer" else m for m in DEFAULT_RESOLVED["member"]]
    assert int8 == {**DEFAULT_RESOLVED, "member": quantised}
    # and they are no longer copies of it
    for name in ("majority", "union", "soft_vote"):
        assert "[[member]]" not in resource("ensembles", f"{name}.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "body, words",
    [
        ('[training]\nepochs = "2"\n', ["t.toml", "'epochs'", "a whole number", "not a string"]),
        ('[training]\nlearning_rat = 0.1\n', ["t.toml", "'learning_rat'", "learning_rate"]),
        ('[trainig]\nepochs = 2\n', ["t.toml", "'trainig'", "training"]),
        ('[training]\nfreeze_embeddings = 1\n', ["t.toml", "'freeze_embeddings'", "true or false"]),
        ('[training]\nselection = "half"\n', ["t.toml", "selection"]),
    ],
)
def test_a_mistake_in_a_training_file_names_the_file_and_the_setting(tmp_path, body, words):
    p = tmp_path / "t.toml"
    p.write_text(body, encoding="utf-8")
    with pytest.raises(ConfigError) as e:
        TrainConfig.load(p)
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_a_training_file_extends_a_shipped_one_and_a_whole_number_counts_as_a_float(tmp_path):
    p = tmp_path / "t.toml"
    p.write_text('extends = "balanced.toml"\n\n[training]\nepochs = 1\nlearning_rate = 1\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"t.toml: learning_rate must be in \(0, 1\)"):
        TrainConfig.load(p)
    p.write_text('extends = "balanced.toml"\n\n[training]\nepochs = 1\nphi_weight = 2\n', encoding="utf-8")
    cfg = TrainConfig.load(p)
    assert (cfg.name, cfg.epochs, cfg.phi_weight, cfg.max_examples) == ("minilm-balanced", 1, 2.0, 7000)
    assert isinstance(cfg.phi_weight, float)


def test_the_default_rule_list_is_data_naming_registered_rules():
    names = default_rule_names()
    assert list(RuleSet().names) == list(names)
    assert "nhs_number" in names and set(names) <= set(rule_detector_names())
    text = resource("rules", "default.toml").read_text(encoding="utf-8")
    assert all(f'"{n}"' in text for n in names)


def test_an_unknown_name_in_the_rule_list_names_the_file_and_the_known_rules(tmp_path, monkeypatch):
    import shutil

    shipped = resource()
    for part in ("rules", "dictionaries", "guards", "inclusion"):
        shutil.copytree(shipped / part, tmp_path / part)
    (tmp_path / "rules" / "default.toml").write_text('detectors = ["date", "nhs_numbr"]\n', encoding="utf-8")
    monkeypatch.setenv("DEID_RESOURCES", str(tmp_path))
    default_rule_names.cache_clear()
    try:
        with pytest.raises(ConfigError) as e:
            RuleSet()
        assert "default.toml: unknown rule detector 'nhs_numbr'" in str(e.value) and "nhs_number" in str(e.value)
    finally:
        default_rule_names.cache_clear()
