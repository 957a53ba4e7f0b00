// The page follows the table: the server pushes each change as rendered HTML (server-sent
// events); this script swaps it in and drives the simulated table's controls.
"use strict";
(function () {
  const csrf = document.querySelector('meta[name="csrf"]').content;
  let picked = null;
  let liftMode = false;
  const shown = {}; // the fragment each live box shows now, as the server sent it

  function showFrames(json) {
    let frames = {};
    try { frames = JSON.parse(json || "{}"); } catch (e) { return; }
    for (const [side, png] of Object.entries(frames)) {
      const img = document.getElementById("frame-" + side);
      if (img) img.src = "data:image/png;base64," + png;
    }
  }

  function markPicked() {
    document.querySelectorAll("[data-pick]").forEach(function (b) {
      b.classList.toggle("picked", b.dataset.pick === picked);
    });
    const mode = document.getElementById("lift-mode");
    if (mode) mode.classList.toggle("on", liftMode);
    document.body.classList.toggle("lifting", liftMode);
  }

  // A stream the server refused (too many open) or lost for good: the page says why, in
  // the server's own sentence, and tries again a while later.
  async function refused() {
    let why = "The live view stopped; it tries again in a moment.";
    try {
      const control = new AbortController();
      const response = await fetch("/events", { signal: control.signal });
      if (response.status !== 200) why = (await response.text()) || why;
      control.abort();
    } catch (e) { /* the table is not reachable: the default sentence */ }
    const problem = document.getElementById("live-problem");
    if (problem) { problem.textContent = why; problem.hidden = false; }
    setTimeout(connect, 15000);
  }

  function connect() {
    if (!document.querySelector("[data-live]")) return;
    const tv = document.querySelector('[data-view="tv"]');
    const source = new EventSource(tv ? "/events?view=tv" : "/events");
    source.addEventListener("open", function () {
      const problem = document.getElementById("live-problem");
      if (problem) problem.hidden = true;
    });
    source.addEventListener("error", function () {
      if (source.readyState === EventSource.CLOSED) refused();
    });
    ["table", "simtable", "tv"].forEach(function (name) {
      source.addEventListener(name, function (event) {
        const box = document.querySelector('[data-live="' + name + '"]');
        // the same fragment again (the seat frames changed, not the table): left as it is,
        // so an alert's flashing is not started over and nothing moves under a finger
        if (!box || shown[name] === event.data) return;
        shown[name] = event.data;
        box.innerHTML = event.data;
        if (name === "simtable") markPicked();
      });
    });
    source.addEventListener("frames", function (event) { showFrames(event.data); });
    source.addEventListener("version", function (event) {
      document.body.dataset.version = event.data;
    });
    // after a dropped connection EventSource reconnects by itself (readyState CONNECTING)
  }

  async function act(op, body) {
    const error = document.getElementById("sim-error");
    try {
      const response = await fetch("/sim/" + op, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify(body),
      });
      const reply = await response.json();
      if (error) error.textContent = reply.ok ? "" : reply.error || "refused";
    } catch (e) {
      if (error) error.textContent = "The table did not answer.";
    }
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-fullscreen]")) {
      document.documentElement.requestFullscreen().catch(function () {});
      return;
    }
    const pick = event.target.closest("[data-pick]");
    if (pick) {
      picked = picked === pick.dataset.pick ? null : pick.dataset.pick;
      liftMode = false;
      markPicked();
      return;
    }
    if (event.target.closest("#lift-mode")) {
      liftMode = !liftMode;
      picked = null;
      markPicked();
      return;
    }
    const press = event.target.closest("[data-press]");
    if (press) return act("press", { seat: press.dataset.press, long: !!press.dataset.long });
    const cable = event.target.closest("[data-cable]");
    if (cable) return act("cable", { plugged: cable.dataset.cable === "1" });
    const square = event.target.closest("[data-sq]");
    if (square && document.getElementById("palette")) {
      if (liftMode) return act("lift", { square: square.dataset.sq });
      if (picked) {
        const tile = picked;
        picked = null;
        markPicked();
        return act("put", { square: square.dataset.sq, tile: tile });
      }
      const error = document.getElementById("sim-error");
      if (error) {
        error.textContent = "Pick a tile first, then click " + square.dataset.sq +
          " to put it there (or Lift mode, to lift its top tile).";
      }
    }
  });

  document.addEventListener("change", function (event) {
    if (event.target.id === "profile") act("faults", { profile: event.target.value });
  });

  document.addEventListener("DOMContentLoaded", function () {
    const frames = document.getElementById("frames");
    if (frames) showFrames(frames.dataset.frames);
    connect();
  });
})();
