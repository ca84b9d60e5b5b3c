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
