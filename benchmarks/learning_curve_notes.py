"""Notes in a style the default model never saw in training, with exact gold offsets.

Four layouts written for the learning-curve benchmark, none of them among the synthetic
corpus's note types or conventions: New Zealand community mental-health whānau hui minutes,
a kaupapa Māori key-worker contact note, an Australian residential aged-care incident report
(SIRS era), and an aged-care family case-conference record. Names come from several origins
(Māori, Samoan, Tongan, Chinese, Indian, Vietnamese, Greek, Lebanese, Anglo); every value is
made up. Each PHI value is recorded as a span the moment it is appended, so offsets are exact
by construction.
"""

from __future__ import annotations

import random
from typing import Callable

ORIGINS: dict[str, tuple[list[str], list[str]]] = {
    "maori": (["Aroha", "Hemi", "Mere", "Wiremu", "Anahera", "Tama", "Ngaio", "Rawiri", "Kahurangi", "Tipene", "Hinewai", "Manaia"],
              ["Ngata", "Parata", "Walker", "Tane", "Horomona", "Te Awa", "Rangihau", "Poutama", "Kereama", "Tipoki", "Waaka", "Herewini"]),
    "samoan": (["Sione", "Tavita", "Malia", "Losa", "Faamoe", "Iosefa", "Lagi", "Tui"],
               ["Faleolo", "Tuilagi", "Leota", "Aumua", "Fuimaono", "Soliai", "Tanielu", "Matagi"]),
    "tongan": (["Ana", "Viliami", "Mele", "Sela", "Tevita", "Salote"], ["Kupu", "Tupou", "Fifita", "Havili", "Taufa", "Moala"]),
    "chinese": (["Wei", "Xiu Ying", "Jun", "Mei Lin", "Hao", "Li Na"], ["Li", "Zhang", "Chen", "Wong", "Liu", "Huang"]),
    "indian": (["Priya", "Arjun", "Sunita", "Rajesh", "Anjali", "Vikram"], ["Patel", "Sharma", "Singh", "Reddy", "Nair", "Gupta"]),
    "vietnamese": (["Thi Lan", "Minh", "Hoa", "Quang", "Thu"], ["Nguyen", "Tran", "Le", "Pham", "Vo"]),
    "greek": (["Eleni", "Giorgos", "Despina", "Nikos", "Vasiliki"], ["Papadopoulos", "Georgiou", "Katsaros", "Nikolaidis", "Kostas"]),
    "lebanese": (["Fatima", "Khalil", "Nadia", "Samir"], ["Haddad", "Khoury", "Nassar", "Saab"]),
    "anglo": (["Margaret", "Colin", "Bronwyn", "Graeme", "Shirley", "Trevor", "Janice", "Darryl"],
              ["McKenzie", "Thompson", "O'Brien", "Fitzgerald", "Henderson", "Cartwright", "Dunstan", "Blackwood"]),
}
NZ_ORIGINS = ["maori", "maori", "samoan", "tongan", "chinese", "indian", "anglo"]
AU_ORIGINS = ["anglo", "anglo", "greek", "lebanese", "vietnamese", "chinese", "indian", "maori"]

NZ_SUBURBS = ["Ōtara", "Māngere", "Porirua", "Naenae", "Flaxmere", "Kaikohe", "Papakura", "Cannons Creek"]
NZ_VENUES = ["Te Puna Marae", "Ōtara Community Hub", "Whare Āwhina", "Tū Tangata Centre", "Kōkiri Rooms"]
NZ_SERVICES = ["Te Whare Mārie", "Tāmaki Oranga", "Puna Awhi CMHT", "Hauora Tairāwhiti CMHT"]
AU_SUBURBS = ["Parramatta", "Footscray", "Toowong", "Marrickville", "Glenelg", "Bankstown", "Dandenong", "Belconnen"]
AU_FACILITIES = ["Banksia Grove Aged Care", "Wattle Lodge", "Bottlebrush Gardens", "Jacaranda House", "Saltbush Manor"]
AU_STREETS = ["Kurrajong Street", "Warrego Road", "Lilli Pilli Avenue", "Bunya Parade", "Coolabah Close"]
WINGS = ["Waratah", "Grevillea", "Boronia", "Acacia"]
RELATIONS = ["daughter", "son", "wife", "husband", "niece", "grandson", "sister", "cousin"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]


class Builder:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.spans: list[dict] = []
        self.pos = 0

    def text(self, s: str) -> "Builder":
        self.parts.append(s)
        self.pos += len(s)
        return self

    def phi(self, s: str, label: str, sublabel: str = "OTHER") -> "Builder":
        self.spans.append({"start": self.pos, "end": self.pos + len(s), "label": label, "sublabel": sublabel})
        return self.text(s)

    def done(self) -> tuple[str, list[dict]]:
        return "".join(self.parts), self.spans


class Person:
    def __init__(self, rng: random.Random, origins: list[str]) -> None:
        firsts, lasts = ORIGINS[rng.choice(origins)]
        self.first = rng.choice(firsts)
        self.last = rng.choice(lasts)

    @property
    def full(self) -> str:
        return f"{self.first} {self.last}"


def date_long(rng: random.Random) -> str:
    return f"{rng.randint(1, 28)} {rng.choice(MONTHS)} {rng.choice([2023, 2024, 2025])}"


def date_numeric(rng: random.Random) -> str:
    return f"{rng.randint(1, 28):02d}/{rng.randint(1, 12):02d}/{rng.choice([2023, 2024, 2025])}"


def nz_phone(rng: random.Random) -> str:
    return rng.choice([f"021 {rng.randint(100, 999)} {rng.randint(1000, 9999)}", f"(09) {rng.randint(200, 999)} {rng.randint(1000, 9999)}", f"027 {rng.randint(1000000, 9999999)}"])


def au_phone(rng: random.Random) -> str:
    return rng.choice([f"04{rng.randint(10, 99)} {rng.randint(100, 999)} {rng.randint(100, 999)}", f"(0{rng.choice([2, 3, 7, 8])}) {rng.randint(9000, 9999)} {rng.randint(1000, 9999)}"])


def nhi(rng: random.Random) -> str:
    return "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ") for _ in range(3)) + f"{rng.randint(1000, 9999)}"


def whanau_hui(rng: random.Random) -> tuple[str, list[dict]]:
    pt, kw, r1, r2, scribe = (Person(rng, NZ_ORIGINS) for _ in range(5))
    rel1, rel2 = rng.sample(RELATIONS, 2)
    b = Builder()
    b.text("WHĀNAU HUI — COMMUNITY MENTAL HEALTH\n").text("Service: ").phi(rng.choice(NZ_SERVICES), "ORGANIZATION", "HOSPITAL").text("\n")
    b.text("Hui held: ").phi(date_long(rng), "DATE").text(" at ").phi(rng.choice(NZ_VENUES), "LOCATION").text(", ").phi(rng.choice(NZ_SUBURBS), "LOCATION", "CITY").text("\n")
    b.text("Tangata whaiora: ").phi(pt.full, "NAME", "PATIENT").text("   NHI: ").phi(nhi(rng), "ID", "MRN").text("\n")
    b.text("Key worker: ").phi(kw.full, "NAME", "DOCTOR").text("\n")
    b.text("Whānau present: ").phi(r1.full, "NAME", "RELATIVE").text(f" ({rel1}), ").phi(r2.full, "NAME", "RELATIVE").text(f" ({rel2})\n\n")
    b.text("Karakia timatanga by ").phi(r1.first, "NAME", "RELATIVE").text(".\n")
    b.text("Kōrero: ").phi(pt.first, "NAME", "PATIENT").text(rng.choice([
        " spoke about feeling more settled since returning to mahi part-time.",
        " said sleep has improved and the voices are quieter at night.",
        " shared that the move back home to the whānau has helped.",
    ]) + "\n")
    b.text("Whānau voiced worry about missed depot injections; ").phi(kw.first, "NAME", "DOCTOR").text(" explained the clozapine bloods schedule.\n")
    b.text("Plan discussed and agreed by all present.\n\nActions:\n")
    b.text("- ").phi(kw.first, "NAME", "DOCTOR").text(" to ring ").phi(r2.first, "NAME", "RELATIVE").text(" on ").phi(nz_phone(rng), "CONTACT", "PHONE").text(" by ").phi(date_long(rng), "DATE").text(".\n")
    b.text("- Next hui ").phi(date_long(rng), "DATE").text(" at ").phi(rng.choice(NZ_VENUES), "LOCATION").text(".\n")
    b.text("Karakia whakamutunga. Minutes taken by ").phi(scribe.full, "NAME", "OTHER").text(".\n")
    return b.done()


def contact_note(rng: random.Random) -> tuple[str, list[dict]]:
    pt, kw, rel = (Person(rng, NZ_ORIGINS) for _ in range(3))
    b = Builder()
    b.text("Kaupapa Māori key-worker contact\n")
    b.text("Whaiora: ").phi(f"{pt.last.upper()}, {pt.first}", "NAME", "PATIENT").text("  NHI ").phi(nhi(rng), "ID", "MRN").text("\n")
    b.text("Contact: ").phi(date_numeric(rng), "DATE").text(" home visit, ").phi(f"{rng.randint(2, 190)} {rng.choice(['Kowhai', 'Rimu', 'Tui', 'Manuka'])} Street", "LOCATION", "STREET").text(", ").phi(rng.choice(NZ_SUBURBS), "LOCATION", "CITY").text("\n")
    b.text("Worker: ").phi(kw.full, "NAME", "DOCTOR").text("\n\n")
    b.text("Seen with ").phi(rel.first, "NAME", "RELATIVE").text(f" ({rng.choice(RELATIONS)}). ").phi(pt.first, "NAME", "PATIENT").text(rng.choice([
        " engaged well and took part in the mihi.",
        " was quiet but agreed to attend the rōpū on Thursday.",
        " reported no thoughts of self-harm and is taking olanzapine as charted.",
    ]) + "\n")
    b.text("Risk reviewed; no change to safety plan.\n")
    b.text("Follow-up: ").phi(date_numeric(rng), "DATE").text(". Whānau contact ").phi(nz_phone(rng), "CONTACT", "PHONE").text(".\n")
    b.text("Signed ").phi(kw.first[0] + ". " + kw.last, "NAME", "DOCTOR").text(", Kaimahi Hauora\n")
    return b.done()


def incident_report(rng: random.Random) -> tuple[str, list[dict]]:
    res, en, ain, kin, gp = (Person(rng, AU_ORIGINS) for _ in range(5))
    age = rng.randint(71, 99)
    b = Builder()
    b.text("INCIDENT REPORT — RESIDENTIAL AGED CARE\n")
    b.text("Facility: ").phi(rng.choice(AU_FACILITIES), "ORGANIZATION", "HOSPITAL").text(f"   Wing: {rng.choice(WINGS)}   Room: {rng.randint(1, 60)}\n")
    b.text("Resident: ").phi(f"{res.last.upper()}, {res.first}", "NAME", "PATIENT").text("   DOB: ").phi(date_numeric(rng), "DATE").text("   Age: ").phi(str(age), "AGE").text("\n")
    b.text("Incident date/time: ").phi(date_numeric(rng), "DATE").text(f" {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}\n")
    b.text("Type: ").text(rng.choice(["Unwitnessed fall", "Witnessed fall", "Skin tear", "Medication incident", "Absconding"])).text("\n")
    b.text("Reported by: ").phi(en.full, "NAME", "OTHER").text(" (EN)   Witness: ").phi(ain.full, "NAME", "OTHER").text(" (AIN)\n\n")
    b.text("Description: Resident found on floor beside bed; ").phi(res.first, "NAME", "PATIENT").text(rng.choice([
        " stated she slipped reaching for her walking frame.",
        " was unable to say what happened. Hip protectors in place.",
        " had a 3 cm skin tear to the left forearm, dressed with Mepitel.",
    ]) + "\n")
    b.text("Neuro obs commenced, GCS 15. Pain score 2/10.\n")
    b.text("Next of kin ").phi(kin.full, "NAME", "RELATIVE").text(f" ({rng.choice(RELATIONS)}) notified by phone ").phi(au_phone(rng), "CONTACT", "PHONE").text(".\n")
    b.text("GP Dr ").phi(gp.last, "NAME", "DOCTOR").text(" informed; review booked ").phi(date_numeric(rng), "DATE").text(".\n")
    b.text("Medicare: ").phi(f"{rng.randint(2000, 6999)} {rng.randint(10000, 99999)} {rng.randint(1, 9)}", "ID", "HEALTHPLAN").text("\n")
    b.text("SIRS priority: ").text(rng.choice(["1", "2"])).text("   Ref: ").phi(f"SIRS-{rng.randint(100000, 999999)}", "ID", "OTHER").text("\n")
    return b.done()


def case_conference(rng: random.Random) -> tuple[str, list[dict]]:
    res, rn, fam, gp, physio = (Person(rng, AU_ORIGINS) for _ in range(5))
    b = Builder()
    b.text("Case Conference Minutes – ").phi(rng.choice(AU_FACILITIES), "ORGANIZATION", "HOSPITAL").text("\n")
    b.text("Date: ").phi(date_long(rng), "DATE").text("   Resident: ").phi(res.full, "NAME", "PATIENT").text("   UR: ").phi(str(rng.randint(100000, 999999)), "ID", "MRN").text("\n")
    b.text("Address prior to admission: ").phi(f"{rng.randint(1, 120)} {rng.choice(AU_STREETS)}", "LOCATION", "STREET").text(", ").phi(rng.choice(AU_SUBURBS), "LOCATION", "CITY").text("\n")
    b.text("Attendees: ").phi(rn.full, "NAME", "OTHER").text(" (RN), ").phi(fam.full, "NAME", "RELATIVE").text(f" ({rng.choice(RELATIONS)}), Dr ").phi(gp.full, "NAME", "DOCTOR").text(", ").phi(physio.full, "NAME", "OTHER").text(" (physiotherapist)\n\n")
    b.text("1. Mobility: ").phi(res.first, "NAME", "PATIENT").text(rng.choice([
        " walks 20 m with a four-wheeled frame and one assist.",
        " now transfers with a standing hoist only.",
        " is independent with a stick on the flat.",
    ]) + "\n")
    b.text("2. Nutrition: weight stable; texture modified diet level 5 continues.\n")
    b.text("3. Advance care plan reviewed with ").phi(fam.first, "NAME", "RELATIVE").text("; not for CPR.\n")
    b.text("Next conference: ").phi(date_long(rng), "DATE").text(". Contact ").phi(fam.first, "NAME", "RELATIVE").text(" on ").phi(au_phone(rng), "CONTACT", "PHONE").text(".\n")
    return b.done()


LAYOUTS: dict[str, Callable[[random.Random], tuple[str, list[dict]]]] = {
    "whanau_hui": whanau_hui,
    "kaupapa_contact": contact_note,
    "aged_care_incident": incident_report,
    "case_conference": case_conference,
}


def generate(n: int, seed: int) -> list[dict]:
    """``n`` gold documents cycling through the four layouts; the same for the same seed."""
    names = list(LAYOUTS)
    out = []
    for i in range(n):
        rng = random.Random(f"learning-curve/{seed}/{i}")
        layout = names[i % len(names)]
        text, spans = LAYOUTS[layout](rng)
        out.append({"id": f"lc-{seed}-{i:03d}", "text": text, "spans": spans, "meta": {"layout": layout}})
    return out
