"""Time the comparison of several runs with a baseline, what the "Compare runs" page and
``rankwise eval QRELS RUN1 RUN2 ...`` do: every run against the baseline on four measures, with the
randomisation tests, the paired BCa bootstrap intervals (10,000 resamples) and the correction.

The judgments are those of a made-up collection of ``--queries`` queries (30 judged documents each, grades 0 to
2); the baseline and ``--variants`` variants each return 100 documents per query, every variant a little better
or worse than the baseline (seeded). Printed: the time to judge the runs (reading is the readers' own
benchmark), ``many_runs.compare_many`` end to end, its parts (the tests of one pair, the bootstrap of all its
measures), and ``explain_query`` and ``power.plan`` for one query and one pair. Best of ``--repeats``; the load
average is printed, since the machine may be shared.

    python benchmarks/many_runs.py [--queries 5000] [--variants 9] [--repeats 3]
"""
from __future__ import annotations

import argparse

import numpy as np
from diagnose import best, load_average  # benchmarks/ is on the path when this file runs as a script

from components.engine import bootstrap, compare, many_runs, model, power
from components.formats import readers

MEASURES = ("R@10", "RR", "AP", "nDCG@10")
DEPTH = 100
JUDGED = 30


def collection(queries: int, variants: int, seed: int = 7) -> tuple[str, list[str]]:
    """The qrels text and the runs' texts (the baseline first)."""
    rng = np.random.default_rng(seed)
    grades = rng.choice([0, 1, 2], size=(queries, JUDGED), p=[0.6, 0.3, 0.1])
    qrels = "".join(f"q{q} 0 d{d} {grades[q, d]}\n" for q in range(queries) for d in range(JUDGED))
    runs = []
    for skill in [0.0, *np.linspace(-0.2, 0.4, variants)]:
        lines = []
        for q in range(queries):
            signal = np.concatenate([(1 + skill) * grades[q], np.zeros(DEPTH - JUDGED)])
            order = np.argsort(-(signal + rng.normal(0, 1.2, DEPTH)))
            lines += [f"q{q} Q0 d{d} {r} {DEPTH - r} run\n" for r, d in enumerate(order, 1)]
        runs.append("".join(lines))
    return qrels, runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=5000)
    parser.add_argument("--variants", type=int, default=9)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    qrels, runs = collection(args.queries, args.variants)
    seconds, judged = best(1, lambda _: [model.judge(*(done.parsed for done in readers.read_pair(qrels, r))) for r in runs])
    print(f"{args.queries:,} queries, a baseline and {args.variants} variants of {DEPTH} documents per query")
    print(f"  judge the {len(runs)} runs          {seconds:7.2f} s")
    names = [f"r{i}" for i in range(len(runs))]
    seconds, result = best(args.repeats, lambda _: many_runs.compare_many(judged, names, MEASURES))
    print(f"  compare_many (all)          {seconds:7.2f} s   {result.family} comparisons corrected together")
    seconds, pair = best(args.repeats, lambda _: compare.compare_judged(judged[0], judged[1], MEASURES, "linear"))
    print(f"  one pair's tests            {seconds:7.2f} s")
    diffs = np.column_stack([pair.measures[m].diff for m in MEASURES])
    seconds, _ = best(args.repeats, lambda _: bootstrap.intervals(diffs))
    print(f"  one pair's bootstrap        {seconds:7.2f} s   {len(MEASURES)} measures × {bootstrap.RESAMPLES:,} resamples")
    seconds, _ = best(args.repeats, lambda _: many_runs.explain_query(judged[0], judged[1], "q0", MEASURES))
    print(f"  explain one query           {seconds:7.3f} s   {len(MEASURES)} measures")
    seconds, _ = best(args.repeats, lambda _: power.plan(pair.measures["nDCG@10"].diff, 0.02))
    print(f"  power.plan for one pair     {seconds:7.3f} s")
    print(load_average())


if __name__ == "__main__":
    main()
