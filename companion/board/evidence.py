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
  sweep, learned from tiles the game keeps there (and from a tile that may go, once it was
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
SEEN_PRIOR = ((0.9, 4.0), (0.6, 4.0), (0.35, 4.0), (0.2, 4.0), (0.1, 4.0), (0.05, 4.0))
NOTHING_PRIOR = (0.05, 4.0)
COLLISION_PRIOR = (0.05, 4.0)
#: silence starts per reading of a square holding tiles (one every 20 s at ten sweeps).
SILENCE_PRIOR = (0.005, 40.0)
#: a crosstalk link nobody has seen yet: a tile seen on a neighbour one sweep in fifty.
CROSS_PRIOR = (0.02, 10.0)
#: before any silence was heard out on a square: silences last about this long (seconds).
SILENCE_SECONDS_PRIOR = 10.0


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
    return [Rate.prior(*SEEN_PRIOR[min(k, len(SEEN_PRIOR) - 1)]) for k in range(HEIGHTS)]


@dataclass(slots=True)
class SquareEvidence:
    """How one square's reader behaves, as learned so far (see the module's docstring)."""

    seen: list[Rate] = field(default_factory=_seen_priors)
    nothing: list[Rate] = field(
        default_factory=lambda: [Rate.prior(*NOTHING_PRIOR) for _ in range(HEIGHTS)]
    )
    collision: list[Rate] = field(
        default_factory=lambda: [Rate.prior(*COLLISION_PRIOR) for _ in range(HEIGHTS)]
    )
    silence: Rate = field(default_factory=lambda: Rate.prior(*SILENCE_PRIOR))
    #: the silences heard out (they ended with a tile read), seconds, the latest last
    silence_lasts: list[float] = field(default_factory=list)
    cross: dict[int, Rate] = field(default_factory=dict)
    #: readings of nothing in a row now, and when the run began
    quiet: int = 0
    quiet_since: float = 0.0

    # -- what it says ------------------------------------------------------------------
    def sees(self, position: int) -> float:
        """The chance a tile `position` tiles above the reader is read in a sweep."""
        return self.seen[min(position, HEIGHTS - 1)].p

    def reads_nothing(self, height: int) -> float:
        return self.nothing[min(height, HEIGHTS) - 1].p if height else 1.0

    def collides(self, height: int) -> float:
        return self.collision[min(height, HEIGHTS) - 1].p if height else 0.0

    def crosses(self, j: int) -> float:
        """The chance a tile of this square is read by square j's reader in a sweep."""
        rate = self.cross.get(j)
        return rate.p if rate is not None else CROSS_PRIOR[0]

    def silence_longest(self) -> float:
        """The longest silence heard out here (the prior before any)."""
        return max(self.silence_lasts, default=SILENCE_SECONDS_PRIOR)

    def silence_outlasts(self, seconds: float) -> float:
        """The chance a silence lasts longer than `seconds`, from the silences heard out
        (each counted as half a silence either side of its length, and one prior silence
        of SILENCE_SECONDS_PRIOR: a square never heard silent is not sure of it)."""
        lasts = [*self.silence_lasts, SILENCE_SECONDS_PRIOR]
        longer = sum(1.0 if t > seconds else 0.5 if t == seconds else 0.0 for t in lasts)
        tail = math.exp(-seconds / max(lasts))  # beyond the longest: falling off
        return max(longer / len(lasts), 0.0) * 0.5 + 0.5 * tail

    # -- what it learns ----------------------------------------------------------------
    def learn_position(self, position: int, hit: bool) -> None:
        self.seen[min(position, HEIGHTS - 1)].add(hit)

    def learn_reading(self, height: int, nothing: bool, collision: bool) -> None:
        if not height:
            return
        self.nothing[min(height, HEIGHTS) - 1].add(nothing)
        self.collision[min(height, HEIGHTS) - 1].add(collision)

    def learn_cross(self, j: int, hit: bool) -> None:
        rate = self.cross.get(j)
        if rate is None:
            rate = self.cross[j] = Rate.prior(*CROSS_PRIOR)
        rate.add(hit)

    def hear(self, answered: bool, holds: bool, now: float) -> None:
        """One more reading: `answered` (a tile read), while tiles lie there (`holds`).
        Learns when silences start and how long they last."""
        if not answered:
            if self.quiet == 0:
                self.quiet_since = now
            self.quiet += 1
            if holds and self.quiet == SILENCE_READINGS:
                self.silence.add(True)
            return
        if self.quiet >= SILENCE_READINGS and holds:
            self.silence_lasts.append(now - self.quiet_since)
            del self.silence_lasts[:-20]
        elif holds:
            self.silence.add(False)
        self.quiet = 0

    def silent_for(self, now: float) -> float:
        """How long the square has read nothing (0 when it answered last)."""
        return now - self.quiet_since if self.quiet else 0.0
