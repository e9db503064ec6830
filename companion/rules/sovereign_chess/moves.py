"""Moves as values and as text.

Grammar (one move, no spaces)::

    move      = ordinary | castling | defection
    ordinary  = colour ROLE square ("-" | "x") square [ "=" PROMO ]     wPi2-i4   bQa2xi2   wPh6-h7=K
    castling  = "O-O@" square                                          O-O@j1   (the king's destination)
    defection = colour "K=" colourname [ "," colour "K" square ("-" | "x") square ]
                                                                       wK=navy   wK=navy,nKe5-e6
    colour    = "w" | "a" | "s" | "b" | "p" | "r" | "o" | "y" | "g" | "c" | "n" | "v"
    ROLE      = "K" | "Q" | "R" | "B" | "N" | "P"        PROMO = "Q" | "R" | "B" | "N" | "K"
    square    = file rank   file = "a".."p"   rank = "1".."16"

``x`` marks a capture, ``-`` a move to an empty square. A defection's second part is the king (now of the new
colour) stepping off its new colour's square, required when it stands on one.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from companion.rules.sovereign_chess.errors import MoveTextError, quoted
from companion.rules.sovereign_chess.position import KIND_CASTLE, KIND_DEFECT, KIND_NORMAL, pack
from companion.rules.sovereign_chess.squares import COLOUR_LETTERS, FILES, Colour, Role, parse_square, square_name

_COLOUR_NAMES = {c.label: c for c in Colour}


class MoveKind(enum.Enum):
    ORDINARY = "ordinary"
    CASTLING = "castling"
    DEFECTION = "defection"


@dataclass(frozen=True)
class Move:
    """One move. ``colour``/``role`` are the moving piece's (for a defection: the king before it defects).

    ``to_sq`` is the king's destination for castling, and equals ``from_sq`` for a defection without a king move.
    """

    kind: MoveKind
    colour: Colour
    role: Role
    from_sq: int
    to_sq: int
    capture: bool = False
    promotion: Role | None = None
    rook_from: int | None = None
    defect_to: Colour | None = None

    @property
    def packed(self) -> int:
        if self.kind is MoveKind.CASTLING:
            if self.rook_from is None:
                raise RuntimeError("invariant: self.rook_from is set here")
            return pack(self.from_sq, self.to_sq, 0, KIND_CASTLE, self.rook_from)
        if self.kind is MoveKind.DEFECTION:
            if self.defect_to is None:
                raise RuntimeError("invariant: self.defect_to is set here")
            return pack(self.from_sq, self.to_sq, 0, KIND_DEFECT, int(self.defect_to))
        return pack(self.from_sq, self.to_sq, int(self.promotion or 0), KIND_NORMAL)

    @property
    def text(self) -> str:
        sep = "x" if self.capture else "-"
        if self.kind is MoveKind.CASTLING:
            return f"O-O@{square_name(self.to_sq)}"
        if self.kind is MoveKind.DEFECTION:
            if self.defect_to is None:
                raise RuntimeError("invariant: self.defect_to is set here")
            head = f"{self.colour.letter}K={self.defect_to.label}"
            if self.to_sq == self.from_sq:
                return head
            return f"{head},{self.defect_to.letter}K{square_name(self.from_sq)}{sep}{square_name(self.to_sq)}"
        promo = f"={self.promotion.letter.upper()}" if self.promotion else ""
        return (
            f"{self.colour.letter}{self.role.letter.upper()}{square_name(self.from_sq)}{sep}"
            f"{square_name(self.to_sq)}{promo}"
        )

    def __str__(self) -> str:
        return self.text


def move_from_packed(board: list[int], m: int) -> Move:
    """The :class:`Move` for a packed move, read against the board before it is made."""
    fr = m & 255
    to = (m >> 8) & 255
    promo = (m >> 16) & 7
    kind = (m >> 19) & 3
    extra = m >> 21
    p = board[fr]
    colour = Colour(p >> 3)
    role = Role(p & 7)
    capture = bool(board[to]) and to != fr
    if kind == KIND_CASTLE:
        return Move(MoveKind.CASTLING, colour, role, fr, to, False, None, extra)
    if kind == KIND_DEFECT:
        return Move(MoveKind.DEFECTION, colour, role, fr, to, capture, None, None, Colour(extra))
    return Move(MoveKind.ORDINARY, colour, role, fr, to, capture, Role(promo) if promo else None)


# ---------------------------------------------------------------------------------------------- parsing


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0

    def fail(self, what: str) -> MoveTextError:
        got = repr(self.text[self.i]) if self.i < len(self.text) else "the end"
        return MoveTextError(f"move {quoted(self.text)}: expected {what} at character {self.i + 1}, got {got}")

    def take(self, allowed: str, what: str) -> str:
        if self.i < len(self.text) and self.text[self.i] in allowed:
            self.i += 1
            return self.text[self.i - 1]
        raise self.fail(what)

    def literal(self, word: str) -> None:
        for ch in word:
            self.take(ch, repr(word))

    def square(self) -> int:
        start = self.i
        self.take(FILES, "a file letter a-p")
        self.take("0123456789", "a rank 1-16")
        if self.i < len(self.text) and self.text[self.i] in "0123456789":
            self.i += 1
        try:
            return parse_square(self.text[start:self.i])
        except ValueError:
            self.i = start + 1
            raise self.fail("a rank 1-16") from None

    def done(self) -> bool:
        return self.i >= len(self.text)


@dataclass(frozen=True)
class MoveSpec:
    """What move text says, before it is matched against a position's legal moves."""

    kind: MoveKind
    colour: Colour | None
    role: Role
    from_sq: int | None
    to_sq: int
    capture: bool
    promotion: Role | None = None
    defect_to: Colour | None = None


def parse_move_text(text: str) -> MoveSpec:
    """Check move text against the grammar. Raises :class:`MoveTextError` naming the character that is wrong."""
    r = _Reader(text.strip())
    if r.text.startswith("O"):
        r.literal("O-O@")
        to = r.square()
        if not r.done():
            raise r.fail("the end")
        return MoveSpec(MoveKind.CASTLING, None, Role.KING, None, to, False)
    colour = Colour(COLOUR_LETTERS.index(r.take(COLOUR_LETTERS, "a colour letter (wasbproygcnv) or O-O@")))
    role_letter = r.take("KQRBNP", "a role letter (KQRBNP)")
    role = Role(" PNBRQK".index(role_letter))
    if role is Role.KING and r.text[r.i : r.i + 1] == "=":
        r.i += 1
        start = r.i
        while not r.done() and r.text[r.i].isalpha():
            r.i += 1
        name = r.text[start : r.i]
        if name not in _COLOUR_NAMES:
            r.i = start
            raise r.fail(f"a colour name ({', '.join(_COLOUR_NAMES)})")
        new = _COLOUR_NAMES[name]
        if r.done():
            return MoveSpec(MoveKind.DEFECTION, colour, Role.KING, None, -1, False, None, new)
        r.literal(",")
        r.take(new.letter, f"{new.letter!r} (the king's new colour)")
        r.literal("K")
        fr = r.square()
        sep = r.take("-x", "'-' or 'x'")
        to = r.square()
        if not r.done():
            raise r.fail("the end")
        return MoveSpec(MoveKind.DEFECTION, colour, Role.KING, fr, to, sep == "x", None, new)
    fr = r.square()
    sep = r.take("-x", "'-' or 'x'")
    to = r.square()
    promo = None
    if not r.done():
        r.literal("=")
        promo = Role(" PNBRQK".index(r.take("QRBNK", "a promotion letter (QRBNK)")))
        if not r.done():
            raise r.fail("the end")
    return MoveSpec(MoveKind.ORDINARY, colour, role, fr, to, sep == "x", promo)


def spec_matches(spec: MoveSpec, move: Move) -> bool:
    if spec.kind is not move.kind:
        return False
    if spec.kind is MoveKind.CASTLING:
        return spec.to_sq == move.to_sq
    if spec.kind is MoveKind.DEFECTION:
        if spec.colour is not move.colour or spec.defect_to is not move.defect_to:
            return False
        if spec.from_sq is None:
            return move.to_sq == move.from_sq
        return (spec.from_sq, spec.to_sq, spec.capture) == (move.from_sq, move.to_sq, move.capture)
    return (spec.colour, spec.role, spec.from_sq, spec.to_sq, spec.capture, spec.promotion) == (
        move.colour,
        move.role,
        move.from_sq,
        move.to_sq,
        move.capture,
        move.promotion,
    )
