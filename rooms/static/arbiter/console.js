/* The console's round page (templates/console/round.html). */
var FOLLOWED = "arbiter-console-followed"; // set before a reload that followed the round

/* The paper slip entry and the review are laid out for the round's state: when another
   arbitrator's action (or the worker) changes it, the whole page follows. */
(function () {
  var key = function () { var el = document.querySelector("#status [data-round-key]"); return el ? el.dataset.roundKey : ""; };
  var shown = key();
  document.body.addEventListener("htmx:afterSwap", function (e) {
    if (e.detail.target.id === "status" && key() !== shown) {
      var typing = document.querySelector("#slip-form input[name=word]");
      // The new page says where the round is now (below): a reload itself says nothing.
      if (!typing || !typing.value) { sessionStorage.setItem(FOLLOWED, "1"); location.reload(); }
    }
  });
})();

/* What changes under the arbitrator's eyes is said in words, in the page's own region (a
   region swapped in with its text is not read out): the round's state and top, the slips
   arriving, the rulings. The lines said are those marked data-say in the parts; the slips'
   count at most every few seconds (a hall of 2,000 hands them in by the hundred a second),
   every slip in at once. */
(function () {
  var region = document.querySelector("[data-console-said]");
  if (!region) { return; }
  var parts = ["status", "watch", "review"];
  function words(id) {
    var lines = [];
    document.querySelectorAll("#" + id + " [data-say]").forEach(function (el) {
      lines.push(el.textContent.replace(/[ \t\r\n]+/g, " ").trim());
    });
    return lines.join(" ");
  }
  var shown = {}, waiting = {}, timer = null, due = 0;
  parts.forEach(function (id) { shown[id] = words(id); });
  function flush() {
    timer = null;
    var text = parts.map(function (id) { return waiting[id] || ""; }).filter(Boolean).join(" ");
    waiting = {};
    if (!text) { return; }
    // The same words again (a count back where it was) must still be read: make them differ.
    region.textContent = text === region.textContent ? text + "\u00a0" : text;
  }
  function say(id, text, wait) {
    waiting[id] = text;
    var at = Date.now() + wait;
    if (timer !== null && due <= at) { return; }
    clearTimeout(timer);
    due = at;
    timer = setTimeout(flush, wait);
  }
  document.body.addEventListener("htmx:afterSwap", function (e) {
    var id = e.detail.target.id;
    if (parts.indexOf(id) < 0) { return; }
    var now = words(id);
    if (now === shown[id]) { return; }
    shown[id] = now;
    if (!now) { return; }
    var slow = id === "watch" && !document.querySelector("#watch [data-all-in]");
    say(id, now, slow ? 5000 : 300);
  });
  if (sessionStorage.getItem(FOLLOWED)) {
    sessionStorage.removeItem(FOLLOWED);
    say("status", words("status"), 500);
    if (words("review")) { say("review", words("review"), 500); }
  }
})();

/* Actions that are hard to undo ask first: ending a game, releasing a table always;
   closing a round when time is left on the clock or slips are still missing. */
(function () {
  function missing() {
    var h = document.querySelector("#watch [data-expected]");
    return h ? Math.max(0, +h.dataset.expected - +h.dataset.received) : 0;
  }
  document.addEventListener("submit", function (e) {
    var form = e.target, question = form.dataset.confirm;
    if (form.hasAttribute("data-confirm-close")) {
      var clock = document.querySelector("#status [data-countdown]");
      var left = clock && /^\d\d:\d\d$/.test(clock.textContent) && clock.textContent !== "00:00" ? clock.textContent : "";
      var lacking = missing(), lines = [];
      if (left) { lines.push(form.dataset.timeLeft + " " + left); }
      if (lacking) { lines.push(form.dataset.missing + " " + lacking); }
      question = lines.length ? lines.join("\n") + "\n" + form.dataset.question : "";
    }
    if (question && !window.confirm(question)) { e.preventDefault(); }
  }, true);
})();

/* Equal tops: the move selected is shown on the board (its new tiles outlined) and named
   on the Place button, which chooses and places it in one click. */
(function () {
  function selected() { return document.querySelector("form[data-place] input[name=move]:checked"); }
  function preview() {
    document.querySelectorAll("#board td.sq.preview").forEach(function (td) {
      td.classList.remove("preview", "pv-blank");
      td.querySelectorAll(".pv").forEach(function (s) { s.remove(); });
    });
    var radio = selected();
    if (!radio) { return; }
    radio.dataset.squares.split(";").forEach(function (part) {
      var bits = part.split(",");
      var td = document.querySelector('#board td.sq[data-r="' + bits[0] + '"][data-c="' + bits[1] + '"]');
      if (!td || td.dataset.letter) { return; }
      td.classList.add("preview");
      td.insertAdjacentHTML("afterbegin", '<span class="l pv" aria-hidden="true"></span>');
      td.querySelector(".pv").textContent = bits[2].toUpperCase();
      td.classList.toggle("pv-blank", bits[2] !== bits[2].toUpperCase());
    });
    var button = document.querySelector("form[data-place] button[data-place-label]");
    if (button) { button.textContent = button.dataset.placeLabel.replace("%(m)s", radio.value); }
  }
  document.addEventListener("change", function (e) {
    if (e.target.matches("form[data-place] input[name=move]")) { preview(); }
  });
  document.body.addEventListener("htmx:afterSwap", preview);
  document.addEventListener("DOMContentLoaded", preview);
})();
