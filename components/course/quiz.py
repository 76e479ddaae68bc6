"""Practice questions: the question bank, answer parsing, checking and generated exercises.

No Streamlit import here: everything is plain data and plain functions, so it
is tested directly. Prose (prompts, hints, feedback, option labels,
explanations, solutions) lives in ``lessons/text/questions.md``; this module
only names the sections to show (see :func:`required_texts`) and supplies the
values for their ``{placeholders}``.

Every correct number, and every trap number, is computed by
:mod:`components.engine.metrics` from :mod:`components.course.scenarios` data.

Question types
--------------
- :class:`NumericQuestion`: the learner types a number. Accepted forms: a
  decimal with a point or a comma (``0.75``, ``0,75``), a fraction (``3/4``),
  a percentage (``75%``), with or without spaces. Tolerance: ±0.005 for values
  in [0, 1], ±0.5% (relative) for DCG values. Known wrong answers (traps) get
  targeted feedback; any other wrong answer gets generic feedback and the hint.
- :class:`ChoiceQuestion`: multiple choice, one or several correct options,
  an explanation for every option.
- :class:`OrderingQuestion`: order a pool of documents to maximise nDCG@k;
  any optimal order is right (checked by the engine, not against one answer).
- :class:`WarmUp`: think, then reveal the answer; not graded, never counted
  in progress. Each lesson after the first opens with one on the lesson
  before (``warmup.<lesson>``, its ``lesson`` set to the lesson it opens, its
  numbers in ``values``); two more are carried over from earlier topics
  (``lesson`` None, see :data:`EARLIER_WARM_UPS`). A lesson page's practice
  block keeps only :func:`is_graded` questions, so its warm-up shows once, at
  the top.

Generated exercises (:func:`generate_exercise`) draw a random ranking from an
integer seed and ask for Recall@k, hit rate@k, RR or nDCG@k; each draw sets
up one known trap. The same seed always gives the same exercise.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Iterable, Literal, Mapping, Sequence, Union

import numpy as np

from components.course import scenarios as sc
from components.engine import metrics
from components.engine.formatting import fmt

# ----------------------------------------------------------------------------
# Lessons and shared text sections
# ----------------------------------------------------------------------------

LESSONS: tuple[str, ...] = ("accuracy", "recall", "mrr", "ndcg", "four_queries", "choosing")

UNIT_TOLERANCE = 0.005  # absolute, for values in [0, 1]
DCG_TOLERANCE = 0.005  # relative (0.5%), for DCG values
MAX_INPUT_LENGTH = 64  # longer input is not a number anybody means

# Shared sections of lessons/text/questions.md (not tied to one question).
FEEDBACK_CORRECT = "feedback correct"
FEEDBACK_WRONG = "feedback wrong"
FEEDBACK_NOT_A_NUMBER = "feedback not a number"
FEEDBACK_PERCENT_SIGN = "feedback percent sign"
FEEDBACK_RECORDED = "feedback recorded"
FEEDBACK_HIDDEN = "feedback hidden"
FEEDBACK_PICK = "feedback pick an option"
FEEDBACK_CHOICE_WRONG = "feedback choice wrong"
FEEDBACK_CHOICE_PARTIAL = "feedback choice partial"
FEEDBACK_ORDER_TOO_SHORT = "feedback order too short"
FEEDBACK_ORDER_INVALID = "feedback order invalid"
ORDERING_TRAPS = ("irrelevant on top", "lower grade on top", "order inside top k")
GENERATED_MISSING = "generated missing"
GENERATED_NONE_MISSING = "generated none missing"
# The progress sidebar's texts.
PROGRESS_TEXTS = ("progress heading", "progress total", "progress reset", "progress reset confirm",
                  "progress privacy")

# The question card's own labels: the kind badges, the answer widgets, the buttons.
CARD_TEXTS = ("card kind warm-up", "card kind exercise", "card kind number", "card kind pick all",
              "card kind pick one", "card kind order", "card table position", "card table grade",
              "card order label", "card answer", "card answer placeholder", "card check", "card reveal",
              "card reveal one", "card reveal one help", "card hint", "card hint button", "card method button",
              "card solution button", "card retry")

SHARED_TEXTS: tuple[str, ...] = (
    FEEDBACK_CORRECT, FEEDBACK_WRONG, FEEDBACK_NOT_A_NUMBER, FEEDBACK_PERCENT_SIGN,
    FEEDBACK_RECORDED, FEEDBACK_HIDDEN, FEEDBACK_PICK, FEEDBACK_CHOICE_WRONG, FEEDBACK_CHOICE_PARTIAL,
    FEEDBACK_ORDER_TOO_SHORT, FEEDBACK_ORDER_INVALID,
    *(f"ordering trap {name}" for name in ORDERING_TRAPS),
    GENERATED_MISSING, GENERATED_NONE_MISSING, *PROGRESS_TEXTS, *CARD_TEXTS,
    *(f"lesson {lesson}" for lesson in LESSONS),
    "lesson warmup",
)

N_HINTS = 2  # hint 1: a nudge; hint 2: the method


def _values(**values) -> Mapping[str, str]:
    return MappingProxyType({name: str(value) for name, value in values.items()})


def _join(numbers: Iterable) -> str:
    return ", ".join(str(n) for n in numbers)


# ----------------------------------------------------------------------------
# Parsing learner input
# ----------------------------------------------------------------------------

_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,4})?", re.ASCII)
_APPROX_PREFIXES = ("≈", "~", "=")


@dataclass(frozen=True)
class Parsed:
    """A parsed answer: ``value`` is a finite float, or None with ``error`` naming the feedback section."""

    value: float | None
    error: str | None = None


def _plain_number(part: str) -> float | None:
    if part.count(",") > 1 or ("," in part and "." in part):
        return None
    part = part.replace(",", ".")
    if not _NUMBER.fullmatch(part):
        return None
    value = float(part)
    return value if math.isfinite(value) else None


def parse_answer(text) -> Parsed:
    """Read a typed number: ``0.75``, ``0,75``, ``3/4``, ``75%``, ``≈ 0.53``; spaces anywhere are ignored.

    Never raises: anything that is not a finite number (empty input, words,
    ``nan``, ``inf``, ``1/0``, ``1e9999``, very long input) gives
    ``Parsed(None, FEEDBACK_NOT_A_NUMBER)``.

    Examples
    --------
    >>> parse_answer("3/4").value, parse_answer(" 75 % ").value, parse_answer("0,75").value
    (0.75, 0.75, 0.75)
    >>> parse_answer("1/0")
    Parsed(value=None, error='feedback not a number')
    """
    invalid = Parsed(None, FEEDBACK_NOT_A_NUMBER)
    if not isinstance(text, str) or len(text) > MAX_INPUT_LENGTH:
        return invalid
    s = "".join(text.split())
    for prefix in _APPROX_PREFIXES:
        if s.startswith(prefix):
            s = s[len(prefix):]
            break
    percent = s.endswith("%")
    if percent:
        s = s[:-1]
    parts = s.split("/")
    if not s or len(parts) > 2:
        return invalid
    numbers = [_plain_number(p) for p in parts]
    if any(n is None for n in numbers):
        return invalid
    value = numbers[0]
    if len(numbers) == 2:
        if numbers[1] == 0:
            return invalid
        value = numbers[0] / numbers[1]
    if percent:
        value /= 100
    if not math.isfinite(value):
        return invalid
    return Parsed(float(value))


# ----------------------------------------------------------------------------
# Outcomes
# ----------------------------------------------------------------------------

Status = Literal["correct", "trap", "wrong", "invalid"]


@dataclass(frozen=True)
class Outcome:
    """The result of checking one answer.

    ``status``: correct, trap (a known wrong answer), wrong (any other wrong
    answer) or invalid (not an answer: unparseable, nothing picked).
    ``feedback``: the questions.md section to show; ``values`` fill its
    placeholders.
    """

    status: Status
    feedback: str
    values: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def correct(self) -> bool:
        return self.status == "correct"


# ----------------------------------------------------------------------------
# Question types
# ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Trap:
    """A known wrong answer and the slip behind it (feedback: ``<id> trap <name>``)."""

    name: str
    value: float


@dataclass(frozen=True)
class NumericQuestion:
    """Type a number. ``scale`` is "unit" (a value in [0, 1]) or "dcg" (relative tolerance)."""

    id: str
    lesson: str | None
    answer: float
    traps: tuple[Trap, ...] = ()
    scale: Literal["unit", "dcg"] = "unit"
    values: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    solution_part: str = "solution"

    def __post_init__(self):
        for trap in self.traps:
            if within(trap.value, self.answer, self.scale):
                raise ValueError(f"{self.id}: trap {trap.name!r} ({trap.value}) is within tolerance of the answer")


@dataclass(frozen=True)
class ChoiceQuestion:
    """Pick one option (radio) or several (``multiple``); every option has an explanation."""

    id: str
    lesson: str | None
    options: tuple[str, ...]
    correct: frozenset[str]
    values: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self):
        if not self.correct or not self.correct <= set(self.options):
            raise ValueError(f"{self.id}: the correct options must be among {self.options}")

    @property
    def multiple(self) -> bool:
        return len(self.correct) > 1


@dataclass(frozen=True)
class OrderingQuestion:
    """Put a pool of documents in an order that maximises nDCG@k (any optimal order is right).

    ``start`` is the order the pool is shown in first; every document of the
    query is judged, so the best nDCG@k is 1.
    """

    id: str
    lesson: str | None
    query: sc.Query
    start: tuple[str, ...]
    k: int
    gain: metrics.Gain = "exponential"
    values: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def ndcg(self, order: Sequence[str]) -> float:
        """nDCG@k of ``order`` (documents not placed sit below it, where they cannot count)."""
        return metrics.ndcg_at_k(self.query.grades(order), self.k, self.query.judged_grades(), self.gain)

    def ideal_order(self) -> tuple[str, ...]:
        """One optimal order: the pool sorted by grade, best first (stable)."""
        grades = self.query.grades(self.start)
        return tuple(self.start[i] for i in np.argsort(-grades, kind="stable"))

    @property
    def best(self) -> float:
        return self.ndcg(self.ideal_order())


@dataclass(frozen=True)
class WarmUp:
    """Think, then reveal: not graded, never counted in progress.

    ``lesson`` is the lesson the warm-up opens (its question is about the
    lesson before); None for a warm-up carried over from an earlier topic.
    ``values`` fill the ``{placeholders}`` of its prompt and answer.
    """

    id: str
    lesson: str | None = None
    values: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))


Question = Union[NumericQuestion, ChoiceQuestion, OrderingQuestion, WarmUp]


def is_graded(question: Question) -> bool:
    """Whether checking the question can be right or wrong (warm-ups cannot)."""
    return not isinstance(question, WarmUp)


# ----------------------------------------------------------------------------
# Checking
# ----------------------------------------------------------------------------

def within(value: float, target: float, scale: str = "unit") -> bool:
    """|value − target| within the tolerance (±0.005, or ±0.5% of target for DCG), edges included.

    Examples
    --------
    >>> within(0.755, 0.75), within(0.7551, 0.75), within(3.409, 3.393, "dcg")
    (True, False, True)
    """
    tolerance = UNIT_TOLERANCE if scale == "unit" else DCG_TOLERANCE * abs(target)
    return abs(value - target) <= tolerance + 1e-9


def check_numeric(question: NumericQuestion, text) -> Outcome:
    """Check a typed answer: correct, a known trap, a percentage without its sign, or wrong."""
    parsed = parse_answer(text)
    if parsed.value is None:
        return Outcome("invalid", parsed.error or FEEDBACK_NOT_A_NUMBER)
    value = parsed.value
    if within(value, question.answer, question.scale):
        return Outcome("correct", FEEDBACK_CORRECT)
    for trap in question.traps:
        if within(value, trap.value, question.scale):
            return Outcome("trap", f"{question.id} trap {trap.name}")
    if question.scale == "unit" and 1 < value <= 100 and within(value / 100, question.answer):
        return Outcome("wrong", FEEDBACK_PERCENT_SIGN, _values(typed=f"{value:g}"))
    return Outcome("wrong", FEEDBACK_WRONG)


def check_choice(question: ChoiceQuestion, selected: Iterable[str] | None) -> Outcome:
    """Check picked options (unknown option ids are ignored)."""
    picked = {s for s in (selected or ()) if s in question.options}
    if not picked:
        return Outcome("invalid", FEEDBACK_PICK)
    if picked == question.correct:
        return Outcome("correct", FEEDBACK_CORRECT)
    if picked < question.correct:
        return Outcome("wrong", FEEDBACK_CHOICE_PARTIAL)
    return Outcome("wrong", FEEDBACK_CHOICE_WRONG)


def check_ordering(question: OrderingQuestion, order: Sequence[str] | None) -> Outcome:
    """Check an order of the pool: any order reaching the best nDCG@k is correct.

    At least k documents must be placed; documents left out sit below the k
    placed ones, where nDCG@k does not look.
    """
    order = list(order or ())
    k = question.k
    if any(not isinstance(i, str) or i not in question.query.by_id for i in order) or len(set(order)) != len(order):
        return Outcome("invalid", FEEDBACK_ORDER_INVALID)
    if len(order) < k:
        return Outcome("invalid", FEEDBACK_ORDER_TOO_SHORT, _values(k=k, placed=len(order)))
    value, best = question.ndcg(order), question.best
    values = _values(k=k, ndcg=fmt(value), best=fmt(best))
    if value >= best - 1e-12:
        return Outcome("correct", FEEDBACK_CORRECT, values)
    top = question.query.grades(order[:k])
    rest = question.query.grades([i for i in question.start if i not in order[:k]])
    best_left = int(rest.max()) if rest.size else 0
    if np.any(top <= 0) and best_left >= 1:
        trap = "irrelevant on top"
    elif int(top.min()) < best_left:
        trap = "lower grade on top"
    else:
        trap = "order inside top k"
    return Outcome("trap", f"ordering trap {trap}", values)


def check(question: Question, answer) -> Outcome | None:
    """Check any graded question's answer (None for a warm-up, which is not graded)."""
    if isinstance(question, NumericQuestion):
        return check_numeric(question, answer)
    if isinstance(question, ChoiceQuestion):
        return check_choice(question, answer)
    if isinstance(question, OrderingQuestion):
        return check_ordering(question, answer)
    return None


# ----------------------------------------------------------------------------
# The question bank (every number from the engine)
# ----------------------------------------------------------------------------

def _accuracy_questions() -> list[Question]:
    case = sc.ACCURACY_PRESETS["Top 10, half of them relevant"]
    counts = metrics.set_retrieval(sc.ACCURACY_COLLECTION, sc.ACCURACY_RELEVANT, case.returned, case.relevant_returned)
    return [NumericQuestion(
        "accuracy.top10_recall", "accuracy", counts.recall,
        traps=(Trap("precision", counts.precision), Trap("accuracy", counts.accuracy)),
        values=_values(collection=f"{sc.ACCURACY_COLLECTION:,}", relevant=sc.ACCURACY_RELEVANT,
                       returned=case.returned, found=case.relevant_returned, query=sc.ACCURACY_QUERY,
                       answer=fmt(counts.recall), precision=fmt(counts.precision),
                       accuracy=fmt(counts.accuracy, "percent")),
    )]


def _recall_questions() -> list[Question]:
    order = sc.LAWYER.presets["System A"]
    grades = sc.LAWYER.grades(order)
    k = sc.LAWYER_DEFAULT_K["System A"]
    n_relevant = sc.LAWYER.n_relevant()
    found = int(metrics.relevant_in_top_k(metrics.from_rankings([grades]), k)[0])
    lawyer = NumericQuestion(
        "recall.lawyer_a_recall_at_5", "recall", metrics.recall_at_k(grades, k, n_relevant),
        traps=(Trap("precision", metrics.precision_at_k(grades, k)),
               Trap("returned only", metrics.recall_at_k(grades, k))),
        values=_values(k=k, n_relevant=n_relevant, found=found, length=len(order), query=sc.LAWYER.text,
                       answer=fmt(metrics.recall_at_k(grades, k, n_relevant)),
                       precision=fmt(metrics.precision_at_k(grades, k))),
    )

    k3 = 5
    rankings = [list(g) for _, g, _ in sc.RECALL_VS_HIT_RATE]
    judged = [list(g) + [1] * (n - sum(x >= 1 for x in g)) for _, g, n in sc.RECALL_VS_HIT_RATE]
    qs = metrics.from_rankings(rankings, judged)
    in_top = metrics.relevant_in_top_k(qs, k3)
    totals = metrics.num_relevant(qs)
    per_query = metrics.recall(qs, k3)
    mean_recall = NumericQuestion(
        "recall.mean_recall_vs_hit_rate", "recall", float(per_query.mean()),
        traps=(Trap("hit rate", float(metrics.success(qs, k3).mean())),
               Trap("pooled", float(in_top.sum() / totals.sum()))),
        values=_values(k=k3, n_queries=qs.n_queries,
                       sizes=_join(int(t) for t in totals),
                       found=_join(f"{int(f)}/{int(t)}" for f, t in zip(in_top, totals)),
                       recalls=_join(fmt(r) for r in per_query),
                       answer=fmt(float(per_query.mean())),
                       hit_rate=fmt(float(metrics.success(qs, k3).mean()))),
    )
    order_b = sc.LAWYER.presets["System B"]
    grades_b = sc.LAWYER.grades(order_b)
    k_b = sc.LAWYER_DEFAULT_K["System B"]
    found_b = int(metrics.relevant_in_top_k(metrics.from_rankings([grades_b]), k_b)[0])
    recall_b = metrics.recall_at_k(grades_b, k_b, n_relevant)
    system_b = NumericQuestion(
        "recall.system_b_recall_at_20", "recall", recall_b,
        traps=(Trap("precision", metrics.precision_at_k(grades_b, k_b)),
               Trap("returned only", metrics.recall_at_k(grades_b, k_b))),
        values=_values(k=k_b, n_relevant=n_relevant, found=found_b, length=len(order_b), query=sc.LAWYER.text,
                       answer=fmt(recall_b), precision=fmt(metrics.precision_at_k(grades_b, k_b)),
                       missing=len([i for i in sc.LAWYER.not_returned(order_b) if sc.LAWYER.by_id[i].grade >= 1])),
    )

    # Recall@k against k: System A gains nothing after its top 5, System B keeps finding cases.
    k_small, k_large = k, k_b
    falls = (2, 0, 0, 2)  # a relevant page, two misses, another: nDCG@k dips as k grows, recall does not
    never_decreases = ChoiceQuestion(
        "recall.never_decreases", "recall", ("a", "b", "c", "d"), frozenset({"c"}),
        values=_values(n_relevant=n_relevant, k_small=k_small, k_large=k_large,
                       a_small=fmt(metrics.recall_at_k(grades, k_small, n_relevant)),
                       a_large=fmt(metrics.recall_at_k(grades, k_large, n_relevant)),
                       b_small=fmt(metrics.recall_at_k(grades_b, k_small, n_relevant)),
                       b_large=fmt(metrics.recall_at_k(grades_b, k_large, n_relevant)),
                       example=_join(falls),
                       ndcg_1=fmt(metrics.ndcg_at_k(falls, 1)), ndcg_2=fmt(metrics.ndcg_at_k(falls, 2)),
                       recall_1=fmt(metrics.recall_at_k(falls, 1)), recall_2=fmt(metrics.recall_at_k(falls, 2))),
    )
    return [_warm_up_on_accuracy(), lawyer, mean_recall, system_b, never_decreases]


def _warm_up_on_accuracy() -> WarmUp:
    """Opens Recall@k: what accuracy does a system that returns nothing get?"""
    nothing = sc.ACCURACY_PRESETS["Return nothing"]
    top10 = sc.ACCURACY_PRESETS["Top 10, half of them relevant"]
    empty = metrics.set_retrieval(sc.ACCURACY_COLLECTION, sc.ACCURACY_RELEVANT, nothing.returned,
                                  nothing.relevant_returned)
    some = metrics.set_retrieval(sc.ACCURACY_COLLECTION, sc.ACCURACY_RELEVANT, top10.returned,
                                 top10.relevant_returned)
    irrelevant = sc.ACCURACY_COLLECTION - sc.ACCURACY_RELEVANT
    return WarmUp("warmup.recall", "recall", values=_values(
        collection=f"{sc.ACCURACY_COLLECTION:,}", relevant=sc.ACCURACY_RELEVANT, irrelevant=f"{irrelevant:,}",
        query=sc.ACCURACY_QUERY, accuracy=fmt(empty.accuracy, "percent"), recall=fmt(empty.recall),
        returned=top10.returned, found=top10.relevant_returned,
        accuracy_top10=fmt(some.accuracy, "percent"), recall_top10=fmt(some.recall)))


def _jar_set() -> metrics.QuerySet:
    return metrics.from_rankings([q.grades(q.presets["Default"]) for q in sc.JAR_QUERIES])


def _mrr_questions() -> list[Question]:
    qs = _jar_set()
    rr = metrics.reciprocal_rank(qs)
    first = metrics.first_hit_rank(qs)
    mrr = NumericQuestion(
        "mrr.jar_mrr", "mrr", float(rr.mean()),
        traps=(Trap("sum", float(rr.sum())), Trap("mean rank", float(1 / first.mean()))),
        values=_values(target=sc.JAR_TARGET, positions=_join(int(p) for p in first),
                       rrs=_join(fmt(r) for r in rr), total=fmt(float(rr.sum())), n=qs.n_queries,
                       answer=fmt(float(rr.mean())), mean_rank=fmt(float(first.mean()))),
    )
    k = 3
    rr_k = metrics.reciprocal_rank(qs, k)
    mrr_at_k = NumericQuestion(
        "mrr.jar_mrr_at_3", "mrr", float(rr_k.mean()),
        traps=(Trap("no cutoff", float(rr.mean())),),
        values=_values(k=k, target=sc.JAR_TARGET, positions=_join(int(p) for p in first),
                       rrs=_join(fmt(r) for r in rr_k), n=qs.n_queries, answer=fmt(float(rr_k.mean()))),
    )
    rr_1, rr_2, rr_3 = (metrics.reciprocal_rank_of([0] * (p - 1) + [1]) for p in (1, 2, 3))
    factor = NumericQuestion(
        "mrr.rr_factor_1_to_2", "mrr", rr_2 / rr_1,
        traps=(Trap("inverted", rr_1 / rr_2),),
        values=_values(rr_1=fmt(rr_1), rr_2=fmt(rr_2), rr_3=fmt(rr_3), answer=fmt(rr_2 / rr_1),
                       inverted=fmt(rr_1 / rr_2)),
    )
    depth = 10  # an exploratory reading list: the first ten results
    one_hit = [1] + [0] * (depth - 1)
    all_hits = [1] * depth
    wrong_headline = ChoiceQuestion(
        "mrr.wrong_headline", "mrr", ("a", "b", "c", "d"), frozenset({"b"}),
        values=_values(depth=depth, rr_one=fmt(metrics.reciprocal_rank_of(one_hit)),
                       rr_all=fmt(metrics.reciprocal_rank_of(all_hits)),
                       recall_one=fmt(metrics.recall_at_k(one_hit, depth, depth)),
                       recall_all=fmt(metrics.recall_at_k(all_hits, depth, depth)), rr_2=fmt(rr_2)),
    )
    return [_warm_up_on_recall(), mrr, mrr_at_k, factor, wrong_headline]


def _warm_up_on_recall() -> WarmUp:
    """Opens MRR: System A's Recall@5 in the lawyer scenario."""
    grades = sc.LAWYER.grades(sc.LAWYER.presets["System A"])
    k = sc.LAWYER_DEFAULT_K["System A"]
    n_relevant = sc.LAWYER.n_relevant()
    return WarmUp("warmup.mrr", "mrr", values=_values(
        query=sc.LAWYER.text, k=k, n_relevant=n_relevant,
        found=int(metrics.relevant_in_top_k(metrics.from_rankings([grades]), k)[0]),
        answer=fmt(metrics.recall_at_k(grades, k, n_relevant)), precision=fmt(metrics.precision_at_k(grades, k))))


def _warm_up_on_mrr() -> WarmUp:
    """Opens nDCG: the JAR scenario's MRR (hits at 1, 2 and 5)."""
    qs = _jar_set()
    rr = metrics.reciprocal_rank(qs)
    return WarmUp("warmup.ndcg", "ndcg", values=_values(
        target=sc.JAR_TARGET, positions=_join(int(p) for p in metrics.first_hit_rank(qs)),
        rrs=_join(fmt(r) for r in rr), total=fmt(float(rr.sum())), n=qs.n_queries, answer=fmt(float(rr.mean()))))


def _dcg_terms(grades: np.ndarray, k: int, gain: metrics.Gain = "exponential") -> str:
    """'3/1.000 + 0/1.585 + ...': each top-k gain over its log2(i + 1), from the engine's pieces."""
    top = np.asarray(grades)[:k]
    gains = metrics.gain_values(top, gain)
    logs = 1 / metrics.discounts(np.arange(1, top.size + 1))
    return " + ".join(f"{g:g}/{d:.3f}" for g, d in zip(gains, logs))


def _ndcg_questions() -> list[Question]:
    q, k = sc.FRAMEWORKS, sc.FRAMEWORKS_K
    order_b = q.presets["System B"]
    grades_b = q.grades(order_b)
    judged = q.judged_grades()
    ideal = np.sort(judged)[::-1]
    dcg_b = metrics.dcg_at_k(grades_b, k)
    idcg = metrics.idcg_at_k(judged, k)
    ndcg_b = metrics.ndcg_at_k(grades_b, k, judged)
    top_titles = _join(q.by_id[i].title for i in order_b[:k])
    ndcg = NumericQuestion(
        "ndcg.system_b_ndcg_at_3", "ndcg", ndcg_b,
        traps=(Trap("share relevant", metrics.precision_at_k(grades_b, k)), Trap("not normalised", dcg_b)),
        values=_values(k=k, query=q.text, top=top_titles, top_grades=_join(grades_b[:k]),
                       dcg_terms=_dcg_terms(grades_b, k), dcg=fmt(dcg_b),
                       idcg_terms=_dcg_terms(ideal, k), idcg=fmt(idcg), answer=fmt(ndcg_b), ideal_top=_join(ideal[:k]),
                       share=fmt(metrics.precision_at_k(grades_b, k))),
    )
    linear = metrics.dcg_at_k(grades_b, k, "linear")
    undiscounted = float(metrics.gain_values(grades_b[:k]).sum())
    dcg = NumericQuestion(
        "ndcg.system_b_dcg_at_3", "ndcg", dcg_b, scale="dcg",
        traps=(Trap("linear gain", linear), Trap("no discount", undiscounted)),
        values=_values(k=k, query=q.text, top=top_titles, top_grades=_join(grades_b[:k]),
                       dcg_terms=_dcg_terms(grades_b, k), answer=fmt(dcg_b),
                       linear_terms=_dcg_terms(grades_b, k, "linear"), linear=fmt(linear)),
    )
    start = q.presets["Mixed grades"]
    ordering = OrderingQuestion("ndcg.best_order", "ndcg", q, start, k)
    ordering = OrderingQuestion(
        ordering.id, ordering.lesson, q, start, k,
        values=_values(k=k, query=q.text, size=len(start), best=fmt(ordering.best),
                       ideal=_join(q.by_id[i].title for i in ordering.ideal_order()[:k]),
                       start_ndcg=fmt(ordering.ndcg(start))),
    )
    return [_warm_up_on_mrr(), ndcg, dcg, ordering, _best_swap_question(), _gains_agree_question()]


# --- "which single swap raises nDCG@k the most?" ------------------------------

def swapped(order: Sequence[str], i: int, j: int) -> tuple[str, ...]:
    """``order`` with the documents at positions i and j (1-based) exchanged.

    Examples
    --------
    >>> swapped(("a", "b", "c", "d"), 1, 3)
    ('c', 'b', 'a', 'd')
    """
    out = list(order)
    out[i - 1], out[j - 1] = out[j - 1], out[i - 1]
    return tuple(out)


def swap_outcomes(query: sc.Query, order: Sequence[str], k: int,
                  gain: metrics.Gain = "exponential") -> dict[tuple[int, int], float]:
    """nDCG@k after every single swap (i, j), i < j, that touches the top k, computed by the engine.

    A swap of two positions both below k cannot change nDCG@k, so it is left out.
    """
    judged = query.judged_grades()
    return {(i, j): metrics.ndcg_at_k(query.grades(swapped(order, i, j)), k, judged, gain)
            for i in range(1, min(k, len(order)) + 1) for j in range(i + 1, len(order) + 1)}


def best_swap_options(query: sc.Query, order: Sequence[str], k: int,
                      gain: metrics.Gain = "exponential") -> tuple[tuple[int, int], ...]:
    """Four swaps to choose from, in position order, each a different idea:

    - the best single swap of all (the first in position order among equals);
    - the best reshuffle inside the top k (both positions within k);
    - the best swap that brings a page from below the cut into position k;
    - a swap that leaves nDCG@k unchanged (two pages of the same grade).

    Raises ValueError unless these are four different swaps with clearly
    different results, the best of them strictly ahead.
    """
    outcomes = swap_outcomes(query, order, k, gain)
    base = metrics.ndcg_at_k(query.grades(order), k, query.judged_grades(), gain)
    ranked = sorted(outcomes)  # position order, so max() keeps the first among equals

    def best_of(swaps):
        swaps = list(swaps)
        return max(swaps, key=outcomes.get) if swaps else None

    picks = [
        best_of(ranked),
        best_of(s for s in ranked if s[1] <= k and not within(outcomes[s], base)),
        best_of(s for s in ranked if s[0] == k < s[1]),
        next((s for s in ranked if abs(outcomes[s] - base) < 1e-12), None),
    ]
    options = tuple(sorted(set(p for p in picks if p is not None)))
    values = sorted(outcomes[s] for s in options)
    if len(options) != 4 or any(within(a, b) for a, b in zip(values, values[1:])):
        raise ValueError(f"the order {order} does not give four swaps with distinct nDCG@{k}")
    return options


def _best_swap_question() -> ChoiceQuestion:
    q, k = sc.FRAMEWORKS, sc.FRAMEWORKS_K
    start = q.presets["Mixed grades"]
    judged = q.judged_grades()
    by_id = q.by_id
    outcomes = swap_outcomes(q, start, k)
    options = best_swap_options(q, start, k)
    letters = tuple("abcd")
    start_ndcg = metrics.ndcg_at_k(q.grades(start), k, judged)
    best_value = max(outcomes[s] for s in options)
    correct = frozenset(letter for letter, s in zip(letters, options) if outcomes[s] == best_value)
    values: dict = dict(
        k=k, query=q.text, start_ndcg=fmt(start_ndcg), best_ndcg=fmt(best_value),
        start_list="\n".join(f"{n}. {by_id[i].title} (grade {by_id[i].grade})" for n, i in enumerate(start, 1)),
    )
    for letter, (i, j) in zip(letters, options):
        after = swapped(start, i, j)
        value = outcomes[(i, j)]
        values.update({
            f"{letter}_i": i, f"{letter}_j": j,
            f"{letter}_first": by_id[start[i - 1]].title, f"{letter}_second": by_id[start[j - 1]].title,
            f"{letter}_top": _join(by_id[d].title for d in after[:k]),
            f"{letter}_grades": _join(q.grades(after[:k])),
            f"{letter}_ndcg": fmt(value), f"{letter}_change": f"{value - start_ndcg:+.3f}",
        })
    (best_letter,) = correct
    bi, bj = options[letters.index(best_letter)]
    values.update(best_first=values[f"{best_letter}_first"], best_second=values[f"{best_letter}_second"],
                  best_i=bi, best_j=bj, best_in_grade=by_id[start[bj - 1]].grade,
                  best_out_grade=by_id[start[bi - 1]].grade)
    return ChoiceQuestion("ndcg.best_swap", "ndcg", letters, correct, values=_values(**values))


def _gains_agree_question() -> ChoiceQuestion:
    q, k = sc.FRAMEWORKS, sc.FRAMEWORKS_K
    judged = q.judged_grades()
    b, mixed = q.grades(q.presets["System B"]), q.grades(q.presets["Mixed grades"])

    def both(grades, cutoff):
        return [fmt(metrics.ndcg_at_k(grades, cutoff, judged, g)) for g in ("exponential", "linear")]

    b_exp, b_lin = both(b, k)
    mixed_exp, mixed_lin = both(mixed, k)
    mixed_exp_1, mixed_lin_1 = both(mixed, 1)
    exp_1, exp_2 = (f"{g:g}" for g in metrics.gain_values([1, 2], "exponential"))
    lin_1, lin_2 = (f"{g:g}" for g in metrics.gain_values([1, 2], "linear"))
    return ChoiceQuestion(
        "ndcg.gains_agree", "ndcg", ("a", "b", "c", "d"), frozenset({"b"}),
        values=_values(k=k, b_exp=b_exp, b_lin=b_lin, b_grades=_join(b[:k]),
                       ideal_grades=_join(np.sort(judged)[::-1][:k]),
                       mixed_exp=mixed_exp, mixed_lin=mixed_lin, mixed_grades=_join(mixed[:k]),
                       mixed_exp_1=mixed_exp_1, mixed_lin_1=mixed_lin_1,
                       exp_1=exp_1, exp_2=exp_2, lin_1=lin_1, lin_2=lin_2),
    )


def _warm_up_on_ndcg() -> WarmUp:
    """Opens the four-query lesson: System B's nDCG@3, and why it is below 1."""
    q, k = sc.FRAMEWORKS, sc.FRAMEWORKS_K
    order = q.presets["System B"]
    grades, judged = q.grades(order), q.judged_grades()
    top_grade = int(judged.max())
    return WarmUp("warmup.four_queries", "four_queries", values=_values(
        query=q.text, k=k, top=_join(q.by_id[i].title for i in order[:k]), top_grades=_join(grades[:k]),
        dcg=fmt(metrics.dcg_at_k(grades, k)), idcg=fmt(metrics.idcg_at_k(judged, k)),
        answer=fmt(metrics.ndcg_at_k(grades, k, judged)),
        wasted=_join(q.by_id[i].title for i in order[:k] if q.by_id[i].grade <= 0),
        left_out=_join(q.by_id[i].title for i in order[k:] if q.by_id[i].grade == top_grade),
        top_grade=top_grade))


def _four_query_questions() -> list[Question]:
    qs = sc.four_query_set()
    k = 3
    hits = int(np.count_nonzero(metrics.success(qs, k)))
    recall_at_3 = NumericQuestion(
        "four_queries.recall_at_3", "four_queries", float(metrics.recall(qs, k).mean()),
        traps=(Trap("strictly above", float(metrics.recall(qs, k - 1).mean())),),
        values=_values(ranks=_join(sc.FOUR_QUERY_HIT_RANKS), k=k, hits=hits, n=qs.n_queries,
                       answer=fmt(float(metrics.recall(qs, k).mean()))),
    )
    k_budget = 5
    at_top = metrics.reciprocal_rank_of([1])
    at_k = metrics.reciprocal_rank_of([0] * (k_budget - 1) + [1])
    return [
        _warm_up_on_ndcg(),
        recall_at_3,
        ChoiceQuestion("four_queries.recall_blind_to_position", "four_queries", ("a", "b", "c", "d"),
                       frozenset({"a"}), values=_values(k=k_budget)),
        ChoiceQuestion("four_queries.mrr_sees_position", "four_queries", ("a", "b", "c", "d"),
                       frozenset({"b"}), values=_values(k=k_budget, rr_top=fmt(at_top), rr_k=fmt(at_k))),
        ChoiceQuestion("four_queries.headline_k", "four_queries", ("a", "b", "c", "d"), frozenset({"c"})),
        ChoiceQuestion("four_queries.recall_and_mrr", "four_queries", ("a", "b", "c", "d"), frozenset({"b"}),
                       values=_values(r1=fmt(float(metrics.recall(qs, 1).mean())), k=k,
                                      rk=fmt(float(metrics.recall(qs, k).mean())),
                                      rr_first=fmt(metrics.reciprocal_rank_of([1])),
                                      rr_k=fmt(metrics.reciprocal_rank_of([0] * (k - 1) + [1])))),
    ]


def _warm_up_on_four_queries() -> WarmUp:
    """Opens "Choosing a metric": recall@3 and MRR for hits at ranks 1, 3, 1 and 8."""
    qs = sc.four_query_set()
    k = 3
    rr = metrics.reciprocal_rank(qs)
    return WarmUp("warmup.choosing", "choosing", values=_values(
        ranks=_join(sc.FOUR_QUERY_HIT_RANKS), k=k, n=qs.n_queries,
        hits=int(np.count_nonzero(metrics.success(qs, k))), recall=fmt(float(metrics.recall(qs, k).mean())),
        rrs=_join(fmt(r) for r in rr), mrr=fmt(float(rr.mean()))))


def _choosing_questions() -> list[Question]:
    return [
        _warm_up_on_four_queries(),
        ChoiceQuestion("choosing.headline_metric", "choosing", ("a", "b", "c", "d"), frozenset({"d"})),
        ChoiceQuestion("choosing.diagnosis", "choosing", ("a", "b", "c", "d"), frozenset({"a", "d"})),
    ]


def _warm_ups() -> list[Question]:
    """The warm-ups carried over from earlier topics (no lesson of this course opens with them)."""
    return [WarmUp("warmup.reranking_cost"), WarmUp("warmup.rrf_constant")]


def _build() -> tuple[Question, ...]:
    questions = (_accuracy_questions() + _recall_questions() + _mrr_questions() + _ndcg_questions()
                 + _four_query_questions() + _choosing_questions() + _warm_ups())
    ids = [q.id for q in questions]
    if len(set(ids)) != len(ids):
        raise ValueError("question ids must be unique")
    return tuple(questions)


QUESTIONS: tuple[Question, ...] = _build()
BY_ID: Mapping[str, Question] = MappingProxyType({q.id: q for q in QUESTIONS})
WARM_UPS: tuple[WarmUp, ...] = tuple(q for q in QUESTIONS if isinstance(q, WarmUp))
# Warm-ups carried over from earlier topics (not opening any lesson of this course).
EARLIER_WARM_UPS: tuple[WarmUp, ...] = tuple(q for q in WARM_UPS if q.lesson is None)


def question(question_id: str) -> Question:
    """The question with this id; a KeyError names the known ids."""
    try:
        return BY_ID[question_id]
    except KeyError:
        raise KeyError(f"no question {question_id!r}; known: {sorted(BY_ID)}") from None


def questions_for(lesson: str) -> tuple[Question, ...]:
    """The questions of one lesson, in bank order."""
    if lesson not in LESSONS:
        raise ValueError(f"lesson must be one of {LESSONS}, got {lesson!r}")
    return tuple(q for q in QUESTIONS if q.lesson == lesson)


def warm_up_for(lesson: str) -> WarmUp | None:
    """The warm-up that opens a lesson (a question on the lesson before), or None for the first lesson."""
    return next((q for q in questions_for(lesson) if isinstance(q, WarmUp)), None)


def counted_ids() -> frozenset[str]:
    """Ids of the questions that count towards progress (graded, belonging to a lesson)."""
    return frozenset(q.id for q in QUESTIONS if q.lesson in LESSONS and is_graded(q))


def progress(solved: Iterable[str]) -> dict[str, tuple[int, int]]:
    """Per lesson: (solved, total) over the counted questions; unknown ids are ignored."""
    solved = set(solved) & counted_ids()
    result = {}
    for lesson in LESSONS:
        ids = [q.id for q in questions_for(lesson) if is_graded(q)]
        result[lesson] = (sum(i in solved for i in ids), len(ids))
    return result


def clean_solved(raw) -> frozenset[str]:
    """Known counted ids from untrusted stored data (a list of strings); anything else is dropped."""
    if not isinstance(raw, (list, tuple, set, frozenset)):
        return frozenset()
    known = counted_ids()
    return frozenset(i for i in raw if isinstance(i, str) and i in known)


# ----------------------------------------------------------------------------
# Generated exercises
# ----------------------------------------------------------------------------

GENERATED_METRICS: tuple[str, ...] = ("recall", "hit_rate", "rr", "ndcg")
# The situations a draw sets up, each a known trap for the metric asked.
SCENARIOS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "recall": ("hit_at_k", "more_relevant_than_k", "no_relevant", "judged_not_returned"),
    "hit_rate": ("hit_at_k", "more_relevant_than_k", "judged_not_returned"),
    "rr": ("grade1_above_grade2", "several_relevant", "no_relevant"),
    "ndcg": ("grade1_above_grade2", "judged_not_returned", "no_relevant", "more_relevant_than_k"),
})
# Which solution template a generated exercise may use.
SOLUTION_PARTS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "recall": ("solution", "solution no relevant"),
    "hit_rate": ("solution hit", "solution miss", "solution no hit"),
    "rr": ("solution", "solution no relevant"),
    "ndcg": ("solution", "solution no relevant"),
})
# The traps each metric's feedback sections cover.
GENERATED_TRAPS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "recall": ("cutoff exclusive", "divided by k", "returned only", "nothing to find"),
    "hit_rate": ("cutoff exclusive", "recall instead"),
    "rr": ("first top grade", "mean over hits"),
    "ndcg": ("linear gain", "not normalised", "ideal from returned", "ideal beyond k", "nothing to find"),
})
# A query with nothing relevant is worth meeting, but not every fourth time.
RARE_SCENARIOS = frozenset({"no_relevant"})
RARE_SCENARIO_WEIGHT = 0.4
DEFAULT_SEED = 11  # a Recall@k draw with more relevant items than k


@dataclass(frozen=True)
class GeneratedExercise(NumericQuestion):
    """A numeric question drawn from a seed: one ranking, one metric, one trap set up.

    ``grades``: the returned list's grades, top first. ``missing``: grades of
    judged documents the system did not return. ``k`` is None for RR.
    """

    seed: int = 0
    metric: str = "recall"
    scenario: str = ""
    k: int | None = None
    grades: tuple[int, ...] = ()
    missing: tuple[int, ...] = ()

    @property
    def judged(self) -> np.ndarray:
        return np.array(self.grades + self.missing, dtype=np.int64)

    @property
    def graded(self) -> bool:
        """Whether grades above 1 occur (the table then shows grades, not just relevant or not)."""
        return max(self.grades + self.missing, default=0) > 1


def engine_value(exercise: GeneratedExercise) -> float:
    """The metric the exercise asks for, straight from the engine (what the property test compares)."""
    grades = np.array(exercise.grades, dtype=np.int64)
    if exercise.metric == "recall":
        return metrics.recall_at_k(grades, exercise.k, int(np.count_nonzero(exercise.judged >= 1)))
    if exercise.metric == "hit_rate":
        return metrics.success_at_k(grades, exercise.k)
    if exercise.metric == "rr":
        return metrics.reciprocal_rank_of(grades)
    return metrics.ndcg_at_k(grades, exercise.k, exercise.judged)


def _relevant_grade(rng: np.random.Generator, graded: bool) -> int:
    return int(rng.integers(1, 3)) if graded else 1


def _draw(rng: np.random.Generator, metric: str, scenario: str) -> tuple[np.ndarray, list[int], int]:
    """A returned list (grades, top first), the grades judged but not returned, and k."""
    n = int(rng.integers(6, 11))
    k = int(rng.integers(2, 6))
    graded = metric == "ndcg" or scenario == "grade1_above_grade2"

    def fill(p: float) -> np.ndarray:
        rel = rng.random(n) < p
        return np.array([_relevant_grade(rng, graded) if r else 0 for r in rel], dtype=np.int64)

    missing: list[int] = []
    if scenario == "hit_at_k":
        grades = fill(0.25)
        if metric == "hit_rate":
            grades[:k - 1] = 0
        grades[k - 1] = _relevant_grade(rng, graded)
        if rng.random() < 0.4:
            missing = [_relevant_grade(rng, graded)]
    elif scenario == "more_relevant_than_k":
        grades = np.zeros(n, dtype=np.int64)
        total = k + int(rng.integers(1, 4))
        on_top = int(rng.integers(1, k + 1))
        below = min(int(rng.integers(0, total - on_top + 1)), n - k)
        for pos in rng.choice(k, size=on_top, replace=False):
            grades[pos] = _relevant_grade(rng, graded)
        for pos in k + rng.choice(n - k, size=below, replace=False):
            grades[pos] = _relevant_grade(rng, graded)
        missing = [_relevant_grade(rng, graded) for _ in range(total - on_top - below)]
    elif scenario == "no_relevant":
        grades = np.zeros(n, dtype=np.int64)
    elif scenario == "grade1_above_grade2":
        grades = fill(0.2)
        if metric == "rr":
            first = int(rng.integers(1, 4))
            second = int(rng.integers(first + 1, n + 1))
        else:
            first = int(rng.integers(1, k))
            second = int(rng.integers(first + 1, k + 1))
        grades[:first - 1] = 0
        grades[first - 1], grades[second - 1] = 1, 2
        if metric == "rr":
            grades[first:second - 1] = np.minimum(grades[first:second - 1], 1)
        if metric == "ndcg" and rng.random() < 0.3:
            missing = [_relevant_grade(rng, graded)]
    elif scenario == "judged_not_returned":
        grades = fill(0.3)
        if metric != "hit_rate" and not np.any(grades[:k] >= 1):
            grades[int(rng.integers(0, k))] = _relevant_grade(rng, graded)
        missing = [2 if metric == "ndcg" else _relevant_grade(rng, graded) for _ in range(int(rng.integers(1, 3)))]
    elif scenario == "several_relevant":
        grades = np.zeros(n, dtype=np.int64)
        first = int(rng.integers(1, 4))
        grades[first - 1] = 1
        later = rng.choice(np.arange(first, n), size=int(rng.integers(1, 4)), replace=False)
        grades[later] = 1
    else:
        raise ValueError(f"unknown scenario {scenario!r}")
    return grades, missing, k


def _trap_values(metric: str, grades: np.ndarray, missing: list[int], k: int) -> list[Trap]:
    """Every trap of the metric that applies to this draw, computed by the engine."""
    judged = np.r_[grades, np.array(missing, dtype=np.int64)]
    n_relevant = int(np.count_nonzero(judged >= 1))
    traps: list[Trap] = []
    if metric == "recall":
        if n_relevant == 0:
            traps.append(Trap("nothing to find", 1.0))
        else:
            traps.append(Trap("cutoff exclusive", metrics.recall_at_k(grades, k - 1, n_relevant)))
            traps.append(Trap("divided by k", metrics.precision_at_k(grades, k)))
            traps.append(Trap("returned only", metrics.recall_at_k(grades, k)))
    elif metric == "hit_rate":
        traps.append(Trap("cutoff exclusive", metrics.success_at_k(grades, k - 1)))
        if n_relevant:
            traps.append(Trap("recall instead", metrics.recall_at_k(grades, k, n_relevant)))
    elif metric == "rr":
        relevant_ranks = np.flatnonzero(grades >= 1) + 1
        if relevant_ranks.size:
            # RR of the first item with the list's highest grade, as if only that grade counted
            best_only = np.where(grades == grades.max(), 1, 0)
            traps.append(Trap("first top grade", metrics.reciprocal_rank_of(best_only)))
            traps.append(Trap("mean over hits", float(np.mean(1 / relevant_ranks))))
    else:
        if n_relevant == 0:
            traps.append(Trap("nothing to find", 1.0))
        else:
            traps.append(Trap("linear gain", metrics.ndcg_at_k(grades, k, judged, "linear")))
            traps.append(Trap("ideal from returned", metrics.ndcg_at_k(grades, k)))
            all_ideal = metrics.idcg_at_k(judged, judged.size)
            traps.append(Trap("ideal beyond k", metrics.dcg_at_k(grades, k) / all_ideal))
            traps.append(Trap("not normalised", metrics.dcg_at_k(grades, k)))
    return traps


def _distinct(traps: list[Trap], answer: float) -> tuple[Trap, ...]:
    """Traps that differ from the answer and from each other (the first of two equal ones is kept)."""
    kept: list[Trap] = []
    for trap in traps:
        if not math.isfinite(trap.value) or within(trap.value, answer):
            continue
        if any(within(trap.value, other.value) for other in kept):
            continue
        kept.append(trap)
    return tuple(kept)


def _solution(metric: str, grades: np.ndarray, judged: np.ndarray, k: int, answer: float) -> tuple[str, dict]:
    """The solution template's part and its values, all from the engine."""
    relevant_pos = np.flatnonzero(grades >= 1) + 1
    n_relevant = int(np.count_nonzero(judged >= 1))
    returned_relevant = int(relevant_pos.size)
    values: dict = {"answer": fmt(answer)}
    if metric == "recall":
        if n_relevant == 0:
            return "solution no relevant", values
        in_top = relevant_pos[relevant_pos <= k]
        found = int(metrics.relevant_in_top_k(metrics.from_rankings([grades]), k)[0])
        values.update(k=k, positions=_join(in_top) if in_top.size else "–", found=found, n_relevant=n_relevant,
                      returned_relevant=returned_relevant, missing_relevant=n_relevant - returned_relevant)
        return "solution", values
    if metric == "hit_rate":
        first = metrics.first_hit_rank(metrics.from_rankings([grades]))[0]
        values.update(k=k)
        if not math.isfinite(first):
            return "solution no hit", values
        values.update(first=int(first))
        return ("solution hit" if first <= k else "solution miss"), values
    if metric == "rr":
        first = metrics.first_hit_rank(metrics.from_rankings([grades]))[0]
        if not math.isfinite(first):
            return "solution no relevant", values
        values.update(first=int(first), grade=int(grades[int(first) - 1]))
        return "solution", values
    if n_relevant == 0:
        values.update(k=k)
        return "solution no relevant", values
    ideal = np.sort(judged)[::-1]
    values.update(k=k, dcg_terms=_dcg_terms(grades, k), dcg=fmt(metrics.dcg_at_k(grades, k)),
                  ideal_grades=_join(ideal[:k]), idcg_terms=_dcg_terms(ideal, k),
                  idcg=fmt(metrics.idcg_at_k(judged, k)))
    return "solution", values


def generate_exercise(seed: int) -> GeneratedExercise:
    """A random exercise from an integer seed (0 to 2^32 − 1); the same seed gives the same exercise.

    The metric and the trap situation are drawn first, then a ranking that
    sets up that situation; the answer, the trap values and the worked
    solution's numbers all come from the engine.

    Examples
    --------
    >>> generate_exercise(3) == generate_exercise(3)
    True
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= 2**32 - 1:
        raise ValueError(f"seed must be a whole number from 0 to 2^32 − 1, got {seed!r}")
    rng = np.random.default_rng(int(seed))
    metric = GENERATED_METRICS[int(rng.integers(len(GENERATED_METRICS)))]
    options = SCENARIOS[metric]
    weights = np.array([RARE_SCENARIO_WEIGHT if o in RARE_SCENARIOS else 1.0 for o in options])
    scenario = options[int(rng.choice(len(options), p=weights / weights.sum()))]
    grades, missing, k = _draw(rng, metric, scenario)
    draft = GeneratedExercise(f"generated.{metric}", None, 0.0, seed=int(seed), metric=metric, scenario=scenario,
                              k=None if metric == "rr" else k, grades=tuple(int(g) for g in grades),
                              missing=tuple(int(g) for g in missing))
    answer = engine_value(draft)
    traps = _distinct(_trap_values(metric, grades, missing, k), answer)
    part, values = _solution(metric, grades, draft.judged, k, answer)
    missing_relevant = [g for g in missing if g >= 1]
    values.update(k=k, length=len(grades), seed=int(seed), missing_count=len(missing_relevant),
                  missing_grades=_join(missing_relevant))
    return GeneratedExercise(
        draft.id, None, answer, traps=traps, values=_values(**values), solution_part=part,
        seed=draft.seed, metric=metric, scenario=scenario, k=draft.k, grades=draft.grades, missing=draft.missing)


# ----------------------------------------------------------------------------
# Which prose each question needs
# ----------------------------------------------------------------------------

def required_texts(q: Question) -> tuple[str, ...]:
    """The questions.md sections a question needs (a generated exercise: every variant of its metric)."""
    hints = tuple(f"{q.id} hint {i}" for i in range(1, N_HINTS + 1))
    if isinstance(q, WarmUp):
        return (f"{q.id} prompt", f"{q.id} answer")
    if isinstance(q, GeneratedExercise):
        return ((f"{q.id} prompt",) + hints + tuple(f"{q.id} {part}" for part in SOLUTION_PARTS[q.metric])
                + tuple(f"{q.id} trap {name}" for name in GENERATED_TRAPS[q.metric]))
    if isinstance(q, NumericQuestion):
        return (f"{q.id} prompt",) + hints + (f"{q.id} solution",) + tuple(f"{q.id} trap {t.name}" for t in q.traps)
    if isinstance(q, ChoiceQuestion):
        return ((f"{q.id} prompt",) + hints + (f"{q.id} solution",)
                + tuple(s for o in q.options for s in (f"{q.id} option {o}", f"{q.id} option {o} why")))
    return (f"{q.id} prompt",) + hints + (f"{q.id} solution",)


def all_required_texts() -> frozenset[str]:
    """Every section questions.md must hold: the bank's, the generated exercises' and the shared ones."""
    needed = set(SHARED_TEXTS)
    for q in QUESTIONS:
        needed.update(required_texts(q))
    for metric in GENERATED_METRICS:
        probe = GeneratedExercise(f"generated.{metric}", None, 0.0, metric=metric)
        needed.update(required_texts(probe))
    return frozenset(needed)
