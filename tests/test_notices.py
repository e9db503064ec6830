"""The snapshot's ``notices`` (issue #31): one line each from the companion itself — a file set aside at start, a
panel that is off — in every phone's view, the public one included while a game keeps its turn sealed."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from webtable import LiveTable


def _host(t: LiveTable) -> dict[str, Any]:
    return json.loads(t.hub.latest.host)  # type: ignore[no-any-return]


def test_notices_reach_the_public_and_the_host_view(tmp_path: Path) -> None:
    with LiveTable(tmp_path, game="society", names=("Ana", "Ben", "Cleo")) as t:
        assert t.public()["notices"] == [] and _host(t)["notices"] == []
        t.app.notices.append("web-pairings.json could not be read: set aside; pair the phones again")
        t.press("down")
        t.settle()
        assert t.public()["notices"] == _host(t)["notices"] == [
            "web-pairings.json could not be read: set aside; pair the phones again"]


def test_a_notice_shows_in_public_while_the_orders_are_sealed(tmp_path: Path) -> None:
    with LiveTable(tmp_path, game="society", names=("Ana", "Ben", "Cleo")) as t:
        gm = t.phone("host")
        for value in (3, "start", "start", "soc:1", "armies", 2, "done"):
            assert gm.answer(_host(t)["prompt"]["seq"], value)[0] == 200, value
        t.settle()
        assert "sealed" in t.public()
        t.app.notices.append("The companion's screen is off: play from this page")
        t.press("down")
        t.settle()
        assert t.public()["notices"] == ["The companion's screen is off: play from this page"]
        assert "sealed" in t.public() and "orders" not in t.public()["state"]


def test_the_page_shows_each_notice_in_one_line_above_the_game(tmp_path: Path, browsers: Any) -> None:
    from selenium.webdriver.common.by import By

    from test_web_browser import open_view, text, wait

    browser = browsers.get((390, 844))
    with LiveTable(tmp_path, game="society", names=("Ana", "Ben", "Cleo")) as t:
        open_view(browser, t)
        assert not browser.find_element(By.ID, "notices").is_displayed()  # nothing to say: no empty box
        t.app.notices.append("<b>journal</b> was damaged: kept aside")
        t.press("down")
        wait(browser, "the notice", lambda b: "kept aside" in text(b, "notices"))
        items = browser.find_elements(By.CSS_SELECTOR, "#notices li")
        assert [i.text for i in items] == ["<b>journal</b> was damaged: kept aside"]  # text, never markup
        top = browser.find_element(By.ID, "notices").location["y"]
        assert top < browser.find_element(By.ID, "now").location["y"]
