"""Check digits of NHS numbers, NHIs and Medicare numbers: known numbers, hand-computed
digits, and generators that always give valid identifiers."""

from __future__ import annotations

import random

import pytest

from deid_desktop.core.checkdigits import (
    medicare_check_digit,
    medicare_valid,
    nhi_check_char,
    nhi_valid,
    nhs_check_digit,
    nhs_valid,
    snomed_concept_id,
    verhoeff_valid,
)


@pytest.mark.parametrize("number", ["943 476 5919", "9434765919", "943-476-5919", "401 023 2137"])
def test_known_nhs_numbers_are_valid(number):
    assert nhs_valid(number)


@pytest.mark.parametrize("number", ["943 476 5918", "943 476 591", "94347659190", "943 476 591X", ""])
def test_wrong_nhs_numbers_are_rejected(number):
    assert not nhs_valid(number)


def test_nhs_check_digit_by_hand():
    # 4*10 + 0*9 + 1*8 + 0*7 + 2*6 + 3*5 + 2*4 + 1*3 + 3*2 = 92; 92 % 11 = 4; 11 - 4 = 7
    assert nhs_check_digit("401023213") == "7"
    assert nhs_check_digit("943 476 591") == "9"
    # 6*2 = 12, 12 % 11 = 1, 11 - 1 = 10: no NHS number starts with these nine digits
    with pytest.raises(ValueError):
        nhs_check_digit("000000006")
    with pytest.raises(ValueError):
        nhs_check_digit("12345")


@pytest.mark.parametrize("nhi", ["ZZZ0016", "ZZZ0024", "ZAC5361", "WLD9413", "ZSC21TN", "ZBN77VL", "zsc21tn"])
def test_known_nhis_are_valid(nhi):
    assert nhi_valid(nhi)


@pytest.mark.parametrize("nhi", ["ZZZ0044", "ZZZ00AA", "ZIZ0016", "ZOZ0016", "ZZ00016", "ZZZ00167", "ZZZ001"])
def test_wrong_nhis_are_rejected(nhi):
    assert not nhi_valid(nhi)


def test_nhi_check_char_by_hand():
    # Z=24: 24*7 + 24*6 + 24*5 = 432; old format: + 0*4 + 0*3 + 1*2 = 434; 434 % 11 = 5; 11 - 5 = 6
    assert nhi_check_char("ZZZ001") == "6"
    # new format: 432 + 0 + 0 + A(1)*2 = 434; 434 % 23 = 20; 23 - 20 = 3 = C
    assert nhi_check_char("ZZZ00A") == "C"
    # 432 + 4*2 = 440 = 40 * 11: a zero remainder has no valid old-format check digit
    with pytest.raises(ValueError):
        nhi_check_char("ZZZ004")
    with pytest.raises(ValueError):
        nhi_check_char("ZZ0001")


@pytest.mark.parametrize("number", ["2123 45670 1", "2123456701", "2123 45670 1 2", "3951 33398 1"])
def test_known_medicare_numbers_are_valid(number):
    assert medicare_valid(number)


@pytest.mark.parametrize("number", ["2123 45671 1", "7123 45670 1", "2123 45670 0", "2123 4567 1", "21234567012345"])
def test_wrong_medicare_numbers_are_rejected(number):
    assert not medicare_valid(number)


def test_medicare_check_digit_by_hand():
    # 2*1 + 1*3 + 2*7 + 3*9 + 4*1 + 5*3 + 6*7 + 7*9 = 170 -> 0
    assert medicare_check_digit("21234567") == "0"
    # 3 + 27 + 35 + 9 + 3 + 9 + 21 + 81 = 188 -> 8
    assert medicare_check_digit("39513339") == "8"
    with pytest.raises(ValueError):
        medicare_check_digit("11234567")


def test_generators_make_numbers_the_validators_accept():
    rng = random.Random(7)
    made = {"nhs": 0, "nhi_old": 0, "nhi_new": 0, "medicare": 0}
    letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
    for _ in range(300):
        first9 = "".join(rng.choice("0123456789") for _ in range(9))
        try:
            assert nhs_valid(first9 + nhs_check_digit(first9))
            made["nhs"] += 1
        except ValueError:
            pass
        stem = "".join(rng.choice(letters) for _ in range(3))
        old = stem + "".join(rng.choice("0123456789") for _ in range(3))
        try:
            assert nhi_valid(old + nhi_check_char(old))
            made["nhi_old"] += 1
        except ValueError:
            pass
        new = stem + "".join(rng.choice("0123456789") for _ in range(2)) + rng.choice(letters)
        check = nhi_check_char(new)
        assert check in letters and nhi_valid(new + check)
        made["nhi_new"] += 1
        first8 = rng.choice("23456") + "".join(rng.choice("0123456789") for _ in range(7))
        assert medicare_valid(first8 + medicare_check_digit(first8) + rng.choice("123456789"))
        made["medicare"] += 1
    assert all(n > 200 for n in made.values()), made


def test_one_changed_digit_breaks_the_check():
    assert not nhs_valid("943 476 5929")
    assert not nhi_valid("ZAC5371")
    assert not medicare_valid("2123 45680 1")


@pytest.mark.parametrize("number, valid", [("73211009", True), ("38341003", True), ("87522002", True), ("87522003", False), ("12345678", False)])
def test_snomed_concept_ids_by_their_partition_and_verhoeff_digit(number, valid):
    """73211009 (diabetes mellitus) and 38341003 (hypertension) are real concept ids."""
    assert snomed_concept_id(number) is valid


def test_verhoeff_known_value():
    assert verhoeff_valid("2363") and not verhoeff_valid("2364")  # 236 -> check digit 3
