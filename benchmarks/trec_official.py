"""Time trec_eval's default output (``-m official``) at MS MARCO scale: ``rankwise eval`` against pytrec_eval.

The sets are :mod:`benchmarks.evaluate_scale`'s (generated once, cached in
the same folder). Each tool reads both files and computes trec_eval's
official measures in a fresh process, timed from the parent (interpreter
start and imports included):

- ours: ``python -m components.cli eval QRELS RUN -m official --json``;
- pytrec_eval: ``parse_qrel``/``parse_run`` and ``RelevanceEvaluator`` with
  num_q, num_ret, num_rel, num_rel_ret, map, gm_map, Rprec, bpref,
  recip_rank, iprec_at_recall and P (trec_eval's default cutoffs), each mean
  from ``compute_aggregated_measure`` (sums for the counts, the geometric
  mean for gm_map), as trec_eval's "all" line.

For each: wall time (best and every repeat), CPU time, peak memory
(``ru_maxrss``), the ratio of our best wall time to pytrec_eval's (goal:
<= 0.5, peak < 1 GB), and whether all 29 means agree to 1e-9. The trec_eval
program itself is not timed: no source package of it can be fetched here
(PyPI's pytrec_eval sources download trec_eval from GitHub when built).

    python benchmarks/trec_official.py [--sets msmarco wide] [--repeats 2] [--cache DIR]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from evaluate_scale import ROOT, SETS, Timing, generate, load_average, run_child

from components.engine.measures import parse_measures, trec_name

OFFICIAL = [m.name for m in parse_measures(["official"])]
AGREEMENT = 1e-9

PYTREC_EVAL_CHILD = """
import json, sys
import pytrec_eval
with open(sys.argv[1]) as f:
    qrel = pytrec_eval.parse_qrel(f)
with open(sys.argv[2]) as f:
    run = pytrec_eval.parse_run(f)
names = {"num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
         "iprec_at_recall", "P"}
per_query = list(pytrec_eval.RelevanceEvaluator(qrel, names).evaluate(run).values())
print(json.dumps({m: pytrec_eval.compute_aggregated_measure(m, [v[m] for v in per_query]) for m in per_query[0]}))
"""


def ours(qrels: Path, run: Path) -> Timing:
    return run_child([sys.executable, "-m", "components.cli", "eval", str(qrels), str(run), "-m", "official",
                      "--json"], {**os.environ, "PYTHONPATH": str(ROOT)})


def pytrec_eval(qrels: Path, run: Path) -> Timing:
    return run_child([sys.executable, "-c", PYTREC_EVAL_CHILD, str(qrels), str(run)])


def worst_difference(ours_means: dict[str, float], theirs: dict[str, float]) -> float:
    """The largest |ours − pytrec_eval's| over the official measures, matched by trec_eval's names."""
    return max(abs(ours_means[m] - theirs[trec_name(m)]) for m in OFFICIAL)


def time_set(name: str, folder: Path, repeats: int) -> None:
    spec = SETS[name]
    qrels, run = generate(spec, folder)
    print(f"\n== {name}: {spec.n_queries:,} queries × {spec.depth:,} = {spec.n_queries * spec.depth:,} run lines, "
          f"-m official ({len(OFFICIAL)} measures) ==")
    print(load_average(), flush=True)
    timings: dict[str, list[Timing]] = {"ours (rankwise eval -m official)": [], "pytrec_eval": []}
    for _ in range(repeats):  # the tools take turns, so that a change of load touches them alike
        for tool_name, tool in zip(timings, (ours, pytrec_eval)):
            timings[tool_name].append(tool(qrels, run))
            t = timings[tool_name][-1]
            print(f"  {tool_name}: {t.wall:.2f} s wall, {t.cpu:.1f} s CPU, {t.peak_mb:.0f} MB peak", flush=True)
    (ours_runs, theirs_runs) = timings.values()
    best_ours, best_theirs = min(ours_runs, key=lambda t: t.wall), min(theirs_runs, key=lambda t: t.wall)
    worst = worst_difference(best_ours.means, best_theirs.means)
    print(f"ours best {best_ours.wall:.2f} s ({max(t.peak_mb for t in ours_runs):.0f} MB peak), pytrec_eval best "
          f"{best_theirs.wall:.2f} s ({max(t.peak_mb for t in theirs_runs):.0f} MB peak): ratio "
          f"{best_ours.wall / best_theirs.wall:.2f} (goal <= 0.50, peak < 1024 MB)")
    print(f"means: {'agree with pytrec_eval' if worst <= AGREEMENT else 'DIFFER from pytrec_eval'} "
          f"(largest difference {worst:.1e} over {len(OFFICIAL)} measures); map {best_ours.means['AP']:.6f}, "
          f"P@10 {best_ours.means['P@10']:.6f}, IPrec@0.5 {best_ours.means['IPrec@0.5']:.6f}")
    print(load_average())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", choices=sorted(SETS), default=["msmarco"])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "rankwise-evaluate-scale")
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    for name in args.sets:
        time_set(name, args.cache, args.repeats)


if __name__ == "__main__":
    main()
