"""The template language and the template data of the synthetic corpus (no generator needed)."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from deid_desktop.core.errors import ConfigError
from deid_desktop.core.learn import synth
from deid_desktop.core.learn.templates import (
    CONVENTIONS,
    DEFAULT_ROOT,
    NOTE_TYPES,
    Choice,
    Maybe,
    Phrase,
    Repeat,
    Slot,
    TemplateSyntaxError,
    Text,
    parse,
)


# --- the language -----------------------------------------------------------------------


def test_parse_reads_every_construct():
    nodes = parse("Dear {DOCTOR2.title_last},\n{@med}{=GP|PCP}{?0.25:cc {GP.full}}{*2-4:- {@lab}\n}")
    assert nodes[0] == Text("Dear ")
    assert nodes[1] == Slot(kind="DOCTOR2", base="DOCTOR", arg="title_last")
    assert nodes[3] == Phrase("med")
    assert nodes[4] == Choice(((Text("GP"),), (Text("PCP"),)))
    maybe = nodes[5]
    assert isinstance(maybe, Maybe) and maybe.probability == 0.25
    assert maybe.body[1] == Slot(kind="GP", base="GP", arg="full")
    rep = nodes[6]
    assert isinstance(rep, Repeat) and (rep.low, rep.high) == (2, 4)


def test_pipes_and_colons_are_plain_text_outside_a_choice():
    nodes = parse("| Hb | 112 |\nBP: 120/80 {?0.5:K+: 4.1 | Na: 140}")
    assert nodes[0] == Text("| Hb | 112 |\nBP: 120/80 ")
    assert nodes[1] == Maybe(0.5, (Text("K+: 4.1 | Na: 140"),))


def test_choice_options_may_nest_constructs():
    (choice,) = parse("{=seen by {DOCTOR.title_last}|{?0.5:no one}}")
    assert isinstance(choice, Choice) and len(choice.options) == 2
    assert choice.options[0][1] == Slot("DOCTOR", "DOCTOR", "title_last")


def test_escapes_give_literal_braces_and_pipes():
    assert parse(r"a \{b\} \| c") == (Text("a {b} | c"),)


@pytest.mark.parametrize(
    "source, reason",
    [
        ("line one\nDear {PATIENT.full", "line 2"),
        ("closing } alone", "without a matching"),
        ("{?1.5:too likely}", "outside 0..1"),
        ("{*4-2:backwards}", "backwards"),
        ("{lowercase}", "bad slot"),
        ("{@Bad-Name}", "bad phrase"),
    ],
)
def test_syntax_errors_say_where_and_why(source, reason):
    with pytest.raises(TemplateSyntaxError, match=reason):
        parse(source)


# --- the shipped templates ----------------------------------------------------------------


def test_many_families_cover_every_note_type_and_convention():
    templates = synth.load_templates()
    assert len(templates) >= 40
    assert len({t.family for t in templates}) == len(templates)
    by_type = Counter(t.note_type for t in templates)
    assert set(by_type) == set(NOTE_TYPES)
    assert all(count >= 3 for count in by_type.values()), by_type
    assert {t.convention for t in templates} == set(CONVENTIONS)
    assert all(t.description for t in templates)


def test_templates_use_each_conventions_identifiers():
    # A UK note that says "SSN" or a US note that says "NHS No" teaches the model nonsense.
    for t in synth.load_templates():
        source = t.path.read_text(encoding="utf-8")
        if t.convention == "UK":
            assert "SSN" not in source, t.family
        if t.convention == "US":
            assert "NHS" not in source and "NHI" not in source, t.family
        if t.convention == "NZ":
            assert "Medicare" not in source, t.family


def test_splits_hold_out_a_quarter_with_whole_note_types_and_pairs():
    templates = synth.load_templates()
    splits = synth.load_splits()
    held = [t for t in templates if splits.is_heldout(t)]
    assert len(held) >= 0.25 * len(templates)
    assert all(t.family in splits.heldout_families for t in templates if t.note_type == "lab_report")
    assert all(t.family in splits.heldout_families for t in templates if (t.convention, t.note_type) == ("NZ", "nursing_note"))
    train = synth.split_templates("train")
    heldout = synth.split_templates("heldout")
    assert {t.family for t in train}.isdisjoint({t.family for t in heldout})
    assert len(train) + len(heldout) == len(templates)
    # Training still sees every convention, and every note type but the held-out ones.
    assert {t.convention for t in train} == set(CONVENTIONS)
    assert {t.note_type for t in train} == set(NOTE_TYPES) - splits.heldout_note_types
    assert "lab_report" not in {t.note_type for t in train}
    assert splits.heldout_origins


@pytest.fixture()
def template_root(tmp_path: Path) -> Path:
    root = tmp_path / "templates"
    shutil.copytree(DEFAULT_ROOT, root)
    return root


def _write_family(root: Path, body: str, name: str = "broken.toml", **keys: str) -> Path:
    meta = {"family": "broken_family", "note_type": "phone_message", "convention": "UK"} | keys
    lines = [f'{k} = "{v}"' for k, v in meta.items()]
    path = root / "families" / name
    path.write_text("\n".join(lines) + "\nbody = '''\n" + body + "\n'''\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "body, keys, reason",
    [
        ("Called {PATIENT.full", {}, "never closed"),
        ("Called {NOBODY.full}", {}, "unknown slot kind"),
        ("Called {PATIENT.shout}", {}, "unknown name format"),
        ("Takes {@no_such_list}", {}, "unknown phrase list"),
        ("fine", {"convention": "FR"}, "unknown convention"),
        ("fine", {"note_type": "poem"}, "unknown note_type"),
        ("fine", {"family": "us_discharge_structured"}, "also defined"),
    ],
)
def test_a_bad_template_file_is_refused_naming_the_file(template_root, body, keys, reason):
    _write_family(template_root, body, **keys)
    with pytest.raises(ConfigError, match=reason) as err:
        synth.load_templates(template_root)
    assert "broken.toml" in str(err.value) or "us_discharge_structured" in str(err.value)


def test_splits_naming_a_missing_family_are_refused(template_root):
    path = template_root / "splits.toml"
    path.write_text(path.read_text(encoding="utf-8").replace('"nz_operation_note"', '"nz_no_such_family"'), encoding="utf-8")
    with pytest.raises(ConfigError, match="nz_no_such_family"):
        synth.load_splits(template_root)


def test_unknown_noise_setting_is_refused(template_root):
    (template_root / "noise.toml").write_text("[layout]\ncrlf = 0.1\nsparkle = 0.5\n", encoding="utf-8")
    from deid_desktop.core.learn.noise import NoiseConfig

    with pytest.raises(ConfigError, match="sparkle"):
        NoiseConfig.load(template_root)
