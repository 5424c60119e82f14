// The card table: one WebSocket to the room; the server holds the game and every rule.
// This script only draws the state of our seat and sends what we choose to do.
// Tables of four, and of three (N E S) and two (N E) for belote at small tables (docs/rules.md §12).
(() => {
  "use strict";
  const { _, fmt } = window.belote; // the page's language (app.js)
  // The new-table forms: show the deal options of the chosen profile only (§12.1, §12.2).
  const profileSelect = document.getElementById("profile");
  if (profileSelect) {
    const toggle = () => {
      for (const el of document.querySelectorAll("[data-deal-profile]")) {
        const on = el.dataset.dealProfile === profileSelect.value;
        el.hidden = !on;
        for (const input of el.querySelectorAll("select")) input.disabled = !on;
      }
    };
    profileSelect.addEventListener("change", toggle);
    toggle();
  }
  const root = document.getElementById("room");
  if (!root) return;
  const roomId = root.dataset.room;
  const spanish = root.dataset.deck === "spanish";
  const storeKey = "belote-room-" + roomId;
  // The room's invitation (a room with friends): from its link, kept for reloads.
  const invite = new URLSearchParams(location.search).get("invite");
  const SEATS = "NESW";
  // Texts used inside template literals (where the catalogue's extractor does not look).
  const T = {
    bidValue: _("Bid value"),
    resultOfDeal: _("Result of the deal"),
    tricks: _("Tricks"),
    awayBot: _("away: a bot plays for now"),
    awayWait: _("away: the seat waits {seconds} s for the player, then a bot plays"),
    contract: _("contract"),
    faceUp: _("face up, out of play"),
    theDealer: _("the dealer"),
    theTaker: _("the taker"),
    trump: _("trump"),
    nCards: _("{n} cards"),
  };
  const SEAT_WORDS = { N: _("North"), E: _("East"), S: _("South"), W: _("West") };
  const SUIT_WORDS = { S: _("spades"), H: _("hearts"), D: _("diamonds"), C: _("clubs") };
  const RANK_PLURALS = { J: _("jacks"), 9: _("nines"), A: _("aces"), T: _("tens"), K: _("kings"), Q: _("queens") };
  const CALL_WORDS = { pass: _("pass"), take: _("take"), coinche: _("coinche"), surcoinche: _("surcoinche") };
  const SEQUENCES = { tierce: _("tierce"), cinquante: _("cinquante"), cent: _("cent"), "carré": _("carré") };
  const OUTCOMES = { made: _("made"), failed: _("failed (dedans)"), litige: _("litige: tie, points held in reserve") };
  const SMALL_OUTCOMES = { made: _("contract made"), failed: _("contract failed (dedans)"), litige: _("litige: tie, points held in reserve") };
  const { SYMBOLS, SP_SUITS, rankLabel, cardWords, cardText, suitText, trumpPicture, spanishPicture } = window.belote.cards(spanish); // cards.js

  const $ = (id) => document.getElementById(id);
  const esc = (text) => String(text).replace(/[&<>"']/g, (c) => (
    { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

  let state = null;
  let ws = null;
  let retries = 0;
  let identityRefusals = 0; // WebSockets closed for want of an identity cookie (4401)
  let stopped = false;
  let lastError = "";
  let errorVersion = -1;
  let showLast = false;
  let resultFolded = false; // the end-of-deal panel folded to its heading (to see the table)
  let resultOf = null; // the deal whose result the panel shows
  let chosen = new Set(); // the cards picked to lay aside (kitty deal, §12.1)
  let hint = null; // the strongest bot's advice for our seat: { version, call | card | cards }
  let hintAsked = -1; // the version a hint was asked for (the button waits for it)
  // Animations (dealing, playing, collecting a trick): on unless turned off here or the
  // system asks for reduced motion.
  let animate = localStorage.getItem("belote-animations") !== "off";
  const reducedMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  const firstSeen = new Map(); // card of a deal's hand or trick → when it was first drawn
  let seenDeal = null; // the deal whose cards firstSeen holds

  // --- the seat's secret token -------------------------------------------------------
  function readToken() {
    const hash = new URLSearchParams(location.hash.slice(1));
    if (hash.get("token")) {
      localStorage.setItem(storeKey, JSON.stringify({ seat: hash.get("seat"), token: hash.get("token") }));
      history.replaceState(null, "", location.pathname + location.search);
    }
    try {
      const saved = JSON.parse(localStorage.getItem(storeKey) || "null");
      return saved && saved.token ? saved.token : null;
    } catch (e) {
      return null;
    }
  }

  // --- names of calls ---------------------------------------------------------------
  function callText(call) {
    if (call in CALL_WORDS) return CALL_WORDS[call];
    let m = /^(capot|generale)(SA|TA|[SHDC])$/.exec(call);
    if (m) return (m[1] === "generale" ? "générale" : "capot") + " " + suitText(m[2]);
    m = /^(\d+)(SA|TA|[SHDC])$/.exec(call);
    if (m) return m[1] + " " + suitText(m[2]);
    if (/^[SHDC]$/.test(call)) return suitText(call);
    if (call === "SA" || call === "TA") return suitText(call);
    return call;
  }
  // A declaration's name as the engine says it ("tierce", "carré of J") in the page's words.
  function declName(name) {
    const m = /^carré of (.)$/.exec(name);
    if (m) return fmt(_("carré of {rank}"), { rank: RANK_PLURALS[m[1]] || m[1] });
    return SEQUENCES[name] || name;
  }
  // "Est: 80" said in the page's language ("Est : 80": a space before the colon in French).
  function colon(label, value) {
    return fmt(_("{label}: {value}"), { label: label, value: value }).trim();
  }
  function trumpOf(deal) {
    return deal && deal.contract ? deal.contract.trump : null;
  }
  function isTrump(code, trump) {
    return trump === "TA" || code[1] === trump;
  }

  function cardHtml(code, opts) {
    const o = opts || {};
    const cls = ["card", "suit-" + code[1]];
    if (spanish) cls.push("spanish");
    if (o.trump) cls.push("trump");
    if (o.legal) cls.push("legal");
    if (o.dim) cls.push("illegal");
    if (o.small) cls.push("small");
    if (o.extra) cls.push(o.extra);
    const tag = o.button ? "button" : "div";
    let attrs = o.button ? ' type="button"' : ' role="img"';
    if (o.dim) attrs += ' aria-disabled="true"';
    const name = cardWords(code) + (o.trump ? ", " + T.trump : "");
    const face = spanish
      ? `<span class="corner">${rankLabel(code)}</span><span class="pip sp">${spanishPicture(code[1])}</span>`
      : `<span class="corner">${rankLabel(code)}<br>${SYMBOLS[code[1]]}</span><span class="pip">${SYMBOLS[code[1]]}</span>`;
    const star = o.trump ? '<span class="trump-mark" aria-hidden="true">★</span>' : "";
    return `<${tag} class="${cls.join(" ")}" data-card="${code}" title="${esc(cardWords(code))}" aria-label="${esc(name)}"${attrs}><span aria-hidden="true">${face}</span>${star}</${tag}>`;
  }

  // --- where each seat sits on the screen ------------------------------------------------
  function mySeat() {
    return state && state.you ? state.you.seat : null;
  }
  function players() {
    return state && state.players ? state.players : 4;
  }
  function small() {
    return players() !== 4;
  }
  function position(seat) {
    const n = players();
    const fallback = n === 2 ? "N" : "S";
    const base = SEATS.indexOf(mySeat() || fallback);
    const rel = (SEATS.indexOf(seat) - base + n) % n;
    if (rel === 0) return "bottom";
    if (n === 2) return "top"; // two players: face to face
    if (n === 4 && rel === 2) return "top";
    const nextOnRight = state.direction !== "clockwise"; // anticlockwise: the next player sits on the right
    return (rel === 1) === nextOnRight ? "right" : "left";
  }
  function teamOf(seat) {
    if (small()) return "solo"; // §12: everyone for himself
    return seat === "N" || seat === "S" ? "NS" : "EW";
  }
  // The name a seat was given; the server's default for the player at a bots table is
  // "You", said in the page's language.
  function shown(name) {
    if (name === "You") return _("You");
    const bot = /^Bot ([NESW])$/.exec(name || ""); // a bot's name, with the seat's own letter
    return bot ? "Bot " + SEAT_WORDS[bot[1]][0] : name;
  }
  function seatName(seat) {
    const s = state && state.seats.find((x) => x.seat === seat);
    return (s && shown(s.name)) || SEAT_WORDS[seat];
  }
  function teamName(team) {
    if (!state) return team;
    const a = state.seats.find((s) => s.seat === team[0]);
    const b = state.seats.find((s) => s.seat === team[1]);
    return `${shown(a.name) || team[0]} & ${shown(b.name) || team[1]}`;
  }

  // --- the connection ------------------------------------------------------------------
  function connect() {
    const proto = location.protocol === "https:" ? "wss://" : "ws://";
    ws = new WebSocket(proto + location.host + "/ws/rooms/" + encodeURIComponent(roomId));
    ws.onopen = () => {
      retries = 0;
      notice("");
      ws.send(JSON.stringify({ type: "hello", token: readToken(), invite: invite }));
    };
    ws.onmessage = (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch (e) {
        return;
      }
      if (msg.type === "chat" || msg.type === "chat_log" || (msg.type === "error" && msg.chat)) {
        root.dispatchEvent(new CustomEvent("belote:chat", { detail: msg })); // chat.js
        return;
      }
      if (msg.type === "state") {
        identityRefusals = 0;
        if (state && msg.version !== state.version) {
          showLast = false;
          hint = null;
        }
        state = msg;
        if (msg.version !== errorVersion) lastError = "";
        render();
      } else if (msg.type === "hint") {
        if (state && msg.version === state.version) {
          hint = msg;
          hintAsked = -1;
          render();
        }
      } else if (msg.type === "welcome") {
        if (msg.token) localStorage.setItem(storeKey, JSON.stringify({ seat: msg.seat, token: msg.token }));
      } else if (msg.type === "error") {
        if (msg.code === "bad_token") localStorage.removeItem(storeKey);
        const text = serverText(msg);
        if (msg.fatal) {
          stopped = true;
          notice(text);
          return;
        }
        lastError = text;
        hintAsked = -1;
        errorVersion = state ? state.version : -1;
        renderMessage();
      }
    };
    ws.onclose = (event) => {
      if (stopped) return;
      retries += 1;
      if (event.code === 4401) {
        // No identity cookie (cleared, or blocked by the browser): ask the server for
        // one, then connect again; refused again, the cookie does not stick: say so.
        identityRefusals += 1;
        if (identityRefusals > 1) {
          stopped = true;
          notice(_("This table needs a cookie to know your seat: allow cookies for this site, then reload the page."));
          return;
        }
        notice(_("Connection lost; reconnecting…"));
        fetch("/api/session", { credentials: "same-origin" })
          .catch(() => null)
          .finally(() => setTimeout(connect, 500));
        return;
      }
      if (event.code === 1013) {
        // Too many connections from this network (the refusal opens, then closes, the
        // socket): try again in 10 to 15 s, not all the network's pages at once.
        notice(_("Too many connections from your network; trying again shortly…"));
        setTimeout(connect, 10000 + Math.random() * 5000);
        return;
      }
      notice(_("Connection lost; reconnecting…"));
      setTimeout(connect, Math.min(5000, 500 * retries));
    };
  }
  // What the server says before the room's refusals are in the page's language (they are
  // translated by the server): a stale token, and the reasons a connection is closed.
  function serverText(msg) {
    if (msg.code === "bad_token") return _("Your saved seat is not at this table any more: take a seat.");
    // every other refusal comes said in this page's language, from its code
    return msg.message || "";
  }
  function send(obj) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(obj));
  }
  function notice(text) {
    const el = $("notice");
    el.textContent = text;
    el.hidden = !text;
  }

  // --- drawing -----------------------------------------------------------------------
  function render() {
    const st = state;
    root.dataset.status = st.status;
    root.dataset.version = st.version;
    root.dataset.seat = mySeat() || "";
    const deal = st.deal;
    root.dataset.phase = deal ? deal.phase : "";
    root.dataset.myturn = deal && mySeat() && deal.turn === mySeat() && !st.between_deals ? "1" : "0";
    const share = $("share-link");
    if (share) share.value = location.origin + share.dataset.path;
    root.classList.toggle("animated", animating());
    const animBox = $("opt-anim");
    if (animBox) animBox.checked = animate;
    const inLobby = st.status === "waiting";
    $("lobby").hidden = !inLobby;
    $("table").hidden = inLobby;
    $("side").hidden = inLobby;
    if (st.error) notice(st.error);
    if (inLobby) {
      renderLobby();
      $("result").hidden = true;
      return;
    }
    $("controls").hidden = st.between_deals;
    const bar = $("spectator-bar");
    if (bar) bar.hidden = !!mySeat() || st.status !== "playing" || !st.seats.some((x) => x.kind === "bot");
    renderSeats();
    renderCenter();
    renderControls();
    renderSide();
    renderFelt();
    renderResult();
    renderMessage();
    renderFeedback();
  }

  function renderLobby() {
    const me = mySeat();
    const html = state.seats.map((s) => {
      const team = teamOf(s.seat);
      let who;
      let buttons = "";
      if (s.kind === "open") {
        who = `<span class="muted-light">${esc(_("empty"))}</span>`;
        if (!me) buttons += `<button class="btn primary small" type="button" data-sit="${s.seat}">${esc(_("Sit here"))}</button>`;
        else buttons += `<button class="btn small" type="button" data-bot="${s.seat}">${esc(_("Add a bot"))}</button>`;
      } else if (s.kind === "bot") {
        who = `${esc(shown(s.name))} <span class="chip bot">${esc(_("bot"))}</span>`;
        if (!me) buttons += `<button class="btn small" type="button" data-sit="${s.seat}">${esc(_("Sit here"))}</button>`;
      } else {
        who = `${esc(s.name)}${s.seat === me ? ` <em>${esc(_("(you)"))}</em>` : ""}${s.connected ? "" : ` <span class="muted-light">${esc(_("(away)"))}</span>`}`;
      }
      const tag = small() ? "" : ` <span class="team-tag">${team}</span>`;
      return `<div class="lobby-seat team-${team} ${s.seat === me ? "mine" : ""}" data-seat="${s.seat}">
        <div class="lobby-seat-name">${SEAT_WORDS[s.seat]}${tag}</div>
        <div class="lobby-seat-who">${who}</div><div>${buttons}</div></div>`;
    }).join("");
    $("lobby-seats").innerHTML = html;
    $("start").disabled = !me;
    $("leave").hidden = !me;
  }

  function seatBadges(s, deal) {
    let out = "";
    if (deal && deal.dealer === s.seat) out += `<span class="chip dealer" title="${esc(T.theDealer)}">${esc(_("dealer"))}</span>`;
    if (small() && deal && deal.taker === s.seat) out += `<span class="chip taker" title="${esc(T.theTaker)}">${esc(_("taker"))}</span>`;
    if (s.kind === "bot") out += `<span class="chip bot" title="${esc(_("bot"))}">${esc(_("bot"))}</span>`;
    else if (s.bot_playing) out += `<span class="chip away" title="${esc(T.awayBot)}">${esc(_("away · bot plays"))}</span>`;
    else if (s.away) out += `<span class="chip away" title="${esc(fmt(T.awayWait, { seconds: Math.round(state.grace) }))}">${esc(_("away"))}</span>`;
    return out;
  }

  function lastCall(deal, seat) {
    if (!deal || deal.phase !== "bidding") return null;
    for (let i = deal.calls.length - 1; i >= 0; i -= 1) {
      if (deal.calls[i].seat === seat) return deal.calls[i].call;
    }
    return null;
  }

  // Belote découverte (§12.2): a seat's face-up cards, those still covering a face-down card
  // marked, and how many face-down cards lie under them.
  function pilesHtml(deal, seat, withCards) {
    const up = deal.face_up[seat] || [];
    const trump = trumpOf(deal);
    const covering = new Set(deal.covering);
    const down = deal.face_down[seat] || 0;
    let html = "";
    if (withCards) {
      html += `<div class="face-up" data-face-up="${seat}">${up.map((c) => cardHtml(c, {
        small: true, trump: trump && isTrump(c, trump), extra: covering.has(c) ? "covers" : "" })).join("")}</div>`;
    }
    html += `<div class="face-down-count" data-face-down="${seat}">${esc(fmt(down === 1 ? _("{n} face-down card under") : _("{n} face-down cards under"), { n: down }))}</div>`;
    return html;
  }

  function renderSeats() {
    const deal = state.deal;
    const me = mySeat();
    for (const pos of ["top", "left", "right", "bottom"]) {
      const box = $("pos-" + pos);
      box.innerHTML = "";
      box.className = `seat-box pos-${pos}`;
      box.hidden = true;
      delete box.dataset.seat;
    }
    for (const s of state.seats) {
      const pos = position(s.seat);
      const el = $("pos-" + pos);
      el.hidden = false;
      const turn = deal && deal.turn === s.seat && !state.between_deals;
      const taker = small() && deal && deal.taker === s.seat;
      el.className = `seat-box pos-${pos} team-${teamOf(s.seat)}${turn ? " turn" : ""}${taker ? " taker" : ""}`;
      el.dataset.seat = s.seat;
      let extra = "";
      const call = lastCall(deal, s.seat);
      if (call) extra += `<div class="bubble">${esc(callText(call))}</div>`;
      if (deal && deal.announced[s.seat]) extra += `<div class="bubble decl">${esc(deal.announced[s.seat].map(declName).join(", "))}</div>`;
      if (deal) {
        const said = deal.belote.filter((b) => b.seat === s.seat);
        if (said.length) extra += `<div class="bubble belote">${said.length === 1 ? "belote" : "belote · rebelote"}</div>`;
        if (deal.shown[s.seat]) {
          extra += deal.shown[s.seat].map((d) => `<div class="shown"><span class="shown-name">${esc(colon(declName(d.name), ""))}</span> ${d.cards.map((c) => cardHtml(c, { small: true })).join("")}</div>`).join("");
        }
      }
      let backs = "";
      if (deal && deal.face_up) {
        backs = pilesHtml(deal, s.seat, pos !== "bottom" || !me);
      } else if (pos !== "bottom" || !me) {
        const n = deal ? deal.card_counts[s.seat] : 0;
        backs = `<div class="backs" role="img" aria-label="${esc(fmt(T.nCards, { n: n }))}">${'<span class="back"></span>'.repeat(n)}</div>`;
      }
      let sit = "";
      if (!me && s.kind === "bot" && state.status === "playing") {
        sit = `<button class="btn small" type="button" data-sit="${s.seat}">${esc(_("Sit here"))}</button>`;
      }
      const you = s.seat === me && s.name !== "You" ? " " + _("(you)") : "";
      el.innerHTML = `<div class="seat-head"><span class="seat-name">${esc(shown(s.name) || SEAT_WORDS[s.seat])}${esc(you)}</span>
        <span class="seat-dir">${SEAT_WORDS[s.seat]}</span>${seatBadges(s, deal)}${turn ? `<span class="chip to-play">${turnWord(deal)}</span>` : ""}</div>
        ${backs}${extra}${sit}`;
    }
  }

  function turnWord(deal) {
    if (deal.phase === "bidding") return _("to speak");
    if (deal.phase === "discard") return _("laying aside");
    return _("to play");
  }

  // Cards face up on the table and out of play (§12: the turned card and the bergère of
  // the six-each and stock deals), or the kitty before the taker takes it (§12.1).
  function renderTableCards(deal) {
    const el = $("table-cards");
    if (!el) return;
    let html = "";
    if (deal && deal.turned_stays && deal.phase !== "bidding" && deal.phase !== "all_pass") {
      const cards = [];
      if (deal.turned) cards.push(`<div class="out-card">${cardHtml(deal.turned, { small: true })}<span>${esc(_("turned"))}</span></div>`);
      if (deal.bergere) cards.push(`<div class="out-card">${cardHtml(deal.bergere, { small: true })}<span>${esc(_("bergère"))}</span></div>`);
      if (cards.length) html = `<div class="out-of-play" title="${esc(T.faceUp)}">${cards.join("")}<span class="caption">${esc(_("out of play"))}</span></div>`;
    } else if (deal && state.deal_mode === "kitty" && deal.phase === "bidding") {
      html = '<div class="out-of-play kitty"><div class="backs"><span class="back"></span><span class="back"></span></div><span class="caption">' + esc(_("kitty")) + '</span></div>';
    }
    el.innerHTML = html;
    el.hidden = !html;
  }

  function renderCenter() {
    const deal = state.deal;
    const trick = $("trick");
    const info = $("center-info");
    info.innerHTML = "";
    $("trick-pile").hidden = true;
    trick.classList.remove("last-shown");
    renderTableCards(deal);
    if (!deal) {
      setHtml(trick, "");
      return;
    }
    newDeal(deal);
    const trump = trumpOf(deal);
    if (deal.phase === "bidding" || (deal.phase === "all_pass" && deal.turned)) {
      setHtml(trick, deal.turned
        ? `<div class="turned">${cardHtml(deal.turned)}<div class="caption">${esc(_("turned card"))}</div></div>` : "");
      const turn = deal.turn ? SEAT_WORDS[deal.turn] : "";
      const mine = deal.turn && deal.turn === mySeat();
      const bidding = mine ? _("Bidding — your call") : fmt(_("Bidding — {who} to speak"), { who: turn });
      info.textContent = deal.phase === "bidding" ? bidding : _("Everyone passed: new deal");
      return;
    }
    if (deal.phase === "all_pass" || deal.phase === "discard") {
      setHtml(trick, "");
      info.textContent = deal.phase === "all_pass" ? _("Everyone passed: new deal")
        : fmt(_("{who} took {trump} and the kitty, and lays two cards aside"), { who: SEAT_WORDS[deal.taker], trump: suitText(deal.trump) });
      return;
    }
    const pile = $("trick-pile");
    const lt = deal.phase === "play" || deal.phase === "over" ? deal.last_trick : null;
    pile.hidden = !lt;
    pile.setAttribute("aria-pressed", String(!!(lt && showLast)));
    trick.classList.toggle("last-shown", !!(lt && showLast));
    if (lt && showLast) {
      // the last trick, on one tap of the pile (again to see the trick in play)
      setHtml(trick, lt.cards.map((p) => `<div class="played at-${position(p.seat)}${p.seat === lt.winner ? " winner" : ""}">${cardHtml(p.card, { trump: trump && isTrump(p.card, trump), extra: "done" })}</div>`).join(""));
      info.textContent = fmt(_("Last trick: {who} won it ({points})"), { who: SEAT_WORDS[lt.winner], points: lt.points });
      return;
    }
    let cards = deal.trick.cards;
    let done = null;
    if (!cards.length && deal.last_trick) {
      cards = deal.last_trick.cards;
      done = deal.last_trick;
    }
    // Animations: a card just played flies in from its seat; a finished trick is
    // collected towards its winner after a moment, then stays gathered.
    let collect = "";
    if (done && animating()) {
      collect = recent(`c${deal.tricks}`, 1100) ? ` collect to-${position(done.winner)}` : " collected";
    }
    setHtml(trick, cards.map((p) => {
      const fly = !done && animating() && recent("t" + p.card, 300) ? " fly" : "";
      return `<div class="played at-${position(p.seat)}${fly}${collect}${done && done.winner === p.seat ? " winner" : ""}">${cardHtml(p.card, { trump: trump && isTrump(p.card, trump), extra: done ? "done" : "" })}</div>`;
    }).join(""));
    if (done) {
      info.textContent = fmt(_("{who} wins the trick ({points})"), { who: SEAT_WORDS[done.winner], points: done.points });
    } else if (deal.turn) {
      info.textContent = deal.turn === mySeat()
        ? fmt(_("Trick {n} — your turn"), { n: deal.tricks + 1 })
        : fmt(_("Trick {n} — {who} to play"), { n: deal.tricks + 1, who: SEAT_WORDS[deal.turn] });
    }
  }

  function renderControls() {
    const deal = state.deal;
    const me = mySeat();
    const hand = $("hand");
    const bidding = $("bidding");
    const options = $("play-options");
    const discard = $("discard");
    bidding.hidden = true;
    options.hidden = true;
    discard.hidden = true;
    if (!deal || !me || !deal.hand) {
      setHtml(hand, "");
      return;
    }
    const trump = trumpOf(deal);
    const myTurn = deal.turn === me && !state.between_deals;
    const legal = new Set(myTurn && deal.phase === "play" ? deal.legal : []);
    const discarding = myTurn && deal.phase === "discard" && deal.must_discard > 0;
    if (discarding) {
      chosen = new Set([...chosen].filter((c) => deal.hand.includes(c)));
    } else {
      chosen = new Set();
    }
    const covering = new Set(deal.covering || []);
    newDeal(deal);
    const fresh = deal.hand.filter((c) => recent("h" + c, 700));
    const dealing = animating() && fresh.length > 0;
    const hinted = new Set(hint ? (hint.cards || (hint.card ? [hint.card] : [])) : []);
    const drawn = setHtml(hand, deal.hand.map((c) => cardHtml(c, {
      button: true,
      trump: trump && isTrump(c, trump),
      legal: legal.has(c) || (discarding && !chosen.has(c)),
      dim: myTurn && deal.phase === "play" && !legal.has(c),
      extra: [chosen.has(c) ? "chosen" : "", covering.has(c) ? "covers" : "",
        hinted.has(c) ? "hinted" : "", dealing && fresh.includes(c) ? "deal-in" : ""].filter(Boolean).join(" "),
    })).join(""));
    if (dealing && drawn) {
      let i = 0;
      for (const el of hand.querySelectorAll(".card.deal-in")) el.style.setProperty("--i", String(i++));
    }
    fitHand();
    const hintBtn = $("hint-btn");
    if (hintBtn) {
      hintBtn.hidden = !(myTurn && ["bidding", "discard", "play"].includes(deal.phase));
      hintBtn.disabled = hintAsked === state.version;
      hintBtn.textContent = hintBtn.disabled ? _("Thinking…") : _("Hint");
    }
    hand.classList.toggle("my-turn", myTurn && (deal.phase === "play" || discarding));
    hand.classList.toggle("discarding", discarding);
    if (discarding) {
      discard.hidden = false;
      const picked = [...chosen];
      discard.innerHTML = `<span>${esc(_("Lay two cards aside (they count in your tricks):"))} </span>
        <span class="picked">${picked.map((c) => cardHtml(c, { small: true })).join("") || `<span class="muted-light">${esc(_("none chosen"))}</span>`}</span>
        <button type="button" class="btn primary" id="discard-confirm" ${picked.length === deal.must_discard ? "" : "disabled"}>${esc(_("Lay aside"))}</button>`;
    }
    if (myTurn && deal.phase === "bidding") {
      bidding.hidden = false;
      const hv = hint && hint.call ? /^(\d+|capot|generale)(SA|TA|[SHDC])$/.exec(hint.call) : null;
      if (hv && auctionHtml.hinted !== hint) {
        auctionHtml.value = hv[1]; // the advised bid's value, so its button shows
        auctionHtml.hinted = hint;
      }
      bidding.innerHTML = state.auction ? auctionHtml(deal.legal) : takePassHtml(deal);
      if (hint && hint.call) {
        for (const b of bidding.querySelectorAll("[data-call]")) b.classList.toggle("hinted", b.dataset.call === hint.call);
      }
    } else if (deal.can_coinche && !state.between_deals) {
      bidding.hidden = false;
      bidding.innerHTML = `<div class="call-row"><button type="button" class="btn warn" data-call="coinche">${esc(_("Coinche now"))}</button></div>`;
    }
    if (deal.phase === "play") {
      const first = state.declarations_on && deal.tricks === 0 && !deal.announced[me] && deal.declarations.length > 0;
      $("my-decls").textContent = deal.declarations.length
        ? "(" + deal.declarations.map((d) => `${declName(d.name)}, ${d.points}`).join(" · ") + ")" : "";
      options.hidden = !(first || deal.holds_belote);
      $("opt-declare").parentElement.hidden = !first;
      $("belote-opt").hidden = !deal.holds_belote;
    }
  }

  // The hand never wider than the screen: side by side when the cards fit, else an
  // overlapping fan where each card shows a strip of at least MIN_STRIP px (its corner,
  // rank and suit, and a tap there lands on it), on two rows when one row would show
  // less (twelve cards on a narrow phone).
  const MIN_STRIP = 30;
  function fitHand() {
    const hand = $("hand");
    const cards = hand.querySelectorAll(".card");
    hand.classList.remove("fan");
    hand.style.gridTemplateColumns = "";
    if (!cards.length) return;
    const style = getComputedStyle(hand);
    const room = hand.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const width = cards[0].offsetWidth;
    const margins = parseFloat(getComputedStyle(cards[0]).marginLeft) * 2;
    const n = cards.length;
    if (n * (width + margins) <= room) return;
    let perRow = n;
    let step = (room - width) / (n - 1);
    if (step < MIN_STRIP) {
      perRow = Math.ceil(n / 2);
      step = Math.min(width + margins, (room - width) / (perRow - 1));
    }
    hand.classList.add("fan");
    hand.style.gridTemplateColumns = `repeat(${perRow - 1}, ${Math.floor(step * 10) / 10}px) ${width}px`;
  }
  window.addEventListener("resize", () => { if (state) fitHand(); });

  function takePassHtml(deal) {
    const buttons = deal.legal.map((call) => {
      let label = callText(call);
      if (call === "take" && deal.turned) label = fmt(_("Take {trump}"), { trump: suitText(deal.turned[1]) });
      else if (call === "pass") label = _("Pass");
      else if (/^[SHDC]$/.test(call)) label = (spanish ? "" : SYMBOLS[call] + " ") + (spanish ? SP_SUITS[call] : SUIT_WORDS[call]);
      const cls = call === "pass" ? "btn" : `btn primary suit-btn suit-${call === "take" && deal.turned ? deal.turned[1] : call}`;
      return `<button type="button" class="${cls}" data-call="${call}">${esc(label)}</button>`;
    });
    return `<div class="call-row">${buttons.join("")}</div>`;
  }

  function auctionHtml(legal) {
    const bids = {};
    const special = [];
    for (const call of legal) {
      const m = /^(\d+|capot|generale)(SA|TA|[SHDC])$/.exec(call);
      if (m) (bids[m[1]] = bids[m[1]] || []).push(m[2]);
      else special.push(call);
    }
    const values = Object.keys(bids);
    const chosen = values.includes(auctionHtml.value) ? auctionHtml.value : values[0];
    let html = '<div class="call-row">';
    html += special.map((c) => `<button type="button" class="btn ${c === "pass" ? "" : "warn"}" data-call="${c}">${esc(c === "pass" ? _("Pass") : callText(c))}</button>`).join("");
    if (values.length) {
      html += `<select id="bid-value" aria-label="${esc(T.bidValue)}">${values.map((v) => `<option value="${v}" ${v === chosen ? "selected" : ""}>${v === "generale" ? "générale" : v}</option>`).join("")}</select>`;
      html += (bids[chosen] || []).map((s) => `<button type="button" class="btn primary suit-btn suit-${s}" data-call="${chosen}${s}">${esc(suitText(s))}</button>`).join("");
    }
    return html + "</div>";
  }

  function contractText(deal) {
    const c = deal && deal.contract;
    if (!c) return "";
    if (c.value === "decouverte") return fmt(_("Belote découverte: {trump} trumps, no bidding"), { trump: suitText(c.trump) });
    let text = fmt(_("{who} took {trump}"), { who: SEAT_WORDS[c.taker], trump: suitText(c.trump) });
    if (c.value !== null && c.value !== undefined) text = colon(SEAT_WORDS[c.taker], `${c.value === "generale" ? "générale" : c.value} ${suitText(c.trump)}`);
    if (c.multiplier === 2) text += " · " + _("coinched");
    if (c.multiplier === 4) text += " · " + _("surcoinched");
    return text;
  }

  function renderSide() {
    const deal = state.deal;
    let box = "";
    if (deal) {
      box += `<h2 class="side-title">${esc(fmt(_("Deal {n}"), { n: deal.number }))}</h2>`;
      const c = contractText(deal);
      if (c) {
        box += `<p class="contract"><span class="trump-badge suit-${deal.contract.trump}">${trumpPicture(deal.contract.trump)}${esc(suitText(deal.contract.trump))}</span> ${esc(c)}</p>`;
      } else if (deal.phase === "discard") {
        box += `<p class="contract"><span class="trump-badge suit-${deal.trump}">${trumpPicture(deal.trump)}${esc(suitText(deal.trump))}</span> ${esc(fmt(_("{who} took the kitty"), { who: SEAT_WORDS[deal.taker] }))}</p>`;
      } else if (deal.phase === "all_pass" || state.all_pass) {
        box += `<p class="all-pass" id="all-pass-note">${esc(_("Everyone passed: new deal"))}</p>`;
      } else {
        box += `<p class="muted-light">${esc(_("Bidding…"))}</p>`;
      }
      if ((deal.phase === "play" || deal.phase === "over") && !small()) {
        box += `<p>${esc(_("Tricks:"))} <b>${deal.tricks_won.NS}</b> ${esc(_("N–S"))} · <b>${deal.tricks_won.EW}</b> ${esc(_("E–W"))}</p>`;
      } else if (deal.phase === "play" || deal.phase === "over") {
        box += `<p id="tricks-by-seat">${esc(_("Tricks:"))} ${state.seats.map((s) => `<b>${deal.tricks_won[s.seat]}</b> ${s.seat}`).join(" · ")}</p>`;
      }
      if (deal.discards && deal.discards.length) {
        box += `<div class="discards" id="my-discards">${esc(_("Laid aside:"))} ${deal.discards.map((d) => cardHtml(d, { small: true })).join("")}</div>`;
      }
    }
    $("contract-box").innerHTML = box;
    const sc = state.score;
    if (sc && small()) {
      $("score").innerHTML = smallScoreHtml(sc);
    } else if (sc) {
      // one column per team: the hand's points, then the running total
      let rows = sc.running.map((r, i) => `<tr><td>${i + 1}</td><td class="num"><span class="delta">+${sc.hands[i].score.NS}</span> <b>${r.NS}</b></td><td class="num"><span class="delta">+${sc.hands[i].score.EW}</span> <b>${r.EW}</b></td></tr>`).join("");
      if (!rows) rows = `<tr><td colspan="3" class="muted-light">${esc(_("no hand scored yet"))}</td></tr>`;
      $("score").innerHTML = `<div class="totals"><div class="team-NS"><span>${esc(teamName("NS"))}</span><b id="total-NS">${sc.totals.NS}</b></div>
        <div class="team-EW"><span>${esc(teamName("EW"))}</span><b id="total-EW">${sc.totals.EW}</b></div></div>
        ${sc.reserve ? `<p class="reserve-note">${esc(_("Reserve (litige):"))} ${sc.reserve}</p>` : ""}
        <p class="muted-light">${esc(fmt(_("to {target}"), { target: state.target }))}</p>
        <table class="mini" id="mini-score"><thead><tr><th>#</th><th class="num">${esc(_("N–S"))}</th><th class="num">${esc(_("E–W"))}</th></tr></thead><tbody>${rows}</tbody></table>`;
    }
    const lt = deal && deal.last_trick;
    $("last-trick-btn").disabled = !lt;
    $("last-trick-btn").textContent = showLast ? _("Hide the last trick") : _("Show the last trick");
    const ltEl = $("last-trick");
    ltEl.hidden = !(lt && showLast);
    if (lt && showLast) {
      ltEl.innerHTML = lt.cards.map((p) => `<div class="lt-card${p.seat === lt.winner ? " winner" : ""}"><span>${SEAT_WORDS[p.seat]}</span>${cardHtml(p.card, { small: true })}</div>`).join("") +
        `<p>${esc(fmt(_("{who} won it: {points} points"), { who: SEAT_WORDS[lt.winner], points: lt.points }))}</p>`;
    }
    let calls = "";
    if (deal && deal.calls.length) {
      calls = `<h2 class="side-title">${esc(_("Calls"))}</h2><ol class='calls'>` + deal.calls.map((c) => `<li><span>${SEAT_WORDS[c.seat]}</span> ${esc(callText(c.call))}</li>`).join("") + "</ol>";
    }
    $("calls-box").innerHTML = calls;
  }

  // On the felt, always in sight (a phone shows the side panel below the table): the
  // trump and the contract in one corner, a compact score line in the other.
  function renderFelt() {
    const deal = state.deal;
    let info = "";
    if (deal) {
      const c = deal.contract;
      const trump = c ? c.trump : (deal.phase === "discard" ? deal.trump : null);
      if (trump) {
        let who = fmt(_("{who} took"), { who: c ? SEAT_WORDS[c.taker] : SEAT_WORDS[deal.taker] });
        if (c && c.value === "decouverte") {
          who = _("découverte");
        } else if (c && c.value !== null && c.value !== undefined) {
          who = colon(SEAT_WORDS[c.taker], c.value === "generale" ? "générale" : c.value);
        }
        if (c && c.multiplier === 2) who += " ×2";
        if (c && c.multiplier === 4) who += " ×4";
        info = `<span class="trump-badge suit-${trump}" id="felt-trump" title="${esc(T.trump)}">${trumpPicture(trump)}${esc(suitText(trump))}</span>` +
          `<span class="felt-contract" id="felt-contract" title="${esc(contractText(deal) || T.contract)}">${esc(who)}</span>`;
      } else if (deal.phase === "bidding") {
        info = `<span class="felt-contract" id="felt-contract">${esc(fmt(_("Deal {n}: bidding"), { n: deal.number }))}</span>`;
      } else if (deal.phase === "all_pass") {
        info = `<span class="felt-contract" id="felt-contract">${esc(_("Everyone passed: new deal"))}</span>`;
      }
    }
    $("felt-info").innerHTML = info;
    const sc = state.score;
    let line = "";
    if (sc && small()) {
      line = sc.seats.map((seat) => `<span class="fs${seat === mySeat() ? " mine" : ""}"><span class="fs-name">${esc(seatName(seat))}</span> <b>${sc.totals[seat]}</b></span>`).join("");
    } else if (sc) {
      line = ["NS", "EW"].map((t) => `<span class="fs team-${t}"><span class="fs-name">${esc(teamName(t))}</span> <b>${sc.totals[t]}</b></span>`).join("");
    }
    if (line) line += historyButtonHtml();
    setHtml($("felt-score"), line);
  }

  // Three and two players (§12): each seat keeps its own total.
  function smallScoreHtml(sc) {
    const me = mySeat();
    const seats = sc.seats;
    const totals = seats.map((seat) => `<div class="seat-total${seat === me ? " mine" : ""}${sc.winner === seat ? " winner" : ""}" data-seat="${seat}">
      <span>${esc(seatName(seat))}</span><b id="total-${seat}">${sc.totals[seat]}</b></div>`).join("");
    let rows = sc.hands.map((h, i) => `<tr><td>${i + 1}</td>${seats.map((seat) => `<td class="num">+${h[seat]}</td>`).join("")}</tr>`).join("");
    if (!rows) rows = `<tr><td colspan="${seats.length + 1}" class="muted-light">${esc(_("no hand scored yet"))}</td></tr>`;
    return `<div class="totals">${totals}</div>
      ${sc.reserve ? `<p class="reserve-note">${esc(_("Reserve (litige):"))} ${sc.reserve}</p>` : ""}
      <p class="muted-light">${esc(fmt(_("to {target}"), { target: state.target }))}</p>
      <table class="mini"><thead><tr><th>#</th>${seats.map((seat) => `<th>${seat}</th>`).join("")}</tr></thead><tbody>${rows}</tbody></table>`;
  }

  function sideName(r, i) {
    const seats = r.sides[i];
    if (seats.length === 1) return seatName(seats[0]);
    return _("Defenders:") + " " + seats.map(seatName).join(" & ");
  }

  function smallResultBody(r, sc, action) {
    const words = SMALL_OUTCOMES;
    let heading;
    if (r.outcome === "counted") heading = esc(_("Each scores his own points"));
    else heading = esc(colon(seatName(r.contract.taker), words[r.outcome] || r.outcome));
    const sideTricks = (i) => r.sides[i].reduce((n, seat) => n + r.tricks_won[seat], 0);
    const row = (label, f) => `<tr><th>${esc(label)}</th><td class="num">${f(0)}</td><td class="num">${f(1)}</td></tr>`;
    const seats = state.seats.map((s) => s.seat);
    return `<div class="result-head"><h2 class="outcome-${r.outcome}">${heading}</h2>${action}</div>
      <p>${esc(contractText({ contract: r.contract }))}${r.capot !== null ? ` · <b>${esc(_("capot"))}</b> ${esc(fmt(_("by {who}"), { who: sideName(r, r.capot) }))}` : ""}</p>
      <table class="result-table" id="result-sides"><thead><tr><td></td><th>${esc(sideName(r, 0))}</th><th>${esc(sideName(r, 1))}</th></tr></thead><tbody>
      ${row(T.tricks, (i) => `${sideTricks(i)} (${esc(fmt(_("{points} pts"), { points: r.trick_points[i] }))})`)}
      ${row(_("Declarations"), (i) => r.declarations[i])}
      ${row(_("Belote"), (i) => r.belote_points[i])}
      ${row(_("Side score"), (i) => "<b>" + r.side_score[i] + "</b>")}
      </tbody></table>
      <table class="result-table" id="result-seats"><thead><tr><td></td>${seats.map((seat) => `<th>${esc(seatName(seat))}</th>`).join("")}</tr></thead><tbody>
      <tr><th>${esc(_("This hand"))}</th>${seats.map((seat) => `<td class="num"><b>+${r.seats[seat]}</b></td>`).join("")}</tr>
      <tr><th>${esc(_("Total"))}</th>${seats.map((seat) => `<td class="num"><b>${sc.totals[seat]}</b></td>`).join("")}</tr>
      </tbody></table>${r.reserve ? `<p class="reserve-note">${esc(_("Reserve carried:"))} ${r.reserve}</p>` : ""}`;
  }

  function renderResult() {
    const el = $("result");
    if (!state.between_deals) {
      el.hidden = true;
      return;
    }
    const sc = state.score;
    const r = state.result;
    let action = "";
    let finale = "";
    if (state.status === "finished" && small()) {
      const w = sc.winner;
      finale = `<div class="game-over"><span class="star">★</span> ${esc(w ? fmt(_("{who} wins the game"), { who: seatName(w) }) : _("Game over: a draw"))},
        ${sc.seats.map((seat) => `${esc(seatName(seat))} ${sc.totals[seat]}`).join(" · ")}</div>`;
      action = `<a class="btn primary" href="/play">${esc(_("New game"))}</a>`;
    } else if (state.status === "finished") {
      const w = sc.winner;
      finale = `<div class="game-over"><span class="star">★</span> ${esc(w ? fmt(_("{team} win the game"), { team: teamName(w) }) : _("Game over"))},
        ${sc.totals.NS} – ${sc.totals.EW}</div>`;
      action = `<a class="btn primary" href="/play">${esc(_("New game"))}</a>`;
    } else if (mySeat()) {
      action = `<button class="btn primary" type="button" id="next-deal">${esc(_("Next deal"))}</button>`;
    } else {
      action = `<span class="muted">${esc(_("The next deal starts soon."))}</span>`;
    }
    let body;
    if (state.all_pass || !r) {
      body = `<div class="result-head"><h2>${esc(_("Everyone passed"))}</h2>${action}</div>
        <p>${esc(_("The cards are dealt again by the next dealer."))}</p>`;
    } else if (small()) {
      body = smallResultBody(r, sc, action);
    } else {
      const o = r.score.outcome;
      const taker = teamName(r.contract.team);
      const words = OUTCOMES;
      const row = (label, f) => `<tr><th>${esc(label)}</th><td class="num">${f("NS")}</td><td class="num">${f("EW")}</td></tr>`;
      body = `<div class="result-head"><h2 class="outcome-${o}">${esc(fmt(_("{team}: contract {outcome}"), { team: taker, outcome: words[o] || o }))}</h2>${action}</div>
        <p>${esc(contractText({ contract: r.contract }))}${r.capot ? ` · <b>${esc(_("capot"))}</b> ${esc(fmt(_("by {who}"), { who: teamName(r.capot) }))}` : ""}</p>
        <table class="result-table"><thead><tr><td></td><th>${esc(teamName("NS"))}</th><th>${esc(teamName("EW"))}</th></tr></thead><tbody>
        ${row(T.tricks, (t) => `${r.tricks_won[t]} (${esc(fmt(_("{points} pts"), { points: r.trick_points[t] }))})`)}
        ${row(_("Declarations"), (t) => r.declarations[t])}
        ${row(_("Belote"), (t) => r.belote_points[t])}
        ${row(_("This hand"), (t) => "<b>+" + r.score.score[t] + "</b>")}
        ${row(_("Total"), (t) => "<b>" + sc.totals[t] + "</b>")}
        </tbody></table>${r.score.reserve ? `<p class="reserve-note">${esc(_("Reserve carried:"))} ${r.score.reserve}</p>` : ""}`;
    }
    if ((mySeat() || invite) && state.deal && state.deal.number && !state.all_pass) body += `<p><a class="btn small" id="review-deal" href="/review/${encodeURIComponent(roomId)}/${state.deal.number}${mySeat() ? "" : "?invite=" + encodeURIComponent(invite)}">${esc(_("Review the deal"))}</a></p>`;
    const dealNo = state.deal ? state.deal.number : null;
    if (dealNo !== resultOf) {
      resultOf = dealNo;
      resultFolded = false;
    }
    const fold = `<button class="btn small ghost result-toggle" type="button" id="result-toggle" aria-expanded="${!resultFolded}">${esc(resultFolded ? _("Show the result") : _("See the table"))}</button>`;
    el.innerHTML = `<div class="result-card${resultFolded ? " folded" : ""}" role="dialog" aria-label="${esc(T.resultOfDeal)}">${fold}${finale}${body}</div>`;
    el.hidden = false;
  }

  function renderMessage() {
    const el = $("message");
    if (!el) return;
    el.classList.toggle("error", !!lastError);
    if (lastError) {
      el.textContent = lastError;
      return;
    }
    const deal = state && state.deal;
    const me = mySeat();
    el.classList.toggle("hint", !!(hint && deal && deal.turn === me));
    if (hint && deal && deal.turn === me && !state.between_deals) {
      el.textContent = hintText(hint, deal);
      return;
    }
    if (!deal || state.between_deals || state.status !== "playing") {
      el.textContent = "";
    } else if (!me) {
      el.textContent = _("You are watching. Take a bot's seat to play.");
    } else if (deal.turn === me && deal.phase === "discard") {
      el.textContent = _("You took the kitty: click two cards to lay aside, then “Lay aside”.");
    } else if (deal.turn === me) {
      el.textContent = deal.phase === "bidding" ? _("Your call.") : _("Your turn: click a card (the highlighted ones are legal).");
    } else if (deal.turn && deal.phase === "discard") {
      el.textContent = fmt(_("Waiting for {who} to lay two cards aside…"), { who: SEAT_WORDS[deal.turn] });
    } else if (deal.turn) {
      el.textContent = fmt(_("Waiting for {who}…"), { who: SEAT_WORDS[deal.turn] });
    }
  }

  // The strongest bot's advice (as the terminal game's "?"), in the page's words.
  function hintText(h, deal) {
    if (h.cards) return fmt(_("Hint: lay aside {cards}"), { cards: h.cards.map(cardText).join(", ") });
    if (h.card) return fmt(_("Hint: play {card}"), { card: cardText(h.card) });
    let call = callText(h.call);
    if (h.call === "take" && deal.turned) call = fmt(_("Take {trump}"), { trump: suitText(deal.turned[1]) });
    else if (h.call === "pass") call = _("Pass");
    return fmt(_("Hint: {call}"), { call: call });
  }
  function animating() {
    return animate && !(reducedMotion && reducedMotion.matches);
  }
  // Whether a card (of our hand, of the trick) appeared less than ``ms`` ago: it is
  // still being dealt or played (a state that comes meanwhile keeps it moving).
  function recent(key, ms) {
    const now = performance.now();
    if (!firstSeen.has(key)) firstSeen.set(key, now);
    return now - firstSeen.get(key) < ms;
  }
  function newDeal(deal) {
    if (seenDeal !== deal.number) {
      seenDeal = deal.number;
      firstSeen.clear();
    }
  }
  // Set an element's content only when it changes (a running animation is not restarted).
  function setHtml(el, html) {
    if (el.dataset.html === html) return false;
    el.innerHTML = html;
    el.dataset.html = html;
    return true;
  }

  // --- what the players' usual apps give: pop-ups, the deals' history, sounds, the turn timer
  // Kept in functions of their own, called once at the end of render() (renderFeedback).
  let feedbackPrev = null; // the state the pop-ups and sounds were worked out from
  let toastTimer = null;
  let timerEnds = null; // performance.now() at which the turn timer runs out
  let timerTick = null;
  let historyOpen = false;
  let historyReturn = null; // what had the focus before the history opened
  let audio = null;
  const SOUND_KEY = "belote-sound";
  // Sounds and vibration: on unless turned off here; off by default when the system
  // asks for reduced motion (a switch turned on here keeps them).
  function soundOn() {
    const saved = localStorage.getItem(SOUND_KEY);
    if (saved) return saved === "on";
    return !(reducedMotion && reducedMotion.matches);
  }
  // A suit named for the ear and the eye: "♦" shown, "carreau" said.
  function suitSpoken(s) {
    if (s === "SA" || s === "TA" || spanish) return esc(suitText(s));
    return `<span aria-hidden="true">${SYMBOLS[s]}</span><span class="sr-only">${esc(SUIT_WORDS[s])}</span>`;
  }
  function sideWords(seats) {
    if (seats.length === 2 && !small()) return teamName(seats[0] === "N" || seats[0] === "S" ? "NS" : "EW");
    return seats.map(seatName).join(" & ");
  }
  // What happened between two states of one deal, as short pop-ups (HTML lines).
  function feedbackLines(prev, st) {
    const lines = [];
    const d = st.deal;
    const p = prev.deal;
    if (!d || !p || d.number !== p.number) return lines;
    const who = (seat) => esc(seatName(seat));
    for (const c of d.calls.slice(p.calls.length)) {
      if (c.call === "take" && d.turned) {
        lines.push(fmt(esc(_("{who} takes {trump}")), { who: who(c.seat), trump: suitSpoken(d.turned[1]) }));
      } else if (/^([SHDC]|SA|TA)$/.test(c.call)) {
        lines.push(fmt(esc(_("{who} takes {trump}")), { who: who(c.seat), trump: suitSpoken(c.call) }));
      } else if (c.call === "coinche" || c.call === "surcoinche") {
        const bid = [...d.calls].reverse().find((x) => /^(\d+|capot|generale)(SA|TA|[SHDC])$/.test(x.call));
        const words = c.call === "coinche" ? _("{who} coinches!") : _("{who} surcoinches!");
        let line = fmt(esc(words), { who: who(c.seat) });
        if (bid) line += " " + esc(fmt(_("Contract: {contract} for {who}"), { contract: callText(bid.call), who: seatName(bid.seat) }));
        lines.push(line);
      }
    }
    const c = d.contract;
    if (st.auction && c && !p.contract && c.value !== "decouverte") {
      // the auction's end: its contract, coinched or not
      let bid = `${c.value === "generale" ? "générale" : c.value} ${suitText(c.trump)}`;
      if (c.multiplier === 2) bid += " · " + _("coinched");
      if (c.multiplier === 4) bid += " · " + _("surcoinched");
      lines.push(esc(fmt(_("Contract: {contract} for {who}"), { contract: bid, who: seatName(c.taker) })));
    }
    const said = {};
    d.belote.forEach((b, i) => {
      said[b.seat] = (said[b.seat] || 0) + 1;
      if (i >= p.belote.length) {
        lines.push(esc(colon(seatName(b.seat), said[b.seat] === 1 ? "belote" : "rebelote")));
      }
    });
    for (const seat of Object.keys(d.announced)) {
      if (!p.announced[seat]) {
        lines.push(esc(fmt(_("{who} announces {what}"), { who: seatName(seat), what: d.announced[seat].map(declName).join(", ") })));
      }
    }
    for (const seat of Object.keys(d.shown)) {
      if (!p.shown[seat]) {
        const what = d.shown[seat].map((x) => declName(x.name)).join(", ");
        lines.push(esc(fmt(_("{who} wins the declarations: {what}"), { who: seatName(seat), what: what })));
      }
    }
    if (st.between_deals && !prev.between_deals && st.result && st.result.capot !== null && st.result.capot !== undefined) {
      const r = st.result;
      const seats = small() ? r.sides[r.capot] : (r.capot === "NS" ? ["N", "S"] : ["E", "W"]);
      lines.push(esc(fmt(_("Capot by {who}!"), { who: sideWords(seats) })));
    }
    return lines;
  }
  function showToast(lines) {
    const el = $("toast");
    if (!el || !lines.length) return;
    el.innerHTML = lines.map((l) => `<p>${l}</p>`).join("");
    // over the seat at the top (a partner's or opponent's backs), else the trick's top
    const top = $("pos-top");
    const anchor = top.hidden ? $("center") : top;
    el.style.left = `${anchor.offsetLeft + anchor.offsetWidth / 2}px`;
    el.style.top = `${anchor.offsetTop + (top.hidden ? 0 : anchor.offsetHeight / 2)}px`;
    el.classList.toggle("at-seat", !top.hidden);
    el.hidden = false;
    el.classList.remove("toast-in");
    void el.offsetWidth; // the fade starts again for a new pop-up
    el.classList.add("toast-in");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { el.hidden = true; }, 1400 + 700 * lines.length);
  }

  // Sounds made with WebAudio (no file): a card laid down, our turn, a trick won.
  function tone(freqs, length, type) {
    if (!soundOn()) return;
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    try {
      if (!audio) audio = new Ctx();
      if (audio.state === "suspended") audio.resume().catch(() => {});
      let at = audio.currentTime;
      for (const f of freqs) {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.type = type;
        osc.frequency.value = f;
        gain.gain.setValueAtTime(0.0001, at);
        gain.gain.exponentialRampToValueAtTime(0.18, at + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
        osc.connect(gain).connect(audio.destination);
        osc.start(at);
        osc.stop(at + length + 0.02);
        at += length * 0.8;
      }
    } catch (e) {
      // no sound on this browser: the game goes on
    }
  }
  const SOUNDS = {
    card: () => tone([220], 0.07, "triangle"),
    turn: () => tone([660, 880], 0.12, "sine"),
    trick: () => tone([440, 330], 0.1, "triangle"),
  };
  function feedbackSounds(prev, st) {
    const d = st.deal;
    const p = prev.deal;
    if (!d || !p || d.number !== p.number) return;
    const me = mySeat();
    const played = (x) => x.tricks * players() + x.trick.cards.length;
    if (d.phase !== "bidding" && played(d) > played(p)) SOUNDS.card();
    if (d.tricks > p.tricks) SOUNDS.trick();
    const mine = (s) => s.deal && me && s.deal.turn === me && !s.between_deals;
    if (mine(st) && !mine(prev)) {
      SOUNDS.turn();
      if (soundOn() && navigator.vibrate) {
        try { navigator.vibrate(80); } catch (e) { /* not allowed here */ }
      }
    }
  }

  // The turn timer, when the room has one (the server's --turn-timer): the seconds left
  // to the player whose turn it is, on his seat.
  function renderTurnTimer() {
    const left = state.turn_left;
    timerEnds = typeof left === "number" ? performance.now() + left * 1000 : null;
    clearInterval(timerTick);
    timerTick = timerEnds === null ? null : setInterval(drawTurnTimer, 250);
    drawTurnTimer();
  }
  function drawTurnTimer() {
    const chip = document.querySelector("#table .seat-box.turn .chip.to-play");
    let el = $("turn-timer");
    if (timerEnds === null || !chip) {
      if (el) el.remove();
      return;
    }
    if (!el || el.parentElement !== chip.parentElement) {
      if (el) el.remove();
      el = document.createElement("span");
      el.id = "turn-timer";
      el.setAttribute("role", "timer");
      chip.insertAdjacentElement("afterend", el);
    }
    const seconds = Math.max(0, Math.ceil((timerEnds - performance.now()) / 1000));
    el.className = "chip turn-timer" + (seconds <= 5 ? " urgent" : "");
    el.textContent = fmt(_("{seconds} s"), { seconds: seconds });
    el.title = _("Time left to play (then a bot plays this move)");
  }

  // The deals' history: a button by the felt's scores opens it over the table.
  function historyButtonHtml() {
    const target = esc(fmt(_("to {target}"), { target: state.target }));
    return `<button type="button" class="fs fs-target history-btn" id="history-btn" aria-haspopup="dialog" aria-expanded="${historyOpen}" aria-controls="history" title="${esc(_("Score by deal"))}">${target} <span class="history-icon" aria-hidden="true">☰</span><span class="sr-only">${esc(_("Score by deal"))}</span></button>`;
  }
  function historyColumns() {
    const sc = state.score;
    if (!sc) return [];
    if (small()) return sc.seats.map((seat) => ({ key: seat, name: seatName(seat) }));
    return [{ key: "NS", name: teamName("NS") }, { key: "EW", name: teamName("EW") }];
  }
  function historyHtml() {
    const sc = state.score;
    const cols = historyColumns();
    const deals = state.history || [];
    const head = `<tr><th scope="col">${esc(_("Deal"))}</th><th scope="col">${esc(_("Contract"))}</th>${cols.map((c) => `<th scope="col" class="num">${esc(c.name)}</th>`).join("")}</tr>`;
    let rows = "";
    if (sc) {
      rows = sc.hands.map((h, i) => {
        const info = deals[i];
        const points = small() ? h : h.score;
        const running = sc.running[i];
        let what = "";
        if (info) {
          const outcome = small() ? SMALL_OUTCOMES : OUTCOMES;
          what = esc(contractText({ contract: info.contract }));
          const word = info.outcome === "counted" ? _("each scores his own points") : (outcome[info.outcome] || info.outcome);
          what += `<br><span class="outcome-${info.outcome}">${esc(word)}</span>`;
          if (info.capot) what += ` · <b>${esc(fmt(_("capot by {who}"), { who: sideWords(info.capot) }))}</b>`;
        }
        return `<tr><th scope="row">${info ? info.deal : i + 1}</th><td class="history-contract">${what}</td>${cols.map((c) => `<td class="num"><span class="delta">+${points[c.key]}</span> <b>${running[c.key]}</b></td>`).join("")}</tr>`;
      }).join("");
    }
    if (!rows) rows = `<tr><td colspan="${cols.length + 2}">${esc(_("no hand scored yet"))}</td></tr>`;
    const totals = sc ? `<tr class="history-total"><th scope="row" colspan="2">${esc(_("Total"))}</th>${cols.map((c) => `<td class="num"><b>${sc.totals[c.key]}</b></td>`).join("")}</tr>` : "";
    const reserve = sc && sc.reserve ? `<p class="reserve-note">${esc(_("Reserve (litige):"))} ${sc.reserve}</p>` : "";
    return `<table class="history-table" id="history-table" aria-labelledby="history-title"><thead>${head}</thead><tbody>${rows}</tbody><tfoot>${totals}</tfoot></table>${reserve}` +
      `<p class="muted-light history-note">${esc(fmt(_("Each deal: its points, then the running total (game to {target})."), { target: state.target }))}</p>`;
  }
  function renderHistory() {
    const el = $("history");
    if (!el) return;
    el.hidden = !historyOpen;
    if (historyOpen) setHtml($("history-body"), historyHtml());
  }
  function openHistory() {
    historyReturn = document.activeElement;
    historyOpen = true;
    renderHistory();
    const btn = $("history-btn");
    if (btn) btn.setAttribute("aria-expanded", "true");
    $("history-close").focus();
  }
  function closeHistory() {
    if (!historyOpen) return;
    historyOpen = false;
    renderHistory();
    const btn = $("history-btn");
    if (btn) btn.setAttribute("aria-expanded", "false");
    const back = btn || historyReturn;
    if (back && back.focus) back.focus();
  }
  const historyEl = $("history");
  if (historyEl) {
    historyEl.addEventListener("click", (event) => {
      // a tap outside the card (on the shade) or on the close button closes it
      if (event.target === historyEl || event.target.closest("#history-close")) closeHistory();
    });
    document.addEventListener("keydown", (event) => {
      if (!historyOpen) return;
      if (event.key === "Escape") {
        event.preventDefault();
        closeHistory();
      } else if (event.key === "Tab") {
        // the focus stays in the dialog while it is open
        const items = [...historyEl.querySelectorAll("button, [href], [tabindex]:not([tabindex='-1'])")];
        const first = items[0];
        const last = items[items.length - 1];
        if (event.shiftKey && document.activeElement === first) { event.preventDefault(); last.focus(); }
        else if (!event.shiftKey && document.activeElement === last) { event.preventDefault(); first.focus(); }
        else if (!historyEl.contains(document.activeElement)) { event.preventDefault(); first.focus(); }
      }
    });
  }
  root.addEventListener("click", (event) => {
    if (event.target.closest("#history-btn")) openHistory();
  });
  const soundBox = $("opt-sound");
  if (soundBox) {
    soundBox.checked = soundOn();
    soundBox.addEventListener("change", () => {
      localStorage.setItem(SOUND_KEY, soundBox.checked ? "on" : "off");
      if (soundBox.checked) SOUNDS.turn(); // a first sound, from the tap that allows it
    });
  }

  function renderFeedback() {
    if (feedbackPrev && feedbackPrev.version !== state.version) {
      showToast(feedbackLines(feedbackPrev, state));
      feedbackSounds(feedbackPrev, state);
    }
    feedbackPrev = state;
    if (soundBox) soundBox.checked = soundOn();
    renderTurnTimer();
    renderHistory();
  }

  // --- what we do -----------------------------------------------------------------------
  root.addEventListener("click", (event) => {
    const target = event.target.closest("button");
    if (!target) return;
    if (target.dataset.card && target.closest("#hand") && $("hand").classList.contains("discarding")) {
      const c = target.dataset.card;
      if (chosen.has(c)) chosen.delete(c);
      else if (chosen.size < 2) chosen.add(c);
      renderControls();
    } else if (target.id === "discard-confirm") {
      if (chosen.size === 2) send({ type: "discard", cards: [...chosen] });
    } else if (target.dataset.card && target.closest("#hand")) {
      send({
        type: "play",
        card: target.dataset.card,
        declare: $("opt-declare").checked,
        belote: $("opt-belote").checked,
      });
    } else if (target.dataset.call) {
      send({ type: "call", call: target.dataset.call });
    } else if (target.id === "hint-btn") {
      if (state) hintAsked = state.version;
      send({ type: "hint" });
      renderControls();
    } else if (target.dataset.sit) {
      // A spectator taking a bot's seat during the game is asked for his name first.
      const inGame = state && state.status !== "waiting";
      const field = inGame ? $("spectator-name") : $("player-name");
      const name = (field && field.value.trim()) || "";
      if (inGame && !name) {
        lastError = _("Type your name first, then take the seat.");
        errorVersion = state.version;
        renderMessage();
        if (field) field.focus();
        return;
      }
      send({ type: "join", seat: target.dataset.sit, name: name });
    } else if (target.dataset.bot) {
      send({ type: "bot", seat: target.dataset.bot });
    } else if (target.id === "start") {
      send({ type: "start" });
    } else if (target.id === "leave") {
      send({ type: "leave" });
      localStorage.removeItem(storeKey);
    } else if (target.id === "next-deal") {
      send({ type: "next" });
    } else if (target.id === "result-toggle") {
      resultFolded = !resultFolded;
      renderResult();
    } else if (target.id === "last-trick-btn" || target.id === "trick-pile") {
      showLast = !showLast;
      renderSide();
      renderCenter();
    } else if (target.id === "copy-link") {
      const input = $("share-link");
      input.select();
      if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(() => {});
      target.textContent = _("Copied");
      setTimeout(() => { target.textContent = _("Copy link"); }, 1500);
    }
  });
  root.addEventListener("change", (event) => {
    if (event.target.id === "bid-value") {
      auctionHtml.value = event.target.value;
      renderControls();
    }
  });
  for (const nameInput of [$("player-name"), $("spectator-name")]) {
    if (!nameInput) continue;
    nameInput.value = localStorage.getItem("belote-name") || "";
    nameInput.addEventListener("change", () => localStorage.setItem("belote-name", nameInput.value));
  }
  const animBox = $("opt-anim");
  if (animBox) {
    animBox.checked = animate;
    animBox.addEventListener("change", () => {
      animate = animBox.checked;
      localStorage.setItem("belote-animations", animate ? "on" : "off");
      root.classList.toggle("animated", animating());
    });
  }

  // What chat.js says to the table goes on our connection (a chat message, nothing else).
  root.addEventListener("belote:say", (event) => {
    if (event.detail && event.detail.type === "chat") send(event.detail);
  });
  readToken();
  connect();
})();
