/* Live updates by polling (README, "Live updates"): ask the server every second whether
   what this page shows has changed; when it has, fire "live-public" (or "live-full" for
   the console's slip list) on <body>, and the page's htmx regions reload themselves.
   The countdowns follow the server's clock: the offset is measured on every poll. */
(function () {
  "use strict";
  var root = document.querySelector("[data-live]");
  var offset = 0; // server clock minus this device's clock, in ms
  var deadline = null;
  if (root) {
    var url = root.dataset.live;
    var every = parseInt(root.dataset.poll || "1000", 10);
    var known = { public: root.dataset.public || "", full: root.dataset.full || "" };
    deadline = root.dataset.deadline ? Date.parse(root.dataset.deadline) : null;
    var failures = 0;
    var poll = function () {
      var sent = Date.now();
      fetch(url, { headers: { Accept: "application/json" }, cache: "no-store", credentials: "same-origin" })
        .then(function (r) {
          if (!r.ok) { throw new Error("HTTP " + r.status); }
          return r.json();
        })
        .then(function (d) {
          var back = Date.now();
          offset = d.now - (sent + back) / 2;
          deadline = d.deadline ? Date.parse(d.deadline) : null;
          failures = 0;
          document.body.classList.remove("offline");
          document.dispatchEvent(new CustomEvent("live-online"));
          if (d.public !== known.public) {
            known.public = d.public;
            document.body.dispatchEvent(new CustomEvent("live-public", { bubbles: true }));
          }
          if (d.full && d.full !== known.full) {
            known.full = d.full;
            document.body.dispatchEvent(new CustomEvent("live-full", { bubbles: true }));
          }
        })
        .catch(function () {
          failures += 1;
          if (failures >= 2) { document.body.classList.add("offline"); }
        })
        .finally(function () { setTimeout(poll, every); });
    };
    setTimeout(poll, every);
  }

  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    var now = Date.now() + offset;
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var end = el.dataset.deadline ? Date.parse(el.dataset.deadline) : deadline;
      if (!end) { el.textContent = "--:--"; return; }
      var left = Math.max(0, Math.ceil((end - now) / 1000));
      var text = pad(Math.floor(left / 60)) + ":" + pad(left % 60);
      if (el.textContent !== text) { el.textContent = text; }
      el.classList.toggle("urgent", left > 0 && left <= 30);
      el.classList.toggle("over", left === 0);
    });
  }
  window.arbiterClock = function () { return Date.now() + offset; };
  setInterval(tick, 250);
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", tick);
})();
