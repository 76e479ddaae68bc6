"""Holm, Bonferroni and Benjamini–Hochberg against statsmodels' multipletests, and their defining properties."""
from __future__ import annotations

import gc
from unittest import mock

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from statsmodels.stats.multitest import multipletests

from components.engine import corrections

P_VALUES = st.lists(st.floats(0, 1), min_size=1, max_size=40)
STATSMODELS = {"holm": "holm", "bonferroni": "bonferroni", "bh": "fdr_bh"}


@given(P_VALUES, st.sampled_from(corrections.CORRECTIONS))
def test_each_correction_agrees_with_statsmodels(p, method):
    # statsmodels' Holm ends with gc.collect(): a full collection of the worker's heap, 0.1 to 0.4 s each late in the
    # suite (7 to 10 s for this test); the oracle's numbers do not depend on it.
    with mock.patch.object(gc, "collect", lambda *args: 0):
        expected = multipletests(p, method=STATSMODELS[method])[1]
    np.testing.assert_allclose(corrections.adjust(p, method), expected, rtol=1e-12, atol=1e-15)


@given(P_VALUES, st.sampled_from(corrections.CORRECTIONS))
def test_a_corrected_p_is_never_below_the_raw_one_nor_above_one(p, method):
    adjusted = corrections.adjust(p, method)
    assert np.all(adjusted >= np.asarray(p) - 1e-15) and np.all(adjusted <= 1)


@given(P_VALUES, st.sampled_from(corrections.CORRECTIONS))
def test_the_order_of_the_p_values_is_kept(p, method):
    adjusted = corrections.adjust(p, method)
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(adjusted[order]) >= -1e-15)


@given(P_VALUES)
def test_holm_is_never_more_conservative_than_bonferroni_nor_bh_than_holm(p):
    holm, bonferroni, bh = (corrections.adjust(p, m) for m in ("holm", "bonferroni", "bh"))
    assert np.all(holm <= bonferroni + 1e-15) and np.all(bh <= holm + 1e-15)


def test_a_hand_worked_family_of_four():
    # sorted: 0.005 (×4 = 0.02), 0.01 (×3 = 0.03), 0.02 (×2 = 0.04), 0.04 (×1 = 0.04)
    assert corrections.adjust([0.04, 0.005, 0.02, 0.01], "holm").tolist() == pytest.approx([0.04, 0.02, 0.04, 0.03])
    # BH: 0.04·4/4 = 0.04, 0.02·4/3 = 0.0267, 0.01·4/2 = 0.02, 0.005·4/1 = 0.02
    assert corrections.adjust([0.04, 0.005, 0.02, 0.01], "bh").tolist() == pytest.approx([0.04, 0.02, 0.08 / 3, 0.02])


def test_one_test_is_left_as_it_is_and_none_gives_none():
    for method in corrections.CORRECTIONS:
        assert corrections.adjust([0.03], method).tolist() == [0.03]
        assert corrections.adjust([], method).tolist() == []


@pytest.mark.parametrize("bad", [[1.5], [-0.1], [float("nan")], [[0.1]]])
def test_values_that_are_not_p_values_are_refused(bad):
    with pytest.raises(ValueError, match="between 0 and 1"):
        corrections.adjust(bad)


def test_an_unknown_method_is_named():
    with pytest.raises(ValueError, match="unknown correction 'sidak'"):
        corrections.adjust([0.1], "sidak")  # type: ignore[arg-type]
