"""Named classes of reader physics: each a distribution that random tables are drawn from.

A class says, for every knob of `ReaderPhysics` and `TablePhysics`, the range its values
come from. A table first draws its own centre in each range (readers of one make, one
board), then every square draws its own value around that centre (`spread`: the share of
the range a square may stray from it, clipped to the range), so no two squares are alike.
Crosstalk goes to up to `links` of a square's neighbours (orthogonal or diagonal: the map is
the caller's, hardware knows no board), each link with its own share, run length and
strength. Ranges are meant wide: they cover the space real tables may fall in, they do not
fit a point in it.

    physics = CLASSES["crosstalk"].draw(random.Random("report-crosstalk-17"), neighbours)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace

from hardware.hub.protocol import MAX_LINE, MAX_LINE_V1
from hardware.hub.sim_physics import Crosstalk, ReaderPhysics, TablePhysics


@dataclass(frozen=True, slots=True)
class Range:
    """Values from `low` to `high`, drawn evenly."""

    low: float
    high: float

    def __post_init__(self) -> None:
        if self.low > self.high:
            raise ValueError(f"a range from {self.low} to {self.high}")

    def draw(self, rng: random.Random) -> float:
        return rng.uniform(self.low, self.high)

    def around(self, centre: float, spread: float, rng: random.Random) -> float:
        """A value near `centre`, within `spread` of the range's width, clipped to it."""
        width = (self.high - self.low) * spread
        return min(self.high, max(self.low, centre + rng.uniform(-width, width)))


def _fixed(value: float) -> Range:
    return Range(value, value)


@dataclass(frozen=True, slots=True)
class PhysicsClass:
    """A distribution of tables. Every field but `name`, `summary`, `spread` and `lines` is
    a `Range` of one knob (see `ReaderPhysics` and `TablePhysics` for what each means);
    `tall` and `links` are rounded to whole numbers, `lines` is the hubs drawn from."""

    name: str
    summary: str
    near: Range = _fixed(1.0)
    keep: Range = _fixed(1.0)
    deep: Range = _fixed(1.0)
    collide: Range = _fixed(0.0)
    tall: Range = Range(4, 7)
    tall_dark: Range = _fixed(0.0)  # tall_nothing + tall_collision
    tall_collision_share: Range = Range(0.0, 1.0)  # of tall_dark, how much is collision
    miss: Range = _fixed(0.0)
    silent_after_change: Range = _fixed(0.0)
    silent_delay: Range = Range(0.3, 1.0)
    silent_per_minute: Range = _fixed(0.0)
    silent_shortest: Range = Range(1.0, 5.0)
    silent_longest: Range = Range(5.0, 30.0)
    links: Range = _fixed(0)
    link_share: Range = Range(0.02, 1 / 3)
    link_run: Range = Range(2.0, 12.0)
    link_strength: Range = Range(0.3, 1.0)
    hover: Range = Range(0.2, 0.9)
    sweep_fastest: Range = Range(0.04, 0.1)
    sweep_slowest: Range = Range(0.1, 0.25)
    stall: Range = Range(0.0, 0.02)
    damaged: Range = Range(0.0, 0.01)
    spread: float = 0.25
    lines: tuple[int, ...] = (MAX_LINE_V1, MAX_LINE)

    def draw(
        self, rng: random.Random, neighbours: Mapping[int, tuple[int, ...]], *, seed: str = ""
    ) -> TablePhysics:
        """A table of this class, one reader per key of `neighbours` (reader -> the readers
        next to it, which its tags' crosstalk may reach)."""
        centre = {
            f.name: getattr(self, f.name).draw(rng)
            for f in fields(self)
            if isinstance(getattr(self, f.name), Range)
        }

        def own(name: str) -> float:
            return getattr(self, name).around(centre[name], self.spread, rng)

        readers = []
        for r in range(len(neighbours)):
            dark = own("tall_dark")
            collision = dark * own("tall_collision_share")
            shortest = own("silent_shortest")
            links = []
            near = list(neighbours[r])
            rng.shuffle(near)
            for n in near[: round(own("links"))]:
                links.append(Crosstalk(n, own("link_share"), own("link_run"), own("link_strength")))
            readers.append(
                ReaderPhysics(
                    near=own("near"),
                    keep=own("keep"),
                    deep=own("deep"),
                    collide=own("collide"),
                    tall=round(own("tall")),
                    tall_nothing=dark - collision,
                    tall_collision=collision,
                    miss=own("miss"),
                    silent_after_change=own("silent_after_change"),
                    silent_delay=own("silent_delay"),
                    silent_per_minute=own("silent_per_minute"),
                    silent_seconds=(shortest, max(shortest, own("silent_longest"))),
                    crosstalk=tuple(sorted(links, key=lambda link: link.reader)),
                    hover=own("hover"),
                )
            )
        fastest = centre["sweep_fastest"]
        return TablePhysics(
            tuple(readers),
            sweep_seconds=(fastest, max(fastest, centre["sweep_slowest"])),
            stall=centre["stall"],
            damaged=centre["damaged"],
            line=rng.choice(self.lines),
            name=self.name,
            seed=seed,
        )


#: readers that see every tile of a stack of up to three or four, nearly every sweep; tall
#: stacks as they come (anything from as readable to dark nearly always)
CLEAN = PhysicsClass(
    "clean",
    "readers that see every tile, tall stacks excepted",
    near=Range(0.97, 1.0),
    keep=Range(0.9, 1.0),
    deep=Range(0.85, 0.99),
    collide=Range(0.0, 0.3),
    tall_dark=Range(0.0, 0.95),
    miss=Range(0.0, 0.01),
)

#: the top of a stack is far from the antenna: the second tile is seen 40 to 95 times in
#: 100, the third anywhere from about half of the sweeps to almost never, and tall stacks
#: read as nothing or a collision most of the time
WEAK_TALL = replace(
    CLEAN,
    name="weak-tall",
    summary="the higher a tile the less it is seen; tall stacks dark most of the time",
    keep=Range(0.4, 0.95),
    deep=Range(0.03, 0.6),
    collide=Range(0.1, 0.6),
    tall=Range(4, 6),
    tall_dark=Range(0.6, 0.98),
)

#: readers that fall silent after their stack changed, or by themselves, single tiles too
SILENT = replace(
    CLEAN,
    name="silent",
    summary="readers silent for 1 to 30 s after a change, or by themselves",
    silent_after_change=Range(0.05, 0.6),
    silent_per_minute=Range(0.05, 1.0),
    silent_delay=Range(0.3, 1.5),
)

#: neighbours that see a square's tags in runs, up to a third of the sweeps, and an own
#: reader that misses tiles now and then
CROSSTALK = replace(
    CLEAN,
    name="crosstalk",
    summary="up to three neighbours see a square's tags in runs, up to a third of sweeps",
    keep=Range(0.6, 1.0),
    deep=Range(0.5, 0.97),
    miss=Range(0.0, 0.05),
    links=Range(1, 3),
)

#: all of it at once, over the widest ranges
EVERYTHING = PhysicsClass(
    "everything",
    "every kind of fault at once, each over its widest range",
    near=Range(0.6, 1.0),
    keep=Range(0.3, 1.0),
    deep=Range(0.03, 0.99),
    collide=Range(0.0, 0.6),
    tall=Range(4, 7),
    tall_dark=Range(0.0, 0.98),
    miss=Range(0.0, 0.05),
    silent_after_change=Range(0.0, 0.5),
    silent_per_minute=Range(0.0, 0.5),
    silent_delay=Range(0.3, 1.5),
    links=Range(0, 3),
    hover=Range(0.1, 0.9),
    sweep_fastest=Range(0.04, 0.12),
    sweep_slowest=Range(0.1, 0.3),
    stall=Range(0.0, 0.03),
    damaged=Range(0.0, 0.03),
)

CLASSES: dict[str, PhysicsClass] = {
    c.name: c for c in (CLEAN, WEAK_TALL, SILENT, CROSSTALK, EVERYTHING)
}
