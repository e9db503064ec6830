"""What the web view shows, as one immutable value built by the main loop after each input or frame change.

The web server never touches a game, a session or the journal: it only reads the latest :class:`Snapshot`. Building
one is the main loop's job (:class:`SnapshotBuilder`), so every snapshot is a consistent picture of one moment.
Nothing secret goes into :attr:`Snapshot.public`: a secret ballot's form is kept apart in :attr:`Snapshot.ballot`,
for the phone that holds the voter's seat; while the game keeps something sealed (Society's orders before the turn
is processed: the game's ``sealed()``), :attr:`Snapshot.public` stays exactly as it was when the seal began and only
:attr:`Snapshot.host` (the host phone's view) follows the game. Public and host views count their own versions, so
not even a version number moves in public while a secret changes. ``notices`` (the app's one-line notices: a file
set aside at start, a missing panel) are in both views, sealed or not: they never depend on a secret.
"""
from __future__ import annotations

import base64
import io
import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PIL import Image

from fsm.prompts import (Choice, Confirm, Dice, Info, MultiSelect, Number, Option, Prompt, Random, SecretVote)

if TYPE_CHECKING:
    from companion.loop.app import App

LOG_LINES = 200  #: the game log's last lines in a snapshot
DICE_ROWS = 60  #: the dice history's last rows


@dataclass(frozen=True)
class Snapshot:
    version: int  #: grows by one each time the content changes
    public: str  #: JSON text anyone allowed to watch may see
    host: str  #: JSON text for the host phone: the same as ``public`` unless the game keeps something sealed
    prompt_seq: int | None  #: the prompt a phone's answer must name (None: nothing to answer, e.g. the home menu)
    prompt_kind: str | None
    prompt_player: int | None  #: the seat asked, if any
    ballot: str | None  #: JSON of the secret ballot's form, for the phone holding ``prompt_player``'s seat only
    t_input: float  #: time.perf_counter() when the input behind this snapshot was journaled (for `make bench`)


EMPTY = Snapshot(0, "null", "null", None, None, None, None, 0.0)
#: what stays public while a game keeps its turn sealed: the rest (prompt, orders, log, toast, undo) is the host's
SEALED_KEYS = ("screen", "game", "fairness")
SEALED_STATE = ("orders", "entry", "journal_entries")


def _options(opts: tuple[Option, ...]) -> list[dict[str, Any]]:
    return [{"key": o.key, "label": o.label, "enabled": o.enabled, "hint": o.hint, "path": list(o.path),
             "in_menu": o.in_menu} for o in opts]


def prompt_json(p: Prompt, names: list[str], sources: tuple[str, ...]) -> dict[str, Any]:
    """A prompt as the page's form needs it. A secret vote's options are left out (see :func:`ballot_json`)."""
    out: dict[str, Any] = {"title": p.title, "lines": list(p.lines), "player": p.player,
                           "player_name": names[p.player - 1] if p.player and p.player <= len(names) else None}
    if isinstance(p, Choice):
        out.update(kind="choice", options=_options(p.options), back=p.back, default=p.default, text=p.text)
    elif isinstance(p, Number):
        out.update(kind="number", lo=p.lo, hi=p.hi, default=p.default, step=p.step, unit=p.unit)
    elif isinstance(p, Confirm):
        out.update(kind="confirm", default=p.default, yes=p.yes, no=p.no)
    elif isinstance(p, MultiSelect):
        out.update(kind="multi", options=_options(p.options), min_count=p.min_count, max_count=p.max_count,
                   preselected=list(p.preselected))
    elif isinstance(p, SecretVote):
        out.update(kind="secret_vote", voter_name=p.voter_name, lines=[])
    elif isinstance(p, Dice):
        out.update(kind="dice", die=p.die, count=p.count, sides=p.sides, purpose=p.purpose,
                   sources=[s for s in sources if s in ("typed", "rng")])
    elif isinstance(p, Info):
        out.update(kind="info")
    elif isinstance(p, Random):
        out.update(kind="random")
    return out


def ballot_json(p: SecretVote) -> dict[str, Any]:
    return {"title": p.title, "lines": list(p.lines), "voter_name": p.voter_name, "options": _options(p.options)}


def frame_png(img: Image.Image) -> str:
    """The OLED frame as a data: URL (about 400 bytes), so the page can mirror the device's screen."""
    buf = io.BytesIO()
    img.convert("1").save(buf, "PNG", optimize=False)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


class SnapshotBuilder:
    """Builds snapshots on the main loop's thread; keeps the version counter and skips unchanged content."""

    def __init__(self) -> None:
        self.version = 0
        self._last_body = ""
        self._versions = {"public": 0, "host": 0}
        self._texts = {"public": "", "host": ""}
        self._seal: tuple[Any, ...] | None = None
        self._sealed_body: dict[str, Any] = {}
        self._fair_key: tuple[Any, ...] | None = None
        self._fairness: list[dict[str, Any]] = []

    def build(self, app: "App", frame: Image.Image | None, t_input: float | None = None) -> Snapshot | None:
        """The table as it is now, or None if nothing the page shows has changed."""
        s = app.session
        if frame is not None:
            from companion.web.screen import mirror_frame

            voter = None
            if s is not None and s.private_screen():
                p0 = s.prompt()
                voter = getattr(p0, "voter_name", None) or (s.names[p0.player - 1] if p0.player else "A player")
            frame = mirror_frame(voter, frame)  # the loop passes what is under a screen for one person's eyes
        body: dict[str, Any] = {"oled": frame_png(frame) if frame is not None else None,
                                "fairness": self._fairness_of(app), "notices": list(getattr(app, "notices", ()))}
        ballot: dict[str, Any] | None = None
        seq = kind = player = None
        if s is None:
            body.update(screen="home", toast=app.home.toast)
        else:
            p = s.prompt()
            names = s.names
            pj = prompt_json(p, names, s.sources)
            over = s.game is not None and s.game.is_over
            seq, kind, player = (None if over else s.prompt_seq), pj["kind"], p.player
            pj["seq"] = seq
            if isinstance(p, SecretVote):
                ballot = ballot_json(p)
            g = s.game
            state = s.state_json()
            extras = getattr(app, "page_extras", None)
            if callable(extras):  # what the page draws that only the game's rules know (the chess board)
                body.update(extras(state, p))
            columns = getattr(g, "column_names", None)  # a TOML game's counters by the names its file gives them
            body["columns"] = columns() if callable(columns) else {}
            report = getattr(g, "report", None)
            if callable(report):  # a game master's turn report (Society), ready to copy into the forum
                body["report"] = {"markdown": report("markdown"), "bbcode": report("bbcode")}
            body.update(screen="game", game={"id": s.game_cls.game_id, "name": s.game_cls.name,
                                             "record": app.record.id if app.record is not None else None},
                        summary=s.summary(), state=state, clocks_shown=s.clocks_shown(), prompt=pj, toast=s.toast,
                        menu_open=bool(s.overlays), over=over,
                        views=[{"title": v.title, "lines": list(v.lines)} for v in g.views()] if g else [],
                        log=list(g.data.get("log", []))[-LOG_LINES:] if g else [],
                        dice=[{**d, "player_name": names[d["player"] - 1] if d["player"] else None}
                              for d in s.dice_history[-DICE_ROWS:]],
                        undo=bool(s.undo_stack), redo=bool(s.redo_stack))
        host = json.dumps(body, separators=(",", ":"), default=str)
        sealed = getattr(s.game, "sealed", None) if s is not None else None
        line = sealed() if callable(sealed) else None
        public = host if line is None else json.dumps({**self._sealed(app, body, line), "notices": body["notices"]},
                                                      separators=(",", ":"), default=str)
        ballot_text = json.dumps(ballot, separators=(",", ":")) if ballot else None
        if host + public + (ballot_text or "") == self._last_body:
            return None
        self._last_body = host + public + (ballot_text or "")
        self.version += 1
        return Snapshot(self.version, self._versioned("public", public), self._versioned("host", host), seq, kind,
                        player, ballot_text, t_input if t_input is not None else time.perf_counter())

    def _versioned(self, which: str, text: str) -> str:
        if text != self._texts[which]:
            self._texts[which] = text
            self._versions[which] += 1
        return text[:-1] + f',"version":{self._versions[which]}}}'

    def _sealed(self, app: "App", body: dict[str, Any], line: str) -> dict[str, Any]:
        """The public view while the game keeps its turn sealed: taken once when the seal begins and then left
        exactly as it is, so nothing public (content, size, version, an update event) moves with a hidden order."""
        key = (app.record.id if app.record else None, line)
        if key != self._seal:
            self._seal = key
            from companion.web.screen import cover_frame

            out = {k: body[k] for k in SEALED_KEYS if k in body}
            state = dict(body.get("state") or {})
            out["state"] = {k: v for k, v in state.items() if k not in SEALED_STATE}
            out["sealed"] = line
            out["oled"] = frame_png(cover_frame("Sealed", _lines(line)))
            out["prompt"] = {"title": "Sealed", "lines": [line], "kind": "info", "player": None,
                             "player_name": None, "seq": None}
            self._sealed_body = out
        return self._sealed_body

    def _fairness_of(self, app: "App") -> list[dict[str, Any]]:
        s = app.session
        key = (app.record.id if app.record else None, len(s.dice_history) if s else -1, app.stats.inputs if s is None
               else 0)
        if key != self._fair_key:
            self._fair_key = key
            self._fairness = fairness_json(app)
        return self._fairness


def _lines(text: str, width: int = 20) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width)[:4]


def fairness_json(app: "App") -> list[dict[str, Any]]:
    from companion.records.fairness import ENOUGH_ROLLS, assess, in_words

    out = []
    for (roller, die), values in sorted(app.journal.physical_rolls().items()):
        try:
            r = assess(values, die)
        except ValueError:
            continue
        out.append({"roller": roller, "die": die, "n": r.n, "counts": list(r.counts), "p_value": round(r.p_value, 4),
                    "bayes_factor": float(f"{r.bayes_factor:.3g}"), "flagged": r.flagged, "words": in_words(r),
                    "verdict": "suspect" if r.flagged else ("fair so far" if r.n >= ENOUGH_ROLLS else "too few rolls")})
    return out


__all__ = ["Snapshot", "SnapshotBuilder", "prompt_json", "ballot_json", "EMPTY"]
