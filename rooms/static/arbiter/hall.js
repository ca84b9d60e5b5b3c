/* The projector (templates/hall/): its sizes follow the browser's zoom, and its standings
   turn their pages. */
(function () {
  "use strict";
  var root = document.documentElement;

  /* The projector's sizes are shares of the screen (app.css, --s), which the browser's
     zoom leaves as they are: the zoom is read as the window's width in screen pixels over
     its width in the page's (Chromium; 1 where a browser says otherwise) and multiplies
     them. Zoomed in, the page becomes one column that scrolls down. */
  function zoom() {
    var z = window.outerWidth && window.innerWidth ? window.outerWidth / window.innerWidth : 1;
    z = z > 1.05 && z < 6 ? Math.round(z * 100) / 100 : 1;
    root.style.setProperty("--z", String(z));
    root.classList.toggle("hall-zoomed", z > 1);
  }

  /* Every player, a page at a time: as many rows as the box shows whole, "page 2/14"
     beside the title, the next page every few seconds. A new panel (the live updates swap
     it) stays on the page shown, unless the ranking is after another round. */
  var turner = null;
  var shown = { key: null, page: 0 };
  function pages() {
    var box = document.querySelector("[data-pages]");
    clearInterval(turner);
    if (!box) { return; }
    var rows = Array.prototype.slice.call(box.querySelectorAll("tbody tr"));
    var counter = box.querySelector("[data-page-of]");
    rows.forEach(function (row) { row.hidden = false; });
    var table = box.querySelector("table");
    var head = table.tHead ? table.tHead.offsetHeight : 0;
    var room = box.clientHeight - (table.offsetTop - box.offsetTop) - head;
    var each = rows.length ? rows[0].offsetHeight : 1;
    var per = Math.max(1, Math.floor(room / Math.max(1, each)));
    var count = Math.max(1, Math.ceil(rows.length / per));
    if (shown.key !== box.dataset.key) { shown = { key: box.dataset.key, page: 0 }; }
    function show(page) {
      shown.page = page % count;
      rows.forEach(function (row, i) { row.hidden = Math.floor(i / per) !== shown.page; });
      if (counter) {
        counter.textContent = count > 1
          ? "· " + box.dataset.pageText.replace("{p}", shown.page + 1).replace("{n}", count)
          : "";
      }
    }
    show(shown.page);
    if (count > 1) {
      turner = setInterval(function () { show(shown.page + 1); }, parseInt(box.dataset.turn || "8000", 10));
    }
  }

  function layout() { zoom(); pages(); }
  var again = null;
  window.addEventListener("resize", function () { clearTimeout(again); again = setTimeout(layout, 150); });
  document.addEventListener("DOMContentLoaded", layout);
  document.addEventListener("htmx:afterSwap", pages);
})();
