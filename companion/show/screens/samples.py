"""Sample views of every screen, for the reference images, the tests and the benchmark.

Built from real engine results (a real `Game`), so the sets and reasons are the engine's own.
"""

from __future__ import annotations

import dataclasses

from companion.board.problems import Problem
from companion.config import Config
from companion.enrolment import EnrolView, Prompt
from companion.game.late import LateTile
from companion.game.stopping import StopQuestion
from companion.game.view import (
    BagEmpty,
    BonusAlert,
    Correction,
    GameResult,
    IllegalMove,
    Lobby,
    NotScored,
    PinShown,
    Preview,
    Question,
    Reply,
    SeatView,
    ShowFirst,
    SwapQuestion,
    TableView,
    TurnResult,
    Unconfirmed,
    Undo,
)
from companion.menu import ITEMS, MenuView
from companion.settings import RULES, Settings
from companion.show.chart import progress_of
from companion.show.screens.lobby import PAGE_SECONDS
from engine import COMMON_SQUARES, Game, Illegal, Scoring, Tile

COLOURS = (("N", "red"), ("E", "purple"), ("S", "yellow"), ("W", "green"))


def _t(name: str) -> Tile:
    return Tile.parse(name)


def _game() -> tuple[Game, Scoring, Scoring | Illegal, Illegal]:
    """A four-player game: S scores a heart run through E's bonus square."""
    game = Game(["S", "W", "N", "E"])
    game.place([("NW", _t("heart-5")), ("NE", _t("heart-6"))])  # S
    game.place([("SW", _t("star-6")), ("SE", _t("star-7"))])  # W
    game.place([("N1", _t("club-5"))])  # N
    game.place([("E1", _t("heart-7"))])  # E
    scored = game.place([("SE", _t("heart-8")), ("S1", _t("heart-9"))])  # S
    assert scored.legal, scored
    preview = game.preview([("SW", _t("diamond-6"))])  # W
    illegal = game.preview([("NW", _t("diamond-2")), ("SE", _t("club-9"))])
    assert isinstance(illegal, Illegal)
    return game, scored, preview, illegal


def playing(now: float = 100.0) -> dict[str, TableView]:
    game, scored, live, illegal = _game()
    scores = game.scores
    finish = game.finish_line

    def seats(preview: Preview | None = None) -> tuple[SeatView, ...]:
        colour = dict(COLOURS)
        return tuple(
            SeatView(side, colour[side], scores[side], finish, side == game.active,
                     preview if side == game.active else None)
            for side in game.players
        )  # fmt: skip

    last = TurnResult.from_scoring(scored)
    base = TableView("playing", seats(), COLOURS, last_turn=last)
    bonus_side = next(iter(scored.bonus))
    return {
        "seat": base,
        "preview": TableView("playing", seats(Preview.of(scored)), COLOURS, last_turn=last),
        "preview-illegal": TableView("playing", seats(Preview.of(illegal)), COLOURS, last_turn=last),
        "alert": TableView(
            "playing", seats(), COLOURS, last_turn=last,
            alerts=(BonusAlert(bonus_side, scored.bonus[bonus_side], since=now),),
        ),
        "illegal": TableView("playing", seats(), COLOURS, last_turn=last, notices=(IllegalMove(game.active, illegal),)),
        "bag-empty": TableView("playing", seats(), COLOURS, notices=(BagEmpty(),)),
        "bag-returned": TableView("playing", seats(), COLOURS, notices=(BagEmpty(returned=True),)),
        "hub": TableView("playing", seats(), COLOURS, notices=(Problem("hub-disconnected"),)),
        "reader-fault": TableView("playing", seats(), COLOURS, notices=(Problem("reader-fault", "NE"),)),
        "unknown-tag": TableView("playing", seats(), COLOURS, notices=(Problem("unknown-tag", "SW"),)),
        "tile-twice": TableView("playing", seats(), COLOURS, notices=(Problem("tile-twice", "E1"),)),
        "take-off": TableView("playing", seats(), COLOURS, notices=(Problem("take-off", "N2"),)),
        "undo": TableView("playing", seats(), COLOURS, last_turn=last, notices=(Undo("S"),)),
        "swapped": TableView("playing", seats(), COLOURS, last_turn=TurnResult.swap("E")),
        "live": TableView("playing", seats(Preview.of(live)), COLOURS, last_turn=last),
        "late-tile": TableView(
            "playing", seats(), COLOURS, last_turn=last,
            notices=(LateTile(last.side, dict(COLOURS)[last.side], "NE", _t("heart-4")),),
        ),
        "checking": TableView(
            "playing",
            tuple(dataclasses.replace(s, checking=s.active) for s in seats(Preview.of(scored))),
            COLOURS, last_turn=last,
        ),
        # a press held for what the readers cannot confirm: the presser is asked
        "question-tile": TableView(
            "playing", seats(), COLOURS, last_turn=last,
            notices=(Question(game.active, "NE", _t("heart-10"), (Reply.THERE, Reply.WITHOUT)),),
        ),
        # ... about a tile of the turn that left the board: it may be in a hand
        "question-hand": TableView(
            "playing", seats(), COLOURS, last_turn=last,
            notices=(Question(game.active, "E2", _t("star-2"), (Reply.THERE, Reply.WITHOUT, Reply.HAND)),),
        ),
        # a first press was heard: a second now says "not there"
        "question-pressed": TableView(
            "playing", seats(), COLOURS, last_turn=last,
            notices=(Question(game.active, "NE", _t("heart-10"), (Reply.THERE, Reply.WITHOUT), pressed=True),),
        ),
        # a square whose top tile the readers cannot name
        "question-square": TableView(
            "playing", seats(), COLOURS, last_turn=last,
            notices=(Question(game.active, "NE", None, (Reply.THERE, Reply.WITHOUT)),),
        ),
        # squares the player may lay on that the readers cannot see: show a tile first
        "show-first": TableView(
            "playing", seats(), COLOURS, last_turn=last,
            notices=(ShowFirst(game.active, ("NE", "SE")),),
        ),
        "show-first-preview": TableView(
            "playing", seats(Preview.of(live)), COLOURS, last_turn=last,
            notices=(ShowFirst(game.active, ("NE", "SE", "W1", "W2")),),
        ),
        # ... and a tile held over an empty square, seen: it may be laid now
        "show-first-seen": TableView(
            "playing", seats(Preview.of(live)), COLOURS, last_turn=last,
            notices=(ShowFirst(game.active, ("NE", "SE", "W1", "W2"), _t("heart-6")),),
        ),
        # a tile of the turn the readers cannot confirm: the press will ask about it
        "unconfirmed": TableView(
            "playing", seats(Preview.of(live)), COLOURS, last_turn=last,
            notices=(Unconfirmed(game.active, (_t("star-2"),)),),
        ),
        "unconfirmed-show-first": TableView(
            "playing", seats(Preview.of(live)), COLOURS, last_turn=last,
            notices=(ShowFirst(game.active, ("NE", "SE")), Unconfirmed(game.active, (_t("star-2"), _t("heart-3")))),
        ),
        # a scored turn proven wrong: on every display until a player confirms it
        "correction": TableView(
            "playing", seats(), COLOURS, last_turn=last,
            notices=(Correction(5, "S", _t("heart-9"), ("S1", "S2"), 5, 6),),
        ),
        "corrected": TableView(
            "playing", seats(), COLOURS, last_turn=last,
            notices=(Correction(5, "S", _t("heart-9"), ("S1", "S2"), 5, 6, applied=True),),
        ),
        "not-scored": TableView(
            "playing", seats(), COLOURS, last_turn=last,
            notices=(NotScored(game.active, "lifted", "E2", _t("spade-1")),),
        ),
        # a press with nothing seen laid while the player may lay where the readers cannot see
        "swap-question": TableView(
            "playing", seats(), COLOURS, last_turn=last,
            notices=(SwapQuestion(game.active, ("NE", "SE")),),
        ),
        # ... answered "I laid tiles": show each one to a reader
        "not-scored-unseen": TableView(
            "playing", seats(), COLOURS, last_turn=last,
            notices=(NotScored(game.active, "unseen"),),
        ),
        # a phone asked to pair during a game: the PIN in a corner, the seat's screen kept
        "pin-game": TableView("playing", seats(), COLOURS, last_turn=last, notices=(PinShown("4821"),)),
    }  # fmt: skip


def lobby() -> dict[str, TableView]:
    rules = tuple((key, Settings.of(Config.default())[key]) for key in RULES)
    house = tuple((k, {"end": "equal", "own_bonus": True, "auto_end_seconds": 10.0}.get(k, v))
                  for k, v in rules)  # fmt: skip
    last = over()["over"].result
    start = tuple((square, (_t(tile),)) for square, tile in
                  zip(COMMON_SQUARES, ("star-1", "heart-2", "club-3", "diamond-4")))  # fmt: skip
    return {
        "lobby-empty": TableView("lobby", colours=COLOURS, lobby=Lobby(rules=rules)),
        "lobby-rules": TableView("lobby", colours=COLOURS, lobby=Lobby(rules=house, last=last)),
        "lobby-help": TableView("lobby", colours=COLOURS, lobby=Lobby(rules=rules, last=last)),
        "lobby-last": TableView("lobby", colours=COLOURS, lobby=Lobby(rules=rules, last=last)),
        "lobby-stopped": TableView(
            "lobby", colours=COLOURS,
            lobby=Lobby(rules=rules, last=dataclasses.replace(last, winner=None, stopped=True)),
        ),
        "lobby": TableView("lobby", colours=COLOURS, lobby=Lobby(("S", "W", "N")), board=start),
        "pin": TableView("lobby", colours=COLOURS, lobby=Lobby(rules=rules), notices=(PinShown("4821"),)),
        # a start tile the readers do not confirm: the starter is asked
        "lobby-question": TableView(
            "lobby", colours=COLOURS, lobby=Lobby(("S", "N")), board=start,
            notices=(Question("S", "SW", _t("club-3"), (Reply.START, Reply.WITHOUT)),),
        ),
        # the readers have not read the start tile on SE: the board in the lobby shows it
        "lobby-teams": TableView(
            "lobby", colours=COLOURS, teams=(("S", "N"), ("W", "E")),
            lobby=Lobby(("S", "W", "N", "E"), teams=(("S", "N"), ("W", "E"))), board=start[:3],
        ),
    }  # fmt: skip


def over() -> dict[str, TableView]:
    game, *_ = _game()
    game.place([("SW", _t("diamond-6")), ("W1", _t("diamond-7"))])  # W
    ranking = game.ranking()
    scores = game.scores
    result = GameResult(
        tuple((side, scores[side]) for side in ranking.order),
        finish=game.finish_line,
        winner=ranking.winner,
        progress=progress_of(game),
    )
    teams = (("S", "N"), ("W", "E"))
    team_game = Game(["S", "W", "N", "E"], teams=teams)
    for move in game.moves:
        team_game.place(move.scoring.placed)  # type: ignore[union-attr]
    team_ranking = team_game.ranking()
    team_result = GameResult(
        tuple((side, scores[side]) for side in team_ranking.order),
        finish=team_game.finish_line,
        winner_team=team_ranking.winner_team,
        progress=progress_of(team_game),
    )
    return {
        "over": TableView("over", colours=COLOURS, result=result),
        "over-teams": TableView("over", colours=COLOURS, teams=teams, result=team_result),
        "over-tie": TableView(
            "over", colours=COLOURS, result=GameResult((("S", 0), ("N", 0)), finish=31)
        ),
    }


def menu() -> dict[str, MenuView]:
    settings = Settings.of(Config.default())
    index = ITEMS.index
    return {
        "menu-back": MenuView("back", 0, len(ITEMS)),
        "menu-language": MenuView("language", index("language"), len(ITEMS), "en"),
        "menu-end": MenuView("end", index("end"), len(ITEMS), settings["end"]),
        "menu-end-changed": MenuView("end", index("end"), len(ITEMS), "equal", changed=True),
        "menu-auto-end": MenuView("auto_end_seconds", index("auto_end_seconds"), len(ITEMS), 10.0),
        "menu-enrol": MenuView("enrol", index("enrol"), len(ITEMS)),
    }


def enrolment() -> dict[str, EnrolView]:
    """Registering the tiles from the menu: a prompt, the summary, a stopped run."""
    put = Prompt("put", "NW", tile=_t("diamond-4"), enrolled=13)
    return {
        "enrol-put": EnrolView(put, enrolled=13),
        "enrol-summary": EnrolView(None, 50, duplicates=1, finished=True),
        "enrol-stopped": EnrolView(None, 23, finished=True, stopped=True),
        # every tile had its tag: each asked for again, a press skipping to the next
        "enrol-again": EnrolView(
            Prompt("put", "NW", tile=_t("heart-6"), enrolled=50), enrolled=50, again=True
        ),
    }


def stopping() -> dict[str, StopQuestion]:
    """The question after the stop gesture, in a four-player game."""
    seats = playing()["seat"].seats
    return {"stop": StopQuestion(tuple((s.side, s.score) for s in seats), COLOURS, ("N", "S"))}


def all_views() -> dict[str, TableView | MenuView | EnrolView | StopQuestion]:
    return {**lobby(), **playing(), **over(), **menu(), **enrolment(), **stopping()}


#: which seat's display each sample is best seen on (the subject of the screen)
def viewer(name: str, shown: TableView | MenuView | EnrolView | StopQuestion) -> str:
    if not isinstance(shown, TableView):
        return "S"
    if name.startswith("alert"):
        return shown.alerts[0].side
    if shown.phase == "playing" and shown.active is not None and name != "seat":
        return shown.active.side
    return "S"


#: the lobby's pages turn by themselves: the moment each lobby sample shows its page
#: of join, rules (two pages of house rules, one of the book's), help (two pages), last
LOBBY_PAGE = {"lobby-rules": 1, "lobby-help": 2, "lobby-last": 4, "lobby-stopped": 4}


def when(name: str, now: float = 100.0) -> float:
    """The moment a sample is drawn at (the lobby samples: on their page, counted from the
    last press at 0)."""
    if name.startswith("lobby"):
        return LOBBY_PAGE.get(name, 0) * PAGE_SECONDS
    return now
