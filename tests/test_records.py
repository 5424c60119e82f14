"""records.record_of: the engine's per-deal records made all fields at once are the
same values as those their constructors make (equal, same hash and repr), and a
field left out reads its default."""

from __future__ import annotations

from belote.bidding import Call
from belote.declarations import DeclarationResult
from belote.hand import Contract
from belote.records import record_of
from belote.scoring import HandEntry, HandScore, Outcome


def test_records_equal_their_constructors() -> None:
    pairs = [
        (Contract(1, 2, 90, 2, 4),
         record_of(Contract, taker=1, trump=2, value=90, multiplier=2, players=4)),
        (Call(3, "take", True), record_of(Call, seat=3, call="take", named=True)),
        (DeclarationResult(0, (50, 0)), record_of(DeclarationResult, winner=0, points=(50, 0))),
        (HandScore(Outcome.MADE, (92, 70), (92, 70), 0),
         record_of(HandScore, outcome=Outcome.MADE, totals=(92, 70), score=(92, 70), reserve=0)),
        (HandEntry(0, (92, 70), belote=(20, 0)),
         record_of(HandEntry, taker=0, trick_points=(92, 70), capot=None,
                   declarations=(0, 0), belote=(20, 0), contract=None, trump=None,
                   multiplier=1, reserve=0, generale_won=None, in_play=None)),
    ]
    for made, fast in pairs:
        assert type(fast) is type(made)
        assert fast == made and hash(fast) == hash(made) and repr(fast) == repr(made)


def test_a_field_left_out_reads_its_default() -> None:
    contract = record_of(Contract, taker=0, trump=1)
    assert contract == Contract(0, 1)
    assert (contract.value, contract.multiplier, contract.players) == (None, 1, 4)
    assert record_of(Call, seat=0, call="pass").named is False
