/* Live updates (docs/architecture.md, "Live updates"): listen to the server-sent events stream of the
   event; when a version changes fire "live-public" (or "live-full", the console's slip
   list; "live-state", the round's own state on the console) on <body>, and the page's htmx regions reload themselves; a phone's stream sends
   its new panel instead ("live-panel", put in place by phone.js). A browser without
   EventSource, or whose stream keeps failing (a proxy that buffers it), asks the polling
   endpoint every second instead. The countdowns follow the server's clock: every
   message carries the server's time. */
(function () {
  "use strict";
  var root = document.querySelector("[data-live]");
  var offset = 0; // server clock minus this device's clock, in ms
  var deadline = null;
  var paused = null; // the time left on a held clock (ms), from the last message

  /* The phone's network notice: words in its live region (said, in the page's language),
     not a picture drawn by the stylesheet. */
  function net(text) {
    var el = document.querySelector("[data-net]");
    if (el && el.textContent !== text) { el.textContent = text; }
  }
  function online() {
    document.body.classList.remove("offline");
    net("");
    document.dispatchEvent(new CustomEvent("live-online"));
  }
  function offline() {
    document.body.classList.add("offline");
    var el = document.querySelector("[data-net]");
    if (el) { net(el.dataset.offline || ""); }
  }
  // The device's own word, at once (a stream may stay open a while over a dead Wi-Fi);
  // back on the network, the next failure of the stream or the polls says it again.
  window.addEventListener("offline", offline);
  window.addEventListener("online", online);

  if (root) {
    var known = { public: root.dataset.public || "", full: root.dataset.full || "", state: root.dataset.state || "" };
    // The pages that show the round's own state say it (the console's data-state); the
    // projector, opened with the arbitrator's session, is told the state too and ignores it.
    var followsState = root.dataset.state !== undefined;
    deadline = root.dataset.deadline ? Date.parse(root.dataset.deadline) : null;
    var apply = function (d, sent) {
      var back = Date.now();
      offset = d.now - (sent ? (sent + back) / 2 : back);
      if ("deadline" in d) {
        deadline = d.deadline ? Date.parse(d.deadline) : null;
        paused = d.paused === undefined || d.paused === null ? null : d.paused;
        // The message is newer than the page's countdowns (their panel reloads after it):
        // a pause, a resume or time added shows at once.
        document.querySelectorAll("[data-countdown]").forEach(function (el) {
          el.dataset.deadline = d.deadline || "";
          el.dataset.paused = paused === null ? "" : String(paused);
        });
      }
      online();
      // The console shows the round's own state: a round ruled and not yet published is no
      // public change (the phones still say "checking"), but its review is the console's
      // to show at once ("live-state": the regions that show the state reload, not the
      // board, which shows what the hall sees).
      var ruled = followsState && d.state !== undefined && (d.state || "") !== known.state;
      if (d.state !== undefined) { known.state = d.state || ""; }
      if (d.public !== undefined && d.public !== known.public) {
        known.public = d.public;
        root.dataset.public = known.public; // the version the reloads ask for (phone.js)
        // A phone's stream sends the new panel itself (rooms/views/panels.py): phone.js
        // puts it in place; any other message makes the page's regions reload.
        var name = d.html !== undefined ? "live-panel" : "live-public";
        document.body.dispatchEvent(new CustomEvent(name, { bubbles: true, detail: d }));
      } else if (ruled) {
        document.body.dispatchEvent(new CustomEvent("live-state", { bubbles: true, detail: d }));
      }
      if (d.full && d.full !== known.full) {
        known.full = d.full;
        document.body.dispatchEvent(new CustomEvent("live-full", { bubbles: true }));
      }
    };

    var poll = function () {
      var every = parseInt(root.dataset.poll || "1000", 10);
      var failures = 0;
      var once = function () {
        var sent = Date.now();
        fetch(root.dataset.live, { headers: { Accept: "application/json" }, cache: "no-store", credentials: "same-origin" })
          .then(function (r) { if (!r.ok) { throw new Error("HTTP " + r.status); } return r.json(); })
          .then(function (d) { failures = 0; apply(d, sent); })
          .catch(function () { failures += 1; if (failures >= 2) { offline(); } })
          .finally(function () { setTimeout(once, every); });
      };
      setTimeout(once, every);
    };

    if (window.EventSource && root.dataset.stream) {
      var source = new EventSource(root.dataset.stream);
      var heard = false, quiet = null;
      var fallback = function () { source.close(); poll(); };
      // A proxy that buffers the stream delivers nothing, and says nothing either.
      var silent = setTimeout(function () { if (!heard) { fallback(); } }, 20000);
      var onMessage = function (e) {
        heard = true;
        clearTimeout(quiet);
        clearTimeout(silent);
        apply(JSON.parse(e.data), 0);
      };
      source.addEventListener("version", onMessage);
      source.addEventListener("panel", onMessage);
      source.addEventListener("ping", onMessage);
      source.onerror = function () {
        if (source.readyState === EventSource.CLOSED) { clearTimeout(silent); fallback(); return; }
        // Reconnecting (the stream's lifetime ended, or the Wi-Fi dropped): say "offline"
        // only if no message comes back within a few seconds.
        clearTimeout(quiet);
        quiet = setTimeout(offline, 4000);
      };
    } else {
      poll();
    }
  }

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  // Said once per change of the clock, whatever panels were swapped in between: a region of
  // the page itself, not of a panel (a new panel's regions say nothing on arrival).
  // It exists before its first words: a region created with its text is not read out.
  var said = null, clock = null; // clock: {round, paused, end} as last shown
  function sayHere() {
    if (said || !document.body) { return; }
    said = document.createElement("div");
    said.className = "sr";
    said.setAttribute("role", "status");
    said.setAttribute("aria-live", "polite");
    said.setAttribute("data-clock-said", "");
    document.body.appendChild(said);
  }
  function say(text) { sayHere(); said.textContent = text; }
  // end: the deadline of a running clock, the time left on a held one (ms).
  function followClock(el, held, end) {
    var now = { round: el.dataset.round || "", paused: held, end: end, soon: false, up: false };
    if (clock && clock.round === now.round) {
      now.soon = clock.soon; now.up = clock.up;
      if (clock.paused !== held) {
        say(held ? el.dataset.saidPaused : el.dataset.saidResumed);
      } else if (end && clock.end && end - clock.end >= 1000) {
        say(el.dataset.saidAdded);
        now.soon = now.up = false; // given time: the warnings may come again
      }
    }
    clock = now;
  }
  // "30 seconds left", "Time is up": once a round (again after time added), said in words
  // where the page showed them only by the countdown's colour.
  function warnClock(el, left) {
    if (!clock || !el.dataset.deadline) { return; }
    if (left > 30) { clock.soon = false; }
    if (left > 0) { clock.up = false; }
    if (left === 0 && !clock.up) { clock.up = clock.soon = true; say(el.dataset.saidUp || ""); }
    else if (left > 0 && left <= 30 && !clock.soon) { clock.soon = true; say(el.dataset.saidSoon || ""); }
  }

  function tick() {
    var now = Date.now() + offset;
    var first = true;
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var end = el.dataset.deadline ? Date.parse(el.dataset.deadline) : deadline;
      var held = el.dataset.paused !== undefined && el.dataset.paused !== "";
      var note = el.nextElementSibling && el.nextElementSibling.hasAttribute("data-clock-paused") ? el.nextElementSibling : null;
      if (note) { note.hidden = !held; }
      el.classList.toggle("paused", held);
      if (first) { followClock(el, held, held ? parseInt(el.dataset.paused, 10) : end); first = false; }
      if (held) { end = now + parseInt(el.dataset.paused, 10); }
      if (!end) { el.textContent = "--:--"; return; }
      var left = Math.max(0, Math.ceil((end - now) / 1000));
      if (el === document.querySelector("[data-countdown]") && !held) { warnClock(el, left); }
      var text = pad(Math.floor(left / 60)) + ":" + pad(left % 60);
      if (el.textContent !== text) { el.textContent = text; }
      el.classList.toggle("urgent", left > 0 && left <= 30);
      el.classList.toggle("over", left === 0);
      // Time up (or given back): said once per countdown shown, a new panel's too.
      var over = left === 0 ? "1" : "0";
      if (el.dataset.over !== over) {
        el.dataset.over = over;
        document.body.dispatchEvent(new CustomEvent("live-time", { detail: { up: left === 0, el: el } }));
      }
    });
  }
  window.arbiterClock = function () { return Date.now() + offset; };
  /* The page's messages ("Round 2 is open.", a refusal) come with the page: a live region
     says only what changes in it after the load, so they are taken out and put back. */
  function sayMessages() {
    var region = document.querySelector("[data-messages]");
    var list = region && region.querySelector("ul");
    if (!list) { return; }
    region.removeChild(list);
    setTimeout(function () { region.appendChild(list); }, 100);
  }
  document.addEventListener("DOMContentLoaded", sayMessages);
  setInterval(tick, 250);
  document.addEventListener("DOMContentLoaded", function () { sayHere(); tick(); });
  document.addEventListener("htmx:afterSwap", tick);
})();
