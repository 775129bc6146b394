"""Hospitals, clinics, practices and companies: names ending in Hospital / Clinic / Medical
Centre / Health / Practice / Surgery, known hospital names, and companies with Ltd / Inc / Pty."""

from __future__ import annotations

import re
from functools import lru_cache

from ...categories import Category
from ...spans import Span
from ..base import register
from ..lexicons import clinical_acronyms, encoder_words, hospitals, name_words, not_names, places
from .common import LO, UP, RuleDetector, keep_longest, trie_regex

_HOSPITAL_SUFFIX = (
    r"(?:Private\s+Hospital|Children's\s+Hospital|Hospitals?|Hosp\.?|Hospice|Clinics?|Medical\s+Cent(?:re|er)|Medical\s+Group"
    r"|Sleep\s+(?:Cent(?:re|er)|Ctr)|Medical\s+Ctr|Health\s+Ctr"
    r"|Medical\s+Practice|Health\s+Cent(?:re|er)|Health\s+Clinic|Health\s+Services?|Health\s+System|Health\s+Board"
    r"|District\s+Health\s+Board|DHB|Healthcare|Health\s+Care|Health|(?:NHS\s+)?(?:Foundation\s+)?Trust|Infirmary"
    r"|Sanatorium|Nursing\s+Home|Rest\s+Home|Care\s+Home|Retirement\s+Village|Rehabilitation\s+Cent(?:re|er)"
    r"|Family\s+Practice|Practice|Surgery|Pharmacy|Chemist|Laborator(?:y|ies)|Labs|Radiology|Imaging|Pathology|Urgent\s+Care"
    r"|Accident\s+(?:&|and)\s+Medical|Polyclinic|Hauora|Specialists|Birthing\s+Cent(?:re|er)|Maternity\s+Unit)"
)
# Allied-health and specialist practices ("Ridgeline Physical Therapy", "Bluegum Kids Physio",
# "Tamarack Orthopedic & Spine", "Raumati Ridge Urgent & After Hours", "Brackenfold CMHT") and
# schools ("Wandoo Ridge SHS", "Terrebonne Bayside High", "Kaitāia College"). These words end
# treatments and year groups as often ("Cognitive Behavioural Therapy", "Continue Physio",
# "Senior High"), so the name before them must hold a word of its own: one that is no everyday
# word and no word of a service's kind.
_ALLIED_SUFFIX = (
    r"(?:Physical\s+Therapy|Therapy|Therapies|Physio|Physiotherapy|Podiatry|Dental|Audiology|Optometry|Optometrists"
    r"|Counsell?ing|Orthop(?:a)?edics?(?:\s+(?:&|and)\s+Spine)?|(?:Urgent\s+)?(?:&|and)\s+After\s+Hours|After\s+Hours"
    r"|CMHT|CAMHS|Team|Advocacy|Reference\s+Lab|Lab|Midwife-Led\s+Unit|Birth\s+Cent(?:re|er)|MPS)"
)
_SCHOOL_SUFFIX = r"(?:High\s+School|Primary\s+School|School|High|Primary|College|Academy|Kindergarten|Kindy|Preschool|SHS|Grammar)"
# No closing full stop: "Globex Inc." at the end of a sentence keeps its stop outside the span.
_COMPANY_SUFFIX = (
    r"(?:Pty\.?\s+Ltd|Pty|Ltd|Limited|Inc|Incorporated|LLC|PLC|plc|CIC|Corp|Corporation|GmbH|Holdings|Industries"
    r"|(?:&|and)\s+(?:Sons|Daughters)(?:\s+Funeral\s+(?:Directors|Home|Services))?|&\s+Co|Funeral\s+(?:Directors|Home|Services))"
)
_ORG_WORD = rf"(?:St\.|Mt\.|[{UP}](?:-[{UP}])+(?![{UP}{LO}\d-])|(?:Mid|Tri|Bi|Inter|Multi|Pan|Trans|North|South|East|West|Upper|Lower|Twin|All)-[{UP}][{LO}'’&]+(?![{UP}{LO}\d-])|[{UP}][{LO}]+(?:[{UP}][{LO}]*)+(?![{UP}{LO}\d])|[{UP}][{LO}'’&-]*(?![{UP}{LO}\d])|[{UP}]{{2,}}(?![{UP}{LO}\d]))"
_CONNECTOR = r"(?:of|the|and|&|for|de|du|la|on)"
# ("WorkWell", "CofE": a word in camel case, as brands write their names; "Mid-Valley",
# "Tri-County": a hyphened word of a place's name after a prefix; a
# double-barrelled surname before "of" is a person's, "Papadakis-Wren of Casey Fields ...")
# Words of one name stand a space or two apart: a tab or a wider gap is a form's next column
# ("Pt: Beulah Mae Ashcraft   Hospice ID HO-55217").
_GAP = r"[ ]{1,2}"
_NAME_PART = rf"{_ORG_WORD}(?:{_GAP}(?:{_CONNECTOR}{_GAP})?{_ORG_WORD}){{0,5}}"
_BUSINESS_SUFFIX = (
    r"(?:Logistics|Solutions|Consulting|Construction|Engineering|Motors|Transport|Freight|Couriers|Foods|Farms"
    r"|Electrical|Plumbing|Builders|Bakery|Cafe|Café|Restaurant|Hotel|Motel|Bank|Airlines|Airways|Council"
    r"|Supermarket|Mills|Quarry|Mining|Fisheries|Dairies|Vineyards?|Orchards?|Partners|Associates|Assoc|Services"
    r"|(?i:Mutual|Insurance|Assurance)|Police|Constabulary|Home[ \t]+Infusion|Infusion[ \t]+Services"
    r"|Home[ \t]+Respiratory|Home[ \t]+Medical|Medical[ \t]+Suppl(?:y|ies)|Medical[ \t]+Equipment|Mobility)"
)
# A pharmacy named as an American or Australian one is ("Cobbity Drug", "Saveway Rx", "Mason
# Drugs"), with its capital: "drug" and "Rx" alone are ordinary words.
_PHARMACY_SUFFIX = r"(?:Drug[ \t]+(?:Store|Mart|Co)|Drugstore|Drugs?|Rx|Apothecary|Dispensary)"
# The last word is rare and the capitalised words before it common, so the suffix is found
# first and the name read backwards from it. Hospital suffixes match in capitals too:
# letterheads say "HILLSIDE MEDICAL PRACTICE".
_SUFFIX = re.compile(
    rf"(?<=[ \t,])(?:(?P<hospital>(?i:{_HOSPITAL_SUFFIX}))|(?P<company>{_COMPANY_SUFFIX})|(?P<business>{_BUSINESS_SUFFIX})"
    rf"|(?P<pharmacy>{_PHARMACY_SUFFIX})|(?P<allied>{_ALLIED_SUFFIX})|(?P<school>{_SCHOOL_SUFFIX}))"
    r"(?![\w])"
)
_NAME_BEFORE = re.compile(rf"(?<![\w'’-])(?P<n>{_NAME_PART}),?{_GAP}$")
_KINDS = {"hospital": ("HOSPITAL", 0.85), "company": ("COMPANY", 0.85), "business": ("COMPANY", 0.7), "pharmacy": ("HOSPITAL", 0.85),
          "allied": ("HOSPITAL", 0.8), "school": ("OTHER", 0.8)}
# A Māori-medium school or early-learning centre by its form: "Te Kura Kaupapa Māori o
# Waioeka", "Te Kōhanga Reo o Ngā Kuaka".
_KURA = re.compile(
    rf"\b(?:Te[ \t]+)?(?:Kura(?:[ \t]+Kaupapa[ \t]+M[āa]ori)?|K[ōo]hanga[ \t]+Reo|Wharekura)[ \t]+o[ \t]+(?:(?:te|ng[āa])[ \t]+)?"
    rf"[{UP}][\w'’-]*(?:[ \t]+[{UP}][\w'’-]*)?"
)
# A UK prison by its prefix: "HMP Altcourse", "HMYOI Feltham", "HM Prison Barlinnie".
_PRISON = re.compile(rf"\b(?:HMP|HMYOI|HMP/YOI|HM[ \t]+Prison)[ \t]+(?P<n>[{UP}][{LO}]+(?:[ \t]+[{UP}][{LO}]+)?)")
_EMPLOYER = re.compile(
    rf"\b(?i:works?|worked|working|employed|employee|job|contractor)[ \t]+(?:at|for|with|by)[ \t]+(?:the[ \t]+)?"
    rf"(?P<n>[{UP}][\w'’&-]*(?:[ \t]+[{UP}][\w'’&-]*){{0,3}})"
)
# A form's employer, insurer or school field: "Employer: Fulton Hogan (Rolleston depot)",
# "Employer: Lockheed Martin". The label says what the capitalised words are, whatever names
# they look like; they end at a column gap, a bracket or a comma.
_ORG_FIELD = re.compile(
    rf"\b(?i:employer|employed by|company|insurer|insurance company|health insurer|workers'? comp(?:ensation)? carrier"
    rf"|carrier|school|kindergarten|daycare|day care|nursery|workplace)[ \t]*:[ \t]*"
    rf"(?P<n>[{UP}][\w'’&-]*(?:[ ](?:of[ ]|and[ ]|&[ ])?[{UP}][\w'’&-]*){{0,4}})"
)
_NO_ORG_FIELD = frozenset(
    "self year yr grade none nil n/a na unemployed retired home homeschooled student unknown pending not "
    "various casual same previous current see".split()
)
# Words that make "X Clinic" a department or a kind of service, not a named organisation.
GENERIC_WORDS = _GENERIC = frozenset(
    """
    mental public community primary secondary occupational sexual women's womens men's child children's youth
    family general day outpatient outpatients inpatient emergency cardiology cardiac diabetes diabetic fracture
    pain memory eye dental oral renal respiratory antenatal postnatal maternity paediatric pediatric orthopaedic
    orthopedic plastic vascular colorectal breast surgical medical minor major urgent acute private local regional
    district national rural city walk-in walk specialist specialty sleep travel wound skin allergy asthma
    fertility gastroenterology neurology oncology haematology hematology rheumatology urology endocrine ent
    dermatology psychiatric psychology physiotherapy dietetics podiatry audiology optometry hearing vision
    continence falls stroke heart lung liver kidney bone joint spine foot hand ear nose throat addiction
    alcohol drug methadone smoking cessation weight obesity transplant dialysis infusion chemotherapy
    radiation radiotherapy palliative hospice aged elderly geriatric rehabilitation rehab student staff
    occupational school university college veterinary animal baby infant well-child wellchild the a an this that
    our their his her your its my same other another new old next previous cancer blood clinical free
    integrated digital virtual mobile telehealth physical illicit recreational prescription street controlled
    adverse injecting intravenous iv oral over-the-counter otc generic brand study trial
    """.split()
)
_LEADING_JUNK = frozenset({"admitted", "transferred", "seen", "discharged", "referred", "presented", "attended",
                           "works", "worked", "working", "employed", "employee", "contractor", "for",
                           "from", "to", "at", "in", "by", "via", "with", "and", "or", "the", "a", "an"})


@lru_cache(maxsize=1)
def _known_hospitals() -> re.Pattern[str]:
    # as listed, or in capitals as a letterhead or a result header prints it ("QML PATHOLOGY";
    # names of two words or more, so a one-word name in capitals is no acronym read as one)
    names = {*hospitals(), *(h.upper() for h in hospitals() if len(h.split()) > 1)}
    return re.compile(rf"(?<![\w'’-]){trie_regex(sorted(names), ignore_case=False)}(?![\w'’-])")


_COMPASS = ("north", "south", "east", "west", "northern", "southern", "eastern", "western", "upper", "lower", "greater", "central")


# Words that end a sentence's part before an organisation's name even inside what the name
# reader took ("MSU SENT TO GRAMPIANS PATHOLOGY" in a note in capitals).
_INNER_JUNK = frozenset(
    "to from at in by via with sent phoned called rang emailed faxed admitted transferred seen discharged referred presented attended".split()
)


def _after_inner_verb(text: str, start: int, end: int) -> int:
    words = list(re.finditer(r"\S+", text[start:end]))
    for i in range(len(words) - 1, -1, -1):
        if words[i].group().casefold().rstrip(".,") in _INNER_JUNK:
            return start + words[i + 1].start() if i + 1 < len(words) else end
    return start


def _trim_leading(text: str, start: int, end: int) -> int:
    """Skip words that begin the sentence rather than the name ("Admitted Auckland City Hospital")."""
    stop = not_names()
    for m in re.finditer(r"\S+", text[start:end]):
        w = m.group().casefold().rstrip(".,")
        # (a compass word opens a region's name: "West Marlshire Police", "North Shore Hospital")
        if w not in _LEADING_JUNK and not (w in stop and w not in ("st", "saint", "mount", "mt", "royal", "the", *_COMPASS)):
            return start + m.start()
    return end


# Words that name a kind of treatment or a year group, not a practice or a school.
_TREATMENT_WORDS = frozenset(
    """
    cognitive behavioural behavioral dialectical replacement nicotine hormone speech language interpersonal group
    couples art music play manual exposure schema trauma focused narrative massage water aqua hydro light laser
    oxygen insulin iv antibiotic antiviral antiretroviral targeted systemic topical compression pelvic floor
    vestibular junior senior middle high primary secondary infant intermediate grammar boarding summer sunday
    continue continued start started commence commenced restart refer referred ongoing needs requires
    """.split()
)


# Endings of English words the encoder's vocabulary may lack ("Safeguarding Adults Team",
# "Reablement Team"): no name of a place or a person ends so.
_ENGLISH_ENDING = re.compile(r"(?:ing|tion|sion|ment|ness|ity|ance|ence|ship|ive)$")


def _has_a_name_word(text: str, start: int, end: int, words: list[str]) -> bool:
    """Whether the words before an allied-health or school suffix hold one of a name's own:
    not everyday (the encoder's vocabulary), not a treatment's or a service's kind, and joined to
    the suffix without a comma ("Dr Smith, Physio" is a person and a role)."""
    if "," in text[start:end] or text[end : end + 1] == ",":
        return False
    vocab = encoder_words()
    known = places()
    return any(w in known and len(w) > 2 for w in words) or any(
        w not in vocab and w not in _GENERIC and not _ENGLISH_ENDING.search(w) and w not in _TREATMENT_WORDS and len(w) > 2 and w.upper() not in clinical_acronyms()
        for w in words
    )


# "St." ending a street's name and a sentence, the next one opened by an everyday word.
_STREET_STOP = re.compile(r"(?<=[a-z] )St\.[ ]{1,2}(?P<w>[A-Z][a-z]+)")


@register("organisation")
class OrganisationDetector(RuleDetector):
    def detect(self, text: str) -> list[Span]:
        found: list[Span] = []
        for m in _SUFFIX.finditer(text):
            if m.group()[0].islower():
                continue  # "usual pharmacy": a common noun, not the name's last word
            line_start = text.rfind("\n", 0, m.start()) + 1
            n = _NAME_BEFORE.search(text, max(line_start, m.start() - 100), m.start())
            if n is None:
                continue
            start = _after_inner_verb(text, _trim_leading(text, n.start("n"), n.end("n")), n.end("n"))
            for stop in _STREET_STOP.finditer(text, start, n.end("n")):
                if stop["w"].casefold() in not_names():
                    start = _trim_leading(text, stop.start("w"), n.end("n"))  # "... on Main St. Also Bellbird Rx": a sentence ended at "St."
            words = [w.casefold().rstrip(".,") for w in text[start : n.end("n")].split()]
            if not words or all(w in _GENERIC or w in ("of", "and", "&", "for", "on") for w in words):
                continue  # "Mental Health", "the Diabetes Clinic": a service, not a named place
            if m.lastgroup in ("allied", "school") and not _has_a_name_word(text, start, n.end("n"), words):
                continue  # "Cognitive Behavioural Therapy", "Continue Physio", "Dr Smith, Physio"
            fine, score = _KINDS[m.lastgroup]
            # a practice or a school with a name word of its own is one whatever the models say
            # (they read "Physio" of "Bluegum Kids Physio" as a person and lost it to the guard)
            found.append(self.span(start, m.end(), Category.ORGANIZATION, fine, score, validated=m.lastgroup in ("allied", "school")))
        for m in _known_hospitals().finditer(text):
            # Written exactly as listed, a known hospital, insurer or pharmacy chain is one
            # whatever the models say ("Express Scripts" was in no member's view).
            found.append(self.span(m.start(), m.end(), Category.ORGANIZATION, "HOSPITAL", 0.9, validated=True))
        for m in _KURA.finditer(text):
            found.append(self.span(m.start(), m.end(), Category.ORGANIZATION, "OTHER", 0.85, validated=True))
        for m in _PRISON.finditer(text):
            found.append(self.span(m.start(), m.end(), Category.ORGANIZATION, "OTHER", 0.9, validated=True))
        for m in _ORG_FIELD.finditer(text):
            words = [w.casefold().rstrip(".,") for w in m["n"].split()]
            if words[0] in _NO_ORG_FIELD or re.match(r"[ \t]*\d", text[m.end("n") : m.end("n") + 3]):
                continue  # "Employer: Self employed", "School: Year 9"
            if len(words) == 1 and words[0] in encoder_words():
                continue  # "School: Attending regularly": one everyday word names no one's
            if not all(w in _GENERIC or w in not_names() for w in words):
                found.append(self.span(m.start("n"), m.end("n"), Category.ORGANIZATION, "COMPANY", 0.85, validated=True))
        for m in _EMPLOYER.finditer(text):
            first = m["n"].split()[0].casefold()
            if first not in name_words() and first not in not_names():
                found.append(self.span(m.start("n"), m.end("n"), Category.ORGANIZATION, "COMPANY", 0.6))
        return keep_longest(found)
