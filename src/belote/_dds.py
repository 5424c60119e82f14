"""The double-dummy search of :mod:`belote.solver`: one typed class, the reference.

:class:`Engine` searches a table of ``n`` seats (2, 3 or 4): the table of four,
the tables of three and two, and belote découverte's face-down cards (§12.2).
This module is plain Python, run by the interpreter: the reference search.  Its
fast build is ``belote/_dds_c.c``, a line-for-line port to C (``bash
scripts/build_solver.sh`` compiles it to the extension ``belote._dds_c``): the
same positions in the same order, so the same values and node counts (a PIMC
decision bounded by a node budget does not depend on the build).  Any change to
the search here must be made there too, and :data:`VERSION` raised in both (a
build of another version is out of date); ``tests/test_solver_engines.py`` (four
players) and ``tests/test_small_solver.py`` (the other tables) check both against
plain minimax and against each other, and ``tests/test_solver_nodes.py`` pins the
four-player node counts.  :mod:`belote.solver` builds the tables, picks the build
(:func:`belote.solver.solver_engine`) and drives the zero-window tests.

The class is typed throughout and was written for mypyc (which compiled it
before the C port), hence :data:`NATIVE` and :func:`sort_by`: where this file
is compiled, an insertion sort replaces ``list.sort`` with the same order.

How the search finds the exact value fast (solver's docstring has the whole list):
fail-soft alpha-beta; a transposition table at trick boundaries keyed on the live
cards (within a solve they give the hands), the leader and which sides have
won a trick; equivalent low cards merged;
move ordering (the table's best lead, then a quick guess at each lead's trick, or
masters and points; when following, points to a side that holds the trick, else
winning cards, else the cheapest); bounds from the points left and from a leader
who holds the top of every suit he holds against no trumps.

``boundary(leader, flags, rem, alpha, beta)`` is the value of the remaining tricks
at the start of a trick, ``follow(seat, k, led, mcard, mseat, tpts, tmask, flags,
rem, alpha, beta)`` the value with ``k`` cards (1 .. n - 1) on the trick (``mcard``
of ``mseat`` holding it, ``tpts`` its points, ``tmask`` its cards) and ``play(...,
c, alpha, beta)`` the value after one card (the driver's root); ``flags`` bit t:
side t has won a trick; ``rem``: the points of the cards still to be played (in the
hands, on the trick, face down); the value is side 0's points from here, fail-soft.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

__all__ = ["VERSION", "Engine"]

# The search's version: the C build carries the same number, and belote.solver runs
# a C build only when they agree (a build of an older search is out of date).
VERSION: Final = 2

INF: Final = 1 << 20
GREEDY_FROM: Final = 5  # tricks left from which leads are ordered by a quick guess


# Compiled, an insertion sort of the few cards (at most 8) beats ``list.sort`` with
# a key function; interpreted, ``list.sort`` runs in C and wins.
NATIVE: Final = not __file__.endswith(".py")


def sort_points(cards: list[int], pts: list[int], descending: bool) -> None:
    """Sort ``cards`` by their points, stably (equal points keep their order)."""
    if NATIVE:
        sort_by(cards, [pts[c] for c in cards], descending)
    else:
        cards.sort(key=pts.__getitem__, reverse=descending)


def sort_by(cards: list[int], keys: list[int], descending: bool) -> None:
    """Sort ``cards`` in place by ``keys`` (parallel), stably, like ``list.sort``
    with a key (``reverse`` keeps equal keys in their order too)."""
    n = len(cards)
    i = 1
    while i < n:
        c = cards[i]
        key = keys[i]
        j = i - 1
        if descending:
            while j >= 0 and keys[j] < key:
                cards[j + 1] = cards[j]
                keys[j + 1] = keys[j]
                j -= 1
        else:
            while j >= 0 and keys[j] > key:
                cards[j + 1] = cards[j]
                keys[j + 1] = keys[j]
                j -= 1
        cards[j + 1] = c
        keys[j + 1] = key
        i += 1


class Engine:
    """One solve's search at a table of ``n`` seats (2, 3 or 4) over the hands ``h``
    (mutated while searching, restored).

    ``h`` holds four hands, those of the seats past ``n`` empty (the live cards are
    the four hands' union at every table).  Each seat's side comes from ``sides``
    (N and S 0, E and W 1 at four; the taker 0 and the defenders 1 at three; N 0
    and S 1 at two) and its partner from ``partners`` (-1: none, so the partner
    rules of §6 never apply at two or three); a trick has ``n`` cards.  Belote
    découverte's face-down cards (§12.2): ``under[c]``, the mask of the card lying
    under the face-up card ``c`` (0: none), ``hidden`` those still face down and
    ``own[p]`` every card seat ``p`` holds or will hold.  When a trick ends, the
    cards under the cards played are turned up into their players' hands.  Within
    a solve each card belongs to one seat, and the cards still face down are those
    under the live face-up cards: the live cards, the leader and the flags key the
    table.  Every seat plays a card to every trick, so the last trick is the one
    the leader starts with one card and none face down.  A card covering another is
    never merged with an equivalent one (they turn up different cards); the
    leader's quick bound ("he holds the top of every suit") waits until no card is
    face down.  The node limit is checked where a trick starts, and with ``every``
    at every position.
    """

    def __init__(
        self,
        h: list[int],
        tt: dict[int, tuple[int, int, int]],
        pts: list[int],
        above: list[int],
        beat: list[int],
        suit_masks: list[int],
        trump_like: list[bool],
        low_cards: int,
        trump: int,
        trump_mask: int,
        rise_on_partner: bool,
        exempt: bool,
        under_code: int,
        undertrump_any: bool,
        last_bonus: int,
        capot_bonus: int,
        cheap: list[int],
        dear: list[int],
        low_merge: list[int],
        limit: int,
        limit_error: Callable[[int], Exception],
        sides: list[int],
        partners: list[int],
        own: list[int],
        under: list[int],
        hidden: int,
        every: bool,
    ) -> None:
        self.h = h
        self.tt = tt
        self.pts = pts
        self.above = above
        self.beat = beat
        self.suit_masks = suit_masks
        self.trump_like = trump_like
        self.low_cards = low_cards
        self.trump = trump
        self.trump_mask = trump_mask
        self.rise_on_partner = rise_on_partner
        self.exempt = exempt
        self.under_code = under_code
        self.undertrump_any = undertrump_any
        self.last_bonus = last_bonus
        self.capot_bonus = capot_bonus
        self.cheap = cheap  # per suit * 256 + byte of the suit: the cheapest card, or -1
        self.dear = dear  # the dearest card
        self.low_merge = low_merge
        self.limit = limit
        self.limit_error = limit_error
        n = len(sides)
        self.n = n
        self.last_k = n - 1  # the cards on a trick before its last
        self.next_seat = [p + 1 if p + 1 < n else 0 for p in range(n)]
        self.sides = sides
        self.partners = partners
        self.own = own
        self.under = under
        covers = 0
        for c in range(32):
            if under[c]:
                covers |= 1 << c
        self.covers = covers
        self.hidden = hidden
        self.every = every
        self.nodes = 0

    def node_count(self) -> int:
        return self.nodes

    # --- helpers ------------------------------------------------------------------

    def merge(self, moves: int, others: int) -> int:
        """``moves`` less the cards equivalent to a lower one of ``moves``: same suit,
        equal points, and no card of ``others`` (the other hands, the trick and the
        cards face down) between them in rank order (the 7 8 9 of a plain suit, the
        7 8 of trumps); a card covering a face-down one is never merged."""
        out = moves
        free = moves & ~self.covers
        for s in range(4):
            shift = s * 8
            mine = (free >> shift) & 0xFF
            if mine & (mine - 1) == 0:
                continue
            if self.trump_like[s]:
                if mine & 3 == 3:
                    out &= ~(2 << shift)  # the 8 goes with the 7
            else:
                held = mine & 7
                if held & (held - 1):
                    keep = self.low_merge[held | ((others >> shift) & 7) << 3]
                    out &= ~((held & ~keep) << shift)
        return out

    def legal(self, hand: int, seat: int, led: int, mcard: int, mseat: int) -> int:
        """The cards ``seat`` may play (docs/rules.md §6, as PlayState.legal_mask)."""
        moves = hand & self.suit_masks[led]
        if moves:
            if self.trump_like[led] and (self.rise_on_partner or mseat != self.partners[seat]):
                rising = moves & self.above[mcard]
                if rising:
                    moves = rising
            return moves
        trumps = hand & self.trump_mask
        if not trumps:
            return hand
        trump = self.trump
        if self.exempt and mseat == self.partners[seat]:
            if self.under_code == 0 or (mcard >> 3) != trump:
                return hand
            higher = trumps & self.above[mcard]
            if hand == trumps:
                if self.under_code == 2:
                    return higher if higher else trumps
                return hand
            return (hand & ~trumps) | higher
        if (mcard >> 3) != trump:
            return trumps
        higher = trumps & self.above[mcard]
        if higher:
            return higher
        return trumps if self.undertrump_any else hand

    def pick(self, moves: int, dear: bool) -> int:
        """The card of ``moves`` with the most (``dear``) or fewest points."""
        table = self.dear if dear else self.cheap
        pts = self.pts
        best = -1
        for x in range(4):
            byte = (moves >> (8 * x)) & 255
            if byte:
                c = table[x * 256 + byte]
                if best < 0 or (pts[c] > pts[best] if dear else pts[c] < pts[best]):
                    best = c
        return best

    def greedy(self, leader: int, c0: int) -> int:
        """A quick guess at the trick led by ``c0``: its points for the leader's side
        (negative when the other side takes it), the others playing by rule of thumb:
        points to their side when it holds the trick, else the dearest winning card
        (the last seat: the cheapest), else the cheapest card."""
        h = self.h
        n = self.n
        sides = self.sides
        pts = self.pts
        above = self.above
        beat = self.beat
        mcard = c0
        mseat = leader
        total = pts[c0]
        led = c0 >> 3
        led_mask = self.suit_masks[led]
        rise = self.trump_like[led]
        next_seat = self.next_seat
        seat = leader
        for k in range(1, n):
            seat = next_seat[seat]
            hand = h[seat]
            moves = hand & led_mask
            if not moves:
                moves = self.legal(hand, seat, led, mcard, mseat)
            elif rise and (self.rise_on_partner or mseat != self.partners[seat]):
                rising = moves & above[mcard]
                if rising:
                    moves = rising
            bm = beat[mcard]
            dear = False
            if sides[mseat] == sides[seat] and (k == n - 1 or not h[next_seat[seat]] & bm):
                dear = True
            else:
                win = moves & bm
                if win:
                    moves = win
                    dear = k < n - 1
            top = moves.bit_length() - 1
            sh = top & 24
            if moves >> sh << sh == moves:
                table = self.dear if dear else self.cheap
                c = table[(top >> 3) * 256 + (moves >> sh)]
            else:
                c = self.pick(moves, dear)
            total += pts[c]
            if (bm >> c) & 1:
                mcard = c
                mseat = seat
        return total if sides[mseat] == sides[leader] else -total

    # --- the search ---------------------------------------------------------------

    def end(self, winner: int, total: int, tmask: int, flags: int, rem: int, alpha: int,
            beta: int) -> int:
        """The value once ``winner`` takes the trick of ``tmask`` (``total`` points):
        the cards under those played turned up and the remaining tricks searched, or,
        the hands spent, the last trick's bonus."""
        h = self.h
        reveal = 0
        m = tmask & self.covers
        while m:
            low = m & -m
            reveal |= self.under[low.bit_length() - 1]
            m ^= low
        if reveal:
            own = self.own
            for p in range(self.n):
                h[p] |= reveal & own[p]
            self.hidden ^= reveal
        elif not h[winner]:  # the last trick
            if self.sides[winner]:
                return 0
            return rem + (self.last_bonus if flags & 2 else self.capot_bonus)
        if self.sides[winner]:
            v = self.boundary(winner, flags | 2, rem - total, alpha, beta)
        else:
            v = total + self.boundary(winner, flags | 1, rem - total, alpha - total,
                                      beta - total)
        if reveal:
            for p in range(self.n):
                h[p] &= ~reveal
            self.hidden ^= reveal
        return v

    def boundary(self, leader: int, flags: int, rem: int, alpha: int, beta: int) -> int:
        """The value of the remaining tricks, ``leader`` to lead."""
        self.nodes += 1
        if self.nodes > self.limit:
            raise self.limit_error(self.nodes)
        h = self.h
        sides = self.sides
        beat = self.beat
        above = self.above
        hl = h[leader]
        bonus = self.last_bonus if flags & 2 else self.capot_bonus
        if not hl & (hl - 1) and not self.hidden:
            # The last trick: every card is forced.
            mcard = hl.bit_length() - 1
            mseat = leader
            seat = leader
            for _ in range(1, self.n):
                seat = self.next_seat[seat]
                c = h[seat].bit_length() - 1
                if (beat[mcard] >> c) & 1:
                    mcard = c
                    mseat = seat
            if sides[mseat]:
                return 0
            return rem + bonus
        hi = rem + bonus
        if hi <= alpha:
            return hi
        if beta <= 0:
            return 0
        alive = h[0] | h[1] | h[2] | h[3]
        # Within one solve every card belongs to one seat: the live cards give the
        # hands (and the cards still face down), and the key is 36 bits.
        key = alive | leader << 32 | flags << 34
        tt = self.tt
        entry = tt.get(key)
        lo = 0
        best = -1
        if entry is not None:
            lo, hi, best = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
        hidden = self.hidden
        others = (alive ^ hl) | hidden
        if not others & self.trump_mask and not hidden:
            # A leader holding the top of every suit he holds, with no trump in
            # the other hands and none face down, takes every trick himself.
            m = hl
            tops = True
            while m:
                low = m & -m
                if others & above[low.bit_length() - 1]:
                    tops = False
                    break
                m ^= low
            if tops:
                value = 0 if sides[leader] else rem + bonus
                tt[key] = (value, value, -1)
                return value
        a = alpha if alpha > lo else lo
        b = beta if beta < hi else hi
        moves = hl
        lows = hl & self.low_cards
        if lows & (lows - 1):
            moves = self.merge(hl, others)
        pts = self.pts
        masters: list[int] = []
        rest: list[int] = []
        m = moves
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            if c == best:
                continue
            if above[c] & others:
                rest.append(c)
            else:
                masters.append(c)
        order: list[int] = []
        if hl.bit_count() >= GREEDY_FROM:
            order = masters + rest
            if NATIVE:
                sort_by(order, [self.greedy(leader, c) for c in order], True)
            else:
                order.sort(key=lambda c: self.greedy(leader, c), reverse=True)
        else:
            sort_points(masters, pts, True)
            sort_points(rest, pts, True)
            order = masters + rest
        if best >= 0 and (moves >> best) & 1:
            order.insert(0, best)
        nxt = self.next_seat[leader]
        maximize = sides[leader] == 0
        g = -INF if maximize else INF
        best_card = best
        for c in order:
            h[leader] = hl ^ (1 << c)
            v = self.follow(nxt, 1, c >> 3, c, leader, pts[c], 1 << c, flags, rem, a, b)
            if maximize:
                if v > g:
                    g = v
                    if g >= b:
                        best_card = c
                        break
                    if g > a:
                        a = g
                        best_card = c
            elif v < g:
                g = v
                if g <= a:
                    best_card = c
                    break
                if g < b:
                    b = g
                    best_card = c
        h[leader] = hl
        # The window searched was (max(alpha, lo), min(beta, hi)).
        if g <= (alpha if alpha > lo else lo):
            tt[key] = (lo, g, best_card)
        elif g >= (beta if beta < hi else hi):
            tt[key] = (g, hi, best_card)
        else:
            tt[key] = (g, g, best_card)
        return g

    def follow(self, seat: int, k: int, led: int, mcard: int, mseat: int, tpts: int,
               tmask: int, flags: int, rem: int, alpha: int, beta: int) -> int:
        """The value with ``k`` cards (1 .. n - 1) on the trick, ``seat`` to play."""
        self.nodes += 1
        if self.every and self.nodes > self.limit:
            raise self.limit_error(self.nodes)
        h = self.h
        sides = self.sides
        pts = self.pts
        beat = self.beat
        hand = h[seat]
        # The legal cards (docs/rules.md §6): the lines of ``legal``, inline for speed.
        moves = hand & self.suit_masks[led]
        if moves:
            if self.trump_like[led] and (self.rise_on_partner or mseat != self.partners[seat]):
                rising = moves & self.above[mcard]
                if rising:
                    moves = rising  # §6.1 TA, §6.2
        else:
            moves = self.legal(hand, seat, led, mcard, mseat)  # void: §6.3, §6.4
        last = k == self.last_k
        if not moves & (moves - 1):
            # A forced card.
            c = moves.bit_length() - 1
            h[seat] = hand ^ moves
            if (beat[mcard] >> c) & 1:
                mcard = c
                mseat = seat
            tpts += pts[c]
            # The end of the trick: the lines of ``end``, inline for speed, but for the
            # cards it turns up.
            if not last:
                v = self.follow(self.next_seat[seat], k + 1, led, mcard, mseat, tpts,
                                tmask | moves, flags, rem, alpha, beta)
            elif self.covers and (tmask | moves) & self.covers:
                v = self.end(mseat, tpts, tmask | moves, flags, rem, alpha, beta)
            elif hand == moves:  # the last trick
                bonus = self.last_bonus if flags & 2 else self.capot_bonus
                v = 0 if sides[mseat] else rem + bonus
            elif sides[mseat]:
                v = self.boundary(mseat, flags | 2, rem - tpts, alpha, beta)
            else:
                v = tpts + self.boundary(mseat, flags | 1, rem - tpts, alpha - tpts, beta - tpts)
            h[seat] = hand
            return v
        lows = moves & self.low_cards
        if lows & (lows - 1):
            alive = h[0] | h[1] | h[2] | h[3] | tmask | self.hidden
            moves = self.merge(moves, alive ^ hand)
        cards: list[int] = []
        m = moves
        while m:
            low = m & -m
            cards.append(low.bit_length() - 1)
            m ^= low
        bm = beat[mcard]
        nxt = self.next_seat[seat]
        if sides[mseat] == sides[seat] and (last or not h[nxt] & bm):
            sort_points(cards, pts, True)  # the own side holds the trick
        else:
            winners = moves & bm
            if winners:
                win: list[int] = []
                lose: list[int] = []
                for c in cards:
                    if (winners >> c) & 1:
                        win.append(c)
                    else:
                        lose.append(c)
                sort_points(win, pts, not last)  # the last seat wins cheaply
                sort_points(lose, pts, False)
                cards = win + lose
            else:
                sort_points(cards, pts, False)
        maximize = sides[seat] == 0
        g = -INF if maximize else INF
        a = alpha
        b = beta
        covers = self.covers
        for c in cards:
            bit = 1 << c
            h[seat] = hand ^ bit
            if last:  # the last card of the trick (not of the deal: the hand holds more)
                winner = seat if (bm >> c) & 1 else mseat
                total = tpts + pts[c]
                if covers and (tmask | bit) & covers:
                    v = self.end(winner, total, tmask | bit, flags, rem, a, b)
                elif sides[winner]:
                    v = self.boundary(winner, flags | 2, rem - total, a, b)
                else:
                    v = total + self.boundary(winner, flags | 1, rem - total, a - total,
                                              b - total)
            elif (bm >> c) & 1:
                v = self.follow(nxt, k + 1, led, c, seat, tpts + pts[c], tmask | bit, flags,
                                rem, a, b)
            else:
                v = self.follow(nxt, k + 1, led, mcard, mseat, tpts + pts[c], tmask | bit,
                                flags, rem, a, b)
            if maximize:
                if v > g:
                    g = v
                    if g >= b:
                        break
                    if g > a:
                        a = g
            elif v < g:
                g = v
                if g <= a:
                    break
                if g < b:
                    b = g
        h[seat] = hand
        return g

    def play(self, seat: int, k: int, led: int, mcard: int, mseat: int, tpts: int, tmask: int,
             flags: int, rem: int, c: int, alpha: int, beta: int) -> int:
        """The value after ``seat`` plays ``c`` with ``k`` cards (0 .. n - 1) on the
        trick (``led``, ``mcard`` and ``mseat`` unused when ``k`` is 0): side 0's
        points of a trick it ends plus the rest."""
        h = self.h
        hand = h[seat]
        bit = 1 << c
        if k == 0:
            led = c >> 3
            mcard = c
            mseat = seat
        elif (self.beat[mcard] >> c) & 1:
            mcard = c
            mseat = seat
        h[seat] = hand ^ bit
        total = tpts + self.pts[c]
        if k == self.n - 1:
            v = self.end(mseat, total, tmask | bit, flags, rem, alpha, beta)
        else:
            v = self.follow(self.next_seat[seat], k + 1, led, mcard, mseat, total, tmask | bit,
                            flags, rem, alpha, beta)
        h[seat] = hand
        return v
