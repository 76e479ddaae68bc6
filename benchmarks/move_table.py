"""Time building the ranking editor's move table (components/ranking_editor/moves.py) and measure its JSON.

The table holds the page's values after every single move of one editor,
built on the server with each render, so its time adds to every move's round
trip. Cases:

- lawyer: the recall lesson's list (System A, 20 documents + the tray),
  R@k, RR, nDCG@k at k = 5, cutoff moves k = 1..20;
- frameworks: the nDCG lesson's list (System B, 8 documents, editable
  grades), DCG@k, nDCG@k, R@k at k = 3, once per gain;
- mrr: the MRR lesson's second list, RR over the three lists (page-level);
- your data: the "Your data" page's editor (a run's top 20, a tray of 30
  relevant documents not returned, editable grades) over a 1,000-deep run:
  the other 980 ranks as ``tail``, the query's judged documents outside the
  editor as ``extra_judged``; R@k, Success@k, RR, nDCG@k at k = 10;
- long: a 1,000-document list with a 40-document tray and editable grades,
  R@k, RR, nDCG@k at k = 10, the default window (±25 positions, the first
  50 documents).

Prints, per case, the median and 95th percentile of the build time over the
repeats, the number of entries (moves covered) and of distinct value rows,
the moves left out, and the size of the JSON the browser would receive
(``json.dumps`` with compact separators). Target: a lesson list well under
10 ms, the long list under 100 ms, on the project's 2-core machine.

    python benchmarks/move_table.py [--repeats 200] [--long-repeats 30]
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Callable

import numpy as np

from components.course import scenarios
from components.ranking_editor.model import EditorState, check_items, config_for, editor_items, normalise
from components.ranking_editor.moves import move_table


def _state(items, order, grade_range) -> EditorState:
    return normalise(config_for(check_items(items, grade_range), True, grade_range), order)


def lawyer() -> Callable[[], dict]:
    q = scenarios.LAWYER
    pool = editor_items(d for d in q.docs
                        if d.id in set().union(*(q.presets[s] for s in scenarios.LAWYER_DEFAULT_K)) or (d.grade or 0) >= 1)
    state = _state(pool, q.presets["System A"], (0, 1))
    return lambda: move_table(state, ["R@k", "RR", "nDCG@k"], k=5, k_max=20, tray=True, grade_range=(0, 1))


def frameworks(gain: str) -> Callable[[], dict]:
    items = editor_items(scenarios.FRAMEWORKS.docs)
    state = _state(items, scenarios.FRAMEWORKS.presets["System B"], (0, 2))
    return lambda: move_table(state, ["DCG@k", "nDCG@k", "R@k"], gain=gain, k=scenarios.FRAMEWORKS_K,
                              k_max=len(items), tray=True, editable_grades=True, grade_range=(0, 2))


def mrr() -> Callable[[], dict]:
    states = [_state(editor_items(q.docs), next(iter(q.presets.values())), (0, 1)) for q in scenarios.JAR_QUERIES]
    return lambda: move_table(states[1], ["RR"], tray=True, grade_range=(0, 1), others=[states[0], states[2]],
                              query_index=1)


def your_data(depth: int = 1_000, seed: int = 0) -> Callable[[], dict]:
    """A 1,000-deep run of one query: about 10 % of its returned documents judged relevant (grade 1 or 2)."""
    rng = np.random.default_rng(seed)
    run = rng.choice([0] * 18 + [1, 2], size=depth)
    order = tuple(f"r{i}" for i in range(20))
    tray = tuple(f"t{i}" for i in range(30))
    grades = {d: int(g) for d, g in zip(order, run[:20])} | {d: int(rng.integers(1, 3)) for d in tray}
    state = EditorState(order, tray, grades)
    tail = [int(g) for g in run[20:]]
    extra = tail + [1] * 12  # the tail's judged documents, and relevant ones beyond the tray's 30
    return lambda: move_table(state, ["R@k", "Success@k", "RR", "nDCG@k"], gain="linear", k=10, tray=True,
                              editable_grades=True, grade_range=(0, 2), tail=tail, extra_judged=extra)


def long_list(n: int = 1_000, n_tray: int = 40, seed: int = 0) -> Callable[[], dict]:
    """A run's query: about 70 % of the returned documents judged (grades 0, 0, 0, 1, 2), 40 relevant not returned."""
    rng = np.random.default_rng(seed)
    order = tuple(f"r{i}" for i in range(n))
    tray = tuple(f"t{i}" for i in range(n_tray))
    grades = {d: int(rng.choice([0, 0, 0, 1, 2])) for d in order if rng.random() < 0.7}
    grades |= {d: int(rng.integers(1, 3)) for d in tray}
    state = EditorState(order, tray, grades)
    return lambda: move_table(state, ["R@k", "RR", "nDCG@k"], k=10, tray=True, editable_grades=True,
                              grade_range=(0, 2))


def entries(table: dict) -> int:
    return (sum(len(e["rows"]) for e in table["place"].values()) + len(table["tray"])
            + sum(len(g) for g in table["grade"].values()) + len(table["cutoff"]["rows"]))


def measure(name: str, build: Callable[[], dict], repeats: int) -> None:
    build()  # warm up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        table = build()
        times.append((time.perf_counter() - start) * 1_000)
    size = len(json.dumps(table, separators=(",", ":")).encode())
    left = sum(table["window"]["left_out"].values())
    print(f"{name:<24} {statistics.median(times):8.2f} {np.percentile(times, 95):8.2f} {entries(table):8,} "
          f"{len(table['values']):7,} {left:10,} {size:10,}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=200, help="repeats of each lesson list")
    parser.add_argument("--long-repeats", type=int, default=30, help="repeats of the 1,000-document list")
    args = parser.parse_args()
    print(f"{'case':<24} {'median':>8} {'p95':>8} {'entries':>8} {'rows':>7} {'left out':>10} {'JSON B':>10}")
    print(f"{'':<24} {'ms':>8} {'ms':>8}")
    measure("lawyer (20 + tray)", lawyer(), args.repeats)
    for gain in ("exponential", "linear"):
        measure(f"frameworks ({gain[:3]})", frameworks(gain), args.repeats)
    measure("mrr (3 lists)", mrr(), args.repeats)
    measure("your data (20+30, 1,000)", your_data(), args.repeats)
    measure("long (1,000 + 40)", long_list(), args.long_repeats)


if __name__ == "__main__":
    main()
