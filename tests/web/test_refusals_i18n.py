"""The security middleware's own refusals (issue 13): a page says them in its language
(the ``lang`` cookie, else Accept-Language), in plain words; /api/ keeps its English
JSON, which programs read."""

from __future__ import annotations

import re
from html import unescape

from tests.web.support import TestClient

EVIL = "https://evil.example"
FORM = {"Accept": "text/html,application/xhtml+xml",
        "Content-Type": "application/x-www-form-urlencoded"}


def _sheet(client: TestClient) -> str:
    r = client.post("/sheets", data={"profile": "classic", "name": "S"},
                    follow_redirects=False)
    assert r.status_code == 303
    return str(r.headers["location"])


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def test_refusals_of_pages_in_english_and_french(client: TestClient) -> None:
    sheet = _sheet(client)
    token = client.headers.pop("X-CSRF-Token")
    url = sheet + "/hands"
    body = "taker=NS&points=100"
    cases = [
        ({"Origin": EVIL}, body + f"&csrf_token={token}", 403,
         "Request refused The request comes from another site.",
         "Demande refusée La demande vient d'un autre site."),
        ({}, body, 403, "This form is out of date", "Ce formulaire n'est plus à jour"),
        ({}, "x" * 1_100_000, 413, "The request is larger than 1000000 bytes",
         "La demande dépasse 1000000 octets"),
    ]
    for extra, content, status, english, french in cases:
        r = client.post(url, content=content, headers={**FORM, **extra},
                        follow_redirects=False)
        assert r.status_code == status and r.headers["content-type"].startswith("text/html")
        assert english in _text(r.text) and '<html lang="en">' in r.text, r.text
        r = client.post(url, content=content,
                        headers={**FORM, **extra, "Accept-Language": "fr-BE,fr;q=0.9"},
                        follow_redirects=False)
        assert r.status_code == status
        assert french in _text(r.text) and '<html lang="fr">' in r.text, r.text
        assert "Retour à l'accueil" in _text(r.text)
    # the FR | EN switch's cookie wins over the browser's language
    client.cookies.set("lang", "en")
    r = client.post(url, content=body, headers={**FORM, "Accept-Language": "fr"},
                    follow_redirects=False)
    assert "This form is out of date" in _text(r.text)
    client.cookies.set("lang", "fr")
    r = client.post(url, content=body, headers=FORM, follow_redirects=False)
    assert "Demande refusée" in _text(r.text)
    # nothing was added
    assert client.get("/api" + sheet).json()["hands"] == []


def test_api_refusals_keep_their_english_json(client: TestClient) -> None:
    client.cookies.set("lang", "fr")
    token = client.headers.pop("X-CSRF-Token")
    r = client.post("/api/rooms", json={}, headers={"Accept-Language": "fr",
                                                    "Origin": EVIL, "X-CSRF-Token": token})
    assert r.status_code == 403 and r.json() == {
        "error": "refused: the request comes from another site (Origin/Referer)",
        "code": "cross_site_request"}
    r = client.post("/api/rooms", json={})
    assert r.status_code == 403 and r.json()["code"] == "bad_csrf"  # (no token)
    r = client.post("/api/rooms", content=b"x" * 1_100_000,
                    headers={"Accept": "text/html", "Accept-Language": "fr"})
    assert r.status_code == 413 and r.json() == {
        "error": "the request body is larger than 1000000 bytes", "code": "request_too_large"}


def test_the_pages_say_the_refusals_of_rooms_and_sheets_in_french(client: TestClient) -> None:
    """A room or a sheet that does not exist, a hand refused by the sheet's form: said
    in French from their codes, the teams by their names."""
    fr = {"Accept": "text/html", "Accept-Language": "fr"}
    assert "Cette salle n'existe pas (elle a peut-être fermé)." in _text(
        client.get("/rooms/nope", headers=fr).text)
    assert "Il n'y a pas de feuille de score numéro 42." in _text(
        client.get("/sheets/42", headers=fr).text)
    r = client.post("/sheets", data={"profile": "coinche", "team_ns": "Nous",
                                     "team_ew": "Eux"}, follow_redirects=False)
    sheet = str(r.headers["location"])
    r = client.post(sheet + "/hands", data={"taker": "NS", "points": "92", "contract": "85"},
                    headers=fr)
    assert r.status_code == 422
    assert "Le contrat 85 n'est pas une enchère : un multiple de 10, de 80 à 250." in _text(
        r.text)
    r = client.post(sheet + "/hands", data={"taker": "NS", "points": "92", "contract": "80",
                                            "multiplier": "3"}, headers=fr)
    assert r.status_code == 422
    assert ("Le multiplicateur est 1, 2 (coinche) ou 4 (surcoinche), pas 3."
            in _text(r.text))
    r = client.post(sheet + "/hands", data={"taker": "NS", "points": "92", "contract": "80",
                                            "decl_NS_tierce": "6"}, headers=fr)
    assert r.status_code == 422
    assert ("Annonces par nom : indiquez combien de chaque sorte, de 0 à 5, pas 6."
            in _text(r.text))
