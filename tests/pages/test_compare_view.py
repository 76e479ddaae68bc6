"""AppTest: comparing two runs on the "Your data" page with the bundled samples."""
import json
from pathlib import Path

from components.course import prose
from components.engine import compare
from components.engine.formatting import signed
from components.ui import state
from tests.pages.helpers import open_page

PAGE = "lessons/your_data.py"
ASSETS = Path(__file__).resolve().parents[2] / "assets"


def test_the_sample_second_run_gives_the_shared_comparison():
    at = open_page(PAGE)
    at.button(key=state.YOUR_DATA_SAMPLES).click().run()
    at.button(key=state.YOUR_DATA_SAMPLE_B).click().run()
    assert not at.exception
    measure = at.segmented_control(key=state.YOUR_DATA_COMPARE_MEASURE).value
    expected = compare.compare_files(ASSETS / "sample_qrels.txt", ASSETS / "sample_run.txt",
                                     ASSETS / "sample_run_b.txt", [measure], gain="linear").measures[measure]
    cards = {m.label: m.value for m in at.metric}
    assert cards["B − A (mean)"] == signed(expected.mean_diff)
    assert cards["Improved / hurt / tied"] == f"{expected.improved} / {expected.hurt} / {expected.tied}"
    assert cards["Paired t-test p"] == compare.format_p(expected.t_test_p)
    assert cards["Randomisation p"] == compare.format_p(expected.randomisation_p)
    assert at.info, "a plain-language reading of the p-value"


def test_a_bad_second_run_shows_its_message_and_keeps_the_first():
    at = open_page(PAGE)
    at.button(key=state.YOUR_DATA_SAMPLES).click().run()
    at.session_state[state.YOUR_DATA_RUN_B] = {"name": "broken.txt", "data": b"q1 Q0 d1 1 notanumber run\n",
                                               "sha256": "x" * 64}
    at.run()
    assert not at.exception
    assert any("broken.txt" in c.value and "line 1" in c.value for c in at.code)
    assert any(m.label.startswith("R@") or m.label.startswith("nDCG") for m in at.metric)  # run A still shown


def test_the_comparison_chart_tells_wins_from_losses_by_shape_and_says_how():
    at = open_page(PAGE)
    at.button(key=state.YOUR_DATA_SAMPLES).click().run()
    at.button(key=state.YOUR_DATA_SAMPLE_B).click().run()
    assert not at.exception
    [chart] = [element.proto for element in at.get("vega_lite_chart") if element.proto.alt.startswith("Per-query difference")]
    layers = json.loads(chart.spec)["layer"]
    shapes = {}  # the shape each drawn query gets, by its outcome
    for layer in (layer for layer in layers if "shape" in layer["encoding"]):
        scale = layer["encoding"]["shape"]["scale"]
        shape_of = dict(zip(scale["domain"], scale["range"]))
        shapes.update({row["outcome"]: shape_of[row["outcome"]] for row in layer["data"]["values"]})
    assert shapes == {"B better": "triangle-up", "tied": "circle", "B worse": "triangle-down"}  # the samples have all
    key = prose.section("compare", "Chart key")
    assert "▲" in key and "▼" in key and key in [m.value for m in at.markdown]
    assert chart.alt in [c.value for c in at.caption], "the text alternative stays on screen"
