// A phone waiting for the arbitrator's confirmation asks every few seconds whether it
// still waits (204); any other answer (confirmed, refused, released) reloads the page,
// which then shows the game or the join form.
(function () {
  "use strict";
  var said = document.querySelector("[data-waiting]");
  if (!said) return;
  var url = said.getAttribute("data-waiting");
  function ask() {
    fetch(url, { credentials: "same-origin", headers: { "HX-Request": "true" } })
      .then(function (answer) {
        if (answer.status === 204) window.setTimeout(ask, 3000);
        else window.location.reload();
      })
      .catch(function () { window.setTimeout(ask, 5000); });
  }
  window.setTimeout(ask, 3000);
})();
