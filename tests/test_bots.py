"""The bots of issue 5 (random, heuristic, pimc), their drivers and `belote simulate`.

docs/rules.md §3 and §4 (calls), §6 (legal cards), §7 (declarations, belote); seed 000
§9 (the heuristic's tips); docs/json.md `belote simulate --json`.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Sequence
from typing import Any

import pytest
from typer.testing import CliRunner

from belote.auction import AuctionCall, Bid
from belote.bidding import Call
from belote.bots import BOT_NAMES, BaseBot, Bot, make_bot, parse_bot_spec, play_deal, play_game
from belote.bots.arena import simulate
from belote.bots.card_score import CardScorer
from belote.bots.heuristic import HeuristicBot, best_round2_suit, bid_strength
from belote.bots.pimc import PimcBot
from belote.bots.random_bot import RandomBot
from belote.cards import HEARTS, SPADES, Card, card_name, parse_card
from belote.cli import app
from belote.declarations import Declaration, DeclarationResult
from belote.errors import IllegalActionError, OptionError
from belote.hand import Contract
from belote.options import Rules, make_rules
from belote.play import Trick
from belote.round import ALL_PASS, OVER, Announced, PlayerView, Round
from belote.table import Phase
from tests.helpers import mask

PROFILES = ("classic", "moroccan", "coinche", "contree")
# PIMC bids by sampling; a low bidding effort keeps whole deals quick on the pure solver.
PIMC_LOW_BIDS = "bid_nodes=250000,bid_worlds=2,bid_min_worlds=1"


def _deal(rules: Rules, seed: int, dealer: int = 0) -> Round:
    deck = list(range(32))
    random.Random(seed).shuffle(deck)
    return Round(rules, dealer, deck)


def _actions(specs: Sequence[str], profile: str, deals: int, seed: int) -> list[Any]:
    """Every action of ``deals`` seeded deals (play_deal refuses an illegal one)."""
    rules = make_rules(profile)
    out: list[Any] = []
    for d in range(deals):
        bots = [make_bot(s, seed + 4 * d + i) for i, s in enumerate(specs)]
        rnd = _deal(rules, seed + d, d % 4)
        play_deal(rnd, bots)
        assert rnd.phase in (OVER, ALL_PASS)
        out.append(rnd.actions_json())
    return out


# --- legal actions, determinism ----------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
def test_3_4_6_random_and_heuristic_play_only_legal_actions(profile: str) -> None:
    """§3/§4 calls and §6 cards: over many seeded deals every answer is one of view.legal_calls
    or view.legal_cards (play_deal raises IllegalActionError otherwise), and every deal ends."""
    played = _actions(["random", "heuristic", "heuristic", "random"], profile, 60, seed=1)
    played += _actions(["random"] * 4, profile, 40, seed=2)
    assert sum(1 for actions in played if any("card" in a for a in actions)) > 40


@pytest.mark.parametrize("profile", ["classic", "contree"])
def test_6_pimc_plays_only_legal_cards(profile: str) -> None:
    """§6: the PIMC bot (low effort) answers legal cards in whole deals."""
    spec = f"pimc:worlds=3,tricks=4,{PIMC_LOW_BIDS}"
    played = _actions([spec, "heuristic", spec, "random"], profile, 4, seed=3)
    assert any(any("card" in a for a in actions) for actions in played)


@pytest.mark.parametrize("spec", ["random", "heuristic", f"pimc:worlds=3,tricks=4,{PIMC_LOW_BIDS}"])
def test_same_seed_same_decisions(spec: str) -> None:
    """A bot is deterministic given its seed: the same deals give the same actions."""
    first = _actions([spec, "random", spec, "heuristic"], "classic", 4, seed=7)
    again = _actions([spec, "random", spec, "heuristic"], "classic", 4, seed=7)
    assert first == again


def test_random_bot_depends_on_its_seed() -> None:
    a = _actions(["random"] * 4, "classic", 6, seed=7)
    bots = [make_bot("random", 1000 + i) for i in range(4)]
    rules = make_rules()
    b = []
    for d in range(6):
        rnd = _deal(rules, 7 + d, d % 4)
        play_deal(rnd, bots)
        b.append(rnd.actions_json())
    assert a != b


# --- the view-only guarantee ---------------------------------------------------------------

_ALLOWED = (int, str, bool, type(None), Rules, Contract, Trick, Declaration, Call, AuctionCall,
            PlayerView, Bid, Announced, DeclarationResult)


def _walk(obj: object, path: str) -> None:
    """Every value reachable from a view is an immutable value of the allowed kinds."""
    if isinstance(obj, tuple):
        for i, x in enumerate(obj):
            _walk(x, f"{path}[{i}]")
        return
    assert isinstance(obj, _ALLOWED), f"{path}: {type(obj).__name__}"
    if dataclasses.is_dataclass(obj) and not isinstance(obj, Rules):
        for f in dataclasses.fields(obj):
            _walk(getattr(obj, f.name), f"{path}.{f.name}")


class SpyBot(BaseBot):
    """Plays like the random bot and inspects everything it is given."""

    kind = "spy"

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seed)
        self.seat = seat
        self.inner = RandomBot(seed)
        self.seen = 0

    def _inspect(self, *args: object) -> None:
        view = args[0]
        assert isinstance(view, PlayerView)
        assert view.seat == self.seat and view.turn == self.seat
        for a in args[1:]:
            assert type(a) is int  # a card
        _walk(view, "view")
        # Nothing of another hand: every card the view names is the seat's own, played,
        # turned up, or shown / said by its owner (§7.4–§7.7).
        named = view.hand | view.played
        if view.turned is not None:
            named |= 1 << view.turned
        for decls in view.shown:
            for d in decls:
                named |= d.cards
        for _s, c in view.belote_cards:
            named |= 1 << c
        for mine in view.my_declarations or ():
            named |= mine.cards
        for said in view.announced:  # §7.4: the kind is heard, the cards are not
            assert all(not hasattr(a, "cards") for a in said or ())
        legal_cards = view.legal_cards
        for c in legal_cards:
            assert view.hand >> c & 1
        assert named & ~(view.hand | view.played | _public(view)) == 0
        self.seen += 1

    def call(self, view: PlayerView) -> str:
        self._inspect(view)
        return self.inner.call(view)

    def play(self, view: PlayerView) -> int:
        self._inspect(view)
        return self.inner.play(view)

    def declarations(self, view: PlayerView) -> Sequence[Declaration] | None:
        self._inspect(view)
        return None

    def say_belote(self, view: PlayerView, card: Card) -> bool:
        self._inspect(view, card)
        return True


def _public(view: PlayerView) -> int:
    m = 1 << view.turned if view.turned is not None else 0
    for decls in view.shown:
        for d in decls:
            m |= d.cards
    return m


@pytest.mark.parametrize("profile", ["classic", "coinche"])
def test_bots_receive_only_their_own_view(profile: str) -> None:
    """play_deal hands each bot a PlayerView of its own seat, whose fields are immutable
    values (no Round, no hands of others, no deck), and nothing else."""
    rules = make_rules(profile)
    spies = [SpyBot(s, s) for s in range(4)]
    for d in range(20):
        play_deal(_deal(rules, 100 + d, d % 4), spies)
    assert all(s.seen > 20 for s in spies)
    assert "hands" not in {f.name for f in dataclasses.fields(PlayerView)}


class _Index:
    """Not an int, but usable as an index: not a card number."""

    def __index__(self) -> int:
        return 3


@pytest.mark.parametrize("answer", [-1, 32, 2**70, 3.0, "3", None, [3], _Index()])
def test_play_deal_refuses_what_is_no_card_number(answer: object) -> None:
    """§6: only an int 0..31 is a card; anything else is refused, naming the bot."""

    class Odd(RandomBot):
        def play(self, view: PlayerView) -> Any:
            return answer

    rnd = _deal(make_rules(), 4)
    rnd.call("take")
    with pytest.raises(IllegalActionError, match="is not a legal card"):
        play_deal(rnd, [Odd(s) for s in range(4)])


def test_play_deal_takes_a_card_number_of_an_int_type() -> None:
    """An int subclass (a bool, an IntEnum...) that is a legal card number is played."""

    class Number(int):
        pass

    class Typed(RandomBot):
        def play(self, view: PlayerView) -> int:
            return Number(super().play(view))

    rnd = _deal(make_rules(), 4)
    rnd.call("take")
    play_deal(rnd, [Typed(s) for s in range(4)])
    assert rnd.phase == OVER


def test_play_deal_refuses_an_illegal_answer() -> None:
    class Cheat(RandomBot):
        def play(self, view: PlayerView) -> int:
            held = [c for c in range(32) if view.hand >> c & 1]
            illegal = [c for c in range(32) if c not in view.legal_cards and c not in held]
            return illegal[0]

    bots: list[Bot] = [Cheat(0), RandomBot(1), RandomBot(2), RandomBot(3)]
    rnd = _deal(make_rules(), 4)
    with pytest.raises(IllegalActionError, match="is not a legal card"):
        for _ in range(20):
            play_deal(rnd, bots)
            rnd = _deal(make_rules(), 5)

    class Mute(RandomBot):
        def call(self, view: PlayerView) -> str:
            return "double"

    with pytest.raises(IllegalActionError, match="answered the call 'double'"):
        play_deal(_deal(make_rules(), 4), [Mute(0)] * 4)


# --- the factory -----------------------------------------------------------------------------


def test_make_bot_specs_and_errors() -> None:
    assert BOT_NAMES == ("random", "heuristic", "pimc")
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot("Heuristic"), HeuristicBot)
    bot = make_bot("pimc:worlds=40,seconds=0.5", seed=3)
    assert isinstance(bot, PimcBot) and isinstance(bot, Bot)
    assert bot.settings["worlds"] == 40 and bot.settings["seconds"] == 0.5
    assert bot.name == "pimc:worlds=40,seconds=0.5"
    assert parse_bot_spec(" pimc : worlds = 3 ") == ("pimc", {"worlds": "3"})
    with pytest.raises(OptionError, match="unknown bot 'alpha'"):
        make_bot("alpha")
    with pytest.raises(OptionError, match="unknown setting 'depth'"):
        make_bot("pimc:depth=3")
    with pytest.raises(OptionError, match="'worlds': 'many' is not a whole number"):
        make_bot("pimc:worlds=many")
    with pytest.raises(OptionError, match="below 1"):
        make_bot("pimc:worlds=0")
    with pytest.raises(OptionError, match="not one of score, points"):
        make_bot("pimc:objective=tricks")
    with pytest.raises(OptionError, match="not KEY=VALUE"):
        make_bot("pimc:worlds")
    with pytest.raises(OptionError, match="takes none"):
        make_bot("random:speed=2")


def test_11_play_game_to_the_target() -> None:
    """§11: a game between bots ends when a team reaches the target."""
    bots = [make_bot("heuristic", s) for s in range(4)]
    match = play_game(make_rules(), bots, seed=3)
    assert match.finished and match.winner in (0, 1)
    assert max(match.score.totals) >= 1000
    short = play_game(make_rules(), bots, seed=3, max_deals=2)
    assert short.deals == 2 and not short.finished


# --- the heuristic -------------------------------------------------------------------------


def test_seed000_9_tip1_no_take_without_two_master_trumps() -> None:
    """Seed 000 §9 tip 1: no take without the jack and the nine, or the jack and the ace."""
    assert bid_strength(mask("9H AH TH KH QH AS"), HEARTS) == -1
    assert bid_strength(mask("JH TH KH QH AS AC"), HEARTS) == -1
    assert bid_strength(mask("JH 9H 7H AS 8D 7C"), HEARTS) > 0
    assert bid_strength(mask("JH AH 7H AS 8D 7C"), HEARTS) > 0
    # points and aces count: the same trumps with side aces are stronger
    assert bid_strength(mask("JH 9H 7H AS AD 7C"), HEARTS) > bid_strength(
        mask("JH 9H 7H 8S 8D 7C"), HEARTS)


def _bid_view(hand: str, turned: str, calls: tuple[Call, ...] = ()) -> PlayerView:
    seat = (len(calls) + 1) & 3
    legal = ("pass", "take") if len(calls) < 4 else ("pass", "S", "D", "C")
    return PlayerView(
        seat=seat, rules=make_rules(), dealer=0, phase=Phase.BIDDING, hand=mask(hand),
        turned=parse_card(turned), calls=calls, contract=None, tricks=(), trick_leader=1,
        trick=(), announced=(None,) * 4, shown=((),) * 4, belote_cards=(), turn=seat,
        legal_calls=legal,
    )


def test_3_2_heuristic_takes_with_the_turned_card_in_hand() -> None:
    """§3.4 / seed 000 §9: the turned card joins the taker's hand: J + turned 9 is enough."""
    bot = HeuristicBot(0, loose=0)  # seed 000 §9 tip 1 kept strictly
    assert bot.call(_bid_view("JH 7H AS AD KC", "9H")) == "take"
    assert bot.call(_bid_view("JH 7H AS AD KC", "8H")) == "pass"
    assert bot.call(_bid_view("7S 8S 9D TC QC", "JH")) == "pass"
    # by default a hand without two master trumps is taken from LOOSE (58 here)
    assert HeuristicBot(0).call(_bid_view("JH 7H AS AD KC", "8H")) == "take"
    assert HeuristicBot(0).call(_bid_view("7S 8S 9D TC QC", "JH")) == "pass"


def test_3_3_heuristic_round_two_names_its_best_suit() -> None:
    """§3.3: round 2 names the strongest other suit; the turned card counts as plain."""
    passes = tuple(Call(s, "pass") for s in (1, 2, 3, 0))
    assert best_round2_suit(mask("JS 9S AS AD 7C"), parse_card("7H"))[0] == SPADES
    bot = HeuristicBot(0)
    assert bot.call(_bid_view("JS 9S AS AD 7C", "7H", passes)) == "S"
    assert bot.call(_bid_view("JS 8S 7D AD 7C", "7H", passes)) == "pass"


def test_seed000_9_heuristic_beats_random_clearly() -> None:
    """Over 300 seeded deals each way, the heuristic team scores far more than the random
    team (a fixed seed: the result is always the same)."""
    rules = make_rules()
    ns = simulate(rules, ["heuristic", "random"] * 2, deals=300, seed=21)
    ew = simulate(rules, ["random", "heuristic"] * 2, deals=300, seed=22)
    heuristic = ns.score[0] + ew.score[1]
    rand = ns.score[1] + ew.score[0]
    assert heuristic > 1.5 * rand, (heuristic, rand)
    # it takes less often but makes its contracts more often than random
    made_h = (ns.made[0] + ew.made[1]) / max(1, ns.taken[0] + ew.taken[1])
    made_r = (ns.made[1] + ew.made[0]) / max(1, ns.taken[1] + ew.taken[0])
    assert made_h > made_r + 0.2


# --- PIMC in hand-made endgames ----------------------------------------------------------------


def _deck_for(hands: Sequence[str], dealer: int, pattern: str = "3-3-2") -> list[Card]:
    """The deck that deals ``hands`` (N E S W) from the eldest in ``pattern`` (§4.1)."""
    rest = [[parse_card(c) for c in h.split()] for h in hands]
    deck: list[Card] = []
    for size in (int(p) for p in pattern.split("-")):
        for i in range(1, 5):
            seat = (dealer + i) & 3
            deck += rest[seat][:size]
            rest[seat] = rest[seat][size:]
    return deck


# Five tricks where everyone follows suit, then three cards each (contrée, N takes 80♥):
# 1 QC AC KC TC (E), 2 7C JC 9C 8C (S), 3 QS JS KS 8S (N), 4 7H 8H QH KH (W), 5 QD ...
_OPENING = "QC AC KC TC 7C JC 9C 8C QS JS KS 8S 7H 8H QH KH QD"


def _endgame(hands: Sequence[str], plays: str) -> Round:
    rnd = Round(make_rules("contree"), 3, _deck_for(hands, 3))
    for call in ("80H", "pass", "pass", "pass"):
        rnd.call(call)
    for name in f"{_OPENING} {plays}".split():
        rnd.play_card(parse_card(name))
    return rnd


ENDGAMES = [
    # N last: E leads TS, S 7S, W discards; AS takes 21 points, 9S gives them away.
    (("QC 8C KS 7H JD AS 9S JH", "AC 7C 8S 8H TD TS KD 9H",
      "KC JC QS QH 9D 7S 7D AH", "TC 9C JS KH QD AD 8D TH"),
     "JD TD 9D TS 7S 8D", 0, "AS"),
    # N last, partner S holds the trick with AD: give it the ten (the ace is out).
    (("QC 8C KS 7H JD TS 7S 9S", "AC 7C 8S 8H TD 7D AS 9H",
      "KC JC QS QH 9D AD KD AH", "TC 9C JS KH QD 8D JH TH"),
     "JD TD 9D 7D AD 8D", 0, "TS"),
    # E (a defender, EW minimise) last: S leads TS; AS takes it.
    (("QC 8C KS 7H JD 8D JH 7D", "AC 7C 8S 8H 9D AS 9S KD",
      "KC JC QS QH TD TS AD AH", "TC 9C JS KH QD 7S 9H TH"),
     "JD 9D TD TS 7S 7D", 1, "AS"),
]


@pytest.mark.parametrize("hands,plays,seat,best", ENDGAMES)
@pytest.mark.parametrize("spec", ["pimc", "pimc:objective=points,worlds=8"])
def test_pimc_finds_the_winning_card_in_endgames(
    hands: Sequence[str], plays: str, seat: int, best: str, spec: str
) -> None:
    rnd = _endgame(hands, plays)
    assert rnd.current_player() == seat and len(rnd.legal_cards()) > 1
    bot = make_bot(spec, seed=5)
    assert isinstance(bot, PimcBot)
    view = rnd.view(seat)
    assert card_name(bot.play(view)) == best
    assert bot.last_worlds == bot.settings["worlds"]  # small positions: no budget hit
    assert set(bot.last_values) == set(view.legal_cards)


@pytest.mark.parametrize("hands,plays,seat,best", ENDGAMES)
def test_seed000_9_heuristic_captures_and_feeds(
    hands: Sequence[str], plays: str, seat: int, best: str
) -> None:
    """Seed 000 §9: the heuristic takes a trick of points with its master, and feeds
    points to a partner whose trick nobody can take any more."""
    rnd = _endgame(hands, plays)
    assert card_name(HeuristicBot(0).play(rnd.view(seat))) == best


def test_seed000_9_tip8_taker_draws_trumps_with_the_master() -> None:
    """Seed 000 §9 tips 2 and 8: the taker, holding the master trump while the defence
    still holds trumps, leads it."""
    hands = ("QC 8C KS 7H TD JH AS 7S", "AC 7C 8S 8H JD 9H TS KD",
             "KC JC QS QH 9D AH 9S AD", "TC 9C JS KH QD TH 8D 7D")
    rnd = _endgame(hands, "TD JD 9D")
    assert rnd.current_player() == 0
    assert card_name(HeuristicBot(0).play(rnd.view(0))) == "JH"


def test_seed000_9_heuristic_plays_low_on_a_trick_it_may_lose() -> None:
    """Partner S leads the ten of spades but E, still to play, may hold the ace: N throws
    a card of no points, not the jack of trumps (20)."""
    rnd = _endgame(ENDGAMES[2][0], "JD 9D TD TS 7S")
    view = rnd.view(0)
    assert {card_name(c) for c in rnd.legal_cards()} == {"JH", "7D", "8D"}
    assert card_name(HeuristicBot(0).play(view)) in ("7D", "8D")


def test_9_pimc_score_objective_counts_the_contract() -> None:
    """§9 (contrée, 80♥ by N; NS hold 11 card points, EW 50): the ``score`` objective is
    the hand's score difference for the seat's team, from NS's value of the rest."""
    rnd = _endgame(*ENDGAMES[0][:2])
    scorer = CardScorer(rnd.view(0))
    # 11 + 0 < 80: failed, the defence scores 160 + 80 (§9.2); own points break ties.
    assert scorer.utility(0, (0, 0)) == pytest.approx(-240 + 11 / 1000)
    # 11 + 101 = 112 made: R(112) = 110 + 80 against 50 (§10 rounding).
    assert scorer.utility(101, (0, 0)) == pytest.approx(190 - 50 + 112 / 1000)
    defender = CardScorer(rnd.view(1))
    assert defender.utility(0, (0, 0)) == pytest.approx(240 + 151 / 1000)


def test_pimc_effort_settings() -> None:
    """Early tricks go to the heuristic; a node budget stops adding worlds (at least
    ``min_worlds``, never past twice the budget); one legal card needs no search."""
    rnd = _endgame(*ENDGAMES[0][:2])
    view = rnd.view(0)
    bot = make_bot("pimc:tricks=2", seed=1)
    assert isinstance(bot, PimcBot)
    assert card_name(bot.play(view)) in ("AS", "9S") and bot.last_worlds == 0
    tight = make_bot("pimc:nodes=40,min_worlds=3", seed=1)
    assert isinstance(tight, PimcBot)
    tight.play(view)
    # past the budget after two worlds, but not twice past it: min_worlds are solved
    assert tight.last_worlds == 3 and 40 <= tight.last_nodes < 80
    over = make_bot("pimc:nodes=5,min_worlds=3", seed=1)
    assert isinstance(over, PimcBot)
    card = over.play(view)
    # the first world alone needs more than twice the budget: its search is cut off,
    # no world counts, and the card is the heuristic's
    assert over.last_worlds == 0 and over.last_nodes == 0
    assert card == HeuristicBot(1).play(view)
    rnd.play_card(parse_card("AS"))
    rnd.play_card(parse_card("JH"))  # N leads again: E must follow with its only trump
    single = make_bot("pimc", seed=1)
    assert isinstance(single, PimcBot)
    view = rnd.view(1)
    assert len(view.legal_cards) == 1 and single.play(view) == view.legal_cards[0]
    assert single.last_worlds == 0


# --- simulate ---------------------------------------------------------------------------------


def test_simulate_same_seed_same_result() -> None:
    rules = make_rules()
    a = simulate(rules, ["heuristic", "random", "random", "heuristic"], deals=40, seed=9)
    b = simulate(rules, ["heuristic", "random", "random", "heuristic"], deals=40, seed=9)
    c = simulate(rules, ["heuristic", "random", "random", "heuristic"], deals=40, seed=10)
    assert a == b and a != c
    assert a.deals == 40
    assert a.all_passes + sum(a.taken) == 40
    assert sum(a.made) + sum(a.failed) + a.litiges == sum(a.taken)


def test_2_4_simulate_counts_all_passes_as_deals() -> None:
    """§2.4: an all-pass is a deal played with no score (cautious bidders pass often)."""
    out = simulate(make_rules(), ["heuristic:threshold=200"] * 4, deals=6, seed=1)
    assert out.all_passes == 6 and out.score == (0, 0)


runner = CliRunner()


def test_cli_simulate_json() -> None:
    """docs/json.md: `belote simulate --json` answers deals, seconds and score; the same
    seed gives the same result."""
    args = ["simulate", "--bots", "heuristic,random,heuristic,random", "--deals", "30",
            "--seed", "4", "--profile", "classic", "--json"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    out = json.loads(first.stdout)
    assert out["deals"] == 30 and isinstance(out["seconds"], float)
    assert set(out["score"]) == {"NS", "EW"}
    again = json.loads(runner.invoke(app, args).stdout)
    out.pop("seconds")
    again.pop("seconds")
    assert out == again
    two = json.loads(runner.invoke(app, [*args[:2], "heuristic,random", *args[3:]]).stdout)
    two.pop("seconds")
    assert two == out


def test_cli_simulate_coinche_and_options() -> None:
    result = runner.invoke(app, ["simulate", "--bots", "heuristic", "--deals", "10", "--seed",
                                 "1", "--profile", "coinche", "--option", "max_bid=180",
                                 "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["profile"] == "coinche" and out["options"] == {"max_bid": 180}


@pytest.mark.parametrize("bots,message", [
    ("random,random,random", "names 3 bots"),
    ("random,alpha", "unknown bot 'alpha'"),
    ("pimc:worlds=x", "not a whole number"),
])
def test_cli_simulate_errors(bots: str, message: str) -> None:
    result = runner.invoke(app, ["simulate", "--bots", bots, "--deals", "3", "--json"])
    assert result.exit_code == 2
    assert message in json.loads(result.stdout)["error"]
    assert "Traceback" not in result.output


def test_cli_simulate_human_form() -> None:
    result = runner.invoke(app, ["simulate", "--bots", "heuristic,random", "--deals", "10",
                                 "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "10 deals" in result.stdout and "heuristic" in result.stdout


def test_pimc_never_searches_past_twice_its_node_budget() -> None:
    """The ``nodes`` setting bounds each decision's work (at most twice it), so a card is
    decided in bounded time whatever the worlds drawn."""
    bot = make_bot("pimc:worlds=24,nodes=20000,bid_nodes=20000", seed=3)
    assert isinstance(bot, PimcBot)
    rules = make_rules()
    for d in range(6):
        rnd = _deal(rules, 300 + d, d % 4)
        while rnd.phase == "bidding":
            rnd.call(bot.call(rnd.view(rnd.current_player())))
            assert bot.last_bid_nodes <= 2 * 20000 + 4  # (the solver stops within a trick)
        while rnd.phase == "play":
            view = rnd.view(rnd.current_player())
            rnd.play_card(bot.play(view))
            assert bot.last_nodes <= 2 * 20000


def test_pimc_settings_do_not_depend_on_the_solver_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A spec decides the same settings on the pure-Python search and on the compiled
    one (v7's, the default, on both: the budgets count positions, the pure search is
    only slower).  The bot holds the build it was made with (``BELOTE_SOLVER`` then)."""
    from belote import solver
    from belote.bots import make_bot
    from belote.bots.pimc_config import PimcConfig

    monkeypatch.setenv("BELOTE_SOLVER", "pure")
    slow = make_bot("pimc")
    assert isinstance(slow, PimcBot) and slow.engine.name == "pure"
    assert slow.config == PimcConfig.of() and slow.config.preset == "v7"
    assert slow.config.worlds == 64 and slow.config.nodes == 6_000_000
    assert slow.settings == slow.config.as_dict()
    assert make_bot("pimc:worlds=7").settings["worlds"] == 7  # a given setting stays
    assert [f.name for f in dataclasses.fields(PimcConfig)] == list(PimcBot.SETTINGS)
    for bad, message in (({"worlds": "x"}, "setting 'worlds': 'x' is not a whole number"),
                         ({"card_reads": "all"}, "setting 'card_reads': 'all' is not one of "
                                                 "ignore, low, model"),
                         ({"world": "3"}, "unknown setting 'world'")):
        with pytest.raises(OptionError, match=f"^bot 'pimc': {message}"):
            PimcConfig.of(bad)
        with pytest.raises(OptionError, match=f"^bot 'pimc': {message}"):
            make_bot("pimc:" + ",".join(f"{k}={v}" for k, v in bad.items()))
    if solver._load_compiled() is not None:
        monkeypatch.setenv("BELOTE_SOLVER", "compiled")
        fast = make_bot("pimc")
        assert isinstance(fast, PimcBot) and fast.engine.compiled
        assert fast.config == slow.config
