"""Time the "Your data" page's work on a 200,000-query pair of runs: read, evaluate, curves by k, compare, charts.

Generates (seeded, in memory) a qrels file and two runs in TREC format:
every query judges 1 to 4 documents (grades 0, 1, 2: some queries have no
relevant document) and each run returns 20 of a pool of 50 documents per
query, ordered by score, run B lifting the relevant ones more than run A
(so B is better on average, with many ties and losses). Then it times, as
the page calls them (best and median of ``--repeats``):

- reading and joining each run with the qrels (the TREC reader and ``model.judge``, on the bytes);
- the 4 default measures on run A (``measures.evaluate``);
- mean Recall@k and hit rate@k for k = 1 to 100: one pass per k
  (``metrics.recall(qs, k).mean()`` and ``metrics.success(qs, k).mean()``,
  the page's old loop) against ``metrics.mean_recall_and_success_by_k``,
  and the largest difference between the two;
- ``compare.compare_judged`` on the 4 measures (how each randomisation p was
  computed, its error bound, and both p-values);
- ``charts.win_loss_bars`` with ``.spec()``, and the size of the spec's JSON;
- ``charts.per_query_distribution`` with ``.spec()``, and its JSON size.

    python benchmarks/many_queries.py [--queries 200000] [--depth 20] [--repeats 3]
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Callable, TypeVar

import numpy as np

from components.engine import compare, metrics, model
from components.engine.measures import DEFAULT_MEASURES, evaluate
from components.formats import readers
from components.ui import charts

T = TypeVar("T")
POOL = 50  # candidate documents per query
KS = tuple(range(1, 101))  # the page draws at most 100 values of k


def generate(n_queries: int, depth: int, seed: int = 0) -> tuple[bytes, bytes, bytes]:
    """The qrels, run A and run B as TREC-format bytes."""
    rng = np.random.default_rng(seed)
    judged = rng.integers(1, 5, n_queries)  # documents d0 .. d{judged - 1} of each query are judged
    grades = rng.choice([0, 1, 2], size=(n_queries, 4), p=[0.3, 0.5, 0.2])
    qrels = "".join(f"q{q} 0 d{j} {grades[q, j]}\n" for q in range(n_queries) for j in range(judged[q]))
    relevant = np.zeros((n_queries, POOL), dtype=bool)
    relevant[:, :4] = (grades >= 1) & (np.arange(4) < judged[:, None])
    runs = []
    for name, lift in (("A", 0.2), ("B", 0.205)):
        docs = np.argsort(rng.random((n_queries, POOL)), axis=1)[:, :depth]  # depth distinct documents per query
        scores = rng.random(docs.shape) + lift * np.take_along_axis(relevant, docs, axis=1)
        ranked = np.argsort(-scores, axis=1)
        docs, scores = np.take_along_axis(docs, ranked, axis=1), np.take_along_axis(scores, ranked, axis=1)
        runs.append("".join(f"q{q} Q0 d{d} {r} {s:.6f} run{name}\n" for q, (row, row_scores) in
                            enumerate(zip(docs.tolist(), scores.tolist()))
                            for r, (d, s) in enumerate(zip(row, row_scores), 1)).encode())
    return qrels.encode(), runs[0], runs[1]


def timed(repeats: int, action: Callable[[], T]) -> tuple[list[float], T]:
    """The wall times of ``repeats`` calls of ``action``, and its last result."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - start)
    return times, result


def show(label: str, times: list[float], extra: str = "") -> None:
    print(f"{label:<58} best {min(times):7.3f} s, median {statistics.median(times):7.3f} s{extra}")


def per_k_loop(qs: metrics.QuerySet) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The page's old loop: a full pass over the query set per k, for each of the two measures."""
    return (tuple(float(metrics.recall(qs, k).mean()) for k in KS),
            tuple(float(metrics.success(qs, k).mean()) for k in KS))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=200_000)
    parser.add_argument("--depth", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    repeats = args.repeats

    start = time.perf_counter()
    qrels, run_a, run_b = generate(args.queries, args.depth)
    print(f"{args.queries:,} queries, {args.depth} results per query and run: qrels {len(qrels) / 1e6:.1f} MB, "
          f"runs {len(run_a) / 1e6:.1f} and {len(run_b) / 1e6:.1f} MB (generated in "
          f"{time.perf_counter() - start:.1f} s)")

    def read_and_join(run: bytes, name: str) -> model.JudgedRun:
        return model.judge(readers.read(qrels, "qrels").parsed, readers.read(run, "run", name).parsed)

    times, judged_a = timed(repeats, lambda: read_and_join(run_a, "run A"))
    show("read + join run A", times)
    times, judged_b = timed(repeats, lambda: read_and_join(run_b, "run B"))
    show("read + join run B", times)

    names = list(DEFAULT_MEASURES)
    times, values = timed(repeats, lambda: evaluate(judged_a.queries, names, "linear"))
    show(f"evaluate {', '.join(names)} (measures.evaluate)", times)

    qs = judged_a.queries
    loop_times, loop = timed(repeats, lambda: per_k_loop(qs))
    show(f"Recall@k + hit rate@k, k = 1..{KS[-1]}: a pass per k (old loop)", loop_times)
    pass_times, one_pass = timed(repeats, lambda: metrics.mean_recall_and_success_by_k(qs, KS))
    largest = max(abs(x - y) for x, y in zip(loop[0] + loop[1], one_pass[0] + one_pass[1]))
    show("  ... in one pass (metrics.mean_recall_and_success_by_k)", pass_times,
         f" ({min(loop_times) / min(pass_times):,.0f} x faster; largest difference {largest:.1e})")

    times, result = timed(repeats, lambda: compare.compare_judged(judged_a, judged_b, names, "linear"))
    show(f"compare_judged, {len(names)} measures, {len(result.qids):,} queries", times)
    for name, c in result.measures.items():
        print(f"  {name:<8} randomisation p {c.randomisation_p:.4f} ({c.randomisation_method}, error bound "
              f"{c.randomisation_error_bound:.4f}), t-test p {c.t_test_p:.4f}, "
              f"{c.improved:,} improved / {c.hurt:,} hurt / {c.tied:,} tied")

    shown = names[-1]
    diff = result.measures[shown].diff

    def win_loss() -> str:
        return json.dumps(charts.win_loss_bars(result.qids, diff, metric=shown).spec())

    times, spec = timed(repeats, win_loss)
    figure = charts.win_loss_bars(result.qids, diff, metric=shown)
    drawn = f"{figure.sample.shown:,} of {figure.sample.total:,}" if figure.sample else f"all {len(diff):,}"
    show(f"win_loss_bars({shown}) + spec + JSON", times, f" (JSON {len(spec) / 1e3:,.0f} kB, {drawn} queries drawn)")

    def distribution() -> str:
        return json.dumps(charts.per_query_distribution(values[shown], metric=shown).spec())

    times, spec = timed(repeats, distribution)
    show(f"per_query_distribution({shown}) + spec + JSON", times, f" (JSON {len(spec) / 1e3:,.1f} kB)")


if __name__ == "__main__":
    main()
