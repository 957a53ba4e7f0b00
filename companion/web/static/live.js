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

  // A changed fragment is laid over the one shown node by node: what changed is changed,
  // the rest stays the very same element. A button held under a finger while the table
  // changes is still there on release, so the browser does not drop the click.
  function morph(into, html) {
    const fresh = document.createElement("template");
    fresh.innerHTML = html;
    morphChildren(into, fresh.content);
  }

  function sameKind(old, fresh) {
    return old.nodeType === fresh.nodeType && old.nodeName === fresh.nodeName &&
      (old.nodeType !== Node.ELEMENT_NODE || old.id === fresh.id);
  }

  function morphChildren(old, fresh) {
    const was = Array.from(old.childNodes);
    const comes = Array.from(fresh.childNodes);
    comes.forEach(function (node, i) {
      const there = was[i];
      if (!there) { old.appendChild(node); return; }
      if (!sameKind(there, node)) { old.replaceChild(node, there); return; }
      if (there.nodeType !== Node.ELEMENT_NODE) {
        if (there.nodeValue !== node.nodeValue) there.nodeValue = node.nodeValue;
        return;
      }
      Array.from(there.attributes).forEach(function (a) {
        if (!node.hasAttribute(a.name)) there.removeAttribute(a.name);
      });
      Array.from(node.attributes).forEach(function (a) {
        if (there.getAttribute(a.name) !== a.value) there.setAttribute(a.name, a.value);
      });
      // a choice shows what the table says, even after a hand changed it (the attribute
      // alone no longer moves a select the user touched)
      if (there.nodeName === "OPTION") there.selected = there.hasAttribute("selected");
      morphChildren(there, node);
    });
    for (let i = was.length - 1; i >= comes.length; i--) old.removeChild(was[i]);
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
    // since: the state this page was drawn at, so the stream does not send it again
    const since = "since=" + encodeURIComponent(document.body.dataset.drawn || "");
    const source = new EventSource(tv ? "/events?view=tv&" + since : "/events?" + since);
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
        morph(box, event.data);
        if (name === "simtable") markPicked();
        if (name === "table") correction.render();
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

  // "Correct the board" (a paired browser only; the server refuses any other): tap a
  // square, see what the daemon believes lies there, say which tile lies on top or that a
  // believed one is not there. The daemon's answer is shown as it came, in its words.
  const correction = {
    on: false,
    square: null,
    tile: null,
    suit: "",
    rank: "",
    busy: false,

    panel: function () { return document.getElementById("correct-panel"); },

    fill: function (template, tile, square) {
      return (template || "").split("{tile}").join(tile).split("{square}").join(square);
    },

    label: function (name) {
      const button = document.querySelector('[data-word-tile="' + name + '"]');
      if (button) return button.dataset.label;
      const parts = name.split("-");
      const suit = document.querySelector('#correct-suits [data-suit="' + parts[0] + '"]');
      return (suit ? suit.textContent : parts[0] + " ") + parts[1];
    },

    // the daemon's belief, from the live board: square -> tiles, bottom first
    believed: function () {
      const stacks = {};
      document.querySelectorAll("#live-table [data-sq]").forEach(function (sq) {
        stacks[sq.dataset.sq] = (sq.dataset.stack || "").split(" ").filter(Boolean);
      });
      return stacks;
    },

    setMode: function (on) {
      const panel = this.panel();
      if (!panel) return;
      this.on = on;
      if (!on) { this.square = null; this.tile = null; }
      const button = document.getElementById("correct-mode");
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.textContent = on ? button.dataset.on : button.dataset.off;
      document.body.classList.toggle("correcting", on);
      panel.hidden = !on;
      document.getElementById("correct-answer").textContent = "";
      this.render();
    },

    open: function (square) {
      if (!this.on) this.setMode(true);
      if (this.square !== square) this.tile = null;
      this.square = square;
      document.getElementById("correct-answer").textContent = "";
      this.render();
      // on a phone the panel lies over the page's foot: the whole board above it
      const board = document.querySelector("#live-table .board");
      if (board) {
        const b = board.getBoundingClientRect();
        const p = this.panel().getBoundingClientRect();
        const under = b.right > p.left && b.left < p.right && b.bottom > p.top && b.top < p.bottom;
        if (under) board.scrollIntoView({ block: "start" });
      }
    },

    render: function () {
      const panel = this.panel();
      if (!panel) return;
      const self = this;
      const square = this.square;
      document.querySelectorAll("#live-table [data-sq]").forEach(function (sq) {
        sq.classList.toggle("chosen", self.on && sq.dataset.sq === square);
      });
      document.getElementById("correct-title").textContent = square
        ? this.fill(panel.dataset.square, "", square) : panel.dataset.hint;
      document.getElementById("correct-body").hidden = !square;
      if (!square) return;
      const stacks = this.believed();
      const stack = (stacks[square] || []).slice().reverse(); // top first
      const list = document.getElementById("correct-stack");
      list.replaceChildren();
      stack.forEach(function (name, i) {
        const item = document.createElement("li");
        item.dataset.stackTile = name;
        const face = document.createElement("span");
        face.className = "tile-name suit-" + name.split("-")[0];
        face.textContent = self.label(name);
        const absent = document.createElement("button");
        absent.type = "button";
        absent.dataset.absent = name;
        absent.textContent = panel.dataset.absent;
        absent.disabled = self.busy;
        item.append(face, absent);
        if (i === 0) item.classList.add("top");
        list.append(item);
      });
      document.getElementById("correct-empty").hidden = stack.length > 0;
      const where = {};
      Object.entries(stacks).forEach(function (entry) {
        entry[1].forEach(function (name) { where[name] = entry[0]; });
      });
      document.querySelectorAll("#correct-suits [data-suit]").forEach(function (b) {
        b.classList.toggle("on", b.dataset.suit === self.suit);
      });
      document.querySelectorAll("#correct-ranks [data-rank]").forEach(function (b) {
        b.classList.toggle("on", b.dataset.rank === self.rank);
      });
      document.querySelectorAll("[data-word-tile]").forEach(function (b) {
        const name = b.dataset.wordTile;
        b.hidden = (self.suit && b.dataset.suitOf !== self.suit) ||
          (self.rank && b.dataset.rankOf !== self.rank);
        b.classList.toggle("picked", name === self.tile);
        b.querySelector("small").textContent =
          where[name] ? self.fill(panel.dataset.elsewhere, "", where[name]) : "";
      });
      const lay = document.getElementById("correct-lay");
      if (lay) {
        lay.disabled = !this.tile || this.busy;
        lay.textContent = this.tile
          ? this.fill(panel.dataset.confirm, this.label(this.tile), square) : "";
        lay.hidden = !this.tile;
      }
    },

    say: async function (said, tile, square) {
      const panel = this.panel();
      const answer = document.getElementById("correct-answer");
      if (!panel || this.busy) return;
      this.busy = true;
      this.render();
      let text = panel.dataset.unanswered;
      let ok = false;
      try {
        const response = await fetch("/word", {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
          body: JSON.stringify({ said: said, square: square, tile: tile }),
        });
        let reply = null;
        try { reply = await response.json(); } catch (e) { reply = null; }
        if (reply && reply.ok) {
          ok = true;
          const said_as = { laid: panel.dataset.laid, hand: panel.dataset.hand };
          text = this.fill(said_as[said] || panel.dataset.gone, this.label(tile), square);
        } else if (reply && typeof reply.error === "string" && reply.error) {
          text = reply.error;
        }
      } catch (e) { /* the table is not reachable: the default sentence */ }
      this.busy = false;
      if (ok) this.tile = null;
      answer.textContent = text;
      answer.classList.toggle("refused", !ok);
      this.render();
      panel.scrollTop = 0; // the answer, under the square's name
    },

    click: function (event) {
      if (!this.panel()) return false;
      const target = event.target;
      if (target.closest("#correct-mode")) { this.setMode(!this.on); return true; }
      if (target.closest("[data-correct-close]")) { this.setMode(false); return true; }
      const answer = target.closest("[data-answer]");
      if (answer) {
        this.open(answer.dataset.square);
        this.say(answer.dataset.answer, answer.dataset.tile, answer.dataset.square);
        return true;
      }
      const opens = target.closest("[data-correct-square]");
      if (opens) { this.open(opens.dataset.correctSquare); return true; }
      const suit = target.closest("#correct-suits [data-suit]");
      if (suit) { this.suit = suit.dataset.suit; this.render(); return true; }
      const rank = target.closest("#correct-ranks [data-rank]");
      if (rank) { // a number again: every number
        this.rank = this.rank === rank.dataset.rank ? "" : rank.dataset.rank;
        this.render();
        return true;
      }
      const tile = target.closest("[data-word-tile]");
      if (tile) {
        this.tile = this.tile === tile.dataset.wordTile ? null : tile.dataset.wordTile;
        this.render();
        return true;
      }
      if (target.closest("#correct-lay") && this.tile && this.square) {
        this.say("laid", this.tile, this.square);
        return true;
      }
      const absent = target.closest("[data-absent]");
      if (absent && this.square) { this.say("absent", absent.dataset.absent, this.square); return true; }
      const square = target.closest("#live-table [data-sq]");
      if (square && this.on) { this.open(square.dataset.sq); return true; }
      return false;
    },
  };

  // "Apply the correction" (a paired browser only; the server refuses any other): the
  // correction is sent back as the page was shown it, so the table applies that one or
  // none; its answer (done, or why not) shows over the page until it is tapped.
  let applying = false;
  async function applyCorrection(button) {
    const answer = document.getElementById("correction-answer");
    if (!answer || applying) return;
    applying = true;
    button.disabled = true;
    const panel = document.getElementById("correct-panel");
    let text = (panel && panel.dataset.unanswered) || "The table did not answer: try again.";
    let ok = false;
    try {
      const response = await fetch("/correct", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify({ correction: JSON.parse(button.dataset.applyCorrection) }),
      });
      let reply = null;
      try { reply = await response.json(); } catch (e) { reply = null; }
      if (reply && reply.ok) {
        ok = true;
        text = reply.said || "";
      } else if (reply && typeof reply.error === "string" && reply.error) {
        text = reply.error;
      }
    } catch (e) { /* the table is not reachable: the default sentence */ }
    applying = false;
    button.disabled = false;
    answer.textContent = text;
    answer.classList.toggle("refused", !ok);
    answer.hidden = !text;
  }

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && correction.on) correction.setMode(false);
  });

  document.addEventListener("click", function (event) {
    const apply = event.target.closest("[data-apply-correction]");
    if (apply) { applyCorrection(apply); return; }
    if (event.target.closest("#correction-answer")) {
      event.target.closest("#correction-answer").hidden = true;
      return;
    }
    if (correction.click(event)) return;
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
