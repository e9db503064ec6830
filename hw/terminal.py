"""The simulator: the OLED frame, LEDs and keys in a terminal.

:func:`render_halfblocks` draws the exact 128x64 frame as 128 columns x 32 rows of ``▀ ▄ █`` and spaces (two pixels
per character, one above the other); :func:`render_braille` as 64 x 16 braille characters (2 x 4 pixels each) for
terminals narrower than :data:`HALFBLOCK_MIN_COLUMNS`. Every OLED pixel is shown, nothing is approximated: the tests
decode the characters back into pixels. Both are pure and quick (byte slicing and ``translate``, no per-pixel loop).

:class:`TerminalScreen` redraws in place (cursor addressing, only rows that changed, one write per frame) in the
alternate screen, with the LEDs as coloured markers beside or under the frame, a status line and the key help.
:class:`KeyReader` is the keyboard thread: it puts the terminal in cbreak mode (no echo, no line buffering, Ctrl-C
delivered as a key) and turns keys into events; :meth:`KeyReader.stop` restores the terminal.
"""
from __future__ import annotations

import logging
import os
import select
import shutil
import signal
import sys
import termios
import threading
import time
import tty
from typing import IO, Any, Callable

from PIL import Image

from companion.events import Event, Key, KeyEvent, QuitEvent

from hw.leds import LedSnapshot

log = logging.getLogger(__name__)

KEY_HELP = "↑↓ move  ⏎ ok  ⌫/esc back  h hold  r roll  q quit"
HALFBLOCK_MIN_COLUMNS = 132  #: narrower than this, "auto" draws braille
HALFBLOCK_MIN_LINES = 37  #: 34 rows of framed picture, an LED row, status and help
MODES = ("auto", "halfblock", "braille")

HALF_BLOCKS = " ▀▄█"  #: index: 1 = top pixel lit, 2 = bottom pixel lit
#: braille dot bit for the pixel at (dx, dy) of a 2x4 cell (Unicode braille patterns start at U+2800)
BRAILLE_DOTS = {(0, 0): 0x01, (0, 1): 0x02, (0, 2): 0x04, (1, 0): 0x08, (1, 1): 0x10, (1, 2): 0x20,
                (0, 3): 0x40, (1, 3): 0x80}

_ONES = bytes([0] + [1] * 255)  # any lit pixel value -> 1
_HALF_TABLE = {i: HALF_BLOCKS[i] for i in range(4)}
_BRAILLE_TABLE = {i: chr(0x2800 + i) for i in range(256)}


def _lit(image: Image.Image) -> bytes:
    """One byte per pixel, row by row: 1 lit, 0 dark."""
    if image.mode != "1":
        raise ValueError(f"the simulator draws mode '1' frames, not mode {image.mode!r}")
    return image.convert("L").tobytes().translate(_ONES)


def _combine(planes: list[tuple[bytes, int]]) -> bytes:
    """OR together byte planes of 0/1 values, each scaled by its bit: one code per cell."""
    n = len(planes[0][0])
    acc = 0
    for plane, bit in planes:
        acc |= int.from_bytes(plane, "big") * bit
    return acc.to_bytes(n, "big")


def render_halfblocks(image: Image.Image) -> list[str]:
    """The frame as ``height/2`` strings of ``width`` half-block characters."""
    w, h = image.size
    px = _lit(image)
    tops = b"".join(px[y * w:(y + 1) * w] for y in range(0, h, 2))
    bottoms = b"".join(px[y * w:(y + 1) * w] for y in range(1, h, 2))
    text = _combine([(tops, 1), (bottoms, 2)]).decode("latin-1").translate(_HALF_TABLE)
    return [text[i:i + w] for i in range(0, len(text), w)]


def render_braille(image: Image.Image) -> list[str]:
    """The frame as ``height/4`` strings of ``width/2`` braille characters."""
    w, h = image.size
    if w % 2 or h % 4:
        raise ValueError(f"braille needs a width divisible by 2 and a height by 4, not {w}x{h}")
    px = _lit(image)
    planes = []
    for (dx, dy), bit in BRAILLE_DOTS.items():
        plane = b"".join(px[(y + dy) * w + dx:(y + dy + 1) * w:2] for y in range(0, h, 4))
        planes.append((plane, bit))
    text = _combine(planes).decode("latin-1").translate(_BRAILLE_TABLE)
    cols = w // 2
    return [text[i:i + cols] for i in range(0, len(text), cols)]


# -- the screen -----------------------------------------------------------------------------------------------------

_SEAT_COLOURS = ("91", "92", "93", "94", "95", "96", "97", "33")
_GLYPHS = {"off": "○", "on": "●", "blink": "◉", "fast": "◉"}
_RESET = "\x1b[0m"


def led_marker(light: str, colour: str, ansi: bool) -> str:
    """One LED: ○ off, ● on, ◉ blinking (ANSI blink; rapid blink for "fast")."""
    glyph = _GLYPHS[light]
    if not ansi:
        return glyph
    if light == "off":
        return f"\x1b[2m{glyph}{_RESET}"
    blink = {"blink": ";5", "fast": ";5;6"}.get(light, "")
    return f"\x1b[{colour}{blink}m{glyph}{_RESET}"


class TerminalScreen:
    """Draws frames in a terminal. ``mode``: "auto" (half-blocks when the terminal is wide and tall enough, else
    braille), "halfblock" or "braille". ``size`` (columns, lines) overrides the terminal's; ``ansi`` (colours,
    alternate screen) defaults to whether ``out`` is a terminal."""

    def __init__(self, out: IO[str] | None = None, mode: str = "auto", *, size: tuple[int, int] | None = None,
                 ansi: bool | None = None) -> None:
        if mode not in MODES:
            raise ValueError(f"terminal mode {mode!r}: use one of {', '.join(MODES)}")
        self.out = out if out is not None else sys.stdout
        encoding = getattr(self.out, "encoding", None) or "utf-8"
        try:
            (HALF_BLOCKS + "⣿┌─┐│└┘" + "".join(_GLYPHS.values()) + KEY_HELP).encode(encoding)
        except (UnicodeEncodeError, LookupError):
            from companion.errors import HardwareError

            raise HardwareError(f"the simulator draws with Unicode but the terminal's encoding is {encoding}: "
                                f"run it with a UTF-8 locale (e.g. LANG=C.UTF-8)") from None
        self.mode = mode
        self._size = size
        self.ansi = _isatty(self.out) if ansi is None else ansi
        self._rows: list[str] = []  # what the terminal shows now
        self._geometry: tuple[int, int] | None = None
        self._started = False
        self._closed = False
        self._last: tuple[Image.Image, LedSnapshot, str, str] | None = None

    def terminal_size(self) -> tuple[int, int]:
        if self._size is not None:
            return self._size
        try:
            s = os.get_terminal_size(self.out.fileno())
            if s.columns > 0 and s.lines > 0:
                return s.columns, s.lines
        except (OSError, ValueError, AttributeError):
            pass
        # not a terminal, or one that reports no size (a pty nobody sized: `script` without one, some CI runners):
        # $COLUMNS/$LINES, else 80x24, so the status line (the phones' address) is never cut to "…"
        s = shutil.get_terminal_size((80, 24))
        return s.columns, s.lines

    def layout(self, columns: int, lines: int) -> str:
        if self.mode != "auto":
            return self.mode
        return "halfblock" if columns >= HALFBLOCK_MIN_COLUMNS and lines >= HALFBLOCK_MIN_LINES else "braille"

    def compose(self, image: Image.Image, leds: LedSnapshot, status: str, help: str = KEY_HELP,
                *, ansi: bool = False) -> list[str]:
        """The screen as lines (with ANSI colour codes when ``ansi``)."""
        columns, lines = self.terminal_size()
        art = render_halfblocks(image) if self.layout(columns, lines) == "halfblock" else render_braille(image)
        width = len(art[0])
        frame = ["┌" + "─" * width + "┐", *("│" + row + "│" for row in art), "└" + "─" * width + "┘"]
        markers = [(f"P{seat}", led_marker(light, _SEAT_COLOURS[(seat - 1) % len(_SEAT_COLOURS)], ansi))
                   for seat, light in enumerate(leds.players, start=1)]
        markers.append(("roller", led_marker(leds.status, "97", ansi)))
        beside = width + 2 + 11 <= columns and len(markers) <= len(art)
        if beside:  # one LED per row, next to the picture's first rows
            side = ["", *(f"  {m} {label}" for label, m in markers)]
            out = [row + (side[i] if i < len(side) else "") for i, row in enumerate(frame)]
        else:
            out = frame + ["  ".join(f"{label} {m}" for label, m in markers)]
        out.append(_clip(status, columns))
        out.append(_clip(help, columns))
        return out

    @property
    def last_lines(self) -> list[str]:
        """The last screen drawn, as plain lines without ANSI codes (for tests and bug reports)."""
        return [] if self._last is None else self.compose(*self._last, ansi=False)

    def draw(self, image: Image.Image, leds: LedSnapshot, status: str = "", help: str = KEY_HELP) -> None:
        """Show the frame; only rows that differ from what is on the terminal are rewritten."""
        if self._closed:
            return
        geometry = self.terminal_size()
        rows = self.compose(image, leds, status, help, ansi=self.ansi)
        self._last = (image, leds, status, help)
        parts: list[str] = []
        if not self._started:
            self._started = True
            if self.ansi:
                parts.append("\x1b[?1049h\x1b[?25l")  # alternate screen, cursor hidden
        if geometry != self._geometry:
            self._geometry = geometry
            self._rows = []
            parts.append("\x1b[H\x1b[2J")
        for i, row in enumerate(rows):
            if i >= len(self._rows) or self._rows[i] != row:
                parts.append(f"\x1b[{i + 1};1H{row}\x1b[K")
        if len(self._rows) > len(rows):
            parts.append(f"\x1b[{len(rows) + 1};1H\x1b[J")
        self._rows = rows
        if parts:
            self.out.write("".join(parts))
            self.out.flush()

    def close(self) -> None:
        """Give the terminal back: cursor shown, main screen restored. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        if self._started:
            self.out.write("\x1b[?25h\x1b[?1049l" + _RESET if self.ansi else "\n")
            self.out.flush()

    def __enter__(self) -> TerminalScreen:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _clip(text: str, columns: int) -> str:
    return text if len(text) <= columns else text[:max(0, columns - 1)] + "…"


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


# -- the keyboard ---------------------------------------------------------------------------------------------------

ESC_TIMEOUT = 0.05  #: a lone Esc is told from an arrow's escape sequence by this pause
_SIMPLE = {b"\r": Key.OK, b"\n": Key.OK, b"\x7f": Key.BACK, b"\x08": Key.BACK, b"h": Key.HOLD, b"H": Key.HOLD}
_FINALS = {ord("A"): Key.UP, ord("B"): Key.DOWN}


def _raise_sigint() -> None:
    signal.raise_signal(signal.SIGINT)


class KeyReader:
    """Keys to events: arrows → UP/DOWN, Enter → OK, Esc/Backspace → BACK, ``h`` → HOLD, ``r`` → ``on_roll()``,
    ``q`` or Ctrl-C → :class:`QuitEvent`. A second Ctrl-C within two seconds interrupts the process (SIGINT), in case
    the loop is stuck. End of input also quits. Starts at once; :meth:`stop` restores the terminal."""

    def __init__(self, put: Callable[[Event], None], *, on_roll: Callable[[], None] | None = None,
                 stdin: IO[Any] | int | None = None, esc_timeout: float = ESC_TIMEOUT,
                 interrupt: Callable[[], None] = _raise_sigint) -> None:
        self._put = put
        self._on_roll = on_roll
        self._fd = stdin if isinstance(stdin, int) else (stdin if stdin is not None else sys.stdin).fileno()
        self._esc_timeout = esc_timeout
        self._interrupt = interrupt
        self._last_ctrl_c = -1e9
        self._saved: list[Any] | None = None
        self._wake_r, self._wake_w = os.pipe()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="keys", daemon=True)
        self._raw_mode()
        self._thread.start()

    def start(self) -> None:
        """Already started by the constructor; kept so the reader can be used like a thread."""

    def stop(self) -> None:
        """Stop reading and restore the terminal's settings. Safe to call twice."""
        if not self._stopping.is_set():
            self._stopping.set()
            os.write(self._wake_w, b"x")
            if self._thread is not threading.current_thread():
                self._thread.join(timeout=2)
            os.close(self._wake_r)
            os.close(self._wake_w)
        self._restore()

    def __enter__(self) -> KeyReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _raw_mode(self) -> None:
        if not os.isatty(self._fd):
            return
        self._saved = termios.tcgetattr(self._fd)
        tty.setcbreak(self._fd, termios.TCSANOW)
        attrs = termios.tcgetattr(self._fd)
        attrs[3] &= ~termios.ISIG  # Ctrl-C arrives as a key, not as SIGINT
        attrs[0] &= ~termios.IXON  # Ctrl-S does not freeze the output
        termios.tcsetattr(self._fd, termios.TCSANOW, attrs)

    def _restore(self) -> None:
        if self._saved is not None:
            try:
                termios.tcsetattr(self._fd, termios.TCSANOW, self._saved)
            except termios.error as e:  # the terminal went away
                log.debug("restoring the terminal: %s", e)
            self._saved = None

    def _read(self, timeout: float | None) -> bytes | None:
        """Bytes from the keyboard; ``b""`` at end of input, None on timeout or stop."""
        ready, _, _ = select.select([self._fd, self._wake_r], [], [], timeout)
        if self._wake_r in ready or self._fd not in ready:
            return None
        try:
            return os.read(self._fd, 256)
        except OSError:  # a pty whose other end closed
            return b""

    def _run(self) -> None:
        buf = b""
        while not self._stopping.is_set():
            data = self._read(None)
            if data is None:
                continue
            if not data:
                self._put(QuitEvent("end of input"))
                return
            buf = self._parse(buf + data)
            while buf:  # an unfinished escape sequence: wait briefly for the rest
                more = self._read(self._esc_timeout)
                if more:
                    buf = self._parse(buf + more)
                    continue
                buf = self._parse(buf, final=True)
                if more == b"":
                    self._put(QuitEvent("end of input"))
                    return

    def _parse(self, buf: bytes, final: bool = False) -> bytes:
        """Emit events for the complete keys in ``buf``; return what may be the start of an escape sequence."""
        i = 0
        n = len(buf)
        while i < n:
            c = buf[i:i + 1]
            if c == b"\x1b":
                end = _escape_end(buf, i)
                if end is None:  # incomplete
                    if not final:
                        return buf[i:]
                    self._key(Key.BACK)  # a lone Esc (or a sequence that never finished)
                    i += 1
                    continue
                if end == i + 1:  # Esc followed by something that is not a sequence
                    self._key(Key.BACK)
                else:
                    key = _FINALS.get(buf[end - 1]) if buf[i + 1:i + 2] in (b"[", b"O") else None
                    if key is not None:
                        self._key(key)
                    elif buf[i + 1:end] == b"OM":  # keypad Enter
                        self._key(Key.OK)
                i = end
                continue
            if c == b"\r" and buf[i + 1:i + 2] == b"\n":
                i += 1  # CR LF is one Enter
            if c in _SIMPLE:
                self._key(_SIMPLE[c])
            elif c in (b"r", b"R"):
                if self._on_roll is not None:
                    self._on_roll()
            elif c in (b"q", b"Q"):
                self._put(QuitEvent("q"))
            elif c == b"\x03":
                now = time.monotonic()
                if now - self._last_ctrl_c < 2.0:
                    self._interrupt()
                self._last_ctrl_c = now
                self._put(QuitEvent("ctrl-c"))
            i += 1
        return b""

    def _key(self, key: Key) -> None:
        self._put(KeyEvent(key))


def _escape_end(buf: bytes, i: int) -> int | None:
    """Index after the escape sequence starting at ``buf[i]`` (an Esc); ``i + 1`` if the Esc stands alone before
    another key; None if more bytes are needed to tell."""
    if i + 1 >= len(buf):
        return None
    kind = buf[i + 1]
    if kind == ord("["):  # CSI: parameters and intermediates, then a final byte 0x40-0x7E
        j = i + 2
        while j < len(buf):
            if 0x40 <= buf[j] <= 0x7E:
                return j + 1
            if not 0x20 <= buf[j] <= 0x3F:
                return j  # malformed: drop what came so far
            j += 1
        return None
    if kind == ord("O"):  # SS3: one final byte
        return i + 3 if i + 2 < len(buf) else None
    return i + 1


__all__ = ["HALF_BLOCKS", "BRAILLE_DOTS", "KEY_HELP", "KeyReader", "TerminalScreen", "led_marker",
           "render_braille", "render_halfblocks"]
