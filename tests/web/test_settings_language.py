"""The Settings page in the table's language, as the rest of the page: its own words, the
PIN's message, every refusal of the daemon's pairing (durations and plurals too) and
"Paired", in the real Chromium against the real daemon and web companion, and in each
language."""

from __future__ import annotations

import pytest

from companion.daemon.publish import RequestError
from companion.daemon.requests import ATTEMPTS, PIN_SECONDS, Pairing
from companion.show.i18n import LANGUAGES, Catalogue
from tests.web.harness import wait_until
from tests.web.test_crash import Client


def refusal(pairing: Pairing, *args) -> str:
    with pytest.raises(RequestError) as refused:
        pairing.check(*args)
    return str(refused.value)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_pairing_refusal_is_in_the_tables_language(lang):
    language = [lang]
    pairing = Pairing(lambda: language[0])
    texts = Catalogue.load(lang)
    assert refusal(pairing, "1234", 0.0, "a") == texts.text("pairing.no_pin")
    pairing.new(0.0, "a")
    wrong = "0000" if pairing.pin != "0000" else "1111"
    said = [refusal(pairing, wrong, 1.0, "b") for _ in range(ATTEMPTS)]
    assert said[:-1] == [texts.text("pairing.wrong", n=n) for n in range(ATTEMPTS - 1, 0, -1)]
    seconds = texts.text("pairing.seconds", n=30)
    assert said[-1] == texts.text("pairing.wait", n=ATTEMPTS, wait=seconds)
    assert refusal(pairing, wrong, 2.0, "b") == texts.text(
        "pairing.locked", wait=texts.text("pairing.seconds", n=29)
    )
    language[0] = "en"  # the table's language changed: the next refusal follows it
    assert refusal(pairing, wrong, 3.0, "b").startswith("Too many wrong PINs from this device")


def test_the_plurals_and_units_are_the_languages_own():
    ru = Catalogue.load("ru")
    assert [ru.text("pairing.wrong", n=n) for n in (1, 2, 4)] == [
        "Неверный PIN: осталась 1 попытка.",
        "Неверный PIN: осталось 2 попытки.",
        "Неверный PIN: осталось 4 попытки.",
    ]
    assert ru.text("pairing.minutes", n=2) == "2 мин"
    en = Catalogue.load("en")
    assert [en.text("pairing.wrong", n=n) for n in (1, 4)] == [
        "Wrong PIN: 1 try left.",
        "Wrong PIN: 4 tries left.",
    ]


def test_the_settings_page_pairs_in_italian(table, page):
    hands = Client(table.socket)
    try:
        hands.ask("set", key="language", value="it")
    finally:
        hands.close()
    it = Catalogue.load("it")
    wait_until(
        lambda: (
            page.goto(table.url + "/settings")
            and page.inner_text("h1") == it.text("settings.title")
        ),
        what="the Settings page in Italian",
    )
    # the page's own words too, not only the settings' names
    assert page.inner_text("#pairing h2") == "Abbinate questo browser al tavolo"
    assert page.inner_text("#ask-pin") == "Mostra un PIN sul tavolo"
    assert page.inner_text("#pair") == it.text("web.settings.pair")
    assert page.inner_text(".qr h2") == it.text("web.settings.qr")
    page.click("#ask-pin")
    assert page.inner_text("#message") == it.text("pairing.showing", n=round(PIN_SECONDS))
    page.click("#ask-pin")  # asked again: the same PIN, for the time it has left
    assert page.inner_text("#message").startswith("Un PIN è già sui display del tavolo")
    pin = table.pin()
    page.fill("#pin", "0000" if pin != "0000" else "1111")
    page.click("#pair")
    assert page.inner_text("#error") == it.text("pairing.wrong", n=ATTEMPTS - 1)
    assert page.inner_text("#error") == "PIN sbagliato: restano 4 tentativi."
    page.fill("#pin", pin)
    page.click("#pair")
    assert page.inner_text("#message") == "Abbinato" == it.text("pairing.paired")
    page.select_option("#set-language", value='"it"')
    assert page.inner_text('[data-set="language"]') == "Applica"
    page.click('[data-set="language"]')
    assert page.inner_text("#message") == "Salvato"
    # a link cannot put its own words on the page: only the changes' own sentences
    page.goto(table.url + "/settings?said=nonsense&message=Call+0800+now")
    assert page.locator("#message").count() == 0
