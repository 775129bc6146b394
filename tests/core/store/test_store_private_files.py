"""Everything holding original text is the owner's alone: a workspace made from an empty
file, a workspace a command creates, and every exported annotation file."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from deid_desktop import learn_cli
from deid_desktop.core.learn.interchange import FORMATS, AnnotatedDocument, write_annotations
from deid_desktop.core.store import Workspace

from tests.core.learning_helpers import add_note, open_workspace

posix_only = pytest.mark.skipif(os.name == "nt", reason="POSIX file modes")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def permissive_umask():
    old = os.umask(0o022)
    yield
    os.umask(old)


@posix_only
def test_an_empty_file_at_the_workspace_path_becomes_an_owner_only_workspace(tmp_path: Path, permissive_umask):
    path = tmp_path / "review.sqlite"
    path.touch()
    assert _mode(path) == 0o644
    with Workspace.open(path, create=False) as ws:
        ws.set_setting("reviewer", "x")
        assert _mode(path) == 0o600


@posix_only
def test_import_reviewed_into_a_new_path_creates_an_owner_only_workspace(tmp_path: Path, permissive_umask, capsys):
    gold = tmp_path / "gold.jsonl"
    write_annotations([AnnotatedDocument("n1", "Seen by Ann Lee.", [])], gold, "jsonl")
    new = tmp_path / "new" / "review.sqlite"
    assert learn_cli.main(["import-reviewed", "--workspace", str(new), str(gold)]) == 0
    assert _mode(new) == 0o600
    with Workspace.open(new, create=False) as ws:
        assert len(ws.list_documents()) == 1


@posix_only
@pytest.mark.parametrize("command", [["model-versions"], ["lists", "show"], ["harvest"]])
def test_workspace_commands_start_a_new_workspace_at_a_new_path(command, tmp_path: Path, permissive_umask, capsys):
    new = tmp_path / "review.sqlite"
    assert learn_cli.main([*command, "--workspace", str(new)]) == 0
    assert _mode(new) == 0o600


@posix_only
@pytest.mark.parametrize("fmt", FORMATS)
def test_exported_annotations_are_owner_only_and_complete(fmt, tmp_path: Path, permissive_umask, capsys):
    ws = open_workspace(tmp_path)
    add_note(ws, 0)
    ws.close()
    out = tmp_path / "out" / ("brat" if fmt == "brat" else f"reviewed.{fmt}")
    out.parent.mkdir()
    assert learn_cli.main(["export-reviewed", "--workspace", str(ws.path), str(out), "--format", fmt]) == 0
    written = [p for p in out.parent.rglob("*") if p.is_file()]
    assert written and all(_mode(p) == 0o600 for p in written if not p.name.endswith(".label_config.xml"))
    assert not [p for p in written if p.name.endswith(".part")]  # no half-written leftovers


def test_gold_documents_saved_for_training_are_owner_only(tmp_path, permissive_umask):
    from deid_desktop.core.learn.gold import GoldDocument, load_jsonl, save_jsonl

    out = tmp_path / "gold.jsonl"
    save_jsonl([GoldDocument("d1", "Seen by Dr Aroha Ngata.", [])], out)
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert [d.text for d in load_jsonl(out)] == ["Seen by Dr Aroha Ngata."]
