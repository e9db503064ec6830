"""The end of a game and of a match: the result, wins tallied, the dealer moving one seat left, the summary."""
from __future__ import annotations

from companion.rules.sovereigns_chain import match

from fsm.prompts import Choice, Info, Option, Prompt
from fsm.sovereigns_chain.common import ChainBase


class FinishPhase(ChainBase):

    def end_game(self, winners: list[int]) -> None:
        d = self.data
        self.set_winners(winners)
        if d["scores"]:  # the story: each game's scores (sudden death's re-scores included)
            self.story_point("scores", int(d["game_no"]), {int(s): v["score"] for s, v in d["scores"].items()},
                             by="game")
        d["match_wins"] = match.tally(d["match_wins"], winners)
        d["game_winners"].append(sorted(winners))
        d["active"] = None
        if len(winners) == 1:
            self.note(f"Game {d['game_no']}: {self.player_name(winners[0])} wins")
        else:
            self.note(f"Game {d['game_no']}: shared by " + ", ".join(self.player_name(s) for s in winners))
        self.fire("result")
        self.set_step("game_end")

    def end_solitaire(self, won: bool) -> None:
        self.data["result"] = "won" if won else "lost"
        if won:
            self.end_game([1])
            return
        d = self.data
        self.set_winners([])
        d["game_winners"].append([])
        d["active"] = None
        self.note(f"Solitaire game {d['game_no']} lost: no legal play")
        self.fire("result")
        self.set_step("game_end")

    def set_winners(self, winners: list[int]) -> None:
        """``winner``: the seat when one player won (None when shared or lost); ``winners``: every seat that won."""
        self.data["winners"] = sorted(winners)
        self.data["winner"] = winners[0] if len(winners) == 1 else None

    def result_line(self) -> str:
        w = self.data["winners"]
        if self.solo:
            return "You win: one suit!" if self.data["result"] == "won" else "No legal play: lost"
        if len(w) == 1:
            sc = self.data["scores"].get(str(w[0]))
            return f"{self.player_name(w[0])} wins" + (f" ({sc['score']})" if sc else "")
        return "Shared: " + ", ".join(self.nm(s) for s in w)

    def wins_line(self) -> str:
        return "Wins: " + ", ".join(f"{self.nm(s)} {self.data['match_wins'][str(s)]}" for s in self.seats)

    def scores_line(self) -> str:
        return "Scores: " + ", ".join(f"{self.nm(s)} {self.data['scores'][str(s)]['score']}" for s in self.seats
                                        if str(s) in self.data["scores"])

    def _p_game_end(self) -> Prompt:
        d = self.data
        lines = [self.result_line()]
        if self.solo:
            lines.append(f"Won {d['match_wins']['1']} of {d['game_no']}")
            return Choice(f"Game {d['game_no']} over", tuple(lines),
                          options=(Option("again", "Play again"), Option("finish", "Finish")), default="finish")
        lines += [self.scores_line(), self.wins_line()]
        if d["game_no"] < d["match_games"]:
            nxt = match.next_dealer(d["dealer"], self.n)
            opts: tuple[Option, ...] = (Option("next", f"Next: {self.player_name(nxt)} deals"),)
            default = "next"
        else:
            tied = len(match.match_leaders(d["match_wins"])) > 1 and d["match_games"] > 1
            if tied:
                lines.append("Tied on wins")
            opts = (Option("finish", "End the match"), Option("more", "One more game"))
            default = "more" if tied else "finish"
        return Choice(f"Game {d['game_no']} of {d['match_games']} over", tuple(lines), options=opts,
                      default=default)

    def _a_game_end(self, value: str) -> None:
        d = self.data
        if value == "finish":
            if self.solo:
                self.set_winners([1] if d["result"] == "won" else [])
            else:
                self.set_winners(match.match_leaders(d["match_wins"]))
                self.note("Match over: " + self.wins_line())
            self.fire("end_match")
            self.set_step("over")
            return
        if value == "again":
            d["board"] = []
            self.fire("new_board")
            self.set_step("sol_value")
            return
        if value == "more":
            d["match_games"] += 1
        d["dealer"] = match.next_dealer(d["dealer"], self.n)
        self.begin_game()

    def _p_over(self) -> Prompt:
        d = self.data
        if self.solo:
            return Info("Solitaire over", (f"Won {d['match_wins']['1']} of {d['game_no']} games",))
        w = d["winners"]
        head = f"{self.player_name(w[0])} wins" if len(w) == 1 else "Shared: " + ", ".join(self.nm(s) for s in w)
        return Info("Match over", (head, f"{d['game_no']} games played", *self._wins_lines()))

    def _wins_lines(self) -> list[str]:
        return self.cells([(s, f" {self.data['match_wins'][str(s)]}") for s in self.seats])

    def _a_over(self, value: bool) -> None:
        """The match is over; OK just leaves the summary up."""
