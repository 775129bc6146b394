"""Contact details: phone and fax numbers, e-mail addresses, web addresses, IP addresses.

E-mail local parts that look like names are rebuilt from the name surrogates of the same
subject ("john.smith@gmail.com" -> "david.parker@gmail.com" where John Smith -> David
Parker). A domain is kept only when it is a public mail provider; any other domain becomes
an invented one, the same invented one wherever it appears for the subject.
"""

from __future__ import annotations

import ipaddress
import random
import re
import string

from ..categories import Category
from .base import SurrogateContext, SurrogateGenerator, register
from .digit_strings import digit_string_surrogate
from .keys import ascii_fold, normalise_key
from .name_pools import token_info
from .names import NameTokens, map_initial, origin_for_locale, sample_name
from .resources import words
from .shape import randomise_digits

_IPV4 = re.compile(r"(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})")
_EMAIL = re.compile(r"(?P<local>[^@\s]+)@(?P<domain>[^@\s]+\.[^@\s]+)")
_URL = re.compile(r"(?i)^(?:[a-z][a-z0-9+.-]*://|www\.)\S+$|^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?:[/:?#]\S*)?$")
_MULTI_PART_SUFFIXES = (
    "co.uk", "org.uk", "nhs.uk", "ac.uk", "gov.uk", "com.au", "org.au", "net.au", "gov.au",
    "edu.au", "co.nz", "org.nz", "govt.nz", "ac.nz", "health.nz", "net.nz", "school.nz",
    "co.in", "com.br", "co.za",
)


@register
class PhoneGenerator(SurrogateGenerator):
    category = Category.CONTACT
    fines = ("PHONE", "FAX")
    order = 90
    fallback = True

    def surrogate(self, original: str, ctx: SurrogateContext) -> str:
        if (mixed := mixed_contact_surrogate(original, ctx)) is not None:
            return mixed
        if not any(c.isdigit() for c in original):  # a handle or address without digits
            return web_address_surrogate(original, ctx)
        # Keyed on the digits alone, so the same number labelled ID elsewhere agrees; words
        # around the digits ("ext", "Ph") stay.
        return digit_string_surrogate(original, ctx)

    def sample(self, rng: random.Random, locale: str | None, gender: str | None) -> str:
        return sample_phone(rng, locale)


# An e-mail or web address standing among other text of one value.
_ADDRESS_IN_TEXT = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+|(?i:[a-z][a-z0-9+.-]*://|www\.)\S+")


def mixed_contact_surrogate(original: str, ctx: SurrogateContext) -> str | None:
    """The surrogate of a value holding several contact details ("03 6382 1190   E
    reception@clinic.com.au", a phone and an e-mail a model marked as one span): each
    address by its own generator, each number by its digits, the words between kept. None
    when the value is one address with only words around it, or no address at all.

    The phone generator changes digits only and the e-mail generator the address only, so
    either alone wrote the other detail out as it stood."""
    found = list(_ADDRESS_IN_TEXT.finditer(original))
    if not found:
        return None
    rest = original[: found[0].start()] + "".join(original[a.end() : b.start()] for a, b in zip(found, found[1:]))
    rest += original[found[-1].end() :]
    if len(found) == 1 and not any(c.isdigit() for c in rest):
        return None
    out, pos = [], 0
    for m in found:
        out.append(_new_digits_in(original[pos : m.start()], ctx))
        address = m.group()
        out.append(EmailGenerator().surrogate(address, ctx) if "@" in address else web_address_surrogate(address, ctx))
        pos = m.end()
    out.append(_new_digits_in(original[pos:], ctx))
    return "".join(out)


_NUMBER = re.compile(r"\+?\d(?:[\d \t().-]*\d)?")


def _new_digits_in(text: str, ctx: SurrogateContext) -> str:
    """Each number of ``text`` as it would be replaced alone; the words around it kept."""
    return _NUMBER.sub(lambda m: digit_string_surrogate(m.group(), ctx), text)


def sample_phone(rng: random.Random, locale: str | None) -> str:
    loc = locale or rng.choice(["US", "UK", "AU", "NZ"])

    def d(n: int) -> str:
        return "".join(str(rng.randint(0, 9)) for _ in range(n))

    def a() -> str:  # the first digit of an area code or exchange is never 0 or 1
        return str(rng.randint(2, 9))

    layouts = {
        "US": [f"({a()}{d(2)}) {a()}{d(2)}-{d(4)}", f"{a()}{d(2)}-{a()}{d(2)}-{d(4)}",
               f"{a()}{d(2)}.{a()}{d(2)}.{d(4)}", f"1-{a()}{d(2)}-{a()}{d(2)}-{d(4)}",
               f"+1 {a()}{d(2)} {a()}{d(2)} {d(4)}", f"{a()}{d(2)}-{d(4)}", f"x{d(4)}"],
        "UK": [f"07{a()}{d(2)} {d(6)}", f"020 {a()}{d(3)} {d(4)}", f"01{a()}{d(2)} {d(6)}",
               f"+44 7{a()}{d(2)} {d(6)}", f"0{a()}{d(2)} {d(3)} {d(4)}"],
        "AU": [f"04{d(2)} {d(3)} {d(3)}", f"(0{rng.choice('2378')}) {a()}{d(3)} {d(4)}",
               f"+61 4{d(2)} {d(3)} {d(3)}", f"0{rng.choice('2378')} {a()}{d(3)} {d(4)}", f"1300 {d(3)} {d(3)}"],
        "NZ": [f"021 {d(3)} {d(4)}", f"(09) {a()}{d(2)} {d(4)}", f"022 {d(3)} {d(4)}",
               f"+64 21 {d(3)} {d(4)}", f"0{rng.choice('34679')} {a()}{d(2)} {d(4)}", f"027 {d(3)} {d(4)}"],
    }[loc]
    return rng.choice(layouts)


class FakeDomains:
    """Invented domains: the same real domain gives the same invented one for a subject."""

    def __init__(self, ctx: SurrogateContext):
        self.ctx = ctx

    def domain(self, domain: str, *, keep_providers: bool) -> str:
        lowered = domain.lower().rstrip(".")
        if keep_providers and lowered in words("contact", "email_providers"):
            return domain
        labels = lowered.split(".")
        suffix = next((s for s in _MULTI_PART_SUFFIXES if lowered.endswith("." + s)), labels[-1])
        head = lowered[: -len(suffix) - 1].split(".") if lowered != suffix else []
        prefixes = words("contact", "host_prefixes")
        kept = [lab for lab in head[:-1] if lab in prefixes]
        rng = self.ctx.stable_rng("CONTACT", "domain", lowered)
        invented = rng.choice(words("contact", "domain_heads")) + rng.choice(words("contact", "domain_tails"))
        if head and invented == head[-1]:
            invented += str(rng.randint(2, 99))
        new = ".".join(kept + [invented, suffix])
        return new.upper() if domain.isupper() else new


def email_local_part(local: str, ctx: SurrogateContext, names: NameTokens) -> str:
    """Name-like parts follow the subject's name surrogates; role words stay; digits change."""
    roles = words("contact", "role_words")
    rng = ctx.stable_rng("CONTACT", "email-local", normalise_key(local))
    out = []
    for part in re.split(r"([._+\-]|\d+)", local):
        if not part:
            continue
        if part.isdigit():
            out.append(randomise_digits(part, rng))
        elif not part.isalpha() or part.lower() in roles:
            out.append(part)
        elif len(part) == 1:
            out.append(map_initial(part, names.initials))
        else:
            out.append(_name_like(part, names))
    return ascii_fold("".join(out))


def _name_like(part: str, names: NameTokens) -> str:
    if token_info(part).known:
        return names.name_word(part)
    # "jsmith" / "smithj": an initial glued to a known name
    if len(part) > 3 and token_info(part[1:]).known:
        return map_initial(part[0], names.initials) + names.name_word(part[1:])
    if len(part) > 3 and token_info(part[:-1]).known:
        return names.name_word(part[:-1]) + map_initial(part[-1], names.initials)
    return names.name_word(part)


@register
class EmailGenerator(SurrogateGenerator):
    category = Category.CONTACT
    fines = ("EMAIL",)
    order = 10

    def accepts(self, original: str, ctx: SurrogateContext) -> bool:
        return bool(_EMAIL.search(original))

    def surrogate(self, original: str, ctx: SurrogateContext) -> str:
        if (mixed := mixed_contact_surrogate(original, ctx)) is not None:
            return mixed
        m = _EMAIL.search(original)
        if m is None:
            return web_address_surrogate(original, ctx)
        names = NameTokens(ctx)
        local = email_local_part(m.group("local"), ctx, names)
        domain = FakeDomains(ctx).domain(m.group("domain"), keep_providers=True)
        if ctx.attempt:  # only when the rebuilt address came out unchanged
            local += str(ctx.rng("CONTACT", "email").randint(2, 99))
        return original[: m.start()] + local + "@" + domain + original[m.end() :]

    def sample(self, rng: random.Random, locale: str | None, gender: str | None) -> str:
        first, last, _ = sample_name(rng, origin=origin_for_locale(rng, locale), gender=gender)
        first, last = ascii_fold(first).lower(), ascii_fold(last).lower()
        local = rng.choice([f"{first}.{last}", f"{first[0]}{last}", f"{first}{last}{rng.randint(1, 99)}",
                            f"{first}_{last}", f"{last}.{first[0]}", rng.choice(words("contact", "role_words"))])
        if rng.random() < 0.5:
            domain = rng.choice(words("contact", "email_providers"))
        else:
            domain = sample_domain(rng)
        return f"{local}@{domain}"


def sample_domain(rng: random.Random) -> str:
    return (rng.choice(words("contact", "domain_heads")) + rng.choice(words("contact", "domain_tails"))
            + "." + rng.choice(words("contact", "tlds")))


@register
class UrlGenerator(SurrogateGenerator):
    category = Category.CONTACT
    fines = ("URL",)
    order = 30

    def accepts(self, original: str, ctx: SurrogateContext) -> bool:
        return bool(_URL.match(original.strip())) and not _IPV4.fullmatch(original.strip())

    def surrogate(self, original: str, ctx: SurrogateContext) -> str:
        return web_address_surrogate(original, ctx)

    def sample(self, rng: random.Random, locale: str | None, gender: str | None) -> str:
        domain = sample_domain(rng)
        return rng.choice([f"www.{domain}", f"https://www.{domain}", f"http://{domain}/patients",
                           f"https://{domain}/contact", domain])


def web_address_surrogate(original: str, ctx: SurrogateContext) -> str:
    """Scheme kept, host invented (as for e-mail domains), path words and digits replaced."""
    m = re.match(r"(?i)(?P<scheme>[a-z][a-z0-9+.-]*://)?(?P<host>[^/:?#\s]+)(?P<rest>.*)", original, re.S)
    if m is None or "." not in m.group("host"):
        return _replace_words(original, ctx)
    host = FakeDomains(ctx).domain(m.group("host"), keep_providers=False)
    rest = _replace_words(m.group("rest"), ctx)
    if ctx.attempt:  # only when everything above came out unchanged
        rest += "/" + str(ctx.rng("CONTACT", "url").randint(2, 99))
    return (m.group("scheme") or "") + host + rest


def _replace_words(text: str, ctx: SurrogateContext) -> str:
    """Path and query words: common web words stay, other words and digits change."""
    keep = set(words("contact", "web_words"))
    rng = ctx.stable_rng("CONTACT", "path", normalise_key(text))
    out = []
    for part in re.split(r"(\d+|[^\W\d_]+)", text):
        if part.isdigit():
            out.append(randomise_digits(part, rng))
        elif part.isalpha() and part.lower() not in keep:
            word = ctx.stable_rng("CONTACT", "word", part.lower()).choice(words("contact", "domain_heads"))
            out.append(word.upper() if part.isupper() else word)
        else:
            out.append(part)
    return "".join(out)


@register
class IpAddressGenerator(SurrogateGenerator):
    category = Category.CONTACT
    fines = ("IPADDR",)
    order = 20

    def accepts(self, original: str, ctx: SurrogateContext) -> bool:
        value = original.strip()
        if _IPV4.fullmatch(value):
            return True
        try:
            ipaddress.IPv6Address(value)
        except ValueError:
            return False
        return True

    def surrogate(self, original: str, ctx: SurrogateContext) -> str:
        rng = ctx.rng("CONTACT", "ip", normalise_key(original))
        if _IPV4.search(original):
            return _IPV4.sub(lambda m: ".".join(_octet(o, i, rng) for i, o in enumerate(m.groups())), original)
        hexdigits = "0123456789abcdef"
        return "".join(
            (rng.choice(hexdigits).upper() if c.isupper() else rng.choice(hexdigits))
            if c in string.hexdigits else c
            for c in original
        )

    def sample(self, rng: random.Random, locale: str | None, gender: str | None) -> str:
        first = rng.choice([10, 172, 192] + list(range(11, 224)))
        return ".".join([str(first)] + [str(rng.randint(0, 255)) for _ in range(3)])


def _octet(original: str, position: int, rng: random.Random) -> str:
    """Same number of digits, never above 255; the first octet never 0."""
    low, high = {1: (0, 9), 2: (10, 99), 3: (100, 255)}[len(original)]
    if position == 0:
        low = max(low, 1)
    return str(rng.randint(low, high))
