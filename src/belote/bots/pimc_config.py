"""The settings of the PIMC bot (:mod:`belote.bots.pimc`): each setting's kind, default and
help (:data:`SETTINGS`), the enums of the settings that take a word, the presets
(:data:`PRESETS`), the defaults of the card play at two and three players
(:data:`SMALL_TABLE_DEFAULTS`, at three players :data:`THREE_PLAYER_PLAY_DEFAULTS`, at two
:data:`TWO_PLAYER_PLAY_DEFAULTS`, in découverte :data:`DECOUVERTE_PLAY_DEFAULTS`) and of
the bidding search there
(:data:`SMALL_BID_DEFAULTS`, at three players :data:`THREE_PLAYER_BID_DEFAULTS`, at two
:data:`TWO_PLAYER_BID_DEFAULTS`), and the
frozen :class:`PimcConfig` of one bot.  What each setting does is told in
:mod:`belote.bots.pimc`'s docstring; import these names from here (:mod:`belote.bots.pimc`
exports :class:`~belote.bots.pimc.PimcBot` alone).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from belote.bots.base import BotSetting, GameWeighing, check_settings
from belote.cards import ALL_TRUMP, NO_TRUMP, SUIT_LETTERS
from belote.table import DealMode

__all__ = [
    "DECOUVERTE_PLAY_DEFAULTS",
    "FIT_PRIOR",
    "PRESETS",
    "RANDOM_MISS_ODDS",
    "SETTINGS",
    "SMALL_BID_DEFAULTS",
    "SMALL_TABLE_DEFAULTS",
    "THREE_PLAYER_BID_DEFAULTS",
    "THREE_PLAYER_PLAY_DEFAULTS",
    "TWO_PLAYER_BID_DEFAULTS",
    "TWO_PLAYER_PLAY_DEFAULTS",
    "AnswerCheck",
    "Answers",
    "BidPrior",
    "Bidding",
    "CallReading",
    "CardReads",
    "Defence",
    "Discard",
    "DiscardGuess",
    "DiscardPool",
    "HeardReads",
    "KittyRead",
    "Objective",
    "PassModel",
    "PimcConfig",
    "Preset",
    "ReadFit",
]

class Preset(StrEnum):
    """The defaults of the settings a spec does not give (setting ``preset``)."""

    V7 = "v7"  # today's defaults, the SETTINGS' (sized for the compiled solver)
    V1 = "v1"  # the baseline: the defaults of before the compiled solver


class Objective(StrEnum):
    """What the card play maximises (setting ``objective``)."""

    SCORE = "score"
    POINTS = "points"
    GAME = "game"


class Bidding(StrEnum):
    """How the bot calls (setting ``bidding``)."""

    SAMPLING = "sampling"
    HEURISTIC = "heuristic"


class CallReading(StrEnum):
    """How the others' calls are read (settings ``calls`` and ``play_calls``)."""

    HINTS = "hints"
    IGNORE = "ignore"


class CardReads(StrEnum):
    """How the others' cards played are read (setting ``card_reads``)."""

    IGNORE = "ignore"
    LOW = "low"
    MODEL = "model"


class ReadFit(StrEnum):
    """Whether the card model's weight is fitted to the table (setting ``read_fit``)."""

    TABLE = "table"
    FIXED = "fixed"


class HeardReads(StrEnum):
    """Whether the others' announcements are read (setting ``heard_reads``)."""

    MODEL = "model"
    IGNORE = "ignore"


class Defence(StrEnum):
    """What a defender's card play weighs at three players (setting ``defence``, §12.1)."""

    SIDE = "side"  # the side's score alone
    OWN = "own"  # the side's score first, then among the cards within own_margin of the
    # best the seat's own points of the trick its card settles


class Answers(StrEnum):
    """Who answers the bot's card in the trick it plays to (setting ``answers``)."""

    SOLVER = "solver"  # double dummy: every seat answers seeing every hand
    MODEL = "model"  # the seats after the bot in the trick play the heuristic's card
    DEAL = "deal"  # every other seat plays the heuristic's cards to the end of the deal,
    # the bot's own later cards double dummy


class AnswerCheck(StrEnum):
    """What tells whether the model answers for a seat (setting ``answer_check``)."""

    TABLE = "table"  # the seat's cards in the deals done (read_fit=table's count)
    DEAL = "deal"  # and its cards so far in this deal: as many misses as the fewest over
    # the worlds drawn for the decision


class KittyRead(StrEnum):
    """How a kitty defender's worlds place the taker's two cards aside (``kitty_read``)."""

    RULE = "rule"  # as the discard rule lays them aside from his twelve
    UNIFORM = "uniform"  # at random among the unseen cards


class Discard(StrEnum):
    """How the kitty taker lays his two cards aside (setting ``discard``)."""

    RULE = "rule"  # the discard rule's (belote.bots.base.discard_of)
    SEARCH = "search"  # the rule's best pairs weighed over worlds (bots.kitty_discard)


class DiscardPool(StrEnum):
    """The pairs a searched kitty discard weighs (setting ``discard_pool``)."""

    RULE = "rule"  # the discard rule's best pairs
    ANNOUNCE = "announce"  # and the rule's best pair keeping the most declaration points


class DiscardGuess(StrEnum):
    """Where a searched kitty discard's solves start (setting ``discard_guess``)."""

    WORLD = "world"  # at the values of the pairs solved before in the same world
    NONE = "none"  # from scratch (the same values, more positions)


class PassModel(StrEnum):
    """A pass's value in take-or-pass (setting ``pass_model``)."""

    ROLLOUT = "rollout"
    ZERO = "zero"


class BidPrior(StrEnum):
    """The call kept unless the worlds show a better one (setting ``bid_prior``)."""

    HEURISTIC = "heuristic"
    NONE = "none"


# The defaults of the settings not given in a spec, by ``preset``: ``v7`` (the SETTINGS
# defaults) and ``v1`` (those of before the compiled solver).
PRESETS: Final[Mapping[Preset, Mapping[str, Any]]] = {
    Preset.V7: {},
    Preset.V1: {"worlds": 24, "nodes": 200_000, "bid_worlds": 16, "bid_nodes": 1_000_000,
                "play_calls": CallReading.IGNORE, "loose": 0,
                "card_reads": CardReads.IGNORE, "read_fit": ReadFit.FIXED,
                "heard_reads": HeardReads.IGNORE, "objective": Objective.SCORE,
                "kitty_read": KittyRead.UNIFORM, "discard": Discard.RULE},
}
# read_fit=table: the cards read the model is taken to have matched before any deal is
# checked (as if FIT_PRIOR of them had all been matched; the same at every table size),
# and per deal mode the odds of a miss against a match in a world drawn at random among
# those the voids (and the cards out of play) allow, for players the model matches.  Four
# players: measured over 40 seeded heuristic deals, views at tricks 4 and 6: 1,161 of
# 5,517 cards missed, 21% (tests/test_card_model.py checks that such worlds miss some;
# benchmarks/random_miss_odds.py, 1,400 deals of seeds 1-2: 20.1%).  The small tables:
# benchmarks/random_miss_odds.py, the heuristic at every seat, every other seat read
# (docs/results/small-tables-dev-12.md): the stock 11,172 of 37,494 cards missed, 30%
# (2,400 deals, seeds 1-3); 24 cards 7,823 of 57,685, 14% (1,400 deals, seeds 1-2); the
# kitty 3,555 of 18,092, 20%, and six each 4,225 of 17,504, 24% (400 deals, seed 1).
# Découverte is not read.
FIT_PRIOR: Final = 10
RANDOM_MISS_ODDS: Final[Mapping[DealMode, float]] = {
    DealMode.CLASSIC: 0.21 / 0.79, DealMode.AUCTION: 0.21 / 0.79,
    DealMode.STOCK: 0.30 / 0.70,
    DealMode.CARDS_24: 0.14 / 0.86, DealMode.KITTY: 0.20 / 0.80,
    DealMode.SIX_EACH: 0.24 / 0.76,
}
# The card play at two and three players (§12): the defaults of the settings not given.
# The search starts from 10 tricks left (every card of the deals with a bidding, the
# first six tricks of découverte by the heuristic), 32 worlds and 1,000,000 positions a
# card at most (a card's CPU under 0.12 s on the compiled solver; against the budgets of
# before, 16 worlds, 100,000 positions from 7 tricks left: +3.4 points a deal at two
# players, +0.8 at three, on development seeds, docs/results/small-tables-dev-3.md).
# The others' calls are read in the card play (play_calls=hints, small_bid.play_hints: a
# world is kept with the chance that each other seat's first cards, those dealt before
# the bidding, make its calls as the heuristic's; découverte has no calls): at three
# players since docs/results/small-tables-dev-6.md (below), at two players since
# small-tables-dev-28.md: on development seeds, duplicate boards of the stock against the
# pimc of before (which bids as the heuristic), over the calls ignored, +0.58 [0.09, 1.08]
# points a deal (8,000 boards, seeds 9703-9707); a card's CPU median 0.016 s against
# 0.014 s, at most 0.040 s (benchmarks/bench_pimc.py, 30 deals).
# The others' cards are read through the heuristic's card play (card_reads=model) at the
# table sizes whose defaults say so (both: TWO_PLAYER_PLAY_DEFAULTS and
# THREE_PLAYER_PLAY_DEFAULTS, with read_fit=table); read_fit is fixed otherwise (read_weight
# kept) unless given.
SMALL_TABLE_DEFAULTS: Final[Mapping[str, Any]] = {
    "worlds": 32, "tricks": 10, "nodes": 1_000_000, "min_worlds": 2,
    "objective": Objective.SCORE, "play_calls": CallReading.HINTS,
    "card_reads": CardReads.IGNORE, "read_fit": ReadFit.FIXED,
}
# The bidding search at two and three players (§12): the defaults of the settings not
# given (each world solved for its value on the compiled solver: a call's median under
# 0.3 s of CPU, none over 1.5 s, measured by benchmarks/bench_pimc.py --small on
# development seeds).
SMALL_BID_DEFAULTS: Final[Mapping[str, Any]] = {
    "bid_worlds": 64, "bid_nodes": 4_000_000, "bid_min_worlds": 4,
}
# The bidding search at three players (§12.1), over SMALL_BID_DEFAULTS: the taker plays
# alone against two defenders who, double dummy, see each other's cards and never
# misdefend; at the table they do not, and the taker's real card points come out above
# the solve's, not 10 below as at four players (benchmarks/bid_caution.py, heuristic takes
# of 24-card deals: +8.8 [6.9, 10.7] with the heuristic at every seat, 300 deals; over
# 100 deals, +13.2 [10.2, 16.2] for the PIMC bot taking against the heuristic, +5.1
# [2.3, 7.9] against itself, -1.3 [-4.2, 1.6] for the heuristic taking against it; six
# each, +9.3 [6.6, 12.1]).  The search counts the takers' points as the solve's, no
# caution: against the caution of 10, +1.5 [0.0, 3.0] and +1.9 points a deal against the
# heuristic, +2.0 and +0.4 against itself (24 cards), level with the kitty and six each;
# a caution of -10 took more but gained no more (docs/results/small-tables-dev-4.md).
# The spread is the four players' 25 (bid_noise), though at three players the takers' real
# points lie 13 to 14 points around the solve's (benchmarks/dd_error.py, 24 cards and six
# each, both roles), and the bot's own takes win about a fifth of the defence's solved
# points (bid_own_leak 0.2): that model tells made from failed better on the true deal, but
# on paired boards it played level with these defaults (docs/results/small-tables-dev-13.md).
THREE_PLAYER_BID_DEFAULTS: Final[Mapping[str, Any]] = {"bid_caution": 0}
# The bidding search at two players (§12.2), over SMALL_BID_DEFAULTS: with the four
# players' caution of 10 the search took too little (on the same card play its calls were
# level with the heuristic's on fresh seeds, docs/results/small-tables-fresh.md).  The
# opponent's takes are counted with a caution of 5 and the bot's own with 5 - 8 = -3
# (``bid_own_offset``): on development seeds, 1,000 duplicate boards of the stock deal
# against the heuristic, +5.6 [3.8, 7.3] points a deal over the caution of 10
# (docs/results/small-tables-fresh.md, fourth step).  The calls search four times the
# worlds within four times the positions (256 worlds, 16,000,000 positions; every searched
# call reached its 64 worlds well within the budget before): on development seeds,
# duplicate boards of the stock against the pimc of before, +0.44 [0.02, 0.86] points a
# deal over 64 worlds (10,036 boards, the rule set before the last 5,600 were played); a
# searched call's CPU median 0.15 to 0.18 s, at most 0.28 s (bench_pimc.py, 30 deals;
# docs/results/small-tables-dev-28.md, small-tables-dev-29.md).
TWO_PLAYER_BID_DEFAULTS: Final[Mapping[str, Any]] = {
    "bid_caution": 5, "bid_own_offset": -8, "bid_worlds": 256, "bid_nodes": 16_000_000,
}
# The card play at three players (§12.1), over SMALL_TABLE_DEFAULTS: the worlds read the
# others' calls (play_calls=hints, SMALL_TABLE_DEFAULTS' since the two players read them
# too).  On development seeds, duplicate boards against the
# heuristic, over the calls ignored: +1.1 [0.1, 2.0] points a deal with 24 cards (1,000
# boards), +1.0 [-0.6, 2.6] with the kitty (497 boards), docs/results/small-tables-dev-6.md.
# A defender plays for his own points among the cards within 4 points of the best mean for
# the side (defence=own, own_margin=4, §12.1): on development seeds, duplicate boards against
# the heuristic with 24 cards, over the side's play: +0.50 [0.22, 0.78] points a deal (500
# boards; exact ties alone, own_margin=0: +0.16 [0.07, 0.25] on 1,000),
# docs/results/small-tables-dev-15.md.
# The others' cards are read through the heuristic's card play at three players too
# (card_reads=model, every other seat's cards, the other defender's too), its weight fitted
# to the table over a game (read_fit=table: against the heuristic the model misses none of
# its cards and the weight stays 0.25 a miss; against players it misreads it softens
# towards no reading, as at two players, docs/results/small-tables-dev-12.md).  On
# development seeds, duplicate boards against the heuristic, over card_reads=ignore:
# +1.29 [0.20, 2.38] points a deal with 24 cards (600 boards), +1.50 [0.25, 2.75] six
# each (400 boards), +2.14 [0.20, 4.07] with the kitty (300 boards); a card's CPU median
# 0.03-0.05 s, max 0.56 s (docs/results/small-tables-dev-18.md).  More worlds and
# positions (64 worlds, 3,000,000 positions a card) were level there: +0.17 [-0.94, 1.27]
# (24 cards), +0.30 [-1.09, 1.69] (six each).
# The others play the heuristic's cards to the end of the deal in each world, the bot's
# own later cards double dummy (answers=deal), each other seat only while the table fit
# reads it (its own weight per miss at most answer_fit, 0.25; a seat it misreads, such as
# another searching player, answers double dummy).  On development seeds, games to 1000
# against the heuristic with 24 cards (seed 9401, 75 boards of three games, stopped), over
# answers=solver: +2.03 [0.48, 3.58] points a deal (where the bot sits alone +3.5, at two
# seats +0.6), 156 games won against 150.  Duplicate boards, the bots made afresh each
# board (no fit: the bot takes its own other seat for the heuristic): the kitty +0.65
# [-2.77, 4.07] (alone +7.0, two seats -5.5; seed 9405, 95 boards), six each +1.10 [-0.55,
# 2.74] (docs/results/small-tables-dev-23.md); six each in games +0.14 [-1.76, 2.03] (13
# boards, stopped).  A card's CPU median 0.05-0.07 s, max 0.49 s (10 deals a deal mode):
# docs/results/small-tables-dev-25.md.  On fresh deals against the heuristic: 309 of 405
# games with 24 cards, 292 of 405 six each (small-tables-fresh.md, 14th step).
# A seat's cards so far in the deal count in that gate (answer_check=deal: the fewest
# misses over the worlds drawn), so that a player the model misreads is played double
# dummy from the first deal he shows it in, not from the deal after (a bot made afresh,
# as on duplicate boards, never had a deal after).  On development seeds, duplicate
# boards, over answer_check=table: against the pimc of before +0.70 [-0.73, 2.12] points
# a deal with 24 cards (300 boards), +0.32 [-0.39, 1.02] six each (300), +1.20 [-1.67,
# 4.08] with the kitty (109, stopped); against the heuristic +0.62 [-0.38, 1.63] with 24
# cards (300; where the bot sits alone between two heuristic seats +0.22 [-0.21, 0.66]);
# the four pooled +0.62 [-0.02, 1.26] (docs/results/small-tables-dev-26.md).
THREE_PLAYER_PLAY_DEFAULTS: Final[Mapping[str, Any]] = {
    "defence": Defence.OWN, "own_margin": 4.0, "card_reads": CardReads.MODEL,
    "read_fit": ReadFit.TABLE, "answers": Answers.DEAL, "answer_check": AnswerCheck.DEAL,
}
# The card play at two players (§12.2, the stock), over SMALL_TABLE_DEFAULTS: the
# opponent's cards are read through the heuristic's card play at two players
# (card_reads=model, read_weight 0.25 a miss, read_fit=fixed).  On development seeds,
# 1,000 duplicate boards against the heuristic (seed 7901), over card_reads=ignore: +5.8
# [4.3, 7.3] points a deal (docs/results/small-tables-dev-11.md).  Découverte is not
# read (its past views are not rebuilt).  The model's weight is fitted to the table
# (read_fit=table): against the heuristic it plays card for card as read_fit=fixed;
# against the pimc of before (card_reads=ignore), which the model misreads, on
# development seeds over 100 boards of games (seed 8003), +5.0 [0.2, 9.8] points of win
# rate and +1.1 [-0.2, 2.4] points a deal over read_fit=fixed
# (docs/results/small-tables-dev-12.md).
# Reading the opponent as a searching player besides (search_reads=0.4, the setting's
# default 1 being off) was level against the pimc of before: +0.33 [-0.29, 0.95] points a
# deal over 2,000 development boards, a card's CPU median 0.086 s against 0.018 s; it
# sharpens the worlds little (docs/results/small-tables-dev-29.md, read_sharpness.py).
# The opponent's answer in the trick the bot plays to is the heuristic's card play's in
# each world, the rest of the deal double dummy (answers=model), while the opponent's
# cards so far in the deal are the model's (answer_check=deal: from two cards unlike the
# heuristic's he answers double dummy; the pimc of before plays its first two tricks by
# the heuristic's rules and searches from there).  On development seeds, duplicate boards
# of the stock against the pimc of before, over answers=solver: +0.83 [0.27, 1.39] points
# a deal over 5,000 boards (seeds 9903-9904); answers=model without the check +0.54
# [-0.02, 1.11] over 5,000 (seeds 9901-9902; docs/results/small-tables-dev-30.md).
TWO_PLAYER_PLAY_DEFAULTS: Final[Mapping[str, Any]] = {
    "card_reads": CardReads.MODEL, "read_fit": ReadFit.TABLE,
    "answers": Answers.MODEL, "answer_check": AnswerCheck.DEAL,
}
# Découverte (§12.2, 16 tricks), over the two players' defaults: the card play searched from
# the first trick (tricks=16; from the seventh before, the first six the heuristic's
# cards), each decision within 4,000,000 positions (8,000,000 at most: from 16 tricks left
# a world takes some 2,000,000 to 3,000,000, so the first tricks decide from two or three
# worlds and the later ones from 32).  On development seeds, duplicate boards against the
# pimc of before, over tricks=10 with 1,000,000 positions: +10.9 [9.1, 12.7] points a deal
# (seed 9101, 400 boards); a card's CPU median 0.009 s, at most 0.70 s over 30 deals
# (docs/results/small-tables-dev-24.md).  On fresh deals: +15.4 [13.7, 17.1] over the pimc
# of before, 364 of 400 games against the heuristic (small-tables-fresh.md, 13th step).
DECOUVERTE_PLAY_DEFAULTS: Final[Mapping[str, Any]] = {"tricks": 16, "nodes": 4_000_000}
# The kitty at three players (§12.1): a defender's worlds lay the taker's two cards aside as
# the discard rule does (``kitty_read=rule``, the SETTINGS' default; ``uniform`` before, and
# in preset v1).  On development seeds, duplicate boards against the heuristic, over
# ``uniform``: +2.0 [1.0, 3.1] points a deal (seed 7301, 972 boards),
# docs/results/small-tables-dev-7.md.
# The kitty taker's two cards aside are searched (``discard=search``, the SETTINGS'
# default; ``rule`` in preset v1): on development seeds, duplicate boards against the
# heuristic, over the rule's pair: +3.1 [1.4, 4.9] points a deal (seed 7601, 500 boards),
# and +2.1 [0.1, 4.1] weighing the rule's four best pairs alone (discard_pool=rule, 300
# other boards),
# docs/results/small-tables-dev-10.md.  The search decides from two worlds
# (``discard_min_worlds=2``; ``bid_min_worlds``'s 4 before) within 8,000,000 positions
# (5,000,000 before): +1.7 [0.2, 3.2] points a deal over the former (seed 7612, 500
# boards), the rule's pair kept for want of worlds in 10 of 97 discards against 41, a
# discard's CPU median 0.25 s (0.21 s before), at most 0.51 s;
# docs/results/small-tables-dev-14.md.
_NAMED: Final = {**{letter: i for i, letter in enumerate(SUIT_LETTERS)},
                 "SA": NO_TRUMP, "TA": ALL_TRUMP}


SETTINGS: Final[Mapping[str, BotSetting]] = {
    "preset": BotSetting(
        Preset, Preset.V7, "the defaults of the settings not given: v7 [default], or v1 "
        "(the baseline: the budgets of before the compiled solver, the others' choices not "
        "read, no take without two master trumps)"),
    "worlds": BotSetting(int, 64, "worlds solved per card at most", 1),
    "tricks": BotSetting(int, 8, "search from this many tricks left (earlier: heuristic)", 1),
    "nodes": BotSetting(int, 6_000_000, "stop adding worlds past this many solver nodes", 1),
    "min_worlds": BotSetting(int, 2, "worlds solved unless past twice the node budget", 1),
    "seconds": BotSetting(float, 0.0, "stop adding worlds after this time (0: no clock)", 0),
    "objective": BotSetting(
        Objective, Objective.GAME, "card play: the hand's score difference (score), the "
        "card points (points), or the score weighed by the game so far (game: in a game "
        "to a target, the team's chance to win it at four players, the seat's own at "
        "three; elsewhere score; the small tables' default is score)"),
    "bidding": BotSetting(Bidding, Bidding.SAMPLING, "sampling or heuristic"),
    "calls": BotSetting(CallReading, CallReading.HINTS,
                        "read the others' calls as hints, or ignore them"),
    "play_calls": BotSetting(
        CallReading, CallReading.HINTS, "card play: keep the worlds that fit the others' "
        "calls (hints), or ignore the calls"),
    "card_reads": BotSetting(
        CardReads, CardReads.MODEL, "card play: keep a world that breaks the reading of "
        "the others' cards played (a seat that lost a trick played its cheapest card of "
        "the suit) only by chance (low), weigh each world by the opponents' cards and the "
        "others' calls the heuristic would not have made in it (model; at two and three "
        "players every other seat's cards, through the heuristic's play there; the "
        "default at two and three players too), or ignore the cards' choice (ignore)"),
    "read_weight": BotSetting(float, 0.25, "card_reads=low: a world's chance to be kept, "
                              "per clue it breaks; model: a world's weight per call or "
                              "card the heuristic would not have made", 0),
    "read_fit": BotSetting(
        ReadFit, ReadFit.TABLE, "card_reads=model: after each deal, check the opponents' "
        "cards against the model in the deal as it was and soften read_weight towards 1 "
        "(no reading) as they stray from it (table; at two and three players every other "
        "seat is checked, the cards out of play placed too; the default at every table "
        "size), or keep read_weight (fixed)"),
    "heard_reads": BotSetting(
        HeardReads, HeardReads.MODEL, "card_reads=model: read what the others announced "
        "at trick 1 too (a combination heard is held; one held and not heard is a miss), "
        "or ignore it"),
    "model_draws": BotSetting(int, 128, "card_reads=model: worlds drawn and read per "
                              "card at most", 1),
    "model_misses": BotSetting(int, 3, "card_reads=model: a world with this many calls "
                               "and cards the heuristic would not have made is left out",
                               1),
    "search_reads": BotSetting(
        float, 1.0, "card play: a world's weight per past card of another seat that a "
        "search of that seat's own (search_worlds deals it could not tell apart, solved) "
        "puts more than search_margin points below its best (1: not read)", 0),
    "search_from": BotSetting(int, 7, "search_reads: the cards read are those played with "
                              "at most this many tricks left", 1),
    "search_worlds": BotSetting(int, 16, "search_reads: the deals each card read is "
                                "searched over", 1),
    "search_margin": BotSetting(float, 3.0, "search_reads: the points a card may lie "
                                "below the best average before it is a miss", 0),
    "own_points": BotSetting(float, 0.0, "card play, three players: a defender's points "
                             "of the trick he completes count for him alone, this many "
                             "times the share of §12.1 (1: his score less the others' "
                             "mean; 0: his side's score)", 0),
    "defence": BotSetting(
        Defence, Defence.SIDE, "card play, three players, a defender: weigh the side's "
        "score alone (side), or the side's score first and then, among the cards within "
        "own_margin of the best, the points of the trick his card settles for him (won "
        "by him: his own, by the other defender: lost to him) (own; the default at three "
        "players)"),
    "own_margin": BotSetting(float, 0.0, "defence=own: the cards within this many points "
                             "of the best card's mean are equal for the side (0: exact "
                             "ties only; 4 by default at three players)", 0),
    "answers": BotSetting(
        Answers, Answers.SOLVER, "card play: the seats after the bot in the current trick "
        "answer each of its cards double dummy (solver), or as the heuristic's card play "
        "would in each world, the rest of the deal solved double dummy from there (model), "
        "or every other seat plays the heuristic's cards to the end of the deal, the bot's "
        "own later cards double dummy at each of its turns (deal; model and deal answer "
        "for a seat only while its weight per miss fitted to the table is at most "
        "answer_fit, the other seats double dummy; deal is the default at three "
        "players, model at two but in découverte, where no answer is modelled)"),
    "answer_fit": BotSetting(float, 0.25, "answers=model or deal: the model answers for a "
                             "seat only while the card model's weight per miss fitted to "
                             "that seat's cards (read_fit=table) is at most this (1: "
                             "always)", 0),
    "answer_check": BotSetting(
        AnswerCheck, AnswerCheck.TABLE, "answers=model or deal: a seat's weight per miss "
        "counts its cards in the deals done (table), or those and its cards so far in "
        "this deal, as many misses as the fewest of the worlds drawn (deal: a player who "
        "does not play the heuristic's cards is not modelled from the deal he shows it "
        "in; the default at three and two players)"),
    "kitty_read": BotSetting(
        KittyRead, KittyRead.RULE, "card play, three players with the kitty, a defender: "
        "the worlds lay the taker's two cards aside as the discard rule does from his "
        "twelve (rule), or place them at random among the unseen cards (uniform)"),
    "discard": BotSetting(
        Discard, Discard.SEARCH, "three players with the kitty, the taker: lay aside the "
        "best of the discard rule's discard_pairs best pairs, each solved over the same "
        "worlds of the defenders' hands (search) [default], or the rule's two cards (rule)"),
    "discard_pairs": BotSetting(int, 4, "discard=search: the rule's best pairs weighed",
                                1),
    "discard_pool": BotSetting(
        DiscardPool, DiscardPool.ANNOUNCE, "discard=search: the pairs weighed are the "
        "rule's best (rule), or the last of them replaced by the rule's best pair that "
        "keeps the most declaration points when none of them does (announce)"),
    "discard_guess": BotSetting(
        DiscardGuess, DiscardGuess.WORLD, "discard=search: each pair's solve tests first "
        "the values of the pairs solved before it in the same world (world) [default], or "
        "starts from scratch (none): the same values, fewer positions with world, so more "
        "worlds within discard_nodes"),
    "discard_min_worlds": BotSetting(
        int, 2, "discard=search: fewer worlds solved: the rule's pair (0: bid_min_worlds)",
        0),
    "discard_worlds": BotSetting(int, 32, "discard=search: worlds solved at most", 1),
    "discard_nodes": BotSetting(int, 8_000_000, "discard=search: stop adding worlds past "
                                "this many solver nodes (discard_min_worlds worlds at "
                                "least; fewer: the rule's pair)", 1),
    "endgame": BotSetting(int, 0, "card play: from this many tricks left, the seat's "
                          "later cards are one plan for the worlds it cannot tell apart "
                          "(αμ at full depth, four players; 0: off, each world's best)", 0),
    "bid_worlds": BotSetting(int, 40, "worlds solved per call at most", 1),
    "bid_nodes": BotSetting(int, 8_000_000, "stop adding bidding worlds past this many "
                            "solver nodes", 1),
    "bid_min_worlds": BotSetting(int, 4, "fewer worlds solved: the heuristic's call", 1),
    "bid_margin": BotSetting(float, 0.0, "points a take or a bid must gain over a pass"),
    "partner_margin": BotSetting(float, 30.0, "more points to bid over our own contract"),
    "coinche_margin": BotSetting(float, 20.0, "points a coinche or a surcoinche must gain"),
    "pass_model": BotSetting(
        PassModel, PassModel.ROLLOUT, "take-or-pass: the others call as the heuristic "
        "after a pass (rollout), or a pass is 0 (zero)"),
    "bid_prior": BotSetting(
        BidPrior, BidPrior.HEURISTIC, "the call kept unless the worlds show a better one "
        "(heuristic), or none: the best average"),
    "bid_z": BotSetting(float, 1.0, "standard errors a call must beat the prior by", 0),
    "bid_trumps": BotSetting(int, 1, "own trumps searched per call at most", 1),
    "bid_floor": BotSetting(int, 40, "trump_strength below which a trump is not searched"),
    "bid_caution": BotSetting(int, 10, "card points the takers are expected to lose "
                              "against double dummy (negative: to gain)"),
    "bid_own_offset": BotSetting(int, 0, "two and three players: card points added to "
                                 "bid_caution for the bot's own takes only (negative: "
                                 "bolder), not for the others' takes it weighs"),
    "bid_own_leak": BotSetting(float, 0.0, "two and three players: the share of the "
                               "defence's double-dummy card points the bot's own takes "
                               "are expected to win from it at the table (0.2: a fifth), "
                               "on top of bid_caution and bid_own_offset", 0),
    "bid_noise": BotSetting(int, 25, "spread of the takers' points around that", 0),
    "bid_band": BotSetting(int, 20, "two and three players: search a call only when the "
                           "hand's strength lies within this of the heuristic's take", 0),
    "game": BotSetting(
        GameWeighing, GameWeighing.IGNORE, "bidding: a deal's score difference (ignore), "
        "or its score weighed by the game so far (aware: four and three players)"),
    "loose": BotSetting(int, 50, "the heuristic's call (the prior) takes too without two "
                        "master trumps from this strength (0: never)", 0),
}
"""Every setting of the bot by name: its kind, default and help (``pimc:NAME=VALUE``)."""


@dataclass(frozen=True, slots=True)
class PimcConfig:
    """The settings of one PIMC bot, checked, with its preset's defaults (see the
    module docstring, and :data:`SETTINGS` for each)."""

    preset: Preset
    worlds: int
    tricks: int
    nodes: int
    min_worlds: int
    seconds: float
    objective: Objective
    bidding: Bidding
    calls: CallReading
    play_calls: CallReading
    card_reads: CardReads
    read_weight: float
    read_fit: ReadFit
    heard_reads: HeardReads
    model_draws: int
    model_misses: int
    search_reads: float
    search_from: int
    search_worlds: int
    search_margin: float
    own_points: float
    defence: Defence
    own_margin: float
    answers: Answers
    answer_fit: float
    answer_check: AnswerCheck
    kitty_read: KittyRead
    discard: Discard
    discard_pairs: int
    discard_pool: DiscardPool
    discard_guess: DiscardGuess
    discard_min_worlds: int
    discard_worlds: int
    discard_nodes: int
    endgame: int
    bid_worlds: int
    bid_nodes: int
    bid_min_worlds: int
    bid_margin: float
    partner_margin: float
    coinche_margin: float
    pass_model: PassModel
    bid_prior: BidPrior
    bid_z: float
    bid_trumps: int
    bid_floor: int
    bid_caution: int
    bid_own_offset: int
    bid_own_leak: float
    bid_noise: int
    bid_band: int
    game: GameWeighing
    loose: int

    @classmethod
    def of(cls, settings: Mapping[str, Any] | None = None) -> PimcConfig:
        """The config of a spec's settings (``{"worlds": "12"}``, as text or values):
        each checked (an unknown or a bad one refused by name), the others its
        preset's defaults.

        >>> PimcConfig.of({"worlds": "12"}).worlds, PimcConfig.of().objective
        (12, <Objective.GAME: 'game'>)
        >>> PimcConfig.of({"preset": "v1", "worlds": 7}).nodes
        200000
        >>> PimcConfig.of({"preset": "auto"})
        Traceback (most recent call last):
        ...
        belote.errors.OptionError: bot 'pimc': setting 'preset': 'auto' is not one of v7, v1
        """
        given = settings or {}
        return cls.resolved(check_settings("pimc", SETTINGS, given), frozenset(given))

    @classmethod
    def resolved(cls, values: Mapping[str, Any], given: frozenset[str]) -> PimcConfig:
        """The config of every setting's checked value (``values``), those not ``given``
        taking the preset's defaults."""
        preset = Preset(values["preset"])
        defaults = {k: v for k, v in PRESETS[preset].items() if k not in given}
        return cls(**{**values, **defaults})

    def small_table(self, given: frozenset[str], players: int,
                    mode: DealMode | None = None) -> PimcConfig:
        """The config at a table of ``players``, two or three (§12): the settings not
        ``given`` take :data:`SMALL_TABLE_DEFAULTS` (the card play) and
        :data:`SMALL_BID_DEFAULTS` (the bidding), at three players
        :data:`THREE_PLAYER_BID_DEFAULTS` and :data:`THREE_PLAYER_PLAY_DEFAULTS` over
        them, at two :data:`TWO_PLAYER_BID_DEFAULTS` and
        :data:`TWO_PLAYER_PLAY_DEFAULTS`, and in découverte (``mode``)
        :data:`DECOUVERTE_PLAY_DEFAULTS` over those."""
        by_size = ({**THREE_PLAYER_BID_DEFAULTS, **THREE_PLAYER_PLAY_DEFAULTS} if players == 3
                   else {**TWO_PLAYER_BID_DEFAULTS, **TWO_PLAYER_PLAY_DEFAULTS})
        by_mode = DECOUVERTE_PLAY_DEFAULTS if mode is DealMode.DECOUVERTE else {}
        small = {**SMALL_TABLE_DEFAULTS, **SMALL_BID_DEFAULTS, **by_size, **by_mode}
        return dataclasses.replace(self, **{k: v for k, v in small.items() if k not in given})

    def as_dict(self) -> dict[str, Any]:
        """Every setting by name."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
