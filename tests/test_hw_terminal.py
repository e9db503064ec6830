"""hw.terminal: the frame decoded back from the characters, the screen, and the key reader over a pty."""
from __future__ import annotations

import io
import os
import pty
import queue
import termios
import time
from typing import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from companion.events import Event, Key, KeyEvent, QuitEvent
from hw.leds import LedSnapshot
from hw.terminal import (BRAILLE_DOTS, HALF_BLOCKS, KEY_HELP, KeyReader, TerminalScreen, render_braille,
                         render_halfblocks)


def decode_halfblocks(rows: list[str]) -> Image.Image:
    img = Image.new("1", (len(rows[0]), 2 * len(rows)))
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            code = HALF_BLOCKS.index(ch)
            if code & 1:
                img.putpixel((x, 2 * y), 1)
            if code & 2:
                img.putpixel((x, 2 * y + 1), 1)
    return img


def decode_braille(rows: list[str]) -> Image.Image:
    img = Image.new("1", (2 * len(rows[0]), 4 * len(rows)))
    for cy, row in enumerate(rows):
        for cx, ch in enumerate(row):
            code = ord(ch) - 0x2800
            assert 0 <= code <= 0xFF
            for (dx, dy), bit in BRAILLE_DOTS.items():
                if code & bit:
                    img.putpixel((2 * cx + dx, 4 * cy + dy), 1)
    return img


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and a.tobytes() == b.tobytes()


def sample() -> Image.Image:
    img = Image.new("1", (128, 64))
    d = ImageDraw.Draw(img)
    d.text((2, 2), "P2: roll d12", fill=1)
    d.rectangle((0, 0, 127, 63), outline=1)
    d.line((0, 63, 127, 0), fill=1)
    return img


def test_halfblocks_shape_and_corners() -> None:
    img = Image.new("1", (128, 64))
    img.putpixel((0, 0), 1)
    img.putpixel((127, 63), 1)
    img.putpixel((5, 2), 1)
    img.putpixel((5, 3), 1)
    rows = render_halfblocks(img)
    assert len(rows) == 32 and all(len(r) == 128 for r in rows)
    assert rows[0][0] == "▀" and rows[31][127] == "▄" and rows[1][5] == "█"
    assert set("".join(rows)) == {" ", "▀", "▄", "█"}


def test_braille_shape_and_corners() -> None:
    img = Image.new("1", (128, 64))
    img.putpixel((0, 0), 1)
    img.putpixel((127, 63), 1)
    rows = render_braille(img)
    assert len(rows) == 16 and all(len(r) == 64 for r in rows)
    assert rows[0][0] == "\u2801" and rows[15][63] == "\u2880" and rows[8][30] == "\u2800"


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=1024, max_size=1024))
def test_halfblocks_round_trip(data: bytes) -> None:
    img = Image.frombytes("1", (128, 64), data)
    assert same(decode_halfblocks(render_halfblocks(img)), img)


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=1024, max_size=1024))
def test_braille_round_trip(data: bytes) -> None:
    img = Image.frombytes("1", (128, 64), data)
    assert same(decode_braille(render_braille(img)), img)


def test_drawn_frame_round_trips_both_ways() -> None:
    img = sample()
    assert same(decode_halfblocks(render_halfblocks(img)), img)
    assert same(decode_braille(render_braille(img)), img)


def test_other_modes_are_refused() -> None:
    with pytest.raises(ValueError, match="mode '1'"):
        render_halfblocks(Image.new("L", (128, 64)))


# -- the screen -------------------------------------------------------------------------------------------------------

LEDS = LedSnapshot(("on", "blink", "off"), "fast")


def frame_rows(lines: list[str]) -> list[str]:
    """The picture rows between the box-drawing borders."""
    start = next(i for i, line in enumerate(lines) if line.startswith("┌"))
    end = next(i for i, line in enumerate(lines) if line.startswith("└"))
    return [line[1:line.index("│", 1)] for line in lines[start + 1:end]]


@pytest.mark.parametrize("size, mode, decode", [((200, 50), "halfblock", decode_halfblocks),
                                                ((131, 50), "braille", decode_braille),
                                                ((200, 30), "braille", decode_braille),
                                                ((80, 24), "braille", decode_braille)])
def test_auto_mode_picks_by_terminal_size(size, mode, decode) -> None:
    screen = TerminalScreen(io.StringIO(), size=size, ansi=False)
    assert screen.layout(*size) == mode
    screen.draw(sample(), LEDS, "roller: error", KEY_HELP)
    assert same(decode(frame_rows(screen.last_lines)), sample())
    assert screen.last_lines[-1] == KEY_HELP[:size[0]] or screen.last_lines[-1].endswith("…")
    assert screen.last_lines[-2] == "roller: error"


def test_a_pty_that_reports_no_size_is_read_as_80x24(monkeypatch: pytest.MonkeyPatch) -> None:
    """`script` with stdin closed (a pty nobody sized) reports 0x0: the status line, the phones' address, was cut to
    a lone "…" under the first frame."""
    import os
    import pty

    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)
    master, slave = pty.openpty()
    try:
        assert os.get_terminal_size(slave) == (0, 0)
        class OnThePty(io.StringIO):  # what is drawn stays here; the size is asked of the pty
            def fileno(self) -> int:
                return slave

        screen = TerminalScreen(OnThePty(), ansi=False)
        assert screen.terminal_size() == (80, 24)
        screen.draw(sample(), LEDS, "phones: http://127.0.0.1:8080/  roller: none")
        assert screen.last_lines[-2] == "phones: http://127.0.0.1:8080/  roller: none"
    finally:
        os.close(master)
        os.close(slave)


def test_leds_beside_or_below() -> None:
    wide = TerminalScreen(io.StringIO(), size=(100, 24), ansi=False)
    wide.draw(sample(), LEDS, "")
    assert "● P1" in wide.last_lines[1] and "◉ P2" in wide.last_lines[2] and "○ P3" in wide.last_lines[3]
    assert "◉ roller" in wide.last_lines[4]
    narrow = TerminalScreen(io.StringIO(), size=(70, 24), ansi=False)
    narrow.draw(sample(), LEDS, "")
    assert narrow.last_lines[18] == "P1 ●  P2 ◉  P3 ○  roller ◉"


def test_ansi_colours_and_blink() -> None:
    out = io.StringIO()
    screen = TerminalScreen(out, size=(100, 24), ansi=True)
    screen.draw(sample(), LEDS, "status")
    text = out.getvalue()
    assert text.startswith("\x1b[?1049h\x1b[?25l")  # alternate screen, cursor hidden
    assert "\x1b[91m●" in text  # P1 on, in its colour
    assert "\x1b[92;5m◉" in text  # P2 blinking
    assert "\x1b[97;5;6m◉" in text  # status fast
    screen.close()
    assert out.getvalue().endswith("\x1b[?25h\x1b[?1049l\x1b[0m")
    screen.close()
    screen.draw(sample(), LEDS, "after close")  # ignored
    assert "after close" not in out.getvalue()


def test_redraw_rewrites_only_changed_rows() -> None:
    out = io.StringIO()
    screen = TerminalScreen(out, size=(100, 24), ansi=False)
    img = sample()
    screen.draw(img, LEDS, "one")
    first = out.getvalue()
    assert first.startswith("\x1b[H\x1b[2J")
    out.seek(0)
    out.truncate()
    screen.draw(img, LEDS, "one")
    assert out.getvalue() == ""  # nothing changed, nothing written
    img2 = img.copy()
    img2.putpixel((40, 40), 0 if img.getpixel((40, 40)) else 1)
    screen.draw(img2, LEDS, "two")
    written = out.getvalue()
    assert "\x1b[2J" not in written  # no clearing, so no flicker
    assert written.count("\x1b[K") == 2  # the picture row with the pixel, and the status line
    assert "\x1b[12;1H" in written  # row 40 is braille row 10, below the top border: terminal line 12


def test_resize_redraws_everything() -> None:
    out = io.StringIO()
    screen = TerminalScreen(out, size=(100, 24), ansi=False)
    screen.draw(sample(), LEDS, "")
    screen._size = (200, 50)
    out.seek(0)
    out.truncate()
    screen.draw(sample(), LEDS, "")
    assert out.getvalue().startswith("\x1b[H\x1b[2J") and "▀" in out.getvalue()


def test_a_terminal_that_cannot_show_unicode_is_one_clear_line() -> None:
    from companion.errors import HardwareError

    latin1 = io.TextIOWrapper(io.BytesIO(), encoding="latin-1")
    with pytest.raises(HardwareError, match="UTF-8"):
        TerminalScreen(latin1)


def test_status_is_clipped_to_the_width() -> None:
    screen = TerminalScreen(io.StringIO(), size=(70, 24), ansi=False)
    screen.draw(sample(), LEDS, "x" * 200)
    assert len(screen.last_lines[-2]) == 70 and screen.last_lines[-2].endswith("…")


# -- the key reader, over a pty -----------------------------------------------------------------------------------------

@pytest.fixture
def tty_pair() -> Iterator[tuple[int, int]]:
    master, slave = pty.openpty()
    yield master, slave
    for fd in (master, slave):
        try:
            os.close(fd)
        except OSError:
            pass


def collect(q: "queue.Queue[Event]", n: int, timeout: float = 2.0) -> list[Event]:
    out = []
    deadline = time.monotonic() + timeout
    while len(out) < n:
        out.append(q.get(timeout=max(0.01, deadline - time.monotonic())))
    return out


def quiet(q: "queue.Queue[Event]", seconds: float = 0.15) -> bool:
    time.sleep(seconds)
    return q.empty()


def test_keys_over_a_pty(tty_pair) -> None:
    master, slave = tty_pair
    q: "queue.Queue[Event]" = queue.Queue()
    rolls: list[int] = []
    with KeyReader(q.put, on_roll=lambda: rolls.append(1), stdin=slave):
        os.write(master, b"\x1b[A\x1b[B\x1bOA\x1bOB")  # arrows, in both encodings
        assert collect(q, 4) == [KeyEvent(Key.UP), KeyEvent(Key.DOWN), KeyEvent(Key.UP), KeyEvent(Key.DOWN)]
        os.write(master, b"\r")
        assert collect(q, 1) == [KeyEvent(Key.OK)]
        os.write(master, b"\x7fh")
        assert collect(q, 2) == [KeyEvent(Key.BACK), KeyEvent(Key.HOLD)]
        os.write(master, b"r")
        assert quiet(q) and rolls == [1]
        os.write(master, b"x\x1b[C\x1b[1;5A")  # unmapped keys, right arrow; Ctrl-Up is still up
        assert collect(q, 1) == [KeyEvent(Key.UP)] and quiet(q)
        os.write(master, b"q")
        assert collect(q, 1) == [QuitEvent("q")]


def test_lone_escape_is_back(tty_pair) -> None:
    master, slave = tty_pair
    q: "queue.Queue[Event]" = queue.Queue()
    with KeyReader(q.put, stdin=slave):
        os.write(master, b"\x1b")
        assert collect(q, 1) == [KeyEvent(Key.BACK)]
        os.write(master, b"\x1b")  # Esc, then an arrow arriving separately later
        time.sleep(0.2)
        os.write(master, b"\x1b[A")
        assert collect(q, 2) == [KeyEvent(Key.BACK), KeyEvent(Key.UP)]
        os.write(master, b"\x1b\x1b")
        assert collect(q, 2) == [KeyEvent(Key.BACK), KeyEvent(Key.BACK)]


def test_arrow_split_across_reads_is_one_key(tty_pair) -> None:
    master, slave = tty_pair
    q: "queue.Queue[Event]" = queue.Queue()
    with KeyReader(q.put, stdin=slave, esc_timeout=0.5):
        os.write(master, b"\x1b[")
        time.sleep(0.05)
        os.write(master, b"B")
        assert collect(q, 1) == [KeyEvent(Key.DOWN)] and quiet(q)


def test_ctrl_c_quits_and_a_second_one_interrupts(tty_pair) -> None:
    master, slave = tty_pair
    q: "queue.Queue[Event]" = queue.Queue()
    interrupted: list[int] = []
    with KeyReader(q.put, stdin=slave, interrupt=lambda: interrupted.append(1)):
        os.write(master, b"\x03")  # arrives as a key: the reader disabled ISIG
        assert collect(q, 1) == [QuitEvent("ctrl-c")] and interrupted == []
        os.write(master, b"\x03")
        assert collect(q, 1) == [QuitEvent("ctrl-c")] and interrupted == [1]


def test_terminal_settings_are_restored(tty_pair) -> None:
    master, slave = tty_pair
    before = termios.tcgetattr(slave)
    reader = KeyReader(lambda e: None, stdin=slave)
    during = termios.tcgetattr(slave)
    assert not during[3] & termios.ICANON and not during[3] & termios.ECHO and not during[3] & termios.ISIG
    reader.stop()
    reader.stop()
    assert termios.tcgetattr(slave) == before


def test_end_of_input_quits() -> None:
    r, w = os.pipe()
    q: "queue.Queue[Event]" = queue.Queue()
    reader = KeyReader(q.put, stdin=r)  # not a terminal: read as is
    os.write(w, b"\n")
    os.close(w)
    assert collect(q, 2) == [KeyEvent(Key.OK), QuitEvent("end of input")]
    reader.stop()
    os.close(r)
