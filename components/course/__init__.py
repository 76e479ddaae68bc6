"""Teaching content as pure data and logic: scenarios, questions (the quiz package), diagnosis, arithmetic steps,
per-position DCG, export, prose.

The words themselves live in lessons/text/ (read as data files by prose).

May import: components.engine, components.formats. Never: Streamlit,
components.ui, components.serving, lessons.
"""
