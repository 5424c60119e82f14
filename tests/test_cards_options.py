"""Cards, names and options (RULES.md §1, option table; CONTRACT.md conventions)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from belote.cards import (
    ALL_TRUMP,
    NO_TRUMP,
    CardSet,
    card_name,
    card_symbol,
    parse_card,
    parse_spanish_card,
    parse_trump,
    points_table,
    spanish_name,
    spanish_short,
)
from belote.errors import InvalidCardError, OptionError
from belote.options import (
    OPTION_NAMES,
    PROFILES,
    make_rules,
    parse_option_assignment,
    profile_rules,
)


@given(st.integers(min_value=0, max_value=31))
def test_card_name_round_trip(c: int) -> None:
    assert parse_card(card_name(c)) == c
    assert parse_card(card_symbol(c)) == c
    assert parse_card(card_name(c).lower()) == c
    assert parse_spanish_card(spanish_short(c)) == c


def test_contract_input_forms() -> None:
    assert card_name(parse_card("10♥")) == "TH"
    assert card_name(parse_card("10h")) == "TH"
    assert card_name(parse_card("J♠")) == "JS"
    for bad in ("", "1H", "JX", "10", "HJ", "TT"):
        with pytest.raises(InvalidCardError, match="not a card"):
            parse_card(bad)


def test_1_2_spanish_equivalence() -> None:
    # 4≡7, sota≡J, rey≡K, 1 (as)≡A; oros≡♦.
    assert spanish_name(parse_card("7D")) == "4 de oros"
    assert spanish_name(parse_card("JH")) == "sota de copas"
    assert spanish_name(parse_card("AC")) == "as de bastos"
    assert parse_spanish_card("12 de espadas") == parse_card("KS")
    assert parse_spanish_card("1O") == parse_card("AD")


def test_5_1_points_tables() -> None:
    for trump in range(4):
        table = points_table(trump)
        assert sum(table) == 152
        assert sum(table[trump * 8:trump * 8 + 8]) == 62
    assert sum(points_table(NO_TRUMP)) == 152  # §5.3
    assert sum(points_table(ALL_TRUMP, "pc")) == 152  # §5.4
    assert sum(points_table(ALL_TRUMP, "ffbc")) == 152
    assert sum(points_table(ALL_TRUMP, "scaled")) == 248  # + 10 = 258


def test_trump_parse() -> None:
    assert parse_trump("SA") == NO_TRUMP and parse_trump("ta") == ALL_TRUMP
    assert parse_trump("♥") == 1
    with pytest.raises(InvalidCardError):
        parse_trump("X")


def test_cardset() -> None:
    s = CardSet.parse(["JH", "9H", "AS"])
    assert len(s) == 3 and str(s) == "AS 9H JH" and parse_card("JH") in s
    assert CardSet.parse(["AS"]) == CardSet.parse(["as"])


def test_profile_table_defaults() -> None:
    """The profile table at the top of RULES.md decides."""
    c, m, co, ct = (profile_rules(p) for p in PROFILES)
    assert (c.target, m.target, co.target, ct.target) == (1000, 1000, 2000, 2000)
    assert (co.max_bid, ct.max_bid) == (250, 160)
    assert co.generale and co.generale_value == 500 and not ct.generale
    assert c.declarations and m.declarations and co.declarations and not ct.declarations
    assert ct.belote_on_failure == "defenders" and co.belote_on_failure == "kept"
    assert co.beat_defence and not ct.beat_defence
    assert c.rounding == "none" and co.rounding == ct.rounding == "nearest10_5up"
    assert m.deck == "spanish" and c.deck == "french"
    for r in (c, m, co, ct):
        assert not r.must_undertrump and r.partner_master_exemption and not r.sa_ta
        assert r.undertrump_partner == "allowed" and r.decl_tie == "nobody"
        assert r.tie_rule == "litige" and r.both_cross == "higher_total"
        assert r.surcoinche_factor == 4 and r.double_scope == "whole"


def test_option_errors_name_the_option() -> None:
    with pytest.raises(OptionError, match="unknown profile 'belotte'"):
        make_rules("belotte")
    with pytest.raises(OptionError, match="unknown option 'tie'"):
        make_rules("classic", {"tie": "fail"})
    with pytest.raises(OptionError, match="'must_undertrump': 1 is not true or false"):
        make_rules("classic", {"must_undertrump": 1})
    with pytest.raises(OptionError, match="'min_cut': 4"):
        make_rules("classic", {"min_cut": 4})
    with pytest.raises(OptionError, match="'max_bid'"):
        make_rules("coinche", {"max_bid": 165})
    with pytest.raises(OptionError, match="'deal_pattern'"):
        make_rules("classic", {"deal_pattern": "3-3-2"})
    with pytest.raises(OptionError, match="'target'"):
        make_rules("classic", {"target": 0})
    assert make_rules("coinche", {"max_bid": None}).max_bid is None


RULES_MD = Path(__file__).resolve().parents[2] / "shared" / "RULES.md"


@pytest.mark.skipif(not RULES_MD.exists(), reason="shared/RULES.md is not beside the checkout")
def test_every_option_of_rules_md_exists() -> None:
    """Every option named in RULES.md's two tables is an option of Rules, and back."""
    text = RULES_MD.read_text(encoding="utf-8")
    named: set[str] = set()
    for line in text.splitlines():
        if line.startswith("| `"):
            first_cell = line.split("|")[1]
            named.update(re.findall(r"`([a-z_0-9]+)`", first_cell))
    assert named - set(OPTION_NAMES) == set()
    assert set(OPTION_NAMES) - named == set()


def test_option_assignment_text() -> None:
    assert parse_option_assignment("tie_rule=fail") == ("tie_rule", "fail")
    assert parse_option_assignment("must_undertrump=true") == ("must_undertrump", True)
    assert parse_option_assignment("min_cut=2") == ("min_cut", 2)
    assert parse_option_assignment("max_bid=null") == ("max_bid", None)
    with pytest.raises(OptionError):
        parse_option_assignment("tie_rule")


def test_overrides() -> None:
    r = make_rules("classic", {"tie_rule": "fail"})
    assert r.overrides() == {"tie_rule": "fail"}
    assert set(r.options()) == set(OPTION_NAMES)
