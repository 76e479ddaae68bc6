"""Peak memory of reading a run whose ids are padded to the longest one: an amplification file against normal runs.

The reader keeps ids as fixed-width byte strings padded to the longest id of
their column, so one long id among many short lines could make the parsed
arrays far larger than the file. Three runs of 100,000 short lines (about
2.3 MB; 1,000 queries of 100 results, written in rank order):

- ``normal``: nothing else;
- ``at the limit``: plus one line whose docid is ``columns.MAX_ID_BYTES`` long
  (accepted; the padded docids stay within the reader's bound);
- ``amplification``: plus one line whose docid is 10,000 characters long
  (refused with a message since the limit; read, padded, before it).

Each file is read in a fresh process, and the peak resident memory of that
process (``ru_maxrss`` from ``os.wait4``, interpreter and imports included)
printed, with its exit status:

- ``read_run precise`` / ``read_run fast``: ``trec.read_with(reader, path, "run")``, the TREC reader
  chosen;
- ``CLI``: ``python -m components.cli QRELS RUN --json`` (the qrels judge
  one document per query, the long docid among them when there is one, so the
  join widens both sides);
- ``baseline``: the interpreter importing the reader and nothing else.

    python benchmarks/reader_memory.py [--lines 100000] [--long 10000] [--json-mb 100]

Measured on a shared 2-core machine (peak RSS; the interpreter alone: 29 MB):

==============  ==================  ================  =====================
file            read_run precise    read_run fast     CLI (qrels and run)
==============  ==================  ================  =====================
normal          52 MB               139 MB            56 MB
at the limit    137 MB              232 MB            141 MB
amplification   before: 1,946 MB    before: 2,044 MB  before: 1,973 MB
                since: 52 MB,       since: 137 MB,    since: 42 MB,
                refused             declined          refused (exit 1)
==============  ==================  ================  =====================

(pyarrow's import takes about 85 MB of the fast reader's figures.)

And a JSON run (``--json-mb``, default 100): a dict-of-dicts of 1,000
results per query on one line, as pytrec_eval takes it, against the same
run as a TREC file, each read by the CLI with qrels judging one document per
query:

=================  ==========================================
file               CLI (qrels and run), peak RSS
=================  ==========================================
run.json 103 MB    before: 1,449 MB; since: 774 MB
run.trec 160 MB    563 MB
=================  ==========================================

(Before, the JSON reader held the whole tree of Python values and a string
per row; since, one query's values at a time and the TREC text as bytes.)
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from components.formats import columns  # noqa: E402  (after the path: the script runs from anywhere


def write_files(folder: Path, lines: int, long_id: str | None, name: str) -> tuple[Path, Path]:
    """A run of ``lines`` short results (plus one with ``long_id`` as its docid) and qrels judging one per query."""
    per_query = 100
    run = [f"q{i // per_query} Q0 d{i} {i % per_query + 1} {per_query - i % per_query} r\n" for i in range(lines)]
    qrels = [f"q{q} 0 d{q * per_query} 1\n" for q in range(lines // per_query)]
    if long_id is not None:
        run.append(f"q0 Q0 {long_id} {per_query + 1} 0 r\n")
        qrels.append(f"q0 0 {long_id} 1\n")
    run_path, qrels_path = folder / f"{name}.run", folder / f"{name}.qrels"
    run_path.write_text("".join(run))
    qrels_path.write_text("".join(qrels))
    return qrels_path, run_path


def write_json_pair(folder: Path, mb: int) -> tuple[Path, Path, Path]:
    """Qrels (one judgment per query), a run of about ``mb`` MB as one line of JSON (dict-of-dicts, as pytrec_eval
    takes it: 1,000 results per query) and the same run as a TREC file."""
    per_query = 1000
    queries = mb * 1_000_000 // (per_query * 22)  # about 22 bytes per result: '"d12-345": 827.5000, '
    qrels, run_json, run_trec = folder / "json.qrels", folder / "run.json", folder / "run.trec"
    qrels.write_text("".join(f"q{q} 0 d{q}-1 1\n" for q in range(queries)))
    with run_json.open("w") as out, run_trec.open("w") as trec_out:
        out.write("{")
        for q in range(queries):
            scores = [(r, 1000 - r * 0.5) for r in range(1, per_query + 1)]
            out.write(("" if q == 0 else ", ") + f'"q{q}": {{' + ", ".join(f'"d{q}-{r}": {s:.4f}' for r, s in scores)
                      + "}")
            trec_out.write("".join(f"q{q} Q0 d{q}-{r} {r} {s:.4f} run\n" for r, s in scores))
        out.write("}")
    return qrels, run_json, run_trec


def peak(argv: list[str]) -> tuple[float, int, str]:
    """(peak resident MB, exit status, last line of stderr) of a child process."""
    child = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = child.stderr.read().decode(errors="replace").strip().splitlines()
    _, status, usage = os.wait4(child.pid, 0)
    child.stderr.close()
    return usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status), (err[-1] if err else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=100_000, help="short lines of each run")
    parser.add_argument("--long", type=int, default=10_000, help="length of the amplification file's long docid")
    parser.add_argument("--json-mb", type=int, default=100, help="size of the JSON run read by the CLI, MB (0: none)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if args.json_mb:
            qrels, run_json, run_trec = write_json_pair(Path(folder), args.json_mb)
            for run in (run_json, run_trec):
                mb, status, message = peak([sys.executable, "-m", "components.cli", "eval", str(qrels), str(run),
                                              "--json"])
                print(f"{run.name:<14} {run.stat().st_size / 1e6:6.1f} MB  {'CLI':<17} {mb:7.0f} MB  {status:>6}  "
                      f"{message[:110]}")
        cases = {"normal": None, "at the limit": "L" * columns.MAX_ID_BYTES, "amplification": "L" * args.long}
        print(f"{'file':<14} {'size':>8}  {'read with':<17} {'peak RSS':>9}  status  message")
        base, _, _ = peak([sys.executable, "-c", "import components.formats.trec"])
        print(f"{'-':<14} {'-':>8}  {'baseline':<17} {base:7.0f} MB")
        for name, long_id in cases.items():
            qrels, run = write_files(Path(folder), args.lines, long_id, name.replace(" ", "_"))
            size = f"{run.stat().st_size / 1e6:.1f} MB"
            read = ("from pathlib import Path; from components.formats import trec; "
                    "trec.read_with({!r}, Path({!r}), 'run')")
            for how, argv in (("read_run precise", ["-c", read.format("precise", str(run))]),
                              ("read_run fast", ["-c", read.format("fast", str(run))]),
                              ("CLI", ["-m", "components.cli", "eval", str(qrels), str(run), "--json"])):
                mb, status, message = peak([sys.executable, *argv])
                print(f"{name:<14} {size:>8}  {how:<17} {mb:7.0f} MB  {status:>6}  {message[:110]}")


if __name__ == "__main__":
    main()
