"""Time the engine core on 7,000 queries × 1,000 ranked documents (arrays in memory, no file reading).

Prints the time for R@10, RR@10 and nDCG@10 together (best and median of
several repeats). Target: under 0.5 s on the project's 2-core machine.

    python benchmarks/engine_core.py [--queries 7000] [--depth 1000] [--repeats 5]
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from components.engine import metrics


def make_query_set(n_queries: int, depth: int, seed: int = 0) -> metrics.QuerySet:
    """An MS MARCO-like set: about 1 % of returned documents relevant, 10 judged documents per query."""
    rng = np.random.default_rng(seed)
    qidx = np.repeat(np.arange(n_queries), depth)
    rank = np.tile(np.arange(1, depth + 1), n_queries)
    grade = np.where(rng.random(qidx.size) < 0.01, rng.integers(1, 4, qidx.size), 0)
    judged_qidx = np.repeat(np.arange(n_queries), 10)
    judged_grade = rng.integers(-1, 4, judged_qidx.size)
    return metrics.query_set(n_queries, qidx, rank, grade, judged_qidx, judged_grade)


def evaluate_three(qs: metrics.QuerySet) -> tuple[float, float, float]:
    return (float(metrics.recall(qs, 10).mean()), float(metrics.reciprocal_rank(qs, 10).mean()),
            float(metrics.ndcg(qs, 10, "linear").mean()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=7_000)
    parser.add_argument("--depth", type=int, default=1_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    qs = make_query_set(args.queries, args.depth)
    times = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        values = evaluate_three(qs)
        times.append(time.perf_counter() - start)
    print(f"engine core, {args.queries:,} queries × {args.depth:,} documents = {qs.rank.size:,} rows")
    print(f"R@10 + RR@10 + nDCG@10: best {min(times):.3f} s, median {statistics.median(times):.3f} s "
          f"over {args.repeats} repeats (target < 0.5 s)")
    print("means: R@10 {:.4f}  RR@10 {:.4f}  nDCG@10 {:.4f}".format(*values))


if __name__ == "__main__":
    main()
