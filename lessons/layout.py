"""Page furniture shared by the lessons: the previous/next links at the foot of a lesson."""
from __future__ import annotations

import streamlit as st

from lessons import registry


def show_prev_next(module: str) -> None:
    """Links to the previous and next page of the course sequence."""
    before, after = registry.neighbours(module)
    st.divider()
    left, right = st.columns(2)
    if before:
        left.page_link(registry.page_for(before), label=f"Previous: {before.title}", icon="⬅️")
    if after:
        right.page_link(registry.page_for(after), label=f"Next: {after.title}", icon="➡️")
