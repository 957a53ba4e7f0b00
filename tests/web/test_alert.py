"""The bonus alert is legible at every frame of its flashing, in the real browser: its words
have at least WCAG AA contrast (4.5:1) against their background in every sampled frame,
for a real alert of a played game and for an alert of every player colour.

A copy of the alert the page showed is kept (the daemon takes the alert away after its
seconds) and its animations are sought frame by frame (Web Animations API): each frame is
a screenshot of the real page, measured in pixels."""

from __future__ import annotations

import io

from PIL import Image

from companion.show.palette import RGB, contrast, css, ink
from tests.web.play import Played
from tests.web.test_crash import Client

#: frames sampled over the alert's animation (4 s: 8 flashes of 0.5 s): every 100 ms for
#: the alert of the game, every 250 ms (both states of every flash) for each colour
SAMPLES = 41
COLOUR_SAMPLES = 17
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

SEEK = """(t) => {
  for (const a of window.keptAlert.getAnimations({subtree: true})) { a.pause(); a.currentTime = t; }
  const alert = window.keptAlert.querySelector('.alert');
  const box = alert.getBoundingClientRect(), style = getComputedStyle(alert);
  const inset = (side) => 1.1 * (parseFloat(style['border' + side + 'Width']) + parseFloat(style['padding' + side]));
  return {x: box.x + inset('Left'), y: box.y + inset('Top'),
          width: box.width - inset('Left') - inset('Right'), height: box.height - inset('Top') - inset('Bottom')};
}"""

LENGTH = """() => Math.max(0, ...window.keptAlert.getAnimations({subtree: true})
  .map(a => a.effect.getComputedTiming().endTime))"""


def legibility(png: bytes) -> tuple[float, int]:
    """The words' contrast against their background in a screenshot of the alert's inside
    (the background is its commonest colour; the words, the colour of most contrast among
    those covering 30 pixels or more: glyph cores, not anti-aliased edges), and how many
    pixels reach AA against the background."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    counts = image.getcolors(image.width * image.height)
    background = max(counts)[1]
    inks = [colour for n, colour in counts if n >= 30 and colour != background]
    best = max((contrast(colour, background) for colour in inks), default=1.0)
    legible = sum(n for n, colour in counts if contrast(colour, background) >= AA)
    return best, legible


def frames_of(page, samples: int = SAMPLES) -> list[tuple[float, float, int]]:
    """(time, contrast, legible pixels) at every sampled frame of the kept alert."""
    length = page.evaluate(LENGTH) or 4000.0
    found = []
    for n in range(samples):
        t = length * n / (samples - 1) - (0.5 if n == samples - 1 else 0)
        clip = page.evaluate(SEEK, t)
        found.append((t, *legibility(page.screenshot(clip=clip))))
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
    assert_legible(frames_of(page), "the alert of the game")

    for colour in RGB:  # the same alert in every player's colour, as the server writes it
        page.evaluate(
            "([c, i]) => { const a = window.keptAlert.querySelector('.alert');"
            " a.style.setProperty('--c', c); a.style.setProperty('--ink', i); }",
            [css(colour), ink(colour)],
        )
        assert_legible(frames_of(page, COLOUR_SAMPLES), f"a {colour} alert")
