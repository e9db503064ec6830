"""The OLED's screens for the phones: "Pair a phone" (the web view's address as a QR code, the six-digit PIN, the
address as text) and a phone's seat request.

Opened from the home menu, Settings or the game menu's Phones; any key closes the PIN. They are not part of any game,
so their keys are not journaled. Needs no web library (segno draws the QR code).
"""
from __future__ import annotations

from typing import Any, Sequence

from PIL import Image, ImageDraw

from companion.ui.draw import HEIGHT, WIDTH, fit, font, new_frame, text_row, title_bar
from companion.web.pairing import GRACE_S


def qr_image(text: str, max_px: int = HEIGHT) -> Image.Image:
    """``text`` as a QR code (1 = dark), each module as large a square as fits ``max_px``, with a 1-module border."""
    import segno

    qr = segno.make(text, error="l", boost_error=False, micro=False)
    rows = [list(r) for r in qr.matrix_iter(scale=1, border=1)]
    n = len(rows)
    scale = max(1, max_px // n)
    # the OLED lights set pixels: light background, dark modules, as scanners expect
    img = Image.new("1", (n * scale, n * scale), 1)
    d = ImageDraw.Draw(img)
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                d.rectangle((x * scale, y * scale, x * scale + scale - 1, y * scale + scale - 1), fill=0)
    return img


def _host_lines(url: str, width: int, size: int) -> list[str]:
    """The address as lines that fit ``width``: the host split after a dot (or a colon) where needed, then the port."""
    rest = url.split("://", 1)[-1].rstrip("/")
    host, _, port = rest.rpartition(":")
    if not host:
        host, port = rest, ""
    lines: list[str] = []
    line = ""
    for part in host.replace(".", ".\0").replace(":", ":\0").split("\0"):
        if line and font(size).getlength(line + part) > width:
            lines.append(line)
            line = ""
        line += part
    lines.append(line)
    return lines + ([f"port {port}"] if port else [])


def pair_frame(url: str, pin: str, note: str = "") -> Image.Image:
    """The QR code on the left; PIN and address on the right (or ``note`` in the address's place: what a request
    answered over this screen gave; the QR code still holds the address)."""
    img, d = new_frame()
    qr = qr_image(url)
    img.paste(qr, (0, (HEIGHT - qr.height) // 2))
    x = qr.width + 3
    width = WIDTH - x - 1
    d.text((x, 0), "PIN", font=font(10), fill=1)
    d.text((x, 11), f"{pin[:3]} {pin[3:]}", font=font(14), fill=1)
    y = 30
    for line in (_wrap(note, width, 9)[:2] if note else _host_lines(url, width, 9)[:3]):
        d.text((x, y), fit(line, width, 9), font=font(9), fill=1)
        y += 10
    if y <= 54:
        d.text((x, 54), fit("any key: back", width, 8), font=font(8), fill=1)
    return img


def _wrap(text: str, width: int, size: int = 10) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and font(size).getlength(lines[-1] + " " + word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def web_off_frame(reason: str) -> Image.Image:
    img, d = new_frame()
    title_bar(d, "Pair a phone")
    lines = ["The web view is off.", *_wrap(reason, WIDTH - 4)[:2], "Any key: back"]
    for i, line in enumerate(lines):
        text_row(d, 14 + i * 12, line)
    return img


def cover_frame(title: str, lines: Sequence[str]) -> Image.Image:
    """What the web view mirrors while the OLED shows something for the table's eyes only (the PIN, an open secret
    ballot): a title and a few lines saying what is going on, nothing of the secret."""
    img, d = new_frame()
    title_bar(d, title)
    for i, line in enumerate(lines[:4]):
        text_row(d, 14 + i * 12, line)
    return img


def mirror_frame(voter: str | None, frame: Image.Image) -> Image.Image:
    """The OLED frame as the page may show it: covered while a secret ballot is open on the device (its cursor would
    give the vote away). The screens for one person's eyes over the game (the PIN, the Phones menu) are never in
    ``frame``: the loop mirrors the screen under them, so nothing public says when one is open."""
    if voter is not None:
        return cover_frame("Secret vote", (voter, "is voting in secret", "on the companion."))
    return frame


class PairScreen:
    """Shown over whatever is on the OLED until a key is pressed. Never mirrored (``private``): the page shows the
    screen under it, so watchers cannot tell a PIN is up."""

    private = True

    def __init__(self, url: str | None, pin: str | None, reason: str = "", under: Any = None) -> None:
        self.url, self.pin, self.reason = url, pin, reason
        self.under = under  #: the screen it was opened from (the Phones menu), shown again when it closes
        self.note = ""  #: what a request answered over it gave ("Phone K7QX: seat 2"), until it closes

    def render(self) -> Image.Image:
        if self.url is None or self.pin is None:
            return web_off_frame(self.reason or "Set [web] enabled = true")
        return pair_frame(self.url, self.pin, self.note)


class SeatRequestScreen:
    """A phone asks for a seat (or host rights): OK gives it, any other key says no. Not a game input. It comes
    first, over the PIN or the Phones menu (``under``, shown again once it is answered). A key within
    :data:`GRACE_S` of it appearing was meant for the screen before: it does nothing but say "Read the request
    first", and the request stays."""

    private = False

    def __init__(self, key: str, code: str, what: str, held_by: str | None, shown: float = 0.0,
                 asked: int | None = None, under: Any = None) -> None:
        self.key, self.code, self.what, self.held_by = key, code, what, held_by
        self.asked = asked  #: the seat (HOST: host rights) shown: OK gives that, never a request made since
        self.shown = shown  #: when it appeared (a key within GRACE_S of it only says "Read the request first")
        self.under = under
        self.note = ""  #: "Read the request first" after a key pressed too soon

    def too_soon(self, now: float) -> bool:
        return now - self.shown < GRACE_S

    def render(self) -> Image.Image:
        lines = [f"Phone {self.code} asks", f"for {self.what}."]
        lines.append(self.note or (f"(now phone {self.held_by})" if self.held_by else ""))
        return cover_frame("Seat request", (*[ln for ln in lines if ln], "OK: yes  other: no"))


__all__ = ["PairScreen", "SeatRequestScreen", "pair_frame", "qr_image", "cover_frame", "mirror_frame", "GRACE_S"]
