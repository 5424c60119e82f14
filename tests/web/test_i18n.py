"""French and English (issue 13): the language of a page, the catalogues, the refusals
said in plain words, the web app manifest and its service worker.

Nothing here depends on the machine's locale: every request names its language
(Accept-Language or the ``lang`` cookie) or names none (English)."""

from __future__ import annotations

import html as html_module
import json
import re
import subprocess
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from belote.errors import (
    ENGLISH,
    REFUSAL_ENGLISH,
    BeloteError,
    IllegalActionError,
    IllegalBidError,
    IllegalDeclarationError,
    IllegalPlayError,
    InvalidRecordError,
    Refusal,
    RuleCode,
    template_fields,
)
from belote.sheets import SheetError
from belote.web import i18n, present, refusals
from belote.web.i18n import LOCALE_DIR, choose, from_accept_language, safe_next
from belote.web.seats import RoomError
from tests.web.support import TestClient

WEB = Path(i18n.__file__).resolve().parent
DOMAINS = ("messages", "js")


def _page_text(html: str) -> str:
    """What a page shows (its catalogue script and tags left out)."""
    html = re.sub(r'<script type="application/json" id="i18n">.*?</script>', "", html, flags=re.S)
    return html_module.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


# --- which language --------------------------------------------------------------------


@pytest.mark.parametrize(("header", "lang"), [
    ("fr", "fr"), ("fr-FR", "fr"), ("fr-BE,fr;q=0.9", "fr"), ("fr-CH, en;q=0.5", "fr"),
    ("en-US,en;q=0.9,fr;q=0.8", "en"), ("de-DE,de;q=0.9,fr;q=0.7", "fr"), ("de-DE", "en"),
    ("es, ar-MA", "en"), ("", "en"), ("en;q=0.2, fr;q=0.9", "fr"), ("fr;q=0", "en"),
    ("*", "en"), ("fr;q=abc", "en"), (";;,,", "en"),
])
def test_the_browser_language_chooses_french_for_fr_and_english_otherwise(
        header: str, lang: str) -> None:
    assert from_accept_language(header) == lang
    assert choose(None, header) == lang


def test_the_cookie_wins_over_the_browser_and_a_bad_cookie_is_ignored() -> None:
    assert choose("en", "fr-FR") == "en"
    assert choose("fr", "en-US") == "fr"
    assert choose("de", "fr-FR") == "fr"
    assert choose("", None) == "en"


@pytest.mark.parametrize(("target", "back"), [
    ("/sheets", "/sheets"), ("/rooms/ab12?invite=xyz", "/rooms/ab12?invite=xyz"),
    (None, "/"), ("", "/"), ("https://evil.example/", "/"), ("//evil.example/x", "/"),
    ("/\\evil.example", "/"), ("sheets", "/"), ("/x\r\nSet-Cookie: a=b", "/"),
])
def test_the_switch_goes_back_to_a_page_of_this_site_only(target: str | None, back: str
                                                          ) -> None:
    assert safe_next(target) == back


def test_pages_follow_accept_language_and_the_html_lang_says_it(client: TestClient) -> None:
    fr = client.get("/sheets", headers={"Accept-Language": "fr-FR,fr;q=0.9"})
    assert fr.status_code == 200 and '<html lang="fr">' in fr.text
    shown = _page_text(fr.text)
    assert "Feuilles de score" in shown and "Nouvelle feuille" in shown
    assert "Score sheets" not in shown
    en = client.get("/sheets", headers={"Accept-Language": "en-GB"})
    assert '<html lang="en">' in en.text and "Score sheets" in _page_text(en.text)
    plain = client.get("/sheets")
    assert '<html lang="en">' in plain.text


def test_the_switch_is_a_link_that_sets_a_cookie_and_comes_back(client: TestClient) -> None:
    page = client.get("/rooms?x=1", headers={"Accept-Language": "en"}).text
    switch = re.search(r'<div class="lang-switch".*?</div>', page, re.S)
    assert switch is not None
    links = re.findall(r'href="(/lang/(\w+)\?next=[^"]+)"', switch.group(0))
    assert [code for _, code in links] == ["fr", "en"]
    assert links[0][0] == "/lang/fr?next=/rooms%3Fx%3D1"
    assert 'id="lang-en" class="active" aria-current="true"' in switch.group(0)
    r = client.get(links[0][0].replace("&amp;", "&"), follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/rooms?x=1"
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("lang=fr;") and "Path=/" in cookie and "SameSite=lax" in cookie
    assert "Max-Age=31536000" in cookie
    # remembered: the next pages are French whatever the browser says
    page = client.get("/rooms", headers={"Accept-Language": "en-US"}).text
    assert '<html lang="fr">' in page and "Ouvrir une salle" in _page_text(page)
    client.get("/lang/en?next=/", follow_redirects=False)
    page = client.get("/rooms", headers={"Accept-Language": "fr-FR"}).text
    assert '<html lang="en">' in page and "Open a room" in page
    # an unknown language changes nothing; a foreign next goes home
    r = client.get("/lang/de?next=https://evil.example/", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"
    assert "set-cookie" not in {k.lower() for k in r.headers if k.lower() != "set-cookie"} \
        or "lang=" not in r.headers.get("set-cookie", "")


def test_french_pages_say_the_belote_words(client: TestClient) -> None:
    fr = {"Accept-Language": "fr"}
    home = _page_text(client.get("/", headers=fr).text)
    assert "Feuilles de score" in home and "Jouer contre des bots" in home
    play = _page_text(client.get("/play", headers=fr).text)
    assert "Distribuer" in play and "Belote classique" in play and "Belote à trois" in play
    r = client.post("/sheets", data={"profile": "coinche", "name": "Chez Ana"}, headers=fr,
                    follow_redirects=False)
    assert r.status_code == 303
    sheet = _page_text(client.get(r.headers["location"], headers=fr).text)
    for word in ("Qui a pris ?", "Contrat", "Atout", "coinché ×2", "surcoinché ×4",
                 "♠ pique", "♥ cœur", "dix de der", "Capot (les 8 plis)",
                 "Annonces gagnées", "Ajouter la donne"):
        assert word in sheet, word
    # the scripts' texts: the catalogue the page embeds
    page = client.get("/play", headers=fr).text
    found = re.search(r'<script type="application/json" id="i18n">(.*?)</script>', page, re.S)
    assert found is not None
    catalog = json.loads(found.group(1))
    assert catalog["Pass"] == "Passer" and catalog["Take {trump}"] == "Prendre à {trump}"
    assert catalog["North"] == "Nord" and catalog["the dealer"] == "le donneur"
    assert catalog["Everyone passed"] == "Tout le monde a passé"
    assert catalog["coinche"] == "coinche" and catalog["trump"] == "atout"
    english = client.get("/play", headers={"Accept-Language": "en"}).text
    assert '<script type="application/json" id="i18n">{}</script>' in english


def test_errors_are_the_error_page_in_the_page_language(client: TestClient) -> None:
    for path in ("/sheets/abc", "/sheets/abc/hands/x/edit"):
        r = client.get(path, headers={"Accept-Language": "fr-FR", "Accept": "text/html"})
        assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
        shown = _page_text(r.text)
        assert "Introuvable" in shown and "Cette adresse ne mène à aucune page." in shown
        assert "{" not in shown and "sheet_id" not in shown
    r = client.get("/sheets/999999", headers={"Accept-Language": "fr"})
    assert r.status_code == 404
    assert "Il n'y a pas de feuille de score numéro 999999." in _page_text(r.text)
    r = client.get("/sheets/abc")
    assert r.status_code == 404 and "This address leads to no page." in r.text
    # the JSON API keeps JSON
    r = client.get("/api/sheets/999999")
    assert r.status_code == 404 and "error" in r.json()


def test_a_refused_hand_is_said_in_french_with_the_team_named(client: TestClient) -> None:
    fr = {"Accept-Language": "fr"}
    r = client.post("/sheets", data={"profile": "classic", "team_ns": "Nous", "team_ew": "Eux"},
                    headers=fr, follow_redirects=False)
    sheet = r.headers["location"]
    r = client.post(sheet + "/hands", data={"taker": "NS", "points_team": "EW",
                                            "points": "170"}, headers=fr)
    assert r.status_code == 422
    shown = _page_text(r.text)
    assert ("Eux ne peut pas avoir fait 170 points de plis : les plis d'une donne valent 162 "
            "points en tout (dix de der compris).") in shown
    r = client.post(sheet + "/hands", data={"taker": "NS", "points": "90",
                                            "decl_team": "NS", "decl_points": "1000"},
                    headers=fr)
    assert r.status_code == 422
    assert "Annonces : 1000, c'est plus qu'une équipe ne peut annoncer" in _page_text(r.text)
    sid = sheet.rsplit("/", 1)[1]
    r = client.post(f"/api/sheets/{sid}/preview", json={"taker": "NS", "points_team": "EW",
                                                         "points": "170"}, headers=fr)
    assert r.status_code == 422 and r.json()["error"].startswith("Eux ne peut pas avoir fait")


# --- the catalogues ---------------------------------------------------------------------


def _key(value: object) -> object:
    return tuple(value) if isinstance(value, (list, tuple)) else value


def _po(lang: str, domain: str) -> list[tuple[object, object]]:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        return [(_key(m.id), _key(m.string)) for m in read_po(f) if m.id]


def _mo(lang: str, domain: str) -> dict[object, object]:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.mo").open("rb") as f:
        return {_key(m.id): _key(m.string) for m in read_mo(f) if m.id}


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_text_has_its_french(domain: str) -> None:
    entries = _po("fr", domain)
    assert len(entries) > 50
    for msgid, msgstr in entries:
        strings = [str(x) for x in msgstr] if isinstance(msgstr, tuple) else [str(msgstr)]
        assert strings and all(strings), f"no French for {msgid!r}"
        first = str(msgid[0]) if isinstance(msgid, tuple) else str(msgid)
        names = set(re.findall(r"%\(\w+\)s|\{\w+\}", first))
        for s in strings:
            assert set(re.findall(r"%\(\w+\)s|\{\w+\}", s)) <= names | {"%(num)d"}, (msgid, s)


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_compiled_catalogues_match_the_po_files(lang: str, domain: str) -> None:
    """The .mo files are committed: each must say what its .po says
    (``bash scripts/i18n.sh compile`` after editing a .po)."""
    compiled = _mo(lang, domain)
    for msgid, msgstr in _po(lang, domain):
        if msgstr and (isinstance(msgstr, str) or (isinstance(msgstr, tuple) and all(msgstr))):
            assert compiled.get(msgid) == msgstr, msgid
    assert set(compiled) <= {m for m, _ in _po(lang, domain)}


def test_the_catalogues_hold_every_text_of_the_sources(tmp_path: Path) -> None:
    """Extracting again (as scripts/i18n.sh does) finds no text the .po files lack."""
    pybabel = Path(__file__).resolve().parents[2] / ".venv" / "bin" / "pybabel"
    if not pybabel.exists():
        pytest.skip("no .venv/bin/pybabel")
    for domain in DOMAINS:
        out = tmp_path / f"{domain}.pot"
        subprocess.run([str(pybabel), "-q", "extract", "-F",
                        str(LOCALE_DIR / f"babel-{domain}.cfg"), "-k", "N_", "-o", str(out),
                        "."], cwd=WEB, check=True, capture_output=True)
        with out.open("rb") as f:
            extracted = {m.id for m in read_po(f) if m.id}
        known = {m for m, _ in _po("fr", domain)}
        assert extracted - known == set(), f"{domain}: run bash scripts/i18n.sh"


def test_the_scripts_call_the_catalogue_only_where_it_is_extracted() -> None:
    """Babel's JavaScript extractor does not look inside nested template strings: every
    _("...") of the scripts must be in the js catalogue."""
    known = {m for m, _ in _po("fr", "js")}
    for name in ("table.js", "sheet.js"):
        source = (WEB / "static" / name).read_text(encoding="utf-8")
        for text in re.findall(r'\b_\("((?:[^"\\]|\\.)*)"\)', source):
            assert text in known, f"{name}: {text!r} is not in js.po"


def test_labels_named_elsewhere_are_translated() -> None:
    from belote.web.app import BOT_LABELS, PROFILE_LABELS
    from belote.web.routes_rooms import DEAL_LABELS, DEAL_NAMES, SMALL_LABELS

    for labels in (PROFILE_LABELS, BOT_LABELS, SMALL_LABELS, DEAL_LABELS, DEAL_NAMES):
        for text in labels.values():
            same = text in ("Coinche", "Contrée", "découverte")  # the same word in French
            assert i18n.gettext("fr", text) != text or same, text


# --- refusals in plain words ------------------------------------------------------------

# A refusal of the rules made as the engine makes it (belote.errors), and its reader's seat.
R = RuleCode
RULE_REFUSALS: list[tuple[IllegalActionError, int | None]] = [
    (IllegalPlayError(R.FOLLOW_SUIT, where=("trick 3",), seat=2, card="TH"), 2),
    (IllegalPlayError(R.MUST_TRUMP, where=("trick 3",), seat=2, card="7C"), 2),
    (IllegalPlayError(R.OVERTRUMP, where=("trick 5",), seat=3, card="JS"), 3),
    (IllegalPlayError(R.BEAT_THE_MASTER, where=("trick 2",), seat=2, card="8S"), 2),
    (IllegalPlayError(R.OVERTRUMP_PARTNER, where=("trick 4",), seat=2, card="AD"), 2),
    (IllegalPlayError(R.UNDERTRUMP_PARTNER, where=("trick 4",), seat=2, card="AD"), 2),
    (IllegalPlayError(R.UNDERTRUMP, where=("trick 6",), seat=1, card="9H"), 1),
    (IllegalPlayError(R.CARD_NOT_HELD, where=("trick 1",), seat=2, card="AS"), 2),
    (IllegalActionError(R.NOT_YOUR_TURN, seat=2, turn=0, act="play"), 2),
    (IllegalActionError(R.NOT_YOUR_TURN, turn=3, act="call"), 2),
    (IllegalBidError(R.FIRST_ROUND_TAKE_OR_PASS, seat=2, call="H"), 2),
    (IllegalBidError(R.SECOND_ROUND_NO_TAKE, seat=2), 2),
    (IllegalBidError(R.TURNED_SUIT_AGAIN, seat=2, call="H"), 2),
    (IllegalBidError(R.SECOND_ROUND_NAME_A_SUIT, seat=2, call="D",
                     calls=("S", "C", "SA", "TA")), 2),
    (IllegalBidError(R.COINCHE_BY_OPPONENTS, seat=1, call="coinche"), 1),
    (IllegalBidError(R.NO_COINCHE_TO_ANSWER, seat=1, call="surcoinche"), 1),
    (IllegalBidError(R.BID_TOO_LOW, seat=1, call="80H", bid="90S"), 1),
    (IllegalBidError(R.BID_NOT_A_MULTIPLE, seat=1, call="85H"), 1),
    (IllegalBidError(R.DENOMINATION_OFF, seat=1, call="80SA", trump="SA"), 1),
    (IllegalBidError(R.COINCHE_IN_TURN, seat=1, call="coinche"), 1),
    (IllegalBidError(R.CAPOT_NOT_COINCHED, seat=1, call="coinche"), 1),
    (IllegalBidError(R.NOT_YOUR_TURN, seat=1, call="90S", turn=0), 1),
    (IllegalActionError(R.DISCARD_FIRST, seat=0, turn=1), 0),
    (IllegalActionError(R.DISCARD_FIRST, seat=1, turn=1), 1),
    (IllegalActionError(R.NO_DISCARD_NOW, seat=0), 0),
    (IllegalActionError(R.DISCARD_TWO_CARDS, given="['7S']"), 0),
    (IllegalActionError(R.CARD_NOT_HELD, seat=1, cards=("7S", "AH")), 1),
    (IllegalDeclarationError(R.COMBINATION_NOT_HELD, where=("action",), cards=("7S", "8S", "9S"),
                             other=("9S",)), 0),
]

# Refusals that name no rule (the rooms, the sheets' forms), said from their messages.
# Refusals of the rooms and the sheets, each with the English it has always had.
OTHER_REFUSALS: list[tuple[BeloteError, str]] = [
    (RoomError.refused(Refusal.SEAT_TAKEN, seat="N", name="Ann"), "seat N is taken by Ann"),
    (RoomError.refused(Refusal.ONE_SEAT_PER_PLAYER, seat="W"),
     "you already hold seat W at this table: one seat per player"),
    (InvalidRecordError.refused(Refusal.TRICK_POINTS_RANGE, "hand 5", "trick_points.NS",
                                value=170, total=162, team="NS"),
     "hand 5: trick_points.NS: 170 is outside 0..162"),
    (InvalidRecordError.refused(Refusal.DECLARATIONS_SUM, "hand 2", "declarations.EW",
                                value=35, team="EW"),
     "hand 2: declarations.EW: 35 is not a sum of declaration values (20, 50, 100, 150, 200)"),
    (InvalidRecordError.refused(Refusal.NO_BELOTE_SANS_ATOUT, "hand 2", "belote"),
     "hand 2: belote: there is no belote in sans-atout (§7.7)"),
    (InvalidRecordError.refused(Refusal.DECLARATIONS_MAX, "declarations", value=1000,
                                limit=550),
     "declarations: 1000 is more than one team can declare in a hand (at most 550: carrés of "
     "jacks, nines, aces and tens)"),
    (SheetError.refused(Refusal.PER_SEAT_SHEET, "sheet 5", sheet=5, players=3,
                        profile="classic-3p"),
     "sheet 5: a 3-player sheet (classic-3p), scored per seat (docs/rules.md §12): `belote "
     "sheet show 5` shows it; this view keeps two teams (NS, EW)"),
]


def _plain_words(out: str) -> None:
    assert "§" not in out, out
    assert not re.search(r"(?<![\w'’-])[NESW](?![\w'’-])", out), out
    assert not re.search(r"\b(?:trick_points|NS|EW)\b", out), out
    assert not re.search(r"\b[789TJQKA][SHDC]\b", out), out  # cards drawn for people


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize(("exc", "seat"), RULE_REFUSALS,
                         ids=[f"{e.code}-{i}" for i, (e, _) in enumerate(RULE_REFUSALS)])
def test_rule_refusals_have_no_section_numbers_nor_seat_letters(
        lang: str, exc: IllegalActionError, seat: int | None) -> None:
    out = refusals.say_refusal(lang, exc, seat=seat)
    _plain_words(out)
    if lang == "fr":
        assert out != refusals.say_refusal("en", exc, seat=seat), out


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize(("exc", "english"), OTHER_REFUSALS,
                         ids=[f"{e.refusal}" for e, _ in OTHER_REFUSALS])
def test_refusals_have_no_section_numbers_nor_seat_letters(lang: str, exc: BeloteError,
                                                           english: str) -> None:
    """The rooms' and sheets' refusals keep their English (str) and are said from their
    code in plain words: no § number, no seat letter, the teams by their names."""
    assert str(exc) == english
    teams = {"NS": "Nous", "EW": "Eux"}
    out = refusals.say_refusal(lang, exc, teams=teams)
    _plain_words(out)
    if lang == "fr":
        assert out != refusals.say_refusal("en", exc, teams=teams), out


def test_refusals_name_the_reader_and_the_cards() -> None:
    def t(lang: str, exc: IllegalActionError, seat: int | None = None,
          spanish: bool = False) -> str:
        return refusals.say_refusal(lang, exc, seat=seat, spanish=spanish)

    def card(code: RuleCode, c: str) -> IllegalPlayError:
        return IllegalPlayError(code, where=("trick 3",), seat=2, card=c)

    assert t("en", card(R.FOLLOW_SUIT, "TH"), seat=2) == (
        "You may not play 10♥: you must follow the suit that was led when you have it.")
    assert t("fr", card(R.FOLLOW_SUIT, "TH"), seat=2) == (
        "Vous ne pouvez pas jouer le 10 de cœur : il faut fournir à la couleur demandée quand on "
        "en a.")
    assert t("fr", card(R.MUST_TRUMP, "7C"), seat=2,
             spanish=True).startswith("Vous ne pouvez pas jouer le 4 de bastos : ")
    assert t("fr", card(R.MUST_TRUMP, "AH"), seat=2).startswith(
        "Vous ne pouvez pas jouer l'as de cœur : ")
    assert t("fr", card(R.MUST_TRUMP, "QS"), seat=2).startswith(
        "Vous ne pouvez pas jouer la dame de pique : ")
    assert t("fr", card(R.MUST_TRUMP, "JC"), seat=2,
             spanish=True).startswith("Vous ne pouvez pas jouer la sota de bastos : ")
    assert t("fr", IllegalPlayError(R.CARD_NOT_HELD, seat=2, card="KD"), seat=2) == (
        "Vous n'avez pas le roi de carreau.")
    assert t("en", IllegalActionError(R.NOT_YOUR_TURN, seat=2, turn=0, act="play"), seat=2) == (
        "It is not your turn: your partner plays or speaks now.")
    assert t("fr", IllegalActionError(R.NOT_YOUR_TURN, seat=2, turn=1, act="play"), seat=2) == (
        "Ce n'est pas votre tour : c'est à Est.")
    assert t("fr", IllegalBidError(R.SECOND_ROUND_NO_TAKE, seat=2), seat=2) == (
        "Au second tour, on nomme une autre couleur d'atout, ou on passe.")
    assert t("fr", IllegalActionError(R.DISCARD_FIRST, seat=2, turn=2), seat=2) == (
        "Pas encore de carte : écartez d'abord deux cartes.")
    assert t("fr", IllegalActionError(R.NOT_THE_TAKER, seat=2, turn=0), seat=2) == (
        "Votre partenaire a pris le talon : c'est le preneur qui écarte deux cartes, pas vous.")
    refused = OTHER_REFUSALS[2][0]
    assert refusals.say_refusal("fr", refused, teams={"NS": "Nous", "EW": "Eux"}).startswith(
        "Nous ne peut pas avoir fait 170 points de plis")
    not_over = RoomError.refused(Refusal.DEAL_NOT_OVER)
    assert refusals.say_refusal("en", not_over) == "the deal is not over"
    assert refusals.say_refusal("fr", not_over) == "la donne n'est pas finie"
    # an error without a code keeps its message
    assert refusals.say_refusal("fr", BeloteError("something new")) == "something new"


def test_every_rule_code_has_its_english_and_french() -> None:
    """Each refusal of the rules has its sentence in the catalogue, and its French."""
    assert set(refusals.RULE_TEXTS) == set(RuleCode)
    catalogue = dict(_po("fr", "messages"))
    for code, text in refusals.RULE_TEXTS.items():
        assert catalogue.get(text), (code, text)
        assert i18n.gettext("fr", text) != text, (code, text)
    for whys in (refusals._WHY_CARD, refusals._WHY_CALL):
        for code, why in whys.items():
            assert i18n.gettext("fr", why) != why, (code, why)


@pytest.mark.parametrize("code", list(RuleCode))
def test_every_rule_code_is_said_in_both_languages(code: RuleCode) -> None:
    """A refusal of each code, with every field its English names, said in English and in
    French from the code: no field left unsaid, no § number, no English in the French."""
    fields: dict[str, object] = {"seat": 2, "turn": 1, "card": "AH", "cards": ("7S", "8S"),
                                 "other": ("9S",), "call": "80H", "calls": ("S", "C"),
                                 "bid": "90S", "trump": "SA", "limit": 160, "trick": 3,
                                 "phase": "play", "act": "call", "declaration": "tierce",
                                 "given": "[]"}
    for template in ENGLISH[code]:
        exc = IllegalActionError(code, **{k: v for k, v in fields.items()  # type: ignore[arg-type]
                                          if k in template_fields(template)})
        en = refusals.say_refusal("en", exc, seat=2)
        fr = refusals.say_refusal("fr", exc, seat=2)
        assert en and fr and en != fr, (code, en, fr)
        assert "%(" not in en + fr and "§" not in en + fr, (en, fr)


# A value for each field a refusal of the rooms and sheets may carry.
FIELD_SAMPLES: dict[str, object] = {
    "room": "k3x9", "reason": "nobody visited it for 6 hours", "why": "idle",
    "seconds": 21600, "detail": "disk I/O error", "seat": "E", "name": "Ann", "players": 3,
    "seats": "N, E, S", "text": "x", "kind": "carre_J", "size": 70000, "limit": 550,
    "value": 170, "low": 1, "high": 5000, "field": "bots", "n": 3, "sheet": 5,
    "date": "2026-01-02", "profile": "classic-3p", "hand": 6, "total": 162,
    "points": "92 + 80", "by": "NS", "other": "the other team takes no trick: 0",
    "first": 20, "second": 50, "team": "EW", "count": 5, "file": "x.json", "trump": "SA",
    "option": "sa_ta", "problems": "body.bots: Field required", "fields": "body.bots",
    "method": "PUT", "status": 400, "what": "history", "profiles": "classic, coinche",
    "max": 200,
}


def _raised_fields() -> dict[Refusal, set[str]]:
    """The fields each code is raised with anywhere in src/belote: the keywords of every
    call that names ``Refusal.X`` (``RoomError.refused(Refusal.SEAT_TAKEN, seat=...)``,
    the checks' ``bad(field, "", Refusal.X, value=...)``)."""
    import ast

    out: dict[Refusal, set[str]] = {code: set() for code in Refusal}
    root = Path(__file__).resolve().parents[2] / "src" / "belote"
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            args = [part for arg in node.args
                    for part in ((arg.body, arg.orelse) if isinstance(arg, ast.IfExp) else (arg,))]
            for arg in args:
                if (isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name)
                        and arg.value.id == "Refusal"):
                    out[Refusal[arg.attr]] |= {k.arg for k in node.keywords if k.arg}
    return out


RAISED_FIELDS = _raised_fields()


def test_every_refusal_code_has_its_english_and_french() -> None:
    """Each refusal of the rooms, the connections and the sheets has its English (the
    message str() gives) and its sentence in the catalogue, with its French."""
    assert set(REFUSAL_ENGLISH) == set(Refusal)
    assert set(refusals.REFUSAL_TEXTS) == set(Refusal)
    catalogue = dict(_po("fr", "messages"))
    for code, text in refusals.REFUSAL_TEXTS.items():
        assert catalogue.get(text), (code, text)
        assert i18n.gettext("fr", text) != text, (code, text)
    for why in refusals._CLOSED_WHY.values():
        assert catalogue.get(why), why


@pytest.mark.parametrize("code", list(Refusal))
def test_every_refusal_code_is_said_in_both_languages_with_every_field(code: Refusal) -> None:
    """A refusal of each code, with every field its English names and every field it is
    raised with, said in English and in French from the code: each field said but the
    few a sentence leaves out on purpose (refusals.UNSAID_FIELDS), no § number, no
    English in the French."""
    names = template_fields(REFUSAL_ENGLISH[code]) | RAISED_FIELDS[code]
    exc = BeloteError.refused(code, **{name: FIELD_SAMPLES[name] for name in names})
    en = refusals.say_refusal("en", exc)
    fr = refusals.say_refusal("fr", exc)
    assert en and fr and en != fr, (code, en, fr)
    assert "%(" not in en + fr and "§" not in en + fr, (en, fr)
    said = {name for _, name, _, _ in _formats(refusals.REFUSAL_TEXTS[code])}
    unsaid = refusals.UNSAID_FIELDS.get(code, frozenset())
    assert names - unsaid <= said, (code, names - unsaid - said)


def _formats(text: str) -> list[tuple[str, str, str, str]]:
    return [("", m.group(1), "", "") for m in re.finditer(r"%\((\w+)\)s", text)]


def test_the_chart_speaks_the_page_language() -> None:
    from belote.web.chart import running_chart

    svg = running_chart([{"NS": 92, "EW": 70}], 1000, ("Nous", "Eux"),
                        lambda text: i18n.gettext("fr", text))
    assert 'aria-label="Totaux cumulés après chaque donne"' in svg
    assert ">donne<" in svg and ">objectif 1000<" in svg and "Eux: 70 après la donne 1" in svg
    assert ">hand<" in running_chart([{"NS": 92, "EW": 70}], 1000, ("Us", "Them"))


def test_the_words_of_the_table_are_listed_for_translation() -> None:
    assert all(i18n.gettext("fr", w) != w for w in refusals.SEAT_WORDS)
    assert i18n.gettext("fr", present.OUTCOME_LABELS["failed"]) == "chuté"


# --- installable on a phone -------------------------------------------------------------


def test_the_manifest_names_the_app_its_icons_and_colours(client: TestClient) -> None:
    page = client.get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<meta name="theme-color" content="#14532d">' in page
    assert '<script src="/static/app.js" defer></script>' in page
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/manifest+json")
    m = r.json()
    assert m["start_url"] == "/" and m["display"] == "standalone" and m["scope"] == "/"
    assert m["short_name"] == "Belote" and m["name"] and m["theme_color"] == "#14532d"
    sizes = {i["sizes"]: i for i in m["icons"]}
    assert {"192x192", "512x512", "any"} <= set(sizes)
    for icon in m["icons"]:
        got = client.get(icon["src"])
        assert got.status_code == 200 and got.headers["content-type"].startswith(icon["type"])
        if icon["type"] == "image/png":
            w, h = (int(x) for x in icon["sizes"].split("x"))
            assert got.content[:8] == b"\x89PNG\r\n\x1a\n"
            assert int.from_bytes(got.content[16:20], "big") == w
            assert int.from_bytes(got.content[20:24], "big") == h
    fr = client.get("/manifest.webmanifest", headers={"Accept-Language": "fr"}).json()
    assert fr["lang"] == "fr" and fr["name"].startswith("Belote : feuilles de score")


def test_the_service_worker_caches_static_files_only(client: TestClient) -> None:
    r = client.get("/sw.js")
    assert r.status_code == 200 and "javascript" in r.headers["content-type"]
    assert r.headers["cache-control"] == "no-cache"
    js = r.text
    assets = json.loads(re.search(r"const ASSETS = (\[.*?\]);", js).group(1))  # type: ignore[union-attr]
    for path in ("/static/style.css", "/static/table.js", "/static/sheet.js",
                 "/static/icon-192.png", "/static/icon-512.png", "/static/icon.svg"):
        assert path in assets
    for path in assets:
        assert path.startswith("/static/") and client.get(path).status_code == 200, path
    # only GETs of /static/ are answered from the cache; pages, API, WebSocket, POST never
    assert 'if (request.method !== "GET") return;' in js
    assert 'url.pathname.startsWith("/static/")' in js
    assert "/api/" not in js and "/ws/" not in js and "cache.put" in js
    assert js.count("cache.put(") == 1
    put = js.index("cache.put(")
    assert js.rindex('url.pathname.startsWith("/static/")', 0, put) > js.rindex(
        'request.method !== "GET"', 0, put)
    # a new version of the files is a new cache name
    assert re.search(r'const CACHE = "belote-static-[0-9a-f]{16}";', js)
    # the worker registers from every page, at the root scope
    app_js = client.get("/static/app.js").text
    assert 'register("/sw.js", { scope: "/" })' in app_js
