"""Chart builders: the spec carries the data, fonts follow the scale, the text alternative states the values,
and the Altair part of a chart is built once per shape, whatever its data."""
import copy
import json
import math

import altair as alt
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components.engine.formatting import signed
from components.ui import charts


def test_metric_by_k_text_and_scale():
    figure = charts.metric_by_k([1, 2, 3], {"A": [0.1, 0.2, 0.4], "B": [0.0, 0.5, 0.5]}, metric="Recall@k",
                                current_k=2, scale=1.5)
    spec = figure.spec()
    assert spec["config"]["axis"]["labelFontSize"] == round(charts.BASE_FONT * 1.5)
    assert "A: 0.100 at k=1, 0.200 from k=2, 0.400 from k=3, and 0.400 at k=3." in figure.alt_text
    assert "At the current cutoff k = 2: A: 0.200; B: 0.500." in figure.alt_text
    rule = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "rule")
    assert rule["data"] == {"values": [{"k": 2}]}


def test_metric_by_k_validation():
    with pytest.raises(ValueError):
        charts.metric_by_k([1, 2], {"A": [0.1]}, metric="R", current_k=1)
    with pytest.raises(ValueError, match="scale must be positive"):
        charts.share_bars({"a": 0.5}, {"a": "50%"}, scale=0)


def test_share_bars_labels_and_undefined():
    figure = charts.share_bars({"precision": float("nan"), "recall": 0.1}, {"precision": "undefined", "recall": "0.100"})
    assert figure.alt_text == "precision: undefined; recall: 0.100."
    assert [row["value"] for row in figure.rows["bars"]] == [0.0, 0.1]
    with pytest.raises(ValueError, match="one label per value"):
        charts.share_bars({"a": 0.5}, {})


EXAMPLES = {
    "metric_by_k": lambda: charts.metric_by_k([1, 2, 3], {"A": [0.1, 0.2, 0.4]}, metric="R@k", current_k=2),
    "share_bars": lambda: charts.share_bars({"a": 0.5}, {"a": "0.500"}),
    "reciprocal_rank_curve": lambda: charts.reciprocal_rank_curve(10, {"q1": 2, "q2": None}),
    "reciprocal_rank_curve, no hit": lambda: charts.reciprocal_rank_curve(10, {"q1": None}),
    "discounted_gain_by_position": lambda: charts.discounted_gain_by_position([3.0, 0.63], [3.0, 1.89]),
    "per_query_distribution": lambda: charts.per_query_distribution([0.0, 0.5, 1.0], metric="RR"),
    "win_loss_bars": lambda: charts.win_loss_bars(["a", "b", "c"], [0.5, 0.0, -0.5], metric="RR"),
}


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_spec_is_valid_vega_lite_with_its_rows_inline(name):
    figure = EXAMPLES[name]()
    spec = figure.spec()
    alt.LayerChart.from_dict(spec, validate=True)  # the Vega-Lite schema Altair ships
    views = [spec, *spec["layer"]]
    assert all("name" not in view.get("data", {}) for view in views), "no dataset left for Streamlit to look up"
    inline = [view["data"]["values"] for view in views if "data" in view]
    assert all(any(rows is values for values in figure.rows.values()) for rows in inline)
    assert "continuousWidth" not in spec["config"]["view"]


def test_the_template_is_shared_and_never_changed_by_a_spec():
    first = charts.metric_by_k([1, 2, 3], {"A": [0.1, 0.2, 0.4]}, metric="R@k", current_k=1)
    second = charts.metric_by_k([1, 2, 3], {"A": [0.3, 0.3, 0.9]}, metric="R@k", current_k=3)
    assert first.template is second.template, "the same shape: one Altair chart, built once"
    spec = first.spec()
    spec["layer"][0]["mark"]["type"] = "bar"
    assert second.spec()["layer"][0]["mark"]["type"] == "line"
    assert all("values" not in view.get("data", {}) for view in [first.template, *first.template["layer"]])
    other = charts.metric_by_k([1, 2, 3], {"A": [0.1, 0.2, 0.4]}, metric="R@k", current_k=1, scale=1.5)
    assert other.template is not first.template, "another shape (projector fonts): another template"


@given(st.lists(st.floats(0, 1), min_size=1, max_size=30), st.integers(1, 30))
def test_a_drag_changes_only_the_rows(values, k):
    ks = list(range(1, len(values) + 1))
    figure = charts.metric_by_k(ks, {"current order": values}, metric="Recall@k", current_k=min(k, len(ks)))
    points = figure.rows["points"]
    assert [row["value"] for row in points] == [float(v) for v in values]
    assert all(math.isclose(row["value"], float(v)) for row, v in zip(points, values))
    assert figure.template is charts.metric_by_k(ks, {"current order": [0.0] * len(ks)}, metric="Recall@k",
                                                 current_k=1).template


MOVES = {  # an editor page's chart before and after a drop that changes its order, not its cutoff
    "metric_by_k": (lambda v: charts.metric_by_k([1, 2, 3], {"current order": v}, metric="R@k", current_k=2)),
    "reciprocal_rank_curve": (lambda v: charts.reciprocal_rank_curve(10, {"q": round(1 / v[0])})),
    "discounted_gain_by_position": (lambda v: charts.discounted_gain_by_position(v, [1.0, 0.6, 0.5])),
}


@pytest.mark.parametrize("name", MOVES)
def test_a_drop_sends_the_same_spec_and_new_rows_beside_it(name):
    before, after = MOVES[name]([1.0, 0.5, 0.5]), MOVES[name]([0.25, 0.5, 1.0])
    (rows_before, spec_before, alt_before), (rows_after, spec_after, alt_after) = before.sent(), after.sent()
    assert (spec_before, alt_before) == (spec_after, alt_after), "the drawn chart is kept and takes the new rows"
    assert before.alt_text != after.alt_text and alt_after == after.label, "the values in words change, under it"
    assert rows_before != rows_after
    whole = {**spec_after, "data": {"values": rows_after}}
    alt.LayerChart.from_dict(whole, validate=True)
    assert whole["layer"] != after.spec()["layer"] and all("name" not in view.get("data", {}) for view in whole["layer"])


def test_queries_whose_first_hit_shares_a_position_share_one_label():
    figure = charts.reciprocal_rank_curve(10, {"query 1": 2, "query 2": 2, "query 3": 5, "query 4": None})
    assert [(m["query"], m["label"], m["tip"]) for m in figure.rows["marks"]] == [
        ("query 1", "query 1, query 2: 0.500", "query 1: 0.500"), ("query 2", "", "query 2: 0.500"),
        ("query 3", "query 3: 0.200", "query 3: 0.200")]


def test_comparisons_of_other_queries_share_one_template():
    first = charts.win_loss_bars(["a", "b", "c"], [0.5, 0.0, -0.5], metric="RR")
    same_scale = charts.win_loss_bars(["x", "y", "z"], [-0.5, 0.25, 0.0], metric="RR")
    assert same_scale.template is first.template, "the query order lives in the rows, not in the template"
    assert [row["query"] for row in same_scale.rows["bars"]] == ["y", "x"]


# ----------------------------------------------------------------------------
# The win/loss chart: wins and losses apart without colour, and for colour-blind eyes
# ----------------------------------------------------------------------------

def test_wins_and_losses_differ_by_shape_as_well_as_colour():
    figure = charts.win_loss_bars(["w1", "w2", "t", "l"], [0.5, 0.25, 0.0, -0.25], metric="RR")
    spec = figure.spec()
    shaped = [layer for layer in spec["layer"] if "shape" in layer["encoding"]]
    assert shaped, "a layer draws a shape per outcome"
    for layer in shaped:
        scale = layer["encoding"]["shape"]["scale"]
        shapes = dict(zip(scale["domain"], scale["range"]))
        assert shapes == {"B better": "triangle-up", "tied": "circle", "B worse": "triangle-down"}
        assert layer["encoding"]["shape"]["legend"] is not None, "the legend shows the shapes too"
    tips = next(layer for layer in shaped if layer["data"]["values"] == figure.rows["bars"])
    assert [row["outcome"] for row in tips["data"]["values"]] == ["B better", "B better", "B worse"]  # every bar
    offset = tips["mark"]["yOffset"]["expr"]  # each tip just past its bar's end: up for a win, down for a loss
    assert offset.startswith("datum.diff > 0 ? -") and not offset.split(":")[-1].strip().startswith("-")
    assert figure.alt_text.startswith("Per-query difference in RR"), "the text alternative stays"


SIMULATIONS = {  # Machado, Oliveira and Fernandes (2009), severity 1, on linear RGB
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
    "typical vision": np.eye(3).tolist(),
}


def linear_rgb(colour: str) -> np.ndarray:
    c = np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)]) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def cie_lab(rgb: np.ndarray) -> np.ndarray:
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ np.clip(rgb, 0, 1)
    t = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


@pytest.mark.parametrize("vision", SIMULATIONS)
def test_win_and_loss_colours_stay_far_apart_under_each_colour_blindness(vision):
    matrix = np.array(SIMULATIONS[vision])
    win, loss = (cie_lab(matrix @ linear_rgb(colour)) for colour in (charts.WIN, charts.LOSS))
    assert np.linalg.norm(win - loss) > 60  # CIE76 ΔE; green against red was 18 for deuteranopia


@pytest.mark.parametrize("colour", [charts.WIN, charts.LOSS])
def test_win_and_loss_colours_stand_out_from_the_white_background(colour):
    luminance = float(np.array([0.2126, 0.7152, 0.0722]) @ linear_rgb(colour))
    assert (1.05 / (luminance + 0.05)) >= 3  # WCAG's contrast for shapes in a chart


# ----------------------------------------------------------------------------
# Charts of many queries: the rows stay bounded, the words count every query
# ----------------------------------------------------------------------------

def many_differences(n: int = 200_000, seed: int = 9):
    """n differences: about 30 % wins, 45 % ties, 25 % losses, as the scores of a 200,000-query comparison."""
    rng = np.random.default_rng(seed)
    d = np.round(rng.uniform(0, 1, n), 3) * rng.choice([1.0, 0.0, -1.0], size=n, p=[0.3, 0.45, 0.25])
    d[d == 0] = 0.0
    return tuple(f"q{i}" for i in range(n)), d


def chart_rows(spec: dict) -> list[dict]:
    return [row for layer in spec["layer"][:2] for row in layer["data"]["values"]]  # bars and ties


def test_a_200000_query_comparison_draws_at_most_max_bars_places_and_says_so():
    qids, d = many_differences()
    figure = charts.win_loss_bars(qids, d, metric="RR")
    spec = figure.spec()
    rows = chart_rows(spec)
    assert len(rows) <= charts.MAX_BARS and figure.sample == charts.Sample(len(rows), 200_000)
    assert len(json.dumps(spec)) < 500_000
    wins, losses = int((d > 0).sum()), int((d < 0).sum())
    best, worst = int(np.flatnonzero(d == d.max())[0]), int(np.flatnonzero(d == d.min())[-1])  # the sort's ends
    assert figure.alt_text == (
        f"Per-query difference in RR, run B minus run A, over 200,000 queries, sorted from largest win to largest "
        f"loss, showing {len(rows):,} of 200,000 queries, evenly spaced along the sorted list: B better on "
        f"{wins:,}, worse on {losses:,}, tied on {200_000 - wins - losses:,}. Largest win: query q{best}, "
        f"+{d[best]:.3f}. Largest loss: query q{worst}, −{-d[worst]:.3f}. "
        f"Mean difference {signed(float(d.mean()))}.")
    x_title = spec["layer"][0]["encoding"]["x"]["title"]
    assert x_title == "queries (evenly spaced along the sorted list), from largest win to largest loss"


def test_the_sampled_bars_are_the_sorted_list_at_evenly_spaced_places():
    qids, d = many_differences()
    rows = sorted(chart_rows(charts.win_loss_bars(qids, d, metric="RR").spec()), key=lambda row: row["place"])
    ordered = np.sort(d)[::-1]
    places = [row["place"] for row in rows]
    assert [row["diff"] for row in rows] == ordered[places].tolist()  # each bar: the difference at its place
    assert [int(row["query"][1:]) for row in rows] == np.argsort(-d, kind="stable")[places].tolist()
    wins, ties = int((d > 0).sum()), int((d == 0).sum())
    ends = {0, wins - 1, wins, wins + ties - 1, wins + ties, d.size - 1}  # every run's first and last query
    assert ends <= set(places)
    spacing = (d.size - 1) / (charts.MAX_BARS - len(ends) + 1)
    assert max(np.diff(places)) <= spacing + 1
    for outcome, count in (("B better", wins), ("tied", ties), ("B worse", d.size - wins - ties)):
        share = sum(row["outcome"] == outcome for row in rows) / len(rows)
        assert share == pytest.approx(count / d.size, abs=0.005)  # each run keeps its share of the bars


def test_a_lone_tie_or_loss_among_many_wins_is_still_drawn():
    d = np.r_[np.linspace(1, 0.001, 9_998), 0.0, -0.5]
    figure = charts.win_loss_bars([f"q{i}" for i in range(d.size)], d, metric="RR")
    assert [row["query"] for row in figure.rows["ties"]] == ["q9998"]
    assert figure.rows["bars"][-1]["query"] == "q9999" and "tied on 1." in figure.alt_text


def test_every_comparison_with_many_queries_shares_one_template():
    first = charts.win_loss_bars(*many_differences(150_000, seed=1), metric="RR")
    second = charts.win_loss_bars(*many_differences(200_000, seed=2), metric="RR")
    assert first.template is second.template  # the sample's size is in the rows and the words only
    alt.LayerChart.from_dict(copy.deepcopy(dict(first.template)), validate=True)  # its own axis title: still valid
    few = charts.win_loss_bars(*many_differences(charts.MAX_BARS), metric="RR")
    assert few.sample is None and len(chart_rows(few.spec())) == charts.MAX_BARS  # up to MAX_BARS: every query
    assert "showing" not in few.alt_text


@settings(max_examples=30)  # each new bin height builds a template (60 ms)
@given(st.lists(st.one_of(st.just(0.0), st.floats(0, 1), st.integers(1, 12).map(lambda r: 1 / r),
                          st.tuples(st.integers(0, 10), st.integers(1, 10)).map(lambda f: min(f[0] / f[1], 1.0))),
                min_size=1, max_size=60), st.integers(1, 12))
def test_the_distribution_counts_each_value_in_its_bin(values, bins):
    figure = charts.per_query_distribution(values, metric="RR", bins=bins)
    width = max(1.0, max(values)) / bins
    expected = [0] * bins
    for v in (v for v in values if v != 0):
        expected[min(max(math.ceil(round(v / width, 9)) - 1, 0), bins - 1)] += 1  # (a, b], rounding noise aside
    rows = figure.rows["bins"]
    assert [row["count"] for row in rows] == [sum(v == 0 for v in values), *expected]
    assert figure.rows["mean"][0]["x"] == pytest.approx(sum(values) / len(values), abs=1e-12)
    ordered = sorted(values)
    assert f"median {charts.fmt((ordered[(len(values) - 1) // 2] + ordered[len(values) // 2]) / 2)}." in figure.alt_text


def test_the_distribution_and_the_curves_of_200000_queries_stay_small():
    values = np.random.default_rng(3).uniform(size=200_000) * (np.arange(200_000) % 3 > 0)
    figure = charts.per_query_distribution(values, metric="nDCG@10")
    spec = figure.spec()
    assert sum(len(layer["data"]["values"]) for layer in spec["layer"]) <= 2 * 11 + 2  # bins, labels, mean
    assert len(json.dumps(spec)) < 20_000
    assert figure.rows["bins"][0]["count"] == int((values == 0).sum())
    ks = list(range(1, 101))
    curves = charts.metric_by_k(ks, {"mean Recall@k": [0.5] * 100, "hit rate@k": [0.7] * 100},
                                metric="mean over queries", current_k=10)
    assert len(curves.rows["points"]) == 200  # one row per k and series, whatever the number of queries


@pytest.mark.parametrize("bad", [1e308, -1e308, math.inf, -math.inf, math.nan])
def test_a_class_guess_that_is_no_finite_number_never_reaches_the_chart(bad):
    with pytest.raises(ValueError, match="finite guesses only"):
        charts.class_guesses([0.4, bad], label="Recall@5", value=0.4, slips=[])


def test_the_class_guesses_chart_is_valid_json_for_guesses_across_the_range():
    figure = charts.class_guesses([0.0, 0.4, 1.0], label="Recall@5", value=0.4, slips=[("P@5", 0.8)])
    json.dumps(figure.rows, allow_nan=False)  # Infinity or NaN would be refused here, as the browser does


CROWDED_GUESSES = [  # (guesses, value, slips): a class reveal's guesses that crowd one spot or spread over the axis
    ([0.4] * 5 + [0.41] * 3 + [0.39] * 2 + [0.42, 0.38, 0.8, 0.8, 0.45], 0.4, [("P@5", 0.8), ("hit rate@5", 1.0)]),
    ([i / 36 for i in range(37)] + [0.4, 0.4], 0.4, [("P@5", 0.8)]),  # many distinct values
    ([0.355] * 4 + [0.36, 0.35, 0.4, 0.4, 0.33, 0.33, 0.34, 0.0], 0.355, [("AP/found", 0.4), ("RR", 0.333)]),
    ([0.53, 0.53, 0.52, 0.54, 0.6, 6.39, 6.4, 0.61, 3.39], 0.53, [("P@5", 0.6), ("DCG@5", 6.39)]),
]


@pytest.mark.parametrize("scale", [1.0, 1.5])
@pytest.mark.parametrize("guesses, value, slips", CROWDED_GUESSES)
def test_the_class_guesses_bars_stand_a_slot_apart_so_no_bar_or_count_overlaps_another(guesses, value, slips, scale):
    """Before: one bar per hundredth, 12 px wide, so 0.39, 0.40 and 0.41 (4 px apart in a lesson's column) drew one
    block with their counts printed over each other ("111"). Now crowded guesses are counted in wider bins, one
    centred on the value, at least a slot of the axis apart; every guess is still counted."""
    figure = charts.class_guesses(guesses, label="Recall@5", value=value, slips=slips, scale=scale)
    spec = figure.spec()
    low, top = spec["layer"][0]["encoding"]["x"]["scale"]["domain"]
    xs = [row["x"] for row in figure.rows["bars"]]
    assert min(b - a for a, b in zip(xs, xs[1:])) >= (top - low) * scale / charts.GUESS_SLOTS - 1e-9
    assert low <= min(xs) and max(xs) <= top, "every bar on the axis"
    assert sum(row["count"] for row in figure.rows["bars"]) == len(guesses)
    assert value in xs, "the right guesses stand on the value's rule"
    assert all(f"{x:.2f}" in figure.alt_text for x in {round(g, 2) for g in guesses}), "the words keep each hundredth"


@pytest.mark.parametrize("guesses, value, slips", CROWDED_GUESSES)
def test_the_class_guesses_words_stand_above_the_bars_with_a_halo_over_the_rules(guesses, value, slips):
    """The value's and the slips' labels take a row each at the top; the tallest bar and its count stand below
    them. Every word (counts, labels) is drawn over a halo of the page's background, so a rule crossing it does
    not strike it through."""
    figure = charts.class_guesses(guesses, label="Recall@5", value=value, slips=slips)
    spec = figure.spec()
    y_top = spec["layer"][0]["encoding"]["y"]["scale"]["domain"][1]
    plot = spec["height"] - charts.GUESS_AXIS
    tallest = max(row["count"] for row in figure.rows["bars"])
    label_rows = max(mark["offset"] for mark in figure.rows["slips"]) + charts.GUESS_ROW  # the last row's foot
    assert (1 - tallest / y_top) * plot >= label_rows + charts.GUESS_ROW - 1e-6, "the rows, then a count, then bars"
    texts = [layer["mark"] for layer in spec["layer"] if layer["mark"]["type"] == "text"]
    halos = [mark for mark in texts if mark.get("stroke") == charts.HALO]
    assert len(halos) * 2 == len(texts), "each text layer drawn over its halo"


def test_the_chart_of_differences_gives_each_row_its_own_band_and_its_title_and_legend_short_lines():
    """Sized to its rows (a fixed height crowded eight rows' labels into 150 px at 1366×768), and the axis title
    and the legend in lines short enough for the chart's column at 1024 px with the sidebar open (they were cut at
    its right edge: "the thin one: boots", "significant after the correc")."""
    from components.ui import comparison_charts

    rows = [{"run": run, "measure": m, "diff": 0.1, "t_low": 0.0, "t_high": 0.2, "boot_low": 0.0, "boot_high": 0.2,
             "significant": False} for run in "BC" for m in ("R@10", "RR", "AP", "nDCG@10")]
    spec = comparison_charts.difference_intervals(rows, baseline="A", scale=1.5).spec()
    assert spec["height"] == {"step": round(comparison_charts.ROW_STEP * 1.5)}
    titles = [layer["encoding"]["x"].get("title") for layer in spec["layer"] if "title" in layer["encoding"].get("x", {})]
    assert titles and all(isinstance(t, list) and len(t) == 3 and max(map(len, t)) <= 30 for t in titles)
    marks = {row["mark"] for row in comparison_charts.difference_intervals(
        [{**rows[0], "significant": True}, rows[1]], baseline="A").rows["rows"]}
    assert len(marks) == 2 and max(map(len, marks)) <= 24  # the legend's labels
