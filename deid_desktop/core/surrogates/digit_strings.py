"""Numbers written as digits (phones, faxes, numeric identifiers): one value, one surrogate.

The same number is often labelled differently in two letters (a mobile number read as a
CONTACT in one and as an ID in the other). Its surrogate therefore depends only on its
digits (and a leading "+", which says the digits start with a country code), never on the
label or the layout: ``021 555 1234``, ``(021) 555-1234`` and ``0215551234`` all get the same
new digits, each written back into its own layout.

What the new digits look like is read from the digits too:

- a valid UK NHS number becomes a number from the range the NHS reserves for testing
  (999 000 0000 - 999 999 9999, never issued to a patient; NHS Digital, "NHS number",
  reproduced in Faker's ``NationalHealthService.british_number``), check digit valid;
- a valid Australian Medicare number stays valid (no reserved range exists);
- a phone number keeps its country code or trunk prefix and the digit after it
  ("+64 21", "021", "07", "(09)"), so it still reads as a mobile or landline of the same
  country; a North American number keeps area code and exchange starting with 2-9;
- a nine-digit number stays in the ranges the US issues social security numbers from;
- anything else keeps its length, zero padding and non-zero lead.

The document's country, when known, only settles readings a check digit leaves open: a US
letter's ten-digit phone number is not read as an NHS number because its last digit happens
to fit, and in an Australian letter a Medicare number that also passes the NHS check stays a
Medicare number. Elsewhere (and with no country known) a number valid under both is read as
an NHS number, the reading that keeps a real NHS number out of the output.
"""

from __future__ import annotations

import random

from ..checkdigits import medicare_check_digit, medicare_valid, nhs_check_digit, nhs_valid
from .base import SurrogateContext
from .shape import digits_of, put_digits, randomise_digits

# International calling codes of three digits that clinical letters meet; two digits
# otherwise, except the one-digit codes 1 (North America) and 7.
_THREE_DIGIT_CODES = ("353", "352", "358", "351", "355", "972", "971", "966", "852", "880", "886")
NHS_TEST_PREFIX = "999"


def digit_key(value: str) -> str:
    """"+64 21 555 1234" -> "+64215551234"; "(021) 555-1234" -> "0215551234"."""
    digits = digits_of(value)
    return ("+" if value.lstrip(" (").startswith("+") and digits else "") + digits


def is_digit_string(value: str) -> bool:
    """Digits with only spaces and punctuation around them: no letter to keep or change."""
    return any(c.isdigit() for c in value) and not any(c.isalpha() for c in value)


def digit_string_surrogate(original: str, ctx: SurrogateContext) -> str:
    """The original's layout with new digits chosen from its digits alone."""
    key = digit_key(original)
    rng = ctx.rng("digits", key)
    return put_digits(original, new_digits(key, rng, ctx.country))


def new_digits(key: str, rng: random.Random, country: str | None = None) -> str:
    international = key.startswith("+")
    digits = key.lstrip("+")
    if not international and digits[:1] != "0":
        nhs, medicare = nhs_valid(digits), medicare_valid(digits)
        if medicare and (country == "AU" or not nhs):
            return _medicare(digits, rng)
        if nhs and country != "US":
            return nhs_test_number(rng)
        if len(digits) == 9 and country in (None, "US"):
            return _ssn_like(rng)
    return _phone_like(digits, international, rng)


def nhs_test_number(rng: random.Random) -> str:
    """Ten digits from the reserved test range, check digit valid."""
    while True:
        first9 = NHS_TEST_PREFIX + "".join(str(rng.randint(0, 9)) for _ in range(6))
        try:
            return first9 + nhs_check_digit(first9)
        except ValueError:  # one prefix in eleven has no valid check digit
            continue


def _medicare(digits: str, rng: random.Random) -> str:
    first8 = digits[0] + "".join(str(rng.randint(0, 9)) for _ in range(7))
    tail = "".join(str(rng.randint(1, 9)) for _ in range(len(digits) - 9))  # issue no., IRN
    return first8 + medicare_check_digit(first8) + tail


def _ssn_like(rng: random.Random) -> str:
    # Areas 001-899 except 666, group and serial never all zeros: the SSA's issued ranges.
    area = rng.choice([a for a in range(100, 900) if a != 666])
    return f"{area:03d}{rng.randint(1, 99):02d}{rng.randint(1, 9999):04d}"


def _kept_prefix(digits: str, international: bool) -> tuple[int, tuple[int, ...]]:
    """How many leading digits stay, and which later positions must not be 0 or 1."""
    if international:
        code = 1 if digits[:1] in ("1", "7") else 3 if digits[:3] in _THREE_DIGIT_CODES else 2
        if digits[:1] == "1" and len(digits) == 11:
            return 1, (1, 4)  # +1, then area and exchange codes (neither starts with 0 or 1), then 4 digits
        national = digits[code:]
        return code + (2 if national[:1] == "2" else 1), ()
    if digits[:2] == "00":
        return -1, ()  # zero padding ("0000123"), kept as padding
    if digits[:1] == "0":
        # "021"/"022"/"027" (NZ mobiles), "020" (London): the second digit alone does not
        # say mobile or landline, so one more stays.
        return (3 if digits[1:2] == "2" else 2), ()
    if len(digits) == 10:
        return 0, (0, 3)  # area and exchange codes (neither starts with 0 or 1), then 4 digits
    if len(digits) == 11 and digits[0] == "1":
        return 1, (1, 4)
    return -1, ()


def _phone_like(digits: str, international: bool, rng: random.Random) -> str:
    keep, not_low = _kept_prefix(digits, international)
    if keep < 0:
        return randomise_digits(digits, rng)
    out = list(digits[:keep])
    for i in range(keep, len(digits)):
        # Area codes and exchanges do not start with 0 or 1, nor does a local number.
        low = 2 if (i in not_low or (i == keep and not not_low)) else 0
        out.append(str(rng.randint(low, 9)))
    return "".join(out)
