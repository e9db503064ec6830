"""What both Sovereign Chess machines share (two players, and Royale in :mod:`fsm.sovereign_chess_royale`): the
engine as a cache of ``data["position"]``, move entry by buttons and by typed text, the board on the prompt, the
state JSON and the game record.

A game derives from :class:`ChessMachine` with its engine class and sets the hooks: :attr:`~ChessMachine.ENGINE`,
:attr:`~ChessMachine.PLAYING` (the states in which a seat is to move), :meth:`~ChessMachine.seat_of` (engine seat →
table seat), :meth:`~ChessMachine.last_moved` (the square its seat moved to last, for move entry),
:meth:`~ChessMachine.seat_headers` and :meth:`~ChessMachine.clock_header` (the record). Its phases, menu and
announcements are its own.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from companion.rules.sovereign_chess import ChessError, SovereignChess
from fsm.base import GameMachine, OptionSpec
from fsm.prompts import BoardView, Choice, Option

from fsm.sovereign_chess.board import board_view
from fsm.sovereign_chess.entry import Entry, move_entries, move_options

E = TypeVar("E", bound=SovereignChess)


@dataclass(frozen=True)
class StartOption(OptionSpec):
    """A position text switch: empty for the game's usual start, else checked by the engine's parser."""

    engine: type[SovereignChess] = SovereignChess

    def check(self, game_id: str, name: str, value: Any) -> Any:
        value = super().check(game_id, name, value)
        if value:
            try:
                self.engine(value)
            except ChessError as e:
                raise ValueError(f"[games.{game_id}] {name}: {e}") from None
        return value


class ChessMachine(GameMachine, Generic[E]):
    """The chess machines' base: see the module. ``data`` holds ``position`` (the engine's position text),
    ``moves`` (move text), ``last`` and ``last_move`` (squares to mark), ``check``, ``result``, ``termination``."""

    ENGINE: type[E]
    PLAYING: ClassVar[tuple[str, ...]] = ("move",)

    _cache: tuple[str, E] | None = None
    _entries: tuple[str, list[Entry]] | None = None

    # ------------------------------------------------------------------ hooks
    def seat_of(self, army: int) -> int:
        """The table seat playing the engine's seat ``army``."""
        raise NotImplementedError

    def last_moved(self, turn: int) -> int | None:
        """The square the engine seat ``turn`` last moved to (move entry offers that piece first), or None."""
        raise NotImplementedError

    def seat_headers(self) -> dict[str, Any]:
        """The record's headers naming who played which army."""
        raise NotImplementedError

    def clock_header(self) -> Any:
        return self.options["clock"]

    # ------------------------------------------------------------------ the engine, as a cache of data
    def engine(self) -> E:
        text = self.data["position"]
        if self._cache is None or self._cache[0] != text:
            self._cache = (text, self.ENGINE(text))
        return self._cache[1]

    def to_move(self) -> int | None:
        if self.state not in self.PLAYING:
            return None
        return self.seat_of(self.engine().turn)

    def active_seat(self) -> int | None:
        return self.to_move()

    # ------------------------------------------------------------------ move entry and the board
    def entries(self) -> list[Entry]:
        """The legal moves as the buttons reach them (issue 11's move entry), cached per position."""
        key = self.data["position"] + repr(self.data["last"])
        if self._entries is None or self._entries[0] != key:
            eng = self.engine()
            self._entries = (key, move_entries(eng, self.last_moved(eng.turn)))
        return self._entries[1]

    def last_squares(self) -> tuple[int, ...]:
        """The last move's squares, marked on the board."""
        sq = self.data.get("last_move")
        return tuple(sq) if sq else ()

    def board(self, entries: list[Entry] | None = None) -> BoardView:
        """The position as the seat to move sees it, with ``entries`` (default: none) reachable on it."""
        eng = self.engine()
        return board_view(eng, eng.turn, entries or [], self.last_squares())

    def move_choice(self, lines: list[str], menu: tuple[Option, ...]) -> Choice:
        """The move prompt: every legal move by buttons, then the game menu's ``menu``, over the board."""
        entries = self.entries()
        return Choice("Move", lines=tuple(lines), player=self.seat_of(self.engine().turn),
                      options=move_options(entries) + menu, board=self.board(entries))

    def typed_move(self, text: str) -> str:
        """Typed move text (a script's ``move TEXT``, a remote) as the answer it names; refused if not legal."""
        if self.state != "move":
            raise self.refuse(f"no move is asked for now ({self.state})")
        try:
            return self.engine().parse_move(text.strip()).text
        except ChessError as e:
            raise self.refuse(str(e)) from None

    def entry_answer(self, text: str) -> Any:
        return self.typed_move(text)

    # ------------------------------------------------------------------ state JSON and the record
    def extra_json(self) -> dict[str, Any]:
        d = self.data
        eng = self.engine()
        seats = {a: self.seat_of(a) for a in eng.position.SEATS}
        return {
            "position": d["position"],
            "moves": list(d["moves"]),
            "to_move": self.to_move(),
            "owned": {str(seats[a]): eng.owned(a).label for a in seats},
            "controlled": {str(seats[a]): [c.label for c in eng.controlled(a)] for a in seats},
            "result": d["result"],
            "termination": d["termination"],
        }

    def move_count(self) -> int | None:
        return sum(m not in ("accept", "reject") for m in self.data["moves"])

    def start_seat(self) -> int | None:
        """The seat playing White (the first move)."""
        return self.seat_of(1) if self.state not in ("first", "draw_first") else None

    def outcome(self) -> tuple[str, str]:
        """"Ann wins (1-0)" or "Draw (1/2-1/2)", and how it ended after how many moves."""
        d = self.data
        if not self.is_over:
            return super().outcome()
        won = self.winner_seats()
        moves = self.move_count() or 0
        who = f"{self.player_name(won[0])} wins" if len(won) == 1 else "Draw"
        return f"{who} ({d['result']})", f"{d['termination']} after {moves} move{'s' * (moves != 1)}"

    def record(self) -> dict[str, Any]:
        """The game record's header and moves, for `companion export --record` (the export adds the date)."""
        d = self.data
        headers = {"Game": self.name, **self.seat_headers(), "Result": d["result"] or "*",
                   "Termination": d["termination"], "Clock": self.clock_header(),
                   "Start": self.options["start"] or None}
        return {"headers": headers, "moves": list(d["moves"]), "result": d["result"]}


__all__ = ["ChessMachine", "StartOption"]
