"""The seat displays: time to render one seat's screen and push it to a panel driver, how
long `Presenter.show` holds up the daemon, and how many panel redraws one turn costs."""

from __future__ import annotations

import time

from benchmarks.figure import Figure, percentile
from companion.show.presenter import Presenter
from companion.show.screens import Screens, samples
from hardware.display import open_display

SIDES = ("N", "E", "S", "W")


def _render_and_push(rounds: int = 60) -> tuple[list[float], list[float]]:
    views = list(samples.all_views().items())
    # the real SSD1306 driver packs every frame into panel pages; luma's noop interface stands
    # in for the I2C bus, whose transfer time (~25 ms at 400 kHz) is the bus's, not ours
    device = open_display({"driver": "ssd1306", "interface": "noop", "keep_image": False})
    renders, pushes = [], []
    for i in range(rounds):
        for lang in ("en", "ru"):
            screens = Screens(lang)
            name, table = views[i % len(views)]
            started = time.perf_counter()
            image = screens.frame(table, samples.viewer(name, table), 100.0 + i)
            rendered = time.perf_counter()
            device.display(image)
            pushes.append(time.perf_counter() - started)
            renders.append(rendered - started)
    return renders, pushes


def _show_latency(rounds: int = 200) -> list[float]:
    views = samples.playing(now=time.monotonic())
    names = ["seat", "preview", "live", "alert"]
    with Presenter.from_settings({side: {"driver": "dummy"} for side in SIDES}) as presenter:
        samples_ms = []
        for i in range(rounds):
            started = time.perf_counter()
            presenter.show(views[names[i % len(names)]])
            samples_ms.append(time.perf_counter() - started)
        presenter.flush(10)
    return samples_ms


def _redraws_per_turn() -> tuple[float, float]:
    """One turn in simulated time: two preview updates while tiles go down, the scored
    turn with a bonus alert flashing 4 s, then the next player's turn begins."""
    presenter = Presenter.from_settings(
        {side: {"driver": "dummy"} for side in SIDES}, threaded=False
    )
    t = 0.0
    presenter.show(samples.playing(now=t)["seat"], now=t)
    before, renders = presenter.redraws, presenter.renders
    turn = samples.playing(now=t + 2.0)
    for name, at in (("live", 0.5), ("preview", 1.5), ("alert", 2.0)):
        presenter.show(turn[name], now=at)
    t = 2.0
    while t < 7.0:  # the daemon's loop ticks every 50 ms
        t += 0.05
        presenter.tick(now=t)
    presenter.show(turn["seat"], now=t)
    return presenter.redraws - before, presenter.renders - renders


def run() -> list[Figure]:
    renders, pushes = _render_and_push()
    show = _show_latency()
    redraws, renders_per_turn = _redraws_per_turn()
    return [
        Figure("display.render_p50", percentile(renders, 50) * 1000, "ms"),
        Figure("display.render_push_p95", percentile(pushes, 95) * 1000, "ms", target=20.0),
        Figure("display.show_blocks_p95", percentile(show, 95) * 1000, "ms", target=1.0),
        Figure("display.redraws_per_turn", redraws, "frames", target=16),
        Figure("display.renders_per_turn", renders_per_turn, "frames"),
    ]


if __name__ == "__main__":
    for figure in run():
        print(figure)
