// The table's talk (web/chat.py): quick messages and a short free text, on the room's
// connection (table.js hands us the "chat", "chat_log" and chat error messages, and
// sends what we say). Every text from another person is put in the page as text
// (textContent), never as markup. A person can be muted here, in this browser, for
// this room (localStorage); the panel is folded on phones, with a count of the unread.
(() => {
  "use strict";
  const { _, fmt } = window.belote; // the page's language (app.js)
  const root = document.getElementById("room");
  const panel = document.getElementById("chat");
  if (!root || !panel) return;
  const $ = (id) => document.getElementById(id);
  const toggle = $("chat-toggle");
  const body = $("chat-body");
  const badge = $("chat-badge");
  const list = $("chat-log");
  const empty = $("chat-empty");
  const mutedBox = $("chat-muted");
  const input = $("chat-text");
  const errorBox = $("chat-error");
  const muteKey = "belote-chat-mute-" + root.dataset.room;
  const SEAT_WORDS = { N: _("North"), E: _("East"), S: _("South"), W: _("West") };
  // The quick messages' words in the page's language: those of their buttons.
  const QUICK = {};
  for (const b of panel.querySelectorAll("[data-quick]")) QUICK[b.dataset.quick] = b.textContent;

  const ping = $("chat-ping");
  const pingCount = $("chat-ping-count");
  let toggleInView = true;
  let messages = []; // what was said, oldest first (the server keeps the last 50)
  let unread = 0;
  let muted = readMuted(); // who → how he was named when muted

  function readMuted() {
    try {
      const saved = JSON.parse(localStorage.getItem(muteKey) || "{}");
      return saved && typeof saved === "object" && !Array.isArray(saved) ? saved : {};
    } catch (e) {
      return {};
    }
  }
  function saveMuted() {
    if (Object.keys(muted).length) localStorage.setItem(muteKey, JSON.stringify(muted));
    else localStorage.removeItem(muteKey);
  }

  // Who said it: "Ann (North)", a spectator.
  function author(from) {
    if (!from.seat) return _("A spectator");
    const seat = SEAT_WORDS[from.seat] || from.seat;
    return from.name ? fmt(_("{name} ({seat})"), { name: from.name, seat: seat }) : seat;
  }
  function words(m) {
    return m.quick ? (QUICK[m.quick] || m.quick) : String(m.text || "");
  }

  function line(m) {
    const li = document.createElement("li");
    li.className = "chat-line" + (m.mine ? " mine" : "") + (m.quick ? " quick" : "");
    li.dataset.who = m.from.who;
    const who = document.createElement("span");
    who.className = "chat-who";
    who.textContent = fmt(_("{label}: {value}"), { label: author(m.from), value: "" }).trim();
    const said = document.createElement("span");
    said.className = "chat-said";
    said.textContent = words(m);
    li.append(who, " ", said);
    if (!m.mine) {
      const mute = document.createElement("button");
      mute.type = "button";
      mute.className = "chat-mute";
      mute.dataset.mute = m.from.who;
      mute.dataset.label = author(m.from);
      mute.textContent = _("Mute");
      mute.setAttribute("aria-label", fmt(_("Mute {name}"), { name: author(m.from) }));
      li.append(" ", mute);
    }
    return li;
  }

  function draw() {
    const shown = messages.filter((m) => !(m.from.who in muted));
    list.replaceChildren(...shown.map(line));
    empty.hidden = shown.length > 0;
    list.hidden = shown.length === 0;
    const who = Object.keys(muted);
    mutedBox.hidden = who.length === 0;
    mutedBox.replaceChildren(...who.map((w) => {
      const row = document.createElement("p");
      row.textContent = fmt(_("{name} is muted here."), { name: muted[w] }) + " ";
      const unmute = document.createElement("button");
      unmute.type = "button";
      unmute.className = "chat-mute";
      unmute.dataset.unmute = w;
      unmute.textContent = _("Unmute");
      unmute.setAttribute("aria-label", fmt(_("Unmute {name}"), { name: muted[w] }));
      row.append(unmute);
      return row;
    }));
    list.scrollTop = list.scrollHeight;
    drawBadge();
  }
  function drawBadge() {
    badge.hidden = unread === 0;
    badge.textContent = unread ? String(unread) : "";
    const label = unread ? fmt(_("Chat, {n} unread"), { n: unread }) : _("Chat");
    toggle.setAttribute("aria-label", label);
    // The folded panel scrolled out of sight: the unread count in a pill in the corner.
    ping.hidden = !(unread && !isOpen() && !toggleInView);
    pingCount.textContent = String(unread);
    ping.setAttribute("aria-label", label);
  }
  function open(on) {
    body.hidden = !on;
    toggle.setAttribute("aria-expanded", on ? "true" : "false");
    panel.classList.toggle("open", on);
    if (on) {
      unread = 0;
      draw();
    }
  }
  function isOpen() {
    return !body.hidden;
  }
  function showError(text) {
    errorBox.textContent = text;
    errorBox.hidden = !text;
  }

  root.addEventListener("belote:chat", (event) => {
    const msg = event.detail;
    if (msg.type === "error") {
      showError(msg.message || "");
      return;
    }
    if (msg.type === "chat_log") {
      messages = Array.isArray(msg.messages) ? msg.messages : [];
    } else {
      if (messages.some((m) => m.id === msg.id)) return;
      messages.push(msg);
      if (messages.length > 50) messages.shift();
      if (msg.mine) {
        showError("");
        if (msg.text && input.value.trim() === msg.text) input.value = ""; // said: cleared
      }
      else if (!isOpen() && !(msg.from.who in muted)) unread += 1;
    }
    draw();
  });
  function say(obj) {
    root.dispatchEvent(new CustomEvent("belote:say", { detail: { type: "chat", ...obj } }));
  }
  toggle.addEventListener("click", () => open(!isOpen()));
  ping.addEventListener("click", () => {
    open(true);
    panel.scrollIntoView({ block: "start" });
    input.focus({ preventScroll: true });
  });
  if ("IntersectionObserver" in window) {
    new IntersectionObserver((seen) => {
      toggleInView = seen[seen.length - 1].isIntersecting;
      drawBadge();
    }).observe(toggle);
  }
  panel.addEventListener("click", (event) => {
    const b = event.target.closest("button");
    if (!b) return;
    if (b.dataset.quick) say({ quick: b.dataset.quick });
    else if (b.dataset.mute) {
      muted[b.dataset.mute] = b.dataset.label;
      saveMuted();
      draw();
    } else if (b.dataset.unmute) {
      delete muted[b.dataset.unmute];
      saveMuted();
      draw();
    }
  });
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    say({ text: text }); // the field is cleared once the table heard it (a refusal keeps it)
  });
  // Folded on a phone, open on a wider screen.
  open(!(window.matchMedia && window.matchMedia("(max-width: 600px)").matches));
  draw();
})();
