"""``rankwise eval QRELS RUN RUN2 ...``: several runs against a baseline, corrected, in any format the readers read."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from components.cli import main
from components.engine import corrections, many_runs, model
from components.engine.formatting import fmt
from tests.unit.file_readers import load_trec, read_qrels, read_run

ASSETS = Path(__file__).resolve().parents[2] / "assets"
QRELS, RUN, RUN_B = (ASSETS / n for n in ("sample_qrels.txt", "sample_run.txt", "sample_run_b.txt"))


def cli(capsys, *args) -> tuple[int, str, str]:
    try:
        status = main(["eval", *map(str, args)])
    except SystemExit as exit_:
        status = exit_.code
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def run_c(tmp_path) -> Path:
    """A third run: the sample run with each query's list reversed (its scores too)."""
    lines = [line.split() for line in RUN.read_text().splitlines()]
    by_query: dict[str, list[list[str]]] = {}
    for line in lines:
        by_query.setdefault(line[0], []).append(line)
    out = []
    for rows in by_query.values():
        for rank, row in enumerate(reversed(rows), 1):
            out.append(f"{row[0]} Q0 {row[2]} {rank} {100 - rank} c\n")
    path = tmp_path / "run_c.txt"
    path.write_text("".join(out))
    return path


def test_three_runs_in_json_are_the_engines_comparison_corrected_together(capsys, run_c):
    status, out, _ = cli(capsys, QRELS, RUN, RUN_B, run_c, "--json", "-m", "RR", "-m", "nDCG@10")
    assert status == 0
    document = json.loads(out)
    judged = [load_trec(QRELS, r) for r in (RUN, RUN_B, run_c)]
    expected = many_runs.compare_many(judged, [str(RUN), str(RUN_B), str(run_c)], ["RR", "nDCG@10"]).as_dict()
    assert document["versus_baseline"] == expected["versus_baseline"]
    assert document["family"] == 4 and document["labels"][str(run_c)] == "C"


def test_the_baseline_is_chosen_by_file_name_and_the_correction_by_name(capsys, run_c):
    status, out, _ = cli(capsys, QRELS, RUN, RUN_B, run_c, "--json", "--baseline", RUN_B.name, "--correction", "bh",
                         "-m", "RR")
    document = json.loads(out)
    assert status == 0 and document["baseline"] == str(RUN_B) and document["correction"] == "bh"
    raw = [document["versus_baseline"][str(r)]["RR"]["randomisation_p"] for r in (RUN, run_c)]
    corrected = [document["versus_baseline"][str(r)]["RR"]["randomisation_p_corrected"] for r in (RUN, run_c)]
    assert corrected == corrections.adjust(raw, "bh").tolist()


def test_the_table_names_each_run_by_letter_and_the_correction(capsys, run_c):
    status, out, _ = cli(capsys, QRELS, RUN, RUN_B, run_c, "-m", "RR")
    assert status == 0
    assert f"A: {RUN} (baseline)" in out and f"B: {RUN_B}" in out and f"C: {run_c}" in out
    assert "corrected across the 2 comparisons (runs × measures: 2 × 1) with Holm's method" in out
    assert any(line.startswith("C    RR ") for line in out.splitlines())


def test_a_run_in_another_format_compares_as_its_trec_twin(capsys, tmp_path):
    as_jsonl = tmp_path / "b.jsonl"
    rows: dict[str, list[str]] = {}
    for line in RUN_B.read_text().splitlines():
        qid, _, doc, *_ = line.split()
        rows.setdefault(qid, []).append(doc)  # the file is in rank order: the list's order is the ranking
    as_jsonl.write_text("".join(json.dumps({"qid": q, "retrieved_ids": d}) + "\n" for q, d in rows.items()))
    _, trec_out, _ = cli(capsys, QRELS, RUN, RUN_B, "--json", "-m", "nDCG@10")
    status, jsonl_out, _ = cli(capsys, QRELS, RUN, as_jsonl, "--json", "-m", "nDCG@10")
    assert status == 0
    ours = json.loads(jsonl_out)["versus_baseline"][str(as_jsonl)]["nDCG@10"]
    theirs = json.loads(trec_out)["versus_baseline"][str(RUN_B)]["nDCG@10"]
    assert ours["mean_diff"] == pytest.approx(theirs["mean_diff"], abs=1e-12)


def test_a_run_that_never_ran_is_flagged(capsys, tmp_path):
    empty = tmp_path / "broken.txt"
    empty.write_text("".join(f"{q} Q0 nothing 1 1 x\n" for q in ("101", "102", "103")))
    status, out, _ = cli(capsys, QRELS, RUN, RUN_B, empty, "-m", "RR")
    assert status == 0 and "Run C scores 0 on every query for every measure" in out
    assert "(runs × measures: 1 × 1)" in out


@pytest.mark.parametrize("args, message", [
    (["--baseline", "nowhere.txt"], "--baseline 'nowhere.txt' is not one of the runs"),
    (["--format", "trec"], "--compare has no trec_eval layout"),
])
def test_usage_errors_with_several_runs(capsys, args, message):
    status, _, err = cli(capsys, QRELS, RUN, RUN_B, *args)
    assert status == 2 and message in err


def test_usage_errors_about_the_runs_given(capsys, tmp_path):
    status, _, err = cli(capsys, QRELS, RUN, RUN)
    assert status == 2 and "a run is given twice" in err
    status, _, err = cli(capsys, QRELS, RUN, "--baseline", RUN.name)
    assert status == 2 and "--baseline needs several runs" in err
    many = [tmp_path / f"r{i}.txt" for i in range(11)]
    status, _, err = cli(capsys, QRELS, *many)
    assert status == 2 and "11 runs given: compare at most 10" in err


def test_power_gives_the_queries_needed_from_each_runs_differences(capsys):
    from components.engine import power

    status, out, _ = cli(capsys, QRELS, RUN, RUN_B, "--json", "-m", "nDCG@10", "--power", "0.05")
    assert status == 0
    planned = json.loads(out)["power"][str(RUN_B)]["nDCG@10"]
    diff = json.loads(cli(capsys, QRELS, RUN, RUN_B, "--json", "--per-query", "-m", "nDCG@10")[1])["per_query"]
    expected = power.plan([d["nDCG@10"] for d in diff[str(RUN_B)].values()], 0.05)
    assert planned["queries_needed"] == expected.queries_needed and planned["n_have"] == 11
    status, out, _ = cli(capsys, QRELS, RUN, RUN_B, "-m", "nDCG@10", "--power", "0.05")
    assert f"with the t distribution's exact power: {expected.queries_needed:,} queries" in out


@pytest.mark.parametrize("value", ["0", "-0.1", "nan", "big"])
def test_power_needs_a_positive_difference(capsys, value):
    status, _, err = cli(capsys, QRELS, RUN, RUN_B, "--power", value)
    assert status == 2 and f"'{value}' is not a positive number" in err


def test_power_needs_several_runs(capsys):
    status, _, err = cli(capsys, QRELS, RUN, "--power", "0.02")
    assert status == 2 and "--power needs several runs" in err


def test_explain_splits_each_measures_change_on_the_query_over_documents(capsys):
    status, out, _ = cli(capsys, QRELS, RUN, RUN_B, "--json", "-m", "nDCG@10", "-m", "RR", "--explain", "103")
    assert status == 0
    document = json.loads(out)
    why = document["explain"][str(RUN_B)]
    per_query = json.loads(cli(capsys, QRELS, RUN, RUN_B, "--json", "--per-query", "-m", "nDCG@10", "-m", "RR")[1])
    for measure in ("nDCG@10", "RR"):
        shares = sum(d["contribution"] for d in why[measure]["documents"]) + sum(
            g["contribution"] for g in why[measure]["groups"])
        assert shares == pytest.approx(why[measure]["change"], abs=1e-9)
        assert why[measure]["change"] == pytest.approx(per_query["per_query"][str(RUN_B)]["103"][measure], abs=1e-12)
    assert why["nDCG@10"]["method"] == "exact" and why["RR"]["method"] == "shapley-exact"
    top = why["nDCG@10"]["documents"][0]
    assert (top["docid"], top["grade"], top["rank_a"], top["rank_b"]) == ("D1221", 2, 5, 1)


def test_explain_in_the_table_names_each_documents_move(capsys):
    status, out, _ = cli(capsys, QRELS, RUN, RUN_B, "-m", "nDCG@10", "--explain", "103")
    assert status == 0 and "Why query 103 changed, run B against run A:" in out
    assert "D1221 (grade 2) rose from 5 to 1: +0.466" in out


def test_explain_a_query_one_run_lacks_says_so_and_the_others_still_explain(capsys):
    status, out, _ = cli(capsys, QRELS, RUN, RUN_B, "-m", "RR", "--explain", "112")  # judged, in neither run
    assert status == 0 and "Query 112 is not judged and answered by both run A and run B" in out


def test_explain_needs_several_runs_and_relevance_at_grade_one(capsys):
    status, _, err = cli(capsys, QRELS, RUN, "--explain", "103")
    assert status == 2 and "--explain needs several runs" in err
    status, _, err = cli(capsys, QRELS, RUN, RUN_B, "--explain", "103", "-l", "2")
    assert status == 2 and "leave out -l" in err


def test_only_the_files_faults_are_reported_as_the_files(capsys, monkeypatch):
    """A reader's error or runs that share no query are the files' fault (one line, exit 1: test_compare.py);
    any other ValueError is this program's fault and is not passed off as a bad file."""
    assert cli(capsys, QRELS, RUN, RUN_B, "-m", "RR")[0] == 0

    def broken(*args, **kwargs):
        raise ValueError("an engine bug")

    monkeypatch.setattr(many_runs, "compare_many", broken)
    with pytest.raises(ValueError, match="an engine bug"):
        main(["eval", str(QRELS), str(RUN), str(RUN_B), "-m", "RR"])


def test_diagnose_with_several_runs_diagnoses_each_and_says_how_they_differ(capsys):
    """Each run's diagnosis, the baseline's first, then each run's contrasts with the baseline's: B's top 10 is
    judged more deeply than A's (the engine's Judged@10 over the queries each answers)."""
    from components.engine import metrics

    status, out, _ = cli(capsys, QRELS, RUN, RUN_B, "-m", "RR", "--diagnose")
    assert status == 0
    assert out.index(f"A: {RUN}\ndiagnosis at k = 10") < out.index(f"B: {RUN_B}\ndiagnosis at k = 10")
    qrels = read_qrels(QRELS)
    judged = {name: float(metrics.judged_at_k(model.judge(qrels, read_run(path)).queries, 10).mean())
              for name, path in (("A", RUN), ("B", RUN_B))}
    assert judged["B"] > judged["A"] + 0.02
    contrasts = out[out.index("each run's diagnosis against A's:"):]
    assert f"B is judged more deeply than A: Judged@10 is {fmt(judged['B'], 'percent')} against " \
           f"{fmt(judged['A'], 'percent')}" in " ".join(contrasts.split())
    status, out, _ = cli(capsys, QRELS, RUN, RUN_B, "-m", "RR", "--diagnose", "--json")
    document = json.loads(out)
    assert list(document["diagnosis"]) == [str(RUN), str(RUN_B)]
    assert [c["check"] for c in document["diagnosis_contrasts"][str(RUN_B)]] == ["ties", "unjudged"]


def test_report_tables_hold_the_engines_means_and_mark_the_significant_differences(capsys):
    """--format markdown and latex: a row per run (the baseline first), the engine's means to 3 decimals, the
    dagger exactly where the corrected randomisation p is below 0.05, and the notes naming the test and the
    correction. --format json with several runs is JSON."""
    result = many_runs.compare_many([load_trec(QRELS.read_bytes(), p.read_bytes()) for p in (RUN, RUN_B)],
                                    [str(RUN), str(RUN_B)], ["RR", "nDCG@10"], "linear", 0, "holm")
    status, out, _ = cli(capsys, QRELS, RUN, RUN_B, "-m", "RR", "-m", "nDCG@10", "--format", "markdown")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "| run | RR | nDCG@10 |" and lines[2].startswith(f"| {RUN} (baseline) |")
    b_row = [cell.strip() for cell in lines[3].strip("|").split("|")]
    expected = [fmt(result.runs[1].mean[m]) + ("†" if result.versus[str(RUN_B), m].significant else "")
                for m in ("RR", "nDCG@10")]
    assert b_row == [str(RUN_B), *expected] and any(c.endswith("†") for c in b_row)  # nDCG@10 survives Holm
    assert "Holm's correction across 2 comparisons" in out
    status, out, _ = cli(capsys, QRELS, RUN, RUN_B, "-m", "RR", "-m", "nDCG@10", "--format", "latex")
    assert status == 0 and out.startswith("\\begin{tabular}{lrr}") and "$^{\\dagger}$" in out
    assert "sample\\_run\\_b.txt" in out and out.rstrip().endswith("\\end{tabular}")
    status, out, _ = cli(capsys, QRELS, RUN, RUN_B, "-m", "RR", "--format", "json")
    assert status == 0 and json.loads(out)["baseline"] == str(RUN)
    status, _, err = cli(capsys, QRELS, RUN, RUN_B, "-m", "RR", "--format", "latex", "-q")
    assert status == 2 and "--format latex writes a table of the means only: leave out -q" in err
