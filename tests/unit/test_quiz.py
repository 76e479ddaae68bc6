"""The question engine: parsing, checking, traps, ordering, generated exercises, and their prose."""
import functools
import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from components.course import prose, quiz
from components.course import scenarios as sc
from components.course.quiz import bank, generated
from components.engine import conventions, fusion, metrics
from components.engine.formatting import fmt
from components.ui import quiz_ui

NUMERIC = [q for q in quiz.QUESTIONS if isinstance(q, quiz.NumericQuestion)]
CHOICE = [q for q in quiz.QUESTIONS if isinstance(q, quiz.ChoiceQuestion)]
ORDERING = quiz.question("ndcg.best_order")
CODES = st.tuples(st.sampled_from(generated.SEED_LETTERS),
                  *[st.sampled_from(generated.SEED_ALPHABET)] * (generated.SEED_LENGTH - 1)).map("".join)
OLD_SEEDS = st.integers(min_value=0, max_value=2**32 - 1).map(str)  # the whole numbers of links made before codes
ANY_SEED = CODES | OLD_SEEDS


# --- parsing -----------------------------------------------------------------

@pytest.mark.parametrize("text, value", [
    ("0.75", 0.75), ("+0.75", 0.75), (".75", 0.75), ("75.", 75.0), ("-0.5", -0.5), ("1", 1.0),
    ("0,75", 0.75), (",5", 0.5),  # decimal comma
    ("3/4", 0.75), ("3 / 4", 0.75), ("1,5/2", 0.75), ("17/30", 17 / 30),  # fractions
    ("75%", 0.75), ("75 %", 0.75), ("12,5%", 0.125), ("3/4%", 0.0075),  # percentages
    ("  0.75  ", 0.75), ("0 . 75", 0.75), ("\u00a00.75\t", 0.75), ("0.7 5", 0.75),  # spaces anywhere
    ("≈ 0.53", 0.53), ("~0.53", 0.53), ("= 3/4", 0.75),  # an "about" sign in front
    ("1e-1", 0.1), ("9" * 60, float("9" * 60)), ("1e308", 1e308),  # big, but finite
])
def test_parse_accepts(text, value):
    parsed = quiz.parse_answer(text)
    assert parsed.error is None
    assert parsed.value == pytest.approx(value, rel=1e-12)


@pytest.mark.parametrize("text", [
    "", "   ", "abc", "zero point five", "nan", "NaN", "inf", "-inf", "infinity",
    "1/0", "0/0", "3/0,0", "1e9999", "1e309", "1e300/1e-300", "9" * 400,  # no value, or not finite, or far too long
    "1,234.5", "1,2,3", "3//4", "1/2/3", "%", "/", "3/", "/4", "75%%", "0x10", "1_000", "٣", "½", "0.7.5",
    "--1", "1-", "e5", "0.75 is my answer",
])
def test_parse_rejects_junk_with_the_message(text):
    parsed = quiz.parse_answer(text)
    assert parsed == quiz.Parsed(None, quiz.FEEDBACK_NOT_A_NUMBER)


@pytest.mark.parametrize("value", [None, 0.75, 3, ["0.75"], b"0.75"])
def test_parse_rejects_non_text(value):
    assert quiz.parse_answer(value).value is None


def test_the_junk_message_names_the_accepted_forms():
    assert "enter a number like 0.75, 3/4 or 75%" in quiz_ui.text(quiz.FEEDBACK_NOT_A_NUMBER)


@given(st.text(max_size=80))
def test_parsing_and_checking_never_raise(text):
    parsed = quiz.parse_answer(text)
    assert (parsed.value is None) != (parsed.error is None)
    if parsed.value is not None:
        assert math.isfinite(parsed.value)
    for question in NUMERIC:
        assert quiz.check_numeric(question, text).status in ("correct", "trap", "wrong", "invalid")


# --- tolerance ---------------------------------------------------------------

@pytest.mark.parametrize("value, ok", [
    (0.75, True), (0.755, True), (0.745, True),  # the edges are inside
    (0.7551, False), (0.7449, False), (0.76, False),
])
def test_unit_tolerance_edges(value, ok):
    assert quiz.within(value, 0.75) is ok


def test_dcg_tolerance_is_half_a_percent_of_the_value():
    answer = quiz.question("ndcg.system_b_dcg_at_3").answer
    assert quiz.within(answer * 1.005, answer, "relative") and quiz.within(answer * 0.995, answer, "relative")
    assert not quiz.within(answer * 1.0051, answer, "relative") and not quiz.within(answer * 0.9949, answer, "relative")


def test_numeric_answers_at_the_edge_of_tolerance():
    q = quiz.question("four_queries.recall_at_3")
    assert quiz.check_numeric(q, "0.755").correct
    assert quiz.check_numeric(q, "0.745").correct
    assert quiz.check_numeric(q, "0.756").status == "wrong"
    dcg = quiz.question("ndcg.system_b_dcg_at_3")
    assert quiz.check_numeric(dcg, "3.393").correct
    assert quiz.check_numeric(dcg, "3.409").correct  # 0.5% of 3.393 is about 0.017
    assert quiz.check_numeric(dcg, "3.411").status == "wrong"


# --- the brief's questions, answers and traps --------------------------------

def test_answers_match_the_brief_arithmetic():
    answers = {q.id: q.answer for q in NUMERIC}
    assert answers["four_queries.recall_at_3"] == pytest.approx(3 / 4)  # ranks 1, 3, 1 are <= 3; 8 is not
    assert answers["recall.lawyer_a_recall_at_5"] == pytest.approx(4 / 10)  # 4 relevant in the top 5, 10 judged
    assert answers["mrr.jar_mrr"] == pytest.approx((1 / 1 + 1 / 2 + 1 / 5) / 3)  # positions 1, 2, 5
    log3 = math.log2(3)
    assert answers["ndcg.system_b_ndcg_at_3"] == pytest.approx((3 / log3 + 3 / 2) / (3 + 3 / log3 + 3 / 2))
    assert answers["ndcg.system_b_dcg_at_3"] == pytest.approx(3 / log3 + 3 / 2)  # grades 0, 2, 2
    assert answers["accuracy.top10_recall"] == pytest.approx(5 / 50)
    assert answers["mrr.jar_mrr_at_3"] == pytest.approx((1 + 1 / 2 + 0) / 3)  # position 5 is below the cut
    assert answers["recall.mean_recall_vs_hit_rate"] == pytest.approx((1 / 1 + 1 / 3 + 2 / 10) / 3)


def test_answers_come_from_the_engine():
    qs = sc.four_query_set()
    assert quiz.question("four_queries.recall_at_3").answer == metrics.recall(qs, 3).mean()
    lawyer = sc.LAWYER.grades(sc.LAWYER.presets["System A"])
    assert quiz.question("recall.lawyer_a_recall_at_5").answer == metrics.recall_at_k(lawyer, 5, sc.LAWYER.n_relevant())
    jar = [q.grades(q.presets["Default"]) for q in sc.JAR_QUERIES]
    assert quiz.question("mrr.jar_mrr").answer == pytest.approx(metrics.mean_reciprocal_rank(jar))
    b = sc.FRAMEWORKS.grades(sc.FRAMEWORKS.presets["System B"])
    assert quiz.question("ndcg.system_b_ndcg_at_3").answer == metrics.ndcg_at_k(b, 3, sc.FRAMEWORKS.judged_grades())


@pytest.mark.parametrize("question_id, typed", [
    ("four_queries.recall_at_3", "0.75"), ("four_queries.recall_at_3", "3/4"), ("four_queries.recall_at_3", "75%"),
    ("four_queries.recall_at_3", "0,75"), ("four_queries.recall_at_3", "75 %"),
    ("recall.lawyer_a_recall_at_5", "0.4"), ("recall.lawyer_a_recall_at_5", "4/10"),
    ("mrr.jar_mrr", "0.567"), ("mrr.jar_mrr", "17/30"), ("mrr.jar_mrr", "56.7%"),
    ("ndcg.system_b_ndcg_at_3", "0.531"), ("ndcg.system_b_ndcg_at_3", "0.53"),
    ("ndcg.system_b_dcg_at_3", "3.393"), ("ndcg.system_b_dcg_at_3", "3.39"),
])
def test_the_brief_answers_are_accepted(question_id, typed):
    assert quiz.check_numeric(quiz.question(question_id), typed).correct


@pytest.mark.parametrize("question_id, typed, trap", [
    ("four_queries.recall_at_3", "0.5", "strictly above"),  # counted ranks < 3 only
    ("recall.lawyer_a_recall_at_5", "0.8", "precision"),  # 4/5 is precision
    ("mrr.jar_mrr", "1.7", "sum"),  # summed, not divided
    ("mrr.jar_mrr", "0.375", "mean rank"),  # 1 / mean rank 2.67
    ("ndcg.system_b_ndcg_at_3", "0.667", "share relevant"),  # 2 of the top 3 relevant
])
def test_the_brief_traps_get_their_feedback(question_id, typed, trap):
    outcome = quiz.check_numeric(quiz.question(question_id), typed)
    assert outcome.status == "trap"
    assert outcome.feedback == f"{question_id} trap {trap}"


@pytest.mark.parametrize("question, trap", [(q, t) for q in NUMERIC for t in q.traps],
                         ids=lambda x: getattr(x, "id", None) or getattr(x, "name", None))
def test_every_trap_is_recognised(question, trap):
    outcome = quiz.check_numeric(question, repr(trap.value))
    assert (outcome.status, outcome.feedback) == ("trap", f"{question.id} trap {trap.name}")


def test_trap_values_that_are_natural_come_from_the_engine():
    lawyer = sc.LAWYER.grades(sc.LAWYER.presets["System A"])
    traps = {t.name: t.value for t in quiz.question("recall.lawyer_a_recall_at_5").traps}
    assert traps["precision"] == metrics.precision_at_k(lawyer, 5) == pytest.approx(4 / 5)


@pytest.mark.parametrize("question", NUMERIC, ids=lambda q: q.id)
def test_every_answer_is_accepted_as_displayed_and_no_trap_shadows_it(question):
    assert quiz.check_numeric(question, fmt(question.answer)).correct
    for trap in question.traps:
        assert not quiz.within(trap.value, question.answer, question.scale)


def test_other_wrong_answers_get_generic_feedback():
    q = quiz.question("four_queries.recall_at_3")
    assert quiz.check_numeric(q, "0.9") == quiz.Outcome("wrong", quiz.FEEDBACK_WRONG)
    assert quiz.check_numeric(q, "1e300").feedback == quiz.FEEDBACK_WRONG
    assert quiz.check_numeric(q, "abc").status == "invalid"


def test_a_percentage_without_its_sign_gets_a_nudge():
    outcome = quiz.check_numeric(quiz.question("four_queries.recall_at_3"), "75")
    assert (outcome.status, outcome.feedback, outcome.values["typed"]) == ("wrong", quiz.FEEDBACK_PERCENT_SIGN, "75")


def test_a_trap_too_close_to_the_answer_is_refused():
    with pytest.raises(ValueError, match="within tolerance"):
        quiz.NumericQuestion("x.y", "recall", 0.5, traps=(quiz.Trap("same", 0.503),))


# --- multiple choice ---------------------------------------------------------

def test_the_brief_multiple_choice_answers():
    assert quiz.question("four_queries.recall_and_mrr").correct == {"b"}  # brief question 5
    assert quiz.question("choosing.diagnosis").correct == {"a", "d"}  # several correct
    assert quiz.question("choosing.diagnosis").multiple


@pytest.mark.parametrize("question", CHOICE, ids=lambda q: q.id)
def test_choice_checking(question):
    assert quiz.check_choice(question, sorted(question.correct)).correct
    assert quiz.check_choice(question, []).status == "invalid"
    assert quiz.check_choice(question, None).status == "invalid"
    assert quiz.check_choice(question, ["z"]).status == "invalid"  # unknown ids are ignored
    wrong = [o for o in question.options if o not in question.correct]
    assert quiz.check_choice(question, wrong[:1]).feedback == quiz.FEEDBACK_CHOICE_WRONG
    assert quiz.check_choice(question, sorted(question.correct) + wrong[:1]).status == "wrong"


def test_a_partial_multiple_choice_answer_is_told_so():
    q = quiz.question("choosing.diagnosis")
    assert quiz.check_choice(q, ["a"]).feedback == quiz.FEEDBACK_CHOICE_PARTIAL


def test_a_choice_question_needs_its_correct_options_among_the_options():
    with pytest.raises(ValueError):
        quiz.ChoiceQuestion("x.y", "recall", ("a", "b"), frozenset({"c"}))


# --- ordering ----------------------------------------------------------------

def _grade(doc_id):
    return sc.FRAMEWORKS.by_id[doc_id].grade


def test_every_optimal_order_is_accepted():
    top = [d.id for d in sc.FRAMEWORKS.docs if d.grade == 2]
    rest = [d.id for d in sc.FRAMEWORKS.docs if d.grade != 2]
    for perm in itertools.permutations(top):
        assert quiz.check_ordering(ORDERING, list(perm) + rest[::-1]).correct
        assert quiz.check_ordering(ORDERING, list(perm)).correct  # the first k are enough
    assert ORDERING.best == pytest.approx(1.0)


@given(st.permutations([d.id for d in sc.FRAMEWORKS.docs]))
def test_ordering_is_checked_by_the_engine(order):
    outcome = quiz.check_ordering(ORDERING, order)
    optimal = metrics.ndcg_at_k(sc.FRAMEWORKS.grades(order), 3, sc.FRAMEWORKS.judged_grades()) >= 1 - 1e-12
    assert outcome.correct is optimal
    assert optimal is all(_grade(i) == 2 for i in order[:3])
    if not optimal:
        assert outcome.status == "trap" and outcome.feedback.startswith("ordering trap ")
        assert outcome.values["ndcg"] == fmt(ORDERING.ndcg(order))


def test_ordering_traps():
    irrelevant_first = ["snake", "django", "flask", "fastapi"]
    assert quiz.check_ordering(ORDERING, irrelevant_first).feedback == "ordering trap irrelevant on top"
    grade_1_in = ["django", "pyramid", "flask", "fastapi"]
    assert quiz.check_ordering(ORDERING, grade_1_in).feedback == "ordering trap lower grade on top"
    deeper = quiz.OrderingQuestion("ndcg.deeper", "ndcg", sc.FRAMEWORKS, ORDERING.start, 5)
    right_set_wrong_order = ["pyramid", "django", "flask", "fastapi", "bottle"]
    assert quiz.check_ordering(deeper, right_set_wrong_order).feedback == "ordering trap order inside top k"
    assert quiz.check_ordering(deeper, ["django", "flask", "fastapi", "bottle", "pyramid"]).correct


@pytest.mark.parametrize("order, feedback", [
    ([], quiz.FEEDBACK_ORDER_TOO_SHORT), (None, quiz.FEEDBACK_ORDER_TOO_SHORT),
    (["django", "flask"], quiz.FEEDBACK_ORDER_TOO_SHORT),
    (["django", "django", "flask"], quiz.FEEDBACK_ORDER_INVALID),
    (["django", "flask", "nope"], quiz.FEEDBACK_ORDER_INVALID),
    (["django", "flask", 3], quiz.FEEDBACK_ORDER_INVALID),
])
def test_ordering_rejects_incomplete_or_odd_orders(order, feedback):
    outcome = quiz.check_ordering(ORDERING, order)
    assert (outcome.status, outcome.feedback) == ("invalid", feedback)


# --- generated exercises -----------------------------------------------------

def _engine(ex):
    """The asked metric, computed here straight from the engine (not through quiz)."""
    grades = np.array(ex.grades)
    judged = np.array(ex.grades + ex.missing)
    if ex.metric == "rrf":  # asked × 1000
        return 1000 * float(fusion.rrf_score(ex.ranks, 60))
    if ex.metric == "mrr":
        return float(np.mean(metrics.reciprocal_rank(metrics.from_rankings(ex.queries))))
    if ex.metric == "recall":
        return metrics.recall_at_k(grades, ex.k, int(np.sum(judged >= 1)))
    if ex.metric == "hit_rate":
        return metrics.success_at_k(grades, ex.k)
    if ex.metric == "rr":
        return metrics.reciprocal_rank_of(grades)
    if ex.metric == "precision":
        return metrics.precision_at_k(grades, ex.k)
    if ex.metric == "ap":
        return float(metrics.average_precision(metrics.from_rankings([grades], [judged]))[0])
    if ex.metric == "ndcg_linear":
        return metrics.ndcg_at_k(grades, ex.k, judged, "linear")
    return metrics.ndcg_at_k(grades, ex.k, judged)


def _codes(n):
    """The first n codes in the alphabet's order."""
    rest = itertools.product(generated.SEED_ALPHABET, repeat=generated.SEED_LENGTH - 1)
    every = ("".join((first, *tail)) for first in generated.SEED_LETTERS for tail in rest)
    return list(itertools.islice(every, n))


@functools.cache
def kind_codes() -> dict[str, list[str]]:
    """The first 1,500 codes by the kind of exercise each makes: made once, when a test first asks (made at import,
    eight times over, it cost every worker 6 s of collection)."""
    by_kind: dict[str, list[str]] = {metric: [] for metric in quiz.GENERATED_METRICS}
    for code in _codes(1500):
        by_kind[quiz.generate_exercise(code).metric].append(code)
    return by_kind


def codes_of(metric: str):
    """A strategy drawing one of :func:`kind_codes`'s codes of this kind."""
    return st.deferred(lambda: st.sampled_from(kind_codes()[metric]))


@given(ANY_SEED)
def test_a_generated_exercise_stores_the_engine_value_and_is_reproducible(seed):
    ex = quiz.generate_exercise(seed)
    assert ex.answer == _engine(ex)
    assert quiz.generate_exercise(seed) == ex
    assert quiz.check_numeric(ex, fmt(ex.answer)).correct
    for trap in ex.traps:
        assert trap.name in quiz.GENERATED_TRAPS[ex.metric]
        assert quiz.check_numeric(ex, repr(trap.value)).feedback == f"{ex.id} trap {trap.name}"


@given(CODES)
def test_a_code_reads_the_same_in_lower_case_and_with_spaces(code):
    assert generated.parse_seed(f" {code.lower()} ") == code
    assert quiz.generate_exercise(code.lower()) == quiz.generate_exercise(code)
    assert quiz.generate_exercise(code).values["seed"] == code


@given(ANY_SEED)
def test_every_text_of_a_generated_exercise_can_be_filled(seed):
    ex = quiz.generate_exercise(seed)
    parts = ["prompt", "hint 1", "hint 2", ex.solution_part] + [f"trap {t.name}" for t in ex.traps]
    for part in parts:
        assert quiz_ui.text(f"{ex.id} {part}", ex.values)
    for note in (quiz.GENERATED_MISSING, quiz.GENERATED_NONE_MISSING, generated.GENERATED_NOTHING_RELEVANT):
        assert quiz_ui.text(note, ex.values)


def _sets_up(ex) -> bool:
    g, k = np.array(ex.grades), ex.k
    judged = np.array(ex.grades + ex.missing)
    lists = [np.array(q) for q in ex.queries]
    if ex.metric == "rrf":
        first, second = ex.ranks
        in_lists = 1 <= first <= 10 and (second is None or 1 <= second <= 10)
        return in_lists and (second is None) == (ex.scenario == "one_list")
    if ex.metric == "mrr":
        firsts = [int(np.flatnonzero(q >= 1)[0]) for q in lists if np.any(q >= 1)]
        if ex.scenario == "query_without_hit":
            return 0 < len(firsts) < len(lists)
        if ex.scenario == "hits_at_various_ranks":
            return len(firsts) == len(lists) and len(set(firsts)) == len(firsts)
        return ex.scenario == "several_relevant" and any(np.sum(q >= 1) >= 2 for q in lists)
    if ex.scenario == "hit_at_k":
        return g[k - 1] >= 1 and (ex.metric != "hit_rate" or not np.any(g[:k - 1] >= 1))
    if ex.scenario == "more_relevant_than_k":
        return np.sum(judged >= 1) > k
    if ex.scenario == "fewer_relevant_than_k":
        return 0 < np.sum(judged >= 1) < k and np.any(g[:k] >= 1)
    if ex.scenario == "short_list":
        return len(g) < k and np.any(g >= 1)
    if ex.scenario == "no_relevant":
        return not np.any(judged >= 1)
    if ex.scenario == "grade1_above_grade2":
        last = k if ex.metric in generated.NDCG_GAINS else len(g)
        ones, twos = np.flatnonzero(g[:last] == 1), np.flatnonzero(g[:last] == 2)
        return ones.size > 0 and twos.size > 0 and ones.min() < twos.min()
    if ex.scenario == "judged_not_returned":
        return any(m >= 1 for m in ex.missing)
    if ex.scenario == "several_relevant":
        return np.sum(g >= 1) >= 2
    return False


def test_codes_cover_every_metric_and_trap_situation():
    seen = set()
    for code in _codes(800):
        ex = quiz.generate_exercise(code)
        assert _sets_up(ex), (code, ex.metric, ex.scenario, ex.grades, ex.missing, ex.queries)
        seen.add((ex.metric, ex.scenario))
    assert seen == {(m, s) for m, scenarios in quiz.SCENARIOS.items() for s in scenarios}
    assert {"mrr", "precision", "ndcg_linear", "ap", "rrf"} <= {m for m, _ in seen}


def test_codes_reach_every_trap_and_solution_of_every_kind():
    traps, parts = set(), set()
    for metric, codes in kind_codes().items():
        for code in codes:
            ex = quiz.generate_exercise(code)
            traps.update((metric, t.name) for t in ex.traps)
            parts.add((metric, ex.solution_part))
    assert traps == {(m, t) for m, names in quiz.GENERATED_TRAPS.items() for t in names}
    assert parts == {(m, p) for m, names in quiz.SOLUTION_PARTS.items() for p in names}


def test_old_whole_number_seeds_draw_only_the_first_four_kinds():
    seen = set()
    for seed in range(300):
        ex = quiz.generate_exercise(str(seed))
        assert _sets_up(ex), (seed, ex.metric, ex.scenario, ex.grades, ex.missing)
        seen.add((ex.metric, ex.scenario))
    assert seen == {(m, s) for m in generated.LEGACY_METRICS for s in quiz.SCENARIOS[m]}


@pytest.mark.parametrize("seed, metric, scenario, k, grades, missing", [
    # what these links showed before seeds became codes (drawn by the code of commit eb1f3c4)
    ("0", "ndcg", "grade1_above_grade2", 3, (0, 1, 2, 0, 0, 0, 0, 0, 1), (2,)),
    ("11", "recall", "more_relevant_than_k", 4, (1, 1, 1, 0, 0, 0), (1, 1, 1)),
    ("987654321", "ndcg", "grade1_above_grade2", 5, (1, 1, 0, 0, 2, 1, 0), ()),
    ("3816204719", "ndcg", "more_relevant_than_k", 3, (1, 1, 2, 2, 0, 0, 2), (2,)),
    (str(2**32 - 1), "recall", "hit_at_k", 5, (0, 0, 0, 0, 1, 0, 0), ()),
])
def test_an_old_links_long_number_still_gives_its_exercise(seed, metric, scenario, k, grades, missing):
    ex = quiz.generate_exercise(seed)
    assert (ex.metric, ex.scenario, ex.k, ex.grades, ex.missing) == (metric, scenario, k, grades, missing)
    assert ex.answer == _engine(ex)


def test_most_draws_offer_a_targeted_trap():
    with_trap = sum(bool(quiz.generate_exercise(code).traps) for code in _codes(200))
    assert with_trap >= 150


@pytest.mark.parametrize("seed", ["-1", str(2**32), "K7M3O", "K7M31", "K7M3I", "K7M3L", "K7M3A", "2K7M3", "K7M3",
                                  "K7M3QQ", "٣", "1e3", "", "9" * 5000, "0" * 11, 3, 1.5, True, None])
def test_a_bad_seed_is_refused(seed):
    assert generated.parse_seed(seed) is None
    with pytest.raises(ValueError, match="seed"):
        quiz.generate_exercise(seed)


def test_seeds_are_short_codes_without_look_alikes():
    assert 4 <= generated.SEED_LENGTH <= 6
    assert not set(generated.SEED_ALPHABET) & set("0O1IlL")
    assert not set(generated.SEED_ALPHABET) & set("AEIOU"), "no vowels: no code spells a word"
    assert len(generated.SEED_ALPHABET) ** generated.SEED_LENGTH > 10**7, "enough codes for every class"


def test_a_new_seed_is_a_fresh_code():
    codes = {generated.new_seed() for _ in range(200)}
    assert len(codes) > 190
    for code in codes:
        assert len(code) == generated.SEED_LENGTH and code[0] in generated.SEED_LETTERS
        assert generated.parse_seed(code) == code
    assert generated.new_seed(avoid=quiz.DEFAULT_SEED) != quiz.DEFAULT_SEED


def test_the_default_seed_is_a_code_and_a_valid_exercise():
    assert generated.parse_seed(quiz.DEFAULT_SEED) == quiz.DEFAULT_SEED and not quiz.DEFAULT_SEED.isdigit()
    ex = quiz.generate_exercise(quiz.DEFAULT_SEED)
    assert ex.answer == _engine(ex)
    assert (ex.metric, ex.scenario, ex.k) == ("recall", "more_relevant_than_k", 4)  # what its comment says
    assert sum(g >= 1 for g in ex.grades + ex.missing) == 5 and len(ex.missing) == 2


@given(ANY_SEED)
def test_a_draw_with_nothing_relevant_never_says_nothing_relevant_is_missing(seed):
    ex = quiz.generate_exercise(seed)
    note = generated.judged_note(ex)
    if ex.queries or ex.metric == "rrf":
        assert note is None  # several queries, or one document's ranks: no one list to speak of
    elif not np.any(ex.judged >= 1):
        assert note == generated.GENERATED_NOTHING_RELEVANT
    else:
        assert note == (quiz.GENERATED_MISSING if any(m >= 1 for m in ex.missing) else quiz.GENERATED_NONE_MISSING)


def _of_kind(metric):
    return [quiz.generate_exercise(code) for code in kind_codes()[metric]]


@given(codes_of("mrr"))
def test_the_worked_mrr_solution_is_the_engines(code):
    ex = quiz.generate_exercise(code)
    qs = metrics.from_rankings(ex.queries)
    rr, first = metrics.reciprocal_rank(qs), metrics.first_hit_rank(qs)
    assert ex.values["rr_sum"] == " + ".join(fmt(v) for v in rr)
    assert ex.values["first_ranks"] == ", ".join(str(int(f)) if np.isfinite(f) else "–" for f in first)
    assert ex.answer == metrics.mean_reciprocal_rank(ex.queries)
    assert ex.values["n_queries"] == str(len(ex.queries)) and ex.values["answer"] == fmt(ex.answer)


def test_mrr_traps_name_the_slips():
    for ex in _of_kind("mrr"):
        qs = metrics.from_rankings(ex.queries)
        rr = metrics.reciprocal_rank(qs)
        values = {t.name: t.value for t in ex.traps}
        if "sum not mean" in values:
            assert values["sum not mean"] == pytest.approx(rr.sum())
        if ex.scenario == "query_without_hit":
            assert values["skipped no hit"] == pytest.approx(rr[rr > 0].mean())
            assert quiz.check_numeric(ex, fmt(rr[rr > 0].mean())).feedback == "generated.mrr trap skipped no hit"


@given(codes_of("precision"))
def test_the_worked_precision_solution_is_the_engines(code):
    ex = quiz.generate_exercise(code)
    grades = np.array(ex.grades)
    found = int(metrics.relevant_in_top_k(metrics.from_rankings([grades]), ex.k)[0])
    assert ex.values["found"] == str(found) and ex.answer == found / ex.k == metrics.precision_at_k(grades, ex.k)
    assert ex.solution_part == ("solution short list" if len(grades) < ex.k else "solution")


def test_a_short_list_divides_by_k_and_dividing_by_its_length_is_a_trap():
    short = [ex for ex in _of_kind("precision") if ex.scenario == "short_list"]
    assert short
    for ex in short:
        grades = np.array(ex.grades)
        slip = metrics.precision_at_k(grades, len(grades))
        assert quiz.check_numeric(ex, repr(slip)).feedback == "generated.precision trap divided by returned"


@given(codes_of("ndcg_linear"))
def test_the_worked_linear_ndcg_solution_is_the_engines(code):
    ex = quiz.generate_exercise(code)
    if ex.solution_part != "solution":
        assert not np.any(ex.judged >= 1) and ex.answer == 0
        return
    grades, judged = np.array(ex.grades), ex.judged
    assert ex.values["dcg"] == fmt(metrics.dcg_at_k(grades, ex.k, "linear"))
    assert ex.values["idcg"] == fmt(metrics.idcg_at_k(judged, ex.k, "linear"))
    assert ex.answer == metrics.ndcg_at_k(grades, ex.k, judged, "linear")


def test_linear_ndcg_says_its_gain_and_exponential_gain_is_its_trap():
    assert "linear gain" in quiz_ui.text("generated.ndcg_linear prompt", {"length": "7", "k": "3"})
    exercises = [ex for ex in _of_kind("ndcg_linear") if np.any(ex.judged >= 1)]
    caught = 0
    for ex in exercises:
        exponential = metrics.ndcg_at_k(np.array(ex.grades), ex.k, ex.judged)
        if not quiz.within(exponential, ex.answer):
            caught += 1
            assert quiz.check_numeric(ex, repr(exponential)).feedback == "generated.ndcg_linear trap exponential gain"
    assert caught


# --- the bank: ids, lessons, prose -------------------------------------------

def test_question_ids_are_stable_and_grouped_by_lesson():
    assert [q.id for q in quiz.QUESTIONS] == [
        "accuracy.top10_recall",
        "warmup.recall", "recall.lawyer_a_recall_at_5", "recall.mean_recall_vs_hit_rate",
        "recall.system_b_recall_at_20", "recall.never_decreases",
        "warmup.mrr", "mrr.jar_mrr", "mrr.jar_mrr_at_3", "mrr.rr_factor_1_to_2", "mrr.wrong_headline",
        "warmup.ap", "ap.short_list_ap", "ap.map_two_queries", "ap.higher_order", "ap.map_vs_mrr",
        "ap.diagnosis",
        "warmup.ndcg", "ndcg.system_b_ndcg_at_3", "ndcg.system_b_dcg_at_3", "ndcg.best_order", "ndcg.best_swap",
        "ndcg.gains_agree",
        "warmup.four_queries", "four_queries.recall_at_3", "four_queries.recall_blind_to_position",
        "four_queries.mrr_sees_position", "four_queries.headline_k", "four_queries.recall_and_mrr",
        "warmup.fusion", "fusion.ranks_not_scores", "fusion.missing_adds_nothing", "fusion.recall_up_rr_down",
        "fusion.sixty_is_a_default",
        "warmup.choosing", "choosing.headline_metric", "choosing.diagnosis",
        "warmup.reranking_cost",
    ]
    for q in quiz.QUESTIONS:
        if isinstance(q, quiz.WarmUp):
            assert q.id == f"warmup.{q.lesson}" or (q.lesson is None and q.id.startswith("warmup."))
        else:
            assert q.id.split(".")[0] == q.lesson
    assert {q.lesson for q in quiz.QUESTIONS} - {None} == set(quiz.LESSONS)
    assert [q.id for q in quiz.WARM_UPS] == ["warmup.recall", "warmup.mrr", "warmup.ap", "warmup.ndcg", "warmup.four_queries",
                                            "warmup.fusion", "warmup.choosing", "warmup.reranking_cost"]
    assert [q.id for q in quiz.EARLIER_WARM_UPS] == ["warmup.reranking_cost"]


def test_the_ten_brief_questions_and_the_two_warm_ups_on_earlier_topics_are_in_the_bank():
    """The RRF warm-up, from an earlier topic, now opens the hybrid-search lesson, which makes it a slider."""
    brief = ["four_queries.recall_at_3", "four_queries.recall_blind_to_position", "four_queries.mrr_sees_position",
             "four_queries.headline_k", "four_queries.recall_and_mrr", "recall.lawyer_a_recall_at_5",
             "mrr.jar_mrr", "ndcg.system_b_ndcg_at_3", "choosing.headline_metric", "choosing.diagnosis"]
    assert all(quiz.question(i) for i in brief)
    assert all(isinstance(quiz.question(i), quiz.WarmUp) for i in ("warmup.reranking_cost", "warmup.fusion"))
    with pytest.raises(KeyError, match="no question"):
        quiz.question("nope")


def test_every_question_has_all_its_texts_and_none_is_orphaned():
    sections = set(prose.sections(quiz_ui.TEXTS))
    needed = quiz.all_required_texts()
    assert needed - sections == set(), "missing in lessons/text/questions.md"
    assert sections - needed == set(), "orphan sections in lessons/text/questions.md"


@pytest.mark.parametrize("question", quiz.QUESTIONS, ids=lambda q: q.id)
def test_every_text_of_a_question_can_be_filled(question):
    values = dict(getattr(question, "values", {}))
    for section in quiz.required_texts(question):
        assert quiz_ui.text(section, values).strip()


def test_shared_feedback_can_be_filled_from_outcomes():
    for order in (["snake", "django", "flask"], ["django", "pyramid", "flask"], []):
        outcome = quiz.check_ordering(ORDERING, order)
        assert quiz_ui.text(outcome.feedback, {**ORDERING.values, **outcome.values})
    deeper = quiz.OrderingQuestion("ndcg.deeper", "ndcg", sc.FRAMEWORKS, ORDERING.start, 5)
    outcome = quiz.check_ordering(deeper, ["pyramid", "django", "flask", "fastapi", "bottle"])
    assert "0." in quiz_ui.text(outcome.feedback, outcome.values)
    outcome = quiz.check_numeric(quiz.question("four_queries.recall_at_3"), "75")
    assert "75" in quiz_ui.text(outcome.feedback, outcome.values)


def test_prose_is_not_pasted_from_the_brief():
    brief_sentences = [
        "Only membership in the top k is checked, not the position within it",
        "a hit at rank 40 never reaches the generator",
        "It damps the effect of the very top ranks",
        "accuracy rewards doing nothing",
        "That is why retrieval needs its own metrics",
        "Recall@k never decreases as k grows",
        "since it ignores every hit after the first",
        "moving the hit from 1 to 2 halves the score",
        "They agree when relevance is binary; with grades they differ",
        "Same relevant items, lower position, lower nDCG",
    ]
    body = "\n".join(prose.sections(quiz_ui.TEXTS).values())
    for sentence in brief_sentences:
        assert sentence not in body


# --- progress ----------------------------------------------------------------

def test_progress_counts_per_lesson():
    empty = quiz.progress([])
    assert empty["four_queries"] == (0, 5) and empty["ndcg"] == (0, 5)
    assert empty["recall"] == (0, 4) and empty["mrr"] == (0, 4) and empty["choosing"] == (0, 2)
    assert empty["ap"] == (0, 5)
    assert sum(t for _, t in empty.values()) == len(quiz.counted_ids())
    counts = quiz.progress(["four_queries.recall_at_3", "mrr.jar_mrr", "warmup.reranking_cost", "warmup.mrr", "junk"])
    assert counts["four_queries"] == (1, 5) and counts["mrr"] == (1, 4)
    assert not quiz.counted_ids() & {q.id for q in quiz.WARM_UPS}


@pytest.mark.parametrize("raw, kept", [
    (["mrr.jar_mrr", "nope", 3, None, "warmup.reranking_cost", "warmup.ndcg"], {"mrr.jar_mrr"}),
    ("mrr.jar_mrr", set()), ({"solved": ["mrr.jar_mrr"]}, set()), (None, set()), (42, set()),
])
def test_stored_progress_is_validated(raw, kept):
    assert quiz.clean_solved(raw) == kept


# --- lesson warm-ups (each opens a lesson with a question on the lesson before) --

LESSON_WARM_UPS = {"recall": "warmup.recall", "mrr": "warmup.mrr", "ap": "warmup.ap", "ndcg": "warmup.ndcg",
                   "four_queries": "warmup.four_queries", "fusion": "warmup.fusion", "choosing": "warmup.choosing"}


@pytest.mark.parametrize("lesson, question_id", LESSON_WARM_UPS.items())
def test_each_lesson_after_the_first_opens_with_its_warm_up(lesson, question_id):
    warm_up = quiz.question(question_id)
    assert isinstance(warm_up, quiz.WarmUp) and warm_up.lesson == lesson
    assert quiz.warm_up_for(lesson) is warm_up
    assert quiz.questions_for(lesson)[0] is warm_up  # it opens the lesson's list, as it opens the lesson
    assert not quiz.is_graded(warm_up) and quiz.check(warm_up, "anything") is None
    assert question_id not in quiz.counted_ids()
    # what a lesson page's practice block shows: the graded questions only, so the warm-up never appears twice
    shown = [q.id for q in quiz.questions_for(lesson) if quiz.is_graded(q)]
    assert question_id not in shown and shown


def test_the_first_lesson_has_no_warm_up_and_earlier_topic_warm_ups_belong_to_no_lesson():
    assert quiz.warm_up_for("accuracy") is None
    assert all(w.lesson is None and not w.values for w in quiz.EARLIER_WARM_UPS)
    assert {w.id for w in quiz.WARM_UPS} == {w.id for w in quiz.EARLIER_WARM_UPS} | set(LESSON_WARM_UPS.values())


@pytest.mark.parametrize("question_id", LESSON_WARM_UPS.values())
def test_a_lesson_warm_up_has_its_texts_and_every_placeholder_a_value(question_id):
    warm_up = quiz.question(question_id)
    assert quiz.required_texts(warm_up) == (f"{question_id} prompt", f"{question_id} answer")
    for section in quiz.required_texts(warm_up):
        template = prose.section(quiz_ui.TEXTS, section)
        assert prose.placeholders(template) <= set(warm_up.values), section
        assert quiz_ui.text(section, warm_up.values).strip()
    used = set().union(*(prose.placeholders(prose.section(quiz_ui.TEXTS, s)) for s in quiz.required_texts(warm_up)))
    assert set(warm_up.values) <= used, "a value nobody shows"


def test_warm_up_numbers_come_from_the_engine():
    nothing = sc.ACCURACY_PRESETS["Return nothing"]
    empty = metrics.set_retrieval(sc.ACCURACY_COLLECTION, sc.ACCURACY_RELEVANT, nothing.returned,
                                  nothing.relevant_returned)
    recall_warm = quiz.question("warmup.recall").values
    assert recall_warm["accuracy"] == fmt(empty.accuracy, "percent") == "99.5%"  # 9,950 / 10,000
    assert recall_warm["accuracy_top10"] == "99.5%" and recall_warm["recall"] == "0.000"

    lawyer = sc.LAWYER.grades(sc.LAWYER.presets["System A"])
    mrr_warm = quiz.question("warmup.mrr").values
    assert mrr_warm["answer"] == fmt(metrics.recall_at_k(lawyer, 5, sc.LAWYER.n_relevant())) == "0.400"
    assert mrr_warm["precision"] == "0.800"

    jar = [q.grades(q.presets["Default"]) for q in sc.JAR_QUERIES]
    ndcg_warm = quiz.question("warmup.ndcg").values
    assert ndcg_warm["answer"] == fmt(metrics.mean_reciprocal_rank(jar)) == "0.567"
    assert ndcg_warm["positions"] == "1, 2, 5"

    b = sc.FRAMEWORKS.grades(sc.FRAMEWORKS.presets["System B"])
    judged = sc.FRAMEWORKS.judged_grades()
    four_warm = quiz.question("warmup.four_queries").values
    assert four_warm["answer"] == fmt(metrics.ndcg_at_k(b, 3, judged)) == "0.531"
    assert (four_warm["dcg"], four_warm["idcg"]) == ("3.393", "6.393")
    assert (four_warm["wasted"], four_warm["left_out"]) == ("Snake Care", "FastAPI Docs")

    qs = sc.four_query_set()
    choosing_warm = quiz.question("warmup.choosing").values
    assert choosing_warm["recall"] == fmt(float(metrics.recall(qs, 3).mean())) == "0.750"
    assert choosing_warm["mrr"] == fmt(float(metrics.reciprocal_rank(qs).mean())) == "0.615"
    assert choosing_warm["ranks"] == "1, 3, 1, 8"


def test_warm_up_answers_show_the_brief_numbers():
    expected = {"warmup.recall": ["99.5%"], "warmup.mrr": ["0.400"], "warmup.ndcg": ["0.567"],
                "warmup.four_queries": ["0.531"], "warmup.choosing": ["0.750", "0.615"]}
    for question_id, numbers in expected.items():
        answer = quiz_ui.text(f"{question_id} answer", quiz.question(question_id).values)
        assert all(n in answer for n in numbers), question_id


# --- the questions added for the Recall@k, MRR and nDCG lessons ----------------

@pytest.mark.parametrize("question_id, typed", [
    ("recall.system_b_recall_at_20", "0.9"), ("recall.system_b_recall_at_20", "9/10"),
    ("recall.system_b_recall_at_20", "90%"), ("recall.system_b_recall_at_20", "0,9"),
    ("mrr.rr_factor_1_to_2", "0.5"), ("mrr.rr_factor_1_to_2", "1/2"), ("mrr.rr_factor_1_to_2", "50%"),
    ("mrr.rr_factor_1_to_2", "0,5"),
])
def test_the_new_numeric_answers_are_accepted(question_id, typed):
    assert quiz.check_numeric(quiz.question(question_id), typed).correct


@pytest.mark.parametrize("question_id, typed, trap", [
    ("recall.system_b_recall_at_20", "0.45", "precision"),  # 9 of 20 results
    ("recall.system_b_recall_at_20", "9/20", "precision"),
    ("recall.system_b_recall_at_20", "1", "returned only"),  # 9 of the 9 it returned
    ("mrr.rr_factor_1_to_2", "2", "inverted"),  # old over new
])
def test_the_new_traps_get_their_feedback(question_id, typed, trap):
    outcome = quiz.check_numeric(quiz.question(question_id), typed)
    assert (outcome.status, outcome.feedback) == ("trap", f"{question_id} trap {trap}")
    assert quiz_ui.text(outcome.feedback, quiz.question(question_id).values)


def test_the_new_numeric_answers_come_from_the_engine():
    b = sc.LAWYER.grades(sc.LAWYER.presets["System B"])
    q = quiz.question("recall.system_b_recall_at_20")
    assert q.answer == metrics.recall_at_k(b, 20, sc.LAWYER.n_relevant()) == pytest.approx(0.9)
    traps = {t.name: t.value for t in q.traps}
    assert traps == {"precision": metrics.precision_at_k(b, 20), "returned only": metrics.recall_at_k(b, 20)}
    assert traps["precision"] == pytest.approx(0.45) and traps["returned only"] == pytest.approx(1.0)
    factor = quiz.question("mrr.rr_factor_1_to_2")
    assert factor.answer == metrics.reciprocal_rank_of([0, 1]) / metrics.reciprocal_rank_of([1]) == 0.5
    assert {t.name: t.value for t in factor.traps} == {"inverted": 2.0}
    assert quiz.check_numeric(factor, "50").feedback == quiz.FEEDBACK_PERCENT_SIGN


NEW_CHOICE = ["recall.never_decreases", "mrr.wrong_headline", "ndcg.best_swap", "ndcg.gains_agree", "ap.map_vs_mrr",
              "ap.diagnosis", "ap.higher_order"]


@pytest.mark.parametrize("question_id, correct", [
    ("recall.never_decreases", {"c"}), ("mrr.wrong_headline", {"b"}), ("ndcg.gains_agree", {"b"}),
    ("ap.map_vs_mrr", {"c"}), ("ap.diagnosis", {"b"}), ("ap.higher_order", {"b"}),
])
def test_the_new_multiple_choice_answers(question_id, correct):
    q = quiz.question(question_id)
    assert q.correct == correct and not q.multiple
    assert quiz.check_choice(q, sorted(correct)).correct
    for wrong in set(q.options) - correct:
        assert quiz.check_choice(q, [wrong]).feedback == quiz.FEEDBACK_CHOICE_WRONG


@pytest.mark.parametrize("question_id", NEW_CHOICE)
def test_every_option_of_the_new_questions_is_explained(question_id):
    q = quiz.question(question_id)
    assert len(q.options) == 4
    labels = [quiz_ui.text(f"{question_id} option {o}", q.values) for o in q.options]
    whys = [quiz_ui.text(f"{question_id} option {o} why", q.values) for o in q.options]
    assert all(t.strip() for t in labels + whys)
    assert len(set(labels)) == 4 and len(set(whys)) == 4


@given(st.lists(st.integers(min_value=-1, max_value=3), min_size=1, max_size=15), st.integers(0, 5))
def test_recall_at_k_never_decreases_as_the_question_says(grades, unreturned):
    n_relevant = sum(g >= 1 for g in grades) + unreturned
    curve = [metrics.recall_at_k(grades, k, n_relevant) for k in range(1, len(grades) + 3)]
    assert all(a <= b for a, b in zip(curve, curve[1:]))


def test_the_never_decreases_explanations_use_the_engine():
    v = quiz.question("recall.never_decreases").values
    falls = [2, 0, 0, 2]
    assert v["example"] == "2, 0, 0, 2"
    assert (v["ndcg_1"], v["ndcg_2"]) == (fmt(metrics.ndcg_at_k(falls, 1)), fmt(metrics.ndcg_at_k(falls, 2)))
    assert float(v["ndcg_2"]) < float(v["ndcg_1"]) == 1.0  # nDCG@k can drop...
    assert v["recall_1"] == v["recall_2"]  # ...recall cannot
    a, b = (sc.LAWYER.grades(sc.LAWYER.presets[s]) for s in ("System A", "System B"))
    assert (v["a_small"], v["a_large"]) == (fmt(metrics.recall_at_k(a, 5, 10)), fmt(metrics.recall_at_k(a, 20, 10)))
    assert (v["b_small"], v["b_large"]) == (fmt(metrics.recall_at_k(b, 5, 10)), fmt(metrics.recall_at_k(b, 20, 10)))


def test_the_wrong_headline_explanation_uses_the_engine():
    v = quiz.question("mrr.wrong_headline").values
    assert v["rr_one"] == v["rr_all"] == fmt(metrics.reciprocal_rank_of([1] + [0] * 9))
    assert (v["recall_one"], v["recall_all"]) == (fmt(metrics.recall_at_k([1] + [0] * 9, 10, 10)),
                                                  fmt(metrics.recall_at_k([1] * 10, 10, 10)))
    assert v["rr_2"] == fmt(metrics.reciprocal_rank_of([0, 1]))


def test_the_gains_explanations_use_the_engine():
    v = quiz.question("ndcg.gains_agree").values
    judged = sc.FRAMEWORKS.judged_grades()
    b = sc.FRAMEWORKS.grades(sc.FRAMEWORKS.presets["System B"])
    mixed = sc.FRAMEWORKS.grades(sc.FRAMEWORKS.presets["Mixed grades"])
    assert v["b_exp"] == v["b_lin"] == fmt(metrics.ndcg_at_k(b, 3, judged, "linear")) == "0.531"
    ideal_top = np.sort(judged)[::-1][:3]
    assert len({int(g) for g in np.r_[b[:3], ideal_top] if g >= 1}) == 1  # option b: one relevant grade in play
    assert v["mixed_exp"] == fmt(metrics.ndcg_at_k(mixed, 3, judged)) != v["mixed_lin"]
    assert v["mixed_lin"] == fmt(metrics.ndcg_at_k(mixed, 3, judged, "linear"))
    assert float(v["mixed_exp"]) < float(v["mixed_lin"])  # option c: exponential is not always higher
    assert v["mixed_exp_1"] != v["mixed_lin_1"]  # option d: k = 1 does not make them agree
    assert all(g >= 1 for g in mixed[:3])  # option a: only relevant pages in the top 3, yet they differ


# --- "which single swap raises nDCG@3 the most?" ---------------------------------

SWAP = quiz.question("ndcg.best_swap")
SWAP_START = sc.FRAMEWORKS_SWAP_START


def _ndcg_after(i, j):
    """nDCG@3 after exchanging positions i and j of the start order, straight from the engine."""
    order = list(SWAP_START)
    order[i - 1], order[j - 1] = order[j - 1], order[i - 1]
    return metrics.ndcg_at_k(sc.FRAMEWORKS.grades(order), 3, sc.FRAMEWORKS.judged_grades())


def _option_swap(letter):
    v = SWAP.values
    return int(v[f"{letter}_i"]), int(v[f"{letter}_j"])


def test_the_best_swap_is_the_engines_best_of_all_swaps():
    everything = {(i, j): _ndcg_after(i, j) for i, j in itertools.combinations(range(1, len(SWAP_START) + 1), 2)}
    best = max(everything.values())
    (correct,) = SWAP.correct
    assert _ndcg_after(*_option_swap(correct)) == best
    for letter in set(SWAP.options) - SWAP.correct:
        assert _ndcg_after(*_option_swap(letter)) < best - 0.005  # clearly worse, not a rounding tie
    assert quiz.check_choice(SWAP, [correct]).correct
    assert SWAP.values["best_ndcg"] == fmt(best) and float(SWAP.values["best_ndcg"]) > float(SWAP.values["start_ndcg"])


def test_the_swap_options_are_four_distinct_ideas_from_the_engine():
    swaps = [_option_swap(o) for o in SWAP.options]
    assert swaps == sorted(set(swaps)) and len(swaps) == 4
    assert quiz.best_swap_options(sc.FRAMEWORKS, SWAP_START, 3) == tuple(swaps)
    outcomes = quiz.swap_outcomes(sc.FRAMEWORKS, SWAP_START, 3)
    assert all(outcomes[s] == _ndcg_after(*s) for s in outcomes)
    start = metrics.ndcg_at_k(sc.FRAMEWORKS.grades(SWAP_START), 3, sc.FRAMEWORKS.judged_grades())
    assert any(j <= 3 and outcomes[(i, j)] != start for i, j in swaps)  # a reshuffle inside the top 3
    assert any(i == 3 < j for i, j in swaps)  # a page let in at the cut-off place
    assert any(abs(outcomes[s] - start) < 1e-12 for s in swaps)  # a swap that changes nothing


def test_the_swap_explanations_are_generated_from_the_engine():
    v = SWAP.values
    by_id = sc.FRAMEWORKS.by_id
    for letter in SWAP.options:
        i, j = _option_swap(letter)
        value = _ndcg_after(i, j)
        assert v[f"{letter}_ndcg"] == fmt(value)
        assert v[f"{letter}_first"] == by_id[SWAP_START[i - 1]].title
        assert v[f"{letter}_second"] == by_id[SWAP_START[j - 1]].title
        why = quiz_ui.text(f"ndcg.best_swap option {letter} why", v)
        assert fmt(value) in why and v["best_ndcg"] in why
    # what the solution's sentences rely on: the best swap brings a page from below the cut to the very top
    (correct,) = SWAP.correct
    i, j = _option_swap(correct)
    assert i == 1 and j > 3
    assert by_id[SWAP_START[j - 1]].grade > by_id[SWAP_START[i - 1]].grade
    assert str(by_id[SWAP_START[j - 1]].grade) == v["best_in_grade"]
    # "the same page let in at place k earns less": an option does exactly that
    assert any(_option_swap(o) == (3, j) for o in SWAP.options) and _ndcg_after(3, j) < _ndcg_after(i, j)


def test_a_start_order_without_four_distinct_swaps_is_refused():
    with pytest.raises(ValueError, match="four swaps"):
        quiz.best_swap_options(sc.FRAMEWORKS, sc.FRAMEWORKS.presets["System A"], 3)


# --- AP: the generated exercise and the lesson's choice questions ----------------

def _by_hand(grades, n_relevant):
    """AP written out: the nth hit at rank r adds n / r; the sum over R (0 when R = 0)."""
    ranks = [r for r, g in enumerate(grades, 1) if g >= 1]
    return sum(n / r for n, r in enumerate(ranks, 1)) / n_relevant if n_relevant else 0.0


def test_ap_is_a_kind_asked_over_the_whole_list():
    assert "ap" in quiz.GENERATED_METRICS and "ap" not in generated.LEGACY_METRICS
    assert kind_codes()["ap"]
    for code in kind_codes()["ap"]:
        ex = quiz.generate_exercise(code)
        assert ex.k is None and ex.id == "generated.ap"
        assert set(ex.grades + ex.missing) <= {0, 1}  # binary grades: the table shows relevant or not
        assert 6 <= len(ex.grades) <= 10


@given(codes_of("ap"))
def test_the_ap_answer_and_worked_solution_are_the_engines(code):
    ex = quiz.generate_exercise(code)
    r = sum(g >= 1 for g in ex.grades + ex.missing)
    assert ex.answer == quiz.engine_value(ex) == pytest.approx(_by_hand(ex.grades, r))
    solution = quiz_ui.text(f"{ex.id} {ex.solution_part}", ex.values)
    if r == 0:
        assert ex.solution_part == "solution no relevant" and ex.answer == 0 and fmt(0.0) in solution
        return
    assert ex.solution_part == "solution"
    ranks = [i for i, g in enumerate(ex.grades, 1) if g >= 1]
    assert ex.values["hits"] == ", ".join(map(str, ranks))
    terms = " + ".join(f"{n}/{rank}" for n, rank in enumerate(ranks, 1))
    assert f"({terms}) / {r}" in solution and solution.endswith(f"**{fmt(ex.answer)}**.")
    assert ex.values["n_relevant"] == str(r) and ex.values["missing_relevant"] == str(len(ex.missing))


def test_each_ap_scenario_sets_up_its_trap():
    seen = set()
    for code in kind_codes()["ap"]:
        ex = quiz.generate_exercise(code)
        traps = {t.name: t.value for t in ex.traps}
        seen.add(ex.scenario)
        if ex.scenario == "judged_not_returned":
            assert ex.missing and any(ex.grades)
            slip = conventions.ap_over_returned(ex.grades)
            assert slip > ex.answer + 0.005  # dividing by the relevant returned overstates AP
            assert quiz.check_numeric(ex, repr(slip)).feedback == "generated.ap trap divided by returned"
        elif ex.scenario == "several_relevant":
            assert not ex.missing and sum(ex.grades) >= 2  # every relevant document returned, spread down
            assert "divided by returned" not in traps  # it is the answer itself here
        else:
            assert ex.scenario == "no_relevant" and not any(ex.grades + ex.missing) and ex.answer == 0
            assert traps == {"nothing to find": 1.0}
            assert quiz.check_numeric(ex, "1").feedback == "generated.ap trap nothing to find"
    assert seen == set(quiz.SCENARIOS["ap"])


def test_the_rr_and_every_rank_slips_are_recognised():
    caught = {"rr instead": 0, "every rank": 0}
    for code in kind_codes()["ap"]:
        ex = quiz.generate_exercise(code)
        if not any(ex.grades):
            continue
        n = len(ex.grades)
        slips = {"rr instead": metrics.reciprocal_rank_of(ex.grades),
                 "every rank": float(np.mean([sum(ex.grades[:i]) / i for i in range(1, n + 1)]))}
        traps = {t.name: t.value for t in ex.traps}
        for name, value in slips.items():
            if name in traps:
                assert traps[name] == pytest.approx(value)
                assert quiz.check_numeric(ex, repr(value)).feedback == f"generated.ap trap {name}"
                caught[name] += 1
    assert all(caught.values()), caught


# --- the AP lesson's choice questions ------------------------------------------

def test_the_higher_ap_list_is_the_engines_and_not_the_higher_rr_one():
    q = quiz.question("ap.higher_order")
    x, y = ([1 if r in hits else 0 for r in range(1, 11)] for hits in bank.HIGHER_AP_HITS)
    qs = metrics.from_rankings([x, y], [[1, 1, 1]] * 2)
    ap, rr = metrics.average_precision(qs), metrics.reciprocal_rank(qs)
    assert ap[1] > ap[0] and rr[0] > rr[1]  # Y has the higher AP, X the higher RR: the trap is real
    assert q.correct == {"b"} and (q.values["ap_x"], q.values["ap_y"]) == (fmt(ap[0]), fmt(ap[1])) == ("0.507", "0.639")
    assert q.values["ap_longer"] == q.values["ap_y"]  # non-relevant documents after the last hit add nothing
    assert q.values["recall_x"] == q.values["recall_y"] == fmt(1.0)
    assert "(1/1 + 2/9 + 3/10) / 3" in q.values["arithmetic_x"]


def test_map_equals_mrr_with_one_relevant_document_per_query():
    q = quiz.question("ap.map_vs_mrr")
    assert q.lesson == "ap" and q.correct == {"c"} and not q.multiple
    qs = sc.four_query_set()
    ap, rr = metrics.average_precision(qs), metrics.reciprocal_rank(qs)
    assert q.values["map"] == q.values["mrr"] == fmt(ap.mean()) == fmt(rr.mean()) == "0.615"
    assert q.values["aps"] == q.values["rrs"] == ", ".join(fmt(v) for v in ap)
    assert q.values["ap_deep"] == q.values["rr_deep"] == fmt(1 / max(sc.FOUR_QUERY_HIT_RANKS))
    assert q.values["ap_missed"] == q.values["rr_missed"] == fmt(0.0)
    assert float(q.values["ap_several"]) > float(q.values["rr_several"])  # several relevant: AP can beat RR


@given(st.lists(st.integers(min_value=1, max_value=12), min_size=1, max_size=6), st.integers(0, 3))
def test_with_one_relevant_document_per_query_map_is_mrr(ranks, not_returned):
    rankings = sc.single_hit_rankings(ranks, length=12) + [[0] * 12] * not_returned
    qs = metrics.from_rankings(rankings, [[1]] * len(rankings))
    assert metrics.average_precision(qs) == pytest.approx(metrics.reciprocal_rank(qs))


def test_the_diagnosis_points_past_the_first_hit():
    q = quiz.question("ap.diagnosis")
    assert q.lesson == "ap" and q.correct == {"b"} and not q.multiple
    assert float(q.values["recall"]) > 0.9 and float(q.values["mrr"]) > 0.8 > 0.5 > float(q.values["map"])
    grades = [1 if r in (1, 40, 60, 80) else 0 for r in range(1, 101)]
    ap = metrics.average_precision(metrics.from_rankings([grades]))[0]
    assert q.values["example_recall"] == q.values["example_rr"] == "1.000"
    assert q.values["example_arithmetic"].endswith(f"**{fmt(ap)}**") and ap == pytest.approx(1.15 / 4)
    assert "1/1 + 2/40 + 3/60 + 4/80" in quiz_ui.text("ap.diagnosis solution", q.values)
