"""What a card's ability did: remove a card, an extra play, flip a card, tokens, a new event.

One menu serves a turn, a reveal, a sudden-death play and solitaire. Each action collects what it needs (chain,
position, face, sign...) step by step in ``data["ui"]``, skips the questions whose answer is forced, and applies the
change with the pure chain functions. BACK on any step returns to the menu without changing anything.
"""
from __future__ import annotations

from typing import Any

from companion.rules.sovereigns_chain import Suit, TokenKind
from companion.rules.sovereigns_chain import chain as ch
from companion.rules.sovereigns_chain import solitaire, tokens
from companion.rules.sovereigns_chain.model import Card, Chain, ChainError

from fsm.prompts import Choice, Option, Prompt
from fsm.sovereigns_chain.effect_questions import KIND, EffectQuestions



class EffectsPhase(EffectQuestions):

    def enter_fx(self, ctx: str, actor: int, head: str) -> None:
        self.data["fx"] = {"ctx": ctx, "actor": actor, "head": head}
        self.set_step("fx")

    # ----------------------------------------------------------------- the menu
    def _p_fx(self) -> Prompt:
        ctx = self.fx["ctx"]
        done = {"turn": "Done, draw a card", "solo": "Done, draw a card"}.get(ctx, "Done")
        opts = [Option("done", done), Option("add", "Extra play"),
                Option("remove", "Remove a card", *self._any_target("remove")),
                Option("flip", "Flip a card", *self._any_target("flip")),
                Option("tokens", "Tokens...")]
        if self.events_on and ctx != "reveal":
            opts.append(Option("event", "New event (E)"))
        title = {"turn": "Abilities", "reveal": "Reveal: abilities", "sudden": "Sudden death",
                 "solo": "Abilities"}[ctx]
        lines = self.solo_lines(self.fx["head"]) if self.solo else self.status_lines(self.fx["head"])
        return Choice(title, lines, options=tuple(opts), default="done", player=self.fx["actor"])

    def solo_lines(self, head: str) -> tuple[str, ...]:
        codes = [solitaire.position_code(st) for st in self.chain(1)]
        lines = [head, " ".join(codes[:4]), " ".join(codes[4:])]
        if tokens.out_of(self.supply()):
            lines.append(self.supply_line())
        return tuple(lines)

    def _any_target(self, op: str) -> tuple[bool, str]:
        ok = any(self._pos_ok(op, self.chain(s), i)[0] for s in self.seats for i in range(len(self.chain(s))))
        return (True, "") if ok else (False, "no card can be targeted")

    def _a_fx(self, value: str) -> None:
        if value == "done":
            self._fx_finish()
        elif value == "tokens":
            self.set_step("fx_tok")
        elif value == "event":
            self.set_step("event", ctx="fx")
        else:
            self._begin(value)

    def _fx_finish(self) -> None:
        ctx = self.fx["ctx"]
        self.data["fx"] = None
        {"turn": self.end_turn, "reveal": self.reveal_next, "sudden": self.sudden_next,
         "solo": self.solo_end_turn}[ctx]()

    # ----------------------------------------------------------------- tokens menu
    def _p_fx_tok(self) -> Prompt:
        left = self.supply()
        pool = self.pool(self.fx["actor"])
        out = {k: f"Out of {k.value}s: no effect" for k in TokenKind if left[k] <= 0}

        def place(kind: TokenKind) -> tuple[bool, str]:
            have = pool[kind.value] > 0 or left[kind] > 0
            return (have, "") if have else (False, out[kind])
        suit_ok = left[TokenKind.SUIT] > 0 or any(c["suit"] for s in self.seats for st in self.chain(s) for c in st)
        opts = (Option("take_shield", "Take shields", TokenKind.SHIELD not in out, out.get(TokenKind.SHIELD, "")),
                Option("take_mod", "Take modifiers", TokenKind.MODIFIER not in out, out.get(TokenKind.MODIFIER, "")),
                Option("shield", "Place a shield", *place(TokenKind.SHIELD)),
                Option("mod", "Place a modifier", *place(TokenKind.MODIFIER)),
                Option("suit", "Place a suit token", suit_ok, "" if suit_ok else out.get(TokenKind.SUIT, "")),
                Option("untoken", "Remove a token", *self._any_target("untoken")))
        p = pool
        return Choice("Tokens", (f"Held: {p['shield']} shields, {p['modifier']} modifiers", self.supply_line()),
                      options=opts, back="back", player=self.fx["actor"])

    def _a_fx_tok(self, value: str) -> None:
        if value == "back":
            self.set_step("fx")
        else:
            self._begin(value)

    # ----------------------------------------------------------------- collecting an action
    def _begin(self, op: str) -> None:
        self.set_step("fx_op", op=op)
        self._advance()

    def _advance(self) -> None:
        """Ask the next question the action needs, or apply it."""
        ui = self.ui
        op = ui["op"]
        if op in ("take_shield", "take_mod"):
            if "count" not in ui:
                return self._ask("fx_count")
            return self._apply()
        if op in ("shield", "mod") and "src" not in ui:
            kind = KIND[op]
            has_pool = self.pool(self.fx["actor"])[kind.value] > 0
            has_supply = self.supply()[kind] > 0
            if has_pool and has_supply:
                return self._ask("fx_src")
            ui["src"] = "pool" if has_pool else "supply"
        if "chain" not in ui:
            if self.solo:
                ui["chain"] = 1
            else:
                return self._ask("fx_chain")
        if op == "add" and not self.solo and "where" not in ui:
            return self._ask("fx_where")
        needs_pos = not (op == "add" and not self.solo and ui.get("where") != "cover")
        if needs_pos and "pos" not in ui:
            return self._ask("fx_pos")
        if op == "add" and "face" not in ui:
            if not self.solo and ui["where"] != "cover":
                ui["face"] = "up" if ui["where"] == "end_up" else "down"
            else:
                return self._ask("fx_face")
        if op == "mod" and "sign" not in ui:
            return self._ask("fx_sign")
        if op == "suit" and "suit" not in ui:
            return self._ask("fx_suit")
        if op == "untoken" and "kind" not in ui:
            return self._ask("fx_kind")
        if self._needs_value() and "value" not in ui:
            return self._ask("fx_value")
        if self._needs_value() and "printed" not in ui:
            return self._ask("fx_psuit")
        return self._apply()

    # ----------------------------------------------------------------- applying
    def _apply(self) -> None:
        ui = self.ui
        op = ui["op"]
        actor = self.fx["actor"]
        who = self.player_name(actor)
        if op in ("take_shield", "take_mod"):
            kind = KIND[op]
            pool, got = tokens.take(self.pool(actor), kind, ui["count"], self.supply())
            self.data["pools"][str(actor)] = pool
            self.note(f"{who} took {got} {kind.value}(s)" + ("" if got == ui["count"] else " (supply ran out)"))
            return self.set_step("fx")
        seat = ui["chain"]
        c = self.chain(seat)
        if op == "add" and "pos" not in ui:
            self.set_chain(seat, ch.append(c, self._new_card(ui)))
            self.note(f"{who} made an extra play at the end of {self.player_name(seat)}'s chain, {ui['face']}")
            return self.set_step("fx")
        pos: int = ui["pos"]
        whose = "the board" if self.solo else f"{self.player_name(seat)}'s chain"
        shields = self.respect_shields
        if op == "remove":
            c, _ = ch.remove_top(c, pos, close_gap=not self.solo, respect_shield=shields)
            text = f"removed card {pos + 1} of {whose}"
        elif op == "add":
            c = ch.cover(c, pos, self._new_card(ui), shields)
            text = f"extra play on {whose}, {ui['face']} on card {pos + 1}"
        elif op == "flip":
            known = {"value": ui["value"], "printed": ui["printed"]} if "value" in ui else {}
            c = ch.flip(c, pos, shields, **known)
            text = f"flipped card {pos + 1} of {whose}"
        elif op in ("shield", "mod"):
            c = self._place_pooled(c, pos, op, ui, actor)
            text = f"placed a {'shield' if op == 'shield' else format(ui['sign'], '+d') + ' modifier'}" \
                   f" on card {pos + 1} of {whose}"
        elif op == "suit":
            top = ch.top(c, pos)
            if top is not None and top["suit"] is None and self.supply()[TokenKind.SUIT] <= 0:
                raise self.refuse("Out of suit tokens: no effect")
            c = ch.add_token(c, pos, TokenKind.SUIT, Suit(ui["suit"]), shields)
            text = f"made card {pos + 1} of {whose} a {ui['suit']}"
        else:
            kind, side = {"shield": (TokenKind.SHIELD, None), "plus": (TokenKind.MODIFIER, 1),
                          "minus": (TokenKind.MODIFIER, -1), "suit": (TokenKind.SUIT, None)}[ui["kind"]]
            c = ch.remove_token(c, pos, kind, side, shields)
            text = f"took a token off card {pos + 1} of {whose}"
        self.set_chain(seat, c)
        self.note(f"{who} {text}")
        self.set_step("fx")

    def _new_card(self, ui: dict[str, Any]) -> Card:
        up = ui["face"] == "up"
        if not self.solo:
            return ch.new_card(up)
        printed = Suit(ui["printed"]) if up else None
        return ch.new_card(up, ui.get("value"), printed, solo=True)

    def _place_pooled(self, c: Chain, pos: int, op: str, ui: dict[str, Any], actor: int) -> Chain:
        kind = KIND[op]
        if ui["src"] == "pool":
            self.data["pools"][str(actor)] = tokens.spend(self.pool(actor), kind)
        elif self.supply()[kind] <= 0:
            raise ChainError(f"Out of {kind.value}s: no effect")
        side = ui.get("sign") if op == "mod" else None
        return ch.add_token(c, pos, kind, side, self.respect_shields)
