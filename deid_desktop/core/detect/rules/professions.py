"""Occupations, after words that say a person does that job: "works as a plumber",
"Occupation: teacher", "retired builder", "Ex-shearer and freezing worker".

After a label or "works as a" the words that follow name a job whether or not our list has
it ("Occupation: forestry skid worker / log loader", "works as a fly-in fly-out jumbo
operator"): most jobs are in no list, so there the phrase is taken up to where it plainly
ends, and the span is validated (the wording proves it; the models may not out-vote it).

A line may break between the context and the job ("Works as a" / "lorry mechanic").

After the other contexts ("retired", "ex-", "used to be a", "is a", "she's a", "i am") a job must end in a word
that names a job: a listed occupation or a generic head such as "worker" or "supervisor".
Up to three lower-case words before it belong to the job ("school crossing supervisor",
"retired postal carrier"), since real jobs are mostly a known head with words of their own
in front. Such a span is validated too: the models almost never say PROFESSION on notes
unlike their training data, so an unvalidated rule span was always out-voted."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterator

from ...categories import Category
from ...spans import Span
from ..base import register
from ..lexicons import professions
from .common import RuleDetector, pipe_column, trie_regex

_QUALIFIERS = r"(?:(?:retired|part-time|full-time|part time|full time|self-employed|senior|junior|head|chief|qualified|trainee|apprentice|casual|former|local|registered|relief)[ \t]+)*"
# A line may wrap between the context and the job ("Works as a\n  lorry mechanic").
_WRAP = r"(?:\n[ \t]*)?"
# A relative, or the next of kin, named before their job.
_KIN = (
    "(?:"
    + trie_regex(
        """son daughter dtr wife husband partner mum mom mother dad father brother sibling niece nephew grandson
        granddaughter grandmother grandfather grandma grandpa aunt auntie aunty uncle cousin stepson stepdaughter
        stepfather stepmother fiance fiancee fiancé fiancée flatmate neighbour neighbor nok""".split()
    )
    + r"|(?-i:sister)|next[ \t]+of[ \t]+kin)"
)
# (context, score): a label is surest, "is a" weakest.
_CONTEXTS = [
    (r"(?:occupation|occ\.?|profession|job|job title|employment|works as|trade)[ \t]*[:\-][ \t]*", 0.9),
    (r"(?:works?|worked|working|employed|job|career|trained|training|qualified|volunteers?|volunteered|volunteering)[ \t]+as[ \t]+(?:an?(?:[ \t]+|(?=\n)))?" + _WRAP, 0.85),
    (r"(?:retired|former|ex-|previously(?:[ \t]+an?)?|formerly an?|used to be an?|used to work as an?|later(?:[ \t]+an?)?)[ \t]*" + _WRAP, 0.8),
    # a relative's job in brackets after them: "son Christos (plumber)", "Daughter Mai Okafor
    # (29, pharmacy technician)", "wife Halina (part-time school cook)"; the job must end in a
    # listed or generic head and close the bracket or its first clause ("Sister Jones (nurse)"
    # is a ward sister's title: "sister" counts in lower case only)
    # ... or after their name and a comma ("Her mother Chiamaka, a ward sister at ...",
    # "son Tomasz, a long-distance lorry driver"): one context, the relative's word read once
    (rf"\b{_KIN}\b(?:(?P<bracket>[^()\n]{{0,48}}(?:\n[ \t]*)?\([ \t]*(?:\d{{1,3}}[ \t]*(?:y|yo|yrs?)?[ \t]*,[ \t]*)?(?:an?[ \t]+)?)"
     # ... or after their name and age in a family's list ("Mother Itzel Quispe, 34, dental hygienist")
     rf"|[^()\n.;,]{{0,40}}(?:\([^()\n]{{1,12}}\))?,[ \t]+(?:an?(?:[ \t]+|(?=\n)){_WRAP}|\d{{1,3}}[ \t]*(?:y|yo|yrs?)?,[ \t]+))", 0.6),
    # a social history's label, and an age before the job ("44-year-old right-handed commercial
    # drywall finisher", "a 35 year old builder"): the job must end in a listed or generic head
    (r"\b(?:social[ \t]+history|social[ \t]+hx|soc[ \t]*hx|sh|social)[ \t]*:[ \t]*", 0.8),
    (r"\b\d{1,3}[ \t]*(?:-year-old|-yr-old|[ \t]year[ \t]old|yo|y/o)[ \t]+(?:(?:right|left)[- ]handed[ \t]+)?", 0.6),
    # worker"; the job must end in a listed or generic head here too
    # ... or with no comma after a sex in capitals: "45M scaffolder."
    (r"\b\d{1,3}[ \t]*(?:yo|y/o|yrs?|-year-old|[ \t]year[ \t]old)?[ \t]*(?:(?:m|f|male|female|man|woman)[ \t]*,[ \t]*|(?-i:[MF])[ \t]+)(?!ex-)", 0.6),
    # "is a", "she's a", "i am packer": the job must end in a listed or generic head here
    # ("Dr Roe's nurse" is a possessive: after "'s" the article must follow)
    (r"(?:\b(?:is|was|am|i'm|i’m)[ \t]+(?:an?(?:[ \t]+|(?=\n)))?|['’]s[ \t]+an?(?:[ \t]+|(?=\n)))" + _WRAP, 0.6),
]
_IN_BRACKETS = 3  # the index of the relative's bracket among the contexts
# (or the place of the job: "granddaughter shaye (a vet nurse in Warkworth)")
_BRACKET_CLAUSE_END = re.compile(r"[ \t]*[),;]|[ \t]+(?:in|at|for|with)[ \t]+[A-Z][^()\n]{0,40}\)")
# What a relative does for the patient, not a job: "(primary caregiver)", "(main carer)".
_MAIN_CARER = re.compile(r"(?i)\b(?:main|primary|sole|chief|principal)\b")
_CARING = re.compile(r"(?i)\b(?:carer|caregiver|care[ \t]+giver|support[ \t]+person)$")
# Heads that name a job only with a word of their own before them: "freezing worker", "school
# crossing supervisor"; alone ("a hard worker") they need not. Heads that as often name
# something else ("a dog owner", "a translocation carrier", "right hand") are not here: the
# job list has their jobs whole ("shop owner", "mail carrier", "farm hand").
_GENERIC_HEADS = (
    "worker workers operator operators assistant assistants attendant attendants supervisor supervisors "
    "inspector inspectors loader loaders labourer labourers laborer laborers technician technicians "
    "officer officers manager managers clerk clerks finisher finishers"
).split()
# Words before a head that describe the person, not the job ("a keen gardener", "a key driver
# of", "a heavy smoker"): they end the modifiers.
_NOT_MODIFIERS = frozenset(
    """
    a an the and or of for to in at on with by from who which that this his her their its our my your
    very good great keen avid heavy light poor known key main major big small real hard busy
    bad excellent fine proud happy nice lovely old young new active regular occasional social
    """.split()
)
# A lower-case word that may stand before the head ("shearers'", "fly-in"); a clause word
# ("a team with the nurses") ends the phrase before it.
_MODIFIER = (
    r"(?-i:(?!(?:a|an|the|and|or|of|for|to|in|at|on|with|by|from|who|which|that|is|was|as|later|then|now)\b)[a-z][a-z'’-]*"
    r"|[A-Z]{2,4}(?=[ \t]+[a-z]))"  # an acronym's licence or ward ("an HGV driver", "an ICU nurse")
)


# Contexts after which the next phrase is a job even when no list has it.
_OPEN_CONTEXT = (
    r"(?:\b(?:occupation|occ\.?|profession|job title|job|employment|trade|role)[ \t]*[:\-][ \t]*"
    r"|\bPost[ \t]*:[ \t]*"  # a form's "Post: Band 5 staff nurse" (not "post-op", nor "Position: supine")
    r"|\b(?-i:Occupation|OCCUPATION|Profession|OCC|Occ)(?:[ \t]{2,}|\t)"  # a form's column: "Occupation   HGV driver (nights)"
    r"|\b(?:works?|worked|working|employed)(?:[ \t]+(?:[a-z]+ly|part[- ]time|full[- ]time|seasonally|nights|days|weekends|shifts|evenings|casually))?"
    r"[ \t]+as[ \t]+(?:an?(?:[ \t]+|(?=\n)))?(?:\n[ \t]*)?)"
)
# A word of a job's name; a number may stand inside one ("HGV class 1 driver").
_WORD = r"(?:[A-Za-z][A-Za-z'’-]*|\d{1,2}(?=[ \t]+[A-Za-z]))"
# The phrase: up to six words joined by single spaces or " / "; it ends at punctuation, a
# line break, a wider gap (a form's next field) or a word that starts a new clause.
_OPEN = re.compile(rf"(?i){_OPEN_CONTEXT}(?P<job>{_WORD}(?:(?: | / ){_WORD}){{0,5}})")
_CLAUSE = frozenset(
    "at in on for with from to by since until and or but who which when while because after before during "
    "of the his her their there here".split()
)
# Labels that say there is no job, or say something else about work.
_NOT_A_JOB = frozenset(
    "unemployed none nil na n/a unknown retired not home homemaker independent unable off sick leave usual "
    "normal full part well previously currently still also now same team member".split()
)


_NOT_A_JOB_CELL = frozenset("attends attending goes at in home stays nursery school daycare kindy kindergarten preschool baby infant".split())
_JOB_HEADER = re.compile(r"(?i:occupation|job|work|employment|profession)(?:[ \t]*/[ \t]*(?i:school|study|education))?")
# The job in a table's cell: after "retired" or "ex-", up to a bracket, a comma or a semicolon.
_CELL_JOB = re.compile(r"(?i:(?:retired|former|ex-|part-time|full-time)[ \t]*)?(?P<job>[A-Za-z][A-Za-z'’ /-]*[A-Za-z])")


def _open_job(phrase: str) -> str:
    """The job at the start of ``phrase``: its words up to the first clause word; empty when
    the label says there is none."""
    words = phrase.split(" ")
    kept: list[str] = []
    for w in words:
        if w.lower() in _CLAUSE:
            break
        kept.append(w)
    while kept and kept[-1] == "/":
        kept.pop()
    if not kept or kept[0].lower() in _NOT_A_JOB or len(kept[0]) < 2:  # "N/A" reads as "N"
        return ""
    return " ".join(kept)


_FOR_SOMEONE = re.compile(r"[ \t]+(?:for|of|to)\b")

# A social history that opens with the job, capitalised, and says where: "Scaffolder, Kaiwaka
# Access Scaffolding.", "Barista at Fern and Flat White". The job must be a listed one and
# open its line or sentence, and a capitalised name must follow ", " or " at ". Jobs of the
# people who treat ("Nurse at bedside", "Physiotherapist, Ward 7") are left out: there the
# wording names the clinician, not the patient's work.
_CARE_JOBS = frozenset(
    """nurse doctor physician surgeon physiotherapist physio pharmacist therapist dentist midwife paramedic
    psychologist psychiatrist counsellor counselor dietitian dietician radiographer consultant registrar
    carer caregiver podiatrist optometrist audiologist sonographer chaplain""".split()
)


@lru_cache(maxsize=1)
def _job_first() -> re.Pattern[str]:
    jobs = trie_regex(professions())
    return re.compile(
        rf"(?m)(?:^[ \t]*(?:[-*•][ \t]*)?|(?<=[.;])[ \t]+|(?<=:)[ \t]*)(?P<job>(?=[A-Z])(?i:{jobs})(?:e?s)?)"
        r"(?=(?:[ \t]+at[ \t]+|,[ \t]*)(?:the[ \t]+)?[A-Z])"
    )


@lru_cache(maxsize=1)
def _pattern() -> re.Pattern[str]:
    jobs = trie_regex(professions())
    contexts = "|".join(f"(?P<c{i}>{c})" for i, (c, _) in enumerate(_CONTEXTS))
    return re.compile(rf"(?i)\b(?:{contexts}){_QUALIFIERS}(?P<job>{_job_phrase(jobs)})(?P<of>[ \t]+of\b)?")


@lru_cache(maxsize=1)
def _coordinated() -> re.Pattern[str]:
    """A second job joined to the first: "Ex-shearer and freezing worker"."""
    return re.compile(rf"(?i)[ \t]*(?:,|/|\band\b|\bor\b|,[ \t]*and\b)[ \t]*(?P<job>{_job_phrase(trie_regex(professions()))})")


def _job_phrase(jobs: str) -> str:
    """Up to three modifiers, then a listed job or a generic head, then no possessive."""
    heads = trie_regex(_GENERIC_HEADS)
    return (
        rf"(?:{_MODIFIER}[ \t]+){{0,3}}(?:{jobs}|{heads})(?:e?s)?(?![\w'’-])(?![ \t]*['’]s\b)"
    )


def _trim(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The job within a matched phrase: modifiers from the first word that describes the
    person, not the job, are dropped; a generic head left with no modifier is no job."""
    words = list(re.finditer(r"\S+", text[start:end]))
    for i in range(len(words) - 2, -1, -1):
        if words[i].group().casefold() in _NOT_MODIFIERS:
            words = words[i + 1 :]
            break
    head = words[-1].group().casefold()
    if len(words) == 1 and head in _GENERIC_HEADS and head not in professions():
        return None
    return start + words[0].start(), start + words[-1].end()


def _capital_lines(text: str) -> Iterator[tuple[int, str]]:
    """(offset, the line in lower case) for each line written in capitals (a run report's "PT
    IS A RETIRED COAL MINE ELECTRICIAN"), so the contexts and the job list read it; letter
    for letter, so offsets hold."""
    pos = 0
    for line in text.split("\n"):
        letters = sum(c.isalpha() for c in line)
        if letters >= 12 and sum(c.isupper() for c in line) >= 0.9 * letters:
            yield pos, "".join(c.lower() if len(c.lower()) == 1 else c for c in line)
        pos += len(line) + 1


@register("profession")
class ProfessionDetector(RuleDetector):
    def detect(self, text: str) -> list[Span]:
        out = self._detect(text)
        found = [(s.start, s.end) for s in out]
        extra = [
            s.with_(start=s.start + at, end=s.end + at)
            for at, line in _capital_lines(text)
            for s in self._detect(line)
        ]
        if extra:
            out.extend(s for s in extra if not any(a < s.end and s.start < b for a, b in found))
            out.sort(key=lambda s: s.start)
        return out

    def _detect(self, text: str) -> list[Span]:
        out = []
        for m in _pattern().finditer(text):
            score = next(s for i, (_, s) in enumerate(_CONTEXTS) if m.group(f"c{i}") is not None)
            if m["of"] and m.group(f"c{len(_CONTEXTS) - 1}") is not None:
                continue  # "is a key driver of", "was a member of": a role in something, not a job
            if m.group(f"c{len(_CONTEXTS) - 2}") is not None and _FOR_SOMEONE.match(text, m.end("job")):
                continue  # "67M, carer for his wife": what he does for someone, not a job
            if m.group(f"c{_IN_BRACKETS}") is not None and m["bracket"] is not None and (
                not _BRACKET_CLAUSE_END.match(text, m.end("job")) or _CARING.search(m["job"])
            ):
                continue  # "son Christos (plumber)", not "(see plumber's quote)" nor "husband Huy (primary caregiver)"
            if _CARING.search(m["job"]) and _MAIN_CARER.search(m["job"]):
                continue  # "Despina (72) is main carer": who cares for the patient, not a job
            pos = m.start("job")
            end = m.end("job")
            while True:
                job = _trim(text, pos, end)
                if job is None:
                    break
                out.append(self.span(*job, Category.PROFESSION, "OTHER", score, validated=True))
                more = _coordinated().match(text, end)
                if more is None:
                    break
                pos, end = more.start("job"), more.end("job")
        for m in _job_first().finditer(text):
            job = m["job"].casefold()
            if job.rstrip("s") in _CARE_JOBS or job in _CARE_JOBS or len(m["job"].split()) > 1 and m["job"].split()[-1].casefold() in _CARE_JOBS:
                continue
            if not any(s.start <= m.start("job") < s.end for s in out):
                out.append(self.span(m.start("job"), m.end("job"), Category.PROFESSION, "OTHER", 0.7, validated=True))
        for a, b in pipe_column(text, _JOB_HEADER):
            # a household's or a family's table, a cell under "Occupation": "dental nurse
            # (Smilecraft Dental), on maternity leave", "retired seamstress, from Brasov"
            cell = _CELL_JOB.match(text, a, b)
            job = _open_job(cell["job"]) if cell is not None else ""
            words = job.split()
            if words and (words[0].casefold() in _NOT_A_JOB_CELL or any(w[0].isupper() and not w.isupper() for w in words[1:])):
                continue  # a child's "attends Little Acorns Day Nursery": where, not a job
            if job and not any(s.start < cell.start("job") + len(job) and cell.start("job") < s.end for s in out):
                out.append(self.span(cell.start("job"), cell.start("job") + len(job), Category.PROFESSION, "OTHER", 0.85, validated=True))
        for m in _OPEN.finditer(text):
            job = _open_job(m["job"])
            if not job:
                continue
            start = m.start("job")
            end = start + len(job)
            out = [s for s in out if s.end <= start or s.start >= end]  # the whole phrase wins
            out.append(self.span(start, end, Category.PROFESSION, "OTHER", 0.9, validated=True))
        return sorted(out, key=lambda s: s.start)
