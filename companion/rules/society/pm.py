"""Reading a player's PM: each line of orders as the text's sample writes them ("Spy --> Spaced Cowboy, target
Production.", "Trade with Skanky (6)-->(+9)", "City of NukeDoc (6) A2, A3, A4, A5", "Armies x2 (2)", "Colosseum (6)",
"Give Jamski 1 army", "3 Nukes to DrSpike" / "Targets: D3, E3, D4", "Attack Skanky with 4 armies." / "Targets: ...")
with the variations players type (case, spacing, plurals, a missing cost).

:func:`read` gives the orders in the contract's shape (``kind`` one of :data:`KINDS`, ``line``, ``text`` and, as they
apply, ``target``, ``phase``, ``count``, ``squares``, ``wonder``, ``stated_cost``) and the lines it could not read.
:func:`to_orders` turns one reading into the game's orders; :mod:`.pm_check` compares it with a game."""
from __future__ import annotations

import re
from typing import Any

from companion.rules.society.data import GOVERNMENTS, WONDERS, Wonder

KINDS = ("spy", "trade", "city", "armies", "wonder", "aid", "nukes", "attack", "research", "sdi", "spaceship",
         "revolution", "peace", "declare-war")

Reading = dict[str, Any]

_SQ = r"[A-Za-z]{1,2}\s?\d{1,2}"
_COST = r"\(\s*(\d+(?:\s*\+\s*\d+)*)\s*(?:g|gold)?\s*\)"  # "(9+12)": the sum
_NUM_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
              "eight": 8, "nine": 9, "ten": 10}
_PHASES = {"espionage": "espionage", "trade": "trade", "production": "production", "research": "research",
           "science": "research", "military": "military", "cities": "cities", "city": "cities",
           "wonders": "wonders", "wonder": "wonders", "aid": "aid", "foreign aid": "aid", "war": "war",
           "tax": "tax", "tax collection": "tax", "taxes": "tax"}
_ITEMS = {"army": "armies", "armies": "armies", "gold": "gold", "spy": "spies", "spies": "spies", "nuke": "nukes",
          "nukes": "nukes", "sdi": "sdi", "sdis": "sdi", "tech": "tech", "techs": "tech", "tech level": "tech",
          "tech levels": "tech", "technology": "tech", "technologies": "tech", "level": "tech", "levels": "tech"}


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _wonder_names() -> list[tuple[str, Wonder]]:
    out = []
    for wd in WONDERS:
        for n in {wd.name, wd.short, wd.key, wd.name.replace("-", " ")}:
            out.append((_norm(n), wd))
    out += [(_norm(n), next(w for w in WONDERS if w.key == k)) for n, k in (
        ("Trans Siberian RR", "railroad"), ("Trans-Siberian Railway", "railroad"), ("TSR", "railroad"),
        ("University of California", "uc"), ("Univ of California", "uc"), ("UC", "uc"),
        ("National Rifle Association", "nra"), ("Majestic 12", "majestic"), ("Majestic", "majestic"),
        ("Galactic Overlord", "overlord"), ("Tower of Babel", "babel"), ("Babel", "babel"), ("Silk", "silk"),
        ("Trojan", "trojan"), ("Colloseum", "colosseum"), ("Coliseum", "colosseum"))]
    return sorted(out, key=lambda x: -len(x[0]))


WONDER_NAMES = _wonder_names()


def find_wonder(text: str) -> Wonder | None:
    n = _norm(text)
    return next((wd for k, wd in WONDER_NAMES if n == k), None)


def match_society(text: str, names: list[str]) -> str | None:
    """The society ``text`` names: exact (case, spaces and punctuation aside), else the only one it begins or is
    contained in; None if none or several."""
    n = _norm(text)
    if not n:
        return None
    exact = [x for x in names if _norm(x) == n]
    if exact:
        return exact[0]
    for loose in (False, True):  # a name it begins (or that begins it), then one it is inside
        hits = [x for x in names if (n in _norm(x) if loose else
                                     _norm(x).startswith(n) or n.startswith(_norm(x)))]
        if len(hits) == 1:
            return hits[0]
    return None


def _squares(text: str) -> list[str]:
    return [re.sub(r"\s", "", m).upper() for m in re.findall(rf"\b{_SQ}\b", text)]


def _num(text: str | None, default: int = 1) -> int:
    if not text:
        return default
    t = text.strip().lower()
    return int(t) if t.isdigit() else _NUM_WORDS.get(t, default)


_N = r"(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten)"


def _target(raw: str, names: list[str], out: Reading) -> None:
    raw = raw.strip(" .,:;!-")
    hit = match_society(raw, names)
    out["target"] = hit if hit is not None else raw
    if hit is None and names:
        out.setdefault("problems", []).append(f"no society called {raw!r}")
    elif hit is not None and len(_norm(raw)) > len(_norm(hit)) and _norm(raw).startswith(_norm(hit)):
        n, i = 0, 0  # the words after the name: another society, or chatter
        while i < len(raw) and n < len(_norm(hit)):
            n += len(_norm(raw[i]))
            i += 1
        rest = raw[i:].strip(" .,:;!-&")
        out.setdefault("problems", []).append(f"read as {hit}; {rest!r} not read (one society an order)")


def _line(text: str, names: list[str]) -> Reading | None:
    s = text.strip().rstrip(".!").strip()
    s = re.sub(r"\s*(?:<-+|note that|<--).*$", "", s, flags=re.I) if re.search(r"<-|note that", s, re.I) else s
    if re.match(r"^(?:send\s+(?:an?\s+|one\s+)?)?spy\b", s, re.I):  # "Send spy to", "(Trade)", "Production (Cities)"
        s = re.sub(r"^send\s+(?:an?\s+|one\s+)?spy\b", "Spy", s, flags=re.I)
        s = re.sub(r"\bproduction\s*\(\s*([a-z ]+?)\s*\)", r"\1", s, flags=re.I)
        s = re.sub(r"\s*\(\s*([a-z ]+?)\s*\)\s*$", r", target \1", s, flags=re.I)
    low = s.lower()
    cost = re.search(_COST, s)
    out: Reading = {}
    if cost:
        out["stated_cost"] = sum(int(x) for x in cost.group(1).split("+"))
    plain = re.sub(_COST, " ", s)
    plain = re.sub(r"\s+", " ", plain).strip()
    pl = plain.lower()

    m = re.match(r"^spy\s*(?:-+>|=+>|→|>|to|at|on|against|:)?\s*(.+?)\s*[,;:]?\s*(?:target(?:ing)?|phase|,)\s*:?\s*"
                 r"(?:the\s+)?([a-z ]+?)(?:\s+phase)?$", pl)
    d = re.match(r"^(?:spy\s+)?defend(?:s|ing)?\s*(?:the\s+)?([a-z ]+?)(?:\s+phase)?(?:\s+with\s+(?:a\s+)?spy)?$", pl)
    if d and (pl.startswith("spy") or pl.startswith("defend")):
        out.update(kind="spy", defend=True, phase=_PHASES.get(d.group(1).strip(), d.group(1).strip()))
        return out
    if m:
        out.update(kind="spy")
        tgt = plain[len(plain) - len(pl):]  # (same length: lower() keeps it)
        raw = plain[m.start(1):m.end(1)]
        _target(raw, names, out)
        ph = m.group(2).strip()
        out["phase"] = _PHASES.get(ph, ph)
        del tgt
        return out
    m = re.match(rf"^(?:trade|caravans?|send)\s*(?:x\s*(\d+)\s*)?(?:{_N}\s+caravans?\s*)?(?:with|to)?\s*(.+?)"
                 rf"(?:\s*x\s*(\d+))?\s*(?:-+>.*)?$", pl)
    m2 = re.match(rf"^{_N}\s+(?:caravans?|trades?)\s+(?:with|to)\s+(.+?)(?:\s*-+>.*)?$", pl)
    if m2:
        out.update(kind="trade", count=_num(m2.group(1)))
        _target(plain[m2.start(2):m2.end(2)], names, out)
        _payout(s, out)
        return out
    if m and low.startswith(("trade", "caravan")):
        out.update(kind="trade", count=_num(m.group(1) or m.group(2) or m.group(4)))
        _target(plain[m.start(3):m.end(3)], names, out)
        _payout(s, out)
        return out
    m = re.match(rf"^(?:build\s+|found\s+)?(?:(?:a|{_N})\s+)?(?:new\s+)?(cit(?:y|ies))\b\s*(?:x\s*(\d+))?(.*)$", pl)
    if m:
        rest = plain[m.start(4):]
        n = _num(m.group(1) if m.group(1) not in (None, "a") else None)
        if m.group(3):
            n = int(m.group(3))
        named = re.match(r"^\s*(?:of|named|called)\s+([^,]+?)(?=\s+(?:at\s+)?" + _SQ + r"\b|$)", rest, re.I)
        if named:
            out["name"] = named.group(1).strip()
            rest = rest[named.end():]
        out.update(kind="city", count=n, squares=_squares(rest))
        return out
    m = re.match(rf"^(?:build\s+|buy\s+)?(?:{_N}\s+)?(armies|army|armys)\s*:?\s*(?:x\s*(\d+)|(\d+))?$", pl)
    if m:
        out.update(kind="armies", count=_num(m.group(3) or m.group(4) or m.group(1)))
        return out
    m = re.match(rf"^(?:build\s+|buy\s+|launch\s+|fire\s+|send\s+)?(?:{_N}\s+)?(nukes?|nuclear missiles?)\s*"
                 rf"(?:x\s*(\d+))?(?:(?:\s*(?:to|at|on|against|->)\s*|\s+)(.+?))?$", pl)
    if m:
        out.update(kind="nukes", count=_num(m.group(3) or m.group(1)))
        if m.group(4):
            raw = plain[m.start(4):m.end(4)]
            sq = _squares(raw)
            raw = re.split(r"\b(?:targets?|cities)\b\s*:?", raw, flags=re.I)[0]
            _target(raw, names, out)
            if sq:
                out["squares"] = sq
        return out
    m = re.match(rf"^(?:build\s+|buy\s+)?(?:{_N}\s+)?sdis?\b\s*(?:x\s*(\d+)|(\d+))?(?:\s+satellites?)?$", pl)
    if m:
        out.update(kind="sdi", count=_num(m.group(2) or m.group(3) or m.group(1)))
        return out
    m = re.match(r"^(?:give|aid(?:\s+to)?|send|foreign aid(?:\s+to)?)\s*:?\s*(.+)$", pl)
    if m and low.startswith(("give", "aid", "foreign aid", "send")):
        body = plain[m.start(1):]
        gifts: dict[str, int] = {}
        item_re = rf"{_N}\s+(tech levels?|technolog(?:y|ies)|armies|army|gold|spies|spy|nukes?|sdis?|techs?|levels?)"
        for num, what in re.findall(item_re, body, re.I):
            key = _ITEMS[what.lower()]
            gifts[key] = gifts.get(key, 0) + _num(num)
        if gifts:
            who = re.sub(item_re, " ", body, flags=re.I)
            who = re.sub(r"\b(?:to|and|of|with)\b|[,&+]", " ", who, flags=re.I)
            out.update(kind="aid", gifts=gifts)
            if len(gifts) == 1:
                out["count"] = next(iter(gifts.values()))
            _target(re.sub(r"\s+", " ", who), names, out)
            return out
    m = re.match(rf"^(?:sneak\s+)?attack\s+(.+?)(?:\s+with\s+(.*))?$", pl)
    if m:
        raw = plain[m.start(1):m.end(1)]
        sq = _squares(plain[m.end(1):]) if not re.search(r"\btargets?\b", raw, re.I) else []
        out.update(kind="attack")
        what = (m.group(2) or "")
        a = re.search(rf"{_N}\s+arm(?:y|ies)", what)
        nk = re.search(rf"{_N}\s+nukes?", what)
        out["count"] = _num(a.group(1)) if a else (0 if nk else None)
        if nk:
            out["nukes"] = _num(nk.group(1))
        if re.search(r"nukes?\s+first", what):
            out["nukes_first"] = True
        elif re.search(r"arm(?:y|ies)\s+first", what):
            out["nukes_first"] = False
        _target(raw, names, out)
        if sq:
            out["squares"] = sq
        if out["count"] is None:
            del out["count"]
        return out
    m = re.match(r"^(?:research|tech|technology|discover|buy tech)\s*(?:to|:)?\s*(?:level\s*)?(\+?\d+)?\s*(.*)$", pl)
    if m and low.startswith(("research", "tech", "discover", "buy tech")):
        num, rest = m.group(1), m.group(2).strip()
        lv = re.match(r"^(\d+)\s+levels?$|^levels?\s*x?\s*(\d+)$|^x\s*(\d+)$", rest)
        out["kind"] = "research"
        if num and num.startswith("+"):
            out["count"] = int(num[1:])
        elif num and rest.startswith("level"):
            out["count"] = int(num)
        elif num:
            out["level"] = int(num)
        elif lv:
            out["count"] = int(next(g for g in lv.groups() if g))
        elif rest:
            from companion.rules.society.data import TECH_NAMES

            hit = [i + 1 for i, n in enumerate(TECH_NAMES) if _norm(n) == _norm(rest)]
            if hit:
                out["level"] = hit[0]
            else:
                out["count"] = 1
                out.setdefault("problems", []).append(f"no technology called {rest!r}: read as one level")
        else:
            out["count"] = 1
        return out
    m = re.match(r"^(?:build\s+)?(?:a\s+)?spaceship(?:\s+parts?)?(?:\s+x?\s*\d+)?$|^(?:build\s+)?(?:a\s+)?"
                 r"(?:spaceship\s+)?parts?$", pl)
    if m:
        out.update(kind="spaceship", count=1)
        return out
    m = re.match(r"^revolution\s*(?:to|:|->|-+>)?\s*([a-z]+)\s*[,;(]?\s*(?:keep(?:ing|s)?|phase)?\s*:?\s*"
                 r"(?:the\s+)?([a-z ]*?)\)?$", pl)
    if m:
        out.update(kind="revolution", government=m.group(1))
        if m.group(1) not in GOVERNMENTS:
            out.setdefault("problems", []).append(f"no government called {m.group(1)!r}")
        keep = m.group(2).strip()
        if keep:
            out["phase"] = _PHASES.get(keep, keep)
        return out
    m = re.match(r"^(?:offer\s+|make\s+|declare\s+)?peace\s*(?:with|to)?\s*(.+)$", pl)
    if m:
        out["kind"] = "peace"
        _target(plain[m.start(1):], names, out)
        return out
    m = re.match(r"^(?:declare\s+war|war)\s*(?:on|with|against|:)?\s*(.+)$", pl)
    if m:
        out["kind"] = "declare-war"
        _target(plain[m.start(1):], names, out)
        return out
    m = re.match(r"^(?:build\s+|bid\s+(?:(\d+)\s*(?:g|gold)?\s+)?(?:on\s+|for\s+)?)?(?:the\s+)?"
                 r"(?:wonder\s*:?\s*)?(.+)$", pl)
    if m:  # the whole name first ("Majestic 12"), then a name and its gold: "for 6", "- 9", ": 25 gold", "1g"
        bid = re.match(r"^(.+?)\s*(?:\s(?:for|at)|[-:=@,])?\s*(\d+)\s*(?:g|gold)?$", m.group(2))
        for name, gold in [(m.group(2), m.group(1))] + ([bid.groups()] if bid else []):
            wd = find_wonder(name)
            if wd is not None:
                out.update(kind="wonder", wonder=wd.name)
                if gold:
                    out["stated_cost"] = int(gold)
                return out
    return None


_TIDY = str.maketrans({"\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-", "\u00d7": "x",
                       "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " "})


def _tidy(text: str) -> str:
    """What players type for the same thing: unicode dashes and arrows, "w/", "2x Armies"."""
    s = re.sub(r"[\u2192\u21d2\u27f6\u2794\u279c\u27a1\u2799]|=+>", "->", text.translate(_TIDY))
    s = re.sub(r"\bw/\s*", "with ", s, flags=re.I)
    s = re.sub(r"(?<![a-z0-9])(\d+)\s*x\s+(?=[a-z])(?!(?:to|at|on|against|with)\b)", r"\1 ", s,
               flags=re.I)  # "2x Armies", "Build 2 x armies"
    s = re.sub(r"\(\s*(?:x\s*(\d+)|(\d+)\s*x)\s*\)", lambda m: f" x{m.group(1) or m.group(2)}", s, flags=re.I)
    return re.sub(r"(?<![a-z0-9])(\d+)\s*x(?![a-z0-9])", r"x\1", s, flags=re.I)  # "Armies 2x", "(x2)"


_WONDER_WORDS = "|".join(sorted({re.escape(n.lower()) for wd in WONDERS for n in (wd.name, wd.short)} |
                                {"colloseum", "coliseum", "babel", "silk", "trojan"}, key=len, reverse=True))
#: " and " before another order ("Research to 5 and build Silk Road"), not inside a list of gifts or forces
_AND = re.compile(r"\s+(?:and|&)\s+(?=(?:build|buy|research|tech\b|city|cities|trade|caravans?|spy\b|attack|sneak|give|"
                  r"aid\b|declare|peace|revolution|bid\b|spaceship|sdi\b|\d+\s*x?\s*(?:armies|army|cities)\b|"
                  rf"an?\s+(?:new\s+)?(?:city|army)\b|(?:the\s+)?(?:{_WONDER_WORDS})\b))", re.I)


def _pieces(line: str) -> list[str]:
    """A line's orders: "Armies x2 (8); City B3 (9)", "Research to 5, then Silk Road (25)", "City B3 and 2 armies"."""
    out = []
    for p in re.split(r"\s*;\s*|,?\s+(?:and\s+)?then\s+", line, flags=re.I):
        out += [p] if re.match(r"^\s*(?:give|aid|foreign|send|attack|sneak)\b", p, re.I) else _AND.split(p)
    return [p for p in out if p.strip()]


def _payout(s: str, out: Reading) -> None:
    pay = re.search(r"-+>\s*\(?\s*\+?\s*(\d+)", s)
    if pay:
        out["stated_payout"] = int(pay.group(1))


_SKIP = re.compile(r"^\s*(?:[-=_*~]{3,}|action\s*\(cost in gold\)|orders?\s*(?:for\s+turn\s*\d+)?\s*:?)\s*$", re.I)
_TARGETS = re.compile(r"^\s*(?:targets?|cities|theat(?:re|er)|ranking|rank)\s*:?\s*(.*)$", re.I)


def read(text: str, names: list[str]) -> dict[str, list[dict[str, Any]]]:
    """``{"orders": [...], "unparsed": [...]}`` for a PM; ``names``: the societies, for the targets."""
    orders: list[Reading] = []
    unparsed: list[dict[str, Any]] = []
    last: Reading | None = None
    pieces = [(n, p.strip()) for n, raw in enumerate(text.splitlines(), 1) for p in _pieces(raw.strip())]
    for n, line in pieces:
        if not line or _SKIP.match(line):
            continue
        t = _TARGETS.match(line)
        if t and last is not None and last["kind"] in ("attack", "nukes") and _squares(t.group(1)):
            last.setdefault("squares", []).extend(_squares(t.group(1)))
            last["text"] += " / " + line
            continue
        got = _line(_tidy(line), names)
        if got is None:
            unparsed.append({"line": n, "text": line})
            last = None
            continue
        got = {"kind": got.pop("kind"), "line": n, "text": line, **got}
        if got["kind"] in ("wonder", "spaceship") and "stated_cost" not in got:
            got.setdefault("problems", []).append("no amount given: a wonder or an engine needs the gold to spend")
        if got.get("kind") == "spy" and got.get("phase") == "production":
            got.setdefault("problems", []).append("a spy targets one production phase (research, military, cities "
                                                  "or wonders): read as research")
        orders.append(got)
        last = got
    return {"orders": orders, "unparsed": unparsed}


__all__ = ["KINDS", "read", "match_society", "find_wonder"]
