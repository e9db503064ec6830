"""A box whose panel is missing at start or fails during a game goes on through the phones.

The loop's draw calls :func:`lost` when the output raised for the first time (the OLED missing, unplugged, its bus
failing; the phones get the notice with the retry's frame, a second later) and :func:`back` when a frame went out
again. Meanwhile the loop keeps drawing on its retry timer
(``DrawRetry``: 1 s doubling to 10 s), which also opens a display that was missing at start
(``hw.display.PluggableDisplay``). Nothing here stops the box: the log says it once, every phone shows
:data:`NOTICE`, and the host phone answers what the device's OK would (``App.set_panel``).
"""
from __future__ import annotations

import logging
from typing import Any

from companion.loop.pieces import DrawRetry

log = logging.getLogger(__name__)

#: the line every phone shows while the panel is off (App.notices)
NOTICE = "The companion's screen is off: play from this page"


def lost(app: Any, error: BaseException) -> None:
    """The panel stopped (or was never there): one log line, the phones told, the host phone is the panel."""
    phones = "play from the phones (the owner code pairs the host phone: 'companion owner-code' prints it)" \
        if app.web is not None else "the web view is off too, so nothing can be played until it is back"
    log.error("display: %s: going on without the panel (tried again every %.0f s); %s", error, DrawRetry.LONGEST,
              phones)
    app.set_panel(False)
    if NOTICE not in app.notices:
        app.notices.append(NOTICE)


def back(app: Any, publish: bool = True) -> None:
    """A frame reached the panel again: it answers the table's requests again and the phones' notice goes (drawn
    again at once, unless this draw publishes nothing: a secret ballot's cursor; then with the next change)."""
    log.warning("display working again: the panel is back")
    app.set_panel(True)
    if NOTICE in app.notices:
        app.notices.remove(NOTICE)
        if publish:
            app.draw()
