"""The measure pickers of "Your data" and "Compare runs", derived from the measure registry."""
from __future__ import annotations

import pytest

from components.course import measure_choices
from components.engine import attribution
from components.engine.measures import cutoff_kind, parse_measure


def test_the_your_data_picker_offers_its_choices_in_its_order():
    assert measure_choices.CHOICES == {
        "R": "R@k", "Success": "Success@k", "P": "P@k", "RR": "RR", "RR@k": "RR@k", "AP": "AP", "AP@k": "AP@k",
        "GMAP": "GMAP", "R-prec": "R-prec", "nDCG": "nDCG@k", "nDCG-all": "nDCG", "DCG": "DCG@k", "bpref": "bpref",
        "Judged": "Judged@k"}
    assert list(measure_choices.CHOICES)[:4] == ["R", "Success", "P", "RR"]


def test_the_defaults_are_offered():
    assert set(measure_choices.DEFAULT_CHOICES) <= set(measure_choices.CHOICES)
    assert set(measure_choices.COMPARE_DEFAULTS) <= set(measure_choices.COMPARE_CHOICES)


def test_compare_runs_offers_each_explainable_familys_first_form():
    assert measure_choices.COMPARE_CHOICES == ("R", "Success", "P", "RR", "AP", "nDCG", "DCG")
    for key in measure_choices.COMPARE_CHOICES:
        assert attribution.supports(measure_choices.measure_names([key], 10)[0])


@pytest.mark.parametrize("key", list(measure_choices.CHOICES))
def test_every_choice_is_a_measure_and_names_k_only_where_its_family_takes_one(key):
    name = measure_choices.measure_names([key], 7)[0]
    family = parse_measure(name).family
    assert name.endswith("@7") == measure_choices.CHOICES[key].endswith("@k")
    assert cutoff_kind(family) in (("required", "optional") if name.endswith("@7") else ("optional", "none"))


def test_chosen_keys_come_back_in_the_pickers_order():
    assert measure_choices.in_order(["nDCG", "R", "AP@k"]) == ["R", "AP@k", "nDCG"]
    assert measure_choices.in_order(["nDCG", "R"], measure_choices.COMPARE_CHOICES) == ["R", "nDCG"]


def test_labels_name_the_gain_next_to_dcg_and_the_mean_of_rr_and_ap():
    assert measure_choices.shown_name("nDCG@10", "exponential") == "nDCG@10 (exponential gain)"
    assert measure_choices.shown_name("RR", "linear") == "RR"
    assert [measure_choices.mean_name(n, "linear") for n in ("RR@10", "AP", "GMAP", "DCG@5")] == \
        ["MRR@10", "MAP", "GMAP", "DCG@5 (linear gain)"]
