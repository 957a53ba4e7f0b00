"""What the game's own history says about each square's reader: learned, square by square,
from the readings of tiles the belief holds (SMURF, Jeffery et al. VLDB 2006, sizes its
windows from each tag's observed read rate; Baba et al. SIGMOD 2016 learn false positives,
crosstalk, and false negatives, misses, from raw readings: the same idea, with the game
saying which tiles lie where).

Every rate is a Beta-style count, `Rate`: hits out of trials plus a prior of a few trials at
a cautious value, so a square nobody has seen yet behaves like the prior and a square seen
for a minute behaves like itself. Counts are scaled down past `MEMORY` trials, so a reader
that warms up or a stack that is straightened is followed within a few hundred sweeps.

Per square (`SquareEvidence`):

- `seen[k]`: how often the tile `k` tiles above the reader (0: lying on it) is read in a
  sweep, as the top of its stack and covered apart (readers differ: some see by height,
  some mostly the top), learned from tiles the game keeps there (and from a tile that may go, once it was
  seen again after the gap: a lifted tile's gap never counts);
- `nothing[h]`, `collision[h]`: how often the square reads as nothing, or a collision,
  while `h` tiles lie there;
- silences: how often the square starts reading nothing for `SILENCE_READINGS` readings or
  more while tiles lie there, and how long such silences lasted (`silence_lasts`);
- `cross[j]`: how often a tile lying on this square is also read by square `j`'s reader.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

#: the counts behind a rate are scaled down to this many trials: the last few hundred
#: readings speak for the reader.
MEMORY = 400.0
#: positions and heights are told apart up to here (a stack of seven or more is "tall").
HEIGHTS = 7
#: readings of nothing in a row that make a silence rather than a miss.
SILENCE_READINGS = 3

#: priors, each (value, weight in trials). Cautious: a tile the readers have not shown
#: yet is assumed hard to see (a confirmation waits longer) and a square not yet heard is
#: assumed able to fall silent (a lift waits longer).
#: the bottom tile as the top of its square, and covered; the second as one read every
#: other sweep (a reader 3 mm further off); a position further up that no square has held
#: a tile at yet is assumed all but dark (UNKNOWN_PRIOR): readers differ most in how they
#: see higher tiles (from almost as well to almost never), and taking such a tile for
#: visible lifts it on its misses and scores a press without it. Each position is learned
#: for the whole table (readers of one make), each square's own readings weighing as much
#: as the table's after SHRINK_SEEN of them.
SEEN_PRIOR = 0.9
COVERED_PRIOR = 0.5
SECOND_PRIOR = 0.5
UNKNOWN_PRIOR = 0.05
#: ... which is what "cautious" decisions take (`SquareEvidence.sees`); for weighing where a
#: tile seen lies, a position not read yet is taken as DEEPER_PRIOR times the one below it
DEEPER_PRIOR = 0.7
SEEN_WEIGHT = 4.0
SHRINK_SEEN = 20.0
NOTHING_PRIOR = (0.05, 4.0)
COLLISION_PRIOR = (0.05, 4.0)
#: one tag alone cannot collide: a single tile reads as a collision only by a hand or a
#: neighbour's crosstalk
COLLISION_ALONE_PRIOR = (0.01, 10.0)
#: a square's own counts of nothing and collisions weigh as much as the whole table's
#: after this many of its own readings
SHRINK_READINGS = 50.0
#: a run of nothing over a stack of at most this many tiles is its reader's silence: the
#: bottom tile of such a stack is read nearly every sweep (`Silences.low_lasts`)
LOW_STACK = 3
#: Silences are rare events, learned for the whole table (readers of one make) and shrunk
#: toward it square by square (`SHRINK_*`: a square's own count weighs as much as the
#: table's after that many of its own trials).
#: silence starts per reading of a square holding tiles (a table never heard silent: one in
#: 10,000 readings, a quarter of an hour at ten sweeps a second)
SILENCE_PRIOR = (0.0001, 1000.0)
SHRINK_SILENCE = 2000.0
#: silences that start within AFTER_CHANGE_SECONDS of the stack changing, per change
#: (a table not heard silent yet: cautiously, one change in 20, until its own changes speak)
AFTER_CHANGE_PRIOR = (0.05, 5.0)
SHRINK_AFTER_CHANGE = 20.0
AFTER_CHANGE_SECONDS = 2.0
#: crosstalk comes in runs: a neighbour that read a tile reads it again the next sweep
#: (learned for the whole table)
CROSS_RUN_PRIOR = (0.5, 10.0)
#: a crosstalk link nobody has seen yet: a tile seen on a neighbour one sweep in fifty.
CROSS_PRIOR = (0.02, 10.0)
#: the most often a neighbour's reader is believed to show some tile of a square
#: (`SquareEvidence.cross_ceiling`): the learned rate's upper bound at CROSS_CEILING_Z
#: standard errors (a link that shows tiles more often than that is met about once in
#: 700 links), its readings counted as the independent ones they are in runs, and never
#: above CROSS_MOST (readers have been seen to show a neighbour's tiles in up to a third
#: of the sweeps): a link not watched yet is taken as that bad
CROSS_CEILING_Z = 3.0
CROSS_MOST = 1 / 3
#: a watched link is told crossing (its rate's lower bound at CROSS_TELL_Z above
#: CROSS_FLOOR) or clean (its upper bound below CROSS_LEAST, the rarest crosstalk that
#: readers have been seen to give): the table's links say how likely a link not watched
#: yet is to cross at all (`Tracker._unwatched_odds`)
CROSS_TELL_Z = 2.0
CROSS_FLOOR = 0.005
CROSS_LEAST = 0.02
#: before any silence was heard out: they may last this long (seconds; readers have been
#: seen silent for half a minute), the tail beyond the longest heard falling off as fast.
SILENCE_SECONDS_PRIOR = 30.0


def wilson(p: float, n: float, z: float, upper: bool = True) -> float:
    """Wilson's bound on a rate seen as `p` over `n` independent trials, `z` standard
    errors above it (or below it)."""
    if n <= 0.0:
        return 1.0 if upper else 0.0
    z2 = z * z
    centre = p + z2 / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return ((centre + spread) if upper else max(0.0, centre - spread)) / (1 + z2 / n)


@dataclass(slots=True)
class Rate:
    """`hits` out of `trials` (the prior included): a Beta(hits, trials - hits) belief."""

    hits: float
    trials: float

    @classmethod
    def prior(cls, value: float, weight: float) -> Rate:
        return cls(value * weight, weight)

    @property
    def p(self) -> float:
        return self.hits / self.trials

    def add(self, hit: bool, memory: float = MEMORY) -> None:
        if self.trials >= memory:
            scale = (memory - 1.0) / self.trials
            self.hits *= scale
            self.trials *= scale
        self.trials += 1.0
        if hit:
            self.hits += 1.0

    def __repr__(self) -> str:
        return f"Rate({self.hits:.1f}, {self.trials:.1f})"


def _seen_priors() -> list[Rate]:
    return [Rate(0.0, 0.0) for _ in range(2 * HEIGHTS)]


@dataclass(slots=True)
class Silences:
    """What the whole table's readers taught about silences: how often one starts per
    reading, how often just after a change, and how long they last."""

    starts: Rate = field(default_factory=lambda: Rate.prior(*SILENCE_PRIOR))
    after_change: Rate = field(default_factory=lambda: Rate.prior(*AFTER_CHANGE_PRIOR))
    lasts: list[float] = field(default_factory=list)
    #: ... of those, the ones heard over a stack of at most LOW_STACK tiles: a reader that
    #: fell silent, not a stack too tall to read (a clean table's only runs of nothing)
    low_lasts: list[float] = field(default_factory=list)
    #: readings of nothing, and of a collision, by height, over all squares
    nothing: list[Rate] = field(
        default_factory=lambda: [Rate.prior(*NOTHING_PRIOR) for _ in range(HEIGHTS)]
    )
    collision: list[Rate] = field(
        default_factory=lambda: [
            Rate.prior(*(COLLISION_ALONE_PRIOR if h == 0 else COLLISION_PRIOR))
            for h in range(HEIGHTS)
        ]
    )
    #: crosstalk runs: a neighbour that read a square's tile reads it again the next sweep
    cross_runs: Rate = field(default_factory=lambda: Rate.prior(*CROSS_RUN_PRIOR))
    #: how often a tile at each position is read, as a top and covered, over all squares
    seen: list[Rate] = field(default_factory=lambda: _seen_priors())

    def sees(self, position: int, top: bool, cautious: bool = False) -> float:
        """The table's rate for a tile at `position` (as the top, or covered): a position
        no tile was read at yet is taken, `cautious`ly, as all but dark (UNKNOWN_PRIOR),
        else as DEEPER_PRIOR times the one below it."""
        rate = self.seen[position + (0 if top else HEIGHTS)]
        if position == 0:
            prior = SEEN_PRIOR if top else COVERED_PRIOR
        elif position == 1:
            prior = SECOND_PRIOR
        elif cautious:
            prior = UNKNOWN_PRIOR
        else:
            prior = DEEPER_PRIOR * self.sees(position - 1, top)
        return (rate.hits + SEEN_WEIGHT * prior) / (rate.trials + SEEN_WEIGHT)

    def outlasts(self, seconds: float, own: list[float]) -> float:
        """The chance a silence lasts longer than `seconds`: from the silences heard out
        on the square (`own`) and on the table, one prior silence of SILENCE_SECONDS_PRIOR
        among them; beyond the longest, falling off exponentially (half as fast)."""
        lasts = [*own, *self.lasts[-20:], SILENCE_SECONDS_PRIOR]
        longer = sum(1.0 if t > seconds else 0.0 for t in lasts) / len(lasts)
        tail = math.exp(-seconds / (2.0 * max(lasts)))
        return 0.5 * longer + 0.5 * tail


def _shrunk(own: Rate, table: Rate, weight: float) -> float:
    return (own.hits + weight * table.p) / (own.trials + weight)


@dataclass(slots=True)
class SquareEvidence:
    """How one square's reader behaves, as learned so far (see the module's docstring)."""

    seen: list[Rate] = field(default_factory=_seen_priors)
    nothing: list[Rate] = field(default_factory=lambda: [Rate(0.0, 0.0) for _ in range(HEIGHTS)])
    collision: list[Rate] = field(default_factory=lambda: [Rate(0.0, 0.0) for _ in range(HEIGHTS)])
    table: Silences = field(default_factory=Silences)
    silence: Rate = field(default_factory=lambda: Rate(0.0, 0.0))
    after_change: Rate = field(default_factory=lambda: Rate(0.0, 0.0))
    #: when the believed stack last changed, while it is unknown whether a silence follows
    changed: float | None = None
    changed_at: float | None = None  # when the stack last changed (kept)
    #: the silences heard out (they ended with a tile read), seconds, the latest last
    silence_lasts: list[float] = field(default_factory=list)
    cross: dict[int, Rate] = field(default_factory=dict)
    #: per neighbour j: how often j's reader shows any tile of this square (an upper bound
    #: on any one tile's crosstalk, whatever its height: `cross_ceiling`)
    cross_any: dict[int, Rate] = field(default_factory=dict)
    #: readings of nothing in a row now, and when the run began
    quiet: int = 0
    quiet_since: float = 0.0
    #: ... whether it began within AFTER_CHANGE_SECONDS of a change, and whether the
    #: believed stack changed during it (or held nothing when it began): then its end is
    #: no proof of a silence by itself (`silence_heard`, from the tracker, may prove it)
    run_after_change: bool = False
    run_broken: bool = False

    # -- what it says ------------------------------------------------------------------
    def sees(self, position: int, top: bool = True, cautious: bool = False) -> float:
        """The chance a tile `position` tiles above the reader is read in a sweep, as the
        top of its stack or covered: this square's readings, shrunk toward the table's.
        `cautious`: for the decisions that a flattering rate makes wrongly (is a tile
        there although unseen? lifted? confirmed?), a position never read yet is all but
        dark, and not more than this square's own readings alone say (readers of one make
        still differ most in how they see high tiles)."""
        position = min(position, HEIGHTS - 1)
        table = self.table.sees(position, top, cautious)
        own = self.seen[position + (0 if top else HEIGHTS)]
        shrunk = (own.hits + SHRINK_SEEN * table) / (own.trials + SHRINK_SEEN)
        return min(shrunk, self.sees_own(position, top)) if cautious else shrunk

    def seen_weight(self, position: int, top: bool = True) -> float:
        """How many readings `sees` rests on for that position: this square's own, and
        the table's as SHRINK_SEEN of them."""
        position = min(position, HEIGHTS - 1)
        return self.seen[position + (0 if top else HEIGHTS)].trials + SHRINK_SEEN

    def sees_own(self, position: int, top: bool = True) -> float:
        """As `sees`, from this square's own readings alone (the table's rate only for the
        bottom tile): for decisions a flattering rate learned on other squares would make
        wrongly (readers of one make still differ most in how they see high tiles)."""
        position = min(position, HEIGHTS - 1)
        if position == 0:
            prior = self.table.sees(0, top)
        else:
            prior = SECOND_PRIOR if position == 1 else UNKNOWN_PRIOR
        own = self.seen[position + (0 if top else HEIGHTS)]
        return (own.hits + SEEN_WEIGHT * prior) / (own.trials + SEEN_WEIGHT)

    def reads_nothing(self, height: int) -> float:
        if not height:
            return 1.0
        h = min(height, HEIGHTS) - 1
        return _shrunk(self.nothing[h], self.table.nothing[h], SHRINK_READINGS)

    def collides(self, height: int) -> float:
        if not height:
            return 0.0
        h = min(height, HEIGHTS) - 1
        return _shrunk(self.collision[h], self.table.collision[h], SHRINK_READINGS)

    def crosses(self, j: int) -> float:
        """The chance a tile of this square is read by square j's reader in a sweep."""
        rate = self.cross.get(j)
        return rate.p if rate is not None else CROSS_PRIOR[0]

    def cross_ceiling(self, j: int, runs: float) -> float:
        """The most often square j's reader may show a tile of this square in a sweep, as
        far as the readings tell (`CROSS_CEILING_Z`), its readings counted as independent
        ones where crosstalk repeats itself the next sweep with chance `runs`: CROSS_MOST
        for a link not watched yet."""
        rate = self.cross_any.get(j)
        if rate is None or rate.trials <= 0.0:
            return CROSS_MOST
        n = rate.trials * (1.0 - runs) / (1.0 + runs)
        return min(CROSS_MOST, wilson(rate.p, n, CROSS_CEILING_Z))

    def crossing(self, j: int, runs: float) -> bool | None:
        """Whether square j's reader shows this square's tiles at all, as far as the
        readings tell (`CROSS_TELL_Z`): True, False, or None (not watched enough)."""
        rate = self.cross_any.get(j)
        if rate is None or rate.trials <= 0.0:
            return None
        n = rate.trials * (1.0 - runs) / (1.0 + runs)
        if wilson(rate.p, n, CROSS_TELL_Z, upper=False) > CROSS_FLOOR:
            return True
        if wilson(rate.p, n, CROSS_TELL_Z) < CROSS_LEAST:
            return False
        return None

    def silence_longest(self) -> float:
        """The longest silence heard out here or on the table (the prior before any)."""
        return max([*self.silence_lasts, *self.table.lasts, SILENCE_SECONDS_PRIOR])

    def silence_outlasts(self, seconds: float) -> float:
        return self.table.outlasts(seconds, self.silence_lasts)

    # -- what it learns ----------------------------------------------------------------
    def learn_position(self, position: int, hit: bool, top: bool = True) -> None:
        index = min(position, HEIGHTS - 1) + (0 if top else HEIGHTS)
        self.seen[index].add(hit)
        self.table.seen[index].add(hit, memory=4 * MEMORY)

    def learn_reading(self, height: int, nothing: bool, collision: bool) -> None:
        if not height:
            return
        h = min(height, HEIGHTS) - 1
        self.nothing[h].add(nothing)
        self.collision[h].add(collision)
        self.table.nothing[h].add(nothing, memory=4 * MEMORY)
        self.table.collision[h].add(collision, memory=4 * MEMORY)

    def learn_cross(self, j: int, hit: bool) -> None:
        rate = self.cross.get(j)
        if rate is None:
            rate = self.cross[j] = Rate.prior(*CROSS_PRIOR)
        rate.add(hit)

    def learn_cross_any(self, j: int, hit: bool) -> None:
        # (kept whole: whether a link crosses at all shows only over minutes of its runs)
        self.cross_any.setdefault(j, Rate(0.0, 0.0)).add(hit, memory=1e9)

    def change(self, now: float) -> None:
        """The believed stack changed: does a silence follow?"""
        if self.changed is not None and self.quiet < SILENCE_READINGS:
            self._after_change(False)  # it answered since the last change
        self.changed = self.changed_at = now
        if self.quiet:
            self.run_broken = True

    def after_change_rate(self) -> float:
        """The chance a silence starts just after a change of the stack, as learned."""
        return _shrunk(self.after_change, self.table.after_change, SHRINK_AFTER_CHANGE)

    def silence_starts(self, since: float) -> float:
        """The chance a silence starts at a given reading: far likelier within
        AFTER_CHANGE_SECONDS of a change (`since`: when the run of nothing began)."""
        changed = self.changed_at
        if changed is not None and 0.0 <= since - changed < AFTER_CHANGE_SECONDS:
            return self.after_change_rate()
        return _shrunk(self.silence, self.table.starts, SHRINK_SILENCE)

    def hear(self, answered: bool, holds: bool, now: float, low: bool = True) -> None:
        """One more reading: `answered` (a tile read), while tiles lie there (`holds`).
        Learns when silences start and how long they last, from silences proven: a run of
        nothing is one only once the same stack reads again (a tile taken off meanwhile,
        the tracker proves it: `silence_heard`); a run that ends a lift is none. `low`: the
        stack holds at most LOW_STACK tiles."""
        changed = self.changed
        pending = changed is not None and now - changed < AFTER_CHANGE_SECONDS
        if changed is not None and not pending and self.quiet < SILENCE_READINGS:
            self._after_change(False)
            self.changed = None
        if not answered:
            if self.quiet == 0:
                self.quiet_since = now
                self.run_after_change = pending
                self.run_broken = not holds
            self.quiet += 1
            return
        if self.quiet >= SILENCE_READINGS and holds and not self.run_broken:
            self.silence_heard(now - self.quiet_since, self.run_after_change, low)
        elif holds and self.quiet < SILENCE_READINGS:
            self.silence.add(False)
            self.table.starts.add(False, memory=1e9)
        self.quiet = 0

    def silence_heard(self, seconds: float, after_change: bool, low: bool = True) -> None:
        """A silence proven: the square read nothing for `seconds` while its stack lay
        there (the same tiles read again after it), begun just after a change or by
        itself; `low`: over a stack of at most LOW_STACK tiles."""
        if after_change:
            self._after_change(True)
            self.changed = None
        else:
            self.silence.add(True)
            self.table.starts.add(True, memory=1e9)
        self.silence_lasts.append(seconds)
        del self.silence_lasts[:-20]
        self.table.lasts.append(seconds)
        del self.table.lasts[:-100]
        if low:
            self.table.low_lasts.append(seconds)
            del self.table.low_lasts[:-100]
        self.run_broken = True  # counted once

    def _after_change(self, silent: bool) -> None:
        self.after_change.add(silent)
        self.table.after_change.add(silent, memory=1e9)

    def silent_for(self, now: float) -> float:
        """How long the square has read nothing (0 when it answered last)."""
        return now - self.quiet_since if self.quiet else 0.0
