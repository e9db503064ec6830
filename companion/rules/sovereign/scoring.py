"""Points in the Add step, city limits and the victory conditions."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Mapping, Sequence

from companion.rules.sovereign.techs import has_all_final

MAX_CITY = 7
START_CITY = 4
CARDS_TO_WIN = 7
TRADE_PER_CITY = 1
BANKING_PER_CITY = 5
GLOBALIZATION_POINTS = 12
BASE_ACTIONS = 3


class Card(str, Enum):
    MILITARY = "military"
    EXPANSION = "expansion"
    TECHNOLOGY = "technology"


CARD_KINDS: tuple[str, ...] = tuple(c.value for c in Card)


@dataclass(frozen=True)
class AddResult:
    tiles: int  #: what the cities produce this turn (0 in the turn after Banking)
    trade: int
    banking: int
    globalization: int

    @property
    def total(self) -> int:
        return self.tiles + self.trade + self.banking + self.globalization


def add_points(city_tiles: Sequence[int], *, trade: bool = False, banking: bool = False, dry: bool = False,
               globalization: bool = False) -> AddResult:
    """The Add step: one point per city tile (nothing in the turn after Banking), Trade +1 and Banking +5 per city
    in the selected turn, Globalization +12."""
    cities = len(city_tiles)
    return AddResult(
        tiles=0 if dry else sum(city_tiles),
        trade=TRADE_PER_CITY * cities if trade and not dry else 0,
        banking=BANKING_PER_CITY * cities if banking and not dry else 0,
        globalization=GLOBALIZATION_POINTS if globalization else 0,
    )


def grew_four_to_seven(start: int | None, now: int) -> bool:
    """An Expansion card: a city that began the turn with four tiles ends it with seven."""
    return start == START_CITY and now == MAX_CITY


def winning_card(cards: Mapping[str, int], tiles: int, expansion_tiles: int) -> Card | None:
    """Seven cards of one kind win; Expansion only while controlling ``expansion_tiles`` city tiles or more."""
    for kind in Card:
        if cards.get(kind.value, 0) >= CARDS_TO_WIN:
            if kind is Card.EXPANSION and tiles < expansion_tiles:
                continue
            return kind
    return None


def technology_win(held: Sequence[str] | set[str]) -> bool:
    return has_all_final(set(held))
