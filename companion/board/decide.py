"""Every decision of the belief, by the likelihood ratio of the readings under the
alternatives the game allows, with its threshold stated once here (and the error rate it
buys: a ratio of R wrongly decides about once in R decisions that it tips).

The rates come from each square's learned reader (`companion.board.evidence`); nothing here
assumes that a single tile always reads or that crosstalk comes with the tile.

- **Lift** (`lift_evidence`): the top tile of a square is gone, against it is still there.
  Each reading that does not show it weighs log P(reading | gone) / P(reading | there): a
  reading of the tiles below only, -log(1 - seen), small where the top is hard to see; a
  collision or nothing, by how often the square gives that with one tile less and with it.
  A run of nothing is weighed as a whole: under "there" it is either misses in a row
  (nothing^k) or a silence (the chance one starts, far likelier just after a change, times
  the chance it lasts that long, from the silences heard out on that square), so a reader
  that falls silent does not lift its tiles, and one that never did lifts at once.
- **Move** (`place_evidence`): a tile that may move lies on square j rather than on i.
  Each sweep weighs where it was seen and where not under each square: seen on its own
  square as often as its position there is seen, on a neighbour as often as that link's
  learned crosstalk (a sighting elsewhere while the own reader missed is what crosstalk
  gives, not a move). The weights decay (`MOVE_MEMORY` a sweep): a real move is followed.
- **Press** (`readings_to_confirm`): how many readings of a square show a tile laid on it
  just before the press, missed while put down, with chance at most CONFIRM_ERROR; a square
  whose new top would be seen so rarely that it needs more than CONFIRM_MOST readings cannot
  be confirmed by waiting: it is not waited for (the late watch and the family settle it).
"""

from __future__ import annotations

import math

from companion.board.belief import HomeReadings
from companion.board.evidence import SquareEvidence
from companion.board.reading import Reading

#: a top tile is believed lifted once its readings are this many times likelier without it
#: (about 1 tile in 100 that lies there would be taken off, and arrive again when next seen)
LIFT_RATIO = 100.0
LIFT_LLR = math.log(LIFT_RATIO)
#: ... and doubted (a press waits for it, "lay it flat") from this ratio on: 1 in 20
DOUBT_LLR = math.log(20.0)
#: evidence that a top is still there is banked up to this much (a collision on a single
#: tile says "still there" strongly; a later lift must still be seen within a few readings)
THERE_FLOOR = -math.log(100.0)
#: a tile that may move moves to a square once its sightings are this many times likelier
#: there (about 1 crosstalk run in 500 that would move a tile)
MOVE_LLR = math.log(500.0)
#: ... and is doubted ("seen over square X": not scored meanwhile) from this ratio on
ELSEWHERE_LLR = math.log(10.0)
#: a scored tile is believed elsewhere ("tile seen twice") only on this ratio: the game
#: has it where it was scored, and only a family's mistake moves it (1 in 1,000 turns),
#: so the readings must outweigh that too
MISPLACED_LLR = MOVE_LLR + math.log(10.0)
#: the weight of a sweep's evidence about where a tile lies decays by this each sweep
#: (about 50 sweeps: the latest evidence counts, a real move is followed within seconds)
MOVE_MEMORY = 0.98
#: a press scores once a tile laid on a square just before it would have shown with at
#: most this chance of having been missed: 1 in 200 such tiles, and a tile is laid unseen
#: (both sweeps of its putting down missed) about 1 time in 50 (MISSED_LAYING), so about
#: 1 in 10,000 tiles laid just before a press. (1 in 20 or 1 in 10 were tried on 144 TUNE
#: clean games: no fewer misscores, and the press's p50 went from 0.40 s to 0.77 s or
#: 0.79 s, a second reading of every square.)
CONFIRM_ERROR = 0.005
MISSED_LAYING = 0.02
#: ... never waiting for more than this many readings of one square: a square whose new top
#: would show that rarely cannot be confirmed by waiting
CONFIRM_MOST = 8
#: a probability is never taken as below this (one reading never proves anything alone)
FLOOR = 1e-3


def _p(value: float) -> float:
    return min(1.0 - FLOOR, max(FLOOR, value))


def lift_step(
    evidence: SquareEvidence, height: int, collision: bool, under_seen: bool = False
) -> float:
    """The weight of one reading that did not show the top of a stack of `height`, not of
    nothing (a run of nothing is weighed by `lift_run`): a collision, or tiles below only
    (`under_seen`: the tile just under the top among them; without the top, it is the top,
    and readers that mostly see tops see it far more often)."""
    if collision:
        if height - 1 >= 2:
            return 0.0  # stacks of two or more, with it or without, collide: no evidence
        return math.log(_p(evidence.collides(height - 1)) / _p(evidence.collides(height)))
    weight = -math.log(1.0 - _p(evidence.sees(height - 1, cautious=True)))
    if height >= 2:
        as_top = _p(evidence.sees(height - 2, top=True))
        covered = _p(evidence.sees(height - 2, top=False))
        if under_seen and as_top > covered:  # (only its sighting: a weak top is no proof)
            weight += math.log(as_top / covered)
    return weight


def lift_run(
    evidence: SquareEvidence,
    height: int,
    readings: int,
    seconds: float,
    silences: bool = True,
    start: float | None = None,
) -> float:
    """The weight of `readings` of nothing in a row over `seconds` on a stack of `height`:
    likelier with one tile less (an empty square reads nothing) than with it (misses in a
    row, or, with `silences`, a silence that starts and lasts that long; `start`: the
    chance it started, if not that of now)."""
    if start is None:
        start = evidence.silence_starts(evidence.quiet_since)

    if height >= 2:
        return 0.0  # a stack may read as nothing with it or without it: no evidence

    def chance(h: int) -> float:
        if h == 0:
            return 1.0
        misses = _p(evidence.reads_nothing(h)) ** readings
        if not silences:
            return misses
        return min(1.0, misses + start * evidence.silence_outlasts(seconds))

    return math.log(chance(height - 1) / max(chance(height), 1e-12))


def place_step(
    where: dict[int, float],
    seen: tuple[int, ...],
    before: tuple[int, ...],
    usable: set[int],
    evidence: list[SquareEvidence],
    positions: dict[int, tuple[int, bool]],
    home: int,
) -> None:
    """One sweep's weight for each square a tile may lie on (`where`: square -> log
    likelihood so far, decayed here): `seen` the squares it was read on (`before`: in the
    sweep before: a crosstalk run going on), `usable` the squares
    that gave a reading, `positions` its position in each candidate's stack (and whether
    it is the top there). Crosstalk runs are those of the tile's own square, `home`: under
    another square, a sighting on its own square is a run only of what was seen there."""
    for s in where:
        own = evidence[s]
        total = 0.0
        for k in usable:
            if k == s:
                p = _p(own.sees(*positions[s]))
            elif k in before and s == home:
                # crosstalk comes in runs: a run's sightings after its first are weak
                # evidence of a move, as weak as the table's runs are long (learned)
                p = _p(own.table.cross_runs.p)
            elif k in where or k in seen:
                p = _p(own.crosses(k))
            else:
                continue
            total += math.log(p if k in seen else 1.0 - p)
        where[s] = MOVE_MEMORY * where[s] + total


#: the weight of the square's learned rate for a position, against the tile's own readings
#: there, is at most this many readings (a tile off centre reads unlike its neighbours)
HOME_PRIOR_MOST = 50.0
#: the chance a crosstalk run goes on is taken as at least, and at most, this
RUNS_LEAST, RUNS_MOST = 0.3, 0.97


def home_weight(
    readings: HomeReadings, there: float, weight: float, cross: float, runs: float
) -> float:
    """log P(readings | the tile lies on its square) / P(readings | it lies next door and
    that neighbour's reader shows it here by crosstalk).

    Lying there, each reading shows it at the square's rate for its place, unknown but
    near `there` (learned from `weight` readings): a Beta-binomial, so a tile read nearly
    every sweep is believed read well even where its height was never learned. Crosstalk
    comes in runs: a run starts after a miss at the rate that gives a share of the sweeps
    up to `cross`, the most likely such share for these readings, and goes on the next
    sweep with chance `runs` (the table's runs, learned): a long run of sightings is one
    event, a tile read between misses many."""
    weight = min(max(weight, 1.0), HOME_PRIOR_MOST)
    there = min(1.0 - FLOOR, max(FLOOR, there))
    a, b = there * weight, (1.0 - there) * weight
    seen, count = readings.seen, readings.count
    lying = _lbeta(a + seen, b + count - seen) - _lbeta(a, b)
    runs = min(RUNS_MOST, max(RUNS_LEAST, runs))
    cross = min(1.0 - FLOOR, max(FLOOR, cross))
    starts, stays = readings.seen_after_miss, readings.missed_after_miss
    most = min(1.0 - FLOOR, cross * (1.0 - runs) / (1.0 - cross))  # starts of share `cross`
    start = starts / (starts + stays) if starts + stays else most
    start = min(most, max(FLOOR * FLOOR, start))
    crosstalk = (
        starts * math.log(start)
        + stays * math.log(1.0 - start)
        + readings.seen_after_seen * math.log(runs)
        + readings.missed_after_seen * math.log(1.0 - runs)
    )
    return lying - crosstalk


def _lbeta(a: float, b: float) -> float:
    return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)


#: a tile of this turn gone from the board may lie unseen on top of a square while the
#: readings of that square since weigh less than this against it (`absence_step`): a
#: square is ruled out only on strong evidence (a wrong exclusion scores a turn without
#: the tile; a square too many costs a question)
PLAUSIBLE_LLR = math.log(1000.0)


def absence_step(evidence: SquareEvidence, height: int, reading: Reading) -> float:
    """The weight of one reading of a square holding `height` tiles against a tile more
    lying unseen on top of it: log P(reading | not there) / P(reading | there). The tiles
    read without it weigh as a miss of a new top, seen cautiously: as this square's own
    readings at that position say (all but dark before any), and no more than half as
    often as the one below it (readers see higher tiles less, tall stacks least, and a
    rate learned on other squares may flatter this one). Nothing, or a collision, is no
    evidence on a stack; on an empty square, as often as a lone tile gives it."""
    if reading.nothing or reading.collision:
        if height:
            return 0.0  # a stack gives these with a tile more or not (rates barely learned)
        if reading.collision:
            return math.log(_p(0.0) / _p(evidence.collides(1)))
        return -math.log(_p(evidence.reads_nothing(1)))  # an empty square reads nothing
    seen = evidence.sees_own(height)
    if height:
        seen = min(seen, 0.5 * evidence.sees_own(height - 1))
    return -math.log(1.0 - _p(seen))


#: a square believed to hold one tile (or none) is "unreadable" when its collisions of the
#: last readings would happen by chance less than this often, at its learned rate (a tile
#: lies there that the readers cannot read; crosstalk that collides is learned, no alarm)
UNREADABLE_CHANCE = 1e-3
#: ... unless a neighbour's crosstalk, listed in the same readings, explains them: tags
#: answering together collide in at most this share of the sweeps (readers of one make
#: differ: a table's two-tile stacks show less, for their second tile answers less, and
#: a third tag answering collides more). A bound, not a rate: where the readings listed
#: a neighbour's tag at all, only collisions far beyond it make the alarm
CROSSTALK_COLLIDE = 0.8


def improbable_collisions(
    evidence: SquareEvidence, height: int, hits: int, n: int, runs: float = 0.0
) -> bool:
    """`hits` collisions in `n` readings are beyond chance (UNREADABLE_CHANCE) for a
    square holding `height` tiles. `runs`: the chance a collision follows a collision
    beyond its rate, where the table's crosstalk comes in runs (a neighbour's tag answering
    with the tile's for a dozen sweeps collides a dozen times, not once): the readings then
    count as fewer independent ones, n (1 - runs) / (1 + runs), as for any Markov chain's
    mean."""
    p = _p(evidence.collides(max(height, 1)))
    if runs > 0.0:
        shrink = (1.0 - runs) / (1.0 + runs)
        n, hits = max(1, round(n * shrink)), max(1, round(hits * shrink))
    tail = sum(math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(hits, n + 1))
    return tail < UNREADABLE_CHANCE


def crosstalk_collides(evidence: SquareEvidence, hits: int, crossed: int) -> bool:
    """`hits` collisions of a square holding one tile, beside `crossed` readings that
    listed a tag believed elsewhere, are what a neighbour's tag answering with the
    square's own gives: tags answering together collide, at most CROSSTALK_COLLIDE of
    the time (or the table's rate for a square of two tiles, if higher), and are listed
    otherwise (the crosstalk then seen). True unless so many collisions among those
    sweeps would happen by chance less than UNREADABLE_CHANCE (a tile lying there unseen
    collides with its own, and is never listed as a neighbour's)."""
    if not crossed:
        return False
    p = _p(max(CROSSTALK_COLLIDE, evidence.collides(2)))
    n = hits + crossed
    tail = sum(math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(hits, n + 1))
    return tail >= UNREADABLE_CHANCE


def readings_to_confirm(
    evidence: SquareEvidence, position: int, cautious: bool = True
) -> int | None:
    """Readings of a square after a press that show a tile laid at `position` with its
    laying missed, with chance at most CONFIRM_ERROR; None: more than CONFIRM_MOST (it
    cannot be confirmed by waiting). Not `cautious`: a position no tile was read at yet
    taken as likely as the table's rates make it (`SquareEvidence.sees`)."""
    q = _p(evidence.sees(position, cautious=cautious))
    need = math.log(CONFIRM_ERROR / MISSED_LAYING) / math.log(1.0 - q)
    n = max(1, math.ceil(need))
    return n if n <= CONFIRM_MOST else None
