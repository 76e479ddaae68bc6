"""AppTest: the home page renders the course map through the real navigation."""
from pathlib import Path

from streamlit.testing.v1 import AppTest

from components.ui import registry

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def test_home_renders_with_the_lesson_map():
    at = AppTest.from_file(APP, default_timeout=30).run()
    assert not at.exception
    assert at.title[0].value.startswith("Rankwise")
    shown = " ".join(c.value for c in at.caption)
    for spec in registry.PAGES:
        if spec.in_sequence:
            assert spec.summary in shown
    assert any("trec_eval" in i.value for i in at.info)


def test_projector_flag_from_the_url_is_read_and_a_bad_flag_is_noted():
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["projector"] = "1"
    at.run()
    assert not at.exception
    assert at.toggle(key="projector").value is True

    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["projector"] = "banana"
    at.run()
    assert not at.exception
    assert at.toggle(key="projector").value is False
    assert any("projector" in w.value and "banana" in w.value for w in at.warning)
