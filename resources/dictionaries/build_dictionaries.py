"""Regenerate the Faker-derived word lists in this folder.

    python resources/dictionaries/build_dictionaries.py

Writes faker_first_names.csv, faker_surnames.txt, faker_places.csv and faker_common_words.txt.
The hand-written lists beside them (first_names_extra.csv, surnames_extra.txt,
places_extra.csv, hospitals.txt, professions.txt, name_words.txt, not_names.txt) are edited by
hand and never overwritten. Only Latin-script values are kept: the detectors look for names as written in
English-language clinical notes.
"""

from __future__ import annotations

import csv
import importlib
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent

PERSON_LOCALES = [
    "en", "en_US", "en_GB", "en_NZ", "en_IE", "en_IN", "en_KE", "en_PK", "ga_IE",
    "es_ES", "es_MX", "es_AR", "es_CL", "es_CO", "pt_BR", "pt_PT", "fr_FR", "fr_CA", "fr_BE",
    "de_DE", "de_AT", "de_CH", "it_IT", "nl_NL", "nl_BE", "pl_PL", "cs_CZ", "sk_SK", "sl_SI",
    "hr_HR", "hu_HU", "ro_RO", "lt_LT", "lv_LV", "et_EE", "da_DK", "sv_SE", "no_NO", "fi_FI",
    "tr_TR", "vi_VN", "id_ID", "sw", "zu_ZA", "tw_GH", "yo_NG", "ha_NG", "ig_NG",
    "zh_CN", "zh_TW", "ja_JP",
]
ADDRESS_LOCALES = [
    "en_US", "en_GB", "en_AU", "en_NZ", "en_IE", "en_CA", "en_IN", "en_BD", "en_PH",
    "de_DE", "de_AT", "de_CH", "fr_FR", "fr_CA", "es_ES", "es_MX", "es_AR", "es_CL", "es_CO",
    "it_IT", "pt_PT", "nl_NL", "nl_BE", "pl_PL", "cs_CZ", "sk_SK", "sl_SI", "hr_HR", "hu_HU",
    "ro_RO", "da_DK", "sv_SE", "fi_FI", "id_ID", "vi_VN", "zu_ZA",
]
# Latin letters (with the diacritics of the languages above), apostrophes, hyphens, spaces.
# Placeholders some Faker lists carry that are never a person's name in a note.
JUNK = {"unknown", "baby", "infant", "boy", "girl", "male", "female", "test", "doe", "none", "null"}
LATIN = re.compile(r"^[A-Za-z\u00C0-\u024F\u1E00-\u1EFF'’\- .]+$")


def _values(obj) -> list[str]:
    """Faker keeps lists as tuples, lists or weighted OrderedDicts; some hold (male, female) pairs."""
    out: list[str] = []
    if not isinstance(obj, (list, tuple, dict)):  # some providers expose computed properties
        return out
    for v in obj.keys() if isinstance(obj, dict) else obj:
        if isinstance(v, (tuple, list)):
            out.extend(x for x in v if isinstance(x, str))
        elif isinstance(v, str):
            out.append(v)
    return out


def _clean(name: str, person: bool = False) -> str | None:
    name = " ".join(name.replace(".", " ").split())
    if not name or not LATIN.match(name) or len(name) < 2 or (person and name.casefold() in JUNK):
        return None
    if person and name.isupper():  # zh_TW romanisations are written in capitals
        name = "-".join(p.capitalize() for p in name.split("-"))
    return name


def build_names() -> tuple[dict[str, str], dict[str, str]]:
    first: dict[str, str] = {}
    last: dict[str, str] = {}
    for loc in PERSON_LOCALES:
        p = importlib.import_module(f"faker.providers.person.{loc}").Provider
        for attr, gender in (("first_names_male", "M"), ("first_names_female", "F"), ("first_names", "U"),
                             ("first_romanized_names", "U")):
            for raw in _values(getattr(p, attr, ())):
                if (n := _clean(raw, person=True)) is None:
                    continue
                key = n.casefold()
                old = first.get(key)
                if old is None:
                    first[key] = f"{n},{gender}"
                elif gender != "U" and not old.endswith("," + gender):
                    name, g = old.rsplit(",", 1)
                    first[key] = f"{name},{gender if g == 'U' else 'U'}"
        for attr in ("first_name_male_pairs", "first_name_female_pairs"):
            gender = "M" if "male_pairs" in attr and "female" not in attr else "F"
            for pair in getattr(p, attr, ()):
                if (n := _clean(pair[-1], person=True)) is not None:
                    first.setdefault(n.casefold(), f"{n},{gender}")
        for attr in ("last_names", "last_names_male", "last_names_female", "male_last_names",
                     "unisex_last_names", "last_romanized_names"):
            for raw in _values(getattr(p, attr, ())):
                if (n := _clean(raw, person=True)) is not None:
                    last.setdefault(n.casefold(), n)
        for pair in getattr(p, "last_name_pairs", ()):
            if (n := _clean(pair[-1], person=True)) is not None:
                last.setdefault(n.casefold(), n)
    return first, last


def build_places() -> list[tuple[str, str, str]]:
    rows: dict[tuple[str, str], tuple[str, str, str]] = {}
    kinds = {"cities": "city", "city_names": "city", "states": "state", "regions": "state",
             "provinces": "state", "counties": "state", "departments": "state",
             "states_abbr": "state_abbr", "provinces_abbr": "state_abbr"}
    for loc in ADDRESS_LOCALES:
        p = importlib.import_module(f"faker.providers.address.{loc}").Provider
        for attr, kind in kinds.items():
            if kind == "state_abbr" and loc not in ("en_US", "en_AU", "en_CA"):
                continue  # other locales abbreviate provinces with two letters that read as words
            for raw in _values(getattr(p, attr, ())):
                if (n := _clean(raw)) is not None:
                    rows.setdefault((n.casefold(), kind), (n, kind, loc))
    us = importlib.import_module("faker.providers.address.en_US").Provider
    for raw in us.countries:
        if (n := _clean(raw)) is not None:
            rows.setdefault((n.casefold(), "country"), (n, "country", "en_US"))
    return sorted(rows.values(), key=lambda r: (r[1], r[0].casefold()))


def main() -> None:
    first, last = build_names()
    with open(HERE / "faker_first_names.csv", "w", encoding="utf-8", newline="") as f:
        f.write("name,gender\n")
        f.writelines(v + "\n" for _, v in sorted(first.items()))
    (HERE / "faker_surnames.txt").write_text(
        "".join(v + "\n" for _, v in sorted(last.items())), encoding="utf-8")
    with open(HERE / "faker_places.csv", "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["name", "kind", "locale"])
        w.writerows(build_places())
    lorem = importlib.import_module("faker.providers.lorem.en_US").Provider
    words = sorted({w.casefold() for w in lorem.word_list if w.isalpha()})
    (HERE / "faker_common_words.txt").write_text("".join(w + "\n" for w in words), encoding="utf-8")
    print(f"{len(first)} first names, {len(last)} surnames written to {HERE}")


if __name__ == "__main__":
    main()
