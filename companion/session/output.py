"""What a session shows and reports: the frame, the clock in it, the LEDs, the journal status and summary line, the
state JSON (the web view and `companion play` print it) and the export."""
from __future__ import annotations

from typing import Any

from PIL import Image

from companion.session.core import SessionCore
from companion.session.timekeeper import draw_time, time_width
from companion.ui.draw import new_frame, title_bar
from companion.ui.widgets import draw_announcement, draw_lines, draw_toast


WOKEN = "Screen back: that press did nothing else"  #: the toast after a press that only woke the screen


class SessionOutput(SessionCore):
    """Part of :class:`companion.session.Session`."""

    def woken(self) -> bool:
        """A press only woke the screen (from the glance view, dimmed or dark): say so, unless a message is up."""
        if self.toast:
            return False
        self.toast, self.toast_sticky = WOKEN, False
        return True

    def private_screen(self) -> bool:
        """The OLED shows an open secret ballot (no menu over it): for the voter's eyes only, never mirrored."""
        return not self.overlays and self.screen.is_private()

    def render(self) -> Image.Image:
        img, d = new_frame()
        if self.overlays:
            top = self.overlays[-1]
            title_bar(d, top.title)
            if top.kind == "end":
                draw_lines(d, 11, ("End this game for good?", "To play on later, use", "Leave: resume later.")
                           if self.pass4 else ("End this game?", "It stays in the saved", "games list."), 3)
            elif top.kind.startswith("act:"):
                draw_lines(d, 11, (top.title, "Undo takes it back."), 3)
            top.widget.draw(d, 11)
        else:
            self._draw_clock(d)
        if self.toast:
            if self.toast_sticky:
                draw_announcement(img, d, self.toast, self.toast_more, bool(self.overlays) or self.prompt().board is None)
            else:
                draw_toast(d, self.toast)
        return img

    def _draw_clock(self, d: Any) -> None:
        tk = self.timekeeper
        rows = tk.rows(self.names, self._now) if tk is not None and self.game is not None else []
        if hasattr(self.screen, "set_clock"):  # a board screen: the clocks and the move just made in its text half
            self.screen.set_clock(rows, tk is not None and tk.clock.paused)
            self.screen.last_move = self._last_move()  # type: ignore[attr-defined]
        self.screen.draw(d)
        if not rows or hasattr(self.screen, "set_clock"):
            return
        running = [r for r in rows if r[2]]
        if running:  # other screens: the running seat's time at the right of the title bar
            text = running[0][1]
            w = time_width(text)
            d.rectangle((127 - w - 3, 0, 127, 10), fill=1)
            draw_time(d, 126, 0, text, fill=0)

    def _last_move(self) -> str:
        """The move just made by another player ("Ana: Nb1c3"), for the one who must answer it."""
        if not self.undo_stack or self.game is None:
            return ""
        group = self.undo_stack[-1][1]
        value = group.answers[0][0] if group.answers else None
        p = self.prompt()
        if group.player is None or group.player == p.player or not isinstance(value, str) or value in p.lines \
                or not any(c.isdigit() for c in value):
            return ""  # a move names a square; the opening's own lines name the first move already
        return f"{self._who(group.player)}: {value}"

    def clock_shown(self) -> str | None:
        """The running seat's time as the screen shows it (``clock paused`` while paused), or None without a clock."""
        tk = self.timekeeper
        if tk is None or self.game is None or self._game_over:
            return None
        if tk.clock.paused:
            return "clock paused"
        running = [shown for _name, shown, on in tk.rows(self.names, self._now) if on]
        return running[0] if running else None

    def clocks_shown(self) -> dict[str, str]:
        """Every seat's time as the companion shows it (``{"1": "10:00", "2": "3x0:28"}``; byo-yomi's periods apart
        from its main time, as the seconds in the state JSON's ``clocks`` are not), {} without a clock."""
        tk = self.timekeeper
        if tk is None or self.game is None:
            return {}
        t = self._now if self._now is not None else 0.0
        return {str(seat): tk.clock.shown(seat, t) for seat in sorted(tk.clock.left)}

    def clock_warning(self, now: float) -> int | None:
        """The running seat when it is in its last seconds (the app flashes its LED fast), else None."""
        tk = self.timekeeper
        if tk is None or self._game_over or not tk.clock.warning(now):
            return None
        return tk.clock.running

    def alerts(self) -> tuple[int, ...]:
        """Seats whose LED flashes fast as a warning (the game's :meth:`~fsm.base.GameMachine.alert_seats`)."""
        if self.game is None or self._game_over:
            return ()
        return tuple(self.game.alert_seats())

    def leds(self) -> tuple[int | None, bool]:
        """(the lit seat, whether it blinks because the companion waits for that player)."""
        p = self.prompt()
        if self.game is None:
            return None, False
        if p.player is not None and not self._game_over:
            return p.player, True
        return self.game.active_seat(), False

    @property
    def status(self) -> str:
        """The journal's status for this game: "ended" (from the menu), "finished" (game over), "hidden" (left by
        BACK before it began: kept in the journal, not offered to Resume) or "active"."""
        if self.left:
            return "hidden"
        if self.ended:
            return "ended"
        return "finished" if self.game is not None and self.game.is_over else "active"

    def summary(self) -> str:
        if self.game is None:
            return f"{self.game_cls.name}: setting up"
        g = self.game
        if g.is_over:
            w = g.winner_seat()
            return f"{g.name}: over" + (f", {g.player_name(w)} won" if w is not None else "")
        seat = g.active_seat()
        who = f", {g.player_name(seat)}'s turn" if seat else ""
        return f"{g.name}: round {g.data.get('round')}{who}; " + ", ".join(self.names)

    def state_json(self) -> dict[str, Any]:
        if self.game is None:
            names = self.names
            out: dict[str, Any] = {"game": self.game_cls.game_id, "state": "setup", "round": None,
                                   "active_player": None,
                                   "players": [{"name": n, "seat": i + 1} for i, n in enumerate(names)],
                                   "winner": None}
        else:
            out = self.game.state_json()
            if self.timekeeper is not None:
                out["clocks"] = self.timekeeper.clock.seconds_left(self._now if self._now is not None else 0.0)
        out["journal_entries"] = self.n_inputs
        out["ended"] = self.ended
        return out

    def export(self) -> dict[str, Any]:
        return {"game": self.game_cls.game_id, "name": self.game_cls.name,
                "players": [{"name": n, "seat": i + 1} for i, n in enumerate(self.names)],
                "actions": [{**a, "answer": "(secret)"} if a.get("secret") else a for a in self.action_log],
                "dice": self.dice_history,
                "log": list(self.game.data.get("log", [])) if self.game is not None else [],
                "outcome": self.state_json(),
                **({"record": self.game.record()} if self.game is not None and hasattr(self.game, "record") else {})}
