"""The turn's order list in the orders menu: pick an order to edit it (its fields come back as the defaults),
move it up or down its society's list (the back of the list is what a shortfall cuts) or delete it."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.rules.society.orders import describe
from fsm.prompts import Choice, Confirm, Option, Prompt

from fsm.society.common import BACK, TITLE_PX, clip, sname, squeeze, world
from fsm.society.entry_rules import STEPS as FIELDS, sort_orders

if TYPE_CHECKING:
    from fsm.society.machine import SocietyGame

STEPS = ("list", "order", "delete")


def _neighbour(g: "SocietyGame", i: int, step: int) -> int | None:
    """The index of the same society's order just above (-1) or below (+1) order ``i``."""
    orders = g.data["orders"]
    seat = orders[i]["seat"]
    j = i + step
    while 0 <= j < len(orders):
        if orders[j]["seat"] == seat:
            return j
        j += step
    return None


def prompt(g: "SocietyGame", e: dict[str, Any]) -> Prompt:
    w = world(g)
    orders = g.data["orders"]
    step = e["step"]
    if step == "list":
        opts = [Option(str(i), clip(squeeze(f"{i + 1} {{}}: " + describe(o, w).replace("{", "{{").replace("}", "}}"),
                                                    sname(g, o["seat"]))))
                for i, o in enumerate(orders)]
        return Choice("Order list", lines=("in processing order", "OK: edit, move, delete"), options=tuple(opts),
                      back=BACK, default=str(e["index"]) if "index" in e and int(e["index"]) < len(orders) else None)
    i = int(e["index"])
    o = orders[i]
    if step == "delete":
        return Confirm("Delete order?", lines=(f"{sname(g, o['seat'])}:", describe(o, w)),
                       default=False)
    up, down = _neighbour(g, i, -1), _neighbour(g, i, 1)
    acts = (Option("edit", "Edit", enabled=o["kind"] != "note", hint="a note: delete it or enter the order"),
            Option("up", "Move up", enabled=up is not None, hint="first of its society's orders"),
            Option("down", "Move down", enabled=down is not None, hint="last of its society's orders"),
            Option("delete", "Delete"))
    return Choice(clip(f"Order {i + 1}", TITLE_PX), lines=(f"{sname(g, o['seat'])}:", describe(o, w)),
                  options=acts, back=BACK)


def answer(g: "SocietyGame", e: dict[str, Any], value: Any) -> None:
    orders = g.data["orders"]
    step = e["step"]
    if step == "list":
        g.data["entry"] = None if value == BACK else {"step": "order", "index": int(value)}
        return
    i = int(e["index"])
    if step == "delete":
        if value:
            o = orders.pop(i)
            g.note(f"Turn {world(g)['turn']}: deleted {sname(g, o['seat'])}: {describe(o, world(g))}")
        g.data["entry"] = {"step": "list", "index": max(0, i - 1)} if orders else None
        return
    if value == BACK:
        g.data["entry"] = {"step": "list", "index": i}
    elif value == "delete":
        g.data["entry"] = {"step": "delete", "index": i}
    elif value in ("up", "down"):
        j = _neighbour(g, i, -1 if value == "up" else 1)
        if j is not None:
            orders[i], orders[j] = orders[j], orders[i]
            sort_orders(g)
            o = orders[j]
            g.note(f"Turn {world(g)['turn']}: {sname(g, o['seat'])}: {describe(o, world(g))} moved {value}")
            g.data["entry"] = {"step": "order", "index": j}
    else:
        o = orders[i]
        gifts = {k: o[k] for k in ("gold", "armies", "spies", "nukes", "sdi", "tech") if o["kind"] == "aid" and k in o}
        pasted = {k: o[k] for k in ("nuke_targets", "squares") if o.get(k)}  # (a PM's, with no field on the device)
        g.data["entry"] = {"seat": o["seat"], "kind": o["kind"], "step": FIELDS[o["kind"]][0],
                           "o": {"seat": o["seat"], "kind": o["kind"], **gifts, **pasted}, "edit": i}
