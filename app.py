"""Rankwise: the entry point. Page config, the shared sidebar, the navigation, the live class around the page."""
import streamlit as st

from components.live_class.app_run import around_page, class_turn
from components.serving import streamlit_compat, upload_store, uploads
from components.ui import state
from components.ui.quiz_ui import show_progress_sidebar
from components.ui.registry import navigation
from components.ui.widgets import show_link_notes, show_mode_controls


def show_sidebar() -> None:
    """The app's own sidebar: the modes (with the Classroom panel) and the practice progress."""
    show_mode_controls()
    show_progress_sidebar()


# A projector link opens with the sidebar folded away (its arrow brings it back), and it stays as the instructor
# left it from page to page: a page link drops the address's flag, the session keeps it.
projecting = (state.read_flag(st.query_params.get(state.PROJECTOR), name=state.PROJECTOR).value
              or bool(st.session_state.get(state.PROJECTOR)))
st.set_page_config(page_title="Rankwise", page_icon="📐", layout="wide",
                   initial_sidebar_state="collapsed" if projecting else "auto")
manager = streamlit_compat.upload_manager()  # Streamlit's store of uploaded files
upload_store.guard(manager, every_sweep=uploads.collect_released)  # strays bounded and swept away
with class_turn():  # a follower's run that takes the class's view: one at a time
    page = st.navigation(navigation(), expanded=True)
    with around_page(page, sidebar=show_sidebar):  # the class's view, polls and banner; after: the broadcast
        link_notes = st.container()  # above the page: notes about the link's bad values, filled once the page ran
        page.run()
        show_link_notes(link_notes)
upload_store.sweep(manager, streamlit_compat.session_id())
