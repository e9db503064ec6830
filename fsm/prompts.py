"""What a game asks for next: declarative prompts, answered by the platform's widgets.

A game machine never draws and never reads a button. At every moment it exposes one :class:`Prompt` — a frozen value
saying what input it needs, from whom, and what to show around it — and takes one answer. The platform picks the
widget (menu, spinner, confirm, dice prompt, secret vote …), moves the cursor, and on OK hands the answer back.
Because prompts are data, the same game runs on the OLED, in the terminal simulator, from a script, and under a
random player in the contract tests.

Answers, by prompt type:

=================  ===========================================================================
``Choice``         the chosen option's ``key`` (str); ``back`` if BACK was pressed and allowed; with ``text``,
                   also ``{"text": str}`` typed or pasted on the phone
``Number``         an int within ``lo..hi``
``Confirm``        a bool
``MultiSelect``    a list of chosen keys, in option order, ``min_count..max_count`` long
``SecretVote``     the chosen option's key (the widget hides it from the next voter)
``Dice``           ``{"values": [int, ...], "source": "roller" | "typed" | "rng"}``
``Info``           ``True``
``Random``         the key the session drew with its RNG (the table never sees a cursor)
=================  ===========================================================================
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union

DIE_SIDES = {"d6": 6, "d12": 12}
MAX_TEXT = 8000  #: characters a text answer may have


class _Value:
    """A frozen value (of strings, numbers and tuples of them): a copy of it, deep or not, is the value itself, as
    for a tuple of strings. A copied session (a test's probe of a screen) shares its prompt, the screen's and the
    history's instead of copying every option of a chess position again."""

    def __copy__(self) -> "_Value":
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Value":
        return self


@dataclass(frozen=True)
class Option(_Value):
    key: str
    label: str
    enabled: bool = True
    #: why the option is disabled (shown as a toast when it is picked), or a short hint
    hint: str = ""
    #: labels of the steps that lead to this option (piece, target, promotion): the widget offers the first step's
    #: distinct labels, then the next step's among the options sharing the chosen prefix. Empty: a flat list.
    path: tuple[str, ...] = ()
    #: offered from the game menu (resign, claim a draw), not in the list itself
    in_menu: bool = False


def options(*items: Union[str, tuple[str, str], Option]) -> tuple[Option, ...]:
    """Shorthand: ``options("yes", ("no", "No thanks"), Option(...))``."""
    out: list[Option] = []
    for it in items:
        if isinstance(it, Option):
            out.append(it)
        elif isinstance(it, tuple):
            out.append(Option(it[0], it[1]))
        else:
            out.append(Option(it, it))
    return tuple(out)


@dataclass(frozen=True)
class BoardView(_Value):
    """A square board to draw beside a prompt (Sovereign Chess): plain JSON-able data, rendered by the platform.

    ``cells`` has ``files * ranks`` strings, square ``rank * files + file`` (a1 first, rank 1 at the bottom): ``""``
    empty, ``"."`` a square of colour, ``"#"`` a square of colour blocked by its twin, else a role letter
    (``KQRBNP``) and whose piece it is for the seat to act: ``o`` owned, ``c`` controlled, ``e`` an opponent's,
    ``n`` neutral (``"Qc"``), and ``*`` when it stands on a square of colour (``"Pe*"``). ``spots`` maps an option key to the square of each step of its ``path``, so the widget
    can show the cursor, the selected piece and its targets.
    """

    files: int
    ranks: int
    cells: tuple[str, ...]
    spots: tuple[tuple[str, tuple[int, ...]], ...] = ()
    #: squares to mark as the last move (from, to)
    last: tuple[int, ...] = ()


@dataclass(frozen=True)
class _Base(_Value):
    title: str
    #: context lines drawn above the widget (scores, sums, whose turn); keep each under ~21 characters
    lines: tuple[str, ...] = ()
    #: the seat (1-based) who must act; their LED blinks. None: anyone / the game master
    player: int | None = None
    #: a board to draw beside the prompt (the lines then go in the text half)
    board: BoardView | None = None


@dataclass(frozen=True)
class Choice(_Base):
    options: tuple[Option, ...] = ()
    #: answer given when BACK is pressed (None: BACK does nothing here)
    back: str | None = None
    #: option key the cursor starts on
    default: str | None = None
    #: the default moves on by design (the next society, the next kind of order): the cursor starts there even when
    #: the player comes back to this screen from one of its entries (otherwise it returns to that entry)
    advance: bool = False
    #: a label: the phone also offers a text box; its answer is ``{"text": str}`` (a pasted message). The device
    #: shows the options only.
    text: str = ""


@dataclass(frozen=True)
class Number(_Base):
    lo: int = 0
    hi: int = 99
    default: int = 0
    step: int = 1
    unit: str = ""
    #: answer given when BACK is pressed (None: BACK goes to the previous screen, as the session decides)
    back: str | None = None


@dataclass(frozen=True)
class Confirm(_Base):
    default: bool = True
    yes: str = "Yes"
    no: str = "No"


@dataclass(frozen=True)
class MultiSelect(_Base):
    options: tuple[Option, ...] = ()
    min_count: int = 0
    max_count: int | None = None
    preselected: tuple[str, ...] = ()


@dataclass(frozen=True)
class SecretVote(_Base):
    """One voter's secret ballot. The widget first shows "pass to NAME" with nothing revealed."""

    options: tuple[Option, ...] = ()
    voter_name: str = ""


@dataclass(frozen=True)
class Dice(_Base):
    """Ask ``player`` to roll ``count`` dice of type ``die`` for ``purpose``.

    The platform's dice service answers from the first allowed source: a roll arriving from the roller, values typed
    with the spinner, or the built-in RNG. The game never cares which.
    """

    die: str = "d6"
    count: int = 1
    purpose: str = ""

    @property
    def sides(self) -> int:
        return DIE_SIDES[self.die]


@dataclass(frozen=True)
class Info(_Base):
    """Show something; OK continues."""


@dataclass(frozen=True)
class Random(_Base):
    """A random pick the session makes with its seeded RNG (random first player, random dealer)."""

    keys: tuple[str, ...] = field(default_factory=tuple)


Prompt = Union[Choice, Number, Confirm, MultiSelect, SecretVote, Dice, Info, Random]


@dataclass(frozen=True)
class View(_Value):
    """A read-only page the game menu can show (player status, technology chart, city overview...)."""

    title: str
    lines: tuple[str, ...]


class InvalidAnswer(ValueError):
    """An answer the rules refuse. The message is one plain line shown as a toast; the game state is unchanged."""


def validate_answer(prompt: Prompt, value: Any) -> None:
    """Raise :class:`InvalidAnswer` unless ``value`` has the shape ``prompt`` asks for.

    The platform calls this before handing an answer to a game, so games can rely on the shape.
    """
    if isinstance(prompt, Choice):
        keys = {o.key: o for o in prompt.options}
        if prompt.back is not None and value == prompt.back:
            return
        if prompt.text and isinstance(value, dict):
            if set(value) != {"text"} or not isinstance(value["text"], str) or len(value["text"]) > MAX_TEXT:
                raise InvalidAnswer(f'send {{"text": "..."}} of at most {MAX_TEXT} characters')
            return
        if isinstance(value, (dict, list)) or value not in keys:
            raise InvalidAnswer(f"{value!r} is not one of the choices")
        if not keys[value].enabled:
            raise InvalidAnswer(keys[value].hint or f"{keys[value].label} is not possible now")
    elif isinstance(prompt, Number):
        if prompt.back is not None and value == prompt.back:
            return
        if isinstance(value, bool) or not isinstance(value, int) or not prompt.lo <= value <= prompt.hi:
            raise InvalidAnswer(f"enter a number from {prompt.lo} to {prompt.hi}")
    elif isinstance(prompt, Confirm):
        if not isinstance(value, bool):
            raise InvalidAnswer("answer yes or no")
    elif isinstance(prompt, MultiSelect):
        allowed = [o.key for o in prompt.options]
        if not isinstance(value, list) or any(v not in allowed for v in value) or len(set(value)) != len(value):
            raise InvalidAnswer("pick from the list")
        if len(value) < prompt.min_count:
            raise InvalidAnswer(f"pick at least {prompt.min_count}")
        if prompt.max_count is not None and len(value) > prompt.max_count:
            raise InvalidAnswer(f"pick at most {prompt.max_count}")
    elif isinstance(prompt, SecretVote):
        if value not in {o.key for o in prompt.options}:
            raise InvalidAnswer(f"{value!r} is not a ballot option")
    elif isinstance(prompt, Dice):
        vals = value.get("values") if isinstance(value, dict) else None
        if not isinstance(vals, list) or len(vals) != prompt.count:
            raise InvalidAnswer(f"{prompt.count} {prompt.die} needed")
        for v in vals:
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= prompt.sides:
                raise InvalidAnswer(f"a {prompt.die} shows 1 to {prompt.sides}, not {v!r}")
    elif isinstance(prompt, Info):
        if value is not True:
            raise InvalidAnswer("press OK")
    elif isinstance(prompt, Random):
        if value not in prompt.keys:
            raise InvalidAnswer(f"{value!r} is not a possible pick")


__all__ = ["BoardView", "Prompt", "Choice", "Number", "Confirm", "MultiSelect", "SecretVote", "Dice", "Info", "Random",
           "Option", "options", "View", "InvalidAnswer", "validate_answer", "DIE_SIDES"]
