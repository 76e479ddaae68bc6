"""Does the server give memory back? Upload a pair in N tabs, forget it, close the tabs, wait; RSS at each step.

Starts ``streamlit run app.py`` on a free port with a short
``server.disconnectedSessionTTL`` (``--ttl``, default 5 s; Streamlit's own
default is 120 s) and drives Debian's Chromium (Playwright) as learners
would: each of ``--sessions`` tabs opens "Your data", drops in the same
generated qrels and a run of about ``--mb`` MiB, and waits for the results.
Then every tab presses "Forget my files", then every tab closes, then the
benchmark waits for the session TTL. It prints the server's resident memory
(VmRSS from /proc) after each step, and its peak so far (VmHWM), for
``--cycles`` cycles: the goal is to be back within 100 MB of the warm start
(the page's libraries imported) after each cycle, and flat across cycles. ``--arena-max`` sets glibc's
MALLOC_ARENA_MAX for the server (docs/hosting.md recommends 2 for a workshop).

    python benchmarks/upload_memory.py --sessions 5 --mb 100 --cycles 3 [--json]

``--json`` writes the run as one line of JSON (a dict-of-dicts) instead of
a TREC file.
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.conftest import CHROMIUM, _free_port  # noqa: E402  (the tests' own server start-up)

LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def make_pair(folder: Path, mib: int, json_run: bool = False) -> tuple[Path, Path]:
    """A qrels file (judged docs for 2,000 queries) and a run of about ``mib`` MiB over the same queries: a TREC file,
    or (``json_run``) one line of JSON, a dict-of-dicts as pytrec_eval takes it."""
    rng = random.Random(7)
    queries = [f"q{i}" for i in range(2000)]
    qrels = folder / "qrels.txt"
    qrels.write_text("".join(f"{q} 0 {q}-d{r} {rng.randrange(3)}\n" for q in queries for r in rng.sample(range(50), 5)))
    run = folder / ("run.json" if json_run else "run.txt")
    line_bytes = 23 if json_run else 40  # '"q12-d345": 999.6550, ' or 'q12 Q0 q12-d345 345 999.6550 bench\n'
    per_query = max(1, mib * 2**20 // line_bytes // len(queries))
    with run.open("w") as out:
        out.write("{" if json_run else "")
        for i, q in enumerate(queries):
            ranks = range(1, per_query + 1)
            if json_run:
                out.write(("" if i == 0 else ", ") + f'"{q}": {{'
                          + ", ".join(f'"{q}-d{r}": {1000 - r * 0.001:.4f}' for r in ranks) + "}")
            else:
                out.write("".join(f"{q} Q0 {q}-d{r} {r} {1000 - r * 0.001:.4f} bench\n" for r in ranks))
        out.write("}" if json_run else "")
    return qrels, run


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    """The process's resident memory now (VmRSS), or its peak so far (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start_server(ttl: int, arena_max: int | None) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    env = {**os.environ, **({"MALLOC_ARENA_MAX": str(arena_max)} if arena_max else {})}
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port),
                             "--server.headless", "true", "--server.disconnectedSessionTTL", str(ttl)],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if urllib.request.urlopen(url + "/_stcore/health", timeout=1).read() == b"ok":
                return proc, url
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


def settle(pid: int, seconds: float = 3.0) -> float:
    time.sleep(seconds)
    return rss_mb(pid)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=5)
    parser.add_argument("--mb", type=int, default=100, help="size of the run file, MiB")
    parser.add_argument("--cycles", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="the run as one line of JSON (dict-of-dicts)")
    parser.add_argument("--ttl", type=int, default=5, help="server.disconnectedSessionTTL, seconds")
    parser.add_argument("--arena-max", type=int, default=None,
                        help="MALLOC_ARENA_MAX for the server (glibc's heaps: one per thread by default)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        qrels, run = make_pair(Path(tmp), args.mb, args.json)
        print(f"files: qrels {qrels.stat().st_size / 2**20:.1f} MiB, run {run.stat().st_size / 2**20:.1f} MiB; "
              f"{args.sessions} sessions, TTL {args.ttl} s, MALLOC_ARENA_MAX {args.arena_max or 'unset'}")
        proc, url = start_server(args.ttl, args.arena_max)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
                print(f"start: {settle(proc.pid):.0f} MB")
                warm = browser.new_context()  # the page's imports (pandas, pyarrow, altair) and the samples, once
                page = warm.new_page()
                page.goto(url + "/your-data")
                page.get_by_role("button", name="Use the sample files").click()
                expect(page.get_by_test_id("stMetric").first).to_be_visible(timeout=120_000)
                page.get_by_role("button", name="Forget my files").click()
                warm.close()
                print(f"warm (page imported, samples loaded and forgotten, tab closed): "
                      f"{settle(proc.pid, args.ttl + 10):.0f} MB")
                for cycle in range(1, args.cycles + 1):
                    contexts, pages = [], []
                    for _ in range(args.sessions):
                        context = browser.new_context(viewport={"width": 1280, "height": 900})
                        page = context.new_page()
                        page.goto(url + "/your-data")
                        for label, path in (("1. Qrels", qrels), ("2. Run", run)):
                            expect(page.get_by_role("button", name="Use the sample files")).to_be_visible(timeout=60_000)
                            page.get_by_test_id("stFileUploader").filter(has_text=label).first.locator(
                                "input[type=file]").set_input_files(path)
                            expect(page.get_by_text(f"Received: {path.name}").first).to_be_visible(timeout=120_000)
                        expect(page.get_by_test_id("stMetric").first).to_be_visible(timeout=300_000)
                        contexts.append(context)
                        pages.append(page)
                    loaded = settle(proc.pid)
                    for page in pages:
                        page.get_by_role("button", name="Forget my files").click()
                        expect(page.get_by_role("button", name="Forget my files")).to_have_count(0, timeout=60_000)
                    forgotten = settle(proc.pid)
                    for context in contexts:
                        context.close()
                    closed = settle(proc.pid, args.ttl + 10)
                    print(f"cycle {cycle}: loaded {loaded:.0f} MB, after Forget {forgotten:.0f} MB, "
                          f"after close + TTL {closed:.0f} MB; peak so far {rss_mb(proc.pid, 'VmHWM'):.0f} MB")
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
