"""Rankwise's code below the pages, by role (each sub-package's docstring says what it may import).

- engine/: the metric engine (pure numpy);
- formats/: reading qrels and runs;
- course/: teaching content as data and logic;
- ui/: Streamlit building blocks;
- ranking_editor/: the drag-to-reorder component;
- serving/: workshop infrastructure (settings, shared cache, uploads);
- cli/: the ``rankwise`` command.

tests/unit/test_project_rules.py enforces the import rules from the folders.
"""
