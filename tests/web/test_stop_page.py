"""Stopping a game from a paired page, in the real Chromium against the real daemon: asked,
confirmed, the lobby opens, and the Games page keeps the game unfinished with its scores."""

from __future__ import annotations

from tests.web.play import Played
from tests.web.test_crash import Client


def pair(table, page) -> None:
    page.goto(table.url + "/settings")
    page.click("#ask-pin")
    page.fill("#pin", table.pin())
    page.click("#pair")
    assert page.inner_text("#message") == "Paired"


def test_a_paired_page_stops_the_game_and_games_keeps_it_unfinished(table, page):
    hands = Client(table.socket)
    try:
        played = Played(hands)
        played.start()
        played.turns_until(lambda scoring: True)  # N's first turn
        scores = dict(played.shadow.scores)
        assert any(scores.values())

        page.goto(table.url + "/settings")
        assert page.locator("#stop-game-ask").count() == 0  # not paired: it says how instead
        assert "hold two seats' buttons together" in page.inner_text("#stop-game")
        pair(table, page)
        assert "Red " in page.inner_text("#stop-game h2")
        page.click("#stop-game-ask")
        page.locator("#stop-confirm").wait_for()
        assert "kept in Games, unfinished" in page.inner_text("#stop-game")
        page.click("#stop-confirm")
        assert "The game was stopped" in page.inner_text("#message")
        assert page.locator("#stop-game").count() == 0  # no game to stop now
        hands.state(lambda s: s["phase"] == "lobby")
    finally:
        hands.close()

    page.goto(table.url + "/")
    page.locator("#lobby").wait_for()
    page.goto(table.url + "/games")
    game = page.locator("#games .game.stopped")
    assert game.count() == 1
    assert "stopped before its end" in game.inner_text()
    ranking = [game.locator(".ranking li").nth(i).inner_text() for i in range(2)]
    assert sorted(int(line.split()[-1]) for line in ranking) == sorted(scores.values())
    assert "stopped before its end, from a paired page" in game.locator(".turns").text_content()
