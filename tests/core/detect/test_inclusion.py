"""The inclusion list: normalised sentences, plain-text persistence, skipped ranges."""

from __future__ import annotations

from deid_desktop.core.detect.inclusion import InclusionList


def test_matching_ignores_case_spacing_and_closing_punctuation():
    inc = InclusionList(["No known drug allergies."])
    assert inc.contains("no  known DRUG allergies")
    assert "No known drug allergies!" in inc
    assert not inc.contains("No known drug allergies except penicillin.")


def test_add_reports_duplicates_and_ignores_empty_sentences():
    inc = InclusionList()
    assert inc.add("Wound clean and dry.")
    assert not inc.add("wound clean and dry")
    assert not inc.add("   ")
    assert len(inc) == 1


def test_save_and_load_round_trip(tmp_path):
    path = tmp_path / "inclusion.txt"
    inc = InclusionList(["Chest clear.", "Afebrile."])
    inc.save(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert sorted(lines) == ["Afebrile.", "Chest clear."]
    path.write_text("# a comment\n\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    again = InclusionList.load(path)
    assert len(again) == 2 and again.contains("chest clear")
    assert not (tmp_path / "inclusion.txt.tmp").exists()


def test_skipped_ranges_are_the_offsets_of_listed_sentences():
    inc = InclusionList(["Patient tolerated the procedure well."])
    text = "Seen by Dr Smith. Patient tolerated the procedure well. Home tomorrow."
    ranges = inc.skipped_ranges(text)
    assert [text[s:e] for s, e in ranges] == ["Patient tolerated the procedure well."]


def test_the_default_list_ships_common_sentences():
    inc = InclusionList.default()
    assert len(inc) >= 50
    assert inc.contains("No known drug allergies.")
    assert inc.contains("Patient tolerated the procedure well.")
    assert InclusionList().skipped_ranges("No known drug allergies.") == []
