"""The measure registry: the field's names and trec_eval's, cutoffs, trec_eval's names and set-level values."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from components.engine import measures
from components.engine import metrics as m

pytrec_eval = pytest.importorskip("pytrec_eval", reason="pytrec-eval-terrier is the test oracle")

CANONICAL = ["R@5", "Success@5", "P@5", "RR", "RR@5", "nDCG@5", "nDCG", "DCG@5", "IDCG@5", "AP", "AP@5", "GMAP",
             "R-prec", "Rprec_mult@0.2", "bpref", "gm_bpref", "infAP", "IPrec@0.5", "11pt_avg", "Judged@5", "num_ret",
             "num_rel", "num_rel_ret", "num_q"]


@pytest.mark.parametrize("typed, canonical", [
    ("map", "AP"), ("MAP", "AP"), ("ap", "AP"), ("map_cut_10", "AP@10"), ("AP@10", "AP@10"), ("map@10", "AP@10"),
    ("gm_map", "GMAP"), ("GMAP", "GMAP"), ("Rprec", "R-prec"), ("r-prec", "R-prec"), ("BPREF", "bpref"),
    ("ndcg", "nDCG"), ("nDCG", "nDCG"), ("ndcg_cut_10", "nDCG@10"), ("judged@10", "Judged@10"),
    ("num_ret", "num_ret"), ("NumRelRet", "num_rel_ret"), ("NUM_Q", "num_q"), ("num_rel", "num_rel"),
    ("P_5", "P@5"), ("recall_10", "R@10"), ("success_1", "Success@1"), ("recip_rank", "RR"), (" mrr@10 ", "RR@10"),
    ("iprec_at_recall_0.10", "IPrec@0.1"), ("IPrec@0.5", "IPrec@0.5"), ("iprec@1", "IPrec@1"), ("IPREC@0", "IPrec@0"),
    ("Rprec_mult_0.20", "Rprec_mult@0.2"), ("rprec_mult@2", "Rprec_mult@2"), ("Rprec_mult_1.00", "Rprec_mult@1"),
    ("infAP", "infAP"), ("INFAP", "infAP"), ("gm_bpref", "gm_bpref"), ("11pt_avg", "11pt_avg"),
    ("11-pt_avg", "11pt_avg"), ("11PT_AVG", "11pt_avg"),
])
def test_the_field_s_names_and_trec_eval_s_are_read(typed, canonical):
    assert measures.parse_measure(typed).name == canonical


@pytest.mark.parametrize("typed, message", [
    ("P", "needs a cutoff k, as in P@10"),
    ("Judged", "needs a cutoff k, as in Judged@10"),
    ("map_cut", "needs a cutoff k, as in AP@10"),
    ("ndcg_cut", "needs a cutoff k, as in nDCG@10"),
    ("bpref@10", "takes no cutoff: write bpref"),
    ("num_ret_5", "takes no cutoff: write num_ret"),
    ("Rprec@3", "takes no cutoff: write R-prec"),
    ("AP@0", "has cutoff 0"),
    ("P@2.5", "has cutoff 2.5, but k counts positions"),
    ("IPrec@1.5", "recall level 1.5, but a recall level lies between 0 and 1"),
    ("IPrec", "needs a cutoff k, as in IPrec@0.5"),
    ("ERR@10", "unknown measure"),
    ("map cut 10", "unknown measure"),
    ("Rprec_mult", "needs a multiple m of R, as in Rprec_mult@0.2"),
    ("Rprec_mult@0", "has multiple 0, but m is a multiple of R above 0 and at most 1000"),
    ("Rprec_mult_1000.5", "has multiple 1000.5"),
    ("infAP@10", "takes no cutoff: write infAP"),
    ("gm_bpref_5", "takes no cutoff: write gm_bpref"),
    ("11pt_avg@0.5", "takes no cutoff: write 11pt_avg"),
    ("12pt_avg", "unknown measure"),
])
def test_bad_names_say_what_is_wrong_and_list_the_valid_forms(typed, message):
    with pytest.raises(ValueError, match=message) as error:
        measures.parse_measure(typed)
    assert "R@k, Success@k, P@k, RR, RR@k, nDCG@k, DCG@k" in str(error.value)
    assert "AP, AP@k, GMAP, R-prec, bpref, IPrec@x (a recall level x from 0 to 1), Judged@k" in str(error.value)


@pytest.mark.parametrize("name", CANONICAL)
def test_a_trec_eval_name_reads_back_as_the_same_measure(name):
    trec = measures.trec_name(name)
    if trec is None:
        assert name in ("RR@5", "DCG@5", "IDCG@5", "Judged@5")
        return
    assert measures.parse_measure(trec).name == name
    family = trec.rsplit("_", 1)[0] if trec[-1].isdigit() else trec
    assert measures.parse_measures([f"{family}.{trec.rsplit('_', 1)[1]}"] if family != trec else [trec])[0].name == name
    assert family in pytrec_eval.supported_measures  # a name trec_eval (inside pytrec_eval) really has


def test_every_canonical_name_is_in_the_valid_forms_and_evaluates():
    qs = m.from_rankings([[1, None, 0, 2], []], [[1, 0, 2, 1], [1]])
    values = measures.evaluate(qs, CANONICAL, gain="linear")
    assert list(values) == CANONICAL and all(v.shape == (2,) for v in values.values())


@pytest.mark.parametrize("name, rule", [("AP", "mean"), ("nDCG@10", "mean"), ("bpref", "mean"), ("num_ret", "sum"),
                                        ("num_rel", "sum"), ("num_rel_ret", "sum"), ("num_q", "sum"),
                                        ("GMAP", "geometric mean"), ("gm_bpref", "geometric mean"), ("infAP", "mean"),
                                        ("11pt_avg", "mean"), ("Rprec_mult@2", "mean")])
def test_the_aggregation_rules(name, rule):
    assert measures.aggregation(name) == rule


@given(st.lists(st.floats(min_value=0, max_value=1), max_size=8))
def test_aggregate_is_pytrec_eval_s_for_every_rule(values):
    per_query = np.array(values)
    for name in ("AP", "num_ret", "num_q"):
        expected = pytrec_eval.compute_aggregated_measure(measures.trec_name(name), list(per_query)) if values \
            else (0.0 if measures.aggregation(name) == "sum" else np.nan)
        assert measures.aggregate(name, per_query) == pytest.approx(expected, abs=1e-12, nan_ok=True)
    floored = np.maximum(per_query, m.MIN_GEO_MEAN)
    if values:  # pytrec_eval's per-query GMAP value is the log of ours
        assert measures.aggregate("GMAP", floored) == pytest.approx(
            pytrec_eval.compute_aggregated_measure("gm_map", list(np.log(floored))), rel=1e-12)


def test_num_q_over_the_set_is_the_number_of_queries():
    qs = m.from_rankings([[1], [0], []])
    assert measures.aggregate("num_q", measures.evaluate(qs, ["num_q"], "linear")["num_q"]) == 3.0


def test_trec_evals_measure_sets_hold_its_measures_in_its_order():
    official = [measures.trec_name(m) for m in measures.parse_measures(["official"])]
    assert official[:10] == ["num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
                             "recip_rank", "iprec_at_recall_0.00"]
    assert official[-9:] == [f"P_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]
    every = measures.parse_measures(["all_trec"])
    assert all(measures.trec_name(m) for m in every) and set(official) < {measures.trec_name(m) for m in every}
    assert [m.name for m in measures.trec_order(every)] == [m.name for m in measures.trec_order(reversed(every))]
    # trec_eval's all_trec order: after recall_k come infAP, gm_bpref, Rprec_mult_0.20 .. 2.00 and 11pt_avg
    names = [measures.trec_name(m) for m in measures.trec_order(every)]
    at = names.index("infAP")
    assert names[at - 1] == "recall_1000" and names[at + 1] == "gm_bpref" and names[at + 12] == "11pt_avg"
    assert names[at + 2:at + 12] == [f"Rprec_mult_{x / 5:.2f}" for x in range(1, 11)]


@pytest.mark.parametrize("typed, canonical", [
    ("R@1000000", "R@1000000"), ("P_99999999", "P@99999999"), ("nDCG@9223372036854775807", "nDCG@9223372036854775807"),
    ("RR@000010", "RR@10"), ("IPrec@0.0000000001", "IPrec@0.0000000001"), ("iprec_at_recall_1.0", "IPrec@1"),
])
def test_every_canonical_name_reads_back_as_itself(typed, canonical):
    """A large cutoff or a small level is written in full (not R@1e+06), so the name reads back as the measure."""
    measure = measures.parse_measure(typed)
    assert measure.name == canonical and measures.parse_measure(measure.name) == measure


def test_a_large_cutoff_evaluates_as_the_whole_list():
    qs = m.from_rankings([[1, 0], [0, 1, 1]], [[1, 0], [1, 1, 1]])
    big = measures.evaluate(qs, ["R@1000000", "AP@9223372036854775807", "nDCG@1000000"], "linear")
    whole = measures.evaluate(qs, ["R@3", "AP", "nDCG"], "linear")
    assert [v.tolist() for v in big.values()] == [v.tolist() for v in whole.values()]


VALID_FORMS_START = "valid measures (case-insensitive"


@pytest.mark.parametrize("typed, message", [
    ("R@9223372036854775808", "has cutoff 9223372036854775808, but k counts positions from the top (1, 2, 3, ..., "
                              "at most 9,223,372,036,854,775,807)"),
    ("R@" + "9" * 5000, "has cutoff 999"),  # more digits than int() reads: no "Exceeds the limit" from Python
    ("P.5,10,x", "unknown measure 'P.5,10,x'"),
    ("P.5,2.5", "measure 'P.5,2.5' has cutoff 2.5"),  # trec_eval's form is quoted as typed, not as P_2.5
    ("P.5,0", "measure 'P.5,0' has cutoff 0"),
])
def test_a_cutoff_out_of_range_is_refused_naming_the_measure_as_typed(typed, message):
    with pytest.raises(ValueError) as error:
        measures.parse_measures([typed])
    assert message in str(error.value) and VALID_FORMS_START in str(error.value)

