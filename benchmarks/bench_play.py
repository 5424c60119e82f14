"""Random playouts: complete hands of random legal cards after a random deal.

Prints hands per second on one core for the fast engine (PlayState), and for
comparison the checked path (HandPlay: every card verified, declarations and
belote tracked, the hand scored).  Run:

    .venv/bin/python benchmarks/bench_play.py [--hands N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time

from belote.cards import mask_of
from belote.hand import Contract, HandPlay
from belote.options import make_rules
from belote.play import PlayState


def fast_hands(n: int, seed: int) -> tuple[float, int]:
    rules = make_rules()
    rng = random.Random(seed)
    rnd = rng.random
    deck = list(range(32))
    checksum = 0
    start = time.perf_counter()
    for _ in range(n):
        rng.shuffle(deck)
        hands = [mask_of(deck[0:8]), mask_of(deck[8:16]), mask_of(deck[16:24]),
                 mask_of(deck[24:32])]
        s = PlayState(rules, int(rnd() * 4), hands, int(rnd() * 4))
        while s.tricks_left:
            m = s.legal_mask()
            k = int(rnd() * m.bit_count())
            while k:
                m &= m - 1
                k -= 1
            s.push((m & -m).bit_length() - 1)
        checksum += s.trick_points[0]
    return time.perf_counter() - start, checksum


def checked_hands(n: int, seed: int) -> tuple[float, int]:
    rules = make_rules()
    rng = random.Random(seed)
    deck = list(range(32))
    checksum = 0
    start = time.perf_counter()
    for _ in range(n):
        rng.shuffle(deck)
        hands = [mask_of(deck[i * 8:i * 8 + 8]) for i in range(4)]
        contract = Contract(rng.randrange(4), rng.randrange(4))
        play = HandPlay(rules, contract, hands, rng.randrange(4))
        while not play.is_over():
            play.play(rng.choice(play.legal_cards()))
        checksum += play.result().score.score[0]
    return time.perf_counter() - start, checksum


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    seconds, _ = fast_hands(args.hands, args.seed)
    print(f"fast engine (PlayState):   {args.hands / seconds:10,.0f} hands/s "
          f"({args.hands:,} hands in {seconds:.2f} s, one core)")
    n = max(1, args.hands // 10)
    seconds, _ = checked_hands(n, args.seed)
    print(f"checked path (HandPlay):   {n / seconds:10,.0f} hands/s "
          f"({n:,} hands in {seconds:.2f} s, declarations, belote and score included)")


if __name__ == "__main__":
    main()
