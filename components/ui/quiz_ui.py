"""The question UI: one function renders and checks any question; the progress sidebar.

- :func:`show_question` renders a question of any type from
  :mod:`components.course.quiz`, checks it on submit, shows targeted feedback, hints
  in stages (a nudge, then the method), "show solution" and "try again", and
  records the result in ``st.session_state``. An ordering question takes its
  order in the ranking editor (components/ranking_editor: drag or keyboard),
  kept under the question's key. While the instructor's reveal
  flag (``state.REVEAL``) is on, it shows neither correctness nor solutions,
  only "answer recorded"; answers checked then count towards progress once
  the flag is off again.
- :func:`show_progress_sidebar` shows solved / total per lesson in the
  sidebar, offers "reset my progress", and keeps the solved ids in the
  browser's localStorage through a tiny Components v2 helper (read once per
  session, written on every change). Nothing is stored on the server.

The sidebar cannot be written from inside a fragment: when a check inside a
fragment changes progress, :func:`show_question` asks for one full-app rerun
so the sidebar (and the stored copy) catch up.

All wording comes from ``lessons/text/questions.md``.
"""
from __future__ import annotations

import re
from typing import Final, Mapping

import streamlit as st

from components.course import prose, quiz
from components.course.quiz.generated import judged_note, parse_seed
from components.course.quiz.model import GENERATED_LINK_SEED
from components.engine.formatting import literal
from components.live_class import questions as class_questions
from components.ranking_editor import EditorState, editor_items, editor_state, ranking_editor, set_editor_state
from components.ranking_editor import widget_key as editor_widget_key
from components.ui import browser_store, state
from components.ui.widgets import chart_scale

TEXTS = "questions"
STORAGE_KEY = "rankwise.progress.v1"  # the browser's localStorage entry

KEEP_ANSWERS: Final = "page"  # an answer widget's value stays while its question is off screen on the same page
_EMPTY_ANSWER = {"answer": "", "choice": None}  # a text box's and a radio's key part, and their empty value
_STATUS_ICON = {"correct": "✅", "trap": "🧐", "wrong": "❌", "invalid": "✍️"}


# ----------------------------------------------------------------------------
# Text
# ----------------------------------------------------------------------------

def text(section: str, values: Mapping[str, str] | None = None) -> str:
    """A questions.md section with its placeholders filled from ``values`` (extra values are ignored)."""
    template = prose.section(TEXTS, section)
    values = values or {}
    wanted = prose.placeholders(template)
    missing = wanted - set(values)
    if missing:
        raise KeyError(f"lessons/text/questions.md '## {section}' needs {sorted(missing)}")
    return prose.fill(template, **{name: values[name] for name in wanted})


def lesson_title(lesson: str | None) -> str:
    return text(f"lesson {lesson or 'warmup'}")


def read_seed(raw: str | None) -> state.Reading[str]:
    """An exercise seed from the link (see :func:`components.course.quiz.generated.parse_seed`).

    Absent or empty: the default seed, quietly. Naming no exercise: the
    default, with a note in which the raw value is a code span.
    """
    if not raw:
        return state.Reading(quiz.DEFAULT_SEED)
    seed = parse_seed(raw)
    if seed is not None:
        return state.Reading(seed)
    return state.Reading(quiz.DEFAULT_SEED, text(GENERATED_LINK_SEED, {
        "value": literal(f"{state.PARAM_SEED}={raw}", limit=40), "default": quiz.DEFAULT_SEED}))


# ----------------------------------------------------------------------------
# Progress (session state is the source of truth; the browser keeps a copy)
# ----------------------------------------------------------------------------

def solved() -> frozenset[str]:
    """Ids of the questions solved in this browser."""
    return frozenset(st.session_state.get(state.PROGRESS_SOLVED, frozenset()))


def _mark_solved(question_id: str) -> None:
    if question_id in quiz.counted_ids() and question_id not in solved():
        st.session_state[state.PROGRESS_SOLVED] = solved() | {question_id}


def _clear_answers(names: list[str]) -> None:
    """Clear what the question entries ``names`` of ``st.session_state`` hold, so that the screen follows.

    An answer widget gets its empty value written (a text box "", a radio no
    choice, a checkbox unticked): a dropped key would leave the browser showing
    the old answer. A ranking editor goes back to the pool's first order
    through ``set_editor_state`` (its component and bookkeeping entries are
    kept, since the editor's sync relies on them). Any other entry (a verdict,
    hints, a copied order) is dropped.
    """
    editors = [n for n in names if isinstance(st.session_state[n], EditorState)]
    for name in editors:
        set_editor_state(name, ())  # every item placed in the editor's own item order: the pool as first shown
    for name in names:
        if name in editors or any(name.startswith(editor_widget_key(e)) for e in editors):
            continue
        *_, kind, part = name.rsplit(".", 2)
        if kind == "option":
            st.session_state[name] = False
        elif part in _EMPTY_ANSWER:
            st.session_state[name] = _EMPTY_ANSWER[part]
        else:
            del st.session_state[name]


def reset_progress() -> None:
    """Forget every solved question and clear every answer on every page (a button callback)."""
    st.session_state[state.PROGRESS_SOLVED] = frozenset()
    _clear_answers([n for n in st.session_state if isinstance(n, str) and n.startswith(state.QUIZ_PREFIX)])


def _refresh_sidebar_if_stale() -> None:
    """One full-app rerun when progress changed since the sidebar was drawn (e.g. inside a fragment)."""
    shown = st.session_state.get(state.PROGRESS_SHOWN)
    now = solved()
    if shown is None or shown == now or st.session_state.get(state.PROGRESS_RERUN) == now:
        return
    st.session_state[state.PROGRESS_RERUN] = now
    st.rerun(scope="app")


def _on_progress_loaded() -> None:
    """Merge the browser's stored progress (untrusted: only known question ids survive)."""
    stored = browser_store.loaded(state.PROGRESS_STORE)
    stored = quiz.clean_solved(stored.get("solved") if isinstance(stored, dict) else None)
    st.session_state[state.PROGRESS_SOLVED] = solved() | stored
    st.session_state[state.PROGRESS_SYNCED] = True


def show_progress_sidebar() -> None:
    """Sidebar: solved / total per lesson, "reset my progress", and the localStorage sync.

    Call it from app.py on every run, before ``page.run()``.
    """
    now = solved()
    counts = quiz.progress(now)
    done = sum(d for d, _ in counts.values())
    total = sum(t for _, t in counts.values())
    with st.sidebar:
        with st.container(key="progress-panel"):
            st.markdown(f"**{text('progress heading')}**")
            st.progress(done / total if total else 0.0, text=text("progress total", {"solved": str(done),
                                                                                     "total": str(total)}))
            lines = [f"{'✅' if t and d == t else '◻️'} {lesson_title(lesson)}: **{d}\u00a0/\u00a0{t}**"  # never split
                     for lesson, (d, t) in counts.items()]
            st.markdown(":small[" + "  \n".join(lines) + "]")
            with st.popover(text("progress reset"), icon="🔄"):
                st.markdown(text("progress reset confirm"))
                st.button(text("progress reset"), key=state.PROGRESS_RESET, on_click=reset_progress, type="primary")
            st.caption(text("progress privacy"))
            browser_store.browser_store(key=state.PROGRESS_STORE, storage_key=STORAGE_KEY, storage="local",
                                        synced=bool(st.session_state.get(state.PROGRESS_SYNCED)),
                                        value={"version": 1, "solved": sorted(now)} if now else None,
                                        on_loaded=_on_progress_loaded)
    st.session_state[state.PROGRESS_SHOWN] = now


# ----------------------------------------------------------------------------
# One question
# ----------------------------------------------------------------------------

def _k(key: str, part: str) -> str:
    return f"{state.QUIZ_PREFIX}{key}.{part}"


def _slug(key: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", key)


def _hidden(key: str | None = None) -> bool:
    """Answers are hidden (instructor mode), unless this question's answer was revealed on its own."""
    revealed = key is not None and st.session_state.get(_k(key, "shown_in_class"))
    return bool(st.session_state.get(state.REVEAL)) and not revealed


def _on_show_in_class(key: str) -> None:
    st.session_state[_k(key, "shown_in_class")] = True


def _answer_of(question: quiz.Question, key: str):
    """The learner's answer as the checker takes it, read from the widgets' state."""
    if isinstance(question, quiz.ChoiceQuestion):
        if question.multiple:
            return [o for o in question.options if st.session_state.get(_k(key, f"option.{o}"))]
        choice = st.session_state.get(_k(key, "choice"))
        return [choice] if choice else []
    if isinstance(question, quiz.OrderingQuestion):
        return _ordering_answer(key)
    return st.session_state.get(_k(key, "answer"), "")


def _on_check(question: quiz.Question, key: str) -> None:
    outcome = quiz.check(question, _answer_of(question, key))
    if outcome is None:
        return
    waits = class_questions.card_waits(question)  # a live class is answering it: the verdict waits
    if waits and outcome.status != "invalid":
        class_questions.send_card_answer(question, _answer_of(question, key))
    st.session_state[_k(key, "result")] = {"status": outcome.status, "feedback": outcome.feedback,
                                           "values": dict(outcome.values),
                                           "picked": _answer_of(question, key)
                                           if isinstance(question, quiz.ChoiceQuestion) else []}
    if outcome.status == "wrong" and outcome.feedback == quiz.FEEDBACK_WRONG:
        # any other wrong answer: generic feedback plus (at least) the first hint
        st.session_state[_k(key, "hints")] = max(1, st.session_state.get(_k(key, "hints"), 0))
    if outcome.correct and not _hidden(key) and not waits:
        _mark_solved(question.id)


def _on_hint(key: str) -> None:
    st.session_state[_k(key, "hints")] = min(quiz.N_HINTS, st.session_state.get(_k(key, "hints"), 0) + 1)


def _on_solution(key: str) -> None:
    st.session_state[_k(key, "solution")] = True


def _on_retry(question: quiz.Question, key: str) -> None:
    """Forget the verdict and the solution, and clear the answer on screen (a button callback); hints stay."""
    parts = ("result", "solution", *_EMPTY_ANSWER, "order", "editor",
             *(f"option.{o}" for o in getattr(question, "options", ())))
    _clear_answers([_k(key, part) for part in parts if _k(key, part) in st.session_state])


def _on_reveal(key: str) -> None:
    st.session_state[_k(key, "revealed")] = True


def _stored_outcome(key: str) -> tuple[quiz.Outcome, list] | None:
    record = st.session_state.get(_k(key, "result"))
    if not record:
        return None
    return quiz.Outcome(record["status"], record["feedback"], record["values"]), record["picked"]


def _ranking_table(exercise: quiz.GeneratedExercise) -> str:
    """A generated exercise's returned lists as a Markdown table, one row per list (relevant grades in bold).

    One list gets the row heading "Grade"; several (MRR) get "Query 1", "Query 2", ...
    """
    lists = exercise.lists
    width = max(len(grades) for grades in lists)
    headings = ([text("card table grade")] if len(lists) == 1
                else [text("card table query", {"i": str(i)}) for i in range(1, len(lists) + 1)])

    def row(cells) -> str:
        return " | ".join(["", *cells, ""]).strip()

    rows = [row([heading, *(f"**{g}**" if g >= 1 else str(g) for g in grades)])
            for heading, grades in zip(headings, lists)]
    return "\n".join([row([text("card table position"), *(str(p) for p in range(1, width + 1))]),
                      "|:--|" + ":-:|" * width, *rows])


def _kind_label(question: quiz.Question) -> str:
    """A small badge saying what kind of answer the card wants."""
    if isinstance(question, quiz.WarmUp):
        return text("card kind warm-up")
    if isinstance(question, quiz.GeneratedExercise):
        return text("card kind exercise")
    if isinstance(question, quiz.NumericQuestion):
        return text("card kind number")
    if isinstance(question, quiz.ChoiceQuestion):
        return text("card kind pick all" if question.multiple else "card kind pick one")
    return text("card kind order")


def _badges(question: quiz.Question) -> str:
    """The card's badges: what kind of answer it wants, and "Solved" once it is (in this browser, reloads too)."""
    solved_mark = [text("card solved")] if question.id in solved() else []
    return " ".join([_kind_label(question), *solved_mark])


def _show_prompt(question: quiz.Question) -> None:
    values = getattr(question, "values", {})
    st.markdown(_badges(question))
    st.markdown(text(f"{question.id} prompt", values))
    if isinstance(question, quiz.GeneratedExercise) and any(question.lists):  # an rrf exercise gives ranks only
        st.markdown(_ranking_table(question))
        note = judged_note(question)
        if note is not None:
            st.caption(text(note, values))


def _editor_key(key: str) -> str:
    """Where an ordering question's ranking editor keeps its state (under the question's key)."""
    return _k(key, "editor")


def _ordering_answer(key: str) -> list[str]:
    """The ordering question's answer: the editor's order, top first, kept in ``_k(key, "order")``.

    Read from the editor's state when there is one (a move made just before
    "Check" is then never missed), and copied to ``_k(key, "order")``, the
    one place the checker's answer lives.
    """
    current = editor_state(_editor_key(key))
    if current is not None:
        st.session_state[_k(key, "order")] = list(current.order)
    return list(st.session_state.get(_k(key, "order")) or [])


def _ordering_input(question: quiz.OrderingQuestion, key: str) -> None:
    """The ordering question's input: the pool in the ranking editor, grades shown, the cut-off line at k.

    Drag a row, or use the keyboard (the editor's own keys and buttons) to
    move it. There is no "not returned" tray: every document of the pool is
    placed, and only the first k count. The editor's order, top first, goes
    to ``st.session_state[_k(key, "order")]`` for the checker.

    The editor sits outside the question's form: its moves rerun the page
    (or the fragment) at once, which a widget inside a form could not do.
    """
    by_id = question.query.by_id
    items = editor_items(by_id[i] for i in question.start)
    grades = [d.grade for d in items if d.grade is not None]
    grade_range = (min([0, *grades]), max([2, *grades]))
    ranking_editor(items, key=_editor_key(key), default_order=question.start, k=question.k, tray=False,
                   show_grades=True, editable_grades=False, grade_range=grade_range, scale=chart_scale(),
                   label=text("card order label", {"k": str(question.k)}))
    _ordering_answer(key)


def _answer_input(question: quiz.Question, key: str) -> None:
    """The answer widgets; their value stays while the question is off screen (another Practice section)."""
    values = getattr(question, "values", {})
    if isinstance(question, quiz.NumericQuestion):
        st.text_input(text("card answer"), key=_k(key, "answer"), placeholder=text("card answer placeholder"),
                      max_chars=quiz.MAX_INPUT_LENGTH, width=260, persist_state=KEEP_ANSWERS)
    elif isinstance(question, quiz.ChoiceQuestion) and question.multiple:
        for option in question.options:
            st.checkbox(f"**({option})** " + text(f"{question.id} option {option}", values),
                        key=_k(key, f"option.{option}"), persist_state=KEEP_ANSWERS)
    elif isinstance(question, quiz.ChoiceQuestion):
        st.radio(text("card answer"), question.options, index=None, key=_k(key, "choice"),
                 label_visibility="collapsed", persist_state=KEEP_ANSWERS,
                 format_func=lambda o: f"**({o})** " + text(f"{question.id} option {o}", values))


def _show_feedback(question: quiz.Question, outcome: quiz.Outcome, picked: list, hidden: bool,
                   solution_open: bool, waits: bool = False) -> None:
    values = {**getattr(question, "values", {}), **outcome.values}
    if outcome.status == "invalid":
        st.info(text(outcome.feedback, values), icon=_STATUS_ICON["invalid"])
        return
    if hidden:
        st.info(prose.text("ui", "Class card sent") if waits else text(quiz.FEEDBACK_RECORDED), icon="📝")
        return
    message = text(outcome.feedback, values)
    if outcome.correct:
        st.success(message, icon=_STATUS_ICON["correct"])
    elif outcome.status == "trap":
        st.warning(message, icon=_STATUS_ICON["trap"])
    else:
        st.error(message, icon=_STATUS_ICON["wrong"])
    if isinstance(question, quiz.ChoiceQuestion):
        shown = question.options if (outcome.correct or solution_open) else [o for o in question.options if o in picked]
        notes = [f"{'✅' if o in question.correct else '❌'} **({o})** {text(f'{question.id} option {o} why', values)}"
                 for o in shown]
        st.markdown("\n\n".join(notes))


def _show_warm_up(question: quiz.WarmUp, key: str) -> None:
    st.markdown(_badges(question))
    st.markdown(text(f"{question.id} prompt", question.values))
    if not st.session_state.get(_k(key, "revealed")):
        st.button(text("card reveal"), key=_k(key, "reveal"), icon="👀", on_click=_on_reveal, args=(key,))
    elif _hidden(key):
        st.caption(text(quiz.FEEDBACK_HIDDEN))
    else:
        st.info(text(f"{question.id} answer", question.values), icon="💬")


def show_question(question: quiz.Question, *, key: str) -> quiz.Outcome | None:
    """Render any question, check it on submit, and record the result.

    Parameters
    ----------
    question : a question from :mod:`components.course.quiz` (numeric, multiple
        choice, ordering, warm-up, or a generated exercise).
    key : unique on the page; every widget and record of this question lives
        under ``state.QUIZ_PREFIX + key``. Progress is kept per question id,
        so the same question answered on two pages counts once.

    Returns
    -------
    The outcome of the last check (None before the first check, and always
    for a warm-up). While the reveal flag is on the outcome is still
    returned, but the learner sees only "answer recorded".
    """
    waits = class_questions.card_waits(question)  # a live class is answering it: the verdict waits
    hidden = (_hidden(key) and not class_questions.is_revealed(question.id)) or waits
    with st.container(border=True, key=f"quiz-{_slug(key)}"):
        if isinstance(question, quiz.WarmUp):
            _show_warm_up(question, key)
            return None
        values = question.values
        _show_prompt(question)
        if isinstance(question, quiz.OrderingQuestion):
            _ordering_input(question, key)
        with st.form(_k(key, "form"), border=False, enter_to_submit=True):
            numeric = isinstance(question, quiz.NumericQuestion)
            with st.container(horizontal=numeric, vertical_alignment="bottom", gap="small"):
                _answer_input(question, key)
                st.form_submit_button(text("card check"), key=_k(key, "check"), type="primary", icon="✔️",
                                      on_click=_on_check, args=(question, key))
        stored = _stored_outcome(key)
        solution_open = bool(st.session_state.get(_k(key, "solution"))) and not hidden
        if stored is not None:
            outcome, picked = stored
            if outcome.correct and not hidden:
                _mark_solved(question.id)  # checked while answers were hidden: counts once revealed
            _show_feedback(question, outcome, picked, hidden, solution_open, waits)
            if hidden and not waits:
                st.button(text("card reveal one"), key=_k(key, "show_in_class"), icon="👀",
                          on_click=_on_show_in_class, args=(key,), help=text("card reveal one help"))
        class_questions.show_card_class(question, lambda section: text(section, values))
        hints = st.session_state.get(_k(key, "hints"), 0)
        for i in range(1, hints + 1):
            heading = text("card hint", {"i": str(i), "n": str(quiz.N_HINTS)})
            st.info(f"{heading} " + text(f"{question.id} hint {i}", values), icon="💡")
        with st.container(horizontal=True, gap="small"):
            st.button(text("card method button" if hints == 1 else "card hint button"), key=_k(key, "hint"), icon="💡",
                      disabled=hints >= quiz.N_HINTS, on_click=_on_hint, args=(key,))
            st.button(text("card solution button"), key=_k(key, "show_solution"), icon="📖", disabled=hidden or solution_open,
                      on_click=_on_solution, args=(key,), help=text(quiz.FEEDBACK_HIDDEN) if hidden else None)
            st.button(text("card retry"), key=_k(key, "retry"), icon="🔄", disabled=stored is None,
                      on_click=_on_retry, args=(question, key))
        if solution_open:
            st.success(text(f"{question.id} {question.solution_part}" if isinstance(question, quiz.NumericQuestion)
                            else f"{question.id} solution", values), icon="📖")
    _refresh_sidebar_if_stale()
    return stored[0] if stored is not None else None
