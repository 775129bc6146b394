"""Identifiers: digits by digits, letters by letters, punctuation kept.

A number that validates as a national health identifier gets a surrogate that validates
too (a downstream system that checks the digit must not reject the record), and, where the
issuer reserves a range that no person holds, one from that range: UK NHS numbers (and
Australian Medicare numbers, and US SSN ranges) are digit strings, handled with every other
number in ``digit_strings``; NZ NHIs, which hold letters, are handled here. Whatever fine
type the span carries, the value's shape and check digit decide.

The ``sample_*`` functions make fresh values for the synthetic training corpus; they draw
from the whole issued ranges so the models meet realistic numbers.
"""

from __future__ import annotations

import random
import re
import string

from ..categories import Category
from ..checkdigits import medicare_check_digit, nhi_check_char, nhi_valid, nhs_check_digit
from .base import SurrogateContext, SurrogateGenerator, register
from .digit_strings import digit_string_surrogate, is_digit_string
from .keys import normalise_key
from .shape import digits_of, put_digits, randomise_shape

_NHI_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
_SEPARATORS = re.compile(r"[\s\-/]")


def _compact(value: str) -> str:
    return _SEPARATORS.sub("", value)


def _make_nhs(original: str, rng: random.Random) -> str:
    digits = digits_of(original)
    while True:
        # The first digit says which range the number was issued from; keep it.
        first9 = digits[0] + "".join(str(rng.randint(0, 9)) for _ in range(8))
        try:
            return put_digits(original, first9 + nhs_check_digit(first9))
        except ValueError:
            continue


def _make_medicare(original: str, rng: random.Random) -> str:
    digits = digits_of(original)
    first8 = digits[0] + "".join(str(rng.randint(0, 9)) for _ in range(7))
    tail = "".join(str(rng.randint(1, 9)) for _ in range(len(digits) - 9))  # issue no., IRN
    return put_digits(original, first8 + medicare_check_digit(first8) + tail)


def _make_nhi(original: str, rng: random.Random) -> str:
    compact = _compact(original)
    while True:
        chars = [rng.choice(_NHI_LETTERS) if c.isalpha() else str(rng.randint(0, 9)) for c in compact[:6]]
        first6 = "".join(chars)
        try:
            value = first6 + nhi_check_char(first6)
        except ValueError:
            continue
        return _in_layout(original, value)


def _test_range_nhi(original: str, rng: random.Random) -> str:
    """An NHI that no person holds, check character valid, in the original's layout.

    Te Whatu Ora ("NHI number format changes", HISO 10046:2023): NHIs of the old format
    AAANNNC are issued sequentially and the Z range (ZAA0067, ZAB0003, ...) is among them,
    so no old-format number is safe; new-format numbers AAANNAX are issued in order of the
    first letter starting with A, and "the Z-range will be reserved exclusively for testing
    purposes". A surrogate NHI is therefore a new-format number starting with Z.
    """
    first6 = "Z" + "".join(rng.choice(_NHI_LETTERS) for _ in range(2)) + f"{rng.randint(0, 99):02d}" + rng.choice(_NHI_LETTERS)
    return _in_layout(original, first6 + nhi_check_char(first6))  # the new format always has one


def _in_layout(original: str, value: str) -> str:
    """Seven NHI characters written where the original's letters and digits were."""
    it = iter(value)
    out = "".join(next(it) if c.isalnum() else c for c in original)
    return out.lower() if original.islower() else out


def _make_ssn(original: str, rng: random.Random) -> str:
    area = rng.choice([a for a in range(1, 900) if a != 666])
    digits = f"{area:03d}{rng.randint(1, 99):02d}{rng.randint(1, 9999):04d}"
    return put_digits(original, digits)


def identifier_surrogate(original: str, ctx: SurrogateContext) -> str:
    """Digits alone: keyed on the digits whatever the label (``digit_strings``). An NHI: a
    number from the range reserved for testing. Anything else: the same shape."""
    if is_digit_string(original):
        return digit_string_surrogate(original, ctx)
    rng = ctx.rng("ID", normalise_key(original))
    if _is_nhi(original):
        return _test_range_nhi(original, rng)
    return randomise_shape(original, rng)


def _is_nhi(value: str) -> bool:
    compact = _compact(value)
    return len(compact) == 7 and any(c.isalpha() for c in compact) and nhi_valid(compact.upper())


@register
class IdentifierGenerator(SurrogateGenerator):
    category = Category.ID
    fines = ("MRN", "SSN", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "OTHER")
    fallback = True

    def surrogate(self, original: str, ctx: SurrogateContext) -> str:
        return identifier_surrogate(original, ctx)

    def sample(self, rng: random.Random, locale: str | None, gender: str | None) -> str:
        return sample_identifier("OTHER", rng, locale)


# Social security numbers are digit strings like any other (a nine-digit number stays in the
# issued ranges whatever its label); this generator serves the fine type for the corpus.
@register
class SocialSecurityNumberGenerator(SurrogateGenerator):
    category = Category.ID
    fines = ("SSN",)
    order = 10

    def surrogate(self, original: str, ctx: SurrogateContext) -> str:
        return identifier_surrogate(original, ctx)

    def sample(self, rng: random.Random, locale: str | None, gender: str | None) -> str:
        return sample_identifier("SSN", rng, locale)


def _digits(rng: random.Random, n: int, *, lead_nonzero: bool = True) -> str:
    first = str(rng.randint(1, 9)) if lead_nonzero else str(rng.randint(0, 9))
    return first + "".join(str(rng.randint(0, 9)) for _ in range(n - 1))


def _letters(rng: random.Random, n: int, alphabet: str = string.ascii_uppercase) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def sample_nhs(rng: random.Random) -> str:
    return _make_nhs(rng.choice("3456789") + "00 000 0000", rng)


def sample_nhi(rng: random.Random) -> str:
    return _make_nhi("AAA0000" if rng.random() < 0.7 else "AAA00AA", rng)


def sample_medicare(rng: random.Random) -> str:
    layout = rng.choice(["0000 00000 0", "0000000000", "0000 00000 0 0"])
    return _make_medicare(rng.choice("23456") + layout[1:], rng)


def sample_identifier(fine: str, rng: random.Random, locale: str | None) -> str:
    """A fresh identifier of a fine type, in a layout common in the locale."""
    loc = locale or rng.choice(["US", "UK", "AU", "NZ"])
    if fine == "SSN":
        if loc == "US":
            return _make_ssn(rng.choice(["000-00-0000", "000000000", "000 00 0000"]), rng)
        if loc == "UK":  # National Insurance number
            prefix = _letters(rng, 2, "ABCEGHJKLMNPRSTWXYZ")
            return f"{prefix} {_digits(rng, 2)} {_digits(rng, 2)} {_digits(rng, 2)} {rng.choice('ABCD')}"
        if loc == "NZ":  # IRD number
            return f"{_digits(rng, 2)}-{_digits(rng, 3, lead_nonzero=False)}-{_digits(rng, 3, lead_nonzero=False)}"
        return f"{_digits(rng, 3)} {_digits(rng, 3, lead_nonzero=False)} {_digits(rng, 3, lead_nonzero=False)}"
    # The national health number is the health-plan number outside the US, and in New
    # Zealand the NHI is also the hospital record number.
    if (fine == "HEALTHPLAN" and loc != "US") or (fine == "MRN" and loc == "NZ"):
        return {"UK": sample_nhs, "AU": sample_medicare, "NZ": sample_nhi}[loc](rng)
    if fine == "MRN":
        return rng.choice([
            _digits(rng, rng.randint(6, 9), lead_nonzero=False),
            _letters(rng, rng.randint(1, 3)) + _digits(rng, rng.randint(5, 8), lead_nonzero=False),
            f"{_digits(rng, 3)}-{_digits(rng, 2, lead_nonzero=False)}-{_digits(rng, 2, lead_nonzero=False)}",
        ])
    if fine == "HEALTHPLAN":
        return _letters(rng, 3) + _digits(rng, 9, lead_nonzero=False)
    if fine == "ACCOUNT":
        return rng.choice([_digits(rng, rng.randint(8, 12)), f"{_digits(rng, 4)}-{_digits(rng, 6)}",
                           _letters(rng, 2) + _digits(rng, 8)])
    if fine == "LICENSE":
        return rng.choice([_letters(rng, 1) + _digits(rng, 7), _letters(rng, 2) + _digits(rng, 6),
                           f"{_letters(rng, 1)}{_digits(rng, 3)}-{_digits(rng, 4)}-{_digits(rng, 4)}",
                           _digits(rng, rng.randint(6, 9))])
    if fine == "VEHICLE":
        return sample_plate(rng, loc)
    if fine == "DEVICE":
        chars = string.ascii_uppercase + string.digits
        serial = "".join(rng.choice(chars) for _ in range(rng.randint(8, 12)))
        if not any(c.isdigit() for c in serial):  # all letters reads as a word, not a serial
            serial = serial[:-1] + _digits(rng, 1)
        return rng.choice([
            f"SN-{_letters(rng, 1, chars)}{_digits(rng, 4)}-{_letters(rng, 4, chars)}",
            serial,
            f"{_letters(rng, 2)}{_digits(rng, 6)}",
        ])
    return rng.choice([_digits(rng, rng.randint(5, 10)), f"{_digits(rng, 1)}-{_digits(rng, 7)}",
                       _letters(rng, 2) + _digits(rng, 2)])


def sample_plate(rng: random.Random, locale: str) -> str:
    if locale == "UK":
        return f"{_letters(rng, 2)}{_digits(rng, 2, lead_nonzero=False)} {_letters(rng, 3)}"
    if locale == "AU":
        return rng.choice([f"{_letters(rng, 3)}-{_digits(rng, 3)}", f"{_digits(rng, 1)}{_letters(rng, 2)}{_digits(rng, 1)}{_letters(rng, 2)}"])
    if locale == "NZ":
        return f"{_letters(rng, 3)}{_digits(rng, 3)}"
    return rng.choice([f"{_digits(rng, 1)}{_letters(rng, 3)}{_digits(rng, 3)}", f"{_digits(rng, 1)}{_letters(rng, 2)}-{_digits(rng, 3)}"])
