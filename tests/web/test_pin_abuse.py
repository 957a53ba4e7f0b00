"""What an unpaired device of the home network may do with the PIN, against the real
daemon and web companion: ask for PINs in a row (one shows, and the page says so), guess
wrong until it must wait (the family still pairs); the PIN on the simulated displays."""

from __future__ import annotations

import base64
import html
import io
import re
import urllib.parse

from PIL import Image, ImageChops

from companion.game.view import Lobby, PinShown, TableView
from companion.show.screens import Screens
from tests.web.harness import DEADLINE, wait_until
from tests.web.test_limits import get

ABUSER = "127.0.0.3"


class Device:
    """A device of the home network with a session of its own, posting the settings form
    as a browser would."""

    def __init__(self, table, source: str) -> None:
        import http.client

        self.table, self.source = table, source
        status, headers, body = get(table, "/settings", source)
        assert status == 200
        self.cookie = headers["set-cookie"].split(";")[0]
        self.token = re.search(r'name="csrf" value="([^"]+)"', body).group(1)
        self.http = http.client

    def post(self, **form: str) -> str:
        """The page the settings form answers with (its message or its error)."""
        connection = self.http.HTTPConnection("127.0.0.1", self.table.port, timeout=DEADLINE,
                                              source_address=(self.source, 0))  # fmt: skip
        body = urllib.parse.urlencode({"csrf": self.token, **form})
        connection.request("POST", "/settings", body=body, headers={
            "Cookie": self.cookie, "Content-Type": "application/x-www-form-urlencoded",
            "Origin": self.table.url})  # fmt: skip
        response = connection.getresponse()
        text = response.read().decode()
        connection.close()
        assert response.status in (200, 303), (response.status, text)
        said = re.search(r'id="(?:message|error)"[^>]*>([^<]*)<', text)
        return html.unescape(said.group(1)) if said else ""


def pins_shown(table) -> list[str]:
    return re.findall(r"the displays show the PIN (\d+)", table.daemon_log.read_text())


def test_pin_requests_in_a_row_show_one_pin_and_the_page_tells_the_truth(table):
    abuser = Device(table, ABUSER)
    answers = [abuser.post(action="pin") for _ in range(6)]
    assert answers[0].startswith("A PIN is showing on the table's displays (for 120 s")
    assert all(a.startswith("A PIN is already showing") for a in answers[1:]), answers
    assert len(pins_shown(table)) == 1  # six requests, one PIN, for its two minutes only


def test_guesses_from_two_devices_the_familys_browser_still_pairs(table, page):
    page.goto(table.url + "/settings")  # the family's browser (127.0.0.1)
    page.click("#ask-pin")
    assert "PIN is showing" in page.inner_text("#message")
    pin = table.pin()
    wrong = "0000" if pin != "0000" else "1111"
    abuser = Device(table, ABUSER)
    said = [abuser.post(action="pair", pin=wrong) for _ in range(5)]
    assert said[0] == "Wrong PIN: 4 tries left." and "may try again in 30 s" in said[-1]
    assert "Too many wrong PINs from this device" in abuser.post(action="pair", pin=pin)
    assert "Too many wrong PINs from this device" in abuser.post(action="pin")  # not "showing"
    page.fill("#pin", pin)  # the family, at the table, types the PIN it shows
    page.click("#pair")
    assert page.inner_text("#message") == "Paired"


def frame(page, side: str) -> Image.Image:
    src = page.get_attribute(f"#frame-{side}", "src")
    return Image.open(io.BytesIO(base64.b64decode(src.split(",", 1)[1]))).convert("1")


def test_the_pin_shows_on_the_simulated_displays(table, page):
    page.goto(table.url + "/settings")
    page.click("#ask-pin")
    pin = table.pin()
    expected = Screens("en").frame(TableView("lobby", lobby=Lobby(), notices=(PinShown(pin),)), "N")
    page.goto(table.url + "/sim")

    def shows_pin() -> bool:
        if not (page.get_attribute("#frame-N", "src") or "").startswith("data:"):
            return False
        return ImageChops.difference(frame(page, "N"), expected.convert("1")).getbbox() is None

    wait_until(shows_pin, what="the PIN on the simulated display of N")
