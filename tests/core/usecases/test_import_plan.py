"""Import planning (core/usecases/importing.py): which files of dropped paths become
documents, with which subject — the batch CLI's manifest and folder rules, without Qt."""

from __future__ import annotations

from pathlib import Path

from deid_desktop.core.pipeline import subject_for
from deid_desktop.core.usecases.importing import ImportItem, plan_import


def _write(path: Path, text: str = "Seen today.") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_each_subfolder_of_a_dropped_folder_is_a_subject_and_other_files_are_counted(tmp_path):
    cohort = tmp_path / "cohort"
    a = _write(cohort / "p001" / "a.txt")
    b = _write(cohort / "p002" / "visits" / "b.txt")
    loose = _write(cohort / "loose.txt")
    _write(cohort / "README.md")
    _write(cohort / "p001" / "scan.png")
    plan = plan_import([cohort])
    assert sorted(plan.items, key=lambda i: str(i.path)) == [
        ImportItem(loose, None), ImportItem(a, "p001"), ImportItem(b, "p002"),
    ]
    assert plan.skipped == 2


def test_a_manifest_among_the_paths_is_applied_not_imported_and_wins_over_folders(tmp_path):
    cohort = tmp_path / "cohort"
    a = _write(cohort / "p001" / "a.txt")
    manifest = _write(cohort / "subjects.csv", "path,subject\np001/a.txt,S-9\n")
    plan = plan_import([cohort, manifest])
    assert plan.items == [ImportItem(a, "S-9")]
    # the CLI's rule gives the same subject
    assert subject_for(a, cohort, {str(a.resolve()): "S-9"}) == "S-9"


def test_a_named_file_is_always_planned_even_when_it_cannot_be_read(tmp_path):
    missing = tmp_path / "gone.docx"
    odd = _write(tmp_path / "notes.rtf")
    plan = plan_import([missing, odd, odd])
    assert plan.items == [ImportItem(missing, None), ImportItem(odd, None)]
    assert plan.skipped == 0


def test_the_tally_says_what_an_import_did_without_naming_files():
    from deid_desktop.core.usecases.importing import ImportTally

    tally = ImportTally(new=3, duplicates=1, failed=2, skipped=1)
    assert tally.message() == (
        "Imported 3 new document(s); 1 already in the workspace; 2 could not be read (marked “error” in the queue; "
        "hover for the reason); 1 other file skipped (only .txt, .docx and .pdf files in folders are read)."
    )
    assert ImportTally(new=1).message() == "Imported 1 new document(s)."

