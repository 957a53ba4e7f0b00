"""The board as the daemon believes it, built from noisy reader snapshots.

Readers miss tags now and then, a stack reads as a collision, as its bottom tag or as
nothing, the top tile of a stack is seen in only some sweeps, a tile is also seen by a
neighbouring reader now and then. So the tracker believes stacks by their history:

- a tile arrives on one clean sighting (status ok, a reader not in fault, an enrolled tile
  not already believed on the board) and becomes the new top of that square;
- a new tile seen on two squares in the same sweep is decided by the next sightings, or
  shown as "check these squares";
- a believed tile never leaves because it fell silent. It leaves only where the game expects
  it: a tile of the current placement (or any tile before a game) that stays unseen while
  its square reads clearly without it; a tile taken back by an undo; the covered tiles once
  the bag ran empty;
- a tile is moved to another square only on consistent evidence (seen there in most of the
  last sweeps and never on its own square), and only if it may move (not yet scored);
  a scored tile seen elsewhere is shown as a problem instead.

Everything is decided from the snapshots and the `now` passed in: no clock is read here.
See docs/daemon.md for the reasoning and the numbers.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from companion.board.problems import Problem
from companion.board.registry import Registry
from companion.config import TrackerConfig
from engine import SQUARES, Board, Tile
from engine.geometry import SQUARE_INDEX
from hardware.hub.snapshot import Snapshot

log = logging.getLogger("setup.tracker")

#: usable sweeps after (re)connecting before the board is trusted for a turn's end.
READY_SWEEPS = 3
#: a square believed to hold at most one tile that reads as a collision this often in the
#: last COLLISION_WINDOW readings holds a tile the readers cannot see: "check square X".
COLLISION_WINDOW = 10
COLLISIONS_UNREADABLE = 3
#: readings in a row with no collision and no sighting of a covered tile that may go (in the
#: lobby, or a tile of this turn) before it is believed lifted from under the top. A real
#: stack of two gives such a reading about a third of the time and contradicts it about half
#: of the time, so 20 in a row happen by chance about once in 10^8 tries.
BELOW_CLEAR_READINGS = 20
_N = len(SQUARES)


@dataclass(slots=True)
class _Pending:
    """A new tile seen on more than one square: sightings per square until one leads."""

    first_seen: float
    counts: dict[int, int] = field(default_factory=dict)
    last_seen: float = 0.0


@dataclass(slots=True)
class _Cleanup:
    """A square whose covered tiles must go back to the bag: is only its top tile read?"""

    top: Tile
    covered: frozenset[Tile]
    clean: int = 0  # readings of exactly the top tile since the last contradicting one
    since: float = 0.0  # when that run of clean readings began
    done: bool = False


class Tracker:
    """The believed stacks, the current placement, and what looks wrong on the board."""

    def __init__(
        self,
        registry: Registry,
        readers: Sequence[str] = SQUARES,
        settings: TrackerConfig | None = None,
    ) -> None:
        if sorted(readers) != sorted(SQUARES):
            raise ValueError("readers must name each square once")
        self.registry = registry
        self.settings = settings or TrackerConfig()
        self._square_of_reader = tuple(SQUARE_INDEX[square] for square in readers)
        #: before a game (and after it) every tile may come and go, and nothing is placed.
        self.lobby = True
        self._stacks: list[list[Tile]] = [[] for _ in range(_N)]
        self._where: dict[Tile, int] = {}
        self._arrivals: list[Tile] = []  # this turn's placement, in arrival order
        self._arrived_at: dict[Tile, float] = {}  # when each of them was first seen
        self._leaving: set[Tile] = set()  # taken back by an undo, still to come off
        # evidence about each square's top tile since it was last seen there
        self._top_seen = [0.0] * _N
        self._clear = [0] * _N  # readings clearly without it
        self._usable = [0] * _N  # readings by a working reader
        # evidence about the tiles below each square's top, and about collisions
        self._below_clear = [0] * _N  # readings in a row with no collision and none of them
        self._collided: list[deque[bool]] = [deque(maxlen=COLLISION_WINDOW) for _ in range(_N)]
        # sightings of believed tiles, (tile, square), over the last sweeps
        self._window: deque[list[tuple[Tile, int]]] = deque()
        self._counts: dict[tuple[Tile, int], int] = {}
        self._misplaced: dict[Tile, int] = {}  # scored tile -> square it is seen on instead
        self._pending: dict[Tile, _Pending] = {}
        self._unknown: dict[int, tuple[str, float]] = {}  # square -> (uid, last seen)
        self._cleanup: dict[int, _Cleanup] | None = None
        self._snapshot_faults: frozenset[int] = frozenset()
        self._health_faults: frozenset[int] = frozenset()
        self.connected = False
        self._fresh_sweeps = 0  # usable sweeps since (re)connecting
        self.version = 0  # goes up whenever the believed board changes
        self.changed = 0.0  # when the placement last changed
        self._now = 0.0  # the time of the sweep (or game event) being taken in

    def __repr__(self) -> str:
        return f"<Tracker {self.board!r} placement={self.placement}>"

    # -- what it believes ---------------------------------------------------------------
    @property
    def board(self) -> Board:
        """The believed board: the scored tiles, this turn's arrivals, tiles still to leave."""
        return Board({SQUARES[i]: stack for i, stack in enumerate(self._stacks) if stack})

    @property
    def placement(self) -> tuple[tuple[str, Tile], ...]:
        """The tiles that arrived since the turn began, in arrival order."""
        return tuple((SQUARES[self._where[tile]], tile) for tile in self._arrivals)

    @property
    def leaving(self) -> tuple[tuple[str, Tile], ...]:
        """Tiles an undo took back that are still seen on the board."""
        return tuple(
            (SQUARES[i], t)
            for i, stack in enumerate(self._stacks)
            for t in stack
            if t in self._leaving
        )

    @property
    def ready(self) -> bool:
        """Connected, and enough sweeps seen since, to end a turn on what it believes."""
        return self.connected and self._fresh_sweeps >= READY_SWEEPS

    def problems(self, now: float) -> tuple[Problem, ...]:
        """What the players must see and fix, in board order (nothing is scored meanwhile)."""
        found: list[Problem] = []
        if not self.connected:
            found.append(Problem("hub-disconnected"))
        for i in sorted(self._snapshot_faults | self._health_faults):
            found.append(Problem("reader-fault", SQUARES[i]))
        keep = self.settings.unknown_seconds
        for i in sorted(i for i, (_, seen) in self._unknown.items() if now - seen < keep):
            found.append(Problem("unknown-tag", SQUARES[i]))
        twice: set[int] = set()
        for pending in self._pending.values():
            twice.update(pending.counts)
        for tile, square in self._misplaced.items():
            twice.update((self._where[tile], square))
        found.extend(Problem("tile-twice", SQUARES[i]) for i in sorted(twice))
        off = sorted({self._where[tile] for tile in self._leaving})
        found.extend(Problem("take-off", SQUARES[i]) for i in off)
        found.extend(
            Problem("unreadable", SQUARES[i])
            for i in range(_N)
            if len(self._stacks[i]) <= 1 and sum(self._collided[i]) >= COLLISIONS_UNREADABLE
        )
        return tuple(found)

    def blocking(self, now: float) -> bool:
        """True while a turn must not be scored: a problem, or too few sweeps seen yet."""
        return not self.ready or bool(self.problems(now))

    # -- what the game tells it ----------------------------------------------------------
    def rebase(self, board: Board, now: float, *, leave: bool = False) -> None:
        """The game's board is now `board` (a game started or resumed, a turn was taken back,
        covered tiles went to the bag). Tiles of this turn stay on top of it; believed tiles
        that the game no longer has are dropped, or with `leave` are expected to come off
        (and then the turn's arrivals must come off too)."""
        self._now = now
        extra = set(self._arrivals) | self._leaving
        if leave:
            extra |= {t for t in self._where if t not in board}
        stacks: list[list[Tile]] = [list(board.stack(square)) for square in SQUARES]
        for i, old in enumerate(self._stacks):
            stacks[i].extend(t for t in old if t in extra and t not in board)
        dropped = [t for t in self._where if t not in board and t not in extra]
        if dropped:
            log.info("tiles no longer on the board: %s", " ".join(map(str, dropped)))
        self._stacks = stacks
        self._where = {t: i for i, stack in enumerate(stacks) for t in stack}
        if leave:
            self._leaving = {t for t in self._where if t not in board}
            self._arrivals = []
        else:
            self._leaving = {t for t in self._leaving if t in self._where}
            self._arrivals = [t for t in self._arrivals if t in self._where and t not in board]
        self._arrived_at = {t: self._arrived_at.get(t, now) for t in self._arrivals}
        self._misplaced.clear()
        self._cleanup = None
        for i in range(_N):
            self._new_stack(i)
            self._fresh_top(i, now)
        self._touch(now)

    def commit(self, now: float) -> None:
        """The game scored this turn's placement: its tiles are part of the board now."""
        self._arrivals = []
        self._arrived_at = {}
        self._touch(now)

    def start_cleanup(self, now: float) -> None:
        """The bag is empty: the covered tiles are to go back; watch every covered square."""
        self._cleanup = {}
        for i, stack in enumerate(self._stacks):
            scored = [t for t in stack if t not in self._leaving and t not in self._arrivals]
            if len(scored) > 1:
                self._cleanup[i] = _Cleanup(scored[-1], frozenset(scored[:-1]), since=now)

    def stop_cleanup(self) -> None:
        self._cleanup = None

    @property
    def cleaning(self) -> bool:
        """Watching for the covered tiles to go back to the bag."""
        return self._cleanup is not None

    @property
    def cleanup_done(self) -> bool:
        """Every square that had covered tiles has read only its top tile for a while."""
        return self._cleanup is not None and all(c.done for c in self._cleanup.values())

    def cleanup_squares(self) -> tuple[str, ...]:
        """Squares whose covered tiles are still seen as there (for the display)."""
        if self._cleanup is None:
            return ()
        return tuple(SQUARES[i] for i, c in sorted(self._cleanup.items()) if not c.done)

    def set_health(self, connected: bool, faulty_readers: Iterable[int], now: float) -> None:
        if not connected and self.connected:
            log.warning("reader hub disconnected: keeping the last known board")
        if not connected:
            self._fresh_sweeps = 0
            self._snapshot_faults = frozenset()  # the last sweep's faults are old news
        self.connected = connected
        self._health_faults = frozenset(
            self._square_of_reader[r]
            for r in faulty_readers
            if 0 <= r < len(self._square_of_reader)
        )

    # -- what the readers say ------------------------------------------------------------
    def update(self, snapshot: Snapshot, now: float) -> None:
        """Takes in one sweep of the readers."""
        self._now = now
        if not self.connected:
            log.info("reader hub connected")
        self.connected = True
        readings: list[tuple[str, frozenset[Tile]] | None] = [None] * _N  # None: unusable
        seen: dict[Tile, list[int]] = {}
        faults = set()
        for reader, reading in enumerate(snapshot.readers[: len(self._square_of_reader)]):
            i = self._square_of_reader[reader]
            if reading.status == "fault":
                faults.add(i)
                continue
            if i in self._health_faults:
                continue
            tiles = set()
            for uid in reading.uids:
                tile = self.registry.tile(uid)
                if tile is None:
                    if i not in self._unknown:
                        log.warning("unknown tag %s on square %s", uid, SQUARES[i])
                    self._unknown[i] = (uid, now)
                    continue
                tiles.add(tile)
                seen.setdefault(tile, []).append(i)
            readings[i] = (reading.status, frozenset(tiles))
        self._snapshot_faults = frozenset(faults)
        if not faults and not self._health_faults:
            self._fresh_sweeps += 1
        self._remember(seen)
        self._weigh_tops(readings, seen, now)
        self._weigh_below(readings)
        self._arrive_new(seen, now)
        self._move_or_flag(seen, now)
        self._remove_gone(now)
        self._watch_cleanup(readings, now)

    def _remember(self, seen: dict[Tile, list[int]]) -> None:
        """Keeps the sightings of believed tiles over the last `window_sweeps` sweeps."""
        sweep = [(t, i) for t, squares in seen.items() if t in self._where for i in squares]
        self._window.append(sweep)
        for key in sweep:
            self._counts[key] = self._counts.get(key, 0) + 1
        while len(self._window) > self.settings.window_sweeps:
            for key in self._window.popleft():
                left = self._counts[key] - 1
                if left:
                    self._counts[key] = left
                else:
                    del self._counts[key]

    def _weigh_tops(self, readings, seen: dict[Tile, list[int]], now: float) -> None:
        """Counts, per square, the readings that are clearly without its top tile."""
        for i, reading in enumerate(readings):
            stack = self._stacks[i]
            if reading is None or not stack:
                continue
            top = stack[-1]
            if i in seen.get(top, ()):
                self._fresh_top(i, now)
                continue
            self._usable[i] += 1
            verdict = self._without_top(stack, *reading)
            if verdict:
                self._clear[i] += 1
            elif verdict is False:
                self._clear[i] = 0

    def _weigh_below(self, readings) -> None:
        """Counts, per square, the readings that show none of the tiles below the top and no
        collision; and keeps which squares read as collisions."""
        for i, reading in enumerate(readings):
            if reading is None:
                continue
            status, tiles = reading
            self._collided[i].append(status == "collision")
            below = self._stacks[i][:-1]
            if status == "collision" or tiles.intersection(below):
                self._below_clear[i] = 0
            elif status == "ok":
                self._below_clear[i] += 1

    def _without_top(self, stack: list[Tile], status: str, tiles: frozenset[Tile]) -> bool | None:
        """Does this reading (that did not see the top tile) show the square without it?
        True: clearly; False: the stack seems still there; None: cannot tell."""
        below = stack[:-1]
        if status == "empty":
            # a stack may read as nothing, so empty only speaks for tiles that may all go
            return all(self._may_go(t) for t in below) or None
        if status == "collision":
            return False if len(below) <= 1 else None  # what is left could not collide
        if tiles and tiles <= set(below):
            return True
        return None

    def _arrive_new(self, seen: dict[Tile, list[int]], now: float) -> None:
        settings = self.settings
        for tile, squares in seen.items():
            if tile in self._where:
                continue
            pending = self._pending.get(tile)
            if pending is None and len(squares) == 1:
                self._arrive(tile, squares[0], now)
                continue
            if pending is None:
                pending = self._pending[tile] = _Pending(now)
                where = " and ".join(SQUARES[i] for i in squares)
                log.info("%s seen on %s at once: waiting for more sightings", tile, where)
            pending.last_seen = now
            for i in squares:
                pending.counts[i] = pending.counts.get(i, 0) + 1
            ranked = sorted(pending.counts.items(), key=lambda item: -item[1])
            lead = ranked[0][1] - (ranked[1][1] if len(ranked) > 1 else 0)
            if lead >= settings.decide_lead:
                del self._pending[tile]
                self._arrive(tile, ranked[0][0], now, since=pending.first_seen)
        for tile, pending in list(self._pending.items()):
            if now - pending.last_seen >= settings.pending_seconds:
                log.info("%s no longer seen: forgotten", tile)
                del self._pending[tile]

    def _move_or_flag(self, seen: dict[Tile, list[int]], now: float) -> None:
        """A believed tile seen consistently on another square: moved if it may move (not
        scored yet), else shown as a problem until the evidence is gone."""
        candidates = {t for t, squares in seen.items() if t in self._where} | set(self._misplaced)
        for tile in candidates:
            home = self._where.get(tile)
            if home is None:
                self._misplaced.pop(tile, None)
                continue
            there = self._elsewhere(tile, home)
            if there is None:
                self._misplaced.pop(tile, None)
            elif self._may_go(tile) and self._stacks[home][-1] == tile:
                self._misplaced.pop(tile, None)
                log.info("%s moved from %s to %s", tile, SQUARES[home], SQUARES[there])
                self._take(tile)
                self._put(tile, there, now)
                if tile in self._arrivals:
                    self._arrivals.remove(tile)
                    self._arrivals.append(tile)
                    self._arrived_at[tile] = now
                elif tile in self._leaving:  # taken back and put down again: a new placement
                    self._leaving.discard(tile)
                    if not self.lobby:
                        self._arrivals.append(tile)
                        self._arrived_at[tile] = now
                self._touch(now)
            elif tile not in self._misplaced:
                log.warning(
                    "%s belongs on %s but is seen on %s", tile, SQUARES[home], SQUARES[there]
                )
                self._misplaced[tile] = there

    def _elsewhere(self, tile: Tile, home: int) -> int | None:
        if self._counts.get((tile, home)):
            return None
        need = self.settings.move_sightings
        for i in range(_N):
            if i != home and self._counts.get((tile, i), 0) >= need:
                return i
        return None

    def _remove_gone(self, now: float) -> None:
        settings = self.settings
        for i, stack in enumerate(self._stacks):
            if not stack:
                continue
            if self._below_clear[i] >= BELOW_CLEAR_READINGS:
                for tile in [t for t in stack[:-1] if self._may_go(t) and t not in self._leaving]:
                    log.info("%s taken from under the top of %s", tile, SQUARES[i])
                    self._take(tile)
                    self._arrivals = [t for t in self._arrivals if t != tile]
                    self._arrived_at.pop(tile, None)
                    self._touch(now)
                stack = self._stacks[i]
                if not stack:
                    continue
            top = stack[-1]
            unseen = now - self._top_seen[i]
            if top in self._leaving:
                gone = (
                    unseen >= settings.leave_seconds and self._clear[i] >= settings.lift_sweeps
                ) or (
                    unseen >= 3 * settings.leave_seconds and self._usable[i] >= settings.lift_sweeps
                )
            elif self._may_go(top):
                gone = unseen >= settings.lift_seconds and self._clear[i] >= settings.lift_sweeps
            else:
                continue
            if gone:
                log.info("%s taken off %s", top, SQUARES[i])
                self._take(top)
                self._arrivals = [t for t in self._arrivals if t != top]
                self._arrived_at.pop(top, None)
                self._leaving.discard(top)
                self._touch(now)

    def _watch_cleanup(self, readings, now: float) -> None:
        if not self._cleanup:
            return
        lift_sweeps, lift_seconds = self.settings.lift_sweeps, self.settings.lift_seconds
        for i, cleanup in self._cleanup.items():
            reading = readings[i]
            if cleanup.done or reading is None:
                continue
            status, tiles = reading
            if status == "collision" or tiles & cleanup.covered:
                cleanup.clean = 0
            elif status == "ok" and tiles == {cleanup.top}:
                if cleanup.clean == 0:
                    cleanup.since = now
                cleanup.clean += 1
                if cleanup.clean >= lift_sweeps and now - cleanup.since >= lift_seconds:
                    cleanup.done = True
                    log.info("square %s reads only its top tile %s", SQUARES[i], cleanup.top)

    # -- changing the belief ---------------------------------------------------------------
    def _may_go(self, tile: Tile) -> bool:
        return self.lobby or tile in self._leaving or tile in self._arrivals

    def _arrive(self, tile: Tile, i: int, now: float, since: float | None = None) -> None:
        """`tile` arrived on square i when first seen (`since`, for a tile that had to be
        decided): below the tiles of this turn that arrived after it, in arrival order."""
        since = now if since is None else since
        log.info("%s arrived on %s", tile, SQUARES[i])
        stack = self._stacks[i]
        depth = 0
        while depth < len(stack) and self._arrived_at.get(stack[-1 - depth], -1.0) > since:
            depth += 1
        self._put(tile, i, now, depth)
        if not self.lobby:
            self._arrived_at[tile] = since
            later = [t for t in self._arrivals if self._arrived_at.get(t, 0.0) > since]
            self._arrivals.insert(len(self._arrivals) - len(later), tile)
        self._touch(now)

    def _put(self, tile: Tile, i: int, now: float, depth: int = 0) -> None:
        """Puts `tile` on square i, `depth` tiles below the top (0: as the new top)."""
        stack = self._stacks[i]
        stack.insert(len(stack) - depth, tile)
        self._where[tile] = i
        self._new_stack(i)
        if depth == 0:
            self._fresh_top(i, now)

    def _take(self, tile: Tile) -> None:
        i = self._where.pop(tile)
        self._stacks[i].remove(tile)
        self._new_stack(i)
        self._fresh_top(i, self._now)

    def _new_stack(self, i: int) -> None:
        """The believed stack of square i changed: evidence about the old one is void."""
        self._below_clear[i] = 0
        self._collided[i].clear()

    def _fresh_top(self, i: int, now: float) -> None:
        self._top_seen[i] = now
        self._clear[i] = 0
        self._usable[i] = 0

    def _touch(self, now: float) -> None:
        self.version += 1
        self.changed = now
