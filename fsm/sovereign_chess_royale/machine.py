"""Sovereign Chess Royale (four players) at the table: armies assigned, moves entered, checks announced, the
Interregnum and the last king standing.

The position lives in ``data["position"]`` as the engine's Royale position text and the moves in ``data["moves"]``;
the engine object is only a cache of that text. ``data["army"]`` maps each army (engine seat 1 White, 2 Ash,
3 Slate, 4 Black — the order of play) to the table seat playing it.
"""
from __future__ import annotations

import logging
from itertools import permutations
from typing import Any

from companion.rules.sovereign_chess import ChessError, SovereignChessRoyale, square_name
from fsm.base import OptionSpec
from fsm.clock_option import ClockOption
from fsm.prompts import Choice, Info, Option, Prompt, Random, View

from fsm.sovereign_chess.board import changes, holdings
from fsm.sovereign_chess.family import ChessMachine, StartOption

from fsm.sovereign_chess_royale.status import (ARMIES, announcements, check_lines, check_toast, standing, status_lines,
                                               turn_events, wrap)

log = logging.getLogger(__name__)

#: Random-prompt keys: the table seats playing White, Ash, Slate and Black, in that order ("3142")
DRAWS = tuple("".join(p) for p in permutations("1234"))


class SovereignChessRoyaleGame(ChessMachine[SovereignChessRoyale]):
    game_id = "sovereign-chess-royale"
    name = "Sovereign Chess Royale"
    description = "Sovereign Chess for four: kings are captured, checks announced, last king wins"
    min_players = 4
    max_players = 4
    default_players = 4
    STATES = ["assign", "draw_armies", "choose_army", "move", "news", "game_over"]
    TRANSITIONS = [
        {"trigger": "draw", "source": "assign", "dest": "draw_armies"},
        {"trigger": "choose", "source": "assign", "dest": "choose_army"},
        {"trigger": "assigned", "source": ["draw_armies", "choose_army", "assign"], "dest": "move"},
        {"trigger": "picked", "source": "choose_army", "dest": "choose_army"},
        {"trigger": "moved", "source": "move", "dest": "move"},
        {"trigger": "tell", "source": "move", "dest": "news"},
        {"trigger": "told", "source": "news", "dest": "move"},
        {"trigger": "finish", "source": "move", "dest": "game_over"},
    ]
    INITIAL = "assign"
    FINAL = ("game_over",)
    OPTIONS = {
        "armies": OptionSpec("ask", "who plays which army: ask at the start, draw at random, or by seat "
                                    "(seat 1 White, 2 Ash, 3 Slate, 4 Black)", choices=("ask", "random", "seats")),
        "clock": ClockOption(),
        "start": StartOption("", "a Royale position text to start from (the printed figure, a study); "
                                 "empty: the default start", engine=SovereignChessRoyale),
    }
    ENGINE = SovereignChessRoyale
    PLAYING = ("move", "news")

    # ------------------------------------------------------------------ setup
    def start(self) -> None:
        eng = SovereignChessRoyale(self.options["start"] or None)
        # a composed start may open on a king that has escaped or a seat without a move (the default start cannot)
        kings = eng.kings()
        escaped, passed = eng.settle()
        self.data.update({
            "position": eng.text, "moves": [], "army": None,
            "picks": [], "check": {}, "result": None, "termination": None, "winner": None, "winners": None,
            "tied": [], "announce": None, "alert": [], "last_move": None, "last": {}, "news": [],
        })
        for line in turn_events(escaped, passed, lambda army: ARMIES[army - 1].title(), kings):
            self.note(f"Start: {line}")
        # told to the table once the armies are assigned: seats escaped (with their king's square), seats passed
        self.data["started"] = [[[s, kings[s]] for s in escaped], list(passed)]
        if self.options["armies"] == "random":
            self.fire("draw")
        elif self.options["armies"] == "seats":
            self._assign([1, 2, 3, 4])

    def _assign(self, seats: list[int], drawn: bool = False) -> None:
        """The armies are assigned (seats[i] plays army i + 1). A random draw is announced — four people must all
        see who plays which army —, and so is whatever the start of the first turn did to a composed start."""
        pairs = list(zip((1, 2, 3, 4), seats))
        self.data["army"] = {str(army): seat for army, seat in pairs}
        self.note("Armies: " + ", ".join(f"{ARMIES[a - 1]} {self.player_name(s)}" for a, s in pairs))
        self.fire("assigned")
        if self._settle():
            return
        drawn_lines = ["Drawn at random:", *(f"{ARMIES[a - 1].title()}: {self.player_name(s)}" for a, s in pairs)]
        escaped, passed = self.data["started"]
        started = turn_events(tuple(s for s, _ in escaped), tuple(passed), self.army_name, dict(escaped))
        self.data["news"] = [*(drawn_lines if drawn else []), *started]
        if self.data["news"]:
            self.fire("tell")

    # ------------------------------------------------------------------ seats: the armies in their order of play
    def seat_of(self, army: int) -> int:
        """The table seat playing ``army`` (engine seat 1-4)."""
        return int(self.data["army"][str(army)]) if self.data["army"] else army

    def last_moved(self, turn: int) -> int | None:
        last: int | None = self.data["last"].get(str(turn))
        return last

    def army_of(self, seat: int) -> int:
        for army in (1, 2, 3, 4):
            if self.seat_of(army) == seat:
                return army
        raise ValueError(f"no army for seat {seat}")

    def army_name(self, army: int) -> str:
        return self.player_name(self.seat_of(army))

    def alert_seats(self) -> list[int]:
        """The seats whose king is in check: their LEDs flash until the check is gone."""
        return list(self.data["alert"]) if not self.is_over else []

    # ------------------------------------------------------------------ prompts
    def prompt(self) -> Prompt:
        if self.state == "assign":
            return Choice("Armies", lines=("Who plays White, Ash,", "Slate and Black?"),
                          options=(Option("random", "Draw at random"), Option("choose", "Choose")))
        if self.state == "draw_armies":
            return Random("Drawing the armies", keys=DRAWS)
        if self.state == "choose_army":
            army = len(self.data["picks"]) + 1
            taken = set(self.data["picks"])
            opts = tuple(Option(str(p.seat), p.name) for p in self.players if p.seat not in taken)
            return Choice(f"Who plays {ARMIES[army - 1].title()}?", lines=("Order of play:", "White Ash Slate Black"),
                          options=opts)
        eng = self.engine()
        if self.is_over:
            return Info("Game over", lines=tuple(self._result_lines()))  # whole: the OLED wraps them
        army = eng.turn
        seat = self.seat_of(army)
        if self.state == "news":
            # kings taken, crowned or escaped, seats passed over: every player must see it, so it waits for OK
            return Info("Announcement", lines=tuple(self.data["news"]), player=seat)
        # most important first: the board screen drops the last lines when the clock needs the room (the player's
        # name heads the screen already)
        lines = []
        by = self.data["check"].get(str(seat))
        if by:
            lines += ["CHECK by", ", ".join(self.player_name(s) for s in by)]
        if eng.king_square(army) is None:
            lines.append("No king")
        lines.append(f"owns {eng.owned(army).label}")
        return self.move_choice(lines, (Option("agree", "All agree: draw", in_menu=True),))

    def _result_lines(self) -> list[str]:
        d = self.data
        w = self.winner_seat()
        lines = list(d["news"])
        lines.append(f"{self.player_name(w)} wins ({d['termination']})" if w is not None
                     else f"All tie ({d['termination']})")
        tied = [self.player_name(s) for s in d["tied"]] if w is not None else []
        if tied:
            lines.append("Tied: " + ", ".join(tied))
        return lines

    # ------------------------------------------------------------------ answers
    def answer(self, value: Any) -> None:
        self.data["announce"] = None
        if self.state == "assign":
            self.fire("draw" if value == "random" else "choose")
            return
        if self.state == "draw_armies":
            self._assign([int(ch) for ch in str(value)], drawn=True)
            return
        if self.state == "news":
            self.data["news"] = []
            self.fire("told")
            return
        if self.state == "choose_army":
            picks = [*self.data["picks"], int(value)]
            if len(picks) == 3:
                picks += [p.seat for p in self.players if p.seat not in picks]
                self.data["picks"] = []
                self._assign(picks)
                return
            self.data["picks"] = picks
            self.fire("picked")
            return
        if value == "agree":
            return self._finish("agreement", None, [1, 2, 3, 4])
        self._move(str(value))

    def time_out(self, seat: int) -> None:
        """The seat's time ran out: its king leaves the board (its army is in Interregnum and keeps moving, with no
        time); if that leaves one king, its player wins."""
        if self.is_over or not self.data["army"]:
            return
        army = self.army_of(seat)
        eng = SovereignChessRoyale(self.data["position"])
        sq = eng.remove_king(army)
        if sq is None:
            self.note(f"{self.player_name(seat)}: time is up (no king to lose)")
            return
        # the seat to move may now have no move (its king was all it had), or its king may have escaped
        kings = eng.kings()
        escaped, passed = eng.settle()
        self.data["position"] = eng.text
        # the king gone may uncover a check: every check is announced, as after a move
        said = [f"{self.player_name(seat)}: time is up, king off {square_name(sq)}",
                *turn_events(escaped, passed, self.army_name, kings), *check_lines(eng.checks(), self.army_name)]
        self.note("; ".join(said))
        self.data["news"] = [*self.data["news"], *said] if self.state == "news" else said
        self.data["announce"] = None
        if self._settle():
            return
        if self.state == "move":
            self.fire("tell")

    def _move(self, text: str) -> None:
        eng = SovereignChessRoyale(self.data["position"])
        armies = range(1, len(ARMIES) + 1)
        before = {a: holdings(eng, a) for a in armies}
        try:
            move = eng.make(text)
        except ChessError as e:
            raise self.refuse(str(e)) from None
        report = eng.last_report
        if report is None:
            raise RuntimeError("invariant: a made move has a report")
        d = self.data
        d["moves"].append(move.text)
        d["round"] = len(d["moves"]) // 4 + 1  # the move number: one round of White, Ash, Slate and Black
        d["position"] = eng.text
        d["last_move"] = [move.from_sq, move.to_sq]
        d["last"][str(report.seat)] = move.to_sq
        said = announcements(report, self.army_name)
        # what changed hands, as in the two-player game ("Ann now controls navy through e5")
        traded = changes(before, {a: holdings(eng, a) for a in armies}, {a: self.army_name(a) for a in armies})
        events = said[: len(said) - len(report.checks)]
        said = [*events, *traded, *said[len(events):]]  # kings first, then control, then the checks
        self.note(f"{self.army_name(report.seat)}: {move.text}" + ("; " + "; ".join(said) if said else ""))
        d["news"] = said if events else []
        # news wait for OK on their own screen; checks and changes of control alone are a toast
        toast = [*traded, *filter(None, [check_toast(report.checks, self.army_name)])]
        d["announce"] = None if events else ("; ".join(toast) or None)
        if self._settle():
            return
        self.fire("tell" if events else "moved")

    def _settle(self) -> bool:
        """Checks, alerts and the end, from the position now in ``data``; True if the game is over."""
        eng = self.engine()
        d = self.data
        checks = eng.checks()
        d["check"] = {str(self.seat_of(a)): [self.seat_of(b) for b in by] for a, by in checks.items()}
        d["alert"] = sorted(self.seat_of(a) for a in checks)
        outcome = eng.outcome()
        if outcome is None:
            return False
        winner = self.seat_of(outcome.winner) if outcome.winner is not None else None
        self._finish(outcome.reason, winner, [self.seat_of(a) for a in outcome.tied])
        return True

    def _finish(self, termination: str, winner: int | None, tied: list[int]) -> None:
        d = self.data
        d["termination"] = termination
        d["winner"] = winner
        d["tied"] = sorted(tied)
        if winner is None:
            d["winners"] = [self.player_name(s) for s in sorted(tied)]
            d["result"] = "-".join("1/4" for _ in self.players)
        else:
            d["result"] = "-".join("1" if p.seat == winner else "0" for p in self.players)
        who = f"{self.player_name(winner)} wins" if winner is not None else "all tie"
        self.note(f"Game over: {termination}, {who} ({d['result']})")
        d["announce"] = None  # the game-over screen says it all
        self.fire("finish")

    def winner_seats(self) -> list[int]:
        """The last king's seat; a tie (``data["winners"]``: the tied seats' names) is a draw, no win."""
        w = self.winner_seat()
        return [] if w is None else [w]

    # ------------------------------------------------------------------ state JSON and pages
    def extra_json(self) -> dict[str, Any]:
        d = self.data
        eng = self.engine()
        seats = {a: self.seat_of(a) for a in (1, 2, 3, 4)}
        kings = eng.kings()
        return {
            **super().extra_json(),
            "armies": {str(seats[a]): ARMIES[a - 1] for a in seats} if d["army"] else None,
            "check": {k: list(v) for k, v in d["check"].items()},
            "interregnum": sorted(seats[a] for a in eng.interregnum()),
            "kings": {str(seats[a]): (square_name(sq) if (sq := kings[a]) is not None else None) for a in seats},
            "standing": {str(seats[a]): standing(eng, a) for a in seats},
        }

    def seat_headers(self) -> dict[str, Any]:
        return {ARMIES[army - 1].title(): self.army_name(army) if self.data["army"] else None for army in (1, 2, 3, 4)}

    def clock_header(self) -> Any:
        return self.options["clock"] if self.options["clock"] != "none" else None

    def views(self) -> list[View]:
        if not self.data["army"]:
            return [View("Status", ("Armies not assigned yet.",))]
        eng = self.engine()
        lines = status_lines(eng, self.army_name)
        lines += wrap(check_lines(eng.checks(), self.army_name)) or ["No king in check."]
        return [View("Status", tuple(lines))]
