"""Check digits of national health identifiers.

The detectors use the validators to trust a bare number; the surrogate engine uses the
generators so a replacement identifier is as valid as the original (a downstream system that
checks the digit must not reject the de-identified record).

- UK NHS number: 10 digits, weights 10..2 on the first nine, mod 11 (NHS Data Dictionary).
- NZ NHI: old format AAA999C (mod 11, numeric check) and new format AAA99AC (mod 23,
  alphabetic check), letters I and O never used (HISO 10046).
- Australian Medicare card number: 10 digits (an 11th, the individual reference number, is
  optional); first digit 2-6, weights 1,3,7,9,1,3,7,9 on the first eight, mod 10.
"""

from __future__ import annotations

import re

_NHI_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # A=1 .. Z=24, I and O left out
_NHI_OLD = re.compile(r"[A-HJ-NP-Z]{3}\d{3}")
_NHI_NEW = re.compile(r"[A-HJ-NP-Z]{3}\d{2}[A-HJ-NP-Z]")
_MEDICARE_WEIGHTS = (1, 3, 7, 9, 1, 3, 7, 9)


def _digits(s: str) -> str:
    """The value without the spaces and hyphens people type inside identifiers."""
    return re.sub(r"[\s\-]", "", s)


def nhs_check_digit(first9: str) -> str:
    """The tenth digit for nine NHS digits; ValueError when no valid number starts with them."""
    d = _digits(first9)
    if len(d) != 9 or not d.isdigit():
        raise ValueError("an NHS number starts with nine digits")
    check = 11 - sum(int(c) * w for c, w in zip(d, range(10, 1, -1))) % 11
    if check == 10:
        raise ValueError("these nine digits have no valid NHS check digit")
    return "0" if check == 11 else str(check)


def nhs_valid(s: str) -> bool:
    d = _digits(s)
    if len(d) != 10 or not d.isdigit():
        return False
    try:
        return nhs_check_digit(d[:9]) == d[9]
    except ValueError:
        return False


def _nhi_value(c: str) -> int:
    return int(c) if c.isdigit() else _NHI_LETTERS.index(c) + 1


def nhi_check_char(first6: str) -> str:
    """The seventh character for the first six of an NHI: a digit for the old format
    (AAA999), a letter for the new (AAA99A). ValueError when no valid NHI starts with them."""
    s = _digits(first6).upper()
    total = sum(_nhi_value(c) * w for c, w in zip(s, range(7, 1, -1)))
    if _NHI_OLD.fullmatch(s):
        rem = total % 11
        if rem == 0:
            raise ValueError("these six characters have no valid NHI check digit")
        return str((11 - rem) % 10)
    if _NHI_NEW.fullmatch(s):
        return _NHI_LETTERS[23 - total % 23 - 1]
    raise ValueError("an NHI starts with three letters (not I or O) and two or three digits")


def nhi_valid(s: str) -> bool:
    s = _digits(s).upper()
    if len(s) != 7:
        return False
    try:
        return nhi_check_char(s[:6]) == s[6]
    except ValueError:
        return False


def medicare_check_digit(first8: str) -> str:
    """The ninth digit of a Medicare card number from its first eight (first digit 2-6)."""
    d = _digits(first8)
    if len(d) != 8 or not d.isdigit() or d[0] not in "23456":
        raise ValueError("a Medicare number starts with eight digits, the first 2 to 6")
    return str(sum(int(c) * w for c, w in zip(d, _MEDICARE_WEIGHTS)) % 10)


def medicare_valid(s: str) -> bool:
    """10 digits (card number + issue number) or 11 (with the individual reference number)."""
    d = _digits(s.replace("/", ""))
    if len(d) not in (10, 11) or not d.isdigit() or d[0] not in "23456" or d[9] == "0":
        return False
    if len(d) == 11 and d[10] == "0":
        return False
    return medicare_check_digit(d[:8]) == d[8]


# Verhoeff's dihedral-group check (SNOMED CT identifiers end with one).
_VERHOEFF_D = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9), (1, 2, 3, 4, 0, 6, 7, 8, 9, 5), (2, 3, 4, 0, 1, 7, 8, 9, 5, 6),
    (3, 4, 0, 1, 2, 8, 9, 5, 6, 7), (4, 0, 1, 2, 3, 9, 5, 6, 7, 8), (5, 9, 8, 7, 6, 0, 4, 3, 2, 1),
    (6, 5, 9, 8, 7, 1, 0, 4, 3, 2), (7, 6, 5, 9, 8, 2, 1, 0, 4, 3), (8, 7, 6, 5, 9, 3, 2, 1, 0, 4),
    (9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
)
_VERHOEFF_P = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9), (1, 5, 7, 6, 2, 8, 3, 0, 9, 4), (5, 8, 0, 3, 7, 9, 6, 1, 4, 2),
    (8, 9, 1, 6, 0, 4, 3, 5, 2, 7), (9, 4, 5, 3, 1, 2, 6, 8, 7, 0), (4, 2, 8, 6, 5, 7, 3, 9, 0, 1),
    (2, 7, 9, 3, 8, 0, 6, 4, 1, 5), (7, 0, 4, 6, 9, 1, 3, 2, 5, 8),
)


def verhoeff_valid(number: str) -> bool:
    """Whether a string of digits ends with its Verhoeff check digit."""
    if not number.isdigit():
        return False
    c = 0
    for i, ch in enumerate(reversed(number)):
        c = _VERHOEFF_D[c][_VERHOEFF_P[i % 8][int(ch)]]
    return c == 0


def snomed_concept_id(number: str) -> bool:
    """A SNOMED CT concept identifier: 6 to 18 digits, a concept's partition ("00", or "10" in
    an extension) before a valid Verhoeff check digit ("87522002", "700378005")."""
    return 6 <= len(number) <= 18 and number.isdigit() and number[-3:-1] in ("00", "10") and verhoeff_valid(number)
