"""The move table (components/ranking_editor/moves.py): every entry equals the engine's value, computed the plain way.

The plain way: make the move on the state (``plain_move`` below, written from
editor.js's ``moveItem`` and ``stepGrade``, independent of the module), build a
query set of the page's queries with ``metrics.from_rankings`` and take the
page's numbers with ``measures.evaluate`` (and ``.mean()`` over the queries).
Every comparison is exact (==).
"""
from __future__ import annotations

import json
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from components.course import scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from components.engine.measures import evaluate, parse_measure
from components.ranking_editor.model import EditorItem, EditorState, check_items, config_for, editor_items, normalise
from components.ranking_editor.moves import DEFAULT_LIMIT, DEFAULT_WINDOW, grade_steps, move_table
from components.ranking_editor.scoreboard import Scoreboard, merge_tables, payload
from tests.unit.reference_moves import Move, apply_move, editor_moves, look_up

# ----------------------------------------------------------------------------
# The plain way
# ----------------------------------------------------------------------------


def plain_move(state: EditorState, move: Move, k, grade_range) -> tuple[EditorState, int | None]:
    """The move as editor.js makes it: remove, then insert at the clamped index; the tray's end; one grade step."""
    order, tray, grades = list(state.order), list(state.tray), dict(state.grades)
    if move.kind == "cutoff":
        return state, move.to
    if move.kind == "place":
        order = [d for d in order if d != move.doc]
        tray = [d for d in tray if d != move.doc]
        order[max(0, min(move.to, len(order))):max(0, min(move.to, len(order)))] = [move.doc]
    elif move.kind == "tray":
        order.remove(move.doc)
        tray.append(move.doc)
    else:
        lo, hi = grade_range
        g = grades.get(move.doc)
        target = (min(hi, max(lo, 1)) if move.to > 0 else lo) if g is None else g + move.to
        assert lo <= target <= hi and target != g
        grades[move.doc] = target
    return EditorState(tuple(order), tuple(tray), grades), k


def at_k(names, k) -> list[str]:
    return [parse_measure(re.sub(r"@k$", f"@{k}", n, flags=re.I)).name for n in names]


def page_values(queries, query_index, state, names, k, gain, tail=(), extra=()) -> list[float]:
    """The page's numbers: this query (at query_index) among the others, each measure's mean over the queries.

    ``queries`` are the other queries: EditorStates, or mappings of fixed values.
    """
    resolved = at_k(names, k)
    own = metrics.from_rankings([state.order_grades() + list(tail)], [state.judged_grades() + list(extra)])
    own_values = evaluate(own, resolved, gain)
    per_query = []
    for q in range(len(queries) + 1):
        if q == query_index:
            per_query.append([float(own_values[n][0]) for n in resolved])
            continue
        other = queries[q if q < query_index else q - 1]
        if isinstance(other, EditorState):
            qs = metrics.from_rankings([other.order_grades()], [other.judged_grades()])
            values = evaluate(qs, resolved, gain)
            per_query.append([float(values[n][0]) for n in resolved])
        else:
            per_query.append([other[n] for n in resolved])
    return [float(np.array(column).mean()) for column in zip(*per_query)]


def entries(table) -> int:
    return (sum(len(e["rows"]) for e in table["place"].values()) + len(table["tray"])
            + sum(len(g) for g in table["grade"].values()) + len(table["cutoff"]["rows"]))


def check_table(state, names, *, k=None, gain="exponential", tray=False, editable_grades=False, grade_range=(0, 2),
                k_max=None, others=(), query_index=0, tail=(), extra=(), window=DEFAULT_WINDOW, limit=DEFAULT_LIMIT,
                page=None):
    """Build the table and compare every entry with the plain computation; return the table.

    ``page(new_state, new_k)``, when given, is the page's own computation (else :func:`page_values`).
    """
    options = dict(k=k, tray=tray, editable_grades=editable_grades, grade_range=grade_range, k_max=k_max,
                   window=window, limit=limit)
    table = move_table(state, names, gain=gain, others=others, query_index=query_index, tail=tail,
                       extra_judged=extra, **options)
    assert json.loads(json.dumps(table, allow_nan=False)) == table  # JSON-ready, floats read back exactly
    assert len({tuple(v) for v in table["values"]}) == len(table["values"])
    moves = editor_moves(state, **options)
    assert entries(table) == len(moves)

    def expected(new_state, new_k):
        if page is not None:
            return page(new_state, new_k)
        return page_values(list(others), query_index, new_state, names, new_k, gain, tail, extra)

    assert table["values"][table["current"]] == expected(state, k)
    for move in moves:
        new_state, new_k = plain_move(state, move, k, grade_range)
        assert apply_move(state, move, k=k, grade_range=grade_range) == (new_state, new_k), move
        assert look_up(table, move) == expected(new_state, new_k), move
    return table


# ----------------------------------------------------------------------------
# The lesson lists
# ----------------------------------------------------------------------------

def editor_state(items, order, tray, grade_range) -> EditorState:
    return normalise(config_for(check_items(items, grade_range), tray, grade_range), order)


LAWYER_POOL = editor_items(d for d in scenarios.LAWYER.docs
                           if d.id in set().union(*(scenarios.LAWYER.presets[s] for s in scenarios.LAWYER_DEFAULT_K))
                           or (d.grade or 0) >= 1)  # the recall lesson's pool


@pytest.mark.parametrize("preset", list(scenarios.LAWYER.presets))
def test_lawyer_presets_at_k_5(preset):
    state = editor_state(LAWYER_POOL, scenarios.LAWYER.presets[preset], True, (0, 1))
    assert len(state.order) == 20 and state.tray
    table = check_table(state, ["R@k", "RR", "nDCG@k"], k=5, tray=True, grade_range=(0, 1), k_max=20)
    assert table["window"]["complete"]
    assert table["measures"] == ["R@5", "RR", "nDCG@5"] and table["follows_k"] == [True, False, True]


def test_lawyer_recall_is_the_lessons_number():
    """System A's Recall@5 is 0.4 (4 of 10 relevant cases): the table's current row says so."""
    state = editor_state(LAWYER_POOL, scenarios.LAWYER.presets["System A"], True, (0, 1))
    table = move_table(state, ["R@k"], k=5, tray=True, grade_range=(0, 1))
    assert table["values"][table["current"]] == [0.4]
    assert look_up(table, Move("place", "c01", 19)) == [0.3]


def test_lawyer_with_editable_grades():
    state = editor_state(LAWYER_POOL, scenarios.LAWYER.presets["System B"], True, (0, 1))
    check_table(state, ["R@k", "P@k", "Success@k", "RR@k"], k=20, tray=True, editable_grades=True,
                grade_range=(0, 1), k_max=20)


@pytest.mark.parametrize("gain", metrics.GAINS)
@pytest.mark.parametrize("preset", list(scenarios.FRAMEWORKS.presets))
def test_frameworks_presets_at_k_3(preset, gain):
    items = editor_items(scenarios.FRAMEWORKS.docs)
    state = editor_state(items, scenarios.FRAMEWORKS.presets[preset], True, (0, 2))
    table = check_table(state, ["DCG@k", "nDCG@k", "R@k"], k=scenarios.FRAMEWORKS_K, gain=gain, tray=True,
                        editable_grades=True, grade_range=(0, 2), k_max=len(items))
    assert table["window"]["complete"]


def test_frameworks_fastapi_missed_keeps_its_ideal():
    """FastAPI sits in the tray, judged 2: the ideal still counts it, so nDCG@3 < 1 with the best order of the rest."""
    items = editor_items(scenarios.FRAMEWORKS.docs)
    state = editor_state(items, scenarios.FRAMEWORKS.presets["FastAPI missed"], True, (0, 2))
    table = move_table(state, ["nDCG@k"], k=3, tray=True, editable_grades=True)
    top = look_up(table, Move("place", "flask", 1))  # django, flask, pyramid: 3, 3, 1 against 3, 3, 3
    expected = metrics.ndcg_at_k([2, 2, 1, 1, 0, 0, 0], 3, judged_grades=scenarios.FRAMEWORKS.judged_grades())
    assert top == [expected] and top[0] < 1
    assert look_up(table, Move("place", "fastapi", 0))[0] > table["values"][table["current"]][0]
    assert look_up(table, Move("grade", "fastapi", -1)) is not None and "+1" not in table["grade"]["fastapi"]


def jar_states():
    return [editor_state(editor_items(q.docs), next(iter(q.presets.values())), True, (0, 1))
            for q in scenarios.JAR_QUERIES]


@pytest.mark.parametrize("edited", range(len(scenarios.JAR_QUERIES)))
def test_mrr_over_three_lists_is_the_mean_of_the_three_rr(edited):
    states = jar_states()
    others = states[:edited] + states[edited + 1:]

    def mrr(new_state, new_k):
        lists = states[:edited] + [new_state] + states[edited + 1:]
        qs = metrics.from_rankings([s.order_grades() for s in lists], [s.judged_grades() for s in lists])
        return [float(metrics.reciprocal_rank(qs).mean())]

    table = check_table(states[edited], ["RR"], tray=True, grade_range=(0, 1), others=others, query_index=edited,
                        page=mrr)
    assert table["queries"] == 3 and table["cutoff"]["rows"] == []
    assert round(table["values"][table["current"]][0], 3) == 0.567  # the lesson's MRR: (1 + 1/2 + 1/5) / 3


def test_mrr_lesson_take_home_measures_with_a_cutoff_and_no_line():
    states = jar_states()
    check_table(states[2], ["RR", "RR@k", "RR@1", "Success@1"], k=3, k_max=0, tray=True, grade_range=(0, 1),
                others=states[:2], query_index=2)


def test_mrr_two_relevant():
    q = scenarios.JAR_TWO_RELEVANT
    check_table(editor_state(editor_items(q.docs), q.presets["Default"], True, (0, 1)), ["RR"], tray=True,
                grade_range=(0, 1))


ANSWER, OTHERS = "answer", tuple(f"other{i}" for i in range(1, scenarios.FOUR_QUERY_LIST_LENGTH))
FOUR_ITEMS = (EditorItem(ANSWER, "Answer", 1),) + tuple(EditorItem(o, o, 0) for o in OTHERS)


def four_state(rank) -> EditorState:
    """The four-query lesson's list: the answer at ``rank`` (None: in the tray)."""
    order = OTHERS if rank is None else OTHERS[:rank - 1] + (ANSWER,) + OTHERS[rank - 1:]
    return editor_state(FOUR_ITEMS, order, True, (0, 1))


@pytest.mark.parametrize("ranks", [scenarios.FOUR_QUERY_HIT_RANKS, (1, 1, 1, 1), (2, None, 10, 4)])
@pytest.mark.parametrize("edited", range(4))
def test_four_queries_mean_recall_and_mrr(ranks, edited):
    states = [four_state(r) for r in ranks]

    def page(new_state, new_k):  # the lesson's own way: the hit ranks, four_query_set, the means
        hits = [s.order.index(ANSWER) + 1 if ANSWER in s.order else None
                for s in states[:edited] + [new_state] + states[edited + 1:]]
        qs = scenarios.four_query_set(hits)
        return [float(metrics.recall(qs, new_k).mean()), float(metrics.success(qs, new_k).mean()),
                float(metrics.reciprocal_rank(qs).mean())]

    table = check_table(states[edited], ["R@k", "Success@k", "RR"], k=5, k_max=scenarios.FOUR_QUERY_LIST_LENGTH,
                        tray=True, grade_range=(0, 1), others=states[:edited] + states[edited + 1:],
                        query_index=edited, page=page)
    assert table["window"]["complete"] and len(table["cutoff"]["rows"]) == 10


def test_the_lessons_number_for_the_four_queries():
    """recall@5 = 0.75 and MRR = 0.6146 for hits at 1, 3, 1, 8; dragging query 4's answer to the top: 1.0 and 0.8333."""
    states = [four_state(r) for r in scenarios.FOUR_QUERY_HIT_RANKS]
    table = move_table(states[3], ["R@k", "RR"], k=5, tray=True, grade_range=(0, 1), others=states[:3],
                       query_index=3)
    assert [round(v, 4) for v in table["values"][table["current"]]] == [0.75, 0.6146]
    assert [round(v, 4) for v in look_up(table, Move("place", ANSWER, 0))] == [1.0, 0.8333]
    assert look_up(table, Move("cutoff", to=8))[0] == 1.0


# ----------------------------------------------------------------------------
# Random lists
# ----------------------------------------------------------------------------

NAMES = ["R@k", "RR", "nDCG@k", "Success@k", "P@k", "RR@k", "DCG@k", "RR@2", "nDCG@3", "R@1", "IDCG@k",
         "AP", "AP@k", "AP@3", "nDCG", "R-prec"]  # without a cutoff, AP, nDCG and R-prec see the whole list


@st.composite
def editors(draw):
    n, n_tray = draw(st.integers(0, 9)), draw(st.integers(0, 4))
    tray = n_tray > 0 or draw(st.booleans())
    grade = st.one_of(st.none(), st.integers(0, 3))
    ids = [f"d{i}" for i in range(n + n_tray)]
    grades = {i: g for i in ids if (g := draw(grade)) is not None}
    return EditorState(tuple(ids[:n]), tuple(ids[n:]), grades), tray


@st.composite
def cases(draw):
    state, tray = draw(editors())
    k = draw(st.one_of(st.none(), st.integers(1, 12)))
    pool = NAMES if k is not None else [n for n in NAMES if not n.endswith("@k")]
    names = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=4, unique=True))
    others = [draw(editors())[0] for _ in range(draw(st.integers(0, 2)))]
    return dict(state=state, tray=tray, k=k, names=names, others=others,
                query_index=draw(st.integers(0, len(others))), gain=draw(st.sampled_from(metrics.GAINS)),
                editable_grades=draw(st.booleans()), k_max=draw(st.one_of(st.none(), st.integers(0, 12))),
                window=draw(st.one_of(st.none(), st.integers(0, 5))), limit=draw(st.one_of(st.none(),
                                                                                         st.integers(0, 6))),
                tail=draw(st.lists(st.integers(0, 3), max_size=4)), extra=draw(st.lists(st.integers(0, 3),
                                                                                        max_size=3)),
                as_mapping=draw(st.booleans()))


@given(cases())
def test_random_lists_match_the_plain_computation(case):
    state, k = case["state"], case["k"]
    others = list(case["others"])
    if case["as_mapping"] and others:  # the first other query as fixed values, at every k a cutoff move needs
        k_max = case["k_max"] if case["k_max"] is not None else max(len(state.order), k or 0)
        qs = metrics.from_rankings([others[0].order_grades()], [others[0].judged_grades()])
        cutoffs = range(1, k_max + 1) if k is not None else ()
        wanted = set(at_k(case["names"], k)) | {name for j in cutoffs for name in at_k(case["names"], j)}
        others[0] = {name: float(v[0]) for name, v in evaluate(qs, wanted, case["gain"]).items()}
    check_table(state, case["names"], k=k, gain=case["gain"], tray=case["tray"],
                editable_grades=case["editable_grades"], grade_range=(0, 3), k_max=case["k_max"], others=others,
                query_index=case["query_index"], tail=case["tail"], extra=case["extra"], window=case["window"],
                limit=case["limit"])


@given(editors(), st.integers(0, 4), st.integers(0, 4))
def test_left_out_counts_what_the_bound_drops(editor, window, limit):
    state, tray = editor
    options = dict(k=3, tray=tray, editable_grades=True, grade_range=(0, 3))
    everything = editor_moves(state, window=None, limit=None, **options)
    covered = editor_moves(state, window=window, limit=limit, **options)
    table = move_table(state, ["R@k"], window=window, limit=limit, **options)
    assert set(covered) <= set(everything)
    for kind in ("place", "tray", "grade", "cutoff"):
        left = sum(m.kind == kind for m in everything) - sum(m.kind == kind for m in covered)
        assert table["window"]["left_out"][kind] == left
    assert table["window"]["complete"] == (len(covered) == len(everything))
    for move in set(everything) - set(covered):
        assert look_up(table, move) is None


@given(st.lists(st.floats(0, 1), min_size=7, max_size=20), st.data())
def test_a_page_of_many_queries_matches_its_own_mean(fixed, data):
    """Pairwise summation from 8 queries on: the table's mean is still the page's ``.mean()``, bit for bit."""
    state = EditorState(("a", "b", "c"), grades={"b": 1, "c": 1})
    at = data.draw(st.integers(0, len(fixed)))
    table = move_table(state, ["RR"], others=[{"RR": v} for v in fixed], query_index=at)
    for j in range(3):
        rr = metrics.reciprocal_rank_of(plain_move(state, Move("place", "a", j), None, (0, 2))[0].order_grades())
        assert look_up(table, Move("place", "a", j)) == [float(np.array(fixed[:at] + [rr] + fixed[at:]).mean())]


# ----------------------------------------------------------------------------
# The bound, on a long list
# ----------------------------------------------------------------------------

def long_state(n=1_000, n_tray=40, seed=0) -> EditorState:
    rng = np.random.default_rng(seed)
    order = tuple(f"r{i}" for i in range(n))
    tray = tuple(f"t{i}" for i in range(n_tray))
    grades = {d: int(rng.choice([0, 0, 0, 1, 2])) for d in order if rng.random() < 0.7}
    grades |= {d: int(rng.integers(1, 3)) for d in tray}
    return EditorState(order, tray, grades)


def test_a_1000_document_list_sends_a_bounded_table():
    state = long_state()
    n, n_tray, w, cap = len(state.order), len(state.tray), DEFAULT_WINDOW, DEFAULT_LIMIT
    options = dict(k=10, tray=True, editable_grades=True, grade_range=(0, 2))
    table = move_table(state, ["R@k", "RR", "nDCG@k"], **options)

    assert list(table["place"]) == list(state.order[:cap]) + list(state.tray)
    for i, doc in enumerate(state.order[:cap]):
        first, last = max(0, i - w), min(n - 1, i + w)
        assert table["place"][doc]["from"] == first and len(table["place"][doc]["rows"]) == last - first + 1
    for doc in state.tray:
        assert table["place"][doc]["from"] == 0 and len(table["place"][doc]["rows"]) == w + 1
    assert list(table["tray"]) == list(state.order[:cap])
    assert set(table["grade"]) == set(state.order[:cap]) | set(state.tray)
    assert table["cutoff"]["from"] == 1 and len(table["cutoff"]["rows"]) == 10 + w

    covered_place = sum(len(e["rows"]) for e in table["place"].values())
    left = table["window"]["left_out"]
    assert left == {"place": n * n + n_tray * (n + 1) - covered_place, "tray": n - cap,
                    "grade": sum(len(grade_steps(state.grades.get(d), (0, 2))) for d in state.order[cap:]),
                    "cutoff": n - (10 + w)}
    assert table["window"] == {"size": w, "limit": cap, "complete": False, "left_out": left}
    assert entries(table) < 4_000 and len(json.dumps(table, separators=(",", ":"))) < 100_000

    # a sample of the covered moves against the plain way; the left-out ones read None
    moves = editor_moves(state, **options)
    rng = np.random.default_rng(1)
    for move in [moves[i] for i in rng.choice(len(moves), 150, replace=False)]:
        new_state, new_k = plain_move(state, move, 10, (0, 2))
        assert look_up(table, move) == page_values([], 0, new_state, ["R@k", "RR", "nDCG@k"], new_k,
                                                   "exponential"), move
    for move in [Move("place", "r0", 26), Move("place", "r60", 60), Move("place", "t0", 26), Move("tray", "r50"),
                 Move("grade", "r999", 1), Move("cutoff", to=36)]:
        assert look_up(table, move) is None, move


def test_the_defaults_keep_a_20_row_list_and_its_30_tray_documents_complete():
    state = long_state(20, 30)
    table = move_table(state, ["RR"], k=20, tray=True, editable_grades=True)
    assert table["window"]["complete"]
    assert entries(table) == len(editor_moves(state, k=20, tray=True, editable_grades=True, window=None,
                                              limit=None))


# ----------------------------------------------------------------------------
# Mistakes
# ----------------------------------------------------------------------------

def test_mistakes_are_refused_with_a_message():
    state = EditorState(("a", "b"), ("c",), {"a": 1, "c": 2})
    with pytest.raises(ValueError, match="reads the page's cutoff, but k is None"):
        move_table(state, ["R@k"], tray=True)
    with pytest.raises(ValueError, match="yet tray=False"):
        move_table(state, ["RR"])
    with pytest.raises(ValueError, match="unknown measure 'MRR@x'"):
        move_table(state, ["MRR@x"], tray=True)
    with pytest.raises(ValueError, match="grade of 'c' must be a whole number from 0 to 1"):
        move_table(state, ["RR"], tray=True, grade_range=(0, 1))
    with pytest.raises(ValueError, match=r"others\[0\] has no value for 'R@1'"):
        move_table(state, ["R@k"], k=2, tray=True, others=[{"R@2": 0.5}])
    with pytest.raises(ValueError, match="window must be a whole number at least 0"):
        move_table(state, ["RR"], tray=True, window=-1)
    with pytest.raises(ValueError, match="query_index must be a whole number from 0 to 0"):
        move_table(state, ["RR"], tray=True, query_index=1)
    with pytest.raises(ValueError, match="not the single string"):
        move_table(state, "RR", tray=True)


@given(editors(), st.integers(1, 6))
def test_a_board_in_both_gains_joins_one_table_per_gain_move_by_move(editor, k):
    """The nDCG lesson's board: DCG@k, IDCG@k and nDCG@k in one gain, nDCG@k in the other."""
    state, tray = editor
    options = dict(k=k, tray=tray, editable_grades=True, grade_range=(0, 3))
    exponential = move_table(state, ["DCG@k", "IDCG@k", "nDCG@k"], gain="exponential", **options)
    linear = move_table(state, ["nDCG@k"], gain="linear", **options)
    merged = merge_tables([exponential, linear], [[0, 1, 2], [3]])
    assert merged["measures"] == exponential["measures"] + linear["measures"]
    assert len({tuple(v) for v in merged["values"]}) == len(merged["values"])
    assert merged["values"][merged["current"]] == exponential["values"][exponential["current"]] + linear["values"][
        linear["current"]]
    for move in editor_moves(state, **options):
        assert look_up(merged, move) == look_up(exponential, move) + look_up(linear, move), move
    board = Scoreboard(("DCG@k", "IDCG@k", "nDCG@k", "nDCG@k"), ("a", "b", "c", "d"),
                       gains=("exponential", "exponential", "exponential", "linear"))
    score = payload(board, state, **options)
    assert score["shown"] == [[fmt(v) for v in row] for row in merged["values"]]
