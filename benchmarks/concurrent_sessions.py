"""Many learners on one server: N simulated learners move the Recall@k slider; time from the change to the new value.

Starts ``streamlit run app.py`` on a free port on 127.0.0.1 (a fresh server
for every N, so its peak memory belongs to that N) and drives it at the
protocol level, as the browser does, with no browser: each learner is one
websocket on ``/_stcore/stream`` speaking Streamlit's own protobuf messages
(``streamlit.proto``).

- A learner opens the Recall@k lesson: a ``BackMsg`` ``rerun_script`` with
  the page's name; from the first run's ``ForwardMsg`` deltas it takes the
  widget id of the "Cutoff k" slider and the id of the fragment it sits in.
  Like the browser, it keeps the page's script hash (from ``navigation``), the
  slider's value (the one it sent, or one the script set) and a timer for each
  ``run_every`` fragment (``auto_rerun``: a ``rerun_script`` of that fragment
  every interval; a whole-page run's ``new_session`` stops them all).
- Once every ``--interval`` seconds (each learner on its own random phase) it
  makes a change (``--action``):
  - ``slider``: moves the slider to a new k: a ``rerun_script`` whose
    ``WidgetStates`` carry the slider's new value, for the slider's fragment
    only, as the browser sends it (with the URL's query string, kept up to
    date from the server's ``page_info_changed`` messages);
  - ``reorder``: swaps two documents in the ranking editor, as the editor's
    JavaScript reports a drag: the component's trigger (``"edit"``) with the
    whole new order and a sequence number, in the same fragment.
- The latency of a change is the time from sending it to the arrival of the
  ``st.metric`` delta that answers it: for the slider, the one labelled
  ``Recall@<new k>``; for a reorder, the ``Recall@k`` metric that follows the
  editor's echo of the change's sequence number (its ``ack``). The learners
  do not wait for an answer before their next change (open loop): if a newer
  change overtakes an older one, the older one counts as answered when the
  newer value arrives, as a learner would see it. Every value received is
  checked against the engine (``components.engine.metrics``, for that learner's k
  and order) and each learner's last answer against its last change: a wrong
  or another learner's value is reported.

Prints, for each N: the changes sent and answered, the median, 95th
percentile and maximum latency (and the 95th percentile of each 10 s of the
run, which tells a slow start from a steady backlog), the server's peak resident memory (VmHWM
from /proc: the high-water mark since it started) and its memory with the
learners connected, the CPU time of the server and of this client per second
of the run (on a 2-core machine they share the cores, so read the latency
beside them), the server's CPU time per change (one process runs its
sessions' scripts on about one core, so 1 s divided by it is roughly the
moves per second one process keeps up with), and the 1-minute load average
before and after. Goal: p95 <= 300 ms at N = 30.

``--class``: the live-class workshop (benchmarks/class_learners.py). An
instructor session opens the lesson and starts a class; N learners (default 30)
open it with ``?class=CODE`` and follow; ``--movers`` of them (default a third)
press "Explore on my own" and make their own changes every ``--interval``
(default 3 s). Every ``--interval`` the instructor moves the slider to a new k.
Prints the **follow latency** (the instructor's send to each follower's
``Recall@<new k>``): the share of (change, follower) pairs answered within
1.5 s (goal >= 95%), median, p95, max and the p95 of each 10 s, and the
followers' whole-page runs (a change that reruns only the lesson's fragment that
shows it needs none); the explorers' own changes as above (goal p95 <= 300 ms);
the instructor's own screen; the network per follower and change; the servers'
CPU in all and per learner (CPU seconds / (learners x seconds of the run)); each
server's peak RSS; and the checks against the engine.
``--lead ask`` / ``--lead reveal``: with "predict first" on, the instructor asks the class about Recall@k and
reveals it; measured from the click to each follower's guess box, or to each follower's verdict (see
benchmarks/class_learners.py). Every class run also reports what the class's timers cost the server while it sits
still (CPU per timer rerun, most of them the followers' polls).
``--replicas 2``: a Redis started here holds the class, two servers use it (the
instructor on the first, the learners alternating); the CPU is summed.

    python benchmarks/concurrent_sessions.py [--learners 1,10,30] [--duration 60] [--interval 1]
                                             [--action slider|reorder] [--full-rerun] [--seed 13]
                                             [--set runner.postScriptGC=false]
    python benchmarks/concurrent_sessions.py --class [--learners 30] [--movers 10] [--replicas 2]
                                             [--lead k|page|ask|reveal] [--interval 3] [--duration 60] [...]

``--set`` passes a Streamlit config option to the server (repeatable), to
measure a setting before a workshop.

Bounded: at most 100 learners, 4 replicas and 600 s per run; opening the
learners, the run and the wait for late answers each have a time limit; the
servers (and Redis) are stopped at the end whatever happens. Linux only for the memory figures
(/proc); elsewhere they read "n/a".
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Awaitable, Callable

import numpy as np
import websockets
from streamlit.components.v2.bidi_component.main import _make_trigger_id  # the id the browser's trigger uses
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from components.course import scenarios
from components.engine import metrics  # noqa: E402  (the project, from the checkout
from components.engine.formatting import fmt  # noqa: E402
from components.ranking_editor.editor import COMPONENT_NAME  # noqa: E402

MAX_LEARNERS = 100
MAX_DURATION = 600.0
SERVER_START_TIMEOUT = 90.0
OPEN_TIMEOUT = 120.0  # one learner's first page run (a cold server imports everything first)
OPEN_ALL_TIMEOUT = 600.0  # all learners' first page runs
DRAIN_TIMEOUT = 30.0  # after the run, waiting for answers to the last changes
OPEN_AT_ONCE = 3  # learners opening the page at the same time
GOAL_MS = 300.0
WINDOW = 10.0  # seconds: the p95 is also shown for the changes sent in each such window of the run

PAGE = "recall"  # url path of the Recall@k lesson
SLIDER_LABEL = "Cutoff k"
METRIC_PREFIX = "Recall@"
MAX_K = 20  # lessons/recall.py's slider
DEFAULT_K = 5  # lessons/recall.py's slider, where the reordering learners leave it
EDIT_EVENT = "edit"  # the editor's trigger (components/ranking_editor/editor.py)
ACTIONS = ("slider", "reorder")
Q = scenarios.LAWYER


def expected_value(order, k: int) -> str:
    """Recall@k of the lawyer's ranking ``order`` (doc ids, top first), as the page shows it."""
    qs = metrics.from_rankings([Q.grades(tuple(order))], [Q.judged_grades()])
    return fmt(metrics.recall(qs, k)[0])


# ----------------------------------------------------------------------------
# The server and its process figures
# ----------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(options: dict[str, str], env: dict[str, str] | None = None) -> tuple[subprocess.Popen, str]:
    """``streamlit run app.py`` on a free port on 127.0.0.1, with extra config ``options`` (name -> value) and
    environment ``env`` (None: this process's)."""
    port = free_port()
    extra = [arg for name, value in options.items() for arg in (f"--{name}", value)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false",
         "--server.fileWatcherType", "none", *extra],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"127.0.0.1:{port}"
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with code {proc.returncode}")
        try:
            if urllib.request.urlopen(f"http://{url}/_stcore/health", timeout=1).read() == b"ok":
                return proc, url
        except OSError:
            time.sleep(0.2)
    stop_server(proc)
    raise RuntimeError(f"streamlit did not answer its health check within {SERVER_START_TIMEOUT:.0f} s")


def stop_server(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def status_kb(pid: int, field_name: str) -> int | None:
    """A memory figure of /proc/<pid>/status in kB (VmRSS: now; VmHWM: the peak so far), None without /proc."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field_name + ":"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process so far, from /proc/<pid>/stat."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def mb(kb: int | None) -> str:
    return "n/a" if kb is None else f"{kb / 1024:.0f} MB"


def load_average() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:
        return float("nan")


# ----------------------------------------------------------------------------
# One simulated learner
# ----------------------------------------------------------------------------

def element_of(msg: ForwardMsg):
    """(element kind, element) of a ForwardMsg carrying a new element, else (None, None)."""
    if msg.WhichOneof("type") != "delta" or msg.delta.WhichOneof("type") != "new_element":
        return None, None
    element = msg.delta.new_element
    kind = element.WhichOneof("type")
    return kind, getattr(element, kind) if kind else None


@dataclass
class Learner:
    number: int
    url: str
    rng: random.Random
    action: str = "slider"
    full_rerun: bool = False
    ws: object = None
    slider_id: str = ""
    fragment_id: str = ""
    editor_trigger_id: str = ""
    page_hash: str = ""
    query_string: str = ""  # the address's query string: what the page opens with, then kept up to date
    buttons: dict = field(default_factory=dict)  # label -> widget id, of the buttons last shown
    slider_value: float | None = None  # the slider's value as the browser holds it (shown, or last sent)
    timers: dict = field(default_factory=dict)  # fragment id -> (interval, task): the run_every timers
    shown_k: int | None = None
    last_sent_k: int | None = None
    order: list = field(default_factory=list)  # the editor's order and tray, as last sent (or first shown)
    tray: list = field(default_factory=list)
    seq: int = 0  # the editor's sequence number of the last reorder sent
    acked: int = 0  # the last sequence number the server echoed
    expected: dict = field(default_factory=dict)  # sequence number -> the Recall@k that order should show
    pending: list = field(default_factory=list)  # (time sent, k or sequence number), oldest first
    latencies: list = field(default_factory=list)  # (time sent, seconds until answered)
    sent: int = 0
    skipped: int = 0  # moves not made because every k was still waiting for an answer
    wrong_values: list = field(default_factory=list)
    received: int = 0  # bytes read by listen(): what the server sent this learner
    deflated: int = 0  # the same, compressed as the server's permessage-deflate does (a 4 KB window, context kept)
    deflater: object = field(default_factory=lambda: zlib.compressobj(6, zlib.DEFLATED, -12))
    page_runs: int = 0  # whole-page runs the server started for this learner (a new_session naming no fragment)
    ticks: int = 0  # reruns its run_every timers sent (a follower's: the class polls)
    closed: bool = False

    async def open(self) -> None:
        """Connect, run the lesson once (with :attr:`query_string`, as the address gives it), find the slider and
        its fragment."""
        self.ws = await websockets.connect(f"ws://{self.url}/_stcore/stream", subprotocols=["streamlit"],
                                           max_size=None, ping_interval=None, open_timeout=OPEN_TIMEOUT)
        msg = BackMsg()
        msg.rerun_script.page_name = PAGE
        msg.rerun_script.query_string = self.query_string
        await self.ws.send(msg.SerializeToString())
        await self.settle()
        if not self.slider_id or self.shown_k is None or not self.order:
            raise RuntimeError(f"learner {self.number}: the page showed no '{SLIDER_LABEL}' slider, "
                               f"'{METRIC_PREFIX}k' metric or ranking editor (is {PAGE!r} the Recall@k lesson's "
                               f"url path?)")
        self.last_sent_k = self.shown_k

    async def settle(self) -> None:
        """Read the messages until a whole-page run has finished (``OPEN_TIMEOUT`` for each message)."""
        while True:
            raw = await asyncio.wait_for(self.ws.recv(), OPEN_TIMEOUT)
            fwd = ForwardMsg()
            fwd.ParseFromString(raw)
            self._note(fwd)
            if fwd.WhichOneof("type") == "script_finished" and fwd.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
                return

    async def press(self, label: str) -> None:
        """Click the button labelled ``label`` (a whole-page run, as the browser sends it) and wait for the run."""
        msg = self.rerun_message(None)
        button = msg.rerun_script.widget_states.widgets.add()
        button.id = self.buttons[label]
        button.trigger_value = True
        await self.ws.send(msg.SerializeToString())
        await self.settle()

    def _note(self, fwd: ForwardMsg) -> float | None:
        """Keep the page hash, the query string, the widgets, the timers and the shown k up to date; return the
        time of a new metric."""
        if fwd.WhichOneof("type") == "navigation":
            self.page_hash = fwd.navigation.page_script_hash  # the page's, as the browser keeps it
        self._keep_timers(fwd)
        if fwd.WhichOneof("type") == "page_info_changed":
            self.query_string = fwd.page_info_changed.query_string
        kind, element = element_of(fwd)
        if kind == "button":
            self.buttons[element.label] = element.id
        if kind == "slider" and element.label == SLIDER_LABEL:
            self.slider_id, self.fragment_id = element.id, fwd.delta.fragment_id
            if element.set_value or self.slider_value is None:  # the browser takes a value the script set
                self.slider_value = (element.value or element.default)[0]
        if kind == "bidi_component" and element.component_name.endswith(COMPONENT_NAME):
            data = json.loads(element.json)
            self.acked = data["ack"]
            if not self.order:
                self.order, self.tray = data["order"], data["tray"]
                self.editor_trigger_id = _make_trigger_id(element.id, "events")
                self.expected[0] = expected_value(self.order, DEFAULT_K)
        if kind == "metric" and element.label.startswith(METRIC_PREFIX):
            now = time.perf_counter()
            k = int(element.label[len(METRIC_PREFIX):])
            self.shown_k = k
            wanted = (expected_value(self.order, k) if self.action == "slider"
                      else self.expected.get(self.acked) if k == DEFAULT_K else None)
            if element.body != wanted:
                self.wrong_values.append((element.label, element.body))
            return now
        return None

    def _keep_timers(self, fwd: ForwardMsg) -> None:
        """The browser's ``run_every`` timers: an ``auto_rerun`` starts one for its fragment (unless one runs at that
        interval already), ``stop_auto_rerun`` stops those it names, and a whole-page run's ``new_session`` stops
        them all (the run starts again the ones it still has)."""
        kind = fwd.WhichOneof("type")
        if kind == "new_session" and not fwd.metadata.run.fragment_ids:
            self.page_runs += 1
            for fragment_id in list(self.timers):
                self._stop_timer(fragment_id)
        elif kind == "stop_auto_rerun":
            for fragment_id in fwd.stop_auto_rerun.fragment_ids:
                self._stop_timer(fragment_id)
        elif kind == "auto_rerun":
            fragment_id, interval = fwd.auto_rerun.fragment_id, fwd.auto_rerun.interval
            if self.timers.get(fragment_id, (None,))[0] != interval:
                self._stop_timer(fragment_id)
                self.timers[fragment_id] = (interval, asyncio.create_task(self._tick(fragment_id, interval)))

    def _stop_timer(self, fragment_id: str) -> None:
        held = self.timers.pop(fragment_id, None)
        if held is not None:
            held[1].cancel()

    async def _tick(self, fragment_id: str, interval: float) -> None:
        """Every ``interval`` seconds, rerun the fragment as the browser's timer does (with the widgets' values)."""
        try:
            while True:
                await asyncio.sleep(interval)
                await self.ws.send(self.rerun_message(fragment_id, auto=True).SerializeToString())
                self.ticks += 1
        except websockets.ConnectionClosed:
            pass

    async def close(self) -> None:
        for fragment_id in list(self.timers):
            self._stop_timer(fragment_id)
        if self.ws is not None:
            await self.ws.close()

    def answered_by_latest(self) -> int:
        """How many of the oldest pending changes the value just shown answers (0: none)."""
        latest = self.shown_k if self.action == "slider" else self.acked
        hits = [i for i, (_, asked) in enumerate(self.pending) if asked == latest]
        return hits[-1] + 1 if hits else 0

    async def listen(self) -> None:
        """Read every message; a Recall@k metric answers the change that asked for that k and all older ones."""
        try:
            async for raw in self.ws:
                self.received += len(raw)
                self.deflated += len(self.deflater.compress(raw) + self.deflater.flush(zlib.Z_SYNC_FLUSH)) - 4
                fwd = ForwardMsg()
                fwd.ParseFromString(raw)
                arrived = self._note(fwd)
                if arrived is None:
                    continue
                count = self.answered_by_latest()
                answered, self.pending = self.pending[:count], self.pending[count:]
                self.latencies.extend((sent, arrived - sent) for sent, _ in answered)
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = True

    async def change_k(self) -> None:
        """Move the slider to a k that no unanswered change asked for (so an answer names its change)."""
        waiting = {k for _, k in self.pending} | {self.last_sent_k}
        free = [k for k in range(1, MAX_K + 1) if k not in waiting]
        if not free:  # every k is waiting for an answer: the page is frozen for this learner; skip the move
            self.skipped += 1
            return
        k = self.rng.choice(free)
        self.last_sent_k = k
        await self.send(self.rerun(k), asked=k)

    def rerun(self, k: int) -> BackMsg:
        """A ``rerun_script`` as the browser sends it after a change: the slider at k, this page and query string,
        for the slider's fragment (or the whole page, with ``full_rerun``)."""
        self.slider_value = k
        return self.rerun_message(None if self.full_rerun else self.fragment_id)

    def rerun_message(self, fragment_id: str | None, *, auto: bool = False) -> BackMsg:
        """A ``rerun_script`` of this page and query string with the slider's value as the browser holds it, for
        the fragment ``fragment_id`` (None: the whole page); ``auto``: sent by a ``run_every`` timer."""
        msg = BackMsg()
        state = msg.rerun_script
        state.page_script_hash = self.page_hash
        state.query_string = self.query_string
        state.is_auto_rerun = auto
        if fragment_id:
            state.fragment_id = fragment_id
        if self.slider_id and self.slider_value is not None:
            slider = state.widget_states.widgets.add()  # the browser sends every widget's value
            slider.id = self.slider_id
            slider.double_array_value.data.append(self.slider_value)
        return msg

    async def send(self, msg: BackMsg, *, asked: int) -> None:
        """Send a change; ``asked`` is what its answer will show (the new k, or the editor's sequence number)."""
        self.pending.append((time.perf_counter(), asked))
        self.sent += 1
        await self.ws.send(msg.SerializeToString())

    async def reorder(self) -> None:
        """Swap two documents of the list, as a drag in the editor reports it (the whole new state)."""
        i, j = self.rng.sample(range(len(self.order)), 2)
        self.order[i], self.order[j] = self.order[j], self.order[i]
        self.seq += 1
        self.expected[self.seq] = expected_value(self.order, DEFAULT_K)
        msg = self.rerun(DEFAULT_K)
        trigger = msg.rerun_script.widget_states.widgets.add()
        trigger.id = self.editor_trigger_id
        trigger.json_trigger_value = json.dumps([{"event": EDIT_EVENT, "value": {
            "seq": self.seq, "order": self.order, "tray": self.tray, "grades": {}}}])
        await self.send(msg, asked=self.seq)

    async def act(self, start: float, stop: float, interval: float) -> None:
        """Make a change once per interval, on this learner's own phase, until ``stop`` (perf_counter time)."""
        tick = start + self.rng.uniform(0, interval)
        while tick < stop and not self.closed:
            await asyncio.sleep(max(0.0, tick - time.perf_counter()))
            await (self.change_k() if self.action == "slider" else self.reorder())
            tick += interval


# ----------------------------------------------------------------------------
# One run: N learners on a fresh server
# ----------------------------------------------------------------------------

@dataclass
class Result:
    learners: int
    sent: int
    skipped: int
    answered: int
    latencies_ms: np.ndarray
    windows: list  # (seconds into the run, p95 ms of the changes sent in that window)
    wrong: int
    last_mismatch: int
    rss_first_kb: int | None
    rss_open_kb: int | None
    rss_end_kb: int | None
    peak_kb: int | None
    server_cpu: float | None
    cpu_per_change: float | None  # server CPU seconds from the first change to the last answer, per change
    client_cpu: float
    duration: float
    load_before: float
    load_after: float


def learners_sent(learners: list[Learner]) -> int:
    return sum(x.sent for x in learners)


async def open_learners(learners: list[Learner], then: Callable[[Learner], Awaitable[None]] | None = None) -> None:
    """Open the learners' pages, ``OPEN_AT_ONCE`` at a time; ``then``: what each does next, in the same turn."""
    gate = asyncio.Semaphore(OPEN_AT_ONCE)

    async def one(learner: Learner) -> None:
        async with gate:
            await learner.open()
            if then is not None:
                await then(learner)

    await asyncio.wait_for(asyncio.gather(*(one(x) for x in learners)), OPEN_ALL_TIMEOUT)


async def drain(learners: list[Learner]) -> None:
    """Wait (at most ``DRAIN_TIMEOUT``) until every connected learner's changes have been answered."""
    drain_until = time.perf_counter() + DRAIN_TIMEOUT
    while any(x.pending and not x.closed for x in learners) and time.perf_counter() < drain_until:
        await asyncio.sleep(0.1)


async def close_all(learners: list[Learner]) -> None:
    for x in learners:
        await x.close()


def latencies_of(learners: list[Learner], start: float, duration: float) -> tuple[np.ndarray, list]:
    """The learners' latencies in ms, and the p95 of those sent in each ``WINDOW`` s from ``start``
    (perf_counter time): [(seconds into the run, p95 ms)]."""
    timed = sorted(v for x in learners for v in x.latencies)
    latencies = np.array([latency for _, latency in timed]) * 1000
    windows = []
    for lo in np.arange(0, duration, WINDOW):
        inside = np.array([latency for sent, latency in timed if lo <= sent - start < lo + WINDOW]) * 1000
        if inside.size:
            windows.append((float(lo), float(np.percentile(inside, 95))))
    return latencies, windows


def ended_elsewhere(x: Learner) -> bool:
    """Whether the learner's last answer is not what its last change asked for."""
    return x.shown_k != x.last_sent_k if x.action == "slider" else x.acked != x.seq


async def run_once(n: int, duration: float, interval: float, action: str, full_rerun: bool, seed: int,
                   options: dict[str, str]) -> Result:
    proc, url = start_server(options)
    learners = [Learner(i, url, random.Random(seed * 1000 + i), action, full_rerun) for i in range(n)]
    try:
        await open_learners(learners[:1])  # the first run imports the app: its memory apart
        rss_first = status_kb(proc.pid, "VmRSS")
        await open_learners(learners[1:])
        rss_open = status_kb(proc.pid, "VmRSS")
        listeners = [asyncio.create_task(x.listen()) for x in learners]
        load_before = load_average()
        cpu0, client0 = cpu_seconds(proc.pid), time.process_time()
        start = time.perf_counter()
        stop = start + duration
        await asyncio.wait_for(asyncio.gather(*(x.act(start, stop, interval) for x in learners)), duration + 30)
        elapsed = time.perf_counter() - start
        cpu1, client1 = cpu_seconds(proc.pid), time.process_time()
        await drain(learners)
        cpu_drained = cpu_seconds(proc.pid)
        load_after = load_average()
        rss_end, peak = status_kb(proc.pid, "VmRSS"), status_kb(proc.pid, "VmHWM")
        await close_all(learners)
        await asyncio.gather(*listeners, return_exceptions=True)
    finally:
        await close_all(learners)
        stop_server(proc)
    latencies, windows = latencies_of(learners, start, duration)
    return Result(
        learners=n, sent=sum(x.sent for x in learners), skipped=sum(x.skipped for x in learners),
        answered=len(latencies), latencies_ms=latencies, windows=windows,
        wrong=sum(len(x.wrong_values) for x in learners),
        last_mismatch=sum(ended_elsewhere(x) for x in learners),
        rss_first_kb=rss_first, rss_open_kb=rss_open, rss_end_kb=rss_end, peak_kb=peak,
        server_cpu=None if cpu0 is None or cpu1 is None else (cpu1 - cpu0) / elapsed,
        cpu_per_change=None if cpu0 is None or cpu_drained is None or not learners_sent(learners)
        else (cpu_drained - cpu0) / learners_sent(learners),
        client_cpu=(client1 - client0) / elapsed, duration=elapsed, load_before=load_before, load_after=load_after)


# ----------------------------------------------------------------------------
# Report
# ----------------------------------------------------------------------------

def percentile(values: np.ndarray, q: float) -> str:
    return "—" if values.size == 0 else f"{np.percentile(values, q):.0f}"


def report(results: list[Result], interval: float, action: str, full_rerun: bool, options: dict[str, str]) -> None:
    change = "slider moved" if action == "slider" else "two documents swapped in the ranking editor"
    print(f"\nRecall@k lesson, {change} every {interval:g} s by each learner "
          f"({'full-page rerun' if full_rerun else 'fragment rerun, as the browser sends it'}); "
          f"{os.cpu_count()} CPUs on this machine"
          + "".join(f"; {name} = {value}" for name, value in options.items()))
    head = ("learners", "changes", "answered", "median ms", "p95 ms", "max ms", "peak RSS", "RSS open",
            "per session", "server CPU", "CPU/change", "client CPU", "load 1-min before→after")
    rows = []
    for r in results:
        per_session = ("n/a" if r.rss_open_kb is None or r.rss_first_kb is None or r.learners < 2
                       else f"{(r.rss_open_kb - r.rss_first_kb) / (r.learners - 1) / 1024:.1f} MB")
        rows.append((str(r.learners), str(r.sent), str(r.answered), percentile(r.latencies_ms, 50),
                     percentile(r.latencies_ms, 95), percentile(r.latencies_ms, 100), mb(r.peak_kb),
                     mb(r.rss_open_kb), per_session,
                     "n/a" if r.server_cpu is None else f"{r.server_cpu:.0%}",
                     "n/a" if r.cpu_per_change is None else f"{r.cpu_per_change * 1000:.0f} ms",
                     f"{r.client_cpu:.0%}",
                     f"{r.load_before:.1f}→{r.load_after:.1f}"))
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(head)]
    print("  ".join(h.rjust(w) for h, w in zip(head, widths)))
    for row in rows:
        print("  ".join(c.rjust(w) for c, w in zip(row, widths)))
    print("(CPU: seconds of CPU per second of the run, 100% = one core; CPU/change: the server's CPU time from the "
          "first change to the last answer, per change sent. 'RSS open': the server with every learner connected, before the run; 'per session': its growth "
          "per learner after the first.)")
    for r in results:
        problems = []
        if r.skipped:
            problems.append(f"{r.skipped} moves skipped: all {MAX_K - 1} other k were still waiting for an answer")
        if r.sent != r.answered:
            problems.append(f"{r.sent - r.answered} changes got no answer within {DRAIN_TIMEOUT:.0f} s")
        if r.wrong:
            problems.append(f"{r.wrong} values differ from the engine's")
        if r.last_mismatch:
            problems.append(f"{r.last_mismatch} learners ended on a state they did not ask for")
        print(f"N = {r.learners}: " + ("; ".join(problems) if problems else
                                        "every change answered with its own learner's value"))
        print(f"  p95 ms of the changes sent in each {WINDOW:g} s of the run: "
              + ", ".join(f"{p95:.0f}" for _, p95 in r.windows))
    at_goal = [r for r in results if r.learners >= 30]
    if at_goal:
        p95 = float(np.percentile(at_goal[0].latencies_ms, 95)) if at_goal[0].latencies_ms.size else float("inf")
        verdict = "met" if p95 <= GOAL_MS else "NOT met"
        print(f"Goal p95 <= {GOAL_MS:.0f} ms at N = {at_goal[0].learners}: {verdict} ({p95:.0f} ms)")


def learner_counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--learners takes whole numbers separated by commas, got {text!r}")
    if not counts or any(not 1 <= n <= MAX_LEARNERS for n in counts):
        raise argparse.ArgumentTypeError(f"each learner count must be from 1 to {MAX_LEARNERS}, got {text!r}")
    return counts


def server_option(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or "." not in name or not value:
        raise argparse.ArgumentTypeError(f"--set takes section.option=value, e.g. runner.postScriptGC=false; "
                                         f"got {text!r}")
    return name.strip(), value.strip()


def main() -> None:
    import class_learners  # --class (benchmarks/ is on the path); it imports this module by name, so not at the top

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=learner_counts, default=None,
                        help="comma-separated numbers of learners, one run (and fresh servers) each "
                             "(default 1,10,30; with --class, 30)")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of changes per run")
    parser.add_argument("--interval", type=float, default=None,
                        help="seconds between one learner's (or the instructor's) moves (default 1; with --class, 3)")
    parser.add_argument("--action", choices=ACTIONS, default="slider",
                        help="what each learner changes: the k slider, or the order in the ranking editor")
    parser.add_argument("--full-rerun", action="store_true",
                        help="rerun the whole page on each move instead of the slider's fragment")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", type=server_option,
                        help="a Streamlit config option for the server, e.g. runner.postScriptGC=false (repeatable)")
    parser.add_argument("--class", dest="live_class", action="store_true",
                        help="a live class: an instructor moves k, the learners follow; --movers of them explore")
    parser.add_argument("--movers", type=int, default=None,
                        help="with --class: how many learners explore on their own (default a third)")
    parser.add_argument("--lead", choices=class_learners.LEADS, default="k",
                        help="with --class: what the instructor changes: the slider's k, or the page")
    parser.add_argument("--replicas", type=int, default=1,
                        help=f"with --class: servers sharing the class through Redis (1 to {class_learners.MAX_REPLICAS};"
                             " 1: in the server's memory)")
    args = parser.parse_args()
    args.learners = args.learners or ([30] if args.live_class else [1, 10, 30])
    args.interval = args.interval or (3.0 if args.live_class else 1.0)
    if not args.live_class and (args.movers is not None or args.replicas != 1 or args.lead != "k"):
        parser.error("--movers, --replicas and --lead go with --class")
    if not 1 <= args.replicas <= class_learners.MAX_REPLICAS:
        parser.error(f"--replicas must be from 1 to {class_learners.MAX_REPLICAS}")
    if args.movers is not None and args.movers < 0:
        parser.error("--movers must be 0 or more")
    if not 1 <= args.duration <= MAX_DURATION:
        parser.error(f"--duration must be from 1 to {MAX_DURATION:.0f} seconds")
    if not 0.1 <= args.interval <= args.duration:
        parser.error("--interval must be from 0.1 s to the duration")
    if args.live_class:
        class_learners.run(args)
        return
    results = []
    for n in args.learners:
        print(f"N = {n}: starting a server, opening the lesson for {n} learner(s), then {args.duration:g} s of "
              f"moves…", flush=True)
        result = asyncio.run(run_once(n, args.duration, args.interval, args.action, args.full_rerun, args.seed,
                                      dict(args.set)))
        print(f"N = {n}: median {percentile(result.latencies_ms, 50)} ms, p95 {percentile(result.latencies_ms, 95)} ms, "
              f"peak RSS {mb(result.peak_kb)}", flush=True)
        results.append(result)
    report(results, args.interval, args.action, args.full_rerun, dict(args.set))


if __name__ == "__main__":
    main()
