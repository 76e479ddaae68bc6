"""Reading qrels and runs: TREC (a precise and a fast reader), CSV/TSV, and the format error.

May import: numpy, pyarrow, components.engine. Never: Streamlit,
components.ui, components.serving, lessons.
"""
