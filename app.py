"""Rankwise: the entry point. Page config, the shared sidebar, the navigation."""
import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from components.serving import upload_store, uploads
from components.ui import class_questions_ui, live_class_ui, state
from components.ui.quiz_ui import show_progress_sidebar
from components.ui.registry import navigation
from components.ui.widgets import show_link_notes, show_mode_controls

# A projector link opens with the sidebar folded away (its arrow brings it back), and it stays as the instructor
# left it from page to page: a page link drops the address's flag, the session keeps it.
projecting = (state.read_flag(st.query_params.get(state.PROJECTOR), name=state.PROJECTOR).value
              or bool(st.session_state.get(state.PROJECTOR)))
st.set_page_config(page_title="Rankwise", page_icon="📐", layout="wide",
                   initial_sidebar_state="collapsed" if projecting else "auto")
run = get_script_run_ctx()
upload_store.guard(run.uploaded_file_mgr, every_sweep=uploads.collect_released)  # strays bounded and swept away
with live_class_ui.class_turn():  # a follower's run that takes the class's view: one at a time
    page = st.navigation(navigation(), expanded=True)
    live_class_ui.join_from_link()
    live_class_ui.apply_pending(page)  # a follower takes the class's page and values before any widget is built
    live_class_ui.show_polls(page)  # a follower's reading, an explorer's "still here": early, the timer at once
    show_mode_controls()
    show_progress_sidebar()
    live_class_ui.keep_class_in_browser()
    live_class_ui.show_banner()
    class_questions_ui.show_count_poll()  # the instructor's count of answers, while the class answers
    link_notes = st.container()  # above the page: notes about the link's bad values, filled once the page ran
    page.run()
    show_link_notes(link_notes)
    live_class_ui.broadcast()  # the instructor's page and values, to the class
upload_store.sweep(run.uploaded_file_mgr, run.session_id)
