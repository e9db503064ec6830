"""The questions an ability asks before it changes anything: which chain, where, which card, face, sign, suit,
kind of token, from whom, how many, a value, a printed suit. Each ``_p_fx_*`` / ``_a_fx_*`` pair is one step; an
answer records itself in ``data["ui"]`` and hands back to :meth:`_advance` (in :mod:`.effects`), BACK returns to
the menu."""
from __future__ import annotations

from typing import Any

from companion.rules.sovereigns_chain import TokenKind
from companion.rules.sovereigns_chain import chain as ch
from companion.rules.sovereigns_chain import solitaire
from companion.rules.sovereigns_chain.model import Chain

from fsm.prompts import Choice, Number, Option, Prompt
from fsm.sovereigns_chain.common import ChainBase, seat_of
from fsm.sovereigns_chain.setup import VALUE_HI, VALUE_LO

KIND = {"shield": TokenKind.SHIELD, "mod": TokenKind.MODIFIER, "take_shield": TokenKind.SHIELD,
        "take_mod": TokenKind.MODIFIER}
OP_TITLE = {"remove": "Remove a card", "flip": "Flip a card", "add": "Extra play", "shield": "Place a shield",
            "mod": "Place a modifier", "suit": "Place a suit token", "untoken": "Remove a token",
            "take_shield": "Take shields", "take_mod": "Take modifiers"}


class EffectQuestions(ChainBase):
    @property
    def fx(self) -> dict[str, Any]:
        fx: dict[str, Any] = self.data["fx"]
        return fx
    def _advance(self) -> None:
        """The next question, or the change itself (:class:`~.effects.EffectsPhase`)."""
        raise NotImplementedError

    def _ask(self, step: str) -> None:
        self.ui["step"] = step

    def _needs_value(self) -> bool:
        """Solitaire: a card going faceup whose value the companion does not know yet."""
        ui = self.ui
        if not self.solo:
            return False
        if ui["op"] == "add":
            return bool(ui.get("face") == "up")
        if ui["op"] == "flip":
            card = ch.top(self.chain(1), ui["pos"])
            return card is not None and not card["up"] and card.get("value") is None
        return False

    def _back_or(self, value: Any) -> bool:
        if value == "back":
            self.set_step("fx")
            return True
        return False

    # ----------------------------------------------------------------- the questions
    def _op_prompt(self, title: str, lines: tuple[str, ...], opts: tuple[Option, ...], default: str | None = None) \
            -> Prompt:
        return Choice(title, lines, options=opts, default=default, back="back", player=self.fx["actor"])

    def _p_fx_chain(self) -> Prompt:
        op = self.ui["op"]
        opts = []
        for s in self.seats:
            c = self.chain(s)
            ok = op == "add" or any(self._pos_ok(op, c, i)[0] for i in range(len(c)))
            o = self.chain_option(s)
            opts.append(Option(o.key, o.label, ok, "" if ok else "no card there can be targeted"))
        default = f"c{self.fx['actor']}"
        if not dict((o.key, o.enabled) for o in opts)[default]:
            default = next((o.key for o in opts if o.enabled), default)
        return self._op_prompt(OP_TITLE[op], ("Which chain?",), tuple(opts), default)

    def _a_fx_chain(self, value: str) -> None:
        if not self._back_or(value):
            self.ui["chain"] = seat_of(value)
            self._advance()

    def _p_fx_where(self) -> Prompt:
        c = self.chain(self.ui["chain"])
        full = self.full_hint(c)
        cover_ok = any(self._pos_ok("add", c, i)[0] for i in range(len(c)))
        opts = (Option("end_up", "At the end, faceup", not full, full),
                Option("end_down", "At the end, facedown", not full, full),
                Option("cover", "Covering a card", cover_ok, "" if cover_ok else "no card there can be covered"))
        return self._op_prompt("Extra play", (f"On {self.player_name(self.ui['chain'])}'s chain",
                                              f"{ch.length(c)} cards now"), opts, "end_up" if not full else "cover")

    def _a_fx_where(self, value: str) -> None:
        if not self._back_or(value):
            self.ui["where"] = value
            self._advance()

    def _pos_ok(self, op: str, c: Chain, pos: int) -> tuple[bool, str]:
        card = ch.top(c, pos)
        if card is None:
            return (True, "") if (op == "add" and self.solo) else (False, "no card there")
        if op == "untoken":
            has = card["shield"] or card["mods"] or card["suit"]
            return (True, "") if has else (False, "no token on that card")
        if op == "shield" and card["shield"]:
            return False, "that card already has a shield"
        if self.respect_shields and card["shield"]:
            return False, "that card is shielded"
        return True, ""

    def _p_fx_pos(self) -> Prompt:
        op, seat = self.ui["op"], self.ui["chain"]
        c = self.chain(seat)
        opts = tuple(Option(f"p{i}", f"{i + 1}: {ch.card_label(ch.top(c, i))}", *self._pos_ok(op, c, i))
                     for i in range(len(c)))
        default = next((o.key for o in opts if o.enabled), None)
        where = "Board" if self.solo else f"{self.player_name(seat)}'s chain"
        return self._op_prompt(OP_TITLE[op], (where, "Which card?"), opts, default)

    def _a_fx_pos(self, value: str) -> None:
        if not self._back_or(value):
            self.ui["pos"] = int(value[1:])
            self._advance()

    def _p_fx_face(self) -> Prompt:
        why = ""
        if self.solo:
            target = ch.top(self.chain(1), self.ui["pos"])
            v = None if target is None else solitaire.effective_value(target)
            if v is not None and not VALUE_LO <= v + 1 <= VALUE_HI:
                why = f"no card can cover this {v}"
        return self._op_prompt("Extra play", ("Played faceup or facedown?",),
                               (Option("up", "Faceup", not why, why), Option("down", "Facedown")),
                               "down" if why else "up")

    def _a_fx_face(self, value: str) -> None:
        if not self._back_or(value):
            self.ui["face"] = value
            self._advance()

    def _p_fx_sign(self) -> Prompt:
        return self._op_prompt("Place a modifier", ("Which side up?",),
                               (Option("plus", "+1"), Option("minus", "-1")), "plus")

    def _a_fx_sign(self, value: str) -> None:
        if not self._back_or(value):
            self.ui["sign"] = 1 if value == "plus" else -1
            self._advance()

    def _p_fx_suit(self) -> Prompt:
        return self._op_prompt("Place a suit token", ("Card now counts as",),
                               (Option("star", "Star"), Option("planet", "Planet")), "star")

    def _a_fx_suit(self, value: str) -> None:
        if not self._back_or(value):
            self.ui["suit"] = value
            self._advance()

    def _p_fx_kind(self) -> Prompt:
        card = ch.top(self.chain(self.ui["chain"]), self.ui["pos"])
        if card is None:
            raise RuntimeError("invariant: card is set here")
        locked = bool(card["shield"]) and self.respect_shields
        hint = "the shield protects it" if locked else ""
        opts = []
        if card["shield"]:
            opts.append(Option("shield", "Shield"))
        if 1 in card["mods"]:
            opts.append(Option("plus", "Modifier +1", not locked, hint))
        if -1 in card["mods"]:
            opts.append(Option("minus", "Modifier -1", not locked, hint))
        if card["suit"]:
            opts.append(Option("suit", f"Suit ({card['suit']})", not locked, hint))
        return self._op_prompt("Remove a token", ("Back to the supply",), tuple(opts), opts[0].key)

    def _a_fx_kind(self, value: str) -> None:
        if not self._back_or(value):
            self.ui["kind"] = value
            self._advance()

    def _p_fx_src(self) -> Prompt:
        kind = KIND[self.ui["op"]]
        held = self.pool(self.fx["actor"])[kind.value]
        return self._op_prompt(OP_TITLE[self.ui["op"]], ("Whose token?",),
                               (Option("pool", f"Held ({held})"), Option("supply", f"Supply ({self.supply()[kind]})")),
                               "pool")

    def _a_fx_src(self, value: str) -> None:
        if not self._back_or(value):
            self.ui["src"] = value
            self._advance()

    def _p_fx_count(self) -> Prompt:
        kind = KIND[self.ui["op"]]
        left = self.supply()[kind]
        return Number(OP_TITLE[self.ui["op"]], (f"{left} left in the supply",), lo=1, hi=max(1, left), default=1,
                      player=self.fx["actor"])

    def _a_fx_count(self, value: int) -> None:
        self.ui["count"] = value
        self._advance()

    def _p_fx_value(self) -> Prompt:
        target = ch.top(self.chain(1), self.ui["pos"])
        need = None
        if self.ui["op"] == "add" and target is not None:
            v = solitaire.effective_value(target)
            need = None if v is None else v + 1
        line = f"Must be a {need}" if need is not None else "Any value goes here"
        if self.ui["op"] == "flip":
            line = "The revealed card"
        return Number("Card value", (f"Position {self.ui['pos'] + 1}", line), lo=VALUE_LO, hi=VALUE_HI,
                      default=need if need is not None and VALUE_LO <= need <= VALUE_HI else 1,
                      player=self.fx["actor"])

    def _a_fx_value(self, value: int) -> None:
        if self.ui["op"] == "add":
            why = solitaire.play_refusal(ch.top(self.chain(1), self.ui["pos"]), value)
            if why:
                raise self.refuse(why)
        self.ui["value"] = value
        self._advance()

    def _p_fx_psuit(self) -> Prompt:
        return self._op_prompt("Card suit", (f"Value {self.ui['value']}", "Mercenary: pick suit"),
                               (Option("star", "Star"), Option("planet", "Planet")), "star")

    def _a_fx_psuit(self, value: str) -> None:
        if not self._back_or(value):
            self.ui["printed"] = value
            self._advance()
