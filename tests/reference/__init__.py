"""A slow, plainly written reference engine for every profile.

``engine.py``: classic and Moroccan belote; ``auction.py``: coinche and contrée;
``small.py``: belote for three and two players.  It is written from docs/rules.md and
docs/json.md alone, independently of the fast engine in ``src/belote``, so that
the two can be checked against each other (tests/test_crosscheck*.py,
tests/test_perft.py).  Cards are strings ("JH"), hands are lists, and every
rule is one small function naming its docs/rules.md §.
"""
