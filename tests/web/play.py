"""A seeded game played on the simulated table through the daemon's socket (the web
companion's own requests: a tile put down, a seat's button pressed), as the browser tests'
hands: quicker than clicking, and the same path into the daemon."""

from __future__ import annotations

from collections.abc import Callable

from companion.sim.demo import World
from engine import COMMON_SQUARES, Game, Options, Scoring
from tests.web.test_crash import Client

#: a turn not scored this long after its press was refused, or is still held
RETRY_SECONDS = 10.0
RETRIES = 3
SEED = 1  # a game of 12 turns, a bonus on the third (tests/web/test_pages.py)


class Played:
    """The game of `SEED` between N and S, on the table `hands` reach; `shadow` is the same
    game kept by the engine alone."""

    def __init__(self, hands: Client, seed: int = SEED) -> None:
        self.hands = hands
        self.world = World(seed, ("N", "S"), False, Options())
        self.shadow = Game(("N", "S"), None, Options(), self.world.start_board)

    def start(self) -> None:
        """The start tiles laid, N and S joined, the game started."""
        for square in COMMON_SQUARES:
            self.hands.ask("put", square=square, tile=str(self.world.start_board.top(square)))
        self.hands.state(lambda s: len(s["board"]) == len(COMMON_SQUARES))
        self.hands.ask("press", seat="N")
        self.hands.state(lambda s: s["lobby"] and s["lobby"]["joined"] == ["N"])
        self.hands.ask("press", seat="S")
        self.hands.state(lambda s: s["lobby"] and len(s["lobby"]["joined"]) == 2)
        self.hands.ask("press", seat="N", long=True)
        self.hands.state(lambda s: s["phase"] == "playing")

    def turns_until(
        self,
        stop: Callable[[Scoring | None], bool],
        before_press: Callable[[], None] = lambda: None,
    ) -> Scoring | None:
        """Plays turns until the one whose scoring (None: a swap) meets `stop`; that turn's
        tiles are laid and `before_press` is called before its press. Its scoring."""
        while (step := self.world.next_step()) is not None:
            assert step.kind == "turn", step  # this seed has no undo or clean-up of its own
            result = self.shadow.preview(step.placement) if step.placement else None
            for square, tile in step.placement:
                self.hands.ask("put", square=square, tile=str(tile))
            laid = sorted([square, str(tile)] for square, tile in step.placement)
            self.hands.state(lambda s, laid=laid: sorted(s["placement"]) == laid)
            last = stop(result)
            if last:
                before_press()
            self.hands.ask("press", seat=step.side)
            if step.placement:
                self.shadow.place(step.placement)
            else:
                self.shadow.swap()
            scores = dict(self.shadow.scores)
            self._scored(step.side, scores)
            if last:
                return result
        raise AssertionError("the game ended first")

    def _scored(self, side: str, scores: dict[str, int]) -> None:
        """Waits for the turn of `side` to be scored as `scores`. A press the table refused
        (on a busy machine the hub's lines can stall past the link's watchdog: "not
        connected" for a moment, the press refused with a sound) is pressed again, as a
        family does; a press held meanwhile takes the second as nothing."""
        met = lambda s: {x["side"]: x["score"] for x in s["seats"]} == scores  # noqa: E731
        for _ in range(RETRIES):
            if self.hands.state_within(met, RETRY_SECONDS) is not None:
                return
            state = self.hands.last or {}
            active = [x["side"] for x in state.get("seats", ()) if x.get("active")]
            assert active == [side], f"{side}'s press: {state.get('seats')}"
            self.hands.ask("press", seat=side)
        self.hands.state(met)
