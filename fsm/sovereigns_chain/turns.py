"""A turn: where the played card went (own chain, an opponent's, facedown, covering a card), then its abilities;
at the end of a turn on which any chain holds seven, the game ends and the reveal begins."""
from __future__ import annotations

from companion.rules.sovereigns_chain import Chain
from companion.rules.sovereigns_chain import chain as ch
from companion.rules.sovereigns_chain import endgame

from fsm.prompts import Choice, Option, Prompt
from fsm.sovereigns_chain.common import ChainBase, seat_of


class TurnPhase(ChainBase):

    def _p_play(self) -> Prompt:
        me = self.data["active"]
        opts = [Option(f"c{me}", "Own chain", enabled=not self.full_hint(self.chain(me)),
                       hint=self.full_hint(self.chain(me)))]
        for s in self.seats:
            if s != me:
                why = self.full_hint(self.chain(s))
                opts.append(Option(f"c{s}", f"{self.player_name(s)}'s chain", enabled=not why, hint=why))
        opts += [Option("down", "Facedown on..."), Option("cover", "Covering a card...")]
        return Choice(f"Round {self.data['round']}: play", self.status_lines(),
                      options=tuple(opts), default=f"c{me}", player=me)

    def _a_play(self, value: str) -> None:
        if value in ("down", "cover"):
            self.set_step("play_chain", mode=value)
            return
        self._played(seat_of(value), up=True)

    def _played(self, seat: int, up: bool, pos: int | None = None) -> None:
        me = self.data["active"]
        card = ch.new_card(up)
        if pos is None:
            self.set_chain(seat, ch.append(self.chain(seat), card))
        else:
            self.set_chain(seat, ch.cover(self.chain(seat), pos, card, self.respect_shields))
        where = "own chain" if seat == me else f"{self.player_name(seat)}'s chain"
        how = ("faceup" if up else "facedown") + ("" if pos is None else f" on card {pos + 1}")
        self.note(f"{self.player_name(me)} played on {where} ({how})")
        target = "own" if seat == me else self.nm(seat)
        self.enter_fx("turn", me, f"Played on {target}" + ("" if up else ", down"))

    def _p_play_chain(self) -> Prompt:
        down = self.ui["mode"] == "down"
        opts = [self.chain_option(s, self.full_hint if down else self._no_cover_hint) for s in self.seats]
        return Choice("Facedown on..." if down else "Cover on...", ("Which chain?",), options=tuple(opts),
                      default=f"c{self.data['active']}", back="back", player=self.data["active"])

    def _no_cover_hint(self, c: Chain) -> str:
        ok = any(self._coverable(c, i) for i in range(len(c)))
        return "" if ok else "no card there can be covered"

    def _coverable(self, c: Chain, pos: int) -> bool:
        card = ch.top(c, pos)
        return card is not None and not (self.respect_shields and card["shield"])

    def _a_play_chain(self, value: str) -> None:
        if value == "back":
            self.set_step("play")
        elif self.ui["mode"] == "down":
            self._played(seat_of(value), up=False)
        else:
            self.set_step("play_pos", mode="cover", chain=seat_of(value))

    def _p_play_pos(self) -> Prompt:
        c = self.chain(self.ui["chain"])
        opts = tuple(Option(f"p{i}", f"{i + 1}: {ch.card_label(ch.top(c, i))}",
                            enabled=self._coverable(c, i), hint="that card is shielded")
                     for i in range(len(c)))
        return Choice("Cover which card?", (f"{self.player_name(self.ui['chain'])}'s chain",),
                      options=opts, back="back", player=self.data["active"])

    def _a_play_pos(self, value: str) -> None:
        if value == "back":
            self.set_step("play_chain", mode="cover")
            return
        self.set_step("play_face", chain=self.ui["chain"], pos=int(value[1:]))

    def _p_play_face(self) -> Prompt:
        return Choice("Played how?", (f"Covering card {self.ui['pos'] + 1}",),
                      options=(Option("up", "Faceup"), Option("down", "Facedown")), default="up", back="back",
                      player=self.data["active"])

    def _a_play_face(self, value: str) -> None:
        if value == "back":
            self.set_step("play_pos", mode="cover", chain=self.ui["chain"])
            return
        self._played(self.ui["chain"], up=value == "up", pos=self.ui["pos"])

    # ----------------------------------------------------------------- end of turn
    def end_turn(self) -> None:
        d = self.data
        me = d["active"]
        lengths = self.lengths()
        if endgame.game_ends(lengths) or endgame.next_seat(me, self.n) == d["first"]:
            self.chain_story()
        if endgame.game_ends(lengths):
            first = endgame.first_to_seven(d["seven_order"], lengths, me, self.n)
            d["first_to_seven"] = first
            d["seven_order"] = []
            self.note(f"{self.player_name(first)}'s chain reached 7: the game ends")
            self.forfeit_pools()
            self.start_reveal(first)
            return
        d["seven_order"] = []
        d["active"] = endgame.next_seat(me, self.n)
        if d["active"] == d["first"]:
            d["round"] += 1
        self.set_step("play")
