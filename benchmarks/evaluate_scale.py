"""Time parse + evaluate end to end at MS MARCO scale: ours against pytrec_eval and ranx.

Two generated sets (seeded, cached in a temp folder between runs):

- ``msmarco``: about 7,000 queries × 1,000 documents (7 million run lines,
  about 250 MB), about 1.1 relevant documents per query (grade 1, about 20 %
  of them never retrieved), 2 % of the scores tied with the one above;
  numeric ids, single spaces, results written in rank order with ties in no
  particular order (as search engines write them);
- ``wide``: 50,000 queries × 100 documents (5 million run lines), graded
  judgments (about 3 per query, grades 0 to 3), docids such as ``D1234567``,
  the qrels tab-separated, the run's queries in no particular order.

Each tool reads both files and computes R@10, RR@10 and nDCG@10 (linear
gain, as trec_eval) in a fresh process, timed from the parent (interpreter
start and imports included):

- ours: ``python -m components.cli eval QRELS RUN -m R@10 -m RR@10 -m nDCG@10 --json``;
- pytrec_eval: its own ``parse_qrel``/``parse_run`` and ``RelevanceEvaluator``
  with recall.10, recip_rank and ndcg_cut.10 (trec_eval has no RR cutoff:
  RR@10 is recip_rank where that is at least 1/10, else 0, which is exact);
- ranx (if an interpreter with ranx is given or found, by default
  ``/tmp/ranxvenv/bin/python``): ``Qrels.from_file``, ``Run.from_file`` and
  ``evaluate`` with recall@10, mrr@10 and ndcg@10; the first call after its
  numba cache is cleared is "JIT-cold", the next ones "JIT-warm". ranx
  breaks score ties otherwise than trec_eval (which puts the larger docid
  first), so with 2 % ties its means differ from pytrec_eval's (about 1e-4);
- with ``--with-precise``, ours again with the precise reader forced.

For each: wall time (best and every repeat), CPU time (user + system) and
peak memory of the child (``ru_maxrss``, both from ``os.wait4``), the ratio
of the best wall time to the faster of pytrec_eval and ranx (warm), and
whether every mean agrees with pytrec_eval's to 1e-9. The tools take turns
in each repeat, and the load average is printed before and after each set,
since the machine may be shared.

    python benchmarks/evaluate_scale.py [--sets msmarco wide] [--repeats 2] [--cache DIR] [--regenerate]
                                        [--ranx-python PATH | --no-ranx] [--with-precise]

ranx is never a project dependency: install it in a throwaway venv,
``python3 -m venv /tmp/ranxvenv && /tmp/ranxvenv/bin/pip install ranx``.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

ROOT = Path(__file__).resolve().parents[1]
SEED = 16
MEASURES = ("R@10", "RR@10", "nDCG@10")
AGREEMENT = 1e-9
DEFAULT_RANX_PYTHON = Path("/tmp/ranxvenv/bin/python")


# ----------------------------------------------------------------------------
# Generating the sets
# ----------------------------------------------------------------------------

@dataclass(frozen=True)
class SetSpec:
    """The shape of one generated set."""

    name: str
    n_queries: int
    depth: int
    docid_prefix: str
    graded: bool
    qrels_delimiter: str
    shuffle_queries: bool

    @property
    def stamp(self) -> str:
        """Names the files: a change of shape or seed makes new ones."""
        return f"{self.name}-{self.n_queries}x{self.depth}-seed{SEED}"


SETS = {
    "msmarco": SetSpec("msmarco", 7_000, 1_000, "", graded=False, qrels_delimiter=" ", shuffle_queries=False),
    "wide": SetSpec("wide", 50_000, 100, "D", graded=True, qrels_delimiter="\t", shuffle_queries=True),
}
TIED_SHARE = 0.02
COLLECTION = 8_841_823  # MS MARCO passages: docids below this number


def generate(spec: SetSpec, folder: Path) -> tuple[Path, Path]:
    """Write (qrels, run) for spec into folder unless they are already there; return their paths."""
    qrels_path, run_path = folder / f"{spec.stamp}.qrels", folder / f"{spec.stamp}.run"
    if qrels_path.exists() and run_path.exists():
        return qrels_path, run_path
    rng = np.random.default_rng([SEED, spec.n_queries, spec.depth])
    qids = rng.choice(np.arange(1_000, 1_200_000), spec.n_queries, replace=False)
    if not spec.shuffle_queries:
        qids.sort()
    docs = _rankings(rng, spec.n_queries, spec.depth)
    scores = _scores(rng, spec.n_queries, spec.depth)
    judged_q, judged_doc, grade = _judgments(rng, docs, spec.graded)
    _write(run_path, {
        "qid": np.repeat(qids, spec.depth), "q0": np.full(docs.size, "Q0"), "docid": _ids(docs.ravel(), spec),
        "rank": np.tile(np.arange(1, spec.depth + 1), spec.n_queries), "score": scores.ravel(),
        "tag": np.full(docs.size, "bench")}, " ")
    _write(qrels_path, {"qid": qids[judged_q], "iter": np.zeros(judged_q.size, np.int64),
                        "docid": _ids(judged_doc, spec), "grade": grade}, spec.qrels_delimiter)
    return qrels_path, run_path


def _rankings(rng: np.random.Generator, n_queries: int, depth: int) -> np.ndarray:
    """(n_queries, depth) docids, distinct within a query (increasing gaps, then shuffled)."""
    gaps = rng.integers(1, 18, (n_queries, depth))
    start = rng.integers(0, COLLECTION - 18 * depth, n_queries)[:, None]
    docs = start + np.cumsum(gaps, axis=1)
    return np.take_along_axis(docs, rng.random((n_queries, depth)).argsort(axis=1), axis=1)


def _scores(rng: np.random.Generator, n_queries: int, depth: int) -> np.ndarray:
    """(n_queries, depth) BM25-like scores, descending (4 decimals), about 2 % tied with the one above."""
    top = rng.uniform(20, 40, (n_queries, 1))
    drops = 0.00015 + rng.exponential(15 / depth, (n_queries, depth))
    drops[:, 0] = 0
    scores = np.round(top - np.cumsum(drops, axis=1), 4)
    tied = rng.random((n_queries, depth)) < TIED_SHARE
    tied[:, 0] = False
    for j in range(1, depth):  # a tie copies the score above (which may itself be a copy)
        scores[tied[:, j], j] = scores[tied[:, j], j - 1]
    return scores


def _judgments(rng: np.random.Generator, docs: np.ndarray, graded: bool):
    """(query index, docid, grade) of each judgment.

    Binary: 1 relevant document per query, 2 for 10 % of queries, 80 % of them
    retrieved (at a log-uniform rank), the others never retrieved. Graded:
    1 to 5 judged documents per query, grades 0 to 3, 85 % retrieved.
    """
    n_queries, depth = docs.shape
    per_query = (1 + (rng.random(n_queries) < 0.10)) if not graded else rng.integers(1, 6, n_queries)
    q = np.repeat(np.arange(n_queries), per_query)
    rank = np.minimum(np.exp(rng.uniform(0, np.log(depth), q.size)).astype(np.int64), depth) - 1  # 0-based
    retrieved = rng.random(q.size) < (0.85 if graded else 0.80)
    _, first = np.unique(q * depth + rank, return_index=True)
    retrieved &= np.isin(np.arange(q.size), first)  # a rank drawn twice for one query: judge another document
    unretrieved = 9_000_000 + np.arange(q.size)  # beyond every retrieved docid: never retrieved
    doc = np.where(retrieved, docs[q, rank], unretrieved)
    grade = rng.integers(0, 4, q.size) if graded else np.ones(q.size, np.int64)
    order = rng.permutation(q.size)
    return q[order], doc[order], grade[order]


def _ids(numbers: np.ndarray, spec: SetSpec) -> pa.Array:
    ids = pc.cast(pa.array(numbers), pa.string())
    return pc.binary_join_element_wise(spec.docid_prefix, ids, "") if spec.docid_prefix else ids


def _write(path: Path, columns: dict, delimiter: str) -> None:
    """Write columns as text lines, one value per column, separated by delimiter (atomically)."""
    table = pa.table({name: pa.array(values) if not isinstance(values, pa.Array) else values
                      for name, values in columns.items()})
    partial = path.with_suffix(path.suffix + ".partial")
    pacsv.write_csv(table, partial, pacsv.WriteOptions(include_header=False, delimiter=delimiter,
                                                       quoting_style="none"))
    partial.replace(path)


# ----------------------------------------------------------------------------
# Timing each tool in a fresh process
# ----------------------------------------------------------------------------

PYTREC_EVAL_CHILD = """
import json, sys
import pytrec_eval
with open(sys.argv[1]) as f:
    qrel = pytrec_eval.parse_qrel(f)
with open(sys.argv[2]) as f:
    run = pytrec_eval.parse_run(f)
per_query = pytrec_eval.RelevanceEvaluator(qrel, {"recall.10", "recip_rank", "ndcg_cut.10"}).evaluate(run).values()
n = len(per_query)
print(json.dumps({
    "R@10": sum(v["recall_10"] for v in per_query) / n,
    "RR@10": sum(v["recip_rank"] if v["recip_rank"] >= 1 / 10 else 0.0 for v in per_query) / n,  # hit in the top 10
    "nDCG@10": sum(v["ndcg_cut_10"] for v in per_query) / n,
}))
"""

RANX_CHILD = """
import json, sys
from ranx import Qrels, Run, evaluate
means = evaluate(Qrels.from_file(sys.argv[1], kind="trec"), Run.from_file(sys.argv[2], kind="trec"),
                 ["recall@10", "mrr@10", "ndcg@10"])
print(json.dumps({"R@10": means["recall@10"], "RR@10": means["mrr@10"], "nDCG@10": means["ndcg@10"]}))
"""

PRECISE_CHILD = """
import json, sys
from pathlib import Path
from components.formats import trec
from components.engine.measures import evaluate
from components.engine.model import judge
judged = judge(trec.read_with("precise", Path(sys.argv[1]), "qrels"), trec.read_with("precise", Path(sys.argv[2]), "run"))
print(json.dumps({name: float(v.mean()) for name, v in evaluate(judged.queries, sys.argv[3:], "linear").items()}))
"""


@dataclass(frozen=True)
class Timing:
    """One fresh process: wall time, CPU time (user + system), peak memory, and the means it printed."""

    wall: float
    cpu: float
    peak_mb: float
    means: dict[str, float]


def run_child(argv: list[str], env: dict[str, str] | None = None) -> Timing:
    """Run argv (argv[0] an absolute path) in a fresh process; its resource usage comes from os.wait4."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        actions = [(os.POSIX_SPAWN_DUP2, out.fileno(), 1), (os.POSIX_SPAWN_DUP2, err.fileno(), 2)]
        start = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, env or dict(os.environ), file_actions=actions)
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - start
        out.seek(0), err.seek(0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise RuntimeError(f"{' '.join(argv[:3])} ... failed:\n{err.read().decode(errors='replace')[-2000:]}")
        output = out.read().decode()
    means = json.loads(output)
    means = means.get("mean", means)  # ours prints the report; the others print the means
    return Timing(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, means)


def ours(qrels: Path, run: Path) -> Timing:
    measures = [a for m in MEASURES for a in ("-m", m)]
    return run_child([sys.executable, "-m", "components.cli", "eval", str(qrels), str(run), *measures, "--json"],
                     {**os.environ, "PYTHONPATH": str(ROOT)})


def ours_precise(qrels: Path, run: Path) -> Timing:
    return run_child([sys.executable, "-c", PRECISE_CHILD, str(qrels), str(run), *MEASURES],
                     {**os.environ, "PYTHONPATH": str(ROOT)})


def pytrec_eval(qrels: Path, run: Path) -> Timing:
    return run_child([sys.executable, "-c", PYTREC_EVAL_CHILD, str(qrels), str(run)])


def ranx(python: Path, numba_cache: Path):
    """A timer for ranx with python, its numba cache in numba_cache (empty: JIT-cold; filled: JIT-warm)."""
    def timed(qrels: Path, run: Path) -> Timing:
        return run_child([str(python), "-c", RANX_CHILD, str(qrels), str(run)],
                         {**os.environ, "NUMBA_CACHE_DIR": str(numba_cache)})
    return timed


# ----------------------------------------------------------------------------
# The report
# ----------------------------------------------------------------------------

def load_average() -> str:
    return "load average {:.2f} {:.2f} {:.2f} (1, 5, 15 min) on {} cores".format(*os.getloadavg(), os.cpu_count())


def time_set(spec: SetSpec, folder: Path, repeats: int, ranx_python: Path | None, with_precise: bool) -> None:
    """Generate (or reuse) one set, time every tool on it and print the figures."""
    qrels, run = generate(spec, folder)
    print(f"\n== {spec.name}: {spec.n_queries:,} queries × {spec.depth:,} = {spec.n_queries * spec.depth:,} run lines "
          f"({run.stat().st_size / 2**20:.0f} MiB), {_lines(qrels):,} judgments ==")
    print(load_average(), flush=True)
    tools = {"ours (python -m components.cli eval)": ours, "pytrec_eval": pytrec_eval}
    if with_precise:
        tools["ours, precise reader only"] = ours_precise
    timings: dict[str, list[Timing]] = {name: [] for name in tools}
    if ranx_python:
        numba_cache = folder / f"numba-cache-{spec.name}"
        shutil.rmtree(numba_cache, ignore_errors=True)
        timings["ranx, JIT-cold"] = [ranx(ranx_python, numba_cache)(qrels, run)]
        _progress("ranx, JIT-cold", timings["ranx, JIT-cold"][-1])
        tools["ranx, JIT-warm"] = ranx(ranx_python, numba_cache)
        timings["ranx, JIT-warm"] = []
    for _ in range(repeats):  # the tools take turns, so that a change of load touches them alike
        for name, tool in tools.items():
            timings[name].append(tool(qrels, run))
            _progress(name, timings[name][-1])
    _print_table(timings)
    print(load_average())


def _print_table(timings: dict[str, list[Timing]]) -> None:
    reference = min(timings["pytrec_eval"], key=lambda t: t.wall).means
    rivals = {name: min(t.wall for t in timings[name]) for name in ("pytrec_eval", "ranx, JIT-warm") if name in timings}
    fastest_rival = min(rivals.values())
    print(f"\n{'tool':40} {'wall s (each run)':>24} {'best s':>7} {'CPU s':>6} {'peak MB':>8} {'ratio':>6}  means")
    for name, runs in timings.items():
        best = min(runs, key=lambda t: t.wall)
        walls = ", ".join(f"{t.wall:.1f}" for t in runs)
        agree = _agreement(best.means, reference)
        print(f"{name:40} {walls:>24} {best.wall:7.2f} {best.cpu:6.1f} {max(t.peak_mb for t in runs):8.0f} "
              f"{best.wall / fastest_rival:6.2f}  {agree}")
    print(f"ratio: best wall time / the best of {' and '.join(rivals)} = {fastest_rival:.2f} s; "
          f"goal for ours: <= 0.45 (issue #44), peak < 1024 MB")
    print("means: " + ", ".join(f"{m} {reference[m]:.6f}" for m in MEASURES) + " (pytrec_eval)")


def _agreement(means: dict[str, float], reference: dict[str, float]) -> str:
    worst = max(abs(means[m] - reference[m]) for m in MEASURES)
    return "agree with pytrec_eval" if worst <= AGREEMENT else f"DIFFER from pytrec_eval by up to {worst:.2e}"


def _progress(name: str, timing: Timing) -> None:
    print(f"  {name}: {timing.wall:.2f} s wall, {timing.cpu:.1f} s CPU, {timing.peak_mb:.0f} MB peak", flush=True)


def _lines(path: Path) -> int:
    with path.open("rb") as f:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 24), b""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", choices=sorted(SETS), default=list(SETS))
    parser.add_argument("--repeats", type=int, default=2, help="runs of each tool (JIT-cold ranx: one)")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "rankwise-evaluate-scale",
                        help="folder for the generated files (kept between runs)")
    parser.add_argument("--regenerate", action="store_true", help="write the files again")
    parser.add_argument("--ranx-python", type=Path, default=DEFAULT_RANX_PYTHON,
                        help="an interpreter with ranx installed (default: %(default)s)")
    parser.add_argument("--no-ranx", action="store_true")
    parser.add_argument("--with-precise", action="store_true", help="also time ours with the precise reader only")
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    if args.regenerate:
        for path in args.cache.glob("*-seed*.*"):
            path.unlink()
    ranx_python = None if args.no_ranx else _ranx_python(args.ranx_python)
    print(f"evaluate_scale: {', '.join(MEASURES)} (linear gain), files in {args.cache}")
    for name in args.sets:
        time_set(SETS[name], args.cache, args.repeats, ranx_python, args.with_precise)


def _ranx_python(python: Path) -> Path | None:
    """python if it can import ranx, else None (with a note)."""
    if python.exists() and subprocess.run([str(python), "-c", "import ranx"], capture_output=True).returncode == 0:
        return python
    print(f"note: no ranx at {python}: ranx is left out "
          "(python3 -m venv /tmp/ranxvenv && /tmp/ranxvenv/bin/pip install ranx)")
    return None


if __name__ == "__main__":
    main()
