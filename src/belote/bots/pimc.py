"""The PIMC bot: perfect-information Monte Carlo over deals consistent with the view
(docs/rules.md §3–§9, and §12 at the tables of three and two).

Card play, at every table.  For a card decision the bot samples *worlds*: deals
of the hidden cards that agree with everything its seat knows
(:mod:`belote.bots.knowledge`, drawn by :mod:`belote.bots.sampling`: its own
cards, the cards played, the turned card in the taker's hand, the declarations
shown at trick 2, belote said, the voids revealed by the play under the table's
options; at three and two players the cards face up or out of play and
découverte's face-down cards), solves each world double-dummy with
:func:`belote.solver.solve` (the build of the search the bot was made with,
:attr:`PimcBot.engine`), and plays the card with the best average for its side.
At three and two players (§12) the settings not given take
:data:`SMALL_TABLE_DEFAULTS` (32 worlds, 1,000,000 nodes, from 10 tricks left; at two
players the calls not read in the card play, at three read; at two the others' cards
read through the model, at three not, see below; découverte's 16 tricks searched from
the first, 4,000,000 nodes, :data:`DECOUVERTE_PLAY_DEFAULTS`), and the kitty taker's discard is
searched (``discard=search``, below); the bidding is searched there too
(:mod:`belote.bots.small_bid`, see below).
The position of a view in a world and its score are
:mod:`belote.bots.card_score`'s; the pieces of the bidding search (a call's
option, a solved world's outcome, its score, the pass rollout) are
:mod:`belote.bots.bid_search`'s.

The objective (setting ``objective``):

- ``score``: the hand's score difference for the bot's team (docs/rules.md
  §8: made, failed, litige, capot; §9 in an auction), from the trick points
  already won, the solver's value of the rest, the declarations compared at
  trick 2 (§7.5) and the belote said or held in the world (§7.7); with the
  team's card points as a small tie-break;
- ``points``: the card points of the remaining tricks (NS maximise the solver's
  value, EW minimise it);
- ``game`` [default]: as ``score``, each hand's scores weighed by the game so far as
  ``game=aware`` weighs a call's (:class:`belote.bots.bid_search.GameOutlook`: about
  the score difference far from the target; near it, the change in the team's
  chance to win the game), at four players in a game to a points target (§11);
  at three players in such a game, the change in the seat's own chance to win it
  (:class:`belote.bots.bid_search.SeatOutlook`: about the seat's score less the
  others' mean far from the target; the defenders' later tricks split evenly within
  a world, :meth:`belote.bots.card_score.CardScorer.seat_scores`; not the default
  there, :data:`belote.bots.pimc_config.SMALL_TABLE_DEFAULTS`); elsewhere ``score``.

Each card decision solves up to ``worlds`` worlds (default 64) and stops adding
worlds once the solver has searched ``nodes`` positions (default 6,000,000;
deterministic and machine-independent) with at least ``min_worlds`` solved
(default 2) or twice as many with fewer, or once ``seconds`` of wall time have
passed (default 0: no clock, since a clock makes the choice depend on the
machine's load).  The search starts at ``tricks`` tricks left (default 8: from
trick 1; a smaller value plays the earlier tricks by the heuristic).  When not
one world could be solved within the budget the card is the heuristic's.

The worlds of the card play fit the others' calls too (setting ``play_calls``:
``hints`` [default] or ``ignore``): a world is kept only when the hands it gives
the other seats, with the cards they have played, fit the hints of
:func:`belote.bots.bid_sampling.play_hints` (the taker of a take-or-pass deal
holds the heuristic's take; in an auction, a bid's strength, a coincher's trumps,
an opening pass's weakness); the worlds kept are uniform among those that fit.
At three and two players ``play_calls=hints`` (the default there too,
:data:`belote.bots.pimc_config.SMALL_TABLE_DEFAULTS`) keeps a
world with the chance that each other seat's first cards, the ones dealt before the
bidding, drawn at random among its cards in that world, make every call it made as the
heuristic's (:func:`belote.bots.small_bid.play_hints`).
At three players with the kitty (§12.1) a defender's worlds may read the taker's two
cards aside (setting ``kitty_read``: ``rule`` [default] or ``uniform``): with ``rule`` they are
the discard rule's (:func:`belote.bots.base.discard_of`, every bot's default) from the
taker's twelve cards drawn at random among those that fit what was seen
(:class:`belote.bots.sampling.DiscardReadSampler`; :attr:`PimcBot.kitty_fallbacks`
counts the worlds drawn uniform when the rule's draws kept failing); with ``uniform``
they lie at random among the unseen cards.  The taker knows his own discard.
The taker lays his two cards aside (setting ``discard``) by search (``search`` [default;
``rule`` in preset v1], :class:`belote.bots.kitty_discard.DiscardSearch`) or by the rule
(``rule``, :func:`belote.bots.base.discard_of`). By search the rule's ``discard_pairs``
best pairs (default 4; with ``discard_pool=announce`` [default] the last of them replaced,
when none keeps the most declaration points ten of his cards can hold, by the rule's best
pair that keeps them) are each solved double-dummy from the eldest's lead over the same
worlds of the defenders' ten cards each (kept when their passes fit, as the bidding search
reads them), the two aside counted in his tricks, and scored as the bidding search scores
a world (``bid_noise``), each pair's solve testing first the values of the pairs solved
before it in that world (``discard_guess=world`` [default]; ``none``: from scratch, the
same values, more positions); worlds are added up to ``discard_worlds`` (default 32) until
``discard_nodes`` positions (default 8,000,000, never past twice that) with at least
``discard_min_worlds`` (default 2; 0: ``bid_min_worlds``'s); the best mean is laid aside,
the rule's pair on a tie or with too few worlds. A defender's ``kitty_read=rule`` still
reads the rule's pair.
The others' choices are read too (setting ``card_reads``: ``model`` [default],
``low`` or ``ignore``).  With ``card_reads=low`` a world that breaks a clue of
:class:`belote.bots.card_reading.CardReading` (a seat whose side lost a trick
played its cheapest card of that suit) is kept with probability ``read_weight``
(default 0.25) per clue broken, so that the worlds kept lean towards those the
others' choices make likely.  When more than 50 worlds a world wanted have
been rejected (by the hints or the reading), both are dropped for that decision
(:attr:`PimcBot.last_relaxed`).  With ``card_reads=model`` every card the opponents
chose is read (at two and three players every other seat's, the other defender's too),
and in take-or-pass at four players every call of the other seats: up to
``model_draws`` worlds (default 128) are drawn, each weighed by ``read_weight`` to the
power of its *misses*, the opponents' past cards that the heuristic's card play would
not have chosen with the hands that world gives them and the calls the heuristic would
not have made with five of the cards it gives the caller, drawn at random as the first
five dealt (:class:`belote.bots.card_model.PlayModel`); the worlds are solved the
likeliest first, those with ``model_misses`` misses or more (default 3) left out, and
each card's average is weighed; drawing stops once ``worlds`` worlds miss nothing.
At two and three players (§12) the model is the heuristic's card play at that table
(its past views rebuilt with the cards face up, the stock or the kitty's cards out of
play, and the kitty's taker's own two cards aside: in a world, its cards out of play);
the worlds weighed are drawn as the unweighed ones (the calls' hints at three players,
the discard rule with the kitty), ``read_fit`` is fitted as below (``table``,
:data:`belote.bots.pimc_config.TWO_PLAYER_PLAY_DEFAULTS` and
:data:`belote.bots.pimc_config.THREE_PLAYER_PLAY_DEFAULTS`), and découverte is
not read.  It is the default at two players
(:data:`belote.bots.pimc_config.TWO_PLAYER_PLAY_DEFAULTS`: +5.8 [4.3, 7.3] points a deal
over ``card_reads=ignore`` against the heuristic on development seeds) and at three
(:data:`belote.bots.pimc_config.THREE_PLAYER_PLAY_DEFAULTS`: +1.3 [0.2, 2.4] with 24
cards, docs/results/small-tables-dev-18.md).
With ``heard_reads=model`` [default] what the other seats announced with their
first card is read too (§7.4; the table hears a combination's kind and height,
and the side that loses the comparison never shows its cards, §7.6): the worlds
are drawn among the deals in which each seat held what it announced
(:class:`belote.bots.card_model.HeldSampler`), and a world in which a seat would
have announced something else (a tierce held and nothing said) counts one miss.
The model is the heuristic: against other players it misleads.  With
``read_fit=table`` [default] the bot checks the model once a deal, at its last
card, against the deal as it was (the cards played, and every placing of the few
cards it has not seen that the voids allow, at two and three players the cards out
of play among them: the stock's, the kitty's two aside, six each's three; the fewest
misses counting): the odds of a
miss against a match among the cards read so far (the opponents' at four players,
every other seat's at two and three; with :data:`FIT_PRIOR` cards matched before any
deal) over those of a world drawn at random at that deal mode
(:data:`RANDOM_MISS_ODDS`: 21% of the cards missed at four players, 30% with the stock)
become the weight per miss, at least
``read_weight``; at 1 the model is not read at all (the worlds are drawn as with
``card_reads=ignore``, still holding what was announced).  Against the heuristic
nothing is missed and the bot plays as with ``read_fit=fixed``; at two players, against
the ``pimc`` of before (which the model misreads) it won +5.0 [0.2, 9.8] points of win
rate more than ``read_fit=fixed`` on development seeds (100 boards of games).
With ``search_reads`` below 1 (default 1: off; two and three players, with
``card_reads=model``, not in découverte) the other seats' cards are read as a searching
player's too (:class:`belote.bots.solved_reading.SearchModel`): each card another seat
chose with at most ``search_from`` tricks left (default 7) is searched from that seat's
view then, rebuilt in the world, over ``search_worlds`` deals (default 16) drawn as that
view allowed them, each solved; a card more than ``search_margin`` points (default 3)
below the best average is a miss, and each of the first ``worlds`` worlds (those the
heuristic's model weighed, else as many drawn fitting the calls) is weighed by
``search_reads`` to the power of its misses.  A searching player seldom plays such a
card in the deal as it lies; the heuristic's model, blunt against him, tells little.

At three players each plays for himself (§12.1): a defender scores his own trick
points and belote and half the rest of his side's score, so that his score less the
others' mean counts each point he takes from the other defender twice as much as a
point the side takes from the taker.  The search solves side against side and cannot
tell which defender takes the later tricks; with ``own_points`` (default 0: off,
level on development seeds) a defender's card that settles the trick in a world (he
completes it, or nobody after him holds a card that beats it) adds ``own_points``
times twice the points changing hands (the trick's cards but the winning one, the last
trick's 10) when he wins it, and takes as much off when the other defender does
(:meth:`belote.bots.card_score.CardScorer.seat_bonus`): he no longer feeds his points
to the other defender's trick.
With ``defence=own`` [default at three players, with ``own_margin=4``; ``side``
elsewhere, where it changes nothing] a defender keeps the side's value as the first
criterion (failing the taker comes first) and, among the cards within ``own_margin``
points of the best card's mean (0: exact ties), plays the one whose trick brings
him the most of his own points: the mean over the worlds of the points of the trick his
card settles (:class:`belote.bots.card_score.TrickShare`: the whole trick's when he wins
it, as many less when the other defender does, nothing when the taker does or while a
later seat may still beat it), then the better value (:meth:`PimcBot.choose_card`).  The
later tricks stay split evenly: the solver gives each card's value, not its line.  The
taker, and every seat at two and four players, play as with ``side``.  On development
seeds, duplicate boards against the heuristic with 24 cards, over ``side``: +0.50 [0.22,
0.78] points a deal with ``own_margin=4`` (500 boards), +0.16 [0.07, 0.25] with exact ties
(1,000 boards; docs/results/small-tables-dev-15.md).

Double dummy every other seat answers the bot's card perfectly, seeing every hand;
the players at the table do not.  With ``answers=model`` (default ``solver``: double
dummy) the seats after the bot in the current trick play, in each world and after each
legal card of the bot, the card the heuristic's card play would (the model of
``card_reads=model``, :meth:`belote.bots.card_model.PlayModel.answer`: each seat's view
as it would stand rebuilt in the world, a forced card not asked), and only from the
trick's end is the deal solved double dummy (:meth:`PimcBot._answered`: the trick's
points and the value of the rest, as the solver's ``moves`` count them, so a world's
values are the solver's where every answer is forced or double dummy's).  The bot's
later cards and every later trick stay double dummy; the scorer (``CardScorer``, every
objective, ``own_points``) scores these values as the solver's, and ``defence=own``'s
:class:`~belote.bots.card_score.TrickShare` and the endgame's αμ (``endgame``, four
players) are left on the world's hands and the solver's values.  The model answers for a
seat only while the table fit says it reads that player: the seat's weight per miss
(:meth:`read_weight` of its own cards, :attr:`PimcBot.seat_fits`, with
``read_fit=table``; with ``read_fit=fixed``, ``read_weight``) at most ``answer_fit``
(default 0.25, the base weight: against the heuristic nothing is missed); a seat above it
answers double dummy (so at a three-player table where one other seat is the heuristic
and the other a player the model misreads, only the first is modelled), and with no
seat read the answers are double dummy's (:attr:`PimcBot.answers_on` and
:attr:`PimcBot.answers_off` count the decisions each way).  Not in découverte.
The fit counts the deals done only, so a bot made afresh (each board of a duplicate
match) models every seat through its first deal; with ``answer_check=deal`` (default at
three and two players) a seat's cards so far in the deal being played count too
(:meth:`PimcBot._deal_misses`): the fewest misses of its cards over the worlds drawn for
the decision (``card_reads=model``'s draws; never fewer than an earlier decision of the
deal found), its cards played counted read, added to its record for the gate (with 24
cards one miss shuts a seat not yet read, at two players two; a seat matched over many
deals stays modelled).  A player the model misreads (another searching bot, the bot's
own other seat) is then played double dummy from the deal it shows it in
(:attr:`PimcBot.answers_checked` counts, decision by decision, the seats so left out
that the fit alone would have modelled).
With ``answers=deal`` the model plays every other seat to the end of the deal, past the
current trick too (their views rebuilt after the tricks completed since, the model
foreseeing no later announcement nor belote), and the bot's own later cards are at each
of its turns the best double dummy for its side in that world
(:meth:`PimcBot._played_out`); the same gate, the same scoring.

From ``endgame`` tricks left (default 0: never), the worlds are not averaged card
by card: :func:`belote.bots.endgame.fused_values` searches them together, the
bot's own later cards one plan for the worlds it cannot tell apart and the other
seats seeing every hand (αμ at full depth), and each card is rated by its best
plan's average score; this removes the strategy fusion of the average (which
credits the bot with knowing the world when it plays its later cards).  It
changes nothing with two cards left, the last one being forced.

The settings are read into one frozen :class:`PimcConfig` (:meth:`PimcConfig.of`
checks a spec's settings, with the errors of :func:`belote.bots.base.check_settings`);
each setting that takes a word is an enum (:class:`Objective`, :class:`CardReads`...).
They, their defaults and the presets (the names in capitals here) live in
:mod:`belote.bots.pimc_config`, which is where to import them from.

Presets (setting ``preset``): the settings not given in a spec take the
defaults of ``v7`` [default] (the defaults above) or of ``v1``, the baseline, the
defaults of before the compiled solver
(``worlds=24,nodes=200000,bid_worlds=16,bid_nodes=1000000,play_calls=ignore,
loose=0,card_reads=ignore,read_fit=fixed,heard_reads=ignore,objective=score,
kitty_read=uniform,discard=rule``):
``pimc:preset=v1`` plays as the bot did then.  A spec decides the same on the
compiled solver and on the pure-Python one (its budgets count positions, not
time; only ``seconds`` reads a clock): the pure search is only slower, some fifty
times.  The presets in between were removed; their results stay in docs/results/
as history, and each is these settings on ``v7``:

- ``v6``: ``read_fit=fixed`` (the card model's weight not fitted to the table);
- ``v5``: ``read_fit=fixed,heard_reads=ignore,objective=score`` (the announcements not
  read, the game not weighed);
- ``v4``: ``v5`` and ``card_reads=ignore`` (the others' cards not read);
- ``v3``: ``v4`` and ``loose=0`` (no take without two master trumps);
- ``v2``: ``v3`` and ``play_calls=ignore`` (the calls ignored in the card play).

Bidding (setting ``bidding``: ``sampling`` [default] or ``heuristic``, the
heuristic's calls, seed 000 §9).  The same idea over the deal as far as the
bidding goes (:mod:`belote.bots.bid_sampling`): a world places the other
seats' dealt cards and, in take-or-pass, the stock in dealing order, uniformly
among those consistent with the seat's own cards and the turned card.  Calls
are soft information (setting ``calls``): with ``hints`` [default] only the
worlds in which the other seats' cards fit a plausible reading of their calls
are kept, by rejection (:func:`belote.bots.bid_sampling.call_hints`: a bid
suggests strength in its suit, a round-1 pass the lack of the turned suit's
jack and nine together, a coinche two trumps); with ``ignore`` every consistent
world counts.  Each world is completed as the engine deals it for the taker
(§3.4), solved double-dummy from the eldest's lead (§4.9) under each trump
searched (value only), and scored with the real scoring
(:func:`belote.scoring.score_hand`: §8 made, failed, litige with the reserve,
capot; §9 with the contract's value and multiplier), every seat announcing its
best declarations (§7.4–§7.6) and saying its belote (§7.7).  Real play falls
short of double dummy for the takers (measured: 8 card points in classic, 17
in coinche, spread about 30): their points are taken as the solver's less
``bid_caution`` (default 10), give or take a normal error of ``bid_noise``
(default 25; three points of a Gauss–Hermite rule), a capot counting only when
they keep every point.  A call's value in a world is the hand's score
difference for the bot's team:

- take-or-pass (§3.2, §3.3): ``take`` (round 1), a suit (and SA / TA, §3.5) in
  round 2, with the bot as taker; ``pass`` (setting ``pass_model``): with
  ``rollout`` [default], the contract the others reach in that world when every
  seat calls as the heuristic after the pass (the bot too, in round 2), 0 for
  an all-pass; with ``zero``, 0;
- numeric auction (§4): every legal bid of a trump searched, its value ``C``
  (80 ... ``max_bid``; never capot nor générale) scored as that contract by the
  bot's team, undoubled; ``coinche`` as the opponents' contract doubled (§4.5,
  §4.7), ``surcoinche`` as ours redoubled; ``pass`` as the contract on the table
  as it stands (the partner's, or the opponents'), 0 when there is none.

A call other than pass must gain a margin over it: ``bid_margin`` (default 0
points) for a take or a bid, plus ``partner_margin`` (default 30) over our own
side's contract, ``coinche_margin`` (default 20) for a coinche or a surcoinche.
With ``game=aware`` (default ``ignore``) a hand's scores are weighed by the game so
far (:class:`belote.bots.bid_search.GameOutlook`, from the view's ``game_score`` and
``target``: the change in the team's chance to win the game, in points of lead; at
three players, in the small tables' search, the seat's own chance,
:class:`belote.bots.bid_search.SeatOutlook`), and
the heuristic's call of the prior takes the game score into account too
(:func:`belote.bots.heuristic.game_shift`).  ``loose`` (default 50, the heuristic's;
0 in the presets ``v1`` to ``v3``) is the heuristic's ``loose`` in the prior, in the
pass rollout and in the hints of the card play: a hand without two master trumps
takes from that strength (the others are expected to bid as the bot does).
The choice (setting ``bid_prior``): with ``heuristic`` [default] the bot keeps
the heuristic's call unless another call beats it, margins counted, by more
than ``bid_z`` (default 1) standard errors of their difference over the same
worlds (its spread counted at least as large as the difference itself: a few
worlds that all agree prove little) -- a few worlds are noisy, and the
heuristic is a sound prior; with
``none`` it calls the best average (pass on a tie, then the lower bid).

Effort: a full-deal solve takes about 200,000 positions (median; some take
millions): about 0.2 s in pure Python, a few ms with the compiled solver.  Each
call solves at most ``bid_worlds`` worlds (default 40), every trump searched
in each, and stops adding worlds once ``bid_nodes`` positions (default
8,000,000) have been searched with at least ``bid_min_worlds`` (default 4)
worlds solved, never past twice the budget (nor after ``seconds``, when set); a
world one of whose solves alone passes ``bid_nodes`` is left out
(:attr:`PimcBot.last_bid_skipped`).  With fewer than ``bid_min_worlds`` worlds
the call is the heuristic's (:attr:`PimcBot.last_bid_fallback`).  Only the
``bid_trumps`` (default 1) strongest trumps by
:func:`~belote.bots.bid_sampling.trump_strength` are searched, none below
``bid_floor`` (default 40) counting the cards the bot sees (its five and the
turned card in take-or-pass; ``bid_floor`` + 15 with its eight cards in an
auction), plus the partner's contract trump (when the bot's strength in it
reaches half of that), the trump of the contract on the table, and the
heuristic's call; a coinche is weighed from a strength of 40 in the contract's
trump.  A call with nothing to search is a pass.  The worlds drawn and solved
are kept for the bot's later calls in the same deal.

At three and two players (§12; :mod:`belote.bots.small_bid`) the worlds are the
deals of the table's mode (``24_cards``, ``kitty``, ``six_each``, ``stock``; the
kitty and the stock unseen, dealt as the engine deals them; découverte has no
bidding), kept when every pass fits a hand the heuristic passes with; each world is
solved for its value and scored as at four players (``bid_caution``, ``bid_noise``, a
capot counted while the takers keep every point) with the real scoring of §12 (the
kitty's discards in the taker's tricks, the trick total of a deal that leaves cards
out; a defender counting half his side's score at three players).  Only the calls of
the trumps whose strength lies within ``bid_band`` (default 20) of the heuristic's
take are searched (``bid_trumps`` of them at most), and the pass; outside the band the
call is the heuristic's.  The worlds are solved by the four players' loop (the same
budgets, the same stops).  The settings not given take :data:`SMALL_BID_DEFAULTS`
(64 worlds, 4,000,000 positions, at least 4 worlds: a call's median under 0.3 s of
CPU on the compiled solver, as measured by ``benchmarks/bench_pimc.py --small``; the
kitty's deal, ten tricks of three, solves slowest and falls back to the heuristic
most), at three players :data:`THREE_PLAYER_BID_DEFAULTS` (``bid_caution`` 0: the
two defenders of the solve see each other's cards, those at the table do not, and the
takers' real points come out above the solve's, not below), and at two players
:data:`TWO_PLAYER_BID_DEFAULTS` (``bid_caution`` 5 for the opponent's takes, and
``bid_own_offset`` -8 on top of it for the bot's own: its own takes are counted 3 card
points above the solve's, so it takes more than the four players' caution of 10 lets it;
and four times the worlds, 256 within 16,000,000 positions, a searched call's CPU median
0.15 to 0.18 s).
``bid_own_offset`` (default 0) is added to ``bid_caution`` for the bot's own takes only,
never for another seat's take it weighs (after a pass); ``bid_own_leak`` (default 0)
takes a share of the defence's double-dummy points off that caution for the bot's own
takes (the defenders at the table give away more of a weak take than of a strong one,
``benchmarks/dd_error.py``).  The choice is made as at four
players (``bid_prior``, ``bid_z``, ``bid_margin``).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from belote.auction import CAPOT, GENERALE, parse_bid
from belote.bots.base import (
    BaseBot,
    BotSetting,
    GameWeighing,
    legal_calls,
    legal_cards,
    played_by,
)
from belote.bots.bid_sampling import BidSampler, BidWorld, Hint, play_hints, trump_strength
from belote.bots.bid_search import (
    BidMemo,
    BidScorer,
    GameOutlook,
    Option,
    Outcome,
    PassRollout,
    SeatOutlook,
    current_contract,
    solve_worlds,
    solved_outcome,
    world_outcome,
)
from belote.bots.card_reading import CardReading
from belote.bots.card_score import CardScorer, TrickShare, world_state
from belote.bots.heuristic import HeuristicBot
from belote.bots.knowledge import InconsistentViewError, Knowledge, World, infer, relax
from belote.bots.pimc_config import (
    _NAMED,
    FIT_PRIOR,
    RANDOM_MISS_ODDS,
    SETTINGS,
    AnswerCheck,
    Answers,
    Bidding,
    BidPrior,
    CallReading,
    CardReads,
    Defence,
    Discard,
    HeardReads,
    KittyRead,
    Objective,
    PassModel,
    PimcConfig,
    ReadFit,
)
from belote.bots.sampling import DealSampler, DiscardReadSampler
from belote.cards import (
    Card,
    CardMask,
    TrumpMode,
    scan_forward,
    suit_of,
)
from belote.options import TwoDeal
from belote.play import PlayState
from belote.round import PlayerView
from belote.table import DealMode, Table

if TYPE_CHECKING:
    from belote.bots.card_model import HeldSampler, PlayModel
    from belote.bots.small_bid import PlayHint, SmallOutcome, SmallWorld

__all__ = ["PimcBot"]

HINT_DRAWS: Final = 50  # worlds rejected per world wanted before the hints are dropped
SEARCH_READ_NODES: Final = 1_000_000  # search_reads: the positions one card read may take
SEARCH_READ_MISSES: Final = 6  # search_reads: the misses counted in a world at most
AUCTION_FLOOR_EXTRA: Final = 15  # eight cards seen in an auction, six in take-or-pass
COINCHE_FLOOR: Final = 40  # trump_strength in the opponents' trump worth a coinche search


class PimcBot(BaseBot):
    """Perfect-information Monte Carlo card play and bidding over exact samples."""

    kind = "pimc"
    SETTINGS: ClassVar[Mapping[str, BotSetting]] = SETTINGS

    def __init__(self, seed: int | None = None, **settings: Any) -> None:
        super().__init__(seed, **settings)
        from belote.solver import solver_engine  # loaded with the bot, not at import

        # The build of the search this bot runs: BELOTE_SOLVER's when the bot is made;
        # it decides how fast, never what (the budgets count positions; only a
        # ``seconds`` budget reads the clock).
        self.engine = solver_engine()
        self.config = PimcConfig.resolved(self.settings, self.given)
        self.small_configs = {n: self.config.small_table(self.given, n) for n in (2, 3)}
        self.decouverte_config = self.config.small_table(self.given, 2, DealMode.DECOUVERTE)
        self.settings = self.config.as_dict()  # (the same, by name)
        self.heuristic = HeuristicBot(seed, loose=self.config.loose, game=self.config.game)
        self.last_worlds = 0  # worlds solved for the last card decision
        self.last_nodes = 0
        self.last_values: dict[Card, float] = {}
        # defence=own: each legal card's mean points of the trick it settles for the bot
        # (less those it settles for the other defender; CardScorer's TrickShare)
        self.last_own: dict[Card, float] = {}
        self.last_rejected = 0  # worlds drawn for the last card and rejected by the hints
        self.last_relaxed = False  # the hints were dropped for the last card: hardly any fit
        self.last_search_nodes = 0  # search_reads: the positions its reading searched
        # kitty_read=rule: worlds of the last card drawn by the rule, and drawn uniform
        # because the rule's draws kept failing (DiscardReadSampler.fallbacks), and in all
        self.last_kitty_kept = self.last_kitty_fallbacks = 0
        self.kitty_kept = self.kitty_fallbacks = 0
        # discard=search: the last discard's mean value per pair weighed and its worlds,
        # and the discards searched and those unlike the rule's
        self.last_discard_values: dict[tuple[Card, Card], float] = {}
        self.last_discard_worlds = 0
        self.last_discard_nodes = 0  # the solver positions the last discard searched
        self.discards_searched = self.discards_changed = 0
        self.last_bid_worlds = 0  # worlds behind the last call (0: no search)
        self.last_bid_nodes = 0  # solver nodes searched for the last call
        self.last_bid_values: dict[str, float] = {}  # average value of each call weighed
        self.last_bid_made: dict[str, float] = {}  # how often its contract was made
        self.last_bid_fallback = False  # the last call is the heuristic's: too few worlds
        self.last_bid_relaxed = False  # the hints were dropped: no world fitted them
        self.last_bid_skipped = 0  # worlds left out: one solve passed the whole budget
        self._memo: BidMemo[BidWorld, Outcome] | None = None
        self._small_memo: BidMemo[SmallWorld, SmallOutcome] | None = None
        # read_fit=table: the opponents' cards checked against the model in the deals
        # played so far (how many it missed, how many were read), and the last deal checked
        self.fit_misses = 0
        self.fit_reads = 0
        # the same, seat by seat (seat: misses, cards read): answers=model|deal's gate
        self.seat_fits: dict[int, tuple[int, int]] = {}
        self._fit_key: object = None
        # answers=model: the card decisions searched with seats after the bot in the
        # trick, the model answering (the fit's gate on), and double dummy (gate off)
        self.answers_on = self.answers_off = 0
        self.last_answered = False  # the model answered the last card decision
        # answer_check=deal: each seat's fewest misses of the model in the worlds drawn
        # so far in the deal being played (the most found at any decision), and the
        # seats it left out, decision by decision, that the fit of the deals done would
        # have modelled
        self._missed_key: object = None
        self._missed: dict[int, int] = {}
        self.answers_checked = 0

    # --- bidding --------------------------------------------------------------

    def call(self, view: PlayerView) -> str:
        calls = legal_calls(view)
        self.last_bid_worlds = self.last_bid_nodes = 0
        self.last_bid_values, self.last_bid_made = {}, {}
        self.last_bid_fallback = self.last_bid_relaxed = False
        self.last_bid_skipped = 0
        current = current_contract(view)
        if (self.config.bidding is Bidding.HEURISTIC or len(calls) <= 1
                or (current is not None and current[0].call.startswith(GENERALE))):
            return self.heuristic.call(view)  # (a générale is not searched, §4.8)
        prior = self.heuristic.call(view) if self.config.bid_prior is BidPrior.HEURISTIC else None
        if view.rules.players != 4:
            return self._small_call(view, calls, prior)
        options, stay = self._bid_options(view, calls, prior)
        if not options:
            return stay.call
        every = [stay, *options]
        worlds = self._bid_values(view, every)
        if worlds is None:
            self.last_bid_fallback = True
            return self.heuristic.call(view)
        return self._choose(every, stay, worlds, prior)

    def _choose(self, every: list[Option], stay: Option, worlds: dict[str, list[float]],
                prior: str | None) -> str:
        """The call of ``every`` (``stay`` the pass) given each one's values over the same
        worlds: the heuristic's ``prior`` unless a call beats it by ``bid_z`` standard
        errors, margins counted; without a prior the best average."""
        n = len(worlds[stay.call])
        values = {call: sum(v) / n for call, v in worlds.items()}
        self.last_bid_values = values
        if prior is None:
            def rank(o: Option) -> tuple[float, bool, int]:
                return (values[o.call] - o.margin, o is stay, -o.level)

            return max(every, key=rank).call
        # The heuristic's call unless a call beats it by z standard errors (paired worlds).
        base = next(o for o in every if o.call == prior)
        z = self.config.bid_z
        best, best_bound = prior, 0.0
        for o in every:
            if o is base:
                continue
            diffs = [a - b for a, b in zip(worlds[o.call], worlds[prior], strict=True)]
            gain = sum(diffs) / n
            spread = (sum((d - gain) ** 2 for d in diffs) / max(1, n - 1)) ** 0.5
            # (worlds that all agree prove little: the spread counts at least the gain)
            bound = gain - (o.margin - base.margin) - z * max(spread, abs(gain)) / n ** 0.5
            if bound > best_bound:
                best, best_bound = o.call, bound
        return best

    def _small_call(self, view: PlayerView, calls: list[str], prior: str | None) -> str:
        """A call at two or three players (§12; :mod:`belote.bots.small_bid`): the calls
        within ``bid_band`` of the heuristic's take searched over the worlds, the pass
        among them; the heuristic's call when none is, or too few worlds were solved."""
        from belote.bots.small_bid import SmallBidSearch, small_options

        settings = self.small_configs[view.rules.players]
        if view.rules.players == 2 and view.rules.two_deal is TwoDeal.DECOUVERTE:
            return self.heuristic.call(view)  # pragma: no cover - découverte has no bidding
        options = small_options(view, calls, settings.bid_band, settings.bid_trumps,
                                settings.bid_margin)
        heuristic = prior if prior is not None else self.heuristic.call(view)
        if not options:
            return heuristic
        stay = Option("pass")
        if prior is not None and prior != stay.call and all(o.call != prior for o in options):
            options += small_options(view, [prior], 10_000, 1, settings.bid_margin)
        every = [stay, *options]
        search = SmallBidSearch(
            view, worlds=settings.bid_worlds, nodes=settings.bid_nodes,
            min_worlds=settings.bid_min_worlds, caution=settings.bid_caution,
            noise=settings.bid_noise, hints=settings.calls is CallReading.HINTS,
            rollout=settings.pass_model is PassModel.ROLLOUT, seconds=settings.seconds,
            memo=self._small_memo, own_need=self.heuristic_need(view), engine=self.engine,
            own_offset=settings.bid_own_offset,
            own_leak=settings.bid_own_leak,
            outlook=SeatOutlook.of(view) if settings.game is GameWeighing.AWARE else None)
        worlds = search.values(every, self.rng)
        self._small_memo = search.memo
        self.last_bid_worlds, self.last_bid_nodes = len(search.used), search.nodes
        self.last_bid_skipped, self.last_bid_relaxed = search.skipped, search.relaxed
        self.last_bid_made = search.made
        if worlds is None:
            self.last_bid_fallback = True
            return heuristic
        return self._choose(every, stay, worlds, prior)

    def heuristic_need(self, view: PlayerView) -> int:
        """The strength with which the bot's own heuristic takes at this small table."""
        from belote.bots.heuristic import SMALL_TAKE, TAKE_THRESHOLD
        from belote.bots.small_bid import deal_of

        threshold: int = self.heuristic.settings["threshold"]
        return SMALL_TAKE[deal_of(view)] + threshold - TAKE_THRESHOLD

    def _bid_options(
        self, view: PlayerView, calls: list[str], prior: str | None = None
    ) -> tuple[list[Option], Option]:
        """The calls worth a search (with ``prior``, the heuristic's call, among them
        unless a pass), and the pass (see the module docstring)."""
        options, stay = self._searched_options(view, calls)
        if prior is not None and prior != stay.call and all(o.call != prior for o in options):
            options.append(self._option_of(view, prior, stay))
        return options, stay

    def _option_of(self, view: PlayerView, call: str, stay: Option) -> Option:
        """The option of one legal call other than pass."""
        team, margin = view.seat & 1, self.config.bid_margin
        if call in ("coinche", "surcoinche"):
            return dataclasses.replace(stay, call=call, multiplier=2 if call == "coinche" else 4,
                                       margin=self.config.coinche_margin)
        if view.turned is not None and not view.rules.is_auction:
            trump = suit_of(view.turned) if call == "take" else _NAMED[call]
            return Option(call, team, trump, None, 1, margin)
        bid = parse_bid(call)
        assert bid is not None
        if stay.team == team:
            margin += self.config.partner_margin
        return Option(call, team, bid.trump, bid.value, 1, margin)

    def _searched_options(
        self, view: PlayerView, calls: list[str]
    ) -> tuple[list[Option], Option]:
        """The calls of the strongest trumps (``bid_trumps``, ``bid_floor``), the partner's
        trump, coinche and surcoinche, and the pass: 0, or the contract on the table."""
        team = view.seat & 1
        floor = self.config.bid_floor
        margin = self.config.bid_margin
        options: list[Option] = []
        if view.turned is not None and not view.rules.is_auction:
            seen = view.hand | 1 << view.turned
            named = {call: suit_of(view.turned) if call == "take" else _NAMED.get(call)
                     for call in calls}
            trumps = self._strongest({t for t in named.values() if t is not None}, seen, floor)
            options += [Option(call, team, t, None, 1, margin)
                        for call, t in named.items() if t is not None and t in trumps]
            return options, Option("pass")
        current = current_contract(view)
        stay = Option("pass")
        raise_trump = -1
        if current is not None:
            best, multiplier = current
            assert best.bid is not None
            ours = best.seat & 1 == team
            stay = Option("pass", best.seat & 1, best.bid.trump, best.bid.value, multiplier)
            if ours:
                raise_trump = best.bid.trump
                margin += self.config.partner_margin
            doubled = dataclasses.replace(stay, margin=self.config.coinche_margin)
            if "coinche" in calls and trump_strength(view.hand, best.bid.trump) >= COINCHE_FLOOR:
                options.append(dataclasses.replace(doubled, call="coinche", multiplier=2))
            if "surcoinche" in calls:
                options.append(dataclasses.replace(doubled, call="surcoinche", multiplier=4))
        parsed = [(call, parse_bid(call)) for call in calls]
        bids = [(call, bid) for call, bid in parsed
                if bid is not None and bid.value not in (CAPOT, GENERALE)]
        floor += AUCTION_FLOOR_EXTRA
        trumps = self._strongest({bid.trump for _, bid in bids}, view.hand, floor)
        if raise_trump >= 0 and 2 * trump_strength(view.hand, raise_trump) >= floor:
            trumps.add(raise_trump)
        options += [Option(call, team, bid.trump, bid.value, 1, margin)
                    for call, bid in bids if bid.trump in trumps]
        return options, stay

    def _strongest(self, trumps: set[TrumpMode], hand: CardMask, floor: int) -> set[TrumpMode]:
        """The ``bid_trumps`` strongest of ``trumps`` by trump_strength, none below ``floor``."""
        ranked = sorted(((trump_strength(hand, t), -t) for t in trumps), reverse=True)
        return {-t for strength, t in ranked[:self.config.bid_trumps] if strength >= floor}

    def _bid_values(
        self, view: PlayerView, options: list[Option]
    ) -> dict[str, list[float]] | None:
        """Each option's score difference for the bot's team in each world solved within
        the budget (the same worlds for all); None when fewer than ``bid_min_worlds``."""
        from belote.solver import solve  # loaded when a call is searched

        settings = self.config
        sampler = BidSampler.from_view(view, hints=settings.calls is CallReading.HINTS)
        memo: BidMemo[BidWorld, Outcome] = BidMemo.of(self._memo, view)
        self._memo = memo
        auction = view.turned is None or view.rules.is_auction
        leader = (view.dealer + 1) & 3  # §3.4 / §4.9: the eldest leads
        keys = sorted({(o.trump, -1 if auction else view.seat)
                       for o in options if o.team is not None})
        rollout = None
        if not auction and settings.pass_model is PassModel.ROLLOUT:
            rollout = PassRollout(view, settings.loose).after_pass

        def contracts(world: BidWorld) -> list[tuple[int, int]]:
            after = rollout(world) if rollout is not None else None
            return keys if after is None or after in keys else [*keys, after]

        def solved(world: BidWorld, key: tuple[int, int], cap: int) -> tuple[Outcome, int]:
            trump, taker = key
            hands = world.complete(view.dealer, view.turned, taker if taker >= 0 else 0)
            result = solve(PlayState(view.rules, trump, hands, leader), moves=False,
                           max_nodes=cap, engine=self.engine)
            return world_outcome(view, trump, hands, leader, result.value), result.nodes

        done = solve_worlds(memo, sampler, self.rng, contracts, solved,
                            worlds=settings.bid_worlds, nodes=settings.bid_nodes,
                            min_worlds=settings.bid_min_worlds, seconds=settings.seconds)
        used = done.used
        self.last_bid_skipped, self.last_bid_relaxed = done.skipped, done.relaxed
        self.last_bid_worlds, self.last_bid_nodes = len(used), done.nodes
        if len(used) < settings.bid_min_worlds:
            return None
        outlook = GameOutlook.of(view) if settings.game is GameWeighing.AWARE else None
        scorer = BidScorer(view, settings.bid_caution, settings.bid_noise, outlook)
        values: dict[str, list[float]] = {}
        self.last_bid_made = {}
        for o in options:
            if o.team is None and rollout is not None:
                row = []
                for i in used:
                    after = rollout(memo.draws[i])
                    if after is None:
                        row.append(0.0)
                        continue
                    contract = Option(o.call, after[1] & 1, after[0])
                    row.append(scorer.value(contract, solved_outcome(memo.solved[i][after]))[0])
                values[o.call] = row
                continue
            if o.team is None:
                values[o.call] = [0.0] * len(used)
                continue
            key = (o.trump, -1 if auction else view.seat)
            scored = [scorer.value(o, solved_outcome(memo.solved[i][key])) for i in used]
            values[o.call] = [v for v, _ in scored]
            self.last_bid_made[o.call] = sum(made for _, made in scored) / len(used)
        return values

    # --- card play ------------------------------------------------------------

    def discard(self, view: PlayerView) -> list[Card]:
        """The kitty taker's two cards aside (§12.1): the rule's, or with
        ``discard=search`` the best of the rule's best pairs over the worlds
        (:class:`belote.bots.kitty_discard.DiscardSearch`)."""
        settings = self.card_config(Table.of(view.rules))
        self.last_discard_values, self.last_discard_worlds = {}, 0
        self.last_discard_nodes = 0
        if settings.discard is not Discard.SEARCH:
            return self.heuristic.discard(view)
        from belote.bots.kitty_discard import DiscardSearch

        search = DiscardSearch(
            view, pairs=settings.discard_pairs, pool=settings.discard_pool,
            guess=settings.discard_guess,
            worlds=settings.discard_worlds,
            nodes=settings.discard_nodes,
            min_worlds=settings.discard_min_worlds or settings.bid_min_worlds,
            noise=settings.bid_noise, hints=settings.calls is CallReading.HINTS,
            engine=self.engine,
            outlook=SeatOutlook.of(view) if settings.game is GameWeighing.AWARE else None)
        search.run(self.rng)
        chosen = search.choice()
        self.last_discard_values, self.last_discard_worlds = search.means(), search.used
        self.last_discard_nodes = search.nodes
        self.discards_searched += 1
        self.discards_changed += chosen != search.candidates[0]
        return list(chosen)

    def play(self, view: PlayerView) -> int:
        legal = legal_cards(view)
        self.last_worlds = self.last_nodes = self.last_rejected = 0
        self.last_relaxed = False
        self.last_search_nodes = 0
        self.last_values = {}
        self.last_own = {}
        self.last_kitty_kept = self.last_kitty_fallbacks = 0
        self.last_answered = False
        table = Table.of(view.rules)
        if len(view.tricks) == table.tricks - 1 and table.mode is not DealMode.DECOUVERTE:
            settings = self.card_config(table)
            if (settings.read_fit is ReadFit.TABLE
                    and settings.card_reads is CardReads.MODEL):
                self._fit(view, table)
        if len(legal) == 1:
            return legal[0]
        if table.tricks - len(view.tricks) > self.card_config(table).tricks:
            return self.heuristic.play(view)
        values = self.evaluate(view)
        if not values:
            return self.heuristic.play(view)
        return self.choose_card(legal, values, self.last_own, self.card_config(table).own_margin)

    @staticmethod
    def choose_card(legal: Sequence[Card], values: Mapping[Card, float],
                    own: Mapping[Card, float], margin: float = 0.0) -> Card:
        """The card to play: the best mean value (the lowest card on a tie); with
        ``own`` (``defence=own``, a defender at three players) the side's value first,
        then among the cards within ``margin`` of the best value (exact ties at 0) the
        most own points (:attr:`last_own`), then the value."""
        def best(cards: Sequence[Card]) -> Card:
            return max(cards, key=lambda c: (values.get(c, float("-inf")), -c))

        top = best(legal)
        if not own:
            return top
        floor = values[top] - margin - 1e-9 * max(1.0, abs(values[top]))
        near = [c for c in legal if values.get(c, float("-inf")) >= floor]
        most = max(own.get(c, 0.0) for c in near)
        return best([c for c in near if own.get(c, 0.0) >= most - 1e-9])

    def _fit(self, view: PlayerView, table: Table) -> None:
        """``read_fit=table``, once a deal, at the bot's last card: how many of the
        cards of the seats read (the opponents at four players, every other seat at two
        and three: :meth:`_seats_read`) the model misses in the deal as
        it was.  The hands then are the cards played and the last card of each seat yet
        to play, which the seat does not see, and at two and three players the cards out
        of play (the stock's, the kitty's two aside, six each's three), which it does not
        see either: every placing of the unseen cards the voids allow (one in each hand
        waiting, the rest out of play) is tried, and the fewest misses count (a player
        the model matches misses none)."""
        from belote.bots.card_model import PlayModel

        key = (view.dealer, view.game_score, view.calls, view.tricks[0])
        if key == self._fit_key:
            return
        self._fit_key = key
        try:
            known = infer(view)
        except InconsistentViewError:  # pragma: no cover - a view contradicting itself
            return
        waiting = [s for s in range(table.players) if known.need(s)]
        if any(known.need(s) > 1 for s in waiting):  # pragma: no cover - not the last trick
            return
        read = self._seats_read(view, table)
        # One model a seat: a world's misses (cards only) are the seats' added up.
        models = {s: PlayModel(view, (s,), table, self.heuristic) for s in read}
        fewest: int | None = None
        reads = 0
        each: dict[int, tuple[int, int]] = {}  # seat: its fewest misses, its cards read
        for placed in itertools.permutations(scan_forward(known.unknown), len(waiting)):
            hands = list(known.known)
            held = 0
            for seat, c in zip(waiting, placed, strict=True):
                hands[seat] |= 1 << c
                held |= 1 << c
            world = World(tuple(hands), known.unknown & ~held)
            if known.allows(world):
                counts = {s: (m.misses(world, table.tricks * table.players),
                              sum(1 for _ in m.views(world))) for s, m in models.items()}
                missed = sum(k for k, _ in counts.values())
                if fewest is None or missed < fewest:
                    fewest, reads = missed, sum(r for _, r in counts.values())
                for s, (k, r) in counts.items():
                    if s not in each or k < each[s][0]:
                        each[s] = (k, r)
        if fewest is not None:
            self.fit_misses += fewest
            self.fit_reads += reads
        for s, (missed, read_s) in each.items():
            before = self.seat_fits.get(s, (0, 0))
            self.seat_fits[s] = (before[0] + missed, before[1] + read_s)

    @staticmethod
    def _seats_read(view: PlayerView, table: Table) -> list[int]:
        """The seats whose cards the card model reads: the opponents at four players,
        every other seat at two and three (each plays for himself, §12; the other
        defender too)."""
        assert view.contract is not None
        sides = table.sides(view.contract.taker)
        return [s for s in range(table.players) if s != view.seat
                and (table.players < 4 or sides[s] != sides[view.seat])]

    def read_weight(self, table: Table | None = None, seat: int | None = None,
                    in_deal: tuple[int, int] | None = None) -> float:
        """A world's weight per miss of the card model at ``table`` (default: four
        players, take or pass): ``read_weight``, or with ``read_fit=table`` the weight
        the deals checked so far give, at least that: the odds of a miss against a match
        for the cards read in the deal as it was, over those odds in a world drawn at
        random at the table's deal mode (:data:`RANDOM_MISS_ODDS`; 1: the model tells
        nothing of these players), counting :data:`FIT_PRIOR` cards matched before any
        deal.  With ``seat``: the same from that seat's cards alone (:attr:`seat_fits`;
        a seat whose cards the fit does not read, a partner at four players, the
        table's), and ``in_deal``, that seat's misses and cards read so far in the deal
        being played (:meth:`_deal_misses`), added to them."""
        settings = self.config if table is None else self.card_config(table)
        weight = settings.read_weight
        missed, read = self.fit_misses, self.fit_reads
        if seat is not None and seat in self.seat_fits:
            missed, read = self.seat_fits[seat]
        if in_deal is not None:
            missed, read = missed + in_deal[0], read + in_deal[1]
        if settings.read_fit is not ReadFit.TABLE or not missed:
            return weight
        reads = read + FIT_PRIOR
        odds = missed / (reads - missed)
        mode = DealMode.CLASSIC if table is None else table.mode
        return min(1.0, max(weight, odds / RANDOM_MISS_ODDS[mode]))

    def card_config(self, table: Table) -> PimcConfig:
        """The settings of the card play at ``table``: at two and three players (§12)
        the settings not given take :data:`SMALL_TABLE_DEFAULTS` (and the table size's,
        in découverte :data:`DECOUVERTE_PLAY_DEFAULTS` over them)."""
        if table.players == 4:
            return self.config
        if table.mode is DealMode.DECOUVERTE:
            return self.decouverte_config
        return self.small_configs[table.players]

    def sampler(self, view: PlayerView) -> DealSampler | DiscardReadSampler | None:
        """The exact sampler of the worlds the view allows (voids dropped if none fits);
        with the kitty (§12.1), a defender's with ``kitty_read=rule`` reads the taker's
        discard as the rule's (:class:`~belote.bots.sampling.DiscardReadSampler`)."""
        knowledge: Knowledge
        try:
            knowledge = infer(view)
        except InconsistentViewError:  # pragma: no cover - a view contradicting itself
            try:
                knowledge = infer(view, voids=False)
            except InconsistentViewError:
                return None
        sampler = DealSampler(knowledge)
        if sampler.count() == 0:
            knowledge = relax(knowledge)
            sampler = DealSampler(knowledge)
            if sampler.count() == 0:
                return None
        contract = view.contract
        table = knowledge.table
        if (table.mode is DealMode.KITTY and contract is not None
                and contract.taker != view.seat
                and self.card_config(table).kitty_read is KittyRead.RULE):
            taker = contract.taker
            return DiscardReadSampler(sampler, taker, played_by(view)[taker],
                                      contract.trump)
        return sampler

    def evaluate(self, view: PlayerView) -> dict[Card, float]:
        """The average value of each legal card over the sampled worlds (higher is better)."""
        from belote.bots.endgame import FrontTooLargeError  # these load the solver:
        from belote.solver import SearchLimitError, solve  # when a card is searched

        sampler = self.sampler(view)
        if sampler is None:
            return {}
        assert view.contract is not None
        table = Table.of(view.rules)
        settings = self.card_config(table)
        objective = settings.objective
        game = objective is Objective.GAME
        scorer = (None if objective is Objective.POINTS else CardScorer(
            view, table, GameOutlook.of(view) if game else None, settings.own_points,
            SeatOutlook.of(view) if game else None))
        share = (TrickShare(view, table) if settings.defence is Defence.OWN
                 and TrickShare.applies(view, table) else None)
        own: dict[Card, float] = {}
        sign = 1 if table.sides(view.contract.taker)[view.seat] == 0 else -1
        hints: tuple[Hint, ...] = ()
        small_hints: tuple[PlayHint, ...] = ()
        if settings.play_calls is CallReading.HINTS:
            if table.players == 4:
                hints = play_hints(view, settings.loose)
            else:
                from belote.bots.small_bid import play_hints as small_play_hints

                small_hints = small_play_hints(view)
        if small_hints:
            from belote.bots.heuristic import SMALL_TAKE
            from belote.bots.small_bid import deal_of

            mode = deal_of(view)
            need = SMALL_TAKE[mode]
        before = played_by(view)
        misses = 0  # worlds drawn that did not fit the hints or the reading (rejected)
        reading = CardReading.of(view, table) if settings.card_reads is CardReads.LOW else None
        weighed: list[tuple[World, float]] | None = None
        drawn: list[tuple[int, World]] = []  # card_reads=model: every world drawn, misses
        drawing: DealSampler | HeldSampler | DiscardReadSampler = sampler
        if settings.card_reads is CardReads.MODEL and table.mode is not DealMode.DECOUVERTE:
            from belote.bots.card_model import HeldSampler

            if settings.heard_reads is HeardReads.MODEL and isinstance(sampler, DealSampler):
                # (the kitty's defenders draw the taker's discard by the rule: a world in
                # which a seat does not hold what it announced is then left out, below)
                drawing = HeldSampler(sampler, view,
                                      [s for s in range(table.players) if s != view.seat])

            def fits(world: World) -> bool:
                return ((not hints or _fits(hints, world, before))
                        and all(h.fits(world, before, view.turned, mode, need, self.rng)
                                for h in small_hints))

            called = fits if hints or small_hints else None
            weight = self.read_weight(table)
            if weight < 1:  # (1: the model tells nothing of these players, not read)
                weighed, misses, drawn = self._weighed_worlds(
                    view, table, drawing, called, weight)
            if settings.search_reads < 1 and table.players < 4:
                weighed, rejected = self._search_read(view, table, drawing, weighed, called)
                misses += rejected
        read_weight = settings.read_weight
        totals: dict[Card, float] = {}
        # αμ over the last ``endgame`` tricks: the worlds' positions gathered, searched after
        fused: list[tuple[World, PlayState]] | None = None
        if (table.players == 4
                and table.tricks - len(view.tricks) <= settings.endgame):
            fused = []
        answering = self._answering(view, table, drawn) if fused is None else None
        start = time.perf_counter()
        nodes = 0
        worlds = 0
        mass = 0.0  # the worlds' weights added up (their number, unless card_reads=model)
        while worlds < settings.worlds:
            if nodes >= 2 * settings.nodes or (worlds >= settings.min_worlds and (
                nodes >= settings.nodes
                or (settings.seconds > 0 and time.perf_counter() - start >= settings.seconds)
            )):
                break
            if weighed is not None:
                if worlds >= len(weighed):
                    break
                world, weight = weighed[worlds]
            else:
                world, weight = drawing.sample(self.rng), 1.0
            while weighed is None and (
                    (hints and not _fits(hints, world, before))
                    or (small_hints and not all(
                        h.fits(world, before, view.turned, mode, need, self.rng)
                        for h in small_hints))
                    or (reading is not None
                        and not _kept(reading.broken(world), read_weight, self.rng))):
                misses += 1
                if misses > HINT_DRAWS * settings.worlds:
                    hints, small_hints, reading = (), (), None  # hardly a world fits
                    self.last_relaxed = True
                    break
                world = drawing.sample(self.rng)
            if fused is not None:  # (the endgame search counts each world once)
                fused.append((world, world_state(view, world, table)))
                worlds += 1
                mass += 1.0
                continue
            try:
                # No decision searches more than twice the ``nodes`` setting.
                if answering is not None and settings.answers is Answers.DEAL:
                    moves, searched = self._played_out(
                        world_state(view, world, table), world, answering[0],
                        2 * settings.nodes - nodes, answering[1])
                elif answering is not None:
                    moves, searched = self._answered(
                        world_state(view, world, table), world, answering[0],
                        2 * settings.nodes - nodes, answering[1])
                else:
                    result = solve(world_state(view, world, table),
                                   max_nodes=2 * settings.nodes - nodes, engine=self.engine,
                                   beneath=world.beneath)
                    moves, searched = result.moves, result.nodes
            except SearchLimitError:
                break
            nodes += searched
            worlds += 1
            mass += weight
            self._add(totals, world, moves, scorer, sign, weight)
            if share is not None:
                for c, p in share.of_world(world).items():
                    own[c] = own.get(c, 0.0) + weight * p
        if fused:
            try:
                totals, nodes = self._fused_totals(view.seat, fused, scorer, sign)
            except FrontTooLargeError:  # too many plans: each world's best, averaged
                for world, state in fused:
                    result = solve(state, engine=self.engine)
                    nodes += result.nodes
                    self._add(totals, world, result.moves, scorer, sign)
        self.last_worlds, self.last_nodes, self.last_rejected = worlds, nodes, misses
        if isinstance(sampler, DiscardReadSampler):
            self.last_kitty_kept, self.last_kitty_fallbacks = sampler.kept, sampler.fallbacks
            self.kitty_kept += sampler.kept
            self.kitty_fallbacks += sampler.fallbacks
        self.last_values = {c: v / mass for c, v in totals.items()} if worlds else {}
        self.last_own = ({c: own.get(c, 0.0) / mass for c in totals}
                         if worlds and share is not None else {})
        return self.last_values

    def _answering(self, view: PlayerView, table: Table,
                   drawn: Sequence[tuple[int, World]] = (),
                   ) -> tuple[PlayModel, frozenset[int]] | None:
        """``answers=model``: the model that answers the bot's card in the current trick
        (:class:`belote.bots.card_model.PlayModel`), when seats play after the bot in it
        (``answers=deal``: the model that plays the others to the end of the deal, at
        every decision), and the seats it plays: those whose weight per miss fitted to the
        table (:meth:`read_weight` of the seat) is at most ``answer_fit`` (the model reads
        these players; the others play double dummy), with ``answer_check=deal`` their
        misses so far in the deal counted in (:meth:`_deal_misses`, over the worlds
        ``drawn`` by card_reads=model; none drawn, none counted); None: double dummy for
        every seat (no seat read, découverte, whose past views are not rebuilt, too).
        Counts the gate's choices."""
        settings = self.card_config(table)
        if (settings.answers is Answers.SOLVER or table.mode is DealMode.DECOUVERTE
                or (settings.answers is Answers.MODEL
                    and len(view.trick) >= table.players - 1)):
            return None
        fit = settings.answer_fit
        in_deal = (self._deal_misses(view, table, drawn)
                   if settings.answer_check is AnswerCheck.DEAL and drawn else {})
        seats = frozenset(s for s in range(table.players) if s != view.seat
                          and self.read_weight(table, s, in_deal.get(s)) <= fit)
        if in_deal:
            self.answers_checked += sum(
                1 for s in in_deal if s not in seats and self.read_weight(table, s) <= fit)
        if not seats:
            self.answers_off += 1
            return None
        from belote.bots.card_model import PlayModel

        self.answers_on += 1
        self.last_answered = True
        return PlayModel(view, (), table, self.heuristic), seats

    def _deal_misses(self, view: PlayerView, table: Table,
                     drawn: Sequence[tuple[int, World]]) -> dict[int, tuple[int, int]]:
        """``answer_check=deal``: for each seat read that has played in this deal
        (:meth:`_seats_read`), its misses of the model so far in the deal
        and its cards played: the fewest misses of its cards in the worlds ``drawn``
        (the card_reads=model draws, with their misses, the fewest first: a world
        missing nothing misses none of any seat's cards), and never fewer than an
        earlier decision of the deal found (the later worlds are drawn afresh)."""
        from belote.bots.card_model import PlayModel

        first = (view.tricks[0].cards[0] if view.tricks
                 else view.trick[0] if view.trick else None)
        key = (view.dealer, view.game_score, view.calls, first)
        if key != self._missed_key:
            self._missed_key, self._missed = key, {}
        played = played_by(view)
        clean = not drawn or drawn[0][0] == 0
        found: dict[int, tuple[int, int]] = {}
        for s in self._seats_read(view, table):
            cards = played[s].bit_count()
            if not cards:
                continue
            fewest = 0
            if not clean:
                model = PlayModel(view, (s,), table, self.heuristic)
                fewest = cards
                for _, world in drawn:  # (counting stops at the fewest so far)
                    fewest = min(fewest, model.misses(world, fewest))
                    if not fewest:
                        break
            missed = self._missed[s] = max(fewest, self._missed.get(s, 0))
            found[s] = (missed, cards)
        return found

    def _double_dummy(self, state: PlayState, world: World,
                      budget: int | None) -> tuple[Card, int]:
        """The best double-dummy card for the side of the seat to play in ``state``
        (the lowest of equals; a forced card not searched), and the positions searched
        (``budget`` at most, None: no bound, else
        :class:`belote.solver.SearchLimitError`)."""
        from belote.solver import solve

        legal = state.legal_mask()
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1, 0
        result = solve(state, max_nodes=budget, engine=self.engine, beneath=world.beneath)
        return result.ranked(state.team(state.turn) == 0)[0], result.nodes

    def _answered(self, state: PlayState, world: World, model: PlayModel,
                  budget: int, seats: frozenset[int] | None = None
                  ) -> tuple[dict[Card, int], int]:
        """``answers=model``: side 0's value of the rest of the deal after each legal card
        of the seat to play in ``state`` (as :func:`belote.solver.solve`'s ``moves``),
        the seats after it in the trick playing ``model``'s cards in ``world``
        (:meth:`belote.bots.card_model.PlayModel.answer`; only ``seats``, when given, the
        others double dummy), the deal solved double dummy from the trick's end; and the
        positions searched (``budget`` at most, else
        :class:`belote.solver.SearchLimitError`).  Where every answer is forced, the
        solver's value."""
        from belote.solver import solve

        values: dict[Card, int] = {}
        seen: list[int] = []
        nodes = 0
        for c in scan_forward(state.legal_mask()):
            after = state.copy()
            after.push(c)
            while after.trick:
                if seats is None or after.turn in seats:
                    after.push(model.answer(after, world))
                    continue
                card, searched = self._double_dummy(after, world, budget - nodes)
                nodes += searched
                after.push(card)
            result = solve(after, moves=False, max_nodes=budget - nodes, engine=self.engine,
                           beneath=world.beneath, guesses=seen)
            nodes += result.nodes
            if result.value not in seen:
                seen.append(result.value)
            values[c] = after.trick_points[0] - state.trick_points[0] + result.value
        return values, nodes

    def _played_out(self, state: PlayState, world: World, model: PlayModel,
                    budget: int, seats: frozenset[int] | None = None
                    ) -> tuple[dict[Card, int], int]:
        """``answers=deal``: side 0's points from ``state`` to the end of the deal after
        each legal card of the seat to play (as :func:`belote.solver.solve`'s ``moves``
        count them), every other seat playing ``model``'s cards in ``world``
        (:meth:`belote.bots.card_model.PlayModel.answer`, past the current trick too;
        only ``seats``, when given, the others the best double dummy for their side) and
        the seat's own later cards the best double dummy for its side at each of its
        turns (the lowest of equals); and the positions searched (``budget`` at most,
        else :class:`belote.solver.SearchLimitError`)."""
        seat = state.turn
        values: dict[Card, int] = {}
        nodes = 0
        for c in scan_forward(state.legal_mask()):
            after = state.copy()
            after.push(c)
            while after.tricks_left:
                if after.turn != seat and (seats is None or after.turn in seats):
                    after.push(model.answer(after, world))
                    continue
                card, searched = self._double_dummy(after, world, budget - nodes)
                nodes += searched
                after.push(card)
            values[c] = after.trick_points[0] - state.trick_points[0]
        return values, nodes

    def _weighed_worlds(
        self, view: PlayerView, table: Table,
        drawing: DealSampler | HeldSampler | DiscardReadSampler,
        fits: Callable[[World], bool] | None, weight: float,
    ) -> tuple[list[tuple[World, float]], int, list[tuple[int, World]]]:
        """``card_reads=model``: up to ``model_draws`` worlds drawn by ``drawing`` that fit
        the hints of the calls (``fits``, dropped when hardly a world does), each weighed by
        ``weight`` to the power of its misses, the past cards of the seats read and the
        other seats' calls the heuristic would not have made in it
        (:class:`belote.bots.card_model.PlayModel`; the seats read: the opponents at four
        players, every other seat at two and three, the other defender too), the likeliest
        first; drawing stops once ``worlds`` worlds miss nothing.  Worlds with
        ``model_misses`` misses or more are left out (as many more as make their weight
        as small as ``read_weight``'s at ``model_misses``, when ``weight`` is larger),
        unless no world has fewer (then every world drawn counts alike:
        :attr:`last_relaxed`).  Also answers how many worlds the hints rejected, and
        every world drawn that fits the hints with its misses (counted to the limit),
        the fewest first."""
        from belote.bots.card_model import PlayModel

        settings = self.card_config(table)
        others = [s for s in range(table.players) if s != view.seat]
        heard = others if settings.heard_reads is HeardReads.MODEL else []
        read = self._seats_read(view, table)
        model = PlayModel(view, read, table, self.heuristic, callers=others,
                          announcers=heard)
        limit, base = settings.model_misses, settings.read_weight
        if weight > base > 0:
            limit = math.ceil(limit * math.log(base) / math.log(weight))
        drawn: list[tuple[int, World]] = []
        draws = _HintedDraws(drawing, fits, settings.worlds, self.rng)
        fitting = 0
        while len(drawn) < settings.model_draws and fitting < settings.worlds:
            world = draws.draw()
            m = model.misses(world, limit, self.rng)
            drawn.append((m, world))
            fitting += m == 0
        misses = draws.rejected
        self.last_relaxed = self.last_relaxed or draws.relaxed
        drawn.sort(key=lambda x: x[0])
        kept = [(w, weight ** m) for m, w in drawn if m < limit]
        if not kept:
            self.last_relaxed = True
            return [(w, 1.0) for _, w in drawn], misses, drawn
        return kept, misses, drawn

    def _search_read(
        self, view: PlayerView, table: Table,
        drawing: DealSampler | HeldSampler | DiscardReadSampler,
        weighed: list[tuple[World, float]] | None,
        fits: Callable[[World], bool] | None,
    ) -> tuple[list[tuple[World, float]] | None, int]:
        """``search_reads`` (two and three players): the first ``worlds`` of ``weighed``
        (None: as many drawn by ``drawing`` that fit the hints of the calls, ``fits``,
        dropped as :meth:`_weighed_worlds` drops them) each
        weighed down by ``search_reads`` to the power of the other seats' past cards a
        search of their own would hardly have played in it
        (:class:`belote.bots.solved_reading.SearchModel`); and the worlds the hints
        rejected.  None when no card lies within the tricks read and ``weighed`` was."""
        from belote.bots.solved_reading import SearchModel

        settings = self.card_config(table)
        others = [s for s in range(table.players) if s != view.seat]
        model = SearchModel(view, others, table, from_left=settings.search_from,
                            worlds=settings.search_worlds, margin=settings.search_margin,
                            max_nodes=SEARCH_READ_NODES, rng=self.rng, engine=self.engine)
        if not model.reads:
            return weighed, 0
        rejected = 0
        if weighed is None:
            draws = _HintedDraws(drawing, fits, settings.worlds, self.rng)
            weighed = [(draws.draw(), 1.0) for _ in range(settings.worlds)]
            rejected = draws.rejected
            self.last_relaxed = self.last_relaxed or draws.relaxed
        base = settings.search_reads
        first = [(w, x * base ** model.misses(w, SEARCH_READ_MISSES))
                 for w, x in weighed[:settings.worlds]]
        self.last_search_nodes = model.nodes
        return first + weighed[settings.worlds:], rejected

    @staticmethod
    def _add(totals: dict[Card, float], world: World, moves: Mapping[Card, int],
             scorer: CardScorer | None, sign: int, weight: float = 1.0) -> None:
        """Adds each card's score in one solved world, times ``weight``, to ``totals``."""
        if scorer is not None:
            belote = scorer.belote(world)
            cards, aside = scorer.in_play(world)
            utility = scorer.utility
            if scorer.own_points:  # (a defender at three players, pimc:own_points=)
                bonus = scorer.seat_bonus(world)
                for c, v in moves.items():
                    totals[c] = totals.get(c, 0.0) + weight * (
                        utility(v, belote, cards, aside) + bonus.get(c, 0.0))
            else:
                for c, v in moves.items():
                    totals[c] = totals.get(c, 0.0) + weight * utility(v, belote, cards, aside)
        else:
            for c, v in moves.items():
                totals[c] = totals.get(c, 0.0) + weight * sign * v

    def _fused_totals(
        self, seat: int, fused: list[tuple[World, PlayState]], scorer: CardScorer | None,
        sign: int,
    ) -> tuple[dict[Card, float], int]:
        """Each legal card's total over the worlds of its best plan of the seat's later
        cards (:func:`belote.bots.endgame.fused_values`), and the solver positions."""
        from belote.bots.endgame import fused_values  # loads the solver, as a card searched


        fronts, nodes = fused_values([state for _, state in fused], seat, self.engine)
        if scorer is not None:
            rows = [(scorer.belote(world), *scorer.in_play(world)) for world, _ in fused]
            utility = scorer.utility

            def total(vector: tuple[int, ...]) -> float:
                return sum(utility(v, b, cards, aside)
                           for v, (b, cards, aside) in zip(vector, rows, strict=True))
        else:
            def total(vector: tuple[int, ...]) -> float:
                return float(sign * sum(vector))

        return {c: max(total(v) for v in front) for c, front in fronts.items()}, nodes


class _HintedDraws:
    """Worlds drawn by ``drawing`` that fit the calls' hints (``fits``; None: any world),
    the hints dropped once more than :data:`HINT_DRAWS` worlds per world wanted
    (``worlds``) were rejected (``relaxed``); ``rejected`` counts them."""

    def __init__(self, drawing: DealSampler | HeldSampler | DiscardReadSampler,
                 fits: Callable[[World], bool] | None, worlds: int,
                 rng: random.Random) -> None:
        self.drawing, self.fits, self.rng = drawing, fits, rng
        self.most = HINT_DRAWS * worlds
        self.rejected = 0
        self.relaxed = False

    def draw(self) -> World:
        """The next world drawn that fits the hints (any, once they are dropped)."""
        while True:
            world = self.drawing.sample(self.rng)
            if self.fits is None or self.fits(world):
                return world
            self.rejected += 1
            if self.rejected > self.most:
                self.fits = None
                self.relaxed = True


def _fits(hints: tuple[Hint, ...], world: World, before: list[CardMask]) -> bool:
    """Whether the hands ``world`` gives the other seats, with the cards each has
    played (``before``), fit every hint of the calls."""
    return all(h.fits(world.hands[h.seat] | before[h.seat]) for h in hints)


def _kept(broken: int, weight: float, rng: random.Random) -> bool:
    """Whether a world that breaks ``broken`` clues of the card reading is kept: always
    when it breaks none, else with probability ``weight ** broken``."""
    return broken == 0 or rng.random() < weight ** broken
