"""The bonus alert is legible at every frame of its flashing, in the real browser: its words
have at least WCAG AA contrast (4.5:1) against their background in every sampled frame,
for a real alert of a played game and for an alert of every player colour.

A copy of the alert the page showed is kept (the daemon takes the alert away after its
seconds), with one more copy beside it in every player's colour, and their animations are
sought frame by frame (Web Animations API): each frame is one screenshot of the real page
holding every copy, each copy measured in its own pixels."""

from __future__ import annotations

import io

from PIL import Image

from companion.show.palette import RGB, contrast, css, ink
from tests.web.play import Played
from tests.web.test_crash import Client

#: frames sampled over the alert's animation (4 s: 8 flashes of 0.5 s): every 100 ms, both
#: states of every flash and the moments between, for the game's alert and every colour
SAMPLES = 41
AA = 4.5

KEEP_THE_ALERT = """() => {
  window.keptAlert = null;
  new MutationObserver(() => {
    const shown = document.querySelector('#alerts .alert');
    if (!shown || window.keptAlert) return;
    const kept = shown.parentElement.cloneNode(true);  // the server's markup, the page's CSS
    kept.id = 'kept-alerts';
    Object.assign(kept.style, {position: 'fixed', top: '8px', left: '8px', right: '8px', zIndex: 99});
    document.body.appendChild(kept);
    document.querySelector('[data-live]').style.visibility = 'hidden';
    window.keptAlert = kept;
  }).observe(document.body, {subtree: true, childList: true});
}"""

#: one more copy of the kept alert per colour, under it, as the server would write it for a
#: player of that colour (its --c and --ink)
IN_EVERY_COLOUR = """(colours) => {
  const alerts = window.keptAlert;
  const first = alerts.querySelector('.alert');
  for (const [c, i] of colours) {
    const copy = first.cloneNode(true);
    copy.style.setProperty('--c', c);
    copy.style.setProperty('--ink', i);
    alerts.appendChild(copy);
  }
  return alerts.querySelectorAll('.alert').length;
}"""

SEEK = """(t) => {
  for (const a of window.keptAlert.getAnimations({subtree: true})) { a.pause(); a.currentTime = t; }
  return [...window.keptAlert.querySelectorAll('.alert')].map((alert) => {
    const box = alert.getBoundingClientRect(), style = getComputedStyle(alert);
    const inset = (side) => 1.1 * (parseFloat(style['border' + side + 'Width']) + parseFloat(style['padding' + side]));
    return {x: box.x + inset('Left'), y: box.y + inset('Top'),
            width: box.width - inset('Left') - inset('Right'), height: box.height - inset('Top') - inset('Bottom')};
  });
}"""

LENGTH = """() => Math.max(0, ...window.keptAlert.getAnimations({subtree: true})
  .map(a => a.effect.getComputedTiming().endTime))"""


def legibility(image: Image.Image) -> tuple[float, int]:
    """The words' contrast against their background in a picture of an alert's inside (the
    background is its commonest colour; the words, the colour of most contrast among those
    covering 30 pixels or more: glyph cores, not anti-aliased edges), and how many pixels
    reach AA against the background."""
    counts = image.getcolors(image.width * image.height)
    background = max(counts)[1]
    inks = [colour for n, colour in counts if n >= 30 and colour != background]
    best = max((contrast(colour, background) for colour in inks), default=1.0)
    legible = sum(n for n, colour in counts if contrast(colour, background) >= AA)
    return best, legible


def frames_of(page) -> list[list[tuple[float, float, int]]]:
    """For every kept alert, (time, contrast, legible pixels) at every sampled frame: one
    screenshot of the viewport a frame, cut into the alerts' insides."""
    length = page.evaluate(LENGTH) or 4000.0
    found: list[list[tuple[float, float, int]]] = []
    for n in range(SAMPLES):
        t = length * n / (SAMPLES - 1) - (0.5 if n == SAMPLES - 1 else 0)
        boxes = page.evaluate(SEEK, t)
        shot = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
        scale = shot.width / page.viewport_size["width"]
        found = found or [[] for _ in boxes]
        for frames, box in zip(found, boxes, strict=True):
            inside = shot.crop(
                tuple(
                    round(v * scale)
                    for v in (box["x"], box["y"], box["x"] + box["width"], box["y"] + box["height"])
                )
            )
            frames.append((t, *legibility(inside)))
    return found


def assert_legible(frames: list[tuple[float, float, int]], what: str) -> None:
    worst = min(frames, key=lambda f: f[1])
    assert worst[1] >= AA, f"{what}: contrast {worst[1]:.2f} at {worst[0]:.0f} ms"
    assert min(f[2] for f in frames) >= 150, f"{what}: words missing in a frame"


def test_a_bonus_alert_is_legible_at_every_frame_of_its_flashing(table, page):
    page.set_viewport_size({"width": 390, "height": 844})  # a phone, the smallest alert
    page.goto(table.url + "/")
    hands = Client(table.socket)
    try:
        played = Played(hands)
        played.start()
        page.evaluate(KEEP_THE_ALERT)
        scoring = played.turns_until(lambda s: s is not None and bool(s.bonus))
        assert scoring is not None and scoring.bonus
    finally:
        hands.close()
    page.wait_for_function("() => window.keptAlert !== null")
    assert "BONUS" in page.inner_text("#kept-alerts .alert")
    colours = [[css(colour), ink(colour)] for colour in RGB]
    assert page.evaluate(IN_EVERY_COLOUR, colours) == 1 + len(RGB)
    page.set_viewport_size({"width": 390, "height": 1400})  # every copy in one screenshot
    whose = ["the alert of the game", *(f"a {colour} alert" for colour in RGB)]
    for what, frames in zip(whose, frames_of(page), strict=True):
        assert_legible(frames, what)
