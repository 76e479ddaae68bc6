"""Time trec_eval's measures in the engine core on 7,000 queries × 1,000 ranked documents (arrays in memory).

About 1 % of the returned documents are relevant and half are unjudged
(``is_judged``), so bpref and Judged@k skip them; each query also has one
relevant document it never returned (:func:`make_query_set`).
Prints the best and median time of each measure alone, of all of them in one
``measures.evaluate`` call, and of ``judged_only``; with ``--check N``, also
whether every set value on another set of N queries agrees with pytrec_eval's
to 1e-9 (and pytrec_eval's time for them, its dictionaries built beforehand).

    python benchmarks/trec_measures.py [--queries 7000] [--depth 1000] [--repeats 5] [--check 300]
"""
from __future__ import annotations

import argparse
import statistics
import time
from typing import Callable

import numpy as np

from components.engine import measures, metrics

NAMES = ("AP", "AP@10", "GMAP", "R-prec", "bpref", "nDCG", "Judged@10", "num_ret", "num_rel", "num_rel_ret", "num_q")


def make_query_set(n_queries: int, depth: int, seed: int = 0) -> metrics.QuerySet:
    """Returned documents: 1 % relevant (grades 1 to 3), 49 % judged non-relevant (0, or -1 for one in ten), the rest
    unjudged; the judgments are the judged returned documents plus one relevant document per query never returned."""
    rng = np.random.default_rng(seed)
    qidx = np.repeat(np.arange(n_queries), depth)
    rank = np.tile(np.arange(1, depth + 1), n_queries)
    draw = rng.random(qidx.size)
    grade = np.where(draw < 0.01, rng.integers(1, 4, qidx.size), np.where(draw < 0.059, -1, 0))
    is_judged = draw < 0.5
    judged_qidx = np.r_[qidx[is_judged], np.arange(n_queries)]
    judged_grade = np.r_[grade[is_judged], np.ones(n_queries, dtype=np.int64)]
    order = np.argsort(judged_qidx, kind="stable")
    return metrics.query_set(n_queries, qidx, rank, grade, judged_qidx[order], judged_grade[order], is_judged)


def best_and_median(work: Callable[[], object], repeats: int) -> tuple[float, float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def check_against_pytrec_eval(n_queries: int, depth: int) -> tuple[bool, float]:
    """Whether every set value on a set of n_queries agrees with pytrec_eval's to 1e-9, and pytrec_eval's time.

    Returned row r is document "d<r>"; the never-returned relevant document of
    query q is "x<q>". Negative grades are left out of the qrels: trec_eval
    reads them as unjudged, the same as absent (and pytrec_eval's heap breaks
    on them).
    """
    import pytrec_eval

    qs = make_query_set(n_queries, depth, seed=1)
    judged = qs.is_judged if qs.is_judged is not None else np.ones(qs.rank.size, dtype=bool)
    qrel: dict[str, dict[str, int]] = {f"q{q}": {f"x{q}": 1} for q in range(n_queries)}
    run: dict[str, dict[str, float]] = {f"q{q}": {} for q in range(n_queries)}
    for row, (q, r, g, j) in enumerate(zip(qs.qidx.tolist(), qs.rank.tolist(), qs.grade.tolist(), judged.tolist())):
        run[f"q{q}"][f"d{row}"] = float(depth - r)
        if j and g >= 0:
            qrel[f"q{q}"][f"d{row}"] = g
    names = {trec: n for n in NAMES if (trec := measures.trec_name(n)) is not None}
    start = time.perf_counter()
    scores = pytrec_eval.RelevanceEvaluator(qrel, set(names)).evaluate(run)
    took = time.perf_counter() - start
    ours = measures.evaluate(qs, list(names.values()), gain="linear")
    agree = all(abs(measures.aggregate(name, ours[name]) - pytrec_eval.compute_aggregated_measure(
        trec, [scores[f"q{q}"][trec] for q in range(n_queries)])) < 1e-9 for trec, name in names.items())
    return agree, took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=7_000)
    parser.add_argument("--depth", type=int, default=1_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--check", type=int, default=0, help="compare with pytrec_eval on this many queries")
    args = parser.parse_args()
    qs = make_query_set(args.queries, args.depth)
    unjudged = 0 if qs.is_judged is None else int((~qs.is_judged).sum())
    print(f"engine core, {args.queries:,} queries × {args.depth:,} documents = {qs.rank.size:,} rows, "
          f"{unjudged:,} of them unjudged")
    for name in NAMES:
        best, median = best_and_median(lambda: measures.evaluate(qs, [name], "linear"), args.repeats)
        print(f"  {name:<12} best {best:.3f} s, median {median:.3f} s")
    best, median = best_and_median(lambda: measures.evaluate(qs, NAMES, "linear"), args.repeats)
    print(f"all {len(NAMES)} in one evaluate call: best {best:.3f} s, median {median:.3f} s over {args.repeats} repeats")
    best, median = best_and_median(lambda: metrics.judged_only(qs), args.repeats)
    print(f"judged_only: best {best:.3f} s, median {median:.3f} s")
    values = measures.evaluate(qs, NAMES, "linear")
    print("set values: " + "  ".join(f"{n} {measures.aggregate(n, v):.4f}" for n, v in values.items()))
    if args.check:
        agree, took = check_against_pytrec_eval(args.check, args.depth)
        print(f"{args.check:,} queries × {args.depth:,}: every set value agrees with pytrec_eval's to 1e-9: {agree} "
              f"(pytrec_eval {took:.3f} s for them, its dictionaries built beforehand)")


if __name__ == "__main__":
    main()
