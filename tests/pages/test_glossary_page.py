"""AppTest: the glossary page, its anchors, its filter and its "linked from" lines."""
from components.course import prose
from components.ui import state
from tests.pages.helpers import open_page

PAGE = "lessons/glossary.py"


def test_every_entry_is_shown_with_its_anchor():
    at = open_page(PAGE)
    assert not at.exception
    assert at.title[0].value == "Glossary"
    entries = prose.glossary_entries()
    headings = {h.value: h.anchor for h in at.subheader}
    assert headings == {heading: prose.anchor(names[0]) for heading, names in entries.items()}
    assert "Hit rate / hit rate@k / Success@k" in headings and headings["Hit rate / hit rate@k / Success@k"] == "hit-rate"
    bodies = [m.value for m in at.markdown]
    assert prose.section(prose.GLOSSARY, "DCG / discounted cumulative gain / DCG@k") in bodies
    captions = [c.value for c in at.caption]
    assert any("[Recall@k](/recall)" in c and "[MRR](/mrr)" in c for c in captions)  # both link reciprocal rank


def test_the_filter_narrows_the_entries():
    at = open_page(PAGE)
    at.text_input(key=state.GLOSSARY_FILTER).set_value("IDCG").run()
    assert not at.exception
    shown = [h.value for h in at.subheader]
    assert shown == prose.glossary_matching("IDCG")
    assert "IDCG / ideal DCG / IDCG@k" in shown and "Qrels" not in shown
    at.text_input(key=state.GLOSSARY_FILTER).set_value("zebra").run()
    assert not at.subheader
    assert at.info[0].value == prose.text(prose.GLOSSARY, "No match", query="zebra")
