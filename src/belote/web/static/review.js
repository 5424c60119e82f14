// The review of a finished deal (/review/{game}/{deal}): the deal replayed card by card
// with every hand open, each card marked by the points it lost (double dummy, and given
// what its player knew), the bidding weighed and a summary per player.  The server does
// the analysis (web/review.py); this script asks for it, shows its progress and draws it.
(() => {
  "use strict";
  const { _, fmt } = window.belote;
  const root = document.getElementById("review");
  if (!root) return;
  const data = JSON.parse(document.getElementById("review-data").textContent);
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  const csrf = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";
  const SEAT_WORDS = { N: _("North"), E: _("East"), S: _("South"), W: _("West") };
  // The cards named and drawn as the table does, in the pack the game was played with.
  const spanish = data.deck === "spanish";
  const { SYMBOLS, rankLabel, cardWords, cardText, suitText, spanishPicture } = window.belote.cards(spanish);
  const CALL_WORDS = { pass: _("pass"), take: _("take"), coinche: _("coinche"), surcoinche: _("surcoinche") };
  const VERDICTS = {
    best: _("best"), forced: _("forced"), mistake: _("mistake"), unlucky: _("unlucky"),
    lucky: _("lucky"), loss: _("loss"), unsolved: _("unsolved"),
  };
  const steps = data.steps;
  let analysis = data.analysis;
  let byAction = {};
  let at = 0;

  // A card's face: its rank (the pack's own letters or numbers) and its suit (the
  // French symbol, or the Spanish suit's picture), named in words for a screen reader.
  function cardHtml(code, extra) {
    const red = !spanish && (code[1] === "H" || code[1] === "D");
    const cls = "rv-card" + (spanish ? " spanish suit-" + code[1] : "") + (red ? " red" : "") + (extra ? " " + extra : "");
    const face = esc(rankLabel(code)) + (spanish ? spanishPicture(code[1]) : SYMBOLS[code[1]]);
    return `<span class="${cls}" role="img" aria-label="${esc(cardWords(code))}" title="${esc(cardWords(code))}">${face}</span>`;
  }
  function seatName(s) {
    return SEAT_WORDS[s] || s;
  }
  function trumpText(t) {
    return /^(SA|TA|[SHDC])$/.test(t || "") ? suitText(t) : t;
  }
  function callText(c) {
    if (c === null || c === undefined) return "—";
    if (CALL_WORDS[c]) return CALL_WORDS[c];
    const m = /^(\d+|capot|generale)?(S|H|D|C|SA|TA)$/.exec(c);
    if (m) return (m[1] ? m[1] + " " : "") + trumpText(m[2]);
    return c;
  }
  function num(x) {
    return x === null || x === undefined ? "—" : String(x);
  }
  // The mark of a card by its loss: none, small (under 10 points), big.
  function lossClass(a) {
    if (!a) return "";
    if (a.verdict === "forced") return "loss-forced";
    if (a.verdict === "best") return "loss-none";
    const worst = Math.max(a.dd_loss || 0, a.info_loss || 0);
    if (a.verdict === "mistake" || worst >= 10) return "loss-big";
    if (worst > 0) return "loss-small";
    return "loss-none";
  }
  function lossText(a) {
    if (!a) return "";
    if (a.verdict === "forced") return "";
    const lost = (x) => (x ? "−" + x : num(x));
    return a.info_loss === null || a.info_loss === undefined ? lost(a.dd_loss) : `${lost(a.dd_loss)}/${lost(a.info_loss)}`;
  }
  function best(values, played) {
    if (!values) return null;
    const top = Math.max(...Object.values(values));
    if (values[played] === top) return played;
    return Object.keys(values).find((k) => values[k] === top);
  }

  function setAnalysis(a) {
    analysis = a;
    byAction = {};
    if (a) for (const c of a.cards) byAction[c.action] = c;
    $("review-status").hidden = !!a;
    drawContract();
    drawTricks();
    drawCalls();
    drawSummary();
    drawStep();
  }

  function drawContract() {
    const c = analysis && analysis.contract ? analysis.contract : data.contract;
    let text = fmt(_("Dealer: {seat}"), { seat: seatName(data.dealer) });
    if (c) {
      text += " · " + fmt(_("{seat} took at {trump}"), { seat: seatName(c.taker), trump: trumpText(c.trump) });
      if (typeof c.value === "number") text += " " + c.value;
      if (c.multiplier > 1) text += " ×" + c.multiplier;
    } else {
      text += " · " + _("Everyone passed");
    }
    if (analysis && analysis.outcome) text += " · " + (VERDICTS[analysis.outcome] || ({ made: _("made"), failed: _("failed (dedans)"), litige: _("litige") })[analysis.outcome] || analysis.outcome);
    $("review-contract").textContent = text;
  }

  function drawStep() {
    const slider = $("review-slider");
    slider.max = Math.max(0, steps.length - 1);
    slider.value = at;
    $("review-prev").disabled = at <= 0;
    $("review-next").disabled = at >= steps.length - 1;
    if (!steps.length) {
      $("review-step").textContent = _("No card was played.");
      return;
    }
    const st = steps[at];
    const a = byAction[st.action];
    $("review-step").textContent = fmt(_("Trick {trick}, card {n} of {total}: {seat} plays {card}"),
      { trick: st.trick, n: at + 1, total: steps.length, seat: seatName(st.seat), card: cardText(st.card) });
    const bestDd = a ? best(a.dd, st.card) : null;
    const bot = a ? best(a.info, st.card) : null;
    let hands = "";
    for (const seat of Object.keys(st.hands)) {
      const mine = seat === st.seat;
      const cards = st.hands[seat].map((code) => {
        let cls = "";
        if (mine && code === st.card) cls = "played " + lossClass(a);
        else if (mine && code === bestDd) cls = "best";
        let tip = "";
        if (mine && a && a.dd && code in a.dd) tip = `<small>${a.dd[code]}</small>`;
        return `<li>${cardHtml(code, cls)}${tip}</li>`;
      }).join("");
      hands += `<div class="rv-hand${mine ? " turn" : ""}"><h3>${esc(seatName(seat))}</h3><ul>${cards}</ul></div>`;
    }
    const table = st.table.map((t) => `<li>${esc(seatName(t.seat))} ${cardHtml(t.card)}</li>`).join("");
    hands += `<div class="rv-table"><h3>${esc(_("On the table"))}</h3><ul>${table || `<li class="muted">${esc(_("nothing yet"))}</li>`}</ul></div>`;
    $("review-hands").innerHTML = hands;
    let info = "";
    if (a) {
      info = `<p><b class="verdict ${lossClass(a)}">${esc(VERDICTS[a.verdict] || a.verdict)}</b>
        ${esc(fmt(_("lost {dd} points double dummy"), { dd: num(a.dd_loss) }))}${a.info_loss === null ? "" : ", " + esc(fmt(_("{info} given what {seat} knew"), { info: num(a.info_loss), seat: seatName(st.seat) }))}</p>
        <p>${esc(_("Best card (every hand known):"))} ${bestDd ? cardHtml(bestDd) : "—"}
        · ${esc(_("The bot's card:"))} ${bot ? cardHtml(bot) : "—"}</p>`;
      if (st.winner) info += `<p class="muted">${esc(fmt(_("{seat} takes the trick."), { seat: seatName(st.winner) }))}</p>`;
    } else {
      info = `<p class="muted">${esc(_("The analysis of this card is not ready yet."))}</p>`;
    }
    $("review-card").innerHTML = info;
    for (const el of document.querySelectorAll("#review-tricks button")) {
      el.classList.toggle("current", Number(el.dataset.step) === at);
      if (Number(el.dataset.step) === at) el.setAttribute("aria-current", "step");
      else el.removeAttribute("aria-current");
    }
  }

  function drawTricks() {
    const tricks = [];
    steps.forEach((st, i) => {
      (tricks[st.trick - 1] = tricks[st.trick - 1] || []).push([st, i]);
    });
    $("review-tricks").innerHTML = tricks.map((cards, t) => `<li><span class="muted">${t + 1}.</span> ${cards.map(([st, i]) => {
      const a = byAction[st.action];
      const label = fmt(_("{seat} plays {card}"), { seat: seatName(st.seat), card: cardText(st.card) }) + (a ? ": " + (VERDICTS[a.verdict] || a.verdict) : "");
      return `<button type="button" class="rv-step ${lossClass(a)}" data-step="${i}" aria-label="${esc(label)}">${esc(seatName(st.seat)[0])} ${cardHtml(st.card)}<small>${esc(lossText(a))}</small></button>`;
    }).join("")}</li>`).join("");
  }

  function drawCalls() {
    const calls = analysis ? analysis.calls : data.calls.map((c) => ({ ...c, bot_call: null, values: {}, loss: null }));
    const head = `<thead><tr><th>${esc(_("Player"))}</th><th>${esc(_("Call"))}</th><th>${esc(_("Bot"))}</th><th class="num">${esc(_("Lost"))}</th><th>${esc(_("Value of each call"))}</th></tr></thead>`;
    const rows = calls.map((c) => {
      const values = Object.entries(c.values || {}).map(([k, v]) => `${esc(callText(k))} ${num(v)}`).join(" · ");
      return `<tr><td>${esc(seatName(c.seat))}</td><td>${esc(callText(c.call))}</td><td>${esc(callText(c.bot_call))}</td><td class="num">${num(c.loss)}</td><td>${values || "—"}</td></tr>`;
    }).join("");
    $("review-calls").innerHTML = head + `<tbody>${rows}</tbody>`;
  }

  function drawSummary() {
    if (!analysis) {
      $("review-summary").innerHTML = "";
      return;
    }
    const head = `<thead><tr><th>${esc(_("Player"))}</th><th class="num">${esc(_("Lost, open"))}</th><th class="num">${esc(_("Lost, as known"))}</th><th class="num">${esc(_("Mistakes"))}</th><th class="num">${esc(_("Bidding"))}</th><th class="num">${esc(_("Taken / made"))}</th></tr></thead>`;
    const rows = analysis.summary.map((p) => `<tr><td>${esc(seatName(p.seat))}</td><td class="num">${p.dd_lost}</td><td class="num">${num(p.info_lost)}</td><td class="num">${p.mistakes}</td><td class="num">${p.calls_lost}</td><td class="num">${p.taken} / ${p.made}</td></tr>`).join("");
    $("review-summary").innerHTML = head + `<tbody>${rows}</tbody>`;
  }

  function go(i) {
    at = Math.max(0, Math.min(steps.length - 1, i));
    drawStep();
  }
  $("review-prev").addEventListener("click", () => go(at - 1));
  $("review-next").addEventListener("click", () => go(at + 1));
  $("review-slider").addEventListener("input", (e) => go(Number(e.target.value)));
  $("review-tricks").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-step]");
    if (b) go(Number(b.dataset.step));
  });
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if (t && (t.id === "review-slider" || t.tagName === "INPUT" || t.tagName === "TEXTAREA")) return;
    if (e.key === "ArrowLeft") { go(at - 1); e.preventDefault(); }
    if (e.key === "ArrowRight") { go(at + 1); e.preventDefault(); }
  });

  // --- the analysis: asked for, polled ------------------------------------------------
  function say(text) {
    $("review-progress-text").textContent = text;
  }
  function showState(s) {
    const bar = $("review-progress");
    if (s.state === "done") {
      setAnalysis(s.analysis);
      return true;
    }
    if (s.state === "running" || s.state === "waiting") {
      bar.hidden = false;
      bar.max = s.total || 1;
      bar.value = s.done || 0;
      say(s.state === "waiting" ? _("The analysis waits its turn…")
        : fmt(_("Analysing the deal: {done} of {total} actions…"), { done: s.done, total: s.total || "?" }));
      return false;
    }
    bar.hidden = true;
    say(s.error || _("The analysis could not be finished."));
    $("review-start").hidden = false;
    return true;
  }
  async function poll() {
    try {
      const res = await fetch(data.endpoint, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      const s = await res.json();
      if (!res.ok) { say(s.error || String(res.status)); return; }
      if (!showState(s)) setTimeout(poll, 700);
    } catch (e) {
      setTimeout(poll, 2000);
    }
  }
  async function start() {
    $("review-start").hidden = true;
    say(_("Loading the analysis…"));
    try {
      const res = await fetch(data.endpoint, { method: "POST", headers: { "X-CSRF-Token": csrf, Accept: "application/json" }, credentials: "same-origin" });
      const s = await res.json();
      if (!res.ok) {
        say(s.error || String(res.status));
        $("review-start").hidden = false;
        return;
      }
      if (!showState(s)) setTimeout(poll, 700);
    } catch (e) {
      say(_("The server cannot be reached."));
      $("review-start").hidden = false;
    }
  }
  $("review-start").addEventListener("click", start);

  // --- the share link (the game's seats only) -----------------------------------------
  function showLink(path) {
    const input = $("review-share-link");
    if (!input) return;
    input.hidden = !path;
    input.value = path ? location.origin + path : "";
    $("review-revoke").hidden = !path;
    $("review-share").textContent = path ? _("Make a new link") : _("Make a link");
  }
  async function linkAction(suffix) {
    const res = await fetch(data.link_endpoint + suffix, { method: "POST", headers: { "X-CSRF-Token": csrf, Accept: "application/json" }, credentials: "same-origin" });
    const s = await res.json();
    if (res.ok) showLink(s.link);
  }
  if (data.link_endpoint && $("review-share")) {
    showLink(data.share);
    $("review-share").addEventListener("click", () => linkAction(""));
    $("review-revoke").addEventListener("click", () => linkAction("/revoke"));
  }

  setAnalysis(analysis);
  if (!analysis) start();
})();
