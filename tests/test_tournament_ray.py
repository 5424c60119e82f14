"""`belote tournament --ray`: the Ray runner gives the local result (issue 5).

A local Ray instance with 2 CPUs stands in for a cluster; skipped when ray is not
installed.  Decks are shuffled every deal (docs/rules.md §2.2).
"""

from __future__ import annotations

import logging
import re
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
