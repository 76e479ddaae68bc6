"""A live class: the instructor leads, the learners follow, the class answers together.

The protocol over a :class:`components.live_class.store.ClassStore`:

- :func:`start` makes a class (at most ``most`` live at once: :class:`ClassesFull`; a session that leads one
  already ends it first, so one session leads one class) under a new short **code** (:data:`CODE_LENGTH`
  characters from :data:`CODE_ALPHABET`, which leaves out look-alikes such as
  0/O and 1/I/L, so it reads aloud) and returns the :class:`Lead`: the code
  and a secret **lead token**. The store keeps only the token's SHA-256, so
  knowing the code lets anyone follow and nobody lead; the instructor's browser
  keeps the token (never in a URL).
- :func:`lead` changes what the class shows: the page, the widget values the
  learners' pages take (orderings, grades, k, gain, the classroom modes) and the
  question being asked; each change adds one to the class's version.
- A learner's session polls :func:`version` (one number) and, when it moved,
  reads :func:`view`.
- :func:`ask` opens a question, :func:`guess` takes a learner's answer while it
  is open (one per learner: a new answer replaces their last; a number only
  when :func:`takes_number` it, at most ``most`` learners), :func:`reveal`
  closes it, and :func:`tally` counts the answers.
- A learner is a **member id** (:func:`new_member`), kept in their browser so
  that a reload is the same learner. While joined, their session says
  :func:`here` every :data:`HERE_SECONDS`, with an optional nickname (at most
  ``most`` on the roll call: those not seen for :data:`PRESENT_SECONDS` make room);
  :func:`roll_call` counts those seen in the last :data:`PRESENT_SECONDS`;
  :func:`gone` takes one off at once.
- :func:`end` removes the class; so does its expiry (``ttl`` after the last change).
- :func:`split_by_fragment` tells a follower whether a new view can be taken
  by rerunning only the page's fragments that show what changed.

No Streamlit import here; no personal data: answers are values, a member id is random, and a nickname is
whatever a learner chose to type (or nothing), shown only on the roll call, never beside an answer.
"""
from __future__ import annotations

import hashlib
import hmac
import math
import re
import secrets
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from components.live_class.store import CLASS_TTL, ClassStore
from components.serving.settings import LIMITS

CODE_ALPHABET = "ACDEFGHJKMNPRTUVWXY34679"  # no look-alikes: not 0, 1, 2, 5, 8, B, I, L, O, Q, S, Z
CODE_LENGTH = 6  # 24^6 ≈ 191 million codes: at 20 wrong codes a minute, 10 live classes take ~2 years to hit
_TRIES = 20  # new codes tried before giving up (a store nearly full of classes)
MAX_NICKNAME = 20  # characters kept of a nickname
HERE_SECONDS = LIMITS.here_seconds  # how often a joined learner's session says it is there (10 s)
PRESENT_SECONDS = 3 * HERE_SECONDS  # seen within this long: on the roll call (two missed calls allowed)
_MEMBER = re.compile(r"[A-Za-z0-9_-]{8,64}")  # a member id, as :func:`new_member` makes them


class NotLeader(PermissionError):
    """A change asked without the class's lead token."""


class ClassesFull(RuntimeError):
    """A new class asked while the server holds as many live classes as it takes."""


@dataclass(frozen=True)
class Lead:
    """What the instructor's browser keeps: the class code and the secret lead token."""

    code: str
    token: str


@dataclass(frozen=True)
class Question:
    """The question the class is asked: its id (the question bank's, or a demonstration's), the kind ("number"
    or "choice"), for a choice the options' ids, and for a number the largest guess it takes (``top``: 1 for
    the measures in [0, 1]; a guess is from 0 to ``top``)."""

    id: str
    kind: str
    options: tuple[str, ...] = ()
    top: float = 1.0


def takes_number(question: Question, value: float) -> bool:
    """Whether a guess of ``value`` fits ``question``: a finite number from 0 to its ``top``.

    >>> q = Question("recall", "number")
    >>> takes_number(q, 0.4), takes_number(q, 1e308), takes_number(q, -0.1), takes_number(q, float("nan"))
    (True, False, False, False)
    """
    return math.isfinite(value) and 0 <= value <= question.top


@dataclass(frozen=True)
class ClassView:
    """What a following learner's page takes from the class, at ``version``."""

    code: str
    version: int
    page: str | None  # the url path of the instructor's page
    target: dict[str, Any]  # widget key -> value, applied before the page's widgets are built
    question: Question | None
    revealed: bool


def normal_code(text: str) -> str | None:
    """A typed code, upper-cased, spaces and dashes dropped; None when it cannot be a code.

    >>> normal_code(" h7k-3mp "), normal_code("hello!")
    ('H7K3MP', None)
    """
    code = "".join(text.split()).replace("-", "").upper()
    return code if len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code) else None


@dataclass(frozen=True)
class RollCall:
    """The learners in the class now: how many, and the nicknames of those who gave one (sorted)."""

    count: int
    nicknames: tuple[str, ...]

    @property
    def unnamed(self) -> int:
        return self.count - len(self.nicknames)


def normal_nickname(text: object) -> str:
    """A typed nickname as the class shows it: its runs of spaces as one, control and format characters
    dropped, cut to :data:`MAX_NICKNAME` characters ("" when nothing is left).

    >>> normal_nickname("  Ada \\n  L.\\u200b "), normal_nickname("x" * 30) == "x" * 20
    ('Ada L.', True)
    """
    kept = "".join(" " if c.isspace() else c for c in str(text) if c.isspace() or unicodedata.category(c)[0] != "C")
    return " ".join(kept.split())[:MAX_NICKNAME].strip()


def normal_member(value: object) -> str | None:
    """A member id read back from a browser (untrusted), or None when it is not one :func:`new_member` makes."""
    return value if isinstance(value, str) and _MEMBER.fullmatch(value) else None


def new_member() -> str:
    return secrets.token_urlsafe(12)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def start(store: ClassStore, ttl: int = CLASS_TTL, *, most: int | None = None, replacing: Lead | None = None) -> Lead:
    """A new class, led by the returned :class:`Lead`. The class ``replacing`` leads (the session's last one)
    ends first; :class:`ClassesFull` when ``most`` classes are live; ``RuntimeError`` when no free code was
    found."""
    if replacing is not None:
        try:
            end(store, replacing)
        except NotLeader:
            pass  # not this session's class any more (a stale lead): it stays
    if most is not None and store.count() >= most:
        raise ClassesFull(f"{most} classes are live on this server")
    token = secrets.token_urlsafe(24)
    record: dict[str, Any] = {"lead": _digest(token), "page": None, "target": {}, "question": None,
                              "revealed": False}
    for _ in range(_TRIES):
        code = new_code()
        if store.create(code, record, ttl):
            return Lead(code, token)
    raise RuntimeError("no free class code: too many classes at once")


def version(store: ClassStore, code: str) -> int | None:
    """The class's version (None: no such class, ended or expired): what a follower polls."""
    return store.version(code)


def view(store: ClassStore, code: str) -> ClassView | None:
    """What the class shows now, or None when there is no such class."""
    held = store.read(code)
    if held is None:
        return None
    number, record = held
    question = record.get("question")
    return ClassView(code, number, record.get("page"), dict(record.get("target") or {}),
                     None if question is None else Question(question["id"], question["kind"],
                                                            tuple(question.get("options", ())),
                                                            float(question.get("top", 1.0))),
                     bool(record.get("revealed")))


def is_leader(store: ClassStore, lead: Lead) -> bool:
    """Whether ``lead`` holds the class's lead token (False when the class is gone)."""
    held = store.read(lead.code)
    return held is not None and hmac.compare_digest(held[1]["lead"], _digest(lead.token))


def lead(store: ClassStore, lead: Lead, *, page: str | None = None, target: Mapping[str, Any] | None = None,
         ttl: int = CLASS_TTL) -> int | None:
    """Show the class this page and these widget values (merged into those it has); the new version, or None
    when the class is gone. ``NotLeader`` without the lead token."""
    return _change(store, lead, ttl, lambda record: record.update(
        page=record["page"] if page is None else page, target={**record["target"], **(target or {})}))


def ask(store: ClassStore, lead: Lead, question: Question, ttl: int = CLASS_TTL) -> int | None:
    """Open ``question`` for the class's answers (closing any other)."""
    return _change(store, lead, ttl, lambda record: record.update(
        question={"id": question.id, "kind": question.kind, "options": list(question.options), "top": question.top},
        revealed=False))


def reveal(store: ClassStore, lead: Lead, ttl: int = CLASS_TTL) -> int | None:
    """Close the open question and show its answer to everyone."""
    return _change(store, lead, ttl, lambda record: record.update(revealed=True))


def end(store: ClassStore, lead: Lead) -> None:
    """End the class for everyone (``NotLeader`` without the lead token; nothing when it is gone already)."""
    if store.read(lead.code) is None:
        return
    if not is_leader(store, lead):
        raise NotLeader(f"class {lead.code}: only its instructor can end it")
    store.delete(lead.code)


def guess(store: ClassStore, code: str, question_id: str, member: str, value: str | float, ttl: int = CLASS_TTL,
          most: int | None = None) -> bool:
    """A learner's answer to the open question, in place of any they gave before; False (not counted) when the
    class is gone, the question is not the one open, it has been revealed, a choice is not one of its
    options, a number's guess is not a float that :func:`takes_number` (the caller parses what was typed;
    it is kept as ``repr``), or ``most`` other learners have answered."""
    now = view(store, code)
    if now is None or now.question is None or now.question.id != question_id or now.revealed:
        return False
    if now.question.kind == "number":
        if not isinstance(value, float) or not takes_number(now.question, value):
            return False
        answer = repr(value)
    else:
        answer = str(value).strip()
        if answer not in now.question.options:
            return False
    return store.answer(code, question_id, member, answer, ttl, most)


def tally(store: ClassStore, code: str, question_id: str) -> Counter:
    """How many learners gave each answer to the question."""
    return Counter(store.answers(code, question_id))


def here(store: ClassStore, code: str, member: str, nickname: str, now: float, ttl: int = CLASS_TTL,
         most: int | None = None) -> bool:
    """The learner ``member`` is in the class at ``now`` (wall-clock seconds: replicas share them), under
    their nickname (:func:`normal_nickname`; "" for none); False when the class is gone, or when its roll
    call holds ``most`` learners even after those not seen within :data:`PRESENT_SECONDS` are let go."""
    if store.seen(code, member, normal_nickname(nickname), now, ttl, most):
        return True
    absent = [m for m, (_, seen) in store.members(code).items() if now - seen > PRESENT_SECONDS]
    if not absent:
        return False
    for each in absent:
        store.left(code, each)
    return store.seen(code, member, normal_nickname(nickname), now, ttl, most)


def gone(store: ClassStore, code: str, member: str) -> None:
    """The learner left the class (or their browser's older member id came back): off the roll call now."""
    store.left(code, member)


def roll_call(store: ClassStore, code: str, now: float, window: float = PRESENT_SECONDS) -> RollCall:
    """The learners seen in the class within ``window`` seconds before ``now``.

    >>> from components.live_class.store import MemoryStore
    >>> store = MemoryStore(); lead = start(store)
    >>> for member, nickname, at in (("m-ada-0001", "Ada", 95), ("m-x-000002", "", 99), ("m-old-0003", "Bo", 10)):
    ...     _ = here(store, lead.code, member, nickname, at)
    >>> roll_call(store, lead.code, now=100)
    RollCall(count=2, nicknames=('Ada',))
    """
    present = [nickname for nickname, seen in store.members(code).values() if now - seen <= window]
    return RollCall(len(present), tuple(sorted((n for n in present if n), key=str.casefold)))


def _change(store: ClassStore, lead: Lead, ttl: int, change) -> int | None:
    held = store.read(lead.code)
    if held is None:
        return None
    record = held[1]
    if not hmac.compare_digest(record["lead"], _digest(lead.token)):
        raise NotLeader(f"class {lead.code}: only its instructor can lead it")
    change(record)
    return store.write(lead.code, record, ttl)


def split_by_fragment(target: Mapping[str, Any], taken: Mapping[str, Any], where: Mapping[str, str],
                      shows: Callable[[str, Any], bool]) -> dict[str, dict[str, Any]] | None:
    """The class's new widget values ``target`` for a follower, by the fragment that shows each, or None when
    the whole page must rerun.

    ``taken``: the values the follower last took; ``where``: followed key -> the id of the fragment of this
    page that built its widget; ``shows(key, value)``: whether the follower's screen shows that value already.
    None when a key no fragment built has a value other than the one taken (a classroom mode, a widget
    outside every fragment): only a whole run shows it. Otherwise each key a fragment built whose value the
    screen does not show, under that fragment (empty: nothing on this page changed).
    """
    if any(key not in where and taken.get(key) != value for key, value in target.items()):
        return None
    split: dict[str, dict[str, Any]] = {}
    for key, value in target.items():
        if key in where and not shows(key, value):
            split.setdefault(where[key], {})[key] = value
    return split


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
