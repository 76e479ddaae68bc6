"""Time "how many queries do I need": power.plan() on a pilot's differences, and the chart's curve.

The pilot: ``--queries`` normal per-query differences (mean 0.01, sd 0.15; seeded), the difference to detect
0.02 at α = 0.05 and power 0.8 (about 440 queries needed). For each: its time (best of ``--repeats``) and
what it gave: plan() (the queries needed, by bracketing and bisecting the exact t power, and the detectable
difference at the pilot's size, by brentq), then Plan.curve over a 60-point chart of query counts
(power.query_counts: log-spaced, 10 to 5,000), one brentq each. The load average is printed, since the
machine may be shared.

    python benchmarks/power.py [--repeats 5] [--queries 50]
"""
from __future__ import annotations

import argparse

import numpy as np
from diagnose import best, load_average  # benchmarks/ is on the path when this file runs as a script

from components.engine import power

DELTA = 0.02
POINTS = 60


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--queries", type=int, default=50, help="the pilot's number of queries")
    args = parser.parse_args()
    differences = np.random.default_rng(20240515).normal(0.01, 0.15, size=args.queries)
    print(f"power: a pilot of {args.queries} queries, delta {DELTA}, alpha {power.ALPHA}, power {power.POWER}")
    print(load_average())
    seconds, plan = best(args.repeats, lambda _: power.plan(differences, DELTA))
    print(f"  plan()        {seconds * 1000:7.1f} ms   sd {plan.sd:.4f}, normal approximation "
          f"{plan.normal_queries:.1f}, queries needed {plan.queries_needed}, detectable at {plan.n_have}: "
          f"{plan.detectable:.4f}")
    counts = power.query_counts(power.CURVE_FROM, power.CURVE_TO, POINTS)
    seconds, curve = best(args.repeats, lambda _: plan.curve(counts))
    print(f"  curve         {seconds * 1000:7.1f} ms   {counts.size} points, {curve[0]:.4f} at {counts[0]} "
          f"to {curve[-1]:.4f} at {counts[-1]}")
    seconds, _ = best(args.repeats, lambda _: power.plan(differences, DELTA).curve(counts))
    print(f"  both          {seconds * 1000:7.1f} ms   (best of {args.repeats})")
    print(load_average())


if __name__ == "__main__":
    main()
