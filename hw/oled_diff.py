"""The OLED's diff drivers: luma.oled's ``ssd1306``/``sh1106`` with a ``display()`` that packs a frame into pages
without per-pixel loops and sends only the changed columns of the changed pages (see :mod:`hw.display`, which uses
them, for the whole story). Pure protocol work: no bus is opened here.
"""
from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any, Callable

from luma.oled.device import sh1106, ssd1306  # type: ignore[import-untyped]
from PIL import Image

_REVERSE_BITS = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))
#: luma's ``rotate`` (quarter turns clockwise) as a PIL transpose
_ROTATIONS = {1: Image.Transpose.ROTATE_270, 2: Image.Transpose.ROTATE_180, 3: Image.Transpose.ROTATE_90}
#: bytes a data block carries at most over an injected smbus-style bus (luma's unmanaged i2c)
_BLOCK = 32

Span = tuple[int, int]  # first and last column, inclusive


def pack_pages(image: Image.Image) -> list[bytes]:
    """A mode "1" image as controller pages: page p, column x, bit k is pixel (x, 8p+k)."""
    w, h = image.size
    pages = h // 8
    # transposed, each row is one column of the frame; its bytes run top to bottom, most significant bit first
    raw = image.transpose(Image.Transpose.TRANSPOSE).tobytes().translate(_REVERSE_BITS)
    return [raw[p::pages] for p in range(pages)]


def changed_runs(old: bytes, new: bytes, gap: int) -> list[Span]:
    """Runs of differing bytes; runs closer than ``gap`` bytes are merged (one window costs about that much)."""
    if old == new:
        return []
    diff = bytes(map(operator.xor, old, new))
    runs: list[list[int]] = []
    for i, v in enumerate(diff):
        if v:
            if runs and i - runs[-1][1] <= gap:
                runs[-1][1] = i
            else:
                runs.append([i, i])
    return [(a, b) for a, b in runs]


def _data_cost(n: int) -> int:
    return n + -(-n // _BLOCK)  # payload plus one control byte per block


class _DiffMixin:
    """display() that packs without per-pixel loops and hands the changed spans to :meth:`_send`."""

    #: bytes a window costs on the wire besides its data (control byte + addressing commands)
    WINDOW_COST = 7

    mode: str
    size: tuple[int, int]
    rotate: int
    persist: bool
    _w: int
    _h: int

    def __init__(self, *args: Any, on_cleanup: Callable[[], None] | None = None, **kwargs: Any) -> None:
        self._shadow: list[bytes] | None = None  # RAM as last sent; None = unknown, send everything
        self._closed = False
        self._setup: list[tuple[int, ...]] = []  # the controller's set-up commands, as luma sent them
        self._recording = True
        self._on_cleanup = on_cleanup
        try:
            super().__init__(*args, **kwargs)
        except BaseException:
            self._closed = True  # luma already registered its atexit hook; keep it from touching the bus
            raise

    def preprocess(self, image: Image.Image) -> Image.Image:
        if self.rotate == 0:
            return image
        return image.transpose(_ROTATIONS[self.rotate])

    def command(self, *cmd: int) -> None:
        if self._recording:
            self._setup.append(cmd)
        super().command(*cmd)  # type: ignore[misc]

    def resend_setup(self) -> None:
        """Send the controller's set-up again (the panel may have lost power and forgotten it); the next frame is
        sent whole. The caller switches the display on after that frame (``show()``)."""
        self._shadow = None
        for cmd in self._setup:
            self.command(*cmd)

    def display(self, image: Image.Image) -> None:
        self._recording = False  # luma's set-up ends with a first clear(): everything before it is the set-up
        if image.mode != "1" or image.size != self.size:
            raise ValueError(f"the display takes a {self.size[0]}x{self.size[1]} mode '1' image, "
                             f"not {image.size[0]}x{image.size[1]} mode {image.mode!r}")
        pages = pack_pages(self.preprocess(image))
        old, self._shadow = self._shadow, None  # unknown until every write has gone through
        if old is None:
            spans = {p: [(0, self._w - 1)] for p in range(len(pages))}
        else:
            spans = {p: r for p in range(len(pages)) if (r := changed_runs(old[p], pages[p], self.WINDOW_COST))}
        if spans:
            self._send(pages, spans)
        self._shadow = pages

    def invalidate(self) -> None:
        """Forget what the panel holds: the next frame is sent whole (e.g. after the display lost power)."""
        self._shadow = None

    def cleanup(self) -> None:
        # luma's atexit hook calls this too; after close() it must do nothing
        if self._closed:
            return
        self._closed = True
        try:
            super().cleanup()  # type: ignore[misc]
        finally:
            if self._on_cleanup is not None:
                self._on_cleanup()

    def _send(self, pages: list[bytes], spans: dict[int, list[Span]]) -> None:
        raise NotImplementedError

    if TYPE_CHECKING:  # luma's device methods, for the type checker (luma has no annotations)
        def command(self, *cmd: int) -> None: ...
        def data(self, data: Sequence[int] | bytes) -> None: ...


class DiffSSD1306(_DiffMixin, ssd1306):  # type: ignore[misc]
    """luma's ssd1306 (horizontal addressing) sending changed rectangles only."""

    def _send(self, pages: list[bytes], spans: dict[int, list[Span]]) -> None:
        for first, last, lo, hi in _plan(spans, self.WINDOW_COST):
            if lo is None:  # one page, one window per run
                for a, b in spans[first]:
                    self._window(first, first, a, b, pages)
            else:
                if hi is None:
                    raise RuntimeError("invariant: hi is set here")
                self._window(first, last, lo, hi, pages)

    def _window(self, p0: int, p1: int, c0: int, c1: int, pages: list[bytes]) -> None:
        cs = self._colstart
        self.command(self._const.COLUMNADDR, cs + c0, cs + c1, self._const.PAGEADDR, p0, p1)
        self.data(b"".join(pages[p][c0:c1 + 1] for p in range(p0, p1 + 1)))


class DiffSH1106(_DiffMixin, sh1106):  # type: ignore[misc]
    """luma's sh1106 (page addressing, 2-column offset) sending changed runs only."""

    WINDOW_COST = 4

    def _send(self, pages: list[bytes], spans: dict[int, list[Span]]) -> None:
        off = self._page_address_offset
        for p, runs in spans.items():
            for a, b in runs:
                col = a + off
                self.command(0xB0 | p, col & 0x0F, 0x10 | (col >> 4))
                self.data(pages[p][a:b + 1])


def _plan(spans: dict[int, list[Span]], window: int) -> list[tuple[int, int, int | None, int | None]]:
    """Cheapest way to cover the changed pages with SSD1306 windows.

    Each group is ``(first_page, last_page, lo, hi)``: a rectangle of columns lo..hi over those pages, or, for a
    single page, ``lo is None`` meaning one window per run. Contiguous groups of changed pages are chosen by a
    dynamic programme over the (at most 8) changed pages.
    """
    changed = sorted(spans)
    n = len(changed)
    best: list[tuple[int, list[tuple[int, int, int | None, int | None]]]] = [(0, [])]
    for j in range(n):
        options = []
        for i in range(j + 1):
            p0, p1 = changed[i], changed[j]
            if i == j:
                cost = sum(window + _data_cost(b - a + 1) for a, b in spans[p0])
                group: tuple[int, int, int | None, int | None] = (p0, p0, None, None)
            else:
                lo = min(spans[p][0][0] for p in changed[i:j + 1])
                hi = max(spans[p][-1][1] for p in changed[i:j + 1])
                cost = window + _data_cost((p1 - p0 + 1) * (hi - lo + 1))
                group = (p0, p1, lo, hi)
            options.append((best[i][0] + cost, best[i][1] + [group]))
        best.append(min(options, key=lambda o: o[0]))
    return best[n][1]
