"""The metric engine: pure numpy over query sets, no Streamlit, no prose.

metrics (Recall@k, P@k, Success@k, RR, nDCG@k, AP, R-prec, bpref, ...
vectorised over a :class:`~components.engine.metrics.QuerySet`), measures
(names as the field and trec_eval write them, and each measure's value over
a query set), conventions (the other tools' rules, as options), compare
(paired tests between two runs), formatting (how numbers and untrusted text
are shown).

May import: numpy, scipy, components.formats (compare reads joined runs).
Never: Streamlit, components.ui, components.serving, lessons.
"""
