"""Refusals of the rules said at the table from their codes (docs/json.md, "Refusals by
code"), never from the engine's English: the WebSocket's error message carries the
rule's code beside the player's sentence, and rewording the engine's English changes
nothing the player reads, in French or in English."""

from __future__ import annotations

import random
from types import MappingProxyType

import pytest

from belote import errors
from belote.actions import PLAIN_PLAYS
from belote.cards import parse_card
from belote.errors import IllegalActionError, IllegalPlayError, RuleCode
from belote.play import SEAT_NAMES
from belote.web import refusals
from tests.web.support import Table, TestClient


def _reworded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every English message of the engine said in other words."""
    monkeypatch.setattr(errors, "ENGLISH", MappingProxyType({
        code: tuple(f"REWORDED {code}: " + t for t in templates)
        for code, templates in errors.ENGLISH.items()}))
    monkeypatch.setattr(errors, "WHY", MappingProxyType({
        code: f"REWORDED {why}" for code, why in errors.WHY.items()}))


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_rewording_the_engine_changes_nothing_the_player_reads(
        client: TestClient, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """docs/rules.md §6: an illegal card is refused with the rule it breaks, in the
    player's language; the page's words come from the rule's code and its fields, so that
    the engine's English may be reworded without the French (or English) page showing it."""
    client.headers["Accept-Language"] = lang  # (the sockets' language)
    with Table(client) as table:
        table.start()
        seat, card = table.to_illegal_card(random.Random(8))
        before = table.act(seat, {"type": "play", "card": card})
        assert before["type"] == "error"
        code = RuleCode(before["code"])  # the rule refused, beside the sentence
        assert code.section.startswith("§6")
        rnd = table.room.round
        assert rnd is not None
        with pytest.raises(IllegalActionError) as refused:
            rnd.verify(PLAIN_PLAYS[parse_card(card)])
        english = str(refused.value)
        _reworded(monkeypatch)
        with pytest.raises(IllegalActionError) as again:
            rnd.verify(PLAIN_PLAYS[parse_card(card)])
        assert str(again.value) != english and "REWORDED" in str(again.value)  # reworded
        after = table.act(seat, {"type": "play", "card": card})
        assert after == before  # the same sentence, the same code
        assert "REWORDED" not in after["message"]
        if lang == "fr":
            assert after["message"].startswith("Vous ne pouvez pas jouer ")


def test_a_refusal_of_the_rules_carries_its_code_and_one_of_no_rule_none(
        client: TestClient) -> None:
    """§0.1: a call out of turn is refused with its code beside the sentence; a refusal
    that names no rule (a call that is no word) carries its own code, no rule's."""
    with Table(client) as table:
        table.start()
        turn = SEAT_NAMES.index(table.latest[0]["deal"]["turn"])
        other = (turn + 1) % 4
        answer = table.act(other, {"type": "call", "call": "pass"})
        assert answer["type"] == "error" and answer["code"] == "not_your_turn"
        assert answer["message"].startswith("It is not your turn")
        answer = table.act(turn, {"type": "call", "call": 3})  # no call at all
        assert answer == {"type": "error", "message": "The field call is not valid.",
                          "code": "bad_field"}


def test_rewording_every_message_changes_no_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every code with the fields of each of its English messages: the same French and
    English sentences once the engine's English is reworded."""
    samples = [IllegalPlayError(RuleCode.FOLLOW_SUIT, where=("trick 2",), seat=1, card="TH"),
               IllegalActionError(RuleCode.NOT_YOUR_TURN, seat=2, turn=0, act="play"),
               IllegalActionError(RuleCode.SECOND_ROUND_NAME_A_SUIT, seat=2, call="H",
                                  calls=("S", "C")),
               IllegalActionError(RuleCode.BID_TOO_LOW, seat=1, call="80H", bid="90S")]
    said = {(lang, i): refusals.say_refusal(lang, e, seat=e.seat)
            for lang in ("fr", "en") for i, e in enumerate(samples)}
    english = [str(e) for e in samples]
    _reworded(monkeypatch)
    assert all("REWORDED" in str(e) and str(e) != old for e, old in zip(samples, english,
                                                                          strict=True))
    for (lang, i), text in said.items():
        assert refusals.say_refusal(lang, samples[i], seat=samples[i].seat) == text
