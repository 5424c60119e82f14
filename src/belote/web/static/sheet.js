// A sheet's page follows the sheet live: /ws/sheets/ID says when it changed (a hand
// added, undone or edited here, on another phone or by `belote sheet` on the server),
// and the page fetches itself again and swaps in the score, the hands and the chart.
(() => {
  "use strict";
  const top = document.getElementById("sheet-top");
  if (!top || !("WebSocket" in window)) return;
  const id = top.dataset.sheet;
  let events = parseInt(top.dataset.events || "0", 10);
  let fetching = false;
  let again = false;
  let delay = 1000;

  // The parts that change with the hands; the form being typed in stays as it is.
  const PARTS = ["sheet-top", "hands", "calc-title"];

  async function refresh() {
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    try {
      // the sheet's own page (this one may be a refused form's answer, at another address)
      const response = await fetch(`/sheets/${id}`, { credentials: "same-origin", cache: "no-store" });
      if (!response.ok) return;
      const doc = new DOMParser().parseFromString(await response.text(), "text/html");
      for (const part of PARTS) {
        const now = document.getElementById(part);
        const fresh = doc.getElementById(part);
        if (now && fresh) now.replaceWith(fresh);
      }
      // The game ended, or a hand after the end was undone: the calculator comes or goes.
      const calc = document.getElementById("calc");
      const freshCalc = doc.getElementById("calc");
      if (calc && freshCalc && calc.dataset.finished !== freshCalc.dataset.finished) calc.replaceWith(freshCalc);
      const newTop = document.getElementById("sheet-top");
      if (newTop) events = parseInt(newTop.dataset.events || "0", 10);
      document.dispatchEvent(new CustomEvent("belote:sheet-updated", { detail: { events: events } }));
    } catch (e) {
      // the next change, or the next connection, fetches again
    } finally {
      fetching = false;
      if (again) {
        again = false;
        refresh();
      }
    }
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/sheets/${id}`);
    let fatal = false;
    ws.addEventListener("open", () => {
      delay = 1000;
      ws.send(JSON.stringify({ type: "follow" }));
    });
    ws.addEventListener("message", (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch (e) {
        return;
      }
      if (msg.type === "error" && msg.fatal) fatal = true;
      // "welcome" tells the count now: a change missed while away is fetched too
      if ((msg.type === "welcome" || msg.type === "changed") && msg.events !== events) refresh();
    });
    ws.addEventListener("close", (event) => {
      if (fatal || event.code === 4403 || event.code === 4404) return;
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    });
  }
  connect();
})();

// The score calculator form: the other team's trick points worked out as you type
// (162 minus them, or 252 and 0 for a capot), and the hand's score asked of the server.
(() => {
  "use strict";
  const { _, fmt } = window.belote; // the page's language (app.js)
  const OUTCOMES = { made: _("made"), failed: _("failed"), litige: _("litige"), void: _("void") };
  const form = document.getElementById("hand-form");
  if (!form) return;
  const points = form.elements.namedItem("points");
  const other = document.getElementById("other-points");
  const preview = document.getElementById("preview");
  const errorBox = document.getElementById("form-error");
  const url = form.dataset.preview;
  const scaledTa = form.dataset.scaledTa === "true";
  const declCompare = document.getElementById("decl-compare");
  const declTie = document.getElementById("decl-tie");
  let timer = null;
  let asked = 0;

  function value(name) {
    const el = form.elements.namedItem(name);
    if (!el) return "";
    if (el instanceof RadioNodeList) return el.value || "";
    return el.value || "";
  }

  function total() {
    return scaledTa && value("trump") === "TA" ? 258 : 162;
  }

  function otherPoints() {
    const capot = value("capot");
    const team = value("points_team");
    points.disabled = !!capot;
    if (capot) {
      other.textContent = fmt(_("{n} (capot)"), { n: capot === team ? 0 : 252 });
      return;
    }
    const text = points.value.trim();
    if (!/^\d+$/.test(text)) {
      other.textContent = "–";
      return;
    }
    const n = parseInt(text, 10);
    other.textContent = n > total() ? fmt(_("more than {total}?"), { total: total() }) : String(total() - n);
  }

  // The points are the taker's unless one picks the other team: choosing who took
  // moves the points' team with it (typing 100 then means the taker's 100).
  const pointsTeam = form.elements.namedItem("points_team");
  function takerChanged() {
    const taker = value("taker");
    if (pointsTeam && taker) pointsTeam.value = taker;
  }

  // A declaration total no hand can make is refused at its field (docs/rules.md §7.2;
  // the server says the same when the form is sent).
  const declPoints = form.elements.namedItem("decl_points");
  const declError = document.getElementById("decl-error");
  const DECL_RULE = _("a team declares tierces (20), cinquantes (50), cents (100) and carrés (100, 150 or 200)");
  function declMessage() {
    const text = declPoints.value.trim();
    if (!text) return "";
    if (!/^\d+$/.test(text)) return fmt(_("Declarations: “{text}” is not a whole number."), { text: text });
    const n = parseInt(text, 10);
    const max = parseInt(declPoints.dataset.max || "550", 10);
    if (n > max) return fmt(_("Declarations: {n} is more than one team can declare in a hand (at most {max}: carrés of jacks, nines, aces and tens)."), { n: n, max: max });
    if (n % 10 || n === 10 || n === 30) return fmt(_("Declarations: no hand makes {n}; {rule}."), { n: n, rule: DECL_RULE });
    return "";
  }
  function checkDecl() {
    if (!declPoints || !declError) return;
    const message = declMessage();
    declError.textContent = message;
    declError.hidden = !message;
    if (message) declPoints.setAttribute("aria-invalid", "true");
    else declPoints.removeAttribute("aria-invalid");
  }

  // Declarations entered by name: the "declarations won" fields show what the comparison
  // scores (the team, or nobody on a tie said equal, and the points), read only; the
  // name grid is what is sent. Emptied by name: the fields are free again.
  const declTeam = form.elements.namedItem("decl_team");
  function byNameEntered() {
    let any = false;
    for (const el of form.querySelectorAll('input[name^="decl_NS_"], input[name^="decl_EW_"]')) {
      if (el.value.trim() && el.value.trim() !== "0") any = true;
    }
    return any;
  }
  function showDeclarationsWon(won) {
    if (!declTeam || !declPoints) return;
    const byName = byNameEntered();
    if (byName) {
      // a tie not yet settled scores nobody yet: the fields wait, empty
      declTeam.value = won && won.team ? won.team : "";
      declPoints.value = won && won.team ? String(won.points) : "";
    } else if (declTeam.disabled) {
      declTeam.value = "";
      declPoints.value = "";
    }
    declTeam.disabled = byName;
    declPoints.disabled = byName;
    checkDecl();
  }

  function fields() {
    const out = {};
    for (const el of form.elements) {
      if (!el.name || (el.disabled && el.name.startsWith("decl_"))) continue; // read only
      if ((el.type === "radio" || el.type === "checkbox") && !el.checked) continue;
      out[el.name] = el.value;
    }
    return out;
  }

  function names() {
    const out = {};
    for (const t of ["NS", "EW"]) {
      const label = form.querySelector(`.seg-item.team-${t} span`);
      out[t] = label ? label.textContent : t;
    }
    return out;
  }

  function csrfToken() {
    const meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.content : "";
  }

  async function askPreview() {
    if (!url || !value("taker")) {
      preview.textContent = "";
      return;
    }
    const ticket = ++asked;
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken() },
        body: JSON.stringify(fields()),
      });
      const data = await response.json();
      if (ticket !== asked) return;
      // Declarations by name: the comparison as the server works it out (docs/rules.md §7.5).
      if (declCompare) declCompare.textContent = data.declarations || "";
      showDeclarationsWon(data.declarations_won);
      if (declTie && (data.declarations_tied || value("decl_tie"))) declTie.hidden = false;
      if (declTie && data.error && /equal|égales/.test(data.error)) declTie.hidden = false;
      if (data.error) {
        preview.className = "preview pending";
        preview.textContent = data.error;
        return;
      }
      const n = names();
      const s = data.score;
      preview.className = "preview outcome-" + s.outcome;
      // "fait : Nous +8, Eux +0": the colon as the page's language writes it
      preview.textContent = fmt(_("{label}: {value}"), {
        label: OUTCOMES[s.outcome] || s.outcome, value: `${n.NS} +${s.score.NS}, ${n.EW} +${s.score.EW}` }) +
        (s.reserve ? " " + fmt(_("(reserve {points})"), { points: s.reserve }) : "") +
        (data.calculation ? " — " + data.calculation : "");
    } catch (e) {
      preview.textContent = "";
    }
  }

  function changed() {
    otherPoints();
    clearTimeout(timer);
    timer = setTimeout(askPreview, 150);
  }

  form.addEventListener("input", changed);
  form.addEventListener("change", (event) => {
    if (event.target.name === "taker") takerChanged();
    changed();
  });
  if (declPoints) declPoints.addEventListener("input", checkDecl);
  // A hand refused for its declarations opens at that field.
  if (declPoints && declError && !declError.hidden) declPoints.focus();
  form.addEventListener("submit", () => {
    points.disabled = false;
    if (errorBox) errorBox.hidden = true;
  });
  otherPoints();
  if (value("taker")) askPreview();
})();
