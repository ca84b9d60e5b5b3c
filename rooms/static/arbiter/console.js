/* The paper slip entry and the review are laid out for the round's state: when another
   arbitrator's action (or the worker) changes it, the whole page follows. */
(function () {
  var key = function () { var el = document.querySelector("#status [data-round-key]"); return el ? el.dataset.roundKey : ""; };
  var shown = key();
  document.body.addEventListener("htmx:afterSwap", function (e) {
    if (e.detail.target.id === "status" && key() !== shown) {
      var typing = document.querySelector("#slip-form input[name=word]");
      if (!typing || !typing.value) { location.reload(); }
    }
  });
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
