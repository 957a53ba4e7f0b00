"""Reader physics for the soak: what twelve readers under a board report, each with its own
values, drawn at random (`hardware.hub.sim_classes`) rather than fitted to what the daemon
expects.

`FaultModel` (`sim_faults`) is one point: the rates the tracker was written against. This
module is a space of them. A reader sits under its square, so the bottom tile of a stack is
nearest to its antenna and each tile further up answers less often (`ReaderPhysics.answers`:
from barely less to almost never for the third tile up); a tall stack may detune the reader
so that it reads nothing or a collision most of the time; several tags answering at once
collide; a reader falls silent for a second to half a minute after its stack changed, or now
and then by itself (a tile off centre, a warm reader), a single tile included; a neighbour's
antenna sees a square's tags in runs of several sweeps, whatever the square's own reader saw
that sweep; sweeps come irregularly, now and then one is late; lines are damaged on the way
and the host drops them. Hardware knows no tiles: a tag is its UID, a square its reader.

Every draw comes from the one `random.Random` given, in a fixed order, so a seed and the
same sequence of stacks give the same readings every run.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from hardware.hub.protocol import COLLISION, MAX_LINE
from hardware.hub.sim_faults import Stacks, fit_line
from hardware.hub.snapshot import EMPTY, ReaderReading

#: a reader that falls silent after its stack changed still answers this long first: it
#: reads the change, then falls silent (a tile never read at all, on a square whose
#: reading did not change, is beyond any daemon)
ANSWERS_FIRST = 0.3


def _probability(name: str, value: float) -> None:
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} is a probability (0..1), not {value}")


def _span(name: str, span: tuple[float, float], low: float = 0.0) -> None:
    if not low <= span[0] <= span[1]:
        raise ValueError(f"{name} is a range {low} <= low <= high, not {span}")


@dataclass(frozen=True, slots=True)
class Crosstalk:
    """A neighbouring reader (`reader`) that sees this square's tags: in runs of `run`
    sweeps on average, `share` of the sweeps in all, each tag then answering there with
    `strength`, less the higher it lies (as on its own square: `ReaderPhysics.falloff`)."""

    reader: int
    share: float
    run: float = 4.0
    strength: float = 1.0

    def __post_init__(self) -> None:
        _probability("crosstalk share", self.share)
        _probability("crosstalk strength", self.strength)
        if self.share >= 1.0 or self.run < 1.0:
            raise ValueError("crosstalk needs share < 1 and runs of at least one sweep")

    @property
    def starts(self) -> float:
        """Per sweep without it, the chance a run starts: `share` of the sweeps in runs."""
        return min(1.0, self.share / (self.run * (1.0 - self.share)))


@dataclass(frozen=True, slots=True)
class ReaderPhysics:
    """One reader under one square. All zero but `near`, `keep` and `hover`: it reads
    every tag of its stack every sweep (bottom first is no promise: a reader lists the tags
    in the order its anticollision resolves them, here by UID).

    - `near`: the chance the tile lying on the reader (the bottom one) answers in a sweep;
      the second tile answers `keep` times as often, and each tile above it `deep` times
      as often as the one below it (so the third tile up answers `near * keep * deep`).
    - `collide`: with two tags answering, the chance the sweep reads as a collision; each
      more tag is one more such chance.
    - `tall`: a stack of this many tiles or more (0: none) reads as nothing with
      `tall_nothing`, as a collision with `tall_collision`, else tag by tag as above.
    - `miss`: per tag and sweep, the chance it stops answering for `miss_sweeps` sweeps.
    - `silent_after_change`: the chance that the reader reads nothing for `silent_seconds`
      once its stack changed, after answering for a moment (from `ANSWERS_FIRST` to
      `silent_delay` seconds: it reads the change, then falls silent);
      `silent_per_minute`: silences of the same length that come by themselves, whatever
      lies there (a change ends them).
    - `crosstalk`: the neighbours that see this square's tags.
    - `hover`: a tile held over the square answers with this chance, less the higher the
      stack under it (as a tile lying at that height would, `keep` and `deep`).
    """

    near: float = 1.0
    keep: float = 1.0
    deep: float = 1.0
    collide: float = 0.0
    tall: int = 0
    tall_nothing: float = 0.0
    tall_collision: float = 0.0
    miss: float = 0.0
    miss_sweeps: tuple[int, int] = (1, 3)
    silent_after_change: float = 0.0
    silent_delay: float = 0.0
    silent_per_minute: float = 0.0
    silent_seconds: tuple[float, float] = (1.0, 30.0)
    crosstalk: tuple[Crosstalk, ...] = ()
    hover: float = 1.0

    def __post_init__(self) -> None:
        for name in ("near", "keep", "deep", "collide", "tall_nothing", "tall_collision", "miss"):
            _probability(name, getattr(self, name))
        _probability("silent_after_change", self.silent_after_change)
        _probability("hover", self.hover)
        if self.tall_nothing + self.tall_collision > 1.0:
            raise ValueError("tall_nothing + tall_collision exceed 1")
        if self.tall < 0 or self.silent_per_minute < 0 or self.silent_delay < 0:
            raise ValueError("tall, silent_per_minute and silent_delay cannot be negative")
        _span("miss_sweeps", self.miss_sweeps, 1)
        _span("silent_seconds", self.silent_seconds)
        object.__setattr__(self, "crosstalk", tuple(self.crosstalk))

    def answers(self, height: int) -> float:
        """The chance the tag `height` tiles above the reader (0: lying on it) answers."""
        return self.near * self.falloff(height)

    def falloff(self, height: int) -> float:
        """How much less than the bottom tile a tag `height` tiles up answers."""
        return 1.0 if height == 0 else self.keep * self.deep ** (height - 1)


@dataclass(frozen=True, slots=True)
class TablePhysics:
    """A whole table: its readers (by reader number), how its hub sweeps, its cable.

    Sweeps come every `sweep_seconds` (drawn evenly), and with `stall` one comes late by
    `stall_seconds` (a reader that takes its time, a busy hub); `damaged` is the chance a
    line is damaged on the way (its CRC fails: the host drops it); `line` is the longest `S`
    line the hub may send (512 bytes for a protocol 1 hub, 2048 for ours). `name` says which
    class it was drawn from, `seed` with which seed (`sim_classes`)."""

    readers: tuple[ReaderPhysics, ...]
    sweep_seconds: tuple[float, float] = (0.1, 0.1)
    stall: float = 0.0
    stall_seconds: tuple[float, float] = (0.3, 1.0)
    damaged: float = 0.0
    line: int = MAX_LINE
    name: str = ""
    seed: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "readers", tuple(self.readers))
        _span("sweep_seconds", self.sweep_seconds)
        _span("stall_seconds", self.stall_seconds)
        _probability("stall", self.stall)
        _probability("damaged", self.damaged)
        if self.sweep_seconds[1] <= 0:
            raise ValueError("sweeps take some time")
        for n, reader in enumerate(self.readers):
            for link in reader.crosstalk:
                if not 0 <= link.reader < len(self.readers) or link.reader == n:
                    raise ValueError(f"reader {n}'s crosstalk names reader {link.reader}")

    @classmethod
    def perfect(cls, readers: int = 12) -> TablePhysics:
        """Readers that see every tag every sweep, every 0.1 s: the ground truth."""
        return cls((ReaderPhysics(),) * readers)


@dataclass
class _Silence:
    start: float
    end: float


@dataclass
class _State:
    """What lasts across sweeps for one reader."""

    stack: tuple[str, ...] = ()
    silences: list[_Silence] = field(default_factory=list)
    links: list[bool] = field(default_factory=list)  # per crosstalk link: in a run now


class PhysicalReaders:
    """The readers of one table with `physics`, and what lasts across their sweeps.

    `interval()` is the time to the next sweep, `sweep(stacks, hovering, now)` what it
    reports (fitted to the hub's line), `delivered()` whether its line reaches the host
    undamaged; `touch(reader, now)` is a hand straightening the stack (a change: a silence
    ends, another may begin); `silent` the readers silent now.
    """

    def __init__(self, physics: TablePhysics, rng: random.Random) -> None:
        self.physics = physics
        self.rng = rng
        self._state = [_State(links=[False] * len(r.crosstalk)) for r in physics.readers]
        self._missing: dict[str, int] = {}
        self._seq = 0
        self._now = float("-inf")
        self._last = float("-inf")  # the time of the last sweep

    @property
    def readers(self) -> int:
        return len(self.physics.readers)

    @property
    def silent(self) -> frozenset[int]:
        now = self._now
        return frozenset(r for r, state in enumerate(self._state) if self._silent_at(state, now))

    def interval(self) -> float:
        """Seconds from this sweep to the next."""
        p, rng = self.physics, self.rng
        seconds = rng.uniform(*p.sweep_seconds)
        if p.stall and rng.random() < p.stall:
            seconds += rng.uniform(*p.stall_seconds)
        return seconds

    def delivered(self) -> bool:
        """Whether the line of a sweep reaches the host (else it was damaged: dropped)."""
        damaged = self.physics.damaged
        return not (damaged and self.rng.random() < damaged)

    def touch(self, reader: int, now: float) -> None:
        """A hand straightens the stack on `reader`: whatever silence it was in ends, and
        the change may start another, as any change may."""
        state = self._state[reader]
        state.silences.clear()
        self._after_change(reader, state, now)

    def sweep(
        self, stacks: Stacks, hovering: Stacks | None = None, now: float = 0.0
    ) -> tuple[ReaderReading, ...]:
        """What the readers report at `now` for the ground truth `stacks` (per reader, the
        UIDs bottom up) with the tags a hand holds over each reader (`hovering`)."""
        if len(stacks) != self.readers:
            raise ValueError(f"{len(stacks)} stacks for {self.readers} readers")
        self._now = now
        physics, rng = self.physics, self.rng
        self._notice_changes(stacks, now)
        self._count_misses(stacks)
        answering: list[list[str] | ReaderReading] = []
        for r, stack in enumerate(stacks):
            answering.append(self._own(physics.readers[r], stack))
        for r, stack in enumerate(stacks):  # the neighbours' antennas, in runs
            reader = physics.readers[r]
            for n, link in enumerate(reader.crosstalk):
                state = self._state[r]
                on = state.links[n]
                on = rng.random() >= 1.0 / link.run if on else rng.random() < link.starts
                state.links[n] = on
                there = answering[link.reader]
                if not on or not stack or isinstance(there, ReaderReading):
                    continue
                for height, uid in enumerate(stack):
                    if uid not in self._missing and rng.random() < link.strength * (
                        reader.falloff(height)
                    ):
                        there.append(uid)
        if hovering is not None:
            for r, uids in enumerate(hovering):
                there = answering[r]
                if not uids or isinstance(there, ReaderReading):
                    continue
                reader = physics.readers[r]
                chance = reader.hover * reader.falloff(len(stacks[r]))
                there.extend(uid for uid in uids if rng.random() < chance)
        readings = tuple(self._resolve(r, answering[r], now) for r in range(self.readers))
        self._seq += 1
        return fit_line(self._seq, readings, physics.line)

    # -- inside ---------------------------------------------------------------------------
    def _own(self, reader: ReaderPhysics, stack: tuple[str, ...]) -> list[str] | ReaderReading:
        """The tags of the reader's own stack that answer, or the whole reading when a tall
        stack decides it (nothing, a collision)."""
        rng = self.rng
        if reader.tall and len(stack) >= reader.tall:
            draw = rng.random()
            if draw < reader.tall_nothing:
                return EMPTY
            if draw < reader.tall_nothing + reader.tall_collision:
                return COLLISION
        return [
            uid
            for height, uid in enumerate(stack)
            if uid not in self._missing and rng.random() < reader.answers(height)
        ]

    def _resolve(self, r: int, answering: list[str] | ReaderReading, now: float) -> ReaderReading:
        reader = self.physics.readers[r]
        if self._silent_at(self._state[r], now):
            return EMPTY
        if isinstance(answering, ReaderReading):
            return answering
        uids = sorted(set(answering))  # the order anticollision resolves them in
        if not uids:
            return EMPTY
        collides = len(uids) >= 2 and reader.collide
        if collides and self.rng.random() >= (1.0 - reader.collide) ** (len(uids) - 1):
            return COLLISION
        return ReaderReading("ok", tuple(uids))

    def _notice_changes(self, stacks: Stacks, now: float) -> None:
        for r, stack in enumerate(stacks):
            state = self._state[r]
            reader = self.physics.readers[r]
            if stack != state.stack:
                state.stack = stack
                state.silences.clear()  # lifted, laid, rebuilt: it answers again ...
                self._after_change(r, state, now)  # ... or falls silent anew
            state.silences = [s for s in state.silences if s.end > now]
            rate = reader.silent_per_minute
            if rate and not state.silences:
                dt = now - self._last if math.isfinite(self._last) else 0.0
                if self.rng.random() < rate * dt / 60.0:
                    length = self.rng.uniform(*reader.silent_seconds)
                    state.silences.append(_Silence(now, now + length))
        self._last = now

    def _after_change(self, r: int, state: _State, now: float) -> None:
        reader = self.physics.readers[r]
        chance = reader.silent_after_change
        if chance and self.rng.random() < chance:
            first = min(ANSWERS_FIRST, reader.silent_delay)
            start = now + self.rng.uniform(first, reader.silent_delay)
            state.silences.append(_Silence(start, start + self.rng.uniform(*reader.silent_seconds)))

    @staticmethod
    def _silent_at(state: _State, now: float) -> bool:
        return any(s.start <= now < s.end for s in state.silences)

    def _count_misses(self, stacks: Stacks) -> None:
        on = {uid for stack in stacks for uid in stack}
        for uid in [u for u in self._missing if u not in on]:
            del self._missing[uid]
        for uid in list(self._missing):
            self._missing[uid] -= 1
            if self._missing[uid] <= 0:
                del self._missing[uid]
        for r, stack in enumerate(stacks):
            reader = self.physics.readers[r]
            if not reader.miss:
                continue
            for uid in stack:
                if uid not in self._missing and self.rng.random() < reader.miss:
                    self._missing[uid] = self.rng.randint(*reader.miss_sweeps)
