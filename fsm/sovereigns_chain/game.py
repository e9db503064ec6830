"""Sovereign's Chain — the table's bookkeeping: chains, tokens, the event, the reveal, scoring, sudden death, matches
and solitaire (one player). The cards stay physical; the companion records where they went."""
from __future__ import annotations

import logging
from typing import Any

from companion.rules.sovereigns_chain import MAX_PLAYERS, LastCard, TokenKind
from companion.rules.sovereigns_chain import chain as ch
from companion.rules.sovereigns_chain import solitaire, tokens

from fsm.base import OptionSpec, SeatResult, and_list
from fsm.prompts import Prompt, View, validate_answer
from fsm.screen_text import plural, squeeze, wrap
from fsm.sovereigns_chain.common import fit
from fsm.sovereigns_chain.effects import EffectsPhase
from fsm.sovereigns_chain.finish import FinishPhase
from fsm.sovereigns_chain.reveal import RevealPhase
from fsm.sovereigns_chain.scoring import ScoringPhase
from fsm.sovereigns_chain.setup import SetupPhase
from fsm.sovereigns_chain.solo import SoloPhase
from fsm.sovereigns_chain.turns import TurnPhase

log = logging.getLogger(__name__)


class SovereignsChainGame(SetupPhase, TurnPhase, EffectsPhase, RevealPhase, ScoringPhase, SoloPhase, FinishPhase):
    game_id = "sovereigns-chain"
    name = "Sovereign's Chain"
    description = "chains, tokens, reveal, scoring and sudden death, matches; 1 player = solitaire"
    min_players = 1
    max_players = MAX_PLAYERS
    default_players = 2

    STATES = ("setup", "deal", "turn", "reveal", "scoring", "sudden_death", "game_end", "game_over")
    TRANSITIONS = (
        {"trigger": "draw_event", "source": ["setup", "game_end"], "dest": "deal"},
        {"trigger": "begin_turns", "source": ["setup", "deal", "game_end"], "dest": "turn"},
        {"trigger": "chain_of_seven", "source": "turn", "dest": "reveal"},
        {"trigger": "score_chains", "source": ["reveal", "sudden_death"], "dest": "scoring"},
        {"trigger": "tie", "source": "scoring", "dest": "sudden_death"},
        {"trigger": "result", "source": ["turn", "scoring", "sudden_death"], "dest": "game_end"},
        {"trigger": "new_board", "source": "game_end", "dest": "setup"},
        {"trigger": "end_match", "source": "game_end", "dest": "game_over"},
    )
    INITIAL = "setup"
    FINAL = ("game_over",)
    OPTIONS = {
        "fair_winds": OptionSpec(False, "play without Event cards: the companion never asks about events "
                                        "(asked at setup with this default)"),
        "match_games": OptionSpec(1, "games in a match (asked at setup with this default)", lo=1, hi=9),
        "score_entry": OptionSpec("ask", "how chains are scored: ask each player, card by card, or the two totals",
                                  choices=("ask", "cards", "totals")),
        "last_card": OptionSpec(LastCard.AFTER_SCORING.value,
                                "sudden death: a player who plays their last card loses only if the re-score "
                                "leaves the tie standing (after_scoring) or at once (immediately)",
                                choices=tuple(x.value for x in LastCard)),
        "enforce_shields": OptionSpec(True, "refuse abilities (remove, flip, cover, tokens) aimed at a shielded card"),
        "event_names": OptionSpec("", "comma-separated event names, numbered in that order (empty: Event 1..15)"),
    }

    # ----------------------------------------------------------------- prompt / answer
    def prompt(self) -> Prompt:
        return self.step_prompt()  # whole text: the OLED fits the title and wraps the lines, the phone shows them

    def answer(self, value: Any) -> None:
        validate_answer(self.prompt(), value)
        snap = self.snapshot()
        try:
            self.step_answer(value)
        except Exception:
            self.restore(snap)
            raise

    # ----------------------------------------------------------------- the end
    scored = True  #: the score: chain scores (|stars - planets|) summed over the match's games

    def match_score(self, seat: int) -> int | None:
        at = self.story().get("scores", {}).get("at", {})
        got = [int(row[str(seat)]) for row in at.values() if row.get(str(seat)) is not None]
        return sum(got) if got else None

    def results(self) -> list[SeatResult]:
        """Winners by the match (most games won; one game: its winner), then games won, then the summed score."""
        won = set(self.winner_seats())
        out = []
        for s in self.seats:
            score = None if self.solo else self.match_score(s)
            wins = int(self.data["match_wins"][str(s)])
            out.append(SeatResult(s, s in won, score, (1.0 if s in won else 0.0, float(wins), float(score or 0))))
        return out

    def outcome(self) -> tuple[str, str]:
        d = self.data
        if not self.is_over:
            return super().outcome()
        if self.solo:
            return (f"{d['match_wins']['1']} of {d['game_no']} solitaire games won",
                    "one suit in the chain" if d["result"] == "won" else "no legal play left")
        won = self.winner_seats()
        names = and_list([self.player_name(s) for s in won]) if won else "Nobody"
        if d["game_no"] == 1:
            sc = d["scores"]
            top = sorted(((int(v["score"]), int(k)) for k, v in sc.items()), reverse=True)
            result = f"{names} {'wins' if len(won) == 1 else 'share the win'}" + (
                f" with {top[0][0]}" if top else "")
            rest = [f"{self.player_name(k)} {v}" for v, k in top[1:]]
            decider = ("after sudden death; " if d["sd"] else "") + ("scores: " + ", ".join(rest) if rest else "")
            return result, decider.strip("; ") or "chain of seven"
        wins = ", ".join(f"{self.player_name(s)} {d['match_wins'][str(s)]}" for s in self.seats)
        return f"{names} {'wins' if len(won) == 1 else 'share'} the match", f"games won over {d['game_no']}: {wins}"

    # ----------------------------------------------------------------- state JSON
    def player_json(self, seat: int) -> dict[str, Any]:
        c = self.chain(seat)
        sc = self.data["scores"].get(str(seat))
        out: dict[str, Any] = {
            "chain_length": ch.length(c),
            "facedown": ch.facedown(c),
            "covered": ch.covered(c),
            "score": sc["score"] if sc else None,
            "star": sc["star"] if sc else None,
            "planet": sc["planet"] if sc else None,
            "held": dict(self.pool(seat)),
            "wins": self.data["match_wins"][str(seat)],
        }
        if self.solo:
            out["positions"] = [solitaire.position_code(st) for st in c]
        return out

    def extra_json(self) -> dict[str, Any]:
        d = self.data
        left = self.supply()
        sd = d["sd"]
        return {
            "mode": "solitaire" if self.solo else "chain",
            "dealer": d["dealer"],
            "dealer_name": self.player_name(d["dealer"]) if d["dealer"] else None,
            "first_player": d["first"],
            "match_wins": {self.player_name(s): d["match_wins"][str(s)] for s in self.seats},
            "winners": [self.player_name(s) for s in d["winners"]],
            "winner_name": self.player_name(d["winner"]) if d["winner"] else None,
            "game_number": d["game_no"],
            "match_games": d["match_games"],
            "game_winners": [list(w) for w in d["game_winners"]],
            "fair_winds": d["fair_winds"],
            "event": None if d["fair_winds"] else self.event_label(),
            "supply": {k.value: n for k, n in left.items()},
            "out_of_tokens": [k.value for k in tokens.out_of(left)],
            "first_to_seven": d["first_to_seven"],
            "sudden_death": None if sd is None else {"pass": sd["pass"], "contenders": list(sd["contenders"]),
                                                     "out": list(sd["out"])},
            "result": d["result"],
        }

    # ----------------------------------------------------------------- game menu
    def views(self) -> list[View]:
        d = self.data
        chains = []
        for s in self.seats:
            c = self.chain(s)
            held = self.pool(s)
            chains.append(squeeze(f"{{}}: {ch.length(c)} in play, {ch.facedown(c)} down", self.nm(s)))
            if held["shield"] or held["modifier"]:
                chains += wrap(f"  holds {plural(held['shield'], 'shield')}, {plural(held['modifier'], 'modifier')}",
                               indent="  ")
        pages = [View("Board" if self.solo else "Chains", tuple(chains))]
        if self.solo:
            b = [solitaire.position_code(st) for st in self.chain(1)]
            pages.append(View("Positions", (" ".join(b[:4]), " ".join(b[4:]), "S star P planet",
                                            "- no suit ?? down", ".. gap")))
        left = self.supply()
        pages.append(View("Tokens", (f"Shields {left[TokenKind.SHIELD]} of 13",
                                     f"Modifiers {left[TokenKind.MODIFIER]} of 21",
                                     f"Suits {left[TokenKind.SUIT]} of 21", *wrap(self.supply_line()))))
        if self.events_on:
            pages.append(View("Event", (fit(self.event_label() or "not recorded"),)))
        if not self.solo:
            match_lines = [f"Game {d['game_no']} of {d['match_games']}"]
            if d["dealer"]:
                match_lines.append(fit(f"Dealer {self.player_name(d['dealer'])}"))
            match_lines += wrap(self.wins_line(), indent="  ")
            pages.append(View("Match", tuple(match_lines)))
        if d["scores"]:
            pages.append(View("Scores", tuple(
                squeeze(f"{{}} {v['star']}-{v['planet']}={v['score']}", self.nm(s)) for s in self.seats
                if (v := d["scores"].get(str(s))))))
        return pages
