"""Compare runs: a baseline against up to nine variants on the judgments loaded on "Your data".

The page only composes: the numbers are :mod:`components.engine.many_runs`' (tests, intervals, corrections),
:mod:`components.engine.attribution`'s (why a query changed) and :mod:`components.engine.power`'s (how many
queries); the sentences are :mod:`components.course.run_comparison`'s and lessons/text/compare_runs.md's.
"""
from __future__ import annotations

from pathlib import Path
from typing import cast

import numpy as np
import pandas as pd
import streamlit as st

from components.course import prose
from components.course.findings import contrast_sentence
from components.course.run_comparison import RUN_LABELS, change_lines, many_readings, power_formula, report_many, span
from components.engine import bootstrap, compare, corrections, fusion, many_runs, model, power, run_diagnosis
from components.engine.compare import format_p
from components.engine.formatting import fmt, literal, signed
from components.engine.metrics import Gain
from components.formats import readers
from components.serving import uploads
from components.serving.shared_cache import Holder, freeze
from components.ui import charts, comparison_charts, registry, state, upload_flow
from components.ui.diagnosis_view import show_diagnosis
from components.ui.widgets import read_control, show_chart
from lessons.your_data import FAMILIES, GAIN_CHOICES, measure_names, show_trailing_note, shown_name

NO_VALUE = "–"  # a table cell or card with no value (a flagged run's corrected p)
NAME = "compare_runs"
YOUR_DATA = "your_data"  # the page that loads the judgments and run A, and whose words this page shares
PERCENT = "percent"  # fmt's style for a share
ASSETS = Path(__file__).resolve().parents[1] / "assets"
SAMPLE_QRELS, SAMPLE_RUN = ASSETS / "sample_qrels.txt", ASSETS / "sample_run.txt"
SAMPLE_OTHERS = (ASSETS / "sample_run_b.txt", ASSETS / "sample_run_c.txt")
CHOICES = ("R", "Success", "P", "RR", "AP", "nDCG", "DCG")  # families whose change the page can also explain
DEFAULT_FAMILIES = ["R", "RR", "AP", "nDCG"]
DEFAULT_K = 10
DEFAULT_DELTA = 0.05
SWEEP_KS = (1, 2, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100)  # the rrf constants the fusion chart evaluates
QUERY_OPTIONS = 2_000  # the query picker lists the queries with the largest changes, at most this many


def _use_samples() -> None:
    """The sample qrels and first run on "Your data", and runs B and C here."""
    upload_flow.receive("qrels", SAMPLE_QRELS.name, SAMPLE_QRELS.read_bytes())
    upload_flow.receive("run", SAMPLE_RUN.name, SAMPLE_RUN.read_bytes())
    _add_sample_runs()


def _add_sample_runs() -> None:
    names = {record["name"] for record in upload_flow.other_runs().values()}
    for path in SAMPLE_OTHERS:
        slot = upload_flow.free_slot()
        if path.name not in names and slot is not None:
            upload_flow.receive(slot, path.name, path.read_bytes())


def _holder(slot: str, files: uploads.Files) -> Holder:
    """The holder of a slot's pair: a new one (the old pair let go) when the pair changes."""
    holders = st.session_state.setdefault(state.COMPARE_HOLDERS, {})
    held = holders.get(slot)
    if held is None or held[0] != files:
        held = holders[slot] = (files, Holder())
    return held[1]


def _other_runs(loaded: upload_flow.LoadedPair) -> list[tuple[str, dict, model.JudgedRun]]:
    """Each other run that reads cleanly, judged against the loaded qrels (read with the first run's chunk
    option): (slot, record, judged). A run that fails shows its message and is left out."""
    runs = []
    for slot, record in upload_flow.other_runs().items():
        files = _files(loaded, record)
        try:
            judged = uploads.judge_files(files, loaded.qrels["data"], record["data"], _holder(slot, files))
        except ValueError as err:  # the reader's TrecFormatError, or no query in common with the qrels
            st.error(prose.text(NAME, "Run error", letter=_letter(slot), file=literal(record["name"])), icon="🚫")
            st.code(str(err), language=None, wrap_lines=True)
            continue
        show_trailing_note(_run_read(loaded, slot, record).parsed, record["name"])
        runs.append((slot, record, judged))
    return runs


def _as_read(loaded: upload_flow.LoadedPair, record: dict) -> dict:
    """Another run's record with the reading options it is read with: run A's chunk option, no JSON fields."""
    return uploads.with_reading(record, None, uploads.reading(loaded.run)[1])


def _files(loaded: upload_flow.LoadedPair, record: dict) -> uploads.Files:
    """The key of another run's pair with the loaded qrels, the run as read (:func:`_as_read`)."""
    return uploads.files_key(loaded.qrels, _as_read(loaded, record))


def _run_read(loaded: upload_flow.LoadedPair, slot: str, record: dict) -> readers.Read:
    """Another run as read (shared while its slot's holder lives)."""
    read = _as_read(loaded, record)
    return uploads.read("run", read["sha256"], read["name"], read["data"],
                        _holder(slot, uploads.files_key(loaded.qrels, read)), *uploads.reading(read))


def _letter(slot: str) -> str:
    return RUN_LABELS[1 + upload_flow.OTHER_RUNS.index(slot)]


def _runs_section(loaded: upload_flow.LoadedPair) -> list[tuple[str, dict, model.JudgedRun]]:
    """The runs (A, then each other run that reads cleanly: :func:`_other_runs`), each with a remove button, and
    the uploader that adds runs; returns the other runs.

    The other runs are read and listed in a container above the uploader (filled after it): however many runs
    there are, the uploader keeps its place among the page's elements. A browser that sees it move draws it
    afresh and abandons the uploads it was making: files dropped in quick succession were lost so."""
    st.subheader(prose.text(NAME, "Runs heading"))
    st.markdown(prose.text(NAME, "Runs intro", file=literal(loaded.run["name"]), more=len(upload_flow.OTHER_RUNS)))
    first = loaded.judged()
    st.markdown(prose.text(NAME, "Run line", letter="A", file=literal(loaded.run["name"]),
                           queries=f"{len(first.qids):,}"))
    listed = st.container()
    _add_runs()
    with listed:
        others = _other_runs(loaded)
        for slot, record, judged in others:
            line, remove = st.columns([4, 1.4], vertical_alignment="center")
            line.markdown(prose.text(NAME, "Run line", letter=_letter(slot), file=literal(record["name"]),
                                     queries=f"{len(judged.qids):,}"))
            remove.button(prose.text(NAME, "Remove"), key=f"{state.COMPARE_REMOVE}.{slot}",
                          on_click=upload_flow.remove, args=(slot,), icon="✖️", width="stretch",
                          help=prose.text(NAME, "Remove help", letter=_letter(slot)))
    return others


def _add_runs() -> None:
    """The uploader of more runs (each file to the next free slot), the samples button, and what was refused."""
    upload_flow.hide_uploader_size_line()
    key = f"{state.COMPARE_UPLOADER}.{upload_flow.upload_round()}"
    upload, samples = st.columns([2, 1], vertical_alignment="top")
    uploaded = upload.file_uploader(prose.text(NAME, "Uploader"), accept_multiple_files=True, key=key)
    samples.button(prose.text(NAME, "Add samples"), key=state.COMPARE_SAMPLE_RUNS, on_click=_add_sample_runs,
                   icon="🧪", width="stretch")
    upload.caption(prose.text(YOUR_DATA, "Limit", limit=uploads.size_text(upload_flow.file_limit()),
                              cap=uploads.size_text(uploads.session_cap())))
    upload_flow.take_uploads(uploaded, key)
    if upload_flow.no_room():
        st.warning(prose.text(NAME, "No room", files=", ".join(map(literal, upload_flow.no_room()))), icon="🧳")
    for slot in upload_flow.OTHER_RUNS:
        refused = upload_flow.refused(slot)
        if refused is not None:
            st.error(prose.text(YOUR_DATA, "Upload refused", file=literal(refused.file), size=refused.size,
                                total=refused.total, cap=refused.cap), icon="🧳")


def _settings() -> tuple[tuple[str, ...], str]:
    """The measures (canonical names) and the gain."""
    st.subheader(prose.text(NAME, "Settings heading"))
    st.session_state.setdefault(state.COMPARE_K, DEFAULT_K)
    st.session_state.setdefault(state.COMPARE_MEASURES, list(DEFAULT_FAMILIES))
    k_column, measures_column, gain_column = st.columns([1, 4, 2], vertical_alignment="bottom")
    k = int(read_control(k_column.number_input(prose.text(NAME, "K label"), min_value=1, max_value=1000, step=1,
                                               key=state.COMPARE_K), DEFAULT_K))
    families = read_control(measures_column.multiselect(prose.text(NAME, "Measures label"), CHOICES,
                                                        key=state.COMPARE_MEASURES, format_func=FAMILIES.get), [])
    gain = read_control(gain_column.segmented_control(prose.text(NAME, "Gain label"), GAIN_CHOICES,
                                                      key=state.COMPARE_GAIN, default=GAIN_CHOICES[0], required=True),
                        GAIN_CHOICES[0], GAIN_CHOICES)
    st.caption(prose.section(NAME, "Defaults note"))
    return measure_names([f for f in CHOICES if f in families], k), gain


def _test_settings(letters: list[str]) -> tuple[int, corrections.Correction]:
    """The baseline's index and the correction: right above the results they change."""
    baseline_column, correction_column = st.columns([1, 2], vertical_alignment="bottom")
    baseline = read_control(baseline_column.segmented_control(prose.text(NAME, "Baseline label"), letters,
                                                              key=state.COMPARE_BASELINE, default=letters[0],
                                                              required=True), letters[0], letters)
    correction = read_control(correction_column.segmented_control(
        prose.text(NAME, "Correction label"), corrections.CORRECTIONS, key=state.COMPARE_CORRECTION,
        default=corrections.DEFAULT_CORRECTION, required=True, format_func=corrections.NAMES.get,
        help=prose.section(NAME, "Correction help")), corrections.DEFAULT_CORRECTION, corrections.CORRECTIONS)
    return letters.index(baseline), correction


@st.cache_resource(max_entries=8, show_spinner=False)
def _compare(files: tuple, names: tuple[str, ...], measures: tuple[str, ...], gain: str, baseline: int,
             correction: corrections.Correction, _judged: tuple[model.JudgedRun, ...]) -> many_runs.ManyRuns:
    """Every run against the baseline; shared by every session, cached by the files' keys and the settings."""
    return freeze(many_runs.compare_many(_judged, names, measures, gain, baseline, correction))


def _table_section(result: many_runs.ManyRuns, gain: str) -> None:
    base = result.names[result.baseline]
    flagged = [prose.text(prose.CLI, "Reading flagged", run=name) for name in result.flagged]
    for warning in flagged:
        st.warning(warning, icon="⚠️")
    rows = [{"run": v.run, "measure": shown_name(v.measure, gain), "diff": v.comparison.mean_diff,
             "t_low": v.comparison.ci95[0], "t_high": v.comparison.ci95[1], "boot_low": v.boot.low,
             "boot_high": v.boot.high, "significant": v.significant} for v in result.versus.values()]
    chart_column, readings_column = st.columns([3, 2], gap="medium")
    with chart_column:
        show_chart(comparison_charts.difference_intervals, rows, baseline=base, key="compare_runs.intervals")
    with readings_column:
        st.markdown(prose.text(NAME, "Readings heading"))
        for reading in many_readings(result, {n: n for n in result.names}):
            if reading not in flagged:
                st.markdown(f"- {reading}")
    st.dataframe(_table(result, gain), hide_index=True, width="stretch")
    st.caption(prose.text(NAME, "Method", family=result.family, runs=len(result.others) - len(result.flagged),
                          measures=len(result.measures), method=corrections.NAMES[result.correction],
                          controls=corrections.CONTROLS[result.correction], boot_method=bootstrap.METHOD,
                          resamples=f"{bootstrap.RESAMPLES:,}"))
    with st.expander(prose.text(NAME, "Tests heading")):
        st.markdown(prose.section("compare", compare.WHY_FEW_QUERIES))
        st.markdown(prose.section("compare", "Tests"))
    with st.expander(prose.text(NAME, "Means heading")):
        st.dataframe(pd.DataFrame([{prose.text(NAME, "Column run"): r.name,
                                    **{shown_name(m, gain): f"{fmt(r.mean[m])} ({span(r.ci95[m])})"
                                       for m in result.measures}} for r in result.runs]),
                     hide_index=True, width="stretch")
    with st.expander(prose.text(NAME, "Report heading")):
        st.caption(prose.text(NAME, "Report intro"))
        for layout, tab in zip(("markdown", "latex"), st.tabs([prose.text(NAME, "Copy as Markdown"),
                                                               prose.text(NAME, "Copy as LaTeX")])):
            tab.code(report_many(result, layout, gain), language=layout, wrap_lines=True)


def _table(result: many_runs.ManyRuns, gain: str) -> pd.DataFrame:
    """One row per run and measure against the baseline."""
    base = result.names[result.baseline]
    column = {name: prose.text(NAME, f"Column {name}") for name in
              ("run", "measure", "paired", "mean", "t interval", "bootstrap", "counts", "p", "corrected", "significant")}
    difference = prose.text(NAME, "Column difference", baseline=base)
    base_mean = prose.text(NAME, "Column baseline mean", baseline=base)
    yes, no = prose.text(NAME, "Significant yes"), prose.text(NAME, "Significant no")
    return pd.DataFrame([{  # the two means over the paired queries, then their difference: the row adds up
        column["run"]: v.run, column["measure"]: shown_name(v.measure, gain), column["paired"]: v.comparison.n,
        base_mean: fmt(v.comparison.mean_a), column["mean"]: fmt(v.comparison.mean_b),
        difference: signed(v.comparison.mean_diff),
        column["p"]: format_p(v.comparison.randomisation_p, NO_VALUE), column["corrected"]: format_p(v.p_rand, NO_VALUE),
        column["significant"]: yes if v.significant else no,
        column["t interval"]: span(v.comparison.ci95, " to "), column["bootstrap"]: span((v.boot.low, v.boot.high), " to "),
        column["counts"]: f"{v.comparison.improved} / {v.comparison.tied} / {v.comparison.hurt}",
    } for v in result.versus.values()])


@st.cache_resource(max_entries=32, show_spinner=False)
def _diagnosed(files: uploads.Files, k: int, measures: tuple[str, ...], gain: str, chunks: str | None,
               _qrels: readers.Read, _run: readers.Read, _judged: model.JudgedRun) -> run_diagnosis.Diagnosis:
    return run_diagnosis.diagnose_read(_qrels, _run, _judged, k=k, measures=measures, gain=gain, chunks=chunks)


def _diagnosis_section(result: many_runs.ManyRuns, gain: str, files: dict[str, uploads.Files], qrels: readers.Read,
                       reads: dict[str, readers.Read], judged: dict[str, model.JudgedRun], chunks: str | None) -> None:
    """Each run diagnosed against the qrels at the measures' largest cutoff: how each run's findings differ from
    the baseline's, then every run's diagnosis, a tab each."""
    st.subheader(prose.text(NAME, "Diagnosis heading"))
    k = run_diagnosis.diagnosis_cutoff(result.measures)
    found = {run: _diagnosed(files[run], k, result.measures, gain, chunks, qrels, reads[run], judged[run])
             for run in result.names}
    base = result.names[result.baseline]
    lines = [contrast_sentence(c, run, base) for run in result.others
             for c in run_diagnosis.contrasts(found[base], found[run])]
    st.markdown(prose.text(NAME, "Diagnosis intro", k=k, baseline=base))
    st.markdown("\n".join(f"- {line}" for line in lines) if lines else prose.text(NAME, "Diagnosis same", k=k))
    for run, tab in zip(result.names, st.tabs(list(result.names))):
        with tab:
            show_diagnosis(found[run], openable=(), open_query=lambda qid: None, key=f"{state.COMPARE_DIAGNOSIS}.{run}",
                           expanded=False)  # folded: the lines above say what sets the runs apart


@st.cache_resource(max_entries=16, show_spinner=False)
def _sweep(files: tuple, measure: str, gain: str, _runs: tuple[model.Run, ...], _qrels: model.Qrels) -> tuple[float, ...]:
    return tuple(fusion.k_sweep(_runs, _qrels, measure, SWEEP_KS, cast(Gain, gain)))


def _add_fused(letters: list[str], k: int, runs: dict[str, model.Run]) -> None:
    """The "add" button: the rrf fusion of these runs at k joins the comparison, as a run file in the next slot."""
    slot = upload_flow.free_slot()
    if slot is not None:
        fused = fusion.fuse([runs[letter] for letter in letters], k=k)
        upload_flow.receive(slot, f"fused-rrf-k{k}-{'+'.join(letters)}.txt", fusion.to_trec(fused).encode())


def _fusion_section(result: many_runs.ManyRuns, gain: str, files: dict[str, uploads.Files], qrels: readers.Read,
                    reads: dict[str, readers.Read]) -> None:
    """Reciprocal rank fusion of runs chosen here (:mod:`components.engine.fusion`): a chart of a measure for every
    k, and a button that adds the fused run at the chosen k to the comparison."""
    st.subheader(prose.text(NAME, "Fusion heading"))
    st.markdown(prose.section(NAME, "Fusion intro"))
    pick, k_at, measure_at = st.columns([2, 2, 1], vertical_alignment="bottom")
    letters = pick.multiselect(prose.text(NAME, "Fusion runs"), list(result.names), default=list(result.names[:2]),
                               key=state.COMPARE_FUSE_RUNS)
    k = k_at.slider(prose.text(NAME, "Fusion k"), 1, max(SWEEP_KS), fusion.RRF_K, key=state.COMPARE_FUSE_K)
    measure = read_control(measure_at.selectbox(prose.text(NAME, "Fusion measure"), result.measures,
                                                key=state.COMPARE_FUSE_MEASURE), result.measures[0], result.measures)
    if len(letters) < 2:
        st.info(prose.text(NAME, "Fusion needs two"), icon="☝️")
        return
    runs = {letter: cast(model.Run, reads[letter].parsed) for letter in letters}
    values = _sweep(tuple(files[letter] for letter in letters), measure, gain, tuple(runs.values()),
                    cast(model.Qrels, qrels.parsed))
    alone = {letter: next(r.mean[measure] for r in result.runs if r.name == letter) for letter in letters}
    show_chart(comparison_charts.fusion_sweep, list(SWEEP_KS), list(values), metric=shown_name(measure, gain),
               current_k=k, runs=alone, key="compare_runs.fusion")
    full = upload_flow.free_slot() is None
    st.button(prose.text(NAME, "Fusion add", k=k, runs=" + ".join(letters)), key=state.COMPARE_FUSE_ADD,
              on_click=_add_fused, args=(letters, k, runs), disabled=full, icon="🔀",
              help=prose.text(NAME, "Fusion full") if full else None)


def _explain_section(result: many_runs.ManyRuns, judged: dict[str, model.JudgedRun], gain: str) -> None:
    st.subheader(prose.text(NAME, "Explain heading"))
    st.markdown(prose.section(NAME, "Explain intro"))
    run, measure = _pick_pair(result, state.COMPARE_RUN, state.COMPARE_MEASURE, "Explain", gain,
                              st.columns([1, 3], vertical_alignment="bottom"))
    diff = result.versus[run, measure].comparison.diff
    qids = result.pairings[run].qids
    base = result.names[result.baseline]
    _pair_reading(result, result.versus[run, measure], shown_name(measure, gain))
    st.markdown(prose.text("compare", "Chart key", run_a=base, run_b=run))
    show_chart(charts.win_loss_bars, qids, diff, metric=shown_name(measure, gain), run_a=base, run_b=run,
               key="compare_runs.wins")
    order = np.argsort(-np.abs(diff), kind="stable")[:QUERY_OPTIONS]
    options = [qids[i] for i in order]
    change = {qids[i]: signed(diff[i]) for i in order}
    qid = read_control(st.selectbox(prose.text(NAME, "Explain query"), options, key=query_key(run, measure),
                                    format_func=lambda q: f"{q} ({change[q]})"), options[0], options)
    why = many_runs.explain_query(judged[base], judged[run], qid, [measure], gain)[measure]
    chart_column, lines_column = st.columns([7, 4], gap="medium")
    with chart_column:
        show_chart(comparison_charts.two_rankings, _top(judged[base], qid), _top(judged[run], qid), run_a=base,
                   run_b=run, qid=qid, key="compare_runs.rankings")
    with lines_column:
        first, *rest = change_lines(why, shown_name(measure, gain), show_id=literal)
        st.markdown(f"**{first}**")
        for line in rest:
            st.markdown(f"- {line}")


def query_key(run: str, measure: str) -> str:
    """The query picker's key: one picker per run and measure, since its options (and their order, largest
    change first) are that pair's (a picker whose options change under it can stop opening)."""
    return f"{state.COMPARE_QUERY}.{run}.{measure}"


def _pair_reading(result: many_runs.ManyRuns, v: many_runs.Versus, label: str) -> None:
    """One run against the baseline on one measure in words: the queries compared, the outcome, the reading of
    its p-value and what the correction makes of it."""
    base, c = result.names[result.baseline], v.comparison
    heading, values = compare.reading(c, label, a=base, b=v.run)
    values["p_rand_how"] = prose.text_choosing(prose.CLI, compare.randomisation_how(c), values)
    skipped = {k: f"{n:,}" for k, n in result.pairings[v.run].skipped.items()}
    st.caption(prose.text("compare", "Counts", n=f"{c.n:,}", run_a=base, run_b=v.run, **skipped))
    st.markdown(prose.text_choosing("compare", "Outcome", values))
    after = "" if v.run in result.flagged else prose.text(
        NAME, "Corrected significant" if v.significant else "Corrected not significant", family=result.family,
        method=corrections.NAMES[result.correction], corrected=format_p(v.p_rand), alpha=f"{result.alpha:g}")
    st.info(" ".join([prose.text_choosing(prose.CLI, heading, values), after]), icon="🧮")
    if compare.p_values_disagree(c):
        st.caption(prose.text_choosing(prose.CLI, compare.READING_TESTS_DISAGREE, values))


def _top(judged: model.JudgedRun, qid: str) -> list[tuple[str, int | None]]:
    """A query's top documents with their grades (None: unjudged)."""
    q = judged.query_index[qid]
    grades = judged.grades(q)
    return [(doc, grades.get(doc)) for doc, _, _ in judged.ranking(q)[:comparison_charts.RANKS_SHOWN]]


def _pick_pair(result: many_runs.ManyRuns, run_key: str, measure_key: str, label: str, gain: str,
               columns) -> tuple[str, str]:
    """A run (other than the baseline) and a measure, in the first two of ``columns``."""
    run_column, measure_column = columns[:2]
    others = list(result.others)
    run = read_control(run_column.segmented_control(prose.text(NAME, f"{label} run"), others, key=run_key,
                                                    default=others[0], required=True), others[0], others)
    measures = list(result.measures)
    measure = read_control(measure_column.segmented_control(
        prose.text(NAME, f"{label} measure"), measures, key=measure_key, default=measures[0], required=True,
        format_func=lambda m: shown_name(m, gain)), measures[0], measures)
    return run, measure


def _power_section(result: many_runs.ManyRuns, gain: str) -> None:
    st.subheader(prose.text(NAME, "Power heading"))
    st.markdown(prose.section(NAME, "Power intro"))
    columns = st.columns([1, 3.6, 1.1], vertical_alignment="bottom")  # the run, the measure, the difference
    run, measure = _pick_pair(result, f"{state.COMPARE_RUN}.power", f"{state.COMPARE_MEASURE}.power", "Power", gain,
                              columns)
    delta_column = columns[2]
    st.session_state.setdefault(state.COMPARE_DELTA, DEFAULT_DELTA)
    delta = float(read_control(delta_column.number_input(
        prose.text(NAME, "Power delta"), min_value=0.001, max_value=1.0, step=0.005, format="%.3f",
        key=state.COMPARE_DELTA, help=prose.section(NAME, "Power delta help")), DEFAULT_DELTA))
    diff = result.versus[run, measure].comparison.diff
    base, label = result.names[result.baseline], shown_name(measure, gain)
    if diff.size < 2 or float(np.ptp(diff)) == 0.0:
        st.info(prose.text(NAME, "Power no spread", run=run, base=base, measure=label), icon="🧮")
        return
    plan = power.plan(diff, delta)
    needed = f"{plan.queries_needed:,}" if plan.queries_needed is not None else NO_VALUE
    cards = st.columns(4)
    cards[0].metric(prose.text(NAME, "Card needed"), needed)
    cards[1].metric(prose.text(NAME, "Card have"), f"{plan.n_have:,}")
    cards[2].metric(prose.text(NAME, "Card detectable"), fmt(plan.detectable))
    cards[3].metric(prose.text(NAME, "Card power"), fmt(plan.power_have, PERCENT))
    st.markdown(prose.text(NAME, "Power formula", run=run, base=base, measure=label, sd=fmt(plan.sd),
                           n=f"{plan.n_have:,}"))
    st.latex(power_formula(plan))
    formula_column, chart_column = st.columns([2, 3], gap="medium")
    with formula_column:
        if plan.queries_needed is None:
            st.markdown(prose.text(NAME, "Power unreachable", most=f"{power.MAX_QUERIES:,}", delta=f"{delta:g}"))
        else:
            st.markdown(prose.text(NAME, "Power formula exact", needed=needed))
            st.markdown(prose.text(NAME, "Power reading", delta=f"{delta:g}", measure=label, needed=needed,
                                   n=f"{plan.n_have:,}", detectable=fmt(plan.detectable),
                                   power=fmt(plan.power_have, PERCENT)))
        st.caption(prose.text(NAME, "Power caution", n=f"{plan.n_have:,}"))
    with chart_column:
        ns = power.query_counts()
        show_chart(comparison_charts.detectable_curve, ns, plan.curve(ns), n_have=plan.n_have, delta=delta,
                   needed=plan.queries_needed, measure=label, key="compare_runs.power")


def render() -> None:
    st.title(prose.section(NAME, "Title"))
    st.markdown(prose.section(NAME, "Intro"))
    with st.container():  # the status box of a pair being read comes and goes inside: the uploader below keeps its
        # place, and the browser keeps it (drawn afresh, moved, it abandons the uploads it is making)
        loaded, _ = upload_flow.current_files()
    if loaded is None:
        st.info(prose.section(NAME, "No pair"), icon="📂")
        left, right = st.columns(2)
        left.button(prose.text(NAME, "Use samples"), key=state.COMPARE_SAMPLES, on_click=_use_samples, icon="🧪",
                    width="stretch")
        right.page_link(registry.page_for(registry.spec(YOUR_DATA)), label=prose.text(NAME, "Your data link"),
                        icon="📂")
        return
    others = _runs_section(loaded)
    if not others:
        st.info(prose.section(NAME, "One run"), icon="☝️")
        return
    st.divider()
    letters = ["A", *(_letter(slot) for slot, _, _ in others)]
    measures, gain = _settings()
    if not measures:
        st.info(prose.section(YOUR_DATA, "No measure"), icon="☝️")
        return
    st.subheader(prose.text(NAME, "Table heading"))
    baseline, correction = _test_settings(letters)
    judged = {"A": loaded.judged(), **{_letter(slot): j for slot, _, j in others}}
    files = (loaded.key, *(_files(loaded, record) for _, record, _ in others))
    result = _compare(files, tuple(letters), measures, gain, baseline, correction,
                      tuple(judged[letter] for letter in letters))
    _table_section(result, gain)
    st.divider()
    reads = {"A": loaded.read("run"), **{_letter(slot): _run_read(loaded, slot, record) for slot, record, _ in others}}
    _diagnosis_section(result, gain, dict(zip(letters, files)), loaded.read("qrels"), reads, judged,
                       uploads.reading(loaded.run)[1])
    st.divider()
    _fusion_section(result, gain, dict(zip(letters, files)), loaded.read("qrels"), reads)
    st.divider()
    _explain_section(result, judged, gain)
    st.divider()
    _power_section(result, gain)


if __name__ == "__main__":
    render()
