"""Cards, names and options (docs/rules.md §1, option table; docs/json.md conventions)."""

from __future__ import annotations

import ast
import json
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
    card_tuple,
    parse_card,
    parse_spanish_card,
    parse_trump,
    points_table,
    scan_forward,
    spanish_name,
    spanish_short,
)
from belote.errors import InvalidCardError, OptionError
from belote.options import (
    ALL_PROFILES,
    BOOL_OPTIONS,
    CHOICE_OPTIONS,
    OPTION_NAMES,
    POSITIVE_INT_OPTIONS,
    PROFILES,
    WORD_OPTIONS,
    Bidding,
    DealPattern,
    Deck,
    Rounding,
    TieRule,
    make_rules,
    parse_option_assignment,
    parse_option_text,
    profile_rules,
)
from belote.scoring import Outcome


@given(st.integers(min_value=0, max_value=(1 << 32) - 1))
def test_card_tuple_is_the_cards_of_the_mask_lowest_first(mask: int) -> None:
    assert card_tuple(mask) == tuple(scan_forward(mask))


def test_card_tuple_of_no_card_and_of_every_card() -> None:
    assert card_tuple(0) == ()
    assert card_tuple((1 << 32) - 1) == tuple(range(32))


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
    """The profile table at the top of docs/rules.md decides."""
    c, m, co, ct = (profile_rules(p) for p in PROFILES)
    assert (c.target, m.target, co.target, ct.target) == (1000, 1000, 2000, 2000)
    assert (co.max_bid, ct.max_bid) == (250, 160)
    assert co.generale and co.generale_value == 500 and not ct.generale
    # §4.8: the profile table fixes coinche's 500; the text's default, 1000, is the others'
    # (where the générale is off until chosen, and then pays more than a capot bid).
    assert c.generale_value == m.generale_value == ct.generale_value == 1000
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


ROOT = Path(__file__).resolve().parents[1]
RULES_DOC = ROOT / "docs" / "rules.md"


def _json_text(value: object) -> str:
    """An option value as docs/rules.md writes it (the JSON spelling, unquoted)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


def _glance_table() -> tuple[list[str], dict[str, list[str]]]:
    """docs/rules.md's "Every option at a glance": the header's cells and, per option,
    its row's cells (option, section, values, then one per profile)."""
    text = RULES_DOC.read_text(encoding="utf-8")
    section = text.split("## Every option at a glance", 1)[1].split("\n## ", 1)[0]
    rows = [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in section.splitlines() if line.startswith("|")]
    header, body = rows[0], rows[2:]
    table: dict[str, list[str]] = {}
    for cells in body:
        names = re.findall(r"`([a-z_0-9]+)`", cells[0])
        assert len(names) == 1, cells
        assert names[0] not in table, f"{names[0]} listed twice"
        table[names[0]] = cells
    return header, table


def test_every_option_is_documented_and_every_documented_option_exists() -> None:
    """docs/rules.md's option table names exactly the options of Rules, both ways."""
    _, table = _glance_table()
    assert set(table) - set(OPTION_NAMES) == set(), "documented but not in the code"
    assert set(OPTION_NAMES) - set(table) == set(), "in the code but not documented"


def test_documented_values_and_defaults_are_the_code_s() -> None:
    """docs/rules.md: each option's values, and its default under every profile
    (the code decides; the document must say the same)."""
    header, table = _glance_table()
    profiles = header[3:]
    assert sorted(profiles) == sorted(ALL_PROFILES)
    for name, cells in table.items():
        values = set(re.findall(r"`([^`]+)`", cells[2]))
        if name in BOOL_OPTIONS:
            assert values == {"true", "false"}, name
        elif name in CHOICE_OPTIONS:
            assert values == {_json_text(v) for v in CHOICE_OPTIONS[name]}, name
        elif name == "max_bid":
            assert values == {"null"} and "multiple of 10 from 160" in cells[2], name
        else:
            assert name in POSITIVE_INT_OPTIONS and "positive whole number" in cells[2], name
        for profile, cell in zip(profiles, cells[3:], strict=True):
            shown = re.findall(r"`([^`]+)`", cell)
            expected = _json_text(getattr(profile_rules(profile), name))
            assert shown == [expected], f"{name} under {profile}: {cell!r}, code {expected!r}"


def test_every_option_is_explained_where_it_acts() -> None:
    """Each option appears in bold, **`name`**, in the section that explains it, and the
    section given in the table is that one."""
    text = RULES_DOC.read_text(encoding="utf-8")
    _, table = _glance_table()
    sections = re.split(r"^#+ §", text, flags=re.M)
    for name, cells in table.items():
        where = [s.split()[0] for s in sections[1:] if f"**`{name}`**" in s]
        assert where, f"{name} is never explained in bold"
        listed = {s.strip().lstrip("§") for s in cells[1].split(",")}
        assert set(where) & listed, f"{name}: explained in §{where}, table says {cells[1]}"


def test_every_section_quoted_in_the_code_exists_in_docs() -> None:
    """Every "§6.1"-style reference in the package and the tests (a section of this
    project's rules, not one of a quoted source's own) names a heading of
    docs/rules.md, so that messages and comments point to the right place."""
    text = RULES_DOC.read_text(encoding="utf-8")
    headings = set(re.findall(r"^#+ §(\d+(?:\.\d+)?[a-d]?)\b", text, re.M))
    source_ref = r"(?:FFB(?:-[A-Z])?|seed \d+|S\d|PB|PC|WFR-[A-Z]|WEN)\s*"
    ref = re.compile(rf"(?<![A-Za-z0-9-])({source_ref})?§(\d+(?:\.\d+)?[a-d]?)")
    missing: list[str] = []
    files = [*(ROOT / "src" / "belote").rglob("*.py"), *(ROOT / "tests").rglob("*.py"),
             *(ROOT / "src" / "belote").rglob("*.html"), *(ROOT / "src" / "belote").rglob("*.js")]
    for path in files:
        for m in ref.finditer(path.read_text(encoding="utf-8")):
            if m.group(1) is None and m.group(2) not in headings:
                missing.append(f"{path.relative_to(ROOT)}: §{m.group(2)}")
    assert not missing, missing


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


def test_word_options_are_enums_and_their_json_is_the_word() -> None:
    """Each option that takes a word is read into its enum's member; the option table
    lists the enum's words; the JSON out (options, overrides, json.dumps of the rules'
    values) is the same words as plain strings."""
    for name, kind in WORD_OPTIONS.items():
        assert CHOICE_OPTIONS[name] == tuple(m.value for m in kind), name
        for word in CHOICE_OPTIONS[name]:
            profile = "coinche" if kind is DealPattern and word.count("-") == 2 else "classic"
            value = getattr(make_rules(profile, {name: word}), name)
            assert type(value) is kind and value == word, (name, word)
    rules = make_rules("contree", {"tie_rule": "fail", "rounding": "none"})
    assert rules.tie_rule is TieRule.FAIL and rules.rounding is Rounding.NONE
    assert (rules.deck, rules.bidding) == (Deck.FRENCH, Bidding.AUCTION) and rules.is_auction
    assert rules.overrides() == {"tie_rule": "fail", "rounding": "none"}
    assert all(type(v) is str for v in rules.overrides().values())
    assert all(type(v) is not TieRule for v in rules.options().values())
    assert json.dumps(rules.tie_rule) == '"fail"' and f"{rules.rounding}" == "none"
    assert make_rules("contree", rules.overrides()) == rules
    assert parse_option_text("tie_rule", " made ") is TieRule.MADE
    assert parse_option_text("tie_rule", "coin") == "coin"  # refused by make_rules
    with pytest.raises(OptionError, match=r"^option 'tie_rule': 'coin' is not one of "
                                          r"litige, fail, made$"):
        make_rules("classic", {"tie_rule": "coin"})
    with pytest.raises(OptionError, match=r"^option 'tie_rule': 1 is not one of "):
        make_rules("classic", {"tie_rule": 1})
    with pytest.raises(OptionError, match=r"^option 'deal_pattern': '3-3-2' is not one of "
                                          r"3-2, 2-3$"):
        make_rules("classic", {"deal_pattern": "3-3-2"})
    # A word given to Rules itself (dataclasses.replace) becomes the member too.
    import dataclasses
    assert dataclasses.replace(rules, tie_rule="made").tie_rule is TieRule.MADE  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="'coin' is not one of litige, fail, made"):
        dataclasses.replace(rules, tie_rule="coin")  # type: ignore[arg-type]
    assert [o.value for o in Outcome] == ["made", "failed", "litige", "void", "counted"]


# The names a configuration word is read by: the options that take a word, the profile's
# fixed deck and bidding, and a hand's outcome.
_WORD_NAMES = frozenset({*WORD_OPTIONS, "deck", "bidding", "outcome"})


def _string_comparisons(tree: ast.AST) -> list[tuple[int, str]]:
    """The comparisons of ``tree`` between an option, a deck, a bidding or an outcome
    (an attribute ``rules.tie_rule``, a key ``score["outcome"]`` or a name ``rounding``)
    and a string literal, or a tuple, list or set holding one."""
    def named(node: ast.expr) -> bool:
        if isinstance(node, ast.Attribute):
            return node.attr in _WORD_NAMES
        if isinstance(node, ast.Name):
            return node.id in _WORD_NAMES
        if isinstance(node, ast.Subscript):
            key = node.slice
            return isinstance(key, ast.Constant) and key.value in _WORD_NAMES
        return False

    def literal(node: ast.expr) -> bool:
        if isinstance(node, ast.Constant):
            return isinstance(node.value, str)
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return any(literal(e) for e in node.elts)
        return False

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(named(x) for x in sides) and any(literal(x) for x in sides):
                found.append((node.lineno, ast.unparse(node)))
    return found


def test_no_option_is_compared_with_a_string() -> None:
    """Options, the profile's deck and bidding, and outcomes are compared with their
    enums' members (``rules.tie_rule is TieRule.FAIL``), never with a word: a word
    misspelt would silently be false."""
    root = Path(__file__).resolve().parents[1] / "src" / "belote"
    found = [f"{path.relative_to(root)}:{line}: {text}"
             for path in sorted(root.rglob("*.py"))
             for line, text in _string_comparisons(ast.parse(path.read_text("utf-8")))]
    assert not found, found
    # (the scan finds each kind of comparison it is meant to)
    sample = ast.parse('rules.tie_rule == "fail"\nscore["outcome"] in ("made", "x")\n'
                       'rounding != "none"\nrules.tie_rule is TieRule.FAIL\n')
    assert [line for line, _ in _string_comparisons(sample)] == [1, 2, 3]
