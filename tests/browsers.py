"""Headless Chromium for the browser tests (Debian's chromium through chromedriver, loopback only).

Starting one costs about a second of CPU and two of wall time, so each pytest worker starts one per screen size (and
per ``slot``, for a test that needs two phones at once) and lends it to module after module: ``browsers.get(size)``
hands it back as a fresh one would be — one tab, at about:blank, no cookies, no site data, no emulated media, an
empty console log. The size is set at start (chromedriver's mobile emulation, applied again at each navigation), so
it is part of the key. Skipped where no browser is installed (`.ci/run` installs chromium and chromium-driver).

Where Debian's ``chromium-headless-shell`` is installed (`.ci/run` tries to), it is the browser: the same Chromium
build and Blink without the full browser's windowing and UI around it (``--headless`` in ``chromium`` is the whole
browser drawing to no screen). It starts in a third of the time and costs about a third less CPU over the browser
tests; every test passes with either. ``COMPANION_CHROMIUM=full`` picks the full browser even where the shell is."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SHELL = None if os.environ.get("COMPANION_CHROMIUM") == "full" else shutil.which("chromium-headless-shell")
CHROMEDRIVER = shutil.which("chromedriver") or (
    "/usr/bin/chromedriver" if Path("/usr/bin/chromedriver").exists() else None)
PHONE = (390, 844)  #: CSS pixels of a phone held upright


def start(size: tuple[int, int] = PHONE) -> Any:
    """A new headless Chromium emulating a phone (touch, a mobile viewport) of ``size`` CSS pixels."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is not installed (pip install -e '.[test]')")
    if (SHELL or CHROMIUM) is None or CHROMEDRIVER is None:
        pytest.skip("no chromium/chromedriver here (apt install chromium chromium-driver)")
    opts = webdriver.ChromeOptions()
    opts.binary_location = SHELL or CHROMIUM
    if SHELL:  # chromedriver opens the shell's first tab itself only when told it is the shell
        opts.set_capability("browserName", "chrome-headless-shell")
    profile = tempfile.mkdtemp(prefix="companion-chromium-")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    opts.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": size[0], "height": size[1],
                                                                         "pixelRatio": 1}})
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # a page's script errors, for the tests to read
    drv = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=opts)
    drv.set_page_load_timeout(20)
    drv.profile_dir = profile
    return drv


def stop(drv: Any) -> None:
    try:
        drv.quit()
    finally:
        shutil.rmtree(drv.profile_dir, ignore_errors=True)


def _clean(drv: Any) -> None:
    """Back to what :func:`start` gave: one tab on about:blank (the last page's streams closed), no cookies, no
    stored site data, no emulated media or metrics, the console log read."""
    handles = drv.window_handles
    for handle in handles[1:]:
        drv.switch_to.window(handle)
        drv.close()
    drv.switch_to.window(handles[0])
    drv.get("about:blank")
    drv.execute_cdp_cmd("Network.clearBrowserCookies", {})
    drv.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": "*", "storageTypes": "all"})
    drv.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": []})
    drv.get_log("browser")


class Browsers:
    """The worker's browsers, one per (size, slot), each started at its first use (the ``browsers`` fixture)."""

    def __init__(self) -> None:
        self._drivers: dict[tuple[int, int, int], Any] = {}
        self._lent: set[tuple[int, int, int]] = set()

    def get(self, size: tuple[int, int] = PHONE, slot: int = 0) -> Any:
        from selenium.common.exceptions import WebDriverException

        key = (size[0], size[1], slot)
        self._lent.add(key)
        drv = self._drivers.get(key)
        if drv is not None:
            try:
                _clean(drv)
                return drv
            except WebDriverException:  # a test left it broken: a new one
                del self._drivers[key]
                stop(drv)
        drv = self._drivers[key] = start(size)
        return drv

    def park(self) -> None:
        """Each browser lent since the last park back on about:blank (conftest does it after every module): the last
        page of a table already closed would go on asking it again (an EventSource retrying every few seconds)
        while modules that use no browser run."""
        from selenium.common.exceptions import WebDriverException

        for key in self._lent & self._drivers.keys():
            try:
                _clean(self._drivers[key])
            except WebDriverException:  # broken: the next get() starts a new one
                stop(self._drivers.pop(key))
        self._lent.clear()

    def close(self) -> None:
        while self._drivers:
            stop(self._drivers.popitem()[1])
