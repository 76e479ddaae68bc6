"""AppTest: the "Compare runs" page with the bundled samples (runs A, B and C): the table is the engine's, the
correction is chosen, a query's change is split over its documents, and the queries needed are planned."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from components.course import prose
from components.course.run_comparison import change_lines
from components.course.samples import SAMPLE_OTHERS, SAMPLE_QRELS, SAMPLE_RUN
from components.engine import compare, many_runs, model, power
from components.engine.formatting import fmt, literal, signed
from components.serving import uploads
from components.ui import state
from components.ui.explain_view import query_key
from components.ui.fusion_view import SWEEP_KS
from tests.pages.helpers import open_page
from tests.unit.file_readers import load_trec, read_qrels, read_run

PAGE = "lessons/compare_runs.py"
ASSETS = Path(__file__).resolve().parents[2] / "assets"
QRELS = ASSETS / "sample_qrels.txt"
RUNS = [ASSETS / n for n in ("sample_run.txt", "sample_run_b.txt", "sample_run_c.txt")]
MEASURES = ["R@10", "RR", "AP", "nDCG@10"]  # the page's default families at k = 10


def expected(correction: str = "holm", baseline: int = 0, extra: bytes | None = None) -> many_runs.ManyRuns:
    """The engine's comparison of the sample runs (and of the run ``extra`` as run D)."""
    runs = [r.read_bytes() for r in RUNS] + ([extra] if extra is not None else [])
    judged = [load_trec(QRELS.read_bytes(), r) for r in runs]
    return many_runs.compare_many(judged, list("ABCD"[:len(runs)]), MEASURES, "linear", baseline, correction)


def reversed_run() -> bytes:
    """A fourth run: the first run's lists, each reversed."""
    rows: dict[str, list[str]] = {}
    for line in RUNS[0].read_text().splitlines():
        rows.setdefault(line.split()[0], []).append(line.split()[2])
    return "".join(f"{q} Q0 {d} {r} {100 - r} rev\n" for q, docs in rows.items()
                   for r, d in enumerate(reversed(docs), 1)).encode()


@pytest.fixture
def at():
    at = open_page(PAGE)
    at.button(key=state.COMPARE_SAMPLES).click().run()
    assert not at.exception
    return at


def table(at) -> list[dict]:
    """The comparison table's rows (the first data frame)."""
    return at.dataframe[0].value.to_dict("records")


def test_without_files_the_page_offers_the_samples_and_a_way_to_your_data():
    at = open_page(PAGE)
    assert not at.exception
    assert any("Your data" in i.value for i in at.info)
    assert at.button(key=state.COMPARE_SAMPLES)


def test_the_samples_give_the_engines_comparison_of_every_run_with_the_baseline(at):
    result = expected()
    rows = table(at)
    assert len(rows) == 8  # runs B and C × 4 measures
    for row, v in zip(rows, result.versus.values()):
        assert row["Run"] == v.run and row["Difference from A"] == signed(v.comparison.mean_diff)
        assert row["Queries"] == v.comparison.n  # the two means beside the difference are over those queries
        assert (row["A, paired"], row["Run, paired"]) == (fmt(v.comparison.mean_a), fmt(v.comparison.mean_b))
        assert float(row["Run, paired"]) - float(row["A, paired"]) == pytest.approx(
            float(row["Difference from A"].replace("−", "-")), abs=0.0015)  # the row adds up, to the rounding
        assert row["Randomisation p"] == compare.format_p(v.comparison.randomisation_p)
        assert row["Corrected p"] == compare.format_p(v.p_rand)
        assert row["95% bootstrap"].startswith(signed(v.boot.low))
        assert row["Significant?"] == ("✓ yes" if v.significant else "no")
    assert list(rows[0])[:9] == ["Run", "Measure", "Queries", "A, paired", "Run, paired", "Difference from A",
                                 "Corrected p", "Significant?", "Randomisation p"]  # what decides comes first
    readings = [m.value for m in at.markdown if m.value.startswith("- ")]
    assert any("After Holm's correction across 8 comparisons" in r for r in readings)
    assert any("Below 0.05 before the correction only" in r for r in readings)  # B's raw wins do not survive


def test_the_correction_and_the_baseline_change_the_table(at):
    at.segmented_control(key=state.COMPARE_CORRECTION).set_value("bh").run()
    result = expected("bh")
    assert [r["Corrected p"] for r in table(at)] == [compare.format_p(v.p_rand) for v in result.versus.values()]
    assert any("Benjamini–Hochberg" in c.value for c in at.caption)
    at.segmented_control(key=state.COMPARE_BASELINE).set_value("B").run()
    rows = table(at)
    assert {r["Run"] for r in rows} == {"A", "C"} and "Difference from B" in rows[0]
    result = expected("bh", baseline=1)
    assert [r["Difference from B"] for r in rows] == [signed(v.comparison.mean_diff) for v in result.versus.values()]


def test_the_chart_of_differences_marks_significance_by_shape_and_says_so(at):
    [chart] = [e.proto for e in at.get("vega_lite_chart") if e.proto.alt.startswith("Mean difference from run A")]
    spec = json.loads(chart.spec)
    shapes = next(layer["encoding"]["shape"]["scale"] for layer in spec["layer"] if "shape" in layer["encoding"])
    assert shapes["range"] == ["diamond", "circle"]
    assert chart.alt in [c.value for c in at.caption]


def test_a_query_opened_shows_both_rankings_and_its_change_split_over_documents(at):
    at.segmented_control(key=state.COMPARE_MEASURE).set_value("nDCG@10").run()
    picker = at.selectbox(key=query_key("B", "nDCG@10"))
    qid = picker.value
    judged = [load_trec(QRELS.read_bytes(), r.read_bytes()) for r in RUNS[:2]]
    diff = expected().versus["B", "nDCG@10"].comparison.diff
    qids = expected().pairings["B"].qids
    assert qid == qids[max(range(len(qids)), key=lambda i: abs(diff[i]))]  # the largest change first
    why = many_runs.explain_query(judged[0], judged[1], qid, ["nDCG@10"])["nDCG@10"]
    lines = change_lines(why, "nDCG@10 (linear gain)", show_id=literal)
    shown = [m.value for m in at.markdown]
    assert f"**{lines[0]}**" in shown and all(f"- {line}" in shown for line in lines[1:])
    assert any(c.value.startswith(f"Query {qid}, the top 10 of run A (left) and run B (right)") for c in at.caption)
    picker.set_value(qids[0]).run()
    assert any(c.value.startswith(f"Query {qids[0]}, the top 10") for c in at.caption)


def test_how_many_queries_is_the_engines_plan_for_the_chosen_run_and_measure(at):
    at.segmented_control(key=f"{state.COMPARE_RUN}.power").set_value("C").run()
    at.segmented_control(key=f"{state.COMPARE_MEASURE}.power").set_value("AP").run()
    at.number_input(key=state.COMPARE_DELTA).set_value(0.1).run()
    plan = power.plan(expected().versus["C", "AP"].comparison.diff, 0.1)
    cards = {m.label: m.value for m in at.metric}
    assert cards["Queries needed"] == f"{plan.queries_needed:,}" and cards["Queries you have"] == "11"
    assert cards["Detectable now"] == fmt(plan.detectable)
    assert any("the queries you have" in e.proto.spec for e in at.get("vega_lite_chart"))


def test_a_run_that_cannot_be_read_is_named_and_the_others_are_still_compared(at):
    at.session_state[state.YOUR_DATA_OTHER_RUNS[2]] = uploads.upload_record("broken.txt", b"101 Q0 d1 1 high x\n")
    at.run()
    assert not at.exception
    assert any("Run D" in e.value and "broken.txt" in e.value for e in at.error)
    assert any("broken.txt, line 1" in c.value for c in at.code)
    assert {r["Run"] for r in table(at)} == {"B", "C"}


def test_a_run_that_never_ran_is_flagged_not_significant(at):
    nothing = "".join(f"{q} Q0 nothing 1 1 x\n" for q in range(101, 113))
    at.session_state[state.YOUR_DATA_OTHER_RUNS[2]] = uploads.upload_record("empty.txt", nothing.encode())
    at.run()
    assert any("Run D scores 0 on every query" in w.value for w in at.warning)
    rows = [r for r in table(at) if r["Run"] == "D"]
    assert rows and all(r["Significant?"] == "no" and r["Corrected p"] == "–" for r in rows)
    assert any("(2 runs × 4 measures)" in c.value for c in at.caption)


def test_removing_a_run_leaves_the_others(at):
    at.button(key=f"{state.COMPARE_REMOVE}.run_b").click().run()
    assert {r["Run"] for r in table(at)} == {"C"}
    assert state.YOUR_DATA_OTHER_RUNS[0] not in at.session_state


def test_one_run_alone_asks_for_a_second():
    at = open_page(PAGE)
    at.button(key=state.COMPARE_SAMPLES).click().run()
    for slot in ("run_b", "run_c"):
        at.button(key=f"{state.COMPARE_REMOVE}.{slot}").click().run()
    assert any("Add a second run" in i.value for i in at.info)
    at.button(key=state.COMPARE_SAMPLE_RUNS).click().run()
    assert {r["Run"] for r in table(at)} == {"B", "C"}


def test_the_your_data_page_links_here():
    at = open_page("lessons/your_data.py")
    at.button(key=state.YOUR_DATA_SAMPLES).click().run()
    assert not at.exception
    assert any(prose.section("your_data", "Compare link intro") == m.value for m in at.markdown)


def test_one_line_with_text_after_the_tag_in_run_b_gets_the_singular_note(at):
    lines = RUNS[1].read_text().splitlines()
    run_b = ("\n".join([lines[0] + " notes", *lines[1:]]) + "\n").encode()
    at.session_state[state.YOUR_DATA_RUN_B] = uploads.upload_record("b.run", run_b)
    at.run()
    assert not at.exception
    captions = [c.value for c in at.caption]
    assert f"1 line of the run {literal('b.run')} has text after the tag" in " ".join(captions)


def test_a_fourth_run_is_corrected_with_the_rest_explained_and_planned(at):
    """A fourth run added: the reading of B against A on R@10 says its corrected p among the 12 comparisons, under
    Holm's and then Bonferroni's correction; the explained measure's picker opens on the largest change and on any
    other query picked; the queries needed follow the difference to detect."""
    at.session_state[state.YOUR_DATA_OTHER_RUNS[2]] = uploads.upload_record("reversed.txt", reversed_run())
    at.run()
    assert not at.exception
    assert any("reversed.txt" in m.value for m in at.markdown)
    result = expected(extra=reversed_run())

    def reading() -> str:
        (shown,) = [i.value for i in at.info if "comparisons on this page" in i.value]
        return shown

    assert f"after Holm's correction its p is {compare.format_p(result.versus['B', 'R@10'].p_rand)}" in reading()
    assert any("across the **12** comparisons (3 runs × 4 measures)" in c.value for c in at.caption)
    at.segmented_control(key=state.COMPARE_CORRECTION).set_value("bonferroni").run()
    bonferroni = expected("bonferroni", extra=reversed_run()).versus["B", "R@10"]
    assert f"after Bonferroni's correction its p is {compare.format_p(bonferroni.p_rand)}" in reading()

    at.segmented_control(key=state.COMPARE_MEASURE).set_value("nDCG@10").run()
    diff = result.versus["B", "nDCG@10"].comparison.diff
    qids = result.pairings["B"].qids
    largest, second = (qids[i] for i in sorted(range(len(qids)), key=lambda i: -abs(diff[i]))[:2])
    picker = at.selectbox(key=query_key("B", "nDCG@10"))
    assert picker.value == largest
    assert any(c.value.startswith(f"Query {largest}, the top 10 of run A (left) and run B (right)") for c in at.caption)
    assert any("split by each document's own term" in m.value for m in at.markdown)
    picker.set_value(second).run()
    assert any(c.value.startswith(f"Query {second}, the top 10 of run A (left) and run B (right)") for c in at.caption)

    at.number_input(key=state.COMPARE_DELTA).set_value(0.1).run()
    assert not at.exception
    plan = power.plan(result.versus["B", "R@10"].comparison.diff, 0.1)
    cards = {m.label: m.value for m in at.metric}
    assert cards["Queries needed"] == f"{plan.queries_needed:,}" and cards["Detectable now"] == fmt(plan.detectable)


def test_each_run_is_diagnosed_and_what_sets_a_run_apart_from_the_baseline_is_said(at):
    """The engine's diagnosis of each run at the measures' largest cutoff (10), a tab each, and a line for each
    way a run's findings differ from A's: B's and C's top 10 are judged more deeply than A's."""
    from components.course.findings import contrast_sentence
    from components.engine import run_diagnosis
    from components.formats import readers

    qrels = readers.read(SAMPLE_QRELS.read_bytes(), "qrels")
    found = {}
    for letter, path in zip("ABC", (SAMPLE_RUN, *SAMPLE_OTHERS)):
        run = readers.read(path.read_bytes(), "run")
        found[letter] = run_diagnosis.diagnose_read(qrels, run, model.judge(qrels.parsed, run.parsed), k=10,
                                                    measures=MEASURES, gain="linear")
    lines = [contrast_sentence(c, run, "A") for run in "BC" for c in run_diagnosis.contrasts(found["A"], found[run])]
    assert any("B is judged more deeply than A: Judged@10" in line for line in lines)
    shown = next(m.value for m in at.markdown if m.value.startswith("- ") and "judged more deeply" in m.value)
    assert shown == "\n".join(f"- {line}" for line in lines)
    assert [t.label for t in at.tabs][-3:] == ["A", "B", "C"]
    titles = [e.label for e in at.expander if e.label.startswith("Diagnosis at k = 10")]
    assert len(titles) == 3 and titles[1] == prose.text(
        "your_data", "Diagnosis title", k=10, warnings=sum(f.severity == "warning" for f in found["B"].problems),
        notes=sum(f.severity == "note" for f in found["B"].problems))


def test_the_table_for_a_paper_is_the_engines_report_in_markdown_and_latex(at):
    from components.course.run_comparison import report_many

    result = expected()
    codes = {c.language: c.value for c in at.code}
    assert codes["markdown"] == report_many(result, "markdown", "linear")
    assert codes["latex"] == report_many(result, "latex", "linear")
    assert [t.label for t in at.tabs][:2] == ["Copy as Markdown", "Copy as LaTeX"]


def test_fusing_charts_the_engines_value_for_every_k_and_adds_the_fused_run_to_the_comparison(at):
    from components.engine import fusion

    qrels = read_qrels(QRELS.read_bytes())
    a, b = (read_run(p.read_bytes()) for p in RUNS[:2])
    values = fusion.k_sweep([a, b], qrels, "R@10", SWEEP_KS, "linear")
    alt = next(c.value for c in at.caption if "of the fused run for rrf k = 1 to 100" in c.value)
    assert f"At k = 60: {fmt(values[SWEEP_KS.index(60)])}." in alt
    at.slider(key=state.COMPARE_FUSE_K).set_value(20).run()
    at.button(key=state.COMPARE_FUSE_ADD).click().run()
    assert not at.exception
    rows = table(at)
    assert {row["Run"] for row in rows} == {"B", "C", "D"}  # the fused run joins as run D
    fused = load_trec(QRELS.read_bytes(), fusion.to_trec(fusion.fuse([a, b], k=20)))
    d_rr = next(row for row in rows if row["Run"] == "D" and row["Measure"] == "RR")
    from components.engine.measures import evaluate
    assert d_rr["Run, paired"] == fmt(float(evaluate(fused.queries, ["RR"], "linear")["RR"].mean()))
    assert any("fused-rrf-k20-A+B.json" in m.value for m in at.markdown)
