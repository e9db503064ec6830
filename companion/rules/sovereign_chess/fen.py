"""Position text: read and write the FEN-like form, for the two-player game and (by its hooks) each variant.

``<16 ranks, 16 first, '/'-separated> <side to move 1|2> <player 1's owned colour> <player 2's owned colour>
<castling rook files: A–P on rank 1, a–p on rank 16, or -> <ply count>``. A piece is a colour letter
(``w a s b p r o y g c n v``) then a role letter (``k q r b n p``); a number 1–16 is a run of empty squares.

:class:`PositionText` reads and writes it; a variant's form (:class:`~.royale_text.RoyaleText`) has a field per
seat and overrides the hooks: its name in errors, the word for a seat, the castling field.
"""
from __future__ import annotations

from typing import Callable, Final, Generic, Sequence, TypeVar

from companion.rules.sovereign_chess.errors import PositionTextError
from companion.rules.sovereign_chess.position import Position
from companion.rules.sovereign_chess.squares import (COLOUR_LETTERS, COLOUR_SQUARES, FILES, I1, I16, KING, NSQ,
                                                     ROLE_LETTERS, ROOK, SIZE, Colour, sq_of, square_name)

START: Final = (
    "aqabvrvnbrbnbbbqbkbbbnbrynyrsbsq/aranvpvpbpbpbpbpbpbpbpbpypypsnsr/nbnp12opob/nqnp12opoq/crcp12rprr/"
    "cncp12rprn/gbgp12pppb/gqgp12pppq/yqyp12vpvq/ybyp12vpvb/onop12npnn/orop12npnr/rqrp12cpcq/rbrp12cpcb/"
    "srsnppppwpwpwpwpwpwpwpwpgpgpanar/sqsbprpnwrwnwbwqwkwbwnwrgngrabaq 1 w b CELNceln 0"
)

_DIGITS: Final = "0123456789"  # ASCII only: str.isdigit() also accepts '²' and '١'
P = TypeVar("P", bound=Position)


def _parse_rank(text: str, rank: int, board: list[int], bad: Callable[[str], PositionTextError]) -> None:
    where = f"rank {rank + 1} ({text!r})"
    i = 0
    file = 0
    while i < len(text):
        ch = text[i]
        if ch in _DIGITS:
            j = i
            while j < len(text) and text[j] in _DIGITS:
                j += 1
            run = int(text[i:j])
            if not 1 <= run <= SIZE or text[i] == "0":
                raise bad(f"{where}: empty-square count {text[i:j]} at character {i + 1} is not 1-16")
            file += run
            i = j
        else:
            if ch not in COLOUR_LETTERS:
                raise bad(
                    f"{where}: {ch!r} at character {i + 1} is not a colour letter ({COLOUR_LETTERS}) or a number"
                )
            if i + 1 >= len(text) or text[i + 1] not in ROLE_LETTERS[1:]:
                got = repr(text[i + 1]) if i + 1 < len(text) else "the end"
                raise bad(
                    f"{where}: colour {ch!r} at character {i + 1} must be followed by a role (kqrbnp), got {got}"
                )
            if file < SIZE:
                board[sq_of(file, rank)] = (COLOUR_LETTERS.index(ch) << 3) | ROLE_LETTERS.index(text[i + 1])
            file += 1
            i += 2
        if file > SIZE:
            raise bad(f"{where}: more than 16 squares (at character {i})")
    if file != SIZE:
        raise bad(f"{where}: describes {file} squares, not 16")


class PositionText(Generic[P]):
    """One variant's position text: ``<board> <seat to move> <each seat's owned colour> <castling> <ply count>``.

    The hooks a variant overrides: :attr:`name` (what errors call the text), :attr:`seat` (the word for a seat),
    :attr:`mover` (the field of the seat to move), :meth:`both_own`, and the castling field (:meth:`read_castling`,
    :meth:`castling_text`). The seats are the position class's :attr:`~.position.Position.SEATS`.
    """

    name = "position text"
    seat = "player"
    mover = "side to move"

    def __init__(self, position: type[P]) -> None:
        self.position = position
        seats = position.SEATS
        self.fields = ("board", self.mover, *(f"{self.seat} {s}'s colour" for s in seats), "castling", "ply count")

    def bad(self, msg: str) -> PositionTextError:
        return PositionTextError(f"{self.name}: {msg}")

    def both_own(self, a: int, b: int, colour: Colour) -> str:
        return f"both players own {colour.label}"

    def parse(self, text: str) -> P:
        """Position text → a position. Raises :class:`PositionTextError` saying which field (and where) is wrong."""
        fields = text.split()
        n = len(self.fields)
        if len(fields) != n:
            raise self.bad(f"expected {n} space-separated fields ({', '.join(self.fields)}), got {len(fields)}")
        ranks = fields[0].split("/")
        if len(ranks) != SIZE:
            raise self.bad(f"board: expected 16 ranks separated by '/', got {len(ranks)}")
        board = [0] * NSQ
        for i, rank_text in enumerate(ranks):
            _parse_rank(rank_text, SIZE - 1 - i, board, self.bad)
        seats = self.position.SEATS
        if fields[1] not in [str(s) for s in seats]:
            allowed = ", ".join(str(s) for s in seats[:-1]) + f" or {seats[-1]}"
            raise self.bad(f"{self.mover} must be {allowed}, got {fields[1]!r}")
        turn = int(fields[1])
        owned: list[int] = []
        for seat, field in zip(seats, fields[2:]):
            if len(field) != 1 or field not in COLOUR_LETTERS:
                raise self.bad(f"{self.seat} {seat}'s colour {field!r} is not a colour letter ({COLOUR_LETTERS})")
            colour = COLOUR_LETTERS.index(field)
            if colour in owned:
                raise self.bad(self.both_own(owned.index(colour) + 1, seat, Colour(colour)))
            owned.append(colour)
        castling = self.read_castling(fields[-2], board)
        if not fields[-1] or fields[-1].strip(_DIGITS):
            raise self.bad(f"ply count must be a whole number, got {fields[-1]!r}")
        self._check_board(board, owned)
        pos = self.position(board, turn, owned, castling, int(fields[-1]))
        if pos.KING_SAFETY:  # the seat that just moved cannot have left its king in check
            for seat in seats:
                if seat != turn and pos.in_check(seat):
                    raise self.bad(f"{self.seat} {seat} is in check but it is {self.seat} {turn}'s move")
        return pos

    def read_castling(self, field: str, board: list[int]) -> int:
        """The castling rights: the files of the rooks, A-P on rank 1 (the king on i1), a-p on rank 16 (on i16)."""
        castling = 0
        if field == "-":
            return castling
        for ch in field:
            if ch.lower() not in FILES:
                raise self.bad(f"castling: {ch!r} is not a file letter (A-P for rank 1, a-p for rank 16, or -)")
            sq = sq_of(FILES.index(ch.lower()), 0 if ch.isupper() else SIZE - 1)
            if castling >> sq & 1:
                raise self.bad(f"castling: {ch!r} given twice")
            if board[sq] & 7 != ROOK:
                raise self.bad(f"castling: {ch!r} names {square_name(sq)}, which holds no rook")
            home = I1 if ch.isupper() else I16
            if board[home] & 7 != KING:
                raise self.bad(f"castling: {ch!r} needs an unmoved king on {square_name(home)}, which holds none")
            castling |= 1 << sq
        return castling

    def castling_text(self, castling: int) -> str:
        return castling_text(castling)

    def _check_board(self, board: list[int], owned: Sequence[int]) -> None:
        kings: dict[int, int] = {}
        for sq, p in enumerate(board):
            if p & 7 == KING:
                colour = p >> 3
                name = Colour(colour).label
                if colour not in owned:
                    raise self.bad(f"{name} king on {square_name(sq)}: every king must be a {self.seat}'s owned colour")
                if colour in kings:
                    raise self.bad(f"two {name} kings ({square_name(kings[colour])} and {square_name(sq)})")
                kings[colour] = sq
        for colour, (a, b) in enumerate(COLOUR_SQUARES):
            if board[a] and board[b]:
                raise self.bad(f"both {Colour(colour).label} squares ({square_name(a)} and {square_name(b)}) are "
                               "occupied; only one square of each colour may be")

    def text(self, pos: P) -> str:
        """A position → its text (canonical: runs merged, castling listed in order)."""
        owned = (COLOUR_LETTERS[pos.owned[seat]] for seat in self.position.SEATS)
        return " ".join((board_text(pos.board), str(pos.turn), *owned, self.castling_text(pos.castling), str(pos.ply)))


def board_text(board: list[int]) -> str:
    rows = []
    for rank in range(SIZE - 1, -1, -1):
        row = []
        empty = 0
        for file in range(SIZE):
            p = board[sq_of(file, rank)]
            if not p:
                empty += 1
                continue
            if empty:
                row.append(str(empty))
                empty = 0
            row.append(COLOUR_LETTERS[p >> 3] + ROLE_LETTERS[p & 7])
        if empty:
            row.append(str(empty))
        rows.append("".join(row))
    return "/".join(rows)


def castling_text(castling: int) -> str:
    upper = "".join(FILES[f].upper() for f in range(SIZE) if castling >> f & 1)
    lower = "".join(FILES[f] for f in range(SIZE) if castling >> (240 + f) & 1)
    return upper + lower or "-"


TWO_PLAYER: Final = PositionText(Position)


def parse_position(text: str) -> Position:
    """Position text → :class:`Position`. Raises :class:`PositionTextError` saying which field (and where) is
    wrong."""
    return TWO_PLAYER.parse(text)


def position_text(pos: Position) -> str:
    """:class:`Position` → position text (canonical: runs merged, castling files sorted)."""
    return TWO_PLAYER.text(pos)
