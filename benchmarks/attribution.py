"""Time "why did this query change": one query's change of a measure attributed to documents, 1,000 per run.

The pair (seeded): run A ranks 1,000 documents of a pool of 3,000; 600 of the pool are judged, grades 0 to
2 (about two in three relevant). Two runs B: ``unrelated`` (another 1,000 of the pool, drawn
independently: nearly every document moves, the worst case for the Shapley players) and ``similar`` (A
with 200 random swaps and 50 unjudged documents put in at random places, as a tweak of the same system
would give). For each measure: the time of ``attribution.explain`` (best of ``--repeats``), its method,
how many documents carry a share and how many were merged into groups. AP and RR@10 are Shapley (at most
12 players, 4,096 coalitions evaluated as one query set), nDCG@10 each document's own term. The load
average is printed, since the machine may be shared. Target: well under a second per query.

    python benchmarks/attribution.py [--repeats 5]
"""
from __future__ import annotations

import argparse

import numpy as np
from diagnose import best, load_average  # benchmarks/ is on the path when this file runs as a script

from components.engine import attribution

MEASURES = ("AP", "nDCG@10", "RR@10")
DEPTH, POOL, JUDGED = 1000, 3000, 600


def pair(seed: int = 7) -> tuple[list[str], dict[str, list[str]], dict[str, int]]:
    """Run A, the two runs B by name, and the judgments (see the module's docstring)."""
    rng = np.random.default_rng(seed)
    pool = [f"doc{i}" for i in range(POOL)]
    a = [str(d) for d in rng.choice(pool, DEPTH, replace=False)]
    unrelated = [str(d) for d in rng.choice(pool, DEPTH, replace=False)]
    similar = list(a)
    for i, j in rng.integers(0, DEPTH, (200, 2)):
        similar[i], similar[j] = similar[j], similar[i]
    for n, place in enumerate(sorted(rng.integers(0, DEPTH, 50))):
        similar.insert(int(place), f"new{n}")
    judgments = {str(d): int(g) for d, g in zip(rng.choice(pool, JUDGED, replace=False), rng.integers(0, 3, JUDGED))}
    return a, {"unrelated": unrelated, "similar": similar[:DEPTH]}, judgments


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    a, runs, judgments = pair()
    print(f"attribution: {DEPTH:,} documents per run, {JUDGED} judged of a pool of {POOL:,}")
    print(load_average())
    for name, b in runs.items():
        print(f"\n== run B {name}: {len(set(a) ^ set(b)):,} documents in one run only ==")
        for measure in MEASURES:
            seconds, result = best(args.repeats, lambda _: attribution.explain(a, b, judgments, measure))
            assert isinstance(result, attribution.Attribution)
            merged = sum(len(g.docids) for g in result.groups)
            print(f"  {measure:8} {seconds:6.3f} s   {result.method:13} change {result.change:+.4f}: "
                  f"{len(result.documents)} documents with a share, {merged} merged into {len(result.groups)} groups")
    print(load_average())


if __name__ == "__main__":
    main()
