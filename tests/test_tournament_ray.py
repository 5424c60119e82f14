"""`belote tournament --ray`: the Ray runner gives the local result (issue 5).

A local Ray instance with 2 CPUs stands in for a cluster; skipped when ray is not
installed.  Decks are shuffled every deal (docs/rules.md §2.2).
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from belote.tournament import TournamentConfig, TournamentError, run_tournament

ray: Any = pytest.importorskip("ray")


def test_unreachable_cluster_is_an_error() -> None:
    """Runs first, before the module's Ray instance starts: an address nobody answers at
    fails at once with a message instead of Ray's minutes of retries."""
    assert not ray.is_initialized()
    config = TournamentConfig(bots=("random", "heuristic"), boards=1)
    message = re.escape("cannot reach the Ray cluster at '127.0.0.1:1'")
    with pytest.raises(TournamentError, match=message):
        run_tournament(config, ray_address="127.0.0.1:1")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    if ray.is_initialized():  # pragma: no cover - another test left one running
        ray.shutdown()
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.WARNING)
    try:
        yield
    finally:
        ray.shutdown()


@pytest.mark.parametrize(
    "config",
    [
        TournamentConfig(bots=("random", "heuristic"), boards=6, seed=21),
        TournamentConfig(bots=("random", "heuristic"), mode="games", boards=2, seed=22,
                         options={"target": 301}),
    ],
    ids=["deals", "games"],
)
def test_ray_runner_matches_local(local_ray: None, config: TournamentConfig) -> None:
    seen: list[tuple[int, int]] = []
    on_ray = run_tournament(config, ray_address="auto", chunk_size=2,
                            progress=lambda done, total: seen.append((done, total)))
    local = run_tournament(config, workers=1)
    assert on_ray.runner == "ray" and on_ray.workers == 2
    ray_json, local_json = on_ray.to_json(), local.to_json()
    assert ray_json["run"]["runner"] == "ray"
    del ray_json["run"], local_json["run"]
    assert ray_json == local_json
    assert seen[0] == (0, config.boards) and seen[-1] == (config.boards, config.boards)


def broken_bot(spec: str, seed: int | None = None) -> Any:
    """``broken``: a random bot that raises at its first card; else a bot of belote.bots."""
    from belote.bots import make_bot
    from belote.bots.random_bot import RandomBot

    class Broken(RandomBot):
        def play(self, view: Any) -> int:
            raise ZeroDivisionError("a bot's bug")

    return Broken(seed) if spec == "broken" else make_bot(spec, seed)


def test_a_failing_bot_on_ray_keeps_its_message_and_traceback(local_ray: None) -> None:
    """The error of a task is the tournament's own (not Ray's wrapper): one line saying
    where, the bot's traceback along (``traceback_text``)."""
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    config = TournamentConfig(bots=("random", "broken"), boards=1, seed=1)
    with pytest.raises(TournamentError) as failure:
        run_tournament(config, ray_address="auto", make_bot=broken_bot)
    error = failure.value
    assert str(error) == ("pairing 'random' vs 'broken', board 0, table 0: "
                          "ZeroDivisionError: a bot's bug")
    assert error.traceback_text is not None
    assert 'raise ZeroDivisionError("a bot\'s bug")' in error.traceback_text
