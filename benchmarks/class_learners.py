"""The live-class workshop of ``concurrent_sessions.py --class``: an instructor, learners who follow, learners who explore.

The sessions are :class:`concurrent_sessions.Learner` websockets (see that
module): each emulates the browser's ``run_every`` timers, so a follower's
session reads the class version every ``POLL_SECONDS`` (a second)
(``components/live_class/``), as in a browser (the instructor's session
sends a change at the end of the run it made); a follower's full-page rerun
(``st.rerun(scope="app")`` from its polling fragment) is started by the server
itself, and its client only reads the new run's messages.

- The instructor opens the Recall@k lesson, presses "Start a class" (the
  sidebar's Classroom panel) and reads the class code from the panel.
- N learners open the lesson with ``?class=CODE`` (so they join on their first
  run); the last ``--movers`` of them then press "Explore on my own" and make
  their own changes every ``--interval`` (``--action``), timed exactly as the
  plain benchmark times them.
- Every ``--interval`` (on a random phase) the instructor moves the "Cutoff k"
  slider to a k that no follower is still waiting for. A change's **follow
  latency**, for each following learner, is the time from the instructor's send
  to that learner's ``Recall@<new k>`` metric (a change overtaken by the next one
  counts as answered when the newer value arrives, as a learner sees it). Every
  value received is checked against the engine, and each learner's last value
  against the last change asked of it. By design a change waits for the
  follower's next poll (at most 1 s), then the rerun of the follower's lesson
  fragment that shows it.
- ``--lead page``: instead, every ``--interval`` the instructor goes to the other
  page (the Recall@k lesson, then the MRR lesson, then back). A follower's
  follow latency is then the time from the instructor's send to the end of
  the follower's whole-page run of that page (its screen shows the page
  whole); the followers take a new page with a whole-page run, so this is the
  figure for the changes the lessons' fragments cannot take. A page change
  every few seconds is far more than a lesson makes: ``--interval 20`` is
  nearer a class, and still a stress.
- ``--lead ask`` and ``--lead reveal``: "predict first" is on (the instructor
  turns it on before the learners join, so the lesson hides Recall@k), and
  every ``--interval`` the instructor takes the next step of a question's
  cycle: a new k (a new question: its id holds the state on screen), then
  "Ask the class: Recall@k?", then (``reveal``) "Reveal to the class". Each
  follower that sees its guess box sends a guess (the right value or 0.5),
  as the form sends it; the instructor reveals once every follower's guess
  is in (at most ``GUESS_WAIT`` s after the tick). The step named is the one
  measured: ``ask``, from the instructor's click to each follower's guess
  box; ``reveal``, from the click to each follower's verdict ("You said ...;
  Recall@k is ..."), for the followers whose guess was in. Each k is used
  once a run (asking a question again would find the guesses already sent),
  so a run takes at most 19 questions.
- Every run first lets the class sit still for ``IDLE_SECONDS`` and reports
  what its timers cost the server then: CPU time per timer rerun, most of them
  the followers' polls.
- ``--replicas 2``: a Redis (``redis-server`` on a free loopback port, no
  persistence) holds the class; two servers use it (``RANKWISE_CLASS_STORE``),
  the instructor on the first, the learners alternating between them.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import shutil
import subprocess
import time
from dataclasses import dataclass, field

import concurrent_sessions as cs  # benchmarks/ is on the path when concurrent_sessions.py runs as a script
import numpy as np
import redis
import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from components.course import prose
from components.live_class.store import STORE_ENV

TEXT = "ui"  # lessons/text/ui.md: the Classroom panel's labels
START_LABEL = prose.text(TEXT, "Class start")
EXPLORE_LABEL = prose.text(TEXT, "Class explore")
CODE_LINE = prose.text(TEXT, "Class code", code="\0").split("\0")  # the text around the code in the panel
FOLLOW_WITHIN = 1.5  # seconds: a follower should see the instructor's change within this
FOLLOW_SHARE_GOAL = 0.95  # of the (change, follower) pairs
MAX_REPLICAS = 4
QUESTION_LEADS = ("ask", "reveal")  # a question's steps: the step measured (the cycle is k, ask[, reveal])
LEADS = ("k", "page", *QUESTION_LEADS)  # what the instructor changes: the slider's k, the page, a question
QUESTION_STEPS = {"ask": ("k", "ask"), "reveal": ("k", "ask", "reveal")}
PREDICT_LABEL = prose.text(TEXT, "Predict first")
REVEAL_LABEL = prose.text(TEXT, "Class reveal")
SEND_LABEL = prose.text(TEXT, "Class guess send")
HIDDEN = "?"  # a value while the class predicts it (components/ui/widgets.py's shown)
GUESS_WAIT = 10.0  # seconds after its tick the instructor waits, at most, for every follower's guess
WAIT_STEP = 0.02  # seconds between looks at a condition waited for
IDLE_SECONDS = 10.0  # the class sitting still before the run: what its timers cost
OTHER_PAGE = "mrr"  # with --lead page: the page the instructor alternates with the Recall@k lesson
REDIS_START_TIMEOUT = 30.0


def class_code(markdown: str) -> str | None:
    """The code in the Classroom panel's "Class code" line, None for any other markdown."""
    before, after = CODE_LINE
    if len(markdown) > len(before) + len(after) and markdown.startswith(before) and markdown.endswith(after):
        return markdown[len(before):len(markdown) - len(after)]
    return None


def label_of(k: int) -> str:
    return f"{cs.METRIC_PREFIX}{k}"


def ask_label(k: int) -> str:
    return prose.text(TEXT, "Class ask", label=label_of(k))


def _pattern(heading: str, anchored: bool = True) -> re.Pattern:
    """A regex of the template ``heading`` of lessons/text/ui.md: ``{label}`` a Recall@k (captured as ``k``),
    any other placeholder anything."""
    parts = re.split(r"\{(\w+)\}", prose.section(TEXT, heading))
    body = "".join(re.escape(part) if i % 2 == 0 else
                   (re.escape(cs.METRIC_PREFIX) + r"(?P<k>\d+)" if part == "label" else ".*?")
                   for i, part in enumerate(parts))
    return re.compile(body if anchored else "^" + body, re.S)


BOX = _pattern("Class guess label")  # a follower's guess box
SENT = _pattern("Class guess sent")  # a follower's guess taken
VERDICTS = tuple(_pattern(h) for h in ("Class guess right", "Class guess wrong", "Class guess slip"))
RESULT = _pattern("Class result", anchored=False)  # the instructor's reading of the guesses, first line


async def until(condition, seconds: float) -> bool:
    """Wait (at most ``seconds``) until ``condition()``; whether it came true."""
    deadline = time.perf_counter() + seconds
    while not condition():
        if time.perf_counter() >= deadline:
            return False
        await asyncio.sleep(WAIT_STEP)
    return True


@dataclass
class PageWatcher(cs.Learner):
    """A learner whose changes ask for a page (its url path): a change is answered when a whole-page run of
    that page has finished, the page shown whole (``--lead page``)."""

    hashes: dict = field(default_factory=dict)  # url path -> page script hash, from the navigation message
    drawing: str = ""  # the url path of the page the current whole-page run draws ("": a fragment run)
    shown_page: str = cs.PAGE

    def _note(self, fwd: ForwardMsg) -> float | None:
        kind = fwd.WhichOneof("type")
        if kind == "new_session":
            self.drawing = ""  # a fragment run names no page; a whole-page run's navigation message comes next
        if kind == "navigation":
            self.hashes = {page.url_pathname: page.page_script_hash for page in fwd.navigation.app_pages}
            urls = {hashed: url for url, hashed in self.hashes.items()}
            self.drawing = urls.get(fwd.navigation.page_script_hash, "")
        checked = len(self.wrong_values)
        super()._note(fwd)  # the page hash, the timers, the widgets and the Recall@k values, as before
        if self.drawing and self.drawing != cs.PAGE:
            del self.wrong_values[checked:]  # another lesson's metrics are not the Recall@k lesson's
        if kind == "script_finished" and self.drawing and fwd.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
            self.shown_page = self.drawing
            return time.perf_counter()
        return None

    def answered_by_latest(self) -> int:
        hits = [i for i, (_, asked) in enumerate(self.pending) if asked == self.shown_page]
        return hits[-1] + 1 if hits else 0

    def go_to(self, url_path: str) -> BackMsg:
        """A ``rerun_script`` of the page at ``url_path``, as the browser sends a click in the navigation."""
        msg = BackMsg()
        msg.rerun_script.page_script_hash = self.hashes[url_path]
        msg.rerun_script.query_string = self.query_string
        return msg


@dataclass
class Instructor(PageWatcher):
    code: str = ""  # the class code, once the panel shows it
    lead_change: str = "k"  # what the instructor changes (:data:`LEADS`)

    def _note(self, fwd: ForwardMsg) -> float | None:
        kind, element = cs.element_of(fwd)
        if kind == "markdown":
            self.code = class_code(element.body) or self.code
        return super()._note(fwd) if self.lead_change == "page" else cs.Learner._note(self, fwd)

    async def start_class(self) -> str:
        """Open the lesson, press "Start a class", return the code shown."""
        await self.open()
        await self.press(START_LABEL)
        if not self.code:
            raise RuntimeError(f"the instructor's page showed no class code after pressing {START_LABEL!r}")
        return self.code

    def answered_by_latest(self) -> int:
        return super().answered_by_latest() if self.lead_change == "page" else cs.Learner.answered_by_latest(self)

    async def lead(self, followers: list[cs.Learner], start: float, stop: float, interval: float) -> None:
        """Once per interval until ``stop``, move the slider to a k no follower waits for (or go to the other
        page); each follower then waits for that k or page (from the time it was sent)."""
        tick = start + self.rng.uniform(0, interval)
        while tick < stop and not self.closed:
            await asyncio.sleep(max(0.0, tick - time.perf_counter()))
            tick += interval
            if self.lead_change == "page":
                page = OTHER_PAGE if self.shown_page == cs.PAGE else cs.PAGE
                sent = time.perf_counter()
                for x in followers:
                    x.pending.append((sent, page))
                    x.sent += 1
                await self.send(self.go_to(page), asked=page)
                continue
            waiting = {k for x in followers for _, k in x.pending} | {self.last_sent_k}
            free = [k for k in range(1, cs.MAX_K + 1) if k not in waiting]
            if not free:
                self.skipped += 1
                continue
            k = self.rng.choice(free)
            self.last_sent_k, sent = k, time.perf_counter()
            for x in followers:
                x.pending.append((sent, k))
                x.last_sent_k = k
                x.sent += 1
            await self.send(self.rerun(k), asked=k)


@dataclass
class QuestionWatcher(cs.Learner):
    """A learner in a class that predicts (``--lead ask|reveal``): a Recall@k shown as "?" is hidden, not wrong;
    a follower's answer to an ask is its guess box for that Recall@k (it then sends a guess), to a reveal its
    verdict. A step's answer names it: ("ask", k) or ("reveal", k)."""

    token: tuple | None = None  # the last step this screen answered
    box: tuple = ()  # (k, text input id, fragment id) of the guess box last drawn
    guessed: dict = field(default_factory=dict)  # k -> the guess sent
    confirmed: set = field(default_factory=set)  # the k whose guess the page said was in
    tasks: list = field(default_factory=list)

    def _note(self, fwd: ForwardMsg) -> float | None:
        kind, element = cs.element_of(fwd)
        now = time.perf_counter()
        if kind == "metric" and element.label.startswith(cs.METRIC_PREFIX) and element.body == HIDDEN:
            self.shown_k = int(element.label[len(cs.METRIC_PREFIX):])
            return now  # hidden while the class predicts: nothing to check
        if kind == "text_input" and (m := BOX.fullmatch(element.label)):
            self.box = (int(m["k"]), element.id, fwd.delta.fragment_id)
            self.token = ("ask", self.box[0])
            return now
        if kind == "button" and element.label == SEND_LABEL and self.box and self.box[0] not in self.guessed:
            self.guessed[self.box[0]] = self.rng.choice([cs.expected_value(self.order, self.box[0]), "0.5"])
            self.tasks.append(asyncio.create_task(self.guess(*self.box, element.id)))
        if kind == "alert" and SENT.fullmatch(element.body) and self.box:
            self.confirmed.add(self.box[0])
        if kind == "markdown" and (m := next(filter(None, (v.fullmatch(element.body) for v in VERDICTS)), None)):
            self.token = ("reveal", int(m["k"]))
            return now
        return super()._note(fwd)

    async def guess(self, k: int, box_id: str, fragment_id: str, send_id: str) -> None:
        """Type the guess for Recall@k and press "Send my guess", as the form sends it (its fragment's rerun)."""
        msg = self.rerun_message(fragment_id or None)
        typed = msg.rerun_script.widget_states.widgets.add()
        typed.id, typed.string_value = box_id, self.guessed[k]
        send = msg.rerun_script.widget_states.widgets.add()
        send.id, send.trigger_value = send_id, True
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.ws.send(msg.SerializeToString())

    def answered_by_latest(self) -> int:
        """A step is answered by its own answer, or overtaken: the screen shows the class's next k already."""
        moved_on = self.shown_k == self.last_sent_k
        hits = [i for i, (_, asked) in enumerate(self.pending)
                if asked in (self.shown_k, self.token) or (moved_on and isinstance(asked, tuple)
                                                            and asked[1] != self.shown_k)]
        return hits[-1] + 1 if hits else 0


@dataclass
class QuestionLead(QuestionWatcher):
    """The instructor of a class that predicts: turns "predict first" on, then leads a question's cycle (a new k,
    ask, reveal); its own screen answers an ask with "Reveal to the class", a reveal with the reading of the
    guesses."""

    code: str = ""
    lead_change: str = "ask"
    where: dict = field(default_factory=dict)  # button label -> the fragment it was drawn in ("" outside one)
    toggles: dict = field(default_factory=dict)  # toggle label -> widget id
    asked_k: int | None = None
    unguessed: int = 0  # (reveal, follower) pairs left out: the follower's guess was not in
    used: set = field(default_factory=set)  # the k asked about so far (each once a run)

    def _note(self, fwd: ForwardMsg) -> float | None:
        kind, element = cs.element_of(fwd)
        if kind == "markdown":
            self.code = class_code(element.body) or self.code
            if (m := RESULT.match(element.body)):
                self.token = ("reveal", int(m["k"]))
                super()._note(fwd)
                return time.perf_counter()
        if kind == "checkbox":
            self.toggles[element.label] = element.id
        if kind == "button":
            self.where[element.label] = fwd.delta.fragment_id
            if element.label == REVEAL_LABEL and self.asked_k is not None:
                self.token = ("ask", self.asked_k)
                super()._note(fwd)
                return time.perf_counter()
        return super()._note(fwd)

    async def start_class(self) -> str:
        """Open the lesson, press "Start a class", turn "predict first" on; return the code shown."""
        await self.open()
        await self.press(START_LABEL)
        if not self.code:
            raise RuntimeError(f"the instructor's page showed no class code after pressing {START_LABEL!r}")
        msg = self.rerun_message(None)
        toggle = msg.rerun_script.widget_states.widgets.add()
        toggle.id, toggle.bool_value = self.toggles[PREDICT_LABEL], True
        await self.ws.send(msg.SerializeToString())
        await self.settle()
        return self.code

    def click(self, label: str) -> BackMsg:
        """A click on the button ``label``, as the browser sends it (a rerun of the fragment it is in)."""
        msg = self.rerun_message(self.where.get(label) or None)
        button = msg.rerun_script.widget_states.widgets.add()
        button.id, button.trigger_value = self.buttons[label], True
        return msg

    async def lead(self, followers: list[cs.Learner], start: float, stop: float, interval: float) -> None:
        """Once per interval until ``stop``, the cycle's next step (a new k, ask, reveal); the step named by
        :attr:`lead_change` is measured, for every follower (a reveal: every follower whose guess was in)."""
        steps = QUESTION_STEPS[self.lead_change]
        tick, step = start + self.rng.uniform(0, interval), 0
        while tick < stop and not self.closed:
            await asyncio.sleep(max(0.0, tick - time.perf_counter()))
            tick += interval
            kind, step = steps[step % len(steps)], step + 1
            if kind == "k":
                free = [k for k in range(1, cs.MAX_K + 1) if k not in self.used and k != self.last_sent_k]
                if not free:
                    self.skipped += 1
                    continue
                k = self.rng.choice(free)
                self.last_sent_k, self.asked_k = k, None
                self.used.add(k)
                for x in followers:
                    x.last_sent_k = k
                await self.ws.send(self.rerun(k).SerializeToString())
                continue
            k = self.last_sent_k
            if kind == "ask":
                if not await until(lambda: ask_label(k) in self.buttons, interval):  # its screen offers the ask
                    self.skipped += 1
                    continue
                asked = list(followers)
            else:
                await until(lambda: all(k in x.confirmed for x in followers), GUESS_WAIT)
                asked = [x for x in followers if k in x.confirmed]
                self.unguessed += len(followers) - len(asked)
            msg = self.click(ask_label(k) if kind == "ask" else REVEAL_LABEL)
            if kind == "ask":
                self.asked_k = k
            if kind != self.lead_change:  # a step on the way to the one measured
                await self.ws.send(msg.SerializeToString())
                continue
            sent = time.perf_counter()
            for x in asked:
                x.pending.append((sent, (kind, k)))
                x.sent += 1
            await self.send(msg, asked=(kind, k))
            tick = max(tick, time.perf_counter())  # a wait for the guesses pushes the next step back


# ----------------------------------------------------------------------------
# The servers (and Redis)
# ----------------------------------------------------------------------------

def start_redis() -> tuple[subprocess.Popen, str]:
    """``redis-server`` on a free port on 127.0.0.1, keeping nothing on disk; (process, redis:// URL)."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("--replicas needs redis-server on the PATH")
    port = cs.free_port()
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    deadline = time.monotonic() + REDIS_START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"redis-server exited with code {proc.returncode}")
        with contextlib.suppress(redis.ConnectionError):
            if redis.Redis.from_url(url, socket_timeout=1).ping():
                return proc, url
        time.sleep(0.2)
    cs.stop_server(proc)
    raise RuntimeError(f"redis-server did not answer within {REDIS_START_TIMEOUT:.0f} s")


@contextlib.contextmanager
def servers(replicas: int, options: dict[str, str]):
    """``replicas`` servers sharing one class store (one: in its memory; more: a Redis started here); yields
    [(process, url)], stopped (and Redis) at the end whatever happens."""
    started: list[tuple[subprocess.Popen, str]] = []
    store = None
    try:
        if replicas > 1:
            store = start_redis()
        env = {**os.environ, STORE_ENV: "memory" if store is None else store[1]}
        for _ in range(replicas):
            started.append(cs.start_server(options, env))
        yield started
    finally:
        for proc, _ in started:
            cs.stop_server(proc)
        if store is not None:
            cs.stop_server(store[0])


def total_cpu(procs: list[subprocess.Popen]) -> float | None:
    """The processes' CPU seconds so far, summed (None without /proc)."""
    each = [cs.cpu_seconds(p.pid) for p in procs]
    return None if None in each else sum(each)


# ----------------------------------------------------------------------------
# One run
# ----------------------------------------------------------------------------

@dataclass
class ClassResult:
    learners: int
    followers: int
    explorers: int
    replicas: int
    changes: int  # the instructor's moves
    pairs: int  # (change, follower)
    follow_ms: np.ndarray
    follow_windows: list
    own_sent: int
    own_ms: np.ndarray
    own_windows: list
    instructor_ms: np.ndarray  # the instructor's own screen, after each move
    skipped: int
    wrong: int
    ended_elsewhere: int
    unpolled: int  # followers left with no run_every timer: their page no longer polls the class
    server_cpu: float | None  # CPU seconds per second of the run, all servers summed
    follow_kb: float  # kilobytes the followers received over the run, per follower and change
    follow_deflated_kb: float  # the same, as the websocket's compression would send it
    follow_page_runs: int  # whole-page runs of the followers over the run (the rest rerun fragments only)
    client_cpu: float
    peaks_kb: list  # each server's VmHWM
    duration: float
    load_before: float
    load_after: float
    lead: str = "k"
    unguessed: int = 0  # with --lead reveal: (reveal, follower) pairs not measured, the follower's guess not in
    idle_ticks: int = 0  # timer reruns (every session's) over the IDLE_SECONDS the class sat still
    idle_polls: int = 0  # of which the followers' polls
    idle_cpu: float | None = None  # the servers' CPU seconds over those IDLE_SECONDS


async def run_class(n: int, movers: int, replicas: int, duration: float, interval: float, action: str,
                    full_rerun: bool, seed: int, options: dict[str, str], lead: str = "k") -> ClassResult:
    with servers(replicas, options) as started:
        urls = [url for _, url in started]
        procs = [proc for proc, _ in started]
        questions = lead in QUESTION_LEADS
        instructor: Instructor | QuestionLead = (QuestionLead if questions else Instructor)(
            0, urls[0], random.Random(seed), "slider", full_rerun, lead_change=lead)
        learner = PageWatcher if lead == "page" else QuestionWatcher if questions else cs.Learner
        explorer = QuestionWatcher if questions else cs.Learner  # predict first hides their values too
        learners = [(learner if i <= n - movers else explorer)(i, urls[(i - 1) % replicas],
                                                               random.Random(seed * 1000 + i), action, full_rerun)
                    for i in range(1, n + 1)]
        followers, explorers = learners[:n - movers], learners[n - movers:]
        listeners: list[asyncio.Task] = []

        async def joined(x: cs.Learner) -> None:
            if x.number > n - movers:  # an explorer
                await x.press(EXPLORE_LABEL)
                x.last_sent_k = x.shown_k
            listeners.append(asyncio.create_task(x.listen()))

        try:
            code = await instructor.start_class()
            listeners.append(asyncio.create_task(instructor.listen()))
            for x in learners:
                x.query_string = f"class={code}"
            await cs.open_learners(learners, then=joined)
            everyone = [instructor, *learners]
            idle_cpu0, ticks0 = total_cpu(procs), sum(x.ticks for x in everyone)
            polls0 = sum(x.ticks for x in followers)
            await asyncio.sleep(IDLE_SECONDS)  # the class sits still: what its timers cost
            idle_cpu1, ticks1 = total_cpu(procs), sum(x.ticks for x in everyone)
            idle_polls = sum(x.ticks for x in followers) - polls0
            load_before = cs.load_average()
            cpu0, client0 = total_cpu(procs), time.process_time()
            received0, deflated0 = sum(x.received for x in followers), sum(x.deflated for x in followers)
            page_runs0 = sum(x.page_runs for x in followers)
            start = time.perf_counter()
            stop = start + duration
            await asyncio.wait_for(asyncio.gather(instructor.lead(followers, start, stop, interval),
                                                  *(x.act(start, stop, interval) for x in explorers)), duration + 30)
            await asyncio.sleep(max(0.0, stop - time.perf_counter()))  # the CPU figures over the whole duration
            elapsed = time.perf_counter() - start
            cpu1, client1 = total_cpu(procs), time.process_time()
            received = sum(x.received for x in followers) - received0
            deflated = sum(x.deflated for x in followers) - deflated0
            page_runs = sum(x.page_runs for x in followers) - page_runs0
            await cs.drain([instructor, *learners])
            unguessed = getattr(instructor, "unguessed", 0)
            load_after = cs.load_average()
            peaks = [cs.status_kb(p.pid, "VmHWM") for p in procs]
            unpolled = sum(not x.timers for x in followers)
            await cs.close_all([instructor, *learners])
            await asyncio.gather(*listeners, return_exceptions=True)
        finally:
            await cs.close_all([instructor, *learners])
    follow_ms, follow_windows = cs.latencies_of(followers, start, duration)
    own_ms, own_windows = cs.latencies_of(explorers, start, duration)
    return ClassResult(
        learners=n, followers=len(followers), explorers=len(explorers), replicas=replicas, changes=instructor.sent,
        pairs=sum(x.sent for x in followers), follow_ms=follow_ms, follow_windows=follow_windows,
        own_sent=sum(x.sent for x in explorers), own_ms=own_ms, own_windows=own_windows,
        instructor_ms=cs.latencies_of([instructor], start, duration)[0],
        skipped=sum(x.skipped for x in everyone), wrong=sum(len(x.wrong_values) for x in everyone),
        ended_elsewhere=sum(cs.ended_elsewhere(x) for x in everyone), unpolled=unpolled,
        server_cpu=None if cpu0 is None or cpu1 is None else (cpu1 - cpu0) / elapsed,
        follow_kb=received / 1024 / max(1, instructor.sent * len(followers)),
        follow_deflated_kb=deflated / 1024 / max(1, instructor.sent * len(followers)),
        follow_page_runs=page_runs,
        client_cpu=(client1 - client0) / elapsed, peaks_kb=peaks, duration=elapsed,
        load_before=load_before, load_after=load_after, lead=lead, unguessed=unguessed,
        idle_ticks=ticks1 - ticks0, idle_polls=idle_polls,
        idle_cpu=None if idle_cpu0 is None or idle_cpu1 is None else idle_cpu1 - idle_cpu0)


# ----------------------------------------------------------------------------
# Report
# ----------------------------------------------------------------------------

def spread(values: np.ndarray) -> str:
    return (f"median {cs.percentile(values, 50)} ms, p95 {cs.percentile(values, 95)} ms, "
            f"max {cs.percentile(values, 100)} ms")


def report_class(r: ClassResult, interval: float, action: str, full_rerun: bool, options: dict[str, str],
                 lead: str = "k") -> None:
    store = "the class in the server's memory" if r.replicas == 1 else "the class in Redis"
    change = "moves the slider" if action == "slider" else "swaps two documents in the ranking editor"
    leads = {"k": "moves k",
             "page": f"goes to the other page ({cs.PAGE} ↔ {OTHER_PAGE}; answered: that page's run finished)",
             "ask": "asks the class (a cycle of a new k, then 'Ask the class'; answered: the follower's guess box)",
             "reveal": "reveals (a cycle of a new k, 'Ask the class', the followers' guesses, then 'Reveal to the "
                       "class'; answered: the follower's verdict)"}[lead]
    print(f"\nLive class on the Recall@k lesson, {r.replicas} server(s), {store}; the instructor {leads} every "
          f"{interval:g} s; {r.followers} learners follow, {r.explorers} explore on their own (each {change} every "
          f"{interval:g} s, {'full-page rerun' if full_rerun else 'fragment rerun'}); {r.duration:.0f} s; "
          f"{os.cpu_count()} CPUs on this machine" + "".join(f"; {name} = {value}" for name, value in options.items()))
    within = np.count_nonzero(r.follow_ms <= FOLLOW_WITHIN * 1000) / r.pairs if r.pairs else 0.0
    verdict = "met" if within >= FOLLOW_SHARE_GOAL else "NOT met"
    print(f"  follow: {r.changes} changes × {r.followers} followers = {r.pairs} pairs, {r.follow_ms.size} answered; "
          f"within {FOLLOW_WITHIN:g} s: {within:.1%} (goal ≥ {FOLLOW_SHARE_GOAL:.0%}: {verdict}); {spread(r.follow_ms)}")
    print(f"    p95 ms of the changes sent in each {cs.WINDOW:g} s: "
          + ", ".join(f"{p95:.0f}" for _, p95 in r.follow_windows))
    if r.explorers:
        p95 = float(np.percentile(r.own_ms, 95)) if r.own_ms.size else float("inf")
        print(f"  own moves: {r.own_sent} sent, {r.own_ms.size} answered; {spread(r.own_ms)} "
              f"(goal p95 ≤ {cs.GOAL_MS:.0f} ms: {'met' if p95 <= cs.GOAL_MS else 'NOT met'})")
        print(f"    p95 ms of the changes sent in each {cs.WINDOW:g} s: "
              + ", ".join(f"{p95:.0f}" for _, p95 in r.own_windows))
    print(f"    the followers' whole-page runs over the run: {r.follow_page_runs} for {r.pairs} pairs (a change "
          f"that reruns only the lesson's fragment that shows it needs none)")
    if r.unguessed:
        print(f"    {r.unguessed} (reveal, follower) pairs not measured: the follower's guess was not in "
              f"{GUESS_WAIT:g} s after the tick")
    print(f"  the instructor's own screen after a move: {spread(r.instructor_ms)}")
    if r.idle_cpu is not None and r.idle_ticks:
        print(f"  the class sitting still for {IDLE_SECONDS:g} s: {r.idle_ticks} timer reruns ({r.idle_polls} of them "
              f"the followers' polls), {r.idle_cpu / IDLE_SECONDS:.0%} of one core, "
              f"{r.idle_cpu / r.idle_ticks * 1000:.1f} ms of server CPU per timer rerun")
    print(f"  network: {r.follow_kb:.0f} KB to each follower per change (all they received over the run, polls "
          f"included, / (changes × followers)); about {r.follow_deflated_kb:.0f} KB on the wire, compressed as "
          f"server.enableWebsocketCompression sends it")
    if r.server_cpu is not None:
        print(f"  server CPU: {r.server_cpu:.0%} of one core in all (summed over {r.replicas} server(s)); "
              f"{r.server_cpu / r.learners:.1%} per learner (CPU seconds / (learners × seconds of the run))")
    print(f"  client CPU {r.client_cpu:.0%}; peak RSS {', '.join(cs.mb(kb) for kb in r.peaks_kb)}; "
          f"load 1-min {r.load_before:.1f}→{r.load_after:.1f}")
    problems = []
    if r.skipped:
        problems.append(f"{r.skipped} moves skipped: every other k was still waiting for an answer")
    missing = r.pairs + r.own_sent + r.changes - r.follow_ms.size - r.own_ms.size - r.instructor_ms.size
    if missing:
        problems.append(f"{missing} changes got no answer within {cs.DRAIN_TIMEOUT:.0f} s")
    if r.wrong:
        problems.append(f"{r.wrong} values differ from the engine's")
    if r.ended_elsewhere:
        problems.append(f"{r.ended_elsewhere} sessions ended on a state not asked of them")
    if r.unpolled:
        problems.append(f"{r.unpolled} followers stopped polling (a whole-page run's new_session stopped the "
                        f"browser's timers and no auto_rerun came to start the follow poll again)")
    print("  " + ("; ".join(problems) if problems else
                  "every change answered, every value the engine's, every session ended where it was asked to"))


def run(args: argparse.Namespace) -> None:
    """``--class``: one run (fresh servers) for each number of learners."""
    for n in args.learners:
        movers = n // 3 if args.movers is None else min(args.movers, n)
        print(f"N = {n}: starting {args.replicas} server(s), a class, {n - movers} following and {movers} "
              f"exploring learner(s), then {args.duration:g} s of moves…", flush=True)
        result = asyncio.run(run_class(n, movers, args.replicas, args.duration, args.interval, args.action,
                                       args.full_rerun, args.seed, dict(args.set), args.lead))
        report_class(result, args.interval, args.action, args.full_rerun, dict(args.set), args.lead)
