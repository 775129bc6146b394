"""Hand-written training notes (core/learn/notes.py): read from resources, rewritten with
surrogates, and trained on whole beside the capped synthetic corpus."""

from __future__ import annotations

import re

import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.learn.notes import ID_PREFIX, config_notes, load_notes, notes_folder, training_notes
from deid_desktop.core.learn.train import TrainConfig, train_model
from deid_desktop.core.models.tiny import build_tiny_model
from deid_desktop.core.paths import resource

from tests.core.learn_fixtures import letters

NOTE_A = "1_a.txt", "Seen by {{NAME|Kavitha Rao}} on {{DATE|12/03/2024}} at {{ORGANIZATION|Tamarind Rx}}.\nkavitha: called back.\n"
NOTE_B = "2_b.txt", "{{NAME|Hemi}} rang at 0940. Lives in {{LOCATION|Waikanae Beach}}; retired {{PROFESSION|fisherman}}.\n"


def _folder(tmp_path, *notes):
    for name, text in notes:
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_the_shipped_notes_parse_and_none_is_a_benchmark_test_note():
    folder = notes_folder(TrainConfig.load(resource("training", "default.toml")).notes)
    notes = load_notes(folder)
    assert len(notes) >= 100 and sum(len(d.spans) for d in notes) > 3000
    assert all(d.id.startswith(ID_PREFIX) for d in notes)
    numbers = [int(d.id[len(ID_PREFIX):].split("_", 1)[0]) for d in notes]
    # odd numbers from 101 up: the even ones and the fresh notes are test sets, and the odd ones
    # below 100 are the reviewed documents of the learning-loop benchmark
    assert all(n % 2 == 1 and n >= 101 for n in numbers) and numbers == sorted(numbers)
    bench = resource("..", "benchmarks", "data", "unseen_notes")
    if bench.is_dir():
        assert not {p.name for p in bench.glob("*.txt")} & {p.name for p in folder.glob("*.txt")}


def test_notes_are_read_in_number_order_with_their_marked_values(tmp_path):
    notes = load_notes(_folder(tmp_path, NOTE_B, NOTE_A, ("10_c.txt", "Nothing here.\n")))
    assert [d.id for d in notes] == ["note:1_a", "note:2_b", "note:10_c"]
    a = notes[0]
    assert [(a.text[s.start:s.end], s.category) for s in a.spans] == [
        ("Kavitha Rao", Category.NAME), ("12/03/2024", Category.DATE), ("Tamarind Rx", Category.ORGANIZATION)]
    assert "{{" not in a.text


def test_a_broken_note_is_named_without_its_text(tmp_path):
    _folder(tmp_path, NOTE_A, ("3_bad.txt", "Seen by {{NAME|Kavitha Rao on 12/03.\n"))
    with pytest.raises(ValueError) as e:
        load_notes(tmp_path)
    assert "3_bad" in str(e.value) and "Kavitha" not in str(e.value)
    with pytest.raises(ValueError, match="not found"):
        load_notes(tmp_path / "missing")


def test_rewrites_replace_every_marked_value_and_are_reproducible(tmp_path):
    folder = _folder(tmp_path, NOTE_A, NOTE_B)
    docs = training_notes(folder, rewrites=2, seed=13)
    assert len(docs) == 6
    originals = {d.id: d for d in docs[:2]}
    for d in docs[2:]:
        source = originals[d.id.rsplit("-aug", 1)[0]]
        assert len(d.spans) == len(source.spans)
        old = {source.text[s.start:s.end] for s in source.spans}
        new = {d.text[s.start:s.end] for s in d.spans}
        assert not old & new, "a rewrite kept a marked value"
        assert "called back" in d.text or "rang at 0940" in d.text  # the words around stay
    again = training_notes(folder, rewrites=2, seed=13)
    assert [d.text for d in again] == [d.text for d in docs]
    other = training_notes(folder, rewrites=2, seed=17)
    assert [d.text for d in other[2:]] != [d.text for d in docs[2:]]
    assert len(training_notes(folder, rewrites=0, seed=13)) == 2


def test_a_config_without_notes_asks_for_none_and_the_shipped_ones_ask_for_rewrites():
    assert config_notes(TrainConfig()) == []
    shipped = TrainConfig.load(resource("training", "balanced.toml"))
    assert shipped.notes and shipped.note_rewrites >= 1


@pytest.fixture(scope="module")
def tiny_base(tmp_path_factory):
    return build_tiny_model(tmp_path_factory.mktemp("tiny") / "base")


def test_max_examples_caps_the_synthetic_corpus_never_the_notes(tiny_base, tmp_path):
    folder = _folder(tmp_path, NOTE_A, NOTE_B)
    cfg = TrainConfig(name="tiny", base_model=str(tiny_base), epochs=1, batch_size=8, max_length=64, seed=5,
                      freeze_embeddings=False, precision="fp32", threads=1, selection="imbalanced",
                      max_examples=10, notes=str(folder), note_rewrites=1)
    notes = config_notes(cfg)
    r = train_model(cfg, letters(40), whole_docs=notes)
    n_note_sentences = sum(len([s for s in re.split(r"(?<=[.;])\s+", d.text) if s.strip()]) for d in notes)
    assert r.data["notes"]["documents"] == 4
    assert r.data["notes"]["examples"] >= 4
    assert r.data["examples_used"] == 10 + r.data["notes"]["examples"]
    assert n_note_sentences >= r.data["notes"]["examples"]
    plain = train_model(cfg, letters(40))
    assert plain.data["examples_used"] == 10 and "notes" not in plain.data


def test_every_sentence_of_the_notes_trains_even_under_a_balanced_selection(tiny_base, tmp_path):
    # a note with one PHI sentence and five without: a balanced selection would keep one of the five
    quiet = " ".join(f"Obs stable at check {i}." for i in range(5))
    folder = _folder(tmp_path, ("1_q.txt", f"Seen by {{{{NAME|Hemi Walker}}}}.\n{quiet}\n"))
    cfg = TrainConfig(name="tiny", base_model=str(tiny_base), epochs=1, batch_size=8, max_length=64, seed=5,
                      freeze_embeddings=False, precision="fp32", threads=1, selection="balanced",
                      notes=str(folder), note_rewrites=0)
    r = train_model(cfg, letters(4), whole_docs=config_notes(cfg))
    assert r.data["notes"]["examples"] == 6


def test_the_training_command_reads_the_notes_its_configuration_names(tiny_base, tmp_path, capsys):
    import json

    from deid_desktop.core.learn.gold import save_jsonl
    from deid_desktop.core.learn.train import main

    (tmp_path / "notes").mkdir()
    folder = _folder(tmp_path / "notes", NOTE_A, NOTE_B)
    save_jsonl(letters(8), tmp_path / "train.jsonl")
    cfg = tmp_path / "tiny.toml"
    cfg.write_text(
        f'[training]\nname = "cli-notes"\nbase_model = "{tiny_base.as_posix()}"\nepochs = 1\nbatch_size = 8\n'
        f'max_length = 64\nfreeze_embeddings = false\nprecision = "fp32"\nnotes = "{folder.as_posix()}"\nnote_rewrites = 2\n',
        encoding="utf-8",
    )
    assert main(["--config", str(cfg), "--train", str(tmp_path / "train.jsonl"), "--models-dir", str(tmp_path / "models")]) == 0
    manifest = json.loads((tmp_path / "models" / "cli-notes" / "v1" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["data"]["notes"]["documents"] == 6  # two notes and two rewrites of each
    assert "Kavitha" not in capsys.readouterr().out
