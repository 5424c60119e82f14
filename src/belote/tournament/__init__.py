"""Bot tournaments: duplicate pairs, statistics, an Elo ladder (issue 5).

Every pair of bots meets over the same *boards*.  A board is one deal (mode
``"deals"``) or one game to the target (mode ``"games"``), and it is played at
two tables with the same cards: at table 0 the first bot of the pairing holds
North–South (seats 0 and 2) and the second East–West; at table 1 they swap.
The luck of the cards cancels out, what is left is the bots' play.

Three and two players (docs/rules.md §12, profiles ``classic-3p`` and ``classic-2p``):
there are no two teams to swap, so a board is played at as many tables as there
are seats, the seats rotated.  One bot of the pairing sits alone (the first at
even boards, the second at odd ones) and moves round the seats, one seat a table,
the other bot filling the other seats.  Each bot is credited at each table with
the mean of its seats' own scores (§12: per-seat totals); at every board each
bot has sat at every seat equally often, so the luck of the seats cancels; over
an even number of boards each bot sits alone as often, so a game's winner is
each bot's as often by chance (games mode: the winner of a game is the bot at
the winning seat).

Decks.  A tournament shuffles every deal, whatever ``shuffle_each_deal`` says
(docs/rules.md §2.2): the deck of deal ``k`` of board ``b`` is a fresh shuffle and
cut (§2.3) drawn from the tournament seed, ``b`` and ``k`` alone.  Collecting
the cards of the previous deal, as a game does when it only cuts (or shuffles
the collected pack), would make every deck after the first depend on the play,
so the two tables of a game board would no longer see the same cards.  Asking
for ``shuffle_each_deal = false`` is therefore refused.  In games mode the
two tables see the same deck for deal ``k`` with the same dealer as long as
the dealer moves on the same way: with ``allpass_dealer = same`` an all-pass
at one table only shifts the dealers of that table afterwards.

Scores.  In deals mode each deal is scored on its own, as a one-deal match: no
litige reserve comes in, and a litige gives each team its own points (§8.4, the
last deal of a deal-limited match).  In games mode the game is scored as a
score sheet is (§8–§11), reserve and end of game included.  An all-pass (§2.4)
scores 0 to both.

Determinism.  Deck, dealer and every bot's seed come from the tournament seed
and the indices of the pairing, board, table and seat, so the results do not
depend on how the boards are split between workers, nor on their number.

Statistics (from the first bot's side of each pairing, a tie counting half):
win rates with a 95% Wilson score interval, mean points per deal with a
normal 95% interval over boards, and an Elo ladder fitted by maximum
likelihood (Bradley–Terry) to every game (games mode) or board (deals mode),
anchored so that ``random`` (or else the first bot) stands at 0.

Runners: in-process for one worker, local worker processes
(:class:`concurrent.futures.ProcessPoolExecutor`, spawned) for more, or a Ray
cluster given its address (``ray`` is imported only then).  ``matplotlib`` is
imported only by :func:`plot_results`.  The command is ``belote tournament``.

The package, one module a concern (each re-exported here): :mod:`.stats` (Wilson,
means, Elo), :mod:`.config` (what to play, its checks, :class:`TournamentError`),
:mod:`.seeding` (decks, dealers, bot seeds, seats), :mod:`.play` (one table of a
board, deal or game, for every number of players), :mod:`.results` (records, the
ladder, the JSON), :mod:`.runner` (local and Ray runners, :func:`run_tournament`)
and :mod:`.plot`.
"""

from __future__ import annotations

from belote.tournament import config, play, plot, results, runner, seeding, stats
from belote.tournament.config import *  # noqa: F403  (its __all__)
from belote.tournament.play import *  # noqa: F403
from belote.tournament.plot import *  # noqa: F403
from belote.tournament.results import *  # noqa: F403
from belote.tournament.runner import *  # noqa: F403
from belote.tournament.seeding import *  # noqa: F403
from belote.tournament.stats import *  # noqa: F403

__all__ = [
    *stats.__all__, *config.__all__, *seeding.__all__, *play.__all__, *results.__all__,
    *runner.__all__, *plot.__all__,
]
