"""A player's PM pasted on the phone: each line's reading shown for the GM to confirm, then the orders added in
the PM's order. A line the companion cannot read, or an order no phase could carry out, is kept as a note in the
order list (and the post), never dropped."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from companion.rules.society.orders import describe
from companion.rules.society.pm import read
from companion.rules.society.pm_check import check
from fsm.screen_text import plural
from fsm.prompts import Choice, InvalidAnswer, Option, Prompt

from fsm.society.common import BACK, readings, sname, world

if TYPE_CHECKING:
    from fsm.society.machine import SocietyGame

STEPS = ("paste", "paste_check")
MAX_TEXT = 8000  #: characters of a pasted PM


def _readings(g: "SocietyGame", seat: str, text: str) -> tuple[list[tuple[dict[str, Any], list[dict[str, Any]]]],
                                                                   list[dict[str, Any]]]:
    w = world(g)
    got = read(text, [str(s["name"]) for s in w["soc"].values()])
    return check(got["orders"], w, seat, list(g.data["orders"]), readings(g)), got["unparsed"]


def prompt(g: "SocietyGame", e: dict[str, Any]) -> Prompt:
    seat = str(e["seat"])
    if e["step"] == "paste":
        return Choice(f"PM from {sname(g, seat)}", lines=("Paste it on the phone, then Read it",),
                      options=(Option(BACK, "Back"),), back=BACK, text=f"{sname(g, seat)}'s PM, as received")
    done, unread = _readings(g, seat, str(e["text"]))
    w = world(g)
    n = sum(len(made) for _rd, made in done)
    opts = [Option("add", f"Add {plural(n, 'order')}" + (f", {plural(len(unread), 'note')}" if unread else ""))]
    rows: list[tuple[int, Option]] = []
    for rd, made in done:
        said = "; ".join(describe(o, w) for o in made) or (f"joins line {rd['joined']}" if "joined" in rd
                                                           else "nothing")
        cost = f" ({rd['cost']}g)" if rd.get("cost") is not None else ""
        probs = "; ".join(rd["problems"])
        rows.append((int(rd["line"]), Option(f"l{rd['line']}", f"{rd['line']}. {rd['text']} -> {said}{cost}"
                                             + (" !" if probs else ""), enabled=False, hint=probs or "read")))
    rows += [(int(u["line"]), Option(f"u{u['line']}", f"{u['line']}. {u['text']} -> a note", enabled=False,
                                     hint="not read: kept as a note")) for u in unread]
    opts += [x for _n, x in sorted(rows, key=lambda r: r[0])]
    opts.append(Option("again", "Paste again"))
    flagged = sum(1 for rd, _m in done if rd["problems"])
    return Choice(f"PM: {plural(n, 'order')} read", lines=(f"{flagged} flagged (!)", f"{len(unread)} unread: notes"),
                  options=tuple(opts), back=BACK)


def answer(g: "SocietyGame", e: dict[str, Any], value: Any,
           commit: Callable[["SocietyGame", dict[str, Any]], None]) -> None:
    """``commit`` adds one order as the orders menu does (:func:`fsm.society.entry.commit`, passed in: the menu
    imports this module, not the other way round)."""
    seat = str(e["seat"])
    if value == BACK:
        g.data["entry"] = {"seat": seat, "step": "kind"}
        return
    if e["step"] == "paste":
        text = value.get("text") if isinstance(value, dict) else None
        if not isinstance(text, str) or not text.strip():
            raise InvalidAnswer("paste the PM's text, then Read")
        if len(text) > MAX_TEXT:
            raise InvalidAnswer(f"a PM of at most {MAX_TEXT} characters; paste it in parts")
        g.data["entry"] = {"seat": seat, "step": "paste_check", "text": text}
        return
    if value == "again":
        g.data["entry"] = {"seat": seat, "step": "paste"}
        return
    done, unread = _readings(g, seat, str(e["text"]))
    added = notes = 0
    items: list[tuple[int, str, list[dict[str, Any]], str]] = [
        (int(rd["line"]), str(rd["text"]), made, "; ".join(rd["problems"]) or "not read") for rd, made in done
        if "joined" not in rd]  # (a line joined to an attack above it is in that order)
    items += [(int(u["line"]), str(u["text"]), [], "not read") for u in unread]
    for line, text, made, why in sorted(items, key=lambda x: x[0]):
        if not made:
            _note(g, seat, line, text, why)
            notes += 1
        for o in made:
            try:
                commit(g, dict(o))
                added += 1
            except InvalidAnswer as err:
                _note(g, seat, line, text, str(err))
                notes += 1
    g.note(f"{sname(g, seat)}'s PM: {plural(added, 'order')} added" + (f", {plural(notes, 'line')} kept as notes" if notes else ""))
    g.data["entry"] = {"seat": seat, "step": "kind"}


def _note(g: "SocietyGame", seat: str, line: int, text: str, why: str) -> None:
    """``unread``: a line that is no order (chatter, plans): the post, being public, does not quote it."""
    g.data["orders"].append({"seat": seat, "kind": "note", "text": f"{text} ({why})", "line": line,
                             **({"unread": True} if why == "not read" else {})})
