/* The phone page: place rack tiles on the board by tapping (or type the slip), hand the
   slip in through the REST API, and never lose it: the slip is kept in this phone's
   storage with its client_id until the server acknowledges it, and sent again when the
   network comes back (the server treats the same client_id as the same slip). */
(function () {
  "use strict";
  var panel = document.getElementById("panel");
  if (!panel) { return; }
  var T = JSON.parse(document.getElementById("phone-text").textContent);
  var api = panel.dataset.api;
  var token = panel.dataset.token;
  var store = "arbiter-pending-" + panel.dataset.event + "-" + panel.dataset.player;
  var tap = { placed: [], selected: null, across: true };

  function newId() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 12);
  }
  // The direction button says the direction in its label only: a toggle that also changed
  // its pressed state said two contradicting things at once.
  function dirLabel(across) { return T.direction + " " + (across ? T.across : T.down); }
  // "20:04:41" in the event's time zone (T.tz), whatever the phone's own.
  function clockTime(iso) {
    var options = { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" };
    try { return new Date(iso).toLocaleTimeString("en-GB", Object.assign({ timeZone: T.tz }, options)); }
    catch (e) { return new Date(iso).toLocaleTimeString("en-GB", options); }
  }
  function pending() { try { return JSON.parse(localStorage.getItem(store) || "null"); } catch (e) { return null; } }
  function setPending(slip) {
    if (slip) { localStorage.setItem(store, JSON.stringify(slip)); } else { localStorage.removeItem(store); }
  }
  var notice = null; // the last answer about a slip, shown again after the panel reloads
  function say(html, cls) {
    var box = document.getElementById("receipt");
    if (!box) { return; }
    notice = { html: html, cls: cls || "", round: box.dataset.round };
    box.innerHTML = '<p class="receipt ' + notice.cls + '">' + html + "</p>";
  }
  function sayAgain() {
    // A reload of the panel (the round closed, say) must not hide what happened to the
    // last slip, above all a slip that did not arrive in time.
    var box = document.getElementById("receipt");
    if (box && notice && notice.round === box.dataset.round && notice.cls !== "ok") {
      box.insertAdjacentHTML("afterbegin", '<p class="receipt ' + notice.cls + '">' + notice.html + "</p>");
    }
  }
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; }); }
  function slipText(s) {
    var move = s.coordinates || s.word ? s.coordinates + " " + s.word : T.blankslip;
    return "<b>" + esc(move) + "</b>" + (s.announced_score !== null ? " · " + esc(s.announced_score) : "");
  }

  /* ---------------------------------------------------------------- sending */
  var sending = false;
  function finished(slip) {
    // A correction handed in while this slip was on its way is still to be sent: only the
    // slip that was answered leaves the phone's storage.
    var now = pending();
    if (now && now.client_id === slip.client_id) { setPending(null); return false; }
    return !!now;
  }
  function send() {
    var slip = pending();
    if (!slip || sending) { return; }
    sending = true;
    say(T.sending + " " + slipText(slip), "pending");
    fetch(api, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "Accept-Language": document.documentElement.lang || "fr",
        Authorization: "Player " + token
      },
      body: JSON.stringify(slip),
      credentials: "omit"
    }).then(function (r) {
      return r.json().then(function (body) { return { status: r.status, body: body }; });
    }).then(function (res) {
      sending = false;
      if (res.status === 200 || res.status === 201) {
        var more = finished(slip);
        var at = clockTime(res.body.received_at);
        if (res.body.late) {
          say((res.body.late_reason === "closed" ? T.notsent : T.timeup) + " " + slipText(slip), "late");
        } else {
          var words = (res.body.invalid_words || []).length ? " · ⚠ " + esc(res.body.invalid_words.join(", ")) : "";
          say(T.received + " " + esc(at) + T.colon + " " + slipText(slip) + words + " — " + T.replace, "ok");
          if (!more) { resetTap(); clearScore(); }
        }
        if (more) { send(); }
      } else if (res.status >= 400 && res.status < 500 && res.status !== 429) {
        var again = finished(slip); // refused for good: the message says why
        say(T.refused + T.colon + " " + esc((res.body.error || {}).message || res.status), "late");
        if (again) { send(); }
      } else {
        throw new Error("retry");
      }
    }).catch(function () {
      sending = false;
      var slipNow = pending();
      if (slipNow) { say(T.pending + " " + slipText(slipNow), "pending"); }
      setTimeout(send, 3000);
    });
  }
  window.addEventListener("online", send);
  document.addEventListener("live-online", send);

  /* ---------------------------------------------------------------- tapping */
  function cell(r, c) { return panel.querySelector('td.sq[data-r="' + r + '"][data-c="' + c + '"]'); }
  function boardLetter(r, c) {
    var td = cell(r, c);
    if (!td) { return null; }
    // Letters already on the board are written plainly: only the blanks placed now are marked.
    if (td.dataset.letter) { return td.dataset.letter.toUpperCase(); }
    for (var i = 0; i < tap.placed.length; i++) {
      if (tap.placed[i].r === r && tap.placed[i].c === c) { return tap.placed[i].letter; }
    }
    return null;
  }
  function labels() {
    var cols = Array.prototype.map.call(panel.querySelectorAll("thead th"), function (th) { return th.textContent; });
    var rows = Array.prototype.map.call(panel.querySelectorAll("tbody th"), function (th) { return th.textContent; });
    return { rows: rows, cols: cols };
  }
  function coordinates(r, c, across) {
    var l = labels();
    if (panel.dataset.notation === "scramble") { return l.cols[c].toLowerCase() + l.rows[r] + "," + (across ? "a" : "d"); }
    return across ? l.rows[r] + l.cols[c] : l.cols[c] + l.rows[r];
  }
  function clearScore() {
    // Handed in: the next slip starts empty, its score too (a replacement is typed anew).
    var form = document.getElementById("slip");
    if (form) { form.announced_score.value = ""; }
  }
  function clearFields() {
    var form = document.getElementById("slip");
    if (form) { form.coordinates.value = ""; form.word.value = ""; }
  }
  function fill() {
    var form = document.getElementById("slip");
    if (!form) { return; }
    var p = tap.placed;
    if (!p.length) { clearFields(); return; }
    var across = tap.across;
    if (p.length > 1) {
      var row = p.every(function (x) { return x.r === p[0].r; });
      var col = p.every(function (x) { return x.c === p[0].c; });
      if (!row && !col) { clearFields(); return; } // not one line: no word to write yet
      across = row;
    }
    var dr = across ? 0 : 1, dc = across ? 1 : 0;
    var r = p[0].r, c = p[0].c;
    p.forEach(function (x) { if (across ? x.c < c : x.r < r) { r = x.r; c = x.c; } });
    while (boardLetter(r - dr, c - dc)) { r -= dr; c -= dc; }
    var word = "", rr = r, cc = c, letter;
    while ((letter = boardLetter(rr, cc))) { word += letter; rr += dr; cc += dc; }
    // A word of blanks only would read as unmarked: mark each blank with "-" (docs/rules.md#notation).
    if (word === word.toLowerCase()) {
      word = word.split("").map(function (ch) { return "-" + ch; }).join("");
    }
    form.coordinates.value = coordinates(r, c, across);
    form.word.value = word;
    var dir = panel.querySelector("[data-dir]");
    if (dir) { dir.textContent = dirLabel(across); }
  }
  function render() {
    grid();
    panel.querySelectorAll("td.sq.pending").forEach(function (td) {
      td.classList.remove("pending", "blank");
      td.querySelectorAll(".tmp").forEach(function (s) { s.remove(); });
    });
    tap.placed.forEach(function (x) {
      var td = cell(x.r, x.c);
      td.classList.add("pending");
      var s = document.createElement("span");
      s.className = "l tmp";
      s.textContent = x.letter.toUpperCase();
      td.appendChild(s);
      if (x.letter !== x.letter.toUpperCase()) {
        // A blank: circled, as on a paper slip, and said so (not by its colour alone).
        td.classList.add("blank");
        var said = document.createElement("span");
        said.className = "sr tmp";
        said.textContent = " (" + T.blank + ")";
        td.appendChild(said);
      }
    });
    panel.querySelectorAll(".rack .tile").forEach(function (b, i) {
      var used = tap.placed.some(function (x) { return x.index === i; });
      b.classList.toggle("used", used);
      b.classList.toggle("selected", tap.selected === i);
      b.setAttribute("aria-pressed", tap.selected === i ? "true" : "false");
    });
    var wrap = panel.querySelector(".board-wrap");
    if (wrap) { wrap.classList.toggle("zoom", tap.selected !== null || tap.placed.length > 0); }
    fill();
  }
  function resetTap() { tap.placed = []; tap.selected = null; render(); }
  function chooseBlank(done) {
    var dialog = document.getElementById("blank-dialog");
    if (!dialog || !dialog.showModal) { var l = prompt("A-Z"); done(l ? l.toLowerCase() : ""); return; }
    dialog.onclick = function (e) {
      if (e.target.tagName === "BUTTON") { dialog.close(); done(e.target.value.toLowerCase()); }
    };
    dialog.showModal();
  }
  panel.addEventListener("click", function (e) {
    var tile = e.target.closest(".rack .tile");
    if (tile && !tile.disabled) {
      var index = Array.prototype.indexOf.call(panel.querySelectorAll(".rack .tile"), tile);
      if (tap.placed.some(function (x) { return x.index === index; })) { return; }
      tap.selected = tap.selected === index ? null : index;
      render();
      return;
    }
    var td = e.target.closest("td.sq");
    if (td && tap.selected !== null && !td.dataset.letter && !td.classList.contains("pending")) {
      var index2 = tap.selected;
      var letter = panel.querySelectorAll(".rack .tile")[index2].dataset.letter;
      var place = function (l) {
        if (!l) { return; }
        tap.placed.push({ r: +td.dataset.r, c: +td.dataset.c, letter: l, index: index2 });
        tap.selected = null;
        render();
      };
      if (letter === "?") { chooseBlank(place); } else { place(letter); }
      return;
    }
    if (e.target.closest("[data-undo]")) { tap.placed.pop(); render(); return; }
    var dir = e.target.closest("[data-dir]");
    if (dir) {
      tap.across = !tap.across;
      dir.textContent = dirLabel(tap.across);
      fill();
    }
  });

  /* ---------------------------------------------------- the board by keyboard */
  /* The board is one tab stop, a grid: the arrow keys move between its squares (Home and
     End to the ends of a row), Enter or Space places the rack tile chosen on the square,
     or takes back the tile placed there; a letter typed on a square places the rack's
     tile of that letter (else its blank, as that letter) and moves on along the word. */
  var at = null; // {r, c}: the square that holds the board's tab stop
  function grid() {
    var table = panel.querySelector("table.board");
    if (!table) { return; }
    table.setAttribute("role", "grid");
    var wrap = table.closest(".board-wrap");
    if (wrap) { wrap.removeAttribute("tabindex"); } // the squares are the stop now
    var size = table.querySelectorAll("tbody tr").length;
    if (!at || !cell(at.r, at.c)) { at = { r: Math.floor(size / 2), c: Math.floor(size / 2) }; }
    table.querySelectorAll("td.sq").forEach(function (td) { td.tabIndex = -1; });
    cell(at.r, at.c).tabIndex = 0;
  }
  function goTo(r, c) {
    var td = cell(r, c);
    if (!td) { return; } // off the board: the focus stays
    cell(at.r, at.c).tabIndex = -1;
    at = { r: r, c: c };
    td.tabIndex = 0;
    td.focus();
  }
  var STEPS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  panel.addEventListener("keydown", function (e) {
    var td = e.target.closest ? e.target.closest("td.sq") : null;
    if (!td || e.altKey || e.ctrlKey || e.metaKey) { return; }
    var r = +td.dataset.r, c = +td.dataset.c;
    var size = panel.querySelectorAll("table.board tbody tr").length;
    var step = STEPS[e.key];
    if (step || e.key === "Home" || e.key === "End") {
      e.preventDefault();
      if (step) { goTo(r + step[0], c + step[1]); } else { goTo(r, e.key === "Home" ? 0 : size - 1); }
      return;
    }
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      var here = tap.placed.filter(function (x) { return x.r === r && x.c === c; });
      if (here.length) {
        tap.placed = tap.placed.filter(function (x) { return x !== here[0]; });
        render();
      } else {
        td.click();
      }
      return;
    }
    if (!/^[a-z]$/i.test(e.key) || td.dataset.letter || td.classList.contains("pending")) { return; }
    // The rack's tile of that letter, else its blank played as that letter (lower case).
    var wanted = e.key.toUpperCase();
    var index = freeTile(wanted), letter = wanted;
    if (index < 0) { index = freeTile("?"); letter = wanted.toLowerCase(); }
    if (index < 0) { return; }
    e.preventDefault();
    tap.placed.push({ r: r, c: c, letter: letter, index: index });
    tap.selected = null;
    render();
    // On along the word, over the letters already on the board.
    var dr = tap.across ? 0 : 1, dc = tap.across ? 1 : 0;
    var nr = r + dr, nc = c + dc;
    while (cell(nr, nc) && boardLetter(nr, nc)) { nr += dr; nc += dc; }
    goTo(nr, nc);
  });
  function freeTile(letter) {
    var tiles = panel.querySelectorAll(".rack .tile");
    for (var i = 0; i < tiles.length; i++) {
      var used = tap.placed.some(function (x) { return x.index === i; });
      if (!used && !tiles[i].disabled && tiles[i].dataset.letter === letter) { return i; }
    }
    return -1;
  }

  /* ---------------------------------------------------------------- the form */
  panel.addEventListener("submit", function (e) {
    var form = e.target;
    if (form.id !== "slip") { return; }
    e.preventDefault();
    // "I pass": a blank slip, handed in as such (the fields are not read).
    var blank = !!(e.submitter && e.submitter.hasAttribute("data-pass"));
    var score = blank ? "" : form.announced_score.value.trim();
    var key = (document.getElementById("receipt") || { dataset: {} }).dataset.round || "";
    var parts = key.split("-");
    setPending({
      game: parseInt(parts[0], 10) || undefined,
      round: parseInt(parts[1], 10) || undefined,
      coordinates: blank ? "" : form.coordinates.value.trim(),
      word: blank ? "" : form.word.value.trim(),
      announced_score: score === "" ? null : parseInt(score, 10),
      client_id: newId(),
      // When it was handed in, on the server's clock (live.js keeps the offset): a slip
      // queued in a busy server, or sent again later, counts from then, within the
      // server's grace (docs/rules.md#slips).
      sent_at: new Date(window.arbiterClock ? window.arbiterClock() : Date.now()).toISOString()
    });
    send();
  });
  /* The panel reloads when anything public changes (a ruling corrected, the tops
     computed...): within the same round, what the player was typing or tapping stays. */
  var kept = null;
  document.body.addEventListener("htmx:configRequest", function (e) {
    // The version the live stream announced: the server builds the panel of a hall's
    // phones from one reading of it instead of one per phone.
    var live = document.querySelector("[data-live]");
    if (e.detail.elt === panel && live && live.dataset.public) { e.detail.parameters.v = live.dataset.public; }
  });
  // The field the player was in when the panel was swapped: focus goes back to it, or, when
  // it is gone (the round closed under their fingers), to the panel's first line, never to
  // the top of the page.
  var focused = null;
  function keepTyping() {
    var form = document.getElementById("slip");
    var box = document.getElementById("receipt");
    var active = document.activeElement;
    focused = active && panel.contains(active) && active !== panel ? (active.name || active.id || "") : null;
    if (focused === "" && active.matches("td.sq")) { focused = "board"; }
    kept = form && box ? {
      round: box.dataset.round,
      coordinates: form.coordinates.value,
      word: form.word.value,
      score: form.announced_score.value,
      tap: tap
    } : null;
  }
  function restoreTyping() {
    var form = document.getElementById("slip");
    var box = document.getElementById("receipt");
    if (kept && form && box && box.dataset.round === kept.round) {
      form.coordinates.value = kept.coordinates;
      form.word.value = kept.word;
      form.announced_score.value = kept.score;
      tap = kept.tap;
      tap.placed = tap.placed.filter(function (x) { var td = cell(x.r, x.c); return td && !td.dataset.letter; });
      render();
      form.coordinates.value = kept.coordinates; // typed text wins over the tiles' reading
      form.word.value = kept.word;
    } else {
      tap = { placed: [], selected: null, across: true };
      // A board kept from the last panel may still carry tiles tapped in another round.
      render();
    }
    grid();
    kept = null;
    sayAgain();
    if (focused !== null) {
      var again = focused === "board" && at ? cell(at.r, at.c)
        : focused && (panel.querySelector('[name="' + focused + '"]') || document.getElementById(focused));
      var target = again && !again.disabled ? again : panel.querySelector("[data-focus-here]");
      if (target) { target.focus({ preventScroll: true }); }
      focused = null;
    }
  }
  document.body.addEventListener("htmx:beforeSwap", function (e) {
    if (e.detail.target === panel) { keepTyping(); }
  });
  /* A new panel says what changed (its [data-say] sentence) in the page's own live
     region: the round opened, the results are being checked, the results are out. */
  function saying() {
    var line = (panel.querySelector("[data-say]") || {}).textContent || "";
    // With the result, the player's own: their slip, its score and its ruling (the
    // sentence that explains it is on the screen, not said).
    var mine = panel.querySelector('[data-mine="result"] .mine');
    if (line && mine) {
      var said = mine.cloneNode(true);
      said.querySelectorAll(".why").forEach(function (w) { w.remove(); });
      line += " " + said.textContent.replace(/\s+/g, " ").trim();
    }
    return line;
  }
  var told = saying();
  function tell() {
    var line = saying();
    var region = document.querySelector("[data-panel-said]");
    if (line && line !== told && region) { region.textContent = line; }
    told = line;
  }
  document.body.addEventListener("htmx:afterSwap", function (e) {
    if (e.detail.target === panel) { restoreTyping(); tell(); }
  });
  /* The live stream sends the panel every phone shows and this player's own lines
     (rooms/views/panels.py): the lines go in the panel's slots, as the server puts them
     in the panel it builds for the page. */
  function fillMine(mine, chartHtml) {
    var total = panel.querySelector('[data-mine="total"]');
    if (total) { total.textContent = mine.total; }
    var receipt = panel.querySelector('[data-mine="receipt"]');
    if (receipt) { receipt.innerHTML = mine.receipt; }
    var result = panel.querySelector('[data-mine="result"]');
    if (result) { result.innerHTML = mine.result; }
    var chart = panel.querySelector('[data-mine="chart"]');
    if (chart) { chart.innerHTML = chartHtml; }
    panel.querySelectorAll("[data-you]").forEach(function (td) {
      var value = mine.you[td.dataset.you];
      td.textContent = value === undefined || value === null ? "—" : value;
    });
  }
  /* ---------------------------------------------------------------- time up */
  // At 00:00 the form is closed and says why; a slip already waiting on the phone is still
  // sent (the server dates it by its arrival). Given time again, the form opens again.
  document.body.addEventListener("live-time", function (e) {
    var form = document.getElementById("slip"), panel = document.getElementById("panel");
    if (!form || !panel || !panel.contains(e.detail.el)) { return; }
    // A disabled field loses the focus to the page's top: it goes to the status line,
    // which says the time is up, so that a screen reader's user is not lost.
    var typing = form.contains(document.activeElement);
    form.querySelectorAll("input:not([type=hidden]), button").forEach(function (c) { c.disabled = e.detail.up; });
    var line = panel.querySelector("[data-focus-here]");
    if (e.detail.up && typing && line) { line.focus({ preventScroll: true }); }
    // "You may replace it until the deadline" is no longer true once the time is up.
    document.querySelectorAll("#receipt .until").forEach(function (s) { s.hidden = e.detail.up; });
    var said = form.querySelector(".time-up");
    if (e.detail.up && !said) {
      form.insertAdjacentHTML("afterbegin", '<p class="time-up receipt late" role="status">' + esc(T.timeisup) + "</p>");
    } else if (!e.detail.up && said) {
      said.remove();
    }
  });

  /* The stream leaves out the parts this phone holds (the board or its rows, the tiles to
     come, the chart: rooms/views/panels.py): a placeholder names each by its content, and
     the phone's own part goes back there, as it was. A part it does not hold (a panel
     reloaded meanwhile): the panel reloads. */
  var chartHeld = { key: null, html: "" };
  document.body.addEventListener("live-panel", function (e) {
    var d = e.detail;
    keepTyping();
    var held = {};
    panel.querySelectorAll("[data-keep]:not([data-kept])").forEach(function (part) { held[part.dataset.keep] = part; });
    panel.innerHTML = d.html;
    var missing = false;
    panel.querySelectorAll("[data-kept]").forEach(function (spot) {
      var part = held[spot.dataset.keep];
      if (part) { spot.replaceWith(part); } else { missing = true; }
    });
    if (typeof d.mine.chart === "string") {
      chartHeld = { key: d.mine.chart_key, html: d.mine.chart };
    } else if (chartHeld.key !== d.mine.chart_key) {
      missing = true;
    }
    fillMine(d.mine, chartHeld.html);
    restoreTyping();
    tell();
    if (missing) { document.body.dispatchEvent(new CustomEvent("live-public", { bubbles: true, detail: d })); }
  });
  grid();
  if (pending()) { send(); }
})();
