"""The live class: an instructor leads, the learners follow, the class answers together.

- :mod:`.protocol` and :mod:`.store`: a class's record, its versions, questions, answers and roll call, in this
  process or in Redis (no Streamlit: the benchmarks and the unit tests use them alone);
- :mod:`.session`: a session's side, its state (one dataclass under one session key; the widgets keep their own
  keys), the server's store;
- :mod:`.panel` (start, join, leave, end; the banner), :mod:`.follow` (the instructor's broadcast, a follower's
  polls and pending view, the lesson fragments that follow), :mod:`.questions` (predict, then reveal, together),
  :mod:`.members` (nicknames, "here", the roll call), :mod:`.outage` (while the store is down), :mod:`.timers`;
- :mod:`.app_run`: the two calls app.py makes, around the run and around the page.

Streamlit's internals that following needs (a fragment's id, a rerun of chosen fragments, the page a session's runs
go to) are read through :mod:`components.serving.streamlit_compat`.

May import: Streamlit, components.engine, course, serving, ranking_editor, rank_figure, and ui's building blocks
(state keys, browser storage, the page registry, charts). Never: lessons, or the ui modules that call the class
(widgets, quiz_ui, layout: the shared widgets ask the class about its questions, so the class must not import them).
"""
