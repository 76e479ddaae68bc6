"""Words that match (issue #42, point 5): lesson numbers, counts and their nouns, what Home promises, the Recall
puzzle's pool, and one way of writing shares on "Why accuracy fails"."""
from __future__ import annotations

import re

from components.course import prose, puzzles, scenarios
from components.engine import run_diagnosis
from components.serving import uploads
from components.ui import registry, state
from tests.pages.helpers import board, open_page
from tests.unit.file_readers import load_trec, read_qrels, read_run


def home_numbers() -> dict[str, int]:
    """The number Home gives each lesson, by its title ("3. MRR" -> {"MRR": 3})."""
    at = open_page("lessons/home.py")
    assert not at.exception
    labels = [link.proto.label for link in at.get("page_link")]
    return {title: int(number) for number, title in (re.match(r"(\d+)\. (.+)", label).groups()
                                                     for label in labels if re.match(r"\d+\. ", label))}


def test_the_recall_pages_previews_name_the_lessons_as_home_numbers_them():
    numbers = home_numbers()
    assert list(numbers.values()) == list(range(1, len(numbers) + 1))  # Home counts its lessons 1, 2, 3, ...
    assert list(numbers) == [spec.title for spec in registry.PAGES if spec.in_sequence]  # in the registry's order
    at = open_page("lessons/recall.py")
    assert not at.exception
    labels = list(board(at, state.RECALL_EDITOR))  # the previews are on the editor's board, the page's one place
    rr = next(label for label in labels if label.startswith("RR"))
    assert "next lesson" in rr and numbers[registry.spec("mrr").title] == numbers[registry.spec("recall").title] + 1


def test_no_text_writes_a_lesson_number_by_hand():
    for path in sorted(prose.TEXT_DIR.glob("*.md")):
        found = re.findall(r"\blessons? (?:\d+|one|two|three|four|five|six|seven|eight)\b", path.read_text(),
                           flags=re.IGNORECASE)
        assert not found, f"{path.name}: {found}: fill the number from components/ui/registry.py"


def test_home_names_every_measure_it_teaches_and_counts_none_by_hand():
    at = open_page("lessons/home.py")
    welcome = " ".join(m.value for m in at.markdown if "Rankwise teaches" in m.value)
    assert welcome
    assert not re.search(r"\b(?:two|three|four|five|six|\d+) (?:numbers|metrics|measures)\b", welcome)
    for measure in ("Recall@k", "hit rate@k", "MRR", "average precision", "nDCG"):  # a lesson each (AP's is 4th)
        assert measure in welcome, measure


def test_the_mrr_cutoff_sentence_agrees_with_one_query():
    at = open_page("lessons/mrr.py")
    at.select_slider(key=state.MRR_CUTOFF).set_value(3).run()
    assert not at.exception
    text = " ".join(md.value for md in at.markdown)
    assert "query 3 loses its hit below position 3" in text
    assert "query 3 lose their" not in text


def test_the_diagnosis_title_agrees_with_one_note():
    qrels = b"1 0 a 1\n1 0 b 0\n2 0 c 1\n"
    run = b"1 Q0 a 1 9 t\n1 Q0 b 2 8 t\n2 Q0 c 1 9 t\n"
    found = run_diagnosis.diagnose(read_qrels(qrels), read_run(run), load_trec(qrels, run), k=10,
                                   measures=["R@10"], gain="linear").findings
    assert [f.severity for f in found if f.severity != "ok"] == ["note"]  # one note, no warning
    at = open_page("lessons/your_data.py", session={state.YOUR_DATA_QRELS: uploads.upload_record("q.txt", qrels),
                                                    state.YOUR_DATA_RUN: uploads.upload_record("r.txt", run)})
    assert not at.exception
    assert "Diagnosis at k = 10: 0 warnings, 1 note" in [e.label for e in at.expander]


def test_the_compare_pages_method_agrees_with_one_run():
    at = open_page("lessons/compare_runs.py")
    at.button(key=state.COMPARE_SAMPLES).click().run()
    at.button(key=f"{state.COMPARE_REMOVE}.run_b").click().run()  # the baseline A and run C: one compared run
    assert not at.exception
    captions = " ".join(c.value for c in at.caption)
    assert "(1 run × 4 measures)" in captions and "**4** comparisons" in captions
    assert "1 runs" not in captions


def test_the_recall_puzzle_says_why_its_tray_holds_more_than_the_lists_above():
    lesson_pool = {d.id for d in scenarios.LAWYER_POOL}
    puzzle_pool = {d.id for d in puzzles.RECALL_SAME_RR_LOWER.query.docs}
    extra = puzzle_pool - lesson_pool
    assert extra and lesson_pool <= puzzle_pool  # the puzzle's pool is the whole judged pool, the lesson's a part
    grades = {d.id: d.grade for d in scenarios.LAWYER.docs}
    assert all((grades[d] or 0) < 1 for d in extra)  # what the caption claims: none of them is relevant
    at = open_page("lessons/recall.py")
    assert not at.exception
    captions = [c.value for c in at.caption]
    assert prose.section("recall", "Puzzle pool") in captions


def test_why_accuracy_fails_writes_every_share_as_a_percentage_and_says_why():
    at = open_page("lessons/accuracy.py")
    for name in scenarios.ACCURACY_PRESETS:
        at.button(key=f"accuracy.preset.{name}").click().run()
        assert not at.exception
        cards = [m.value for m in at.metric]
        assert all(v.endswith("%") or v == "undefined" for v in cards), (name, cards)
        steps = " ".join(md.value for md in at.markdown)
        assert not re.search(r"\*\*\d\.\d{3}\*\*", steps), name  # no three-decimal value in the arithmetic
    assert "10% is 0.100" in " ".join(md.value for md in at.markdown)  # and the page says why, on screen
