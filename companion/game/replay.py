"""Re-scoring a recorded game: a journal's records replayed through the engine, event by event.

    played = replay_journal(Path("journal-1.jsonl"))
    for game in played.games:
        for event in game.events:
            print(event)          # "turn 3: S lays star-3 on N1, star-5 on SE: +6 (...) | S 12 N 9"

This is the one interpreter of journal records. The daemon replays in its strict mode
(`games`, which is `strict=True`): a journal whose recorded points differ
from the engine's is an error, because it must never resume a game it does not understand.
Without it the point is to look: every turn is scored again by the engine, and a turn whose recorded
points or bonus differ is flagged (`Event.differences`) while the replay goes on with the
engine's score. A record that the rules cannot replay at all (a turn out of order, an
illegal placement) is a `ReplayError` naming its line.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.board.word import PAGE, Word
from companion.game.amend import replay_amend
from companion.game.journal import JOURNAL_VERSION, Journal, JournalDamaged, JournalError
from engine import (
    Board,
    BoardError,
    Game,
    GameOver,
    Options,
    OptionsError,
    Placement,
    Ranking,
    Scoring,
    SeatingError,
    Tile,
    TileError,
)

log = logging.getLogger("setup.journal")


class ReplayError(JournalError):
    """A journal that cannot be replayed; the text is one sentence naming the line. `record`
    is the number of the record (1, 2, ...), `line` the file's line it is on."""

    def __init__(self, message: str, line: int = 0, record: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.record = line if record is None else record


@dataclass(frozen=True)
class Event:
    """One record of the journal, replayed: what happened and the scores after it.

    `kind` is "start", "turn" (a placement, or a swap when `placed` is empty), "undo",
    "return" (covered tiles back into the bag), "end", "stop" (stopped before its end;
    `recorded["by"]` says where: "table" or "web"), "word" (the family's `word` about a
    tile the readers could not vouch for) or "amend" (turn `turn` played again as `placed`,
    scored `scoring`, the readers having proven a tile elsewhere). `line` is the journal
    line.
    `differences` says where the journal disagrees with the engine (empty: it agrees)."""

    kind: str
    game: int
    line: int
    scores: tuple[tuple[str, int], ...]
    turn: int | None = None
    side: str | None = None
    placed: tuple[tuple[str, Tile], ...] = ()
    scoring: Scoring | None = None
    recorded: Mapping[str, Any] | None = None  # points/bonus/tiles as the journal wrote them
    undone: Event | None = None
    returned: tuple[Tile, ...] = ()
    differences: tuple[str, ...] = ()
    word: Word | None = None

    @property
    def swap(self) -> bool:
        return self.kind == "turn" and not self.placed

    def __str__(self) -> str:
        return describe(self)


@dataclass
class ReplayedGame:
    """One game of the journal, rebuilt by the engine."""

    number: int
    line: int  # the line of its start record
    start: Mapping[str, Any]
    game: Game
    events: list[Event] = field(default_factory=list)
    closed: bool = False  # a `new` record followed it (a new lobby was opened)
    stopped: bool = False  # a `stop` record: stopped before its end, kept unfinished
    #: the family's words, in order, from the lobby that started it on
    words: list[Word] = field(default_factory=list)
    #: those said since the last move (or the start): they hold for the turn being played
    pending: list[Word] = field(default_factory=list)

    @property
    def colours(self) -> dict[str, str]:
        return {str(k): str(v) for k, v in (self.start.get("colours") or {}).items()}

    @property
    def differences(self) -> list[Event]:
        return [event for event in self.events if event.differences]

    @property
    def ranking(self) -> Ranking:
        return self.game.ranking()


@dataclass
class Replay:
    """Every game of a journal; `torn` says why its last line was ignored (or None)."""

    path: Path | None
    games: list[ReplayedGame]
    torn: str | None = None
    repaired: str | None = None  # a copy of a record damaged, read from the other copy

    @property
    def differences(self) -> list[Event]:
        return [event for game in self.games for event in game.differences]


def replay_journal(path: str | Path) -> Replay:
    """Reads a journal (a live one or an archived `journal-<n>.jsonl`) and replays it.

    Raises ReplayError for a file that is missing, unreadable, damaged in the middle or
    not replayable; a torn last line is not an error (see `Replay.torn`)."""
    path = Path(path)
    if not path.exists():
        raise ReplayError(f"there is no journal at {path}")
    if path.is_dir():
        raise ReplayError(f"{path} is a directory, not a journal file")
    journal = Journal(path)
    try:
        records = journal.records()
    except JournalError as exc:
        raise ReplayError(str(exc)) from None
    played = replay_records(records, source=str(path), lines=journal.record_lines)
    return Replay(path, played, journal.torn, journal.repaired)


def replay_records(
    records: Iterable[Mapping[str, Any]],
    source: str = "the journal",
    *,
    strict: bool = False,
    lines: Sequence[int] = (),
) -> list[ReplayedGame]:
    """The games in `records`, each turn re-scored; `lines`: the file's line of each record
    (`Journal.record_lines`; by default record i is line i). `strict` (the daemon's resume):
    a recorded score that differs from the engine's is an error too, instead of a flagged
    difference."""
    games: list[ReplayedGame] = []
    current: _Replayer | None = None
    lobby: list[tuple[int, Word]] = []  # words said in the lobby, for the game they start
    for number, record in enumerate(records, start=1):
        line = lines[number - 1] if number <= len(lines) else number
        kind = record.get("type")
        try:
            if kind == "start":
                current = _Replayer(len(games) + 1, line, record, lobby)
                games.append(current.played)
                lobby = []
            elif kind == "new":
                if current is not None:
                    current.played.closed = True
                current, lobby = None, []
            elif kind == "word" and current is None:
                lobby.append((line, Word.from_json(dict(record))))
            elif kind in ("turn", "undo", "return", "end", "stop", "word", "amend"):
                if current is None:
                    raise ValueError(f"a {kind} record comes before any game was started")
                current.apply(line, record)
            else:
                raise ValueError(f"{kind!r} is not a kind of journal record")
            if strict and current is not None and current.played.events[-1].differences:
                raise ValueError(current.played.events[-1].differences[0])
        except (ValueError, KeyError, GameOver) as exc:
            reason = f"the field {exc} is missing" if isinstance(exc, KeyError) else str(exc)
            raise ReplayError(
                f"{source} cannot be replayed at line {line} ({kind}): {reason}", line, number
            ) from None
        except Exception:  # a field of the wrong shape, however deep: the record is damaged
            raise ReplayError(
                f"{source} cannot be replayed at line {line} ({kind}): "
                f"its fields are not those of a {kind} record",
                line,
                number,
            ) from None
    return games


def games(records: Iterable[Mapping[str, Any]]) -> list[ReplayedGame]:
    """Every game in the records, each rebuilt exactly, as the daemon resumes them: a
    ReplayError (a JournalError) on a record that does not fit or that differs."""
    return replay_records(records, strict=True)


def replay(records: Iterable[Mapping[str, Any]]) -> Game | None:
    """The game in progress (or just finished) that the records describe, or None (lobby)."""
    found = games(records)
    if not found or found[-1].closed:
        return None
    return found[-1].game


def lobby_words(records: Iterable[Mapping[str, Any]]) -> list[Word]:
    """The family's words said in the lobby after the last game was closed (about the
    board a game would start on); empty while a game is open."""
    words: list[Word] = []
    playing = False
    for record in records:
        kind = record.get("type")
        if kind in ("start", "new"):
            playing, words = kind == "start", []
        elif kind == "word" and not playing:
            words.append(Word.from_json(dict(record)))
    return words


@dataclass
class Resumed:
    """What the daemon resumes from its journal: the games of its longest good prefix, and
    what was lost and kept aside when the journal was damaged."""

    games: list[ReplayedGame]
    records: list[dict[str, Any]]
    damage: str | None = None  # why the journal was cut back (None: it was whole)
    lost: int = 0  # records from the damage on, which could not be read or replayed
    aside: Path | None = None  # where the damaged file was kept


def resume(journal: Journal) -> Resumed:
    """The journal read and replayed strictly for the daemon. A damaged journal is resumed
    from its longest good prefix: the file is kept aside as it was, and the journal goes on
    with the records before the first one that could not be read or replayed."""
    damage: str | None = None
    lost = 0
    try:
        records = journal.records()
    except JournalDamaged as exc:
        records, damage, lost = exc.good, str(exc), exc.lost
    except JournalError as exc:  # cannot be read at all (permissions, not a file)
        records, damage, lost = [], str(exc), 0
    lines = journal.record_lines
    try:
        games = replay_records(records, strict=True, lines=lines)
    except ReplayError as exc:
        lost += len(records) - exc.record + 1
        damage = damage or str(exc)
        records = records[: exc.record - 1]
        games = replay_records(records, strict=True, lines=lines)  # those before it replayed
    if damage is None:
        if journal.repaired is not None:
            log.warning("journal %s: %s; it is written again whole", journal.path, journal.repaired)
            journal.heal()  # both copies on the card again, now
        return Resumed(games, records)
    try:
        aside = journal.cut(len(records)) if records else journal.archive("damaged-")
    except (OSError, JournalError) as exc:
        log.error("cannot set the damaged journal %s aside: %s", journal.path, exc)
        aside = None
    return Resumed(games, records, damage, lost, aside)


class _Replayer:
    """Applies one game's records to an engine `Game`, remembering each move's event."""

    def __init__(
        self,
        number: int,
        line: int,
        record: Mapping[str, Any],
        lobby: Sequence[tuple[int, Word]] = (),
    ) -> None:
        if record.get("v", JOURNAL_VERSION) != JOURNAL_VERSION:
            raise ValueError(f"journal version {record.get('v')!r} is not {JOURNAL_VERSION}")
        if not isinstance(record.get("board") or {}, Mapping):
            raise ValueError("the start board is not an object of square: [tiles]")
        try:
            board = Board.from_mapping(record.get("board") or {})
            options = Options.from_mapping(record.get("options") or {})
            game = Game(record["players"], record.get("teams"), options, board)
        except (BoardError, TileError, OptionsError, SeatingError) as exc:
            raise ValueError(str(exc)) from exc
        self.played = ReplayedGame(number, line, dict(record), game)
        self.moves: list[Event] = []  # parallel to game.moves: the event of each move
        for said, word in lobby:  # the start board's words come before the start
            self._word(said, word)
        self._emit("start", line)

    @property
    def game(self) -> Game:
        return self.played.game

    def _emit(self, kind: str, line: int, **fields: Any) -> Event:
        event = Event(kind, self.played.number, line, tuple(self.game.scores.items()), **fields)
        self.played.events.append(event)
        return event

    def _turn_number(self) -> int:
        return 1 + sum(1 for move in self.game.moves if move.kind != "return")

    def _word(self, line: int, word: Word) -> None:
        self.played.words.append(word)
        self.played.pending.append(word)
        by = word.by if word.by in self.game.players else None
        self._emit("word", line, side=by, word=word)

    def apply(self, line: int, record: Mapping[str, Any]) -> None:
        kind = record["type"]
        if kind == "word":
            return self._word(line, Word.from_json(dict(record)))
        if kind in ("turn", "undo", "return", "amend"):
            self.played.pending.clear()  # a move: the words said before it are in it now
        if kind == "amend":
            return self._amend(line, record)
        if kind == "turn":
            self._turn(line, record)
        elif kind == "undo":
            if not self.game.moves:
                raise ValueError("an undo with no move to take back")
            self.game.pop()
            undone = self.moves.pop()
            self._emit("undo", line, turn=undone.turn, side=undone.side, undone=undone)
        elif kind == "return":
            self._return(line, record)
        elif kind == "stop":
            self._stop(line, record)
        else:
            self._end(line, record)

    def _turn(self, line: int, record: Mapping[str, Any]) -> None:
        game = self.game
        side = record["side"]
        if game.finished:
            raise ValueError("a turn after the game had ended")
        if self.played.stopped:
            raise ValueError("a turn after the game was stopped")
        if side != game.active:
            raise ValueError(f"the turn is {game.active}'s, not {side}'s")
        placed = Placement.from_json(record["placed"])
        turn = self._turn_number()
        recorded = {k: record[k] for k in ("points", "bonus") if k in record}
        if not placed:
            game.swap()
            self.moves.append(self._emit("turn", line, turn=turn, side=side, recorded=recorded))
            return
        result = game.place(list(placed))
        if not result.legal:
            raise ValueError(f"the placement is not legal ({result})")
        differences = []
        if "points" in recorded and recorded["points"] != result.points:
            differences.append(
                f"the journal says +{recorded['points']}, the engine scores +{result.points}"
            )
        if "bonus" in recorded and dict(recorded["bonus"] or {}) != dict(result.bonus):
            said = _bonus_text(recorded["bonus"] or {}) or "none"
            differences.append(
                f"the journal's bonus is {said}, the engine's {_bonus_text(result.bonus) or 'none'}"
            )
        event = self._emit(
            "turn",
            line,
            turn=turn,
            side=side,
            placed=placed,
            scoring=result,
            recorded=recorded,
            differences=tuple(differences),
        )
        self.moves.append(event)

    def _amend(self, line: int, record: Mapping[str, Any]) -> None:
        turn = record["turn"]
        index = next(
            (i for i, e in enumerate(self.moves) if e.kind == "turn" and e.turn == turn), None
        )
        if index is None or self.moves[index].swap:
            raise ValueError(f"turn {turn} placed no tiles to amend")
        placed = Placement.from_json(record["placed"])
        if replay_amend(self.game, index, tuple(placed), inplace=True) is None:
            raise ValueError(f"turn {turn} cannot be played again as {placed}")
        old = self.moves[index]
        result = self.game.moves[index].scoring  # type: ignore[union-attr]
        recorded = {
            k: record[k] for k in ("points", "bonus", "tile", "from", "to", "by") if k in record
        }
        differences = []
        if "points" in recorded and recorded["points"] != result.points:
            differences.append(
                f"the journal says +{recorded['points']}, the engine scores +{result.points}"
            )
        # the amended turn stands in its place: an undo takes it back as it is now
        self.moves[index] = Event(
            "turn", old.game, old.line, old.scores, old.turn, old.side, placed, result,
            old.recorded,
        )  # fmt: skip
        self._emit(
            "amend",
            line,
            turn=turn,
            side=record.get("side", old.side),
            placed=placed,
            scoring=result,
            recorded=recorded,
            undone=old,
            differences=tuple(differences),
        )

    def _return(self, line: int, record: Mapping[str, Any]) -> None:
        if not self.game.needs_return:
            raise ValueError("covered tiles went back while the bag was not empty")
        move = self.game.return_covered()
        recorded = {"tiles": list(record["tiles"])} if "tiles" in record else {}
        differences = ()
        if recorded and sorted(map(str, recorded["tiles"])) != sorted(map(str, move.returned)):
            differences = ("the journal's returned tiles differ from the covered tiles",)
        event = self._emit(
            "return", line, returned=move.returned, recorded=recorded, differences=differences
        )
        self.moves.append(event)

    def _stop(self, line: int, record: Mapping[str, Any]) -> None:
        if self.game.finished or self.played.stopped:
            raise ValueError("a stop record for a game that was over")
        by = record["by"]
        if by not in ("table", "web"):
            raise ValueError(f"{by!r} did not stop the game (the table or a page does)")
        recorded: dict[str, Any] = {"by": by}
        if "scores" in record:
            recorded["scores"] = record["scores"]
        differences = ()
        if "scores" in recorded and dict(recorded["scores"]) != self.game.scores:
            said = _scores_text(dict(recorded["scores"]).items())
            differences = (f"the journal's scores when it stopped are {said}",)
        self.played.stopped = True
        self._emit("stop", line, recorded=recorded, differences=differences)

    def _end(self, line: int, record: Mapping[str, Any]) -> None:
        game = self.game
        differences = []
        if not game.finished:
            differences.append("the journal ends the game here, but by the rules it goes on")
        recorded = {k: record[k] for k in ("ranking", "scores") if k in record}
        if "scores" in recorded and dict(recorded["scores"]) != game.scores:
            differences.append(
                f"the journal's final scores are {_scores_text(recorded['scores'].items())}"
            )
        self._emit("end", line, recorded=recorded, differences=tuple(differences))


# -- words ------------------------------------------------------------------------------------
def _scores_text(scores: Iterable[tuple[str, int]]) -> str:
    return " ".join(f"{side} {points}" for side, points in scores)


def _bonus_text(bonus: Mapping[str, int]) -> str:
    return ", ".join(f"{side} +{n}" for side, n in sorted(bonus.items()))


def _placement_text(placed: Sequence[tuple[str, Tile]]) -> str:
    return ", ".join(f"{tile} on {square}" for square, tile in placed)


def _move_text(event: Event) -> str:
    """A move in a few words: what an undo took back."""
    if event.kind == "return":
        return f"the return of {len(event.returned)} covered tiles"
    if event.swap:
        return f"{event.side} swaps"
    assert event.scoring is not None
    return f"{event.side} lays {_placement_text(event.placed)}: +{event.scoring.points}"


def describe(event: Event) -> str:
    """The event as one line for people, ending with the scores after it."""
    scores = f" | {_scores_text(event.scores)}"
    if event.kind == "start":
        return f"game {event.game} starts{scores}"
    if event.kind == "undo":
        assert event.undone is not None
        which = f"turn {event.turn}" if event.turn is not None else "a move"
        return f"undo: {which} taken back ({_move_text(event.undone)}){scores}"
    if event.kind == "return":
        tiles = ", ".join(map(str, event.returned))
        return (
            f"bag empty: {len(event.returned)} covered tiles go back into the bag ({tiles}){scores}"
        )
    if event.kind == "end":
        return f"the game ends{scores}"
    if event.kind == "word":
        assert event.word is not None
        return f"the family's word: {event.word}{scores}"
    if event.kind == "amend":
        assert event.scoring is not None and event.undone is not None
        was = event.undone.scoring.points if event.undone.scoring else 0
        seen = event.recorded or {}
        why = f"{seen['tile']} lies on {seen['to']}, not {seen['from']}; " if "to" in seen else ""
        by = seen.get("by", "?")
        who = "a paired page" if by == PAGE else by  # as the family's word says it
        return (
            f"turn {event.turn} corrected ({why}confirmed by {who}): "
            f"{event.side} lays {_placement_text(event.placed)}: +{event.scoring.points} "
            f"(was +{was}){scores}"
        )
    if event.kind == "stop":
        by = (event.recorded or {}).get("by")
        where = "at the table" if by == "table" else "from a paired page"
        return f"the game is stopped before its end, {where}{scores}"
    if event.swap:
        return f"turn {event.turn}: {event.side} swaps tiles with the bag{scores}"
    scoring = event.scoring
    assert scoring is not None
    sets = ", ".join(map(str, scoring.sets))
    bonus = f", bonus {_bonus_text(scoring.bonus)}" if scoring.bonus else ""
    return (
        f"turn {event.turn}: {event.side} lays {_placement_text(event.placed)}: "
        f"+{scoring.points} ({sets}){bonus}{scores}"
    )


def header(played: ReplayedGame) -> str:
    """Who plays (turn order, colours, teams), the rule options and the start board."""
    game = played.game
    colours = played.colours
    players = ", ".join(
        f"{side} ({colours[side]})" if side in colours else side for side in game.players
    )
    teams = ""
    if game.teams is not None:
        teams = "; teams " + " v ".join("+".join(team) for team in game.teams)
    changed = {
        key: value
        for key, value in game.options.to_mapping().items()
        if Options().to_mapping().get(key) != value
    }
    rules = ", ".join(f"{k} {v}" for k, v in changed.items()) if changed else "the rulebook's"
    start = Board.from_mapping(played.start.get("board") or {})
    board = ", ".join(f"{sq} {'/'.join(names)}" for sq, names in start.to_mapping().items())
    return (
        f"game {played.number} (line {played.line}): {players}{teams}; "
        f"rules: {rules}; finish at {game.finish_line}; start board: {board or 'empty'}"
    )


def outcome(played: ReplayedGame) -> str:
    """How the game stands at the end of the journal: the ranking and the winner."""
    game = played.game
    ranking = game.ranking()
    scores = game.scores
    order = ", ".join(f"{n}. {side} {scores[side]}" for n, side in enumerate(ranking.order, 1))
    if played.stopped:
        return f"stopped before its end (unfinished), {game.active} to move; standing {order}"
    if not game.finished:
        state = "abandoned (a new game was opened)" if played.closed else "not finished"
        return f"{state}: {game.active} to move; standing {order}"
    if game.teams is not None and ranking.winner_team is not None:
        team = game.teams[ranking.winner_team]
        winner = f"team {ranking.winner_team + 1} ({' + '.join(team)}) wins"
    elif ranking.winner is not None:
        winner = f"{ranking.winner} wins"
    else:
        winner = "a tie the rules cannot break"
    return f"game over: {winner}; ranking {order}"


def as_json(event: Event) -> dict[str, Any]:
    """The event as one plain JSON object (the `--json` output)."""
    out: dict[str, Any] = {"game": event.game, "line": event.line, "event": event.kind}
    if event.turn is not None:
        out["turn"] = event.turn
    if event.side is not None:
        out["side"] = event.side
    if event.kind == "turn":
        out["placed"] = [[square, str(tile)] for square, tile in event.placed]
        out["swap"] = event.swap
        scoring = event.scoring
        out["points"] = scoring.points if scoring else 0
        out["bonus"] = dict(sorted(scoring.bonus.items())) if scoring else {}
        out["sets"] = [str(s) for s in scoring.sets] if scoring else []
    if event.kind == "amend" and event.scoring is not None:
        out["placed"] = [[square, str(tile)] for square, tile in event.placed]
        out["points"] = event.scoring.points
        out["bonus"] = dict(sorted(event.scoring.bonus.items()))
    if event.kind == "undo" and event.undone is not None:
        out["undone"] = {k: v for k, v in as_json(event.undone).items() if k not in ("game",)}
    if event.kind == "return":
        out["tiles"] = [str(tile) for tile in event.returned]
    if event.word is not None:
        out["word"] = event.word.to_json()
    if event.recorded:
        out["recorded"] = dict(event.recorded)
    out["scores"] = dict(event.scores)
    out["matches"] = not event.differences
    if event.differences:
        out["differences"] = list(event.differences)
    return out


def outcome_json(played: ReplayedGame) -> dict[str, Any]:
    """The final state of a game as a JSON object (`event` "result")."""
    game = played.game
    ranking = game.ranking()
    return {
        "game": played.number,
        "event": "result",
        "finished": game.finished,
        "closed": played.closed,
        "stopped": played.stopped,
        "active": None if game.finished else game.active,
        "ranking": list(ranking.order),
        "winner": ranking.winner if game.finished else None,
        "winner_team": ranking.winner_team if game.finished else None,
        "scores": game.scores,
        "differences": len(played.differences),
    }


def text_lines(played: ReplayedGame) -> Iterator[str]:
    """The whole game for people: its header, each event (with the journal's differences
    under it) and the outcome."""
    yield header(played)
    for event in played.events:
        if event.kind == "start":
            continue
        yield describe(event)
        for difference in event.differences:
            yield f"  DIFFERS at line {event.line}: {difference}"
    yield outcome(played)


def json_objects(played: ReplayedGame) -> Iterator[dict[str, Any]]:
    """The whole game as JSON objects: "start", one per event, then "result"."""
    yield start_json(played)
    for event in played.events:
        if event.kind != "start":
            yield as_json(event)
    yield outcome_json(played)


def start_json(played: ReplayedGame) -> dict[str, Any]:
    game = played.game
    return {
        "game": played.number,
        "line": played.line,
        "event": "start",
        "players": list(game.players),
        "teams": None if game.teams is None else [list(t) for t in game.teams],
        "colours": played.colours,
        "options": game.options.to_mapping(),
        "finish": game.finish_line,
        "board": Board.from_mapping(played.start.get("board") or {}).to_mapping(),
    }
