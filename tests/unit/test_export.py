"""Take it home: the export is valid TREC, and every shipped snippet prints the page's numbers.

Each lesson's default ranking and one preset (as the lesson's panel exports
them) are written to files; every snippet is executed as a script on them, in
a subprocess, and must print exactly the engine's numbers (the page's), for
both gains where nDCG is shown. The same files go through the project's
reader, pytrec_eval's parsers and ``rankwise eval``.
"""
from __future__ import annotations

import json
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import ir_measures  # noqa: F401  (the test extra has it: a missing install fails here, never skips)
import numpy as np
import pytest
import pytrec_eval

from components import cli as evaluate
from components.course import export, scenarios
from components.engine import measures, metrics
from components.engine.formatting import fmt
from components.formats import trec
from components.ranking_editor import EditorState


def judged(query: scenarios.Query) -> dict[str, int]:
    return {d.id: d.grade for d in query.docs if d.grade is not None}


def state(query: scenarios.Query, order) -> EditorState:
    """What a lesson's editor holds for ``order``: the returned list, the rest in the tray, every grade."""
    order = tuple(order)
    return EditorState(order=order, tray=query.not_returned(order), grades=judged(query))


def four_queries(ranks) -> list[EditorState]:
    """The four-query lesson's lists: answer at ``rank`` (None: not returned) among nine other results."""
    lists = [scenarios.four_query_list(rank) for rank in ranks]
    return [EditorState(order=order, tray=tray, grades=dict(scenarios.FOUR_QUERY_GRADES)) for order, tray in lists]


@dataclass(frozen=True)
class Case:
    """One panel's export: what a lesson passes to show_take_home, and the numbers the page shows."""

    id: str
    name: str
    queries: list
    k: int | None
    measures: tuple[str, ...]
    gains: tuple[str, ...]  # nDCG shown: both gains; else the gain does not matter
    page: dict  # measure name -> the page's value, computed as the lesson computes it (or from the brief)


LAWYER, JARS, FRAMEWORKS, CHOOSING = scenarios.LAWYER, scenarios.JAR_QUERIES, scenarios.FRAMEWORKS, scenarios.CHOOSING
_JAR_DEFAULT = [state(q, q.presets["Default"]) for q in JARS]
# query 3's correct file dragged into the tray: its list no longer holds it (RR 0)
_JAR_MISSED = _JAR_DEFAULT[:2] + [state(JARS[2], [d for d in JARS[2].presets["Default"] if JARS[2].by_id[d].grade == 0])]
# query 2's whole list dragged into the tray: the run has no line for it, the page still counts it as 0
_JAR_EMPTY = [_JAR_DEFAULT[0], state(JARS[1], ()), _JAR_DEFAULT[2]]


def _ndcg(query, order, k, gain):
    return metrics.ndcg_at_k(query.grades(order), k, query.judged_grades(), gain)


CASES = [
    Case("recall-default", "recall", [state(LAWYER, LAWYER.presets["System A"])], 5, ("R@k", "RR", "nDCG@k"),
         ("exponential", "linear"),
         {"R@5": 4 / 10, "RR": 1 / 1}),  # 4 of the 10 relevant cases in the top 5; first hit at 1
    Case("recall-system-b", "recall", [state(LAWYER, LAWYER.presets["System B"])], 20, ("R@k", "RR", "nDCG@k"),
         ("exponential", "linear"),
         {"R@20": 9 / 10, "RR": 1 / 1}),  # 9 of 10 in the top 20
    Case("mrr-default", "mrr", _JAR_DEFAULT, None, ("RR", "RR@k", "RR@1", "Success@1"), ("exponential",),
         {"RR": (1 / 1 + 1 / 2 + 1 / 5) / 3, "RR@1": 1 / 3, "Success@1": 1 / 3}),  # ranks 1, 2, 5
    Case("mrr-cutoff-and-miss", "mrr", _JAR_MISSED, 2, ("RR", "RR@k", "RR@1", "Success@1"), ("exponential",),
         {"RR": (1 / 1 + 1 / 2 + 0) / 3, "RR@2": (1 / 1 + 1 / 2 + 0) / 3}),  # query 3 lost its file
    Case("mrr-empty-list", "mrr", _JAR_EMPTY, 3, ("RR", "RR@k"), ("exponential",),
         {"RR": (1 / 1 + 0 + 1 / 5) / 3, "RR@3": (1 / 1 + 0 + 0) / 3}),  # query 2 returned nothing
    Case("ndcg-default", "ndcg", [state(FRAMEWORKS, FRAMEWORKS.presets["System A"])], 3, ("nDCG@k", "R@k"),
         ("exponential", "linear"),
         {"nDCG@3": 1.0, "R@3": 3 / 5}),  # System A is the ideal order; 3 of 5 relevant pages in the top 3
    Case("ndcg-system-b", "ndcg", [state(FRAMEWORKS, FRAMEWORKS.presets["System B"])], 3, ("nDCG@k", "R@k"),
         ("exponential", "linear"),
         {"nDCG@3": (3 / np.log2(3) + 3 / 2) / (3 + 3 / np.log2(3) + 3 / 2)}),  # 3.393 / 6.393 either gain
    Case("ndcg-mixed-grades", "ndcg", [state(FRAMEWORKS, FRAMEWORKS.presets["Mixed grades"])], 4, ("nDCG@k", "R@k"),
         ("exponential", "linear"), {}),  # the gains disagree here
    Case("four-queries-default", "four_queries", four_queries(scenarios.FOUR_QUERY_HIT_RANKS), 5,
         ("R@k", "Success@k", "RR"), ("exponential",),
         {"R@5": 3 / 4, "Success@5": 3 / 4, "RR": (1 / 1 + 1 / 3 + 1 / 1 + 1 / 8) / 4}),  # ranks 1, 3, 1, 8
    Case("four-queries-all-at-k", "four_queries", four_queries([3] * 4), 3, ("R@k", "Success@k", "RR"),
         ("exponential",), {"R@3": 4 / 4, "RR": 1 / 3}),  # preset "All at rank k"
    Case("choosing-default", "choosing", [state(CHOOSING, CHOOSING.presets["Found but badly ordered"])], 5,
         ("R@k", "Success@k", "P@k", "RR", "nDCG@k", "AP"), ("exponential", "linear"),
         {"R@5": 4 / 4, "P@5": 4 / 5, "RR": 1 / 2,
          "AP": (1 / 2 + 2 / 3 + 3 / 4 + 4 / 5) / 4}),  # relevant pages at 2-5, none at 1
    Case("choosing-first-hit-only", "choosing", [state(CHOOSING, CHOOSING.presets["First hit only"])], 5,
         ("R@k", "Success@k", "P@k", "RR", "nDCG@k", "AP"), ("exponential", "linear"),
         {"R@5": 1 / 4, "RR": 1 / 1, "AP": (1 / 1) / 4}),  # 3 of the 4 relevant pages never returned
    # AP and AP@k divide by all R relevant cases, returned or not, never by min(k, R) or by the hits found
    Case("ap-system-a", "ap", [state(LAWYER, LAWYER.presets["System A"])], 3, ("AP", "AP@k", "P@k", "R@k", "RR"),
         ("linear",),
         {"AP": (1 / 1 + 2 / 2 + 3 / 4 + 4 / 5) / 10, "AP@3": (1 / 1 + 2 / 2) / 10}),  # hits at 1, 2, 4, 5; R = 10
    Case("ap-system-b", "ap", [state(LAWYER, LAWYER.presets["System B"])], 5, ("AP", "AP@k", "P@k", "R@k", "RR"),
         ("linear",),
         {"AP@5": (1 / 1 + 2 / 3 + 3 / 4) / 10}),  # hits at 1, 3, 4 in the top 5; 9 of 10 returned
    Case("ap-several-queries", "ap", _JAR_MISSED, 1, ("AP", "AP@k", "AP@5"), ("linear",),
         {"AP": (1 / 1 + 1 / 2 + 0) / 3, "AP@1": (1 / 1 + 0 + 0) / 3}),  # query 3's file not returned
    Case("ap-empty-list", "ap", _JAR_EMPTY, 2, ("AP", "AP@k"), ("linear",),
         {"AP": (1 / 1 + 0 + 1 / 5) / 3, "AP@2": (1 / 1 + 0 + 0) / 3}),  # query 2 returned nothing
    Case("differ-default", "differ", [state(FRAMEWORKS, FRAMEWORKS.presets["Mixed grades"])], 3,
         ("nDCG@k", "R@k", "RR", "RR@k"), ("linear",), {}),
    Case("differ-hit-below-k", "differ", [state(FRAMEWORKS, FRAMEWORKS.presets["System B"])], 1,
         ("nDCG@k", "R@k", "RR", "RR@k"), ("linear",), {"RR@1": 0.0, "R@1": 0.0}),  # B's first hit is at 2
]
PACKS = {(case.id, gain): (case, gain, export.take_home(case.name, case.queries, k=case.k, gain=gain,
                                                        measures=case.measures))
         for case in CASES for gain in case.gains}


def page_numbers(case: Case, gain: str) -> dict[str, float]:
    """The numbers the lesson page shows for this state, computed as the page computes them."""
    rankings = export.as_rankings(case.queries)
    qs = metrics.from_rankings([r.order_grades() for r in rankings], [r.judged_grades() for r in rankings])
    parsed = export.resolve_measures(case.measures, case.k)
    return {m.name: float(measures.evaluate(qs, [m], gain)[m.name].mean()) for m in parsed}


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """Every pack written to its own folder, every snippet run there; (case id, gain, tool) -> stdout."""
    root = tmp_path_factory.mktemp("take_home")
    scripts = {}
    for (case_id, gain), (case, _, pack) in PACKS.items():
        folder = root / f"{case_id}-{gain}"
        folder.mkdir()
        (folder / pack.qrels_name).write_text(pack.qrels)
        (folder / pack.run_name).write_text(pack.run)
        for tool, code in pack.snippets.items():
            path = folder / f"snippet_{tool}.py"  # not pytrec_eval.py: it would shadow the library
            path.write_text(code)
            scripts[f"{case_id}|{gain}|{tool}"] = str(path)
    # One interpreter runs every snippet as a script (runpy, __main__), each from its own folder.
    driver = (
        "import contextlib, io, json, os, runpy, sys\n"
        "out = {}\n"
        "for key, path in json.loads(sys.argv[1]).items():\n"
        "    os.chdir(os.path.dirname(path))\n"
        "    buf = io.StringIO()\n"
        "    with contextlib.redirect_stdout(buf):\n"
        "        runpy.run_path(path, run_name='__main__')\n"
        "    out[key] = buf.getvalue()\n"
        "print(json.dumps(out))\n")
    done = subprocess.run([sys.executable, "-c", driver, json.dumps(scripts)], capture_output=True, text=True,
                          timeout=120, cwd=root)
    assert done.returncode == 0, done.stderr
    outputs = json.loads(done.stdout)
    return root, {tuple(key.split("|")): value for key, value in outputs.items()}


@pytest.mark.parametrize("key", list(PACKS), ids=[f"{c}-{g}" for c, g in PACKS])
def test_expected_output_is_the_pages_numbers(key):
    case, gain, pack = PACKS[key]
    numbers = page_numbers(case, gain)
    assert pack.expected == "\n".join(f"{name} {fmt(value)}" for name, value in numbers.items())
    for name, value in case.page.items():  # the brief's figures, as arithmetic
        assert numbers[name] == pytest.approx(value, abs=1e-12), name


def test_the_gains_disagree_where_the_lesson_says_they_do():
    exp, lin = (PACKS[("ndcg-mixed-grades", g)][2].expected for g in ("exponential", "linear"))
    assert exp.splitlines()[0] != lin.splitlines()[0]  # nDCG@4 differs
    assert exp.splitlines()[1] == lin.splitlines()[1]  # R@4 does not


@pytest.mark.parametrize("tool", export.TOOLS)
@pytest.mark.parametrize("key", list(PACKS), ids=[f"{c}-{g}" for c, g in PACKS])
def test_every_snippet_prints_the_pages_numbers(exported, key, tool):
    _, outputs = exported
    case, gain, pack = PACKS[key]
    assert outputs[(case.id, gain, tool)] == pack.expected + "\n"


def test_snippets_carry_the_options_they_need():
    pack = PACKS[("ndcg-mixed-grades", "exponential")][2]
    pytrec, irm = pack.snippets["pytrec_eval"], pack.snippets["ir_measures"]
    assert "2 ** g - 1" in pytrec and "mean(gains, run, 'ndcg_cut_4')" in pytrec
    assert "nDCG(gains={0: 0, 1: 1, 2: 3})@4" in irm
    # the gains mapping is asked for in a call of its own, never with another measure
    calls = [line for line in irm.splitlines() if "calc_aggregate(" in line]
    assert "calc_aggregate([ndcg_exp_4]," in " ".join(calls) and len(calls) == 2
    linear = PACKS[("ndcg-mixed-grades", "linear")][2].snippets
    assert "gains" not in linear["pytrec_eval"] and "gains" not in linear["ir_measures"]
    mrr = PACKS[("mrr-cutoff-and-miss", "exponential")][2].snippets["pytrec_eval"]
    assert "top_2 =" in mrr and "mean(qrels, top_2, 'recip_rank')" in mrr and "top_1 =" in mrr
    ap = PACKS[("ap-system-a", "linear")][2].snippets
    # trec_eval's map and map_cut_k on the whole run: its denominator is every relevant judged document
    assert "mean(qrels, run, 'map')" in ap["pytrec_eval"] and "mean(qrels, run, 'map_cut_3')" in ap["pytrec_eval"]
    assert "top_3" not in ap["pytrec_eval"]
    assert "from ir_measures import R, P, RR, AP\n" in ap["ir_measures"] and "values[AP@3]" in ap["ir_measures"]
    assert 'print("AP@3"' in ap["ir_measures"] and 'print("AP"' in ap["pytrec_eval"]


@pytest.mark.parametrize("key", list(PACKS), ids=[f"{c}-{g}" for c, g in PACKS])
def test_the_export_is_valid_trec_for_our_reader_and_pytrec_eval(exported, key):
    root, _ = exported
    case, gain, pack = PACKS[key]
    folder = root / f"{case.id}-{gain}"
    rankings = export.as_rankings(case.queries)
    qrels = trec.read_with("precise", folder / pack.qrels_name, "qrels")
    run = trec.read_with("precise", folder / pack.run_name, "run")
    for r in rankings:
        q = run.qids.index(r.qid) if r.qid in run.qids else None
        order = [] if q is None else [d.decode() for d in run.docids[run.qidx == q]]
        assert order == list(r.returned), "the run's scores must give the on-screen order"
        if q is not None:
            scores = run.score[run.qidx == q]
            assert np.all(np.diff(scores.astype(np.float32)) < 0), "scores strictly decrease: no ties"
        rows = qrels.qidx == qrels.qids.index(r.qid)
        assert dict(zip((d.decode() for d in qrels.docids[rows]), qrels.grade[rows].tolist())) == dict(r.grades)
    with open(folder / pack.qrels_name) as f:
        assert pytrec_eval.parse_qrel(f) == {r.qid: dict(r.grades) for r in rankings}
    with open(folder / pack.run_name) as f:
        parsed = pytrec_eval.parse_run(f)
    for r in rankings:
        docs = parsed.get(r.qid, {})
        assert sorted(docs, key=docs.get, reverse=True) == list(r.returned)


@pytest.mark.parametrize("key", list(PACKS), ids=[f"{c}-{g}" for c, g in PACKS])
def test_the_command_line_gives_the_same_numbers(exported, key, capsys, monkeypatch):
    root, _ = exported
    case, gain, pack = PACKS[key]
    monkeypatch.chdir(root / f"{case.id}-{gain}")
    argv = shlex.split(pack.command)
    assert argv[:2] == ["rankwise", "eval"] and argv[argv.index("--gain") + 1] == gain
    assert evaluate.main(argv[1:] + ["--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["gain"] == gain
    assert report["num_queries"] == len(case.queries)
    for name, value in page_numbers(case, gain).items():
        assert report["mean"][name] == pytest.approx(value, abs=1e-12), name


def test_the_shipped_command_runs_as_a_process(exported):
    """One real ``rankwise eval`` run (the installed command), exactly as the panel prints it (with an empty list)."""
    root, _ = exported
    case, gain, pack = PACKS[("mrr-empty-list", "exponential")]
    assert pack.command.endswith("--complete")  # query 2 has no line in the run
    argv = shlex.split(pack.command)
    rankwise = Path(sys.executable).with_name("rankwise")  # the command pip installed beside this Python
    done = subprocess.run([str(rankwise), *argv[1:], "--json"], capture_output=True, text=True, timeout=60,
                          cwd=root / f"{case.id}-{gain}")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["mean"] == pytest.approx(page_numbers(case, gain), abs=1e-12)


def test_scores_encode_the_order_top_first():
    run = export.run_text(export.as_rankings([EditorState(("b", "c", "a"), (), {"a": 1})]))
    assert run.splitlines() == ["q1 Q0 b 1 3 rankwise", "q1 Q0 c 2 2 rankwise", "q1 Q0 a 3 1 rankwise"]


def test_qrels_hold_judged_documents_that_were_not_returned_and_no_unjudged_ones():
    qrels = export.qrels_text(export.as_rankings([EditorState(("x", "a"), ("z",), {"a": 1, "z": 2})]))
    assert qrels.splitlines() == ["q1 0 a 1", "q1 0 z 2"]  # x is unjudged: left out, counts as 0


@pytest.mark.parametrize("bad, words", [
    ("Django Guide", "contains whitespace"), ("tab\there", "contains whitespace"), ("", "non-empty"),
    ("#1", "starts with '#'"), ("bell\x07", "control character")])
def test_unsafe_ids_are_rejected_clearly(bad, words):
    with pytest.raises(ValueError, match=words):
        export.Ranking("q1", (bad,), {"a": 1})
    with pytest.raises(ValueError, match=words):
        export.Ranking(bad, ("a",), {"a": 1})


@pytest.mark.parametrize("queries, words", [
    ([], "no query"),
    ([EditorState(("a", "a"), (), {"a": 1})], "more than once"),
    ([EditorState(("a",), (), {})], "no judged document"),
    ([EditorState(("a",), (), {"a": 1.5})], "whole number"),
])
def test_bad_queries_are_rejected_clearly(queries, words):
    with pytest.raises(ValueError, match=words):
        export.take_home("x", queries, k=5, gain="linear", measures=["R@k"])


def test_a_query_id_used_twice_is_rejected():
    twice = [export.Ranking("q1", ("a",), {"a": 1}), export.Ranking("q1", ("b",), {"b": 1})]
    with pytest.raises(ValueError, match="used for more than one"):
        export.as_rankings(twice)
    assert [r.qid for r in export.as_rankings(twice, qids=["t1", "t2"])] == ["t1", "t2"]


def test_nothing_returned_anywhere_is_an_error():
    with pytest.raises(ValueError, match="no query returned"):
        export.take_home("x", [EditorState((), ("a",), {"a": 1})], k=5, gain="linear", measures=["R@k"])


@pytest.mark.parametrize("name, words", [("my lesson", "names the files"), ("../x", "names the files")])
def test_file_names_are_safe(name, words):
    with pytest.raises(ValueError, match=words):
        export.take_home(name, [EditorState(("a",), (), {"a": 1})], k=5, gain="linear", measures=["R@k"])


def test_measures_at_the_pages_k_and_refusals():
    assert [m.name for m in export.resolve_measures(["r@k", "MRR", "ndcg@K", "P@3"], 7)] == \
        ["R@7", "RR", "nDCG@7", "P@3"]
    assert [m.name for m in export.resolve_measures(["RR", "RR@k"], None)] == ["RR"]
    with pytest.raises(ValueError, match="no counterpart"):
        export.resolve_measures(["DCG@k"], 3)
    with pytest.raises(ValueError, match="no measure"):
        export.resolve_measures(["R@k"], None)
    with pytest.raises(ValueError, match="unknown measure"):
        export.resolve_measures(["MAP@x"], 3)
    with pytest.raises(ValueError, match="no counterpart"):  # a trec_eval measure the take-home does not cover yet
        export.resolve_measures(["bpref"], 3)
    assert [m.name for m in export.resolve_measures(["MAP", "map_cut_4", "AP@k"], 2)] == ["AP", "AP@4", "AP@2"]


def test_table_csv_defuses_formulas_in_text_cells_and_keeps_numbers():
    import pandas as pd

    table = pd.DataFrame({"query": ['=HYPERLINK("http://evil.example","x")', "+1", "@SUM(A1)", "-q", "q1"],
                          "R@10": [0.5, -1.0, 1.0, 0.0, 0.25]})
    rows = export.table_csv(table).splitlines()
    assert rows[0] == "query,R@10"
    assert rows[1].startswith('"\'=HYPERLINK(') and rows[2] == "'+1,-1.0" and rows[3] == "'@SUM(A1),1.0"
    assert rows[4] == "'-q,0.0" and rows[5] == "q1,0.25"
