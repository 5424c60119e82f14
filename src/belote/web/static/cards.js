// The names and faces of the cards, the same on every page that shows them (the table,
// table.js; the review of a deal, review.js): the French pack (its symbols; V D R on a
// French page) or the Spanish one (its numbers, its suits' names and pictures), docs/rules.md
// §1.2, in the page's language.  window.belote.cards(spanish) gives the functions for one
// pack; app.js (window.belote) is loaded before.
(() => {
  "use strict";
  const { _ } = window.belote;
  window.belote.cards = (spanish) => {
    const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
    const FRENCH = (document.documentElement.lang || "").slice(0, 2) === "fr";
    const FR_LETTERS = { J: "V", Q: "D", K: "R" };
    const FR_RANKS = { 7: "7", 8: "8", 9: "9", T: "10", J: "valet", Q: "dame", K: "roi", A: "as" };
    const FR_SUITS = { S: "pique", H: "cœur", D: "carreau", C: "trèfle" };
    const EN_RANKS = { 7: "seven", 8: "eight", 9: "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace" };
    const EN_SUITS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
    const SP_SUITS = { S: "espadas", H: "copas", D: "oros", C: "bastos" };
    const SP_NUMBERS = { 7: "4", 8: "5", 9: "6", T: "7", J: "10", Q: "11", K: "12", A: "1" };
    const SP_NAMES = { 7: "4", 8: "5", 9: "6", T: "7", J: "sota", Q: "caballo", K: "rey", A: "as" };
    // The Spanish suits drawn (our own drawings): a coin (oros), a cup (copas), a sword
    // (espadas), a club (bastos), each filled in its colour with a dark outline so that
    // it reads on the card whatever the colour (no gold on cream).
    const SP_PICTURES = {
      D: '<circle cx="16" cy="16" r="12" fill="#e3a21a" stroke="#5c3b00" stroke-width="2.2"/>' +
        '<circle cx="16" cy="16" r="6.5" fill="#fff3c4" stroke="#5c3b00" stroke-width="2"/>' +
        '<circle cx="16" cy="16" r="2.2" fill="#5c3b00"/>',
      H: '<path d="M6 5h20c0 7-3.5 11.5-8 12.6V23h4.5v3.5h-13V23H14v-5.4C9.5 16.5 6 12 6 5z" ' +
        'fill="#d23a32" stroke="#5e0d0a" stroke-width="2" stroke-linejoin="round"/>' +
        '<path d="M9 8.5h14" stroke="#ffd7d2" stroke-width="1.6" stroke-linecap="round"/>',
      S: '<path d="M16 2.5l3 4.5v13h-6V7z" fill="#7fa8e8" stroke="#0d2a57" stroke-width="1.8" stroke-linejoin="round"/>' +
        '<path d="M8 20h16v3H8z" fill="#1c4f9c" stroke="#0d2a57" stroke-width="1.6" stroke-linejoin="round"/>' +
        '<path d="M14.3 23h3.4v4.5h-3.4z" fill="#1c4f9c" stroke="#0d2a57" stroke-width="1.4"/>' +
        '<circle cx="16" cy="29" r="1.9" fill="#1c4f9c" stroke="#0d2a57" stroke-width="1.2"/>',
      C: '<path d="M12.5 29.5l-1.2-19c-.3-4.5 2-7.5 5.2-7.5s5.6 3 5.2 7.5l-3.2 19z" fill="#3f8f45" ' +
        'stroke="#143d19" stroke-width="2" stroke-linejoin="round"/>' +
        '<circle cx="14.2" cy="10" r="1.5" fill="#143d19"/><circle cx="18.6" cy="15.5" r="1.5" fill="#143d19"/>' +
        '<circle cx="14.8" cy="21" r="1.4" fill="#143d19"/>',
    };
    // The trump's picture next to its name (Spanish suits only: French ones have their symbol).
    function trumpPicture(suit) {
      return spanish && /^[SHDC]$/.test(suit || "") ? spanishPicture(suit) : "";
    }
    function spanishPicture(suit) {
      return `<svg class="sp-suit" viewBox="0 0 32 32" aria-hidden="true" focusable="false">${SP_PICTURES[suit]}</svg>`;
    }

    // A card's letter on its face: J Q K A in English, V D R A on a French page (the
    // French pack's own letters), the Spanish pack's numbers.
    function rankLabel(code) {
      const r = code[0];
      if (spanish) return SP_NUMBERS[r];
      if (r === "T") return "10";
      return FRENCH ? (FR_LETTERS[r] || r) : r;
    }
    // A card in words, as a screen reader says it: "valet de carreau", "jack of diamonds",
    // "sota de oros".
    function cardWords(code) {
      if (spanish) return SP_NAMES[code[0]] + " de " + SP_SUITS[code[1]];
      if (FRENCH) return FR_RANKS[code[0]] + " de " + FR_SUITS[code[1]];
      return EN_RANKS[code[0]] + " of " + EN_SUITS[code[1]];
    }
    // A card in a sentence: "le valet de carreau", "l'as de cœur", "la sota de oros" on a
    // French page; "J♦", "the sota de oros" in English (a card named in words takes "the").
    function cardText(code) {
      if (FRENCH) {
        const words = cardWords(code);
        const first = words.split(" ")[0];
        if (first === "as") return "l'" + words;
        return (first === "dame" || first === "sota" ? "la " : "le ") + words;
      }
      if (spanish) return "the " + cardWords(code);
      return rankLabel(code) + SYMBOLS[code[1]];
    }
    function suitText(s) {
      if (s === "SA") return _("no trump");
      if (s === "TA") return _("all trumps");
      return spanish ? SP_SUITS[s] : SYMBOLS[s];
    }
    return { SYMBOLS, SP_SUITS, rankLabel, cardWords, cardText, suitText, trumpPicture, spanishPicture };
  };
})();
