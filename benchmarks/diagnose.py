"""Time "Diagnose my run" on a pair at MS MARCO scale: every check, and the whole diagnosis.

The pair is evaluate_scale.py's ``msmarco`` set (about 7,000 queries × 1,000 documents: 7 million run
lines, 2 % of the scores tied with the one above; seeded, cached in the same temp folder), so every
check that reads the returned rows has 7 million of them. Most documents are unjudged there, so the
unjudged check warns, and the id checks normalise and join 7 million ids. Then, with ``--messy``, the
same run again with every docid written ``D`` + its number in upper case and a chunk suffix on a third
of them (``D1234#2``), the qrels in lower case (``d1234``): the id checks then find their matches.

For each check: its time (best of ``--repeats``) and what it found; then ``run_diagnosis.diagnose`` end
to end (the checks, and the evaluation of the measures it shares with the report), without reading the
files, and the time reading and joining them took, for scale. The load average is printed, since the
machine may be shared.

    python benchmarks/diagnose.py [--repeats 3] [--cache DIR] [--messy]
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import evaluate_scale  # benchmarks/ is on the path when this file runs as a script

from components.engine import model, run_diagnosis
from components.engine.measures import parse_measures
from components.formats import readers

MEASURES = ("R@10", "RR@10", "nDCG@10")
K = 10


def messy(qrels: Path, run: Path) -> tuple[Path, Path]:
    """The pair with its ids written two ways (see the module's docstring), beside the originals."""
    out_qrels, out_run = qrels.with_suffix(".messy.qrels"), run.with_suffix(".messy.run")
    if not out_run.exists():
        with qrels.open() as src, out_qrels.open("w") as dst:
            for line in src:
                q, it, doc, grade = line.split()
                dst.write(f"{q} {it} d{doc} {grade}\n")
        with run.open() as src, out_run.open("w") as dst:
            for i, line in enumerate(src):
                q, q0, doc, rank, score, tag = line.split()
                dst.write(f"{q} {q0} D{doc}{'#2' if i % 3 == 0 else ''} {rank} {score} {tag}\n")
    return out_qrels, out_run


SHARED = ("queries", "answered", "answered_qids", "values", "score32", "tied_with_next", "run_rows", "starts")


def best(repeats: int, work, setup=lambda: None) -> tuple[float, object]:
    """The best wall time of ``repeats`` calls of ``work(setup())`` (setup untimed), and the last result."""
    times, result = [], None
    for _ in range(repeats):
        prepared = setup()
        start = time.perf_counter()
        result = work(prepared)
        times.append(time.perf_counter() - start)
    return min(times), result


def time_pair(name: str, qrels_path: Path, run_path: Path, repeats: int) -> None:
    start = time.perf_counter()
    qrels, run = (done.parsed for done in readers.read_pair(qrels_path, run_path))
    judged = model.judge(qrels, run)
    read = time.perf_counter() - start
    print(f"\n== {name}: {run.qidx.size:,} run lines, {qrels.qidx.size:,} judgments; "
          f"read and joined in {read:.2f} s ==")
    print(load_average())
    measures = parse_measures(MEASURES)

    def pair() -> run_diagnosis.Pair:
        """A fresh pair whose shared arrays (the measures' values among them) are ready: each check alone is timed."""
        fresh = run_diagnosis.Pair(qrels, run, judged, K, measures, "linear")
        for shared in SHARED:
            getattr(fresh, shared)
        return fresh

    seconds, _ = best(repeats, lambda _: pair())
    print(f"  {'shared arrays':13} {seconds:6.3f} s   (the measures' values, tie groups, row maps)")
    for check, function in run_diagnosis.CHECKS.items():
        seconds, finding = best(repeats, function, pair)
        print(f"  {check:13} {seconds:6.3f} s   {finding.severity:7} count {finding.count:,}")
    seconds, diagnosis = best(repeats, lambda _: run_diagnosis.diagnose(qrels, run, judged, k=K, measures=MEASURES,
                                                                         gain="linear"))
    found = ", ".join(f"{f.check} ({f.severity})" for f in diagnosis.problems) or "nothing"
    print(f"  diagnose, end to end: {seconds:.2f} s (best of {repeats}); found: {found}")
    print(load_average())


def load_average() -> str:
    return "load average {:.2f} {:.2f} {:.2f} (1, 5, 15 min) on {} cores".format(*os.getloadavg(), os.cpu_count())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "rankwise-evaluate-scale",
                        help="folder for the generated files (shared with evaluate_scale.py)")
    parser.add_argument("--messy", action="store_true", help="also time a pair whose ids are written two ways")
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    qrels, run = evaluate_scale.generate(evaluate_scale.SETS["msmarco"], args.cache)
    print(f"diagnose: k = {K}, measures {', '.join(MEASURES)}, files in {args.cache}")
    time_pair("msmarco", qrels, run, args.repeats)
    if args.messy:
        time_pair("msmarco, ids written two ways", *messy(qrels, run), args.repeats)


if __name__ == "__main__":
    main()
