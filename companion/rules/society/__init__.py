"""Society (a forum-played civilisation game run by a game master): the tech chart, the wonders, the governments,
every formula the GM computes (capture, casualties, tax, trade, tech price, city cost, two-way attacks), the map
geometry and the turn resolution. Pure functions and data; imports nothing from hw/ or fsm/."""
from __future__ import annotations

from companion.rules.society.data import GOVERNMENTS, TECH_NAMES, WONDERS, Government, Wonder, tech_base_cost, tech_name
from companion.rules.society.formulas import (Readings, army_support, capture, casualties, city_cost, nascar_payout, tax, tech_cost,
                       trade_cost, trade_payout, two_way, wonder_base_cost)

__all__ = ["GOVERNMENTS", "TECH_NAMES", "WONDERS", "Government", "Wonder", "tech_base_cost", "tech_name", "Readings",
           "army_support", "capture", "casualties", "city_cost", "nascar_payout", "tax", "tech_cost", "trade_cost",
           "trade_payout", "two_way", "wonder_base_cost"]
