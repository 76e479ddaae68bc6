"""AppTest: comparing two runs on the "Your data" page with the bundled samples."""
from pathlib import Path

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
