"""Sovereign Chess (two players) at the table: the opening choice, move entry, check, mate, draws and resignation.

The position lives in ``data["position"]`` as the engine's position text, the moves in ``data["moves"]`` as move
text (with ``accept``/``reject`` after the first move); the engine object is only a cache of that text. Engine
player 1 is whoever makes the first move (with the White army); ``data["first"]`` is that seat.
"""
from __future__ import annotations

import json
import logging
from typing import Any

from companion.rules.sovereign_chess import ChessError, MoveKind, Role, SovereignChess, square_name
from companion.rules.sovereign_chess.fen import START
from fsm.base import OptionSpec
from fsm.clock_option import ClockOption
from fsm.prompts import Choice, Info, Option, Prompt, Random, View

from fsm.sovereign_chess.board import changes, control, holdings, neutral
from fsm.sovereign_chess.family import ChessMachine, StartOption

log = logging.getLogger(__name__)

PAGE_WIDTH = 20  #: characters a game-menu page shows on one line


def wrap(head: str, words: list[str]) -> list[str]:
    """``head`` and the words, as many lines as it takes (a page line holds about PAGE_WIDTH characters)."""
    if not words:
        return [f"{head} none"]
    lines, cur = [], head
    for w in words:
        if len(cur) + 1 + len(w) > PAGE_WIDTH:
            lines.append(cur)
            cur = " " + w
        else:
            cur += " " + w
    return [*lines, cur]


FIFTY = 100  #: half-moves without a capture or a pawn move before a draw may be claimed
DRAW_RESULT = "1/2-1/2"


class SovereignChessGame(ChessMachine[SovereignChess]):
    game_id = "sovereign-chess"
    name = "Sovereign Chess"
    description = "Sovereign Chess for two: the board on screen, moves by buttons, control map"
    min_players = 2
    max_players = 2
    default_players = 2
    STATES = ["first", "draw_first", "move", "opening", "game_over"]
    TRANSITIONS = [
        {"trigger": "chosen", "source": "first", "dest": "move"},
        {"trigger": "draw", "source": "first", "dest": "draw_first"},
        {"trigger": "drawn", "source": "draw_first", "dest": "move"},
        {"trigger": "first_move", "source": "move", "dest": "opening"},
        {"trigger": "moved", "source": ["move", "opening"], "dest": "move"},
        {"trigger": "finish", "source": ["move", "opening"], "dest": "game_over"},
    ]
    INITIAL = "first"
    FINAL = ("game_over",)
    OPTIONS = {
        "first": OptionSpec("ask", "who makes White's first move: ask at the start, or draw at random",
                            choices=("ask", "random")),
        "start": StartOption("", "a position text to start from (a study or a puzzle); empty: the usual start"),
        "clock": ClockOption(),
    }
    ENGINE = SovereignChess
    PLAYING = ("move", "opening")

    # ------------------------------------------------------------------ setup
    def start(self) -> None:
        start = self.options["start"] or START
        self.data.update({
            "position": SovereignChess(start).text, "moves": [], "first": None, "white": None, "quiet": 0, "seen": {},
            "last": {}, "check": False, "result": None, "termination": None, "winner": None, "announce": None,
        })
        self.data["seen"][self._key(self.data["position"])] = 1
        if self.options["first"] == "random":
            self.fire("draw")

    # ------------------------------------------------------------------ seats: engine player 1 makes the first move
    def seat_of(self, player: int) -> int:
        first = self.data["first"] or 1
        return int(first) if player == 1 else 3 - int(first)

    def player_of(self, seat: int) -> int:
        return 1 if seat == (self.data["first"] or 1) else 2

    def last_moved(self, turn: int) -> int | None:
        last: int | None = self.data["last"].get(str(self.seat_of(turn)))
        return last

    @staticmethod
    def _key(position: str) -> str:
        """A position for repetition: everything but the ply count."""
        return position.rsplit(" ", 1)[0]

    # ------------------------------------------------------------------ prompts
    def prompt_key(self) -> str:
        """What the prompt is built from (``seen``, every position's count, only for this one)."""
        d = self.data
        return json.dumps([self.state, d["position"], d["moves"], d["check"], d["result"], d["quiet"], d["last"],
                           d["first"], d["seen"].get(self._key(d["position"]), 0)], separators=(",", ":"))

    def build_prompt(self) -> Prompt:
        if self.state == "first":
            firsts = [Option("random", "Draw at random")]
            firsts += [Option(f"seat{p.seat}", f"{p.name} moves first") for p in self.players]
            return Choice("Who moves first?", lines=("They make White's first move.",), options=tuple(firsts))
        if self.state == "draw_first":
            return Random("Drawing who moves first", keys=tuple(str(s) for s in self.seats))
        eng = self.engine()
        seat = self.seat_of(eng.turn)
        if self.is_over:
            return self._over_prompt()
        if self.state == "opening":
            other = self.player_name(3 - seat)
            opts = (Option("accept", "Accept: take White", path=("Take White",)),
                    Option("reject", "Reject: play Black", path=("Play Black",)),
                    *self._menu_options(seat))
            return Choice("Opening", lines=(f"{other} moved", self.data["moves"][0], "Pie rule: pick a side"),
                          player=seat, options=opts, board=self.board())
        lines = [f"owns {eng.owned(eng.turn).label}"]
        if self.data["check"]:
            lines.append("CHECK!")
        return self.move_choice(lines, self._menu_options(seat))

    def _menu_options(self, seat: int) -> tuple[Option, ...]:
        claim = self._claimable()
        return (
            Option("claim", f"Claim draw ({claim})" if claim else "Claim draw", enabled=bool(claim),
                   hint="No draw to claim: needs threefold repetition or 50 moves", in_menu=True),
            Option("agree", "Draw by agreement", in_menu=True),
            Option("resign", f"{self.player_name(seat)} resigns", in_menu=True),
            # as in traditional chess, a player may resign at any moment, also while the other one thinks
            Option("resign_other", f"{self.player_name(3 - seat)} resigns", in_menu=True),
        )

    def _over_prompt(self) -> Prompt:
        w = self.winner_seat()
        lines = [f"{self.player_name(w)} wins" if w is not None else "Draw", self.data["result"],
                 str(self.data["termination"])]
        return Info("Game over", lines=tuple(lines), board=self.board())

    def _claimable(self) -> str:
        if self.data["seen"].get(self._key(self.data["position"]), 0) >= 3:
            return "threefold repetition"
        if self.data["quiet"] >= FIFTY:
            return "fifty-move rule"
        return ""

    # ------------------------------------------------------------------ answers
    def answer(self, value: Any) -> None:
        self.data["announce"] = None
        if self.state == "first":
            if value == "random":
                self.fire("draw")
            else:
                self.data["first"] = int(str(value)[4:])
                self.fire("chosen")
            return
        if self.state == "draw_first":
            self.data["first"] = int(value)
            self.note(f"{self.player_name(int(value))} drawn to make White's first move")
            del self.data["announce"]  # no toast of its own: the session announces this log line until a press
            self.fire("drawn")
            return
        seat = self.seat_of(self.engine().turn)
        if value == "resign":
            return self._finish("resignation", 3 - seat)
        if value == "resign_other":
            return self._finish("resignation", seat)
        if value == "agree":
            return self._finish("agreement", None)
        if value == "claim":
            why = self._claimable()
            if not why:
                raise self.refuse("No draw to claim: needs threefold repetition or 50 moves")
            return self._finish(why, None)
        if self.state == "opening":
            return self._opening(str(value), seat)
        self._move(str(value), seat)

    def alert_seats(self) -> list[int]:
        """The checked player's LED flashes fast until the check is gone."""
        seat = self.to_move()
        return [seat] if self.data["check"] and seat is not None else []

    def time_out(self, seat: int) -> None:
        """The flag fell: the other player wins on time."""
        if not self.is_over:
            self._finish("time", 3 - seat)

    def entry_answer(self, text: str) -> Any:
        """Typed entry (a script's ``move TEXT``, a remote): engine move text, or accept/reject at the opening."""
        text = text.strip()
        if self.state == "opening":
            if text in ("accept", "reject"):
                return text
            raise self.refuse(f"{self.player_name(self.to_move() or 2)} first accepts or rejects the first move: "
                              "'move accept' or 'move reject'")
        if self.state in ("first", "draw_first"):
            raise self.refuse("first say who makes White's first move")
        if self.state == "move" and text in ("accept", "reject"):
            raise self.refuse(f"'{text}' only right after White's first move")
        return self.typed_move(text)

    def _opening(self, value: str, seat: int) -> None:
        eng = SovereignChess(self.data["position"])
        if value == "accept":
            eng.accept_opening()
            key = self._key(eng.text)  # a new position (the armies changed hands): it counts for repetition
            self.data["seen"][key] = self.data["seen"].get(key, 0) + 1
            self.data["white"] = seat
            self.note(f"{self.player_name(seat)} accepts the first move and owns White")
        else:
            self.data["white"] = 3 - seat
            self.note(f"{self.player_name(seat)} rejects the first move and owns Black")
        self.data["moves"].append(value)
        self.data["position"] = eng.text
        self.fire("moved")

    def _move(self, text: str, seat: int) -> None:
        eng = SovereignChess(self.data["position"])
        try:
            move = eng.parse_move(text)
        except ChessError as e:
            raise self.refuse(str(e)) from None
        player = eng.turn
        names = {p: self.player_name(self.seat_of(p)) for p in (1, 2)}
        before = {p: holdings(eng, p) for p in (1, 2)}
        old_king = eng.king_square(player)
        made = eng.make(move)
        after = {p: holdings(eng, p) for p in (1, 2)}
        d = self.data
        d["moves"].append(made.text)
        d["position"] = eng.text
        d["round"] = sum(m not in ("accept", "reject") for m in d["moves"]) // 2 + 1  # the move number
        d["last"][str(seat)] = made.to_sq
        d["last_move"] = [made.from_sq, made.to_sq]
        quiet = made.capture or (made.role is Role.PAWN and made.kind is MoveKind.ORDINARY)
        d["quiet"] = 0 if quiet else d["quiet"] + 1
        key = self._key(eng.text)
        d["seen"][key] = d["seen"].get(key, 0) + 1
        d["check"] = eng.in_check()
        said = changes(before, after, names)
        words = [f"{names[player]}: {made.text}"]
        if made.promotion is Role.KING:
            words.append("regime change")
            # the table must take the old king off the physical board
            coup = "coup d'état" if made.colour.label == before[player][0] else f"overthrow to {made.colour.label}"
            gone = f", take the king off {square_name(old_king)}" if old_king is not None else ""
            owns = f"{names[player]} now owns"
            said = [f"{names[player]}: {coup}{gone}", *(x for x in said if not x.startswith(owns))]
        if made.kind is MoveKind.DEFECTION and made.defect_to is not None:
            words.append(f"defects to {made.defect_to.label}")
        self.note(" ".join(words) + ("; " + "; ".join(said) if said else ""))
        d["announce"] = "; ".join(said) or None
        outcome = eng.outcome()
        if outcome is not None:
            if outcome.result == "checkmate" and outcome.winner is not None:
                return self._finish("checkmate", self.seat_of(outcome.winner))
            return self._finish("stalemate", None)
        if d["check"]:
            d["announce"] = "; ".join([*said, f"{names[eng.turn]} is in check"])
        if eng.opening_choice_pending and len(d["moves"]) == 1:
            self.fire("first_move")
        else:
            self.fire("moved")

    def _finish(self, termination: str, winner: int | None) -> None:
        d = self.data
        white = d["white"] or d["first"] or 1
        d["termination"] = termination
        d["winner"] = winner
        d["result"] = DRAW_RESULT if winner is None else ("1-0" if winner == white else "0-1")
        who = f"{self.player_name(winner)} wins" if winner is not None else "draw"
        self.note(f"Game over: {termination}, {who} ({d['result']})")
        d["announce"] = f"{termination}: {who}"
        self.fire("finish")

    # ------------------------------------------------------------------ state JSON and pages
    def extra_json(self) -> dict[str, Any]:
        return {**super().extra_json(), "check": bool(self.data["check"])}

    def seat_headers(self) -> dict[str, Any]:
        white = self.data["white"] or self.data["first"]
        return {"White": self.player_name(white) if white else None,
                "Black": self.player_name(3 - white) if white else None}

    def views(self) -> list[View]:
        return [View("Control map", tuple(self.control_map()))]

    def control_map(self) -> list[str]:
        if self.state in ("first", "draw_first"):
            return ["No moves yet."]
        eng = self.engine()
        lines = []
        for p in (1, 2):
            lines.append(f"{self.player_name(self.seat_of(p))}: owns {eng.owned(p).label}")
            lines += [f" {colour} via {sq}" for colour, sq in control(eng, p).items()]
        lines += wrap("Neutral:", neutral(eng))
        lines += wrap("Blocked:", [square_name(sq) for sq in eng.blocked()])
        return lines
