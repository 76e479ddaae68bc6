"""Rankwise: the entry point. Page config, the shared sidebar, the navigation."""
import streamlit as st

from components.quiz_ui import show_progress_sidebar
from components.widgets import show_mode_controls
from lessons.registry import navigation

st.set_page_config(page_title="Rankwise", page_icon="📐", layout="wide")
page = st.navigation(navigation(), expanded=True)
show_mode_controls()
show_progress_sidebar()
page.run()
