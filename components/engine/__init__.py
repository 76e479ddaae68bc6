"""The metric engine: pure numpy over query sets, no Streamlit, no prose.

model (the data model every reader gives: Qrels, Run and JudgedRun, with
judge; it stands on metrics, keys, ordering and join, and imports no
reader), metrics (Recall@k, P@k, Success@k, RR, nDCG@k, AP, R-prec, bpref, ...
vectorised over a :class:`~components.engine.metrics.QuerySet`), measures
(names as the field and trec_eval write them, and each measure's value over
a query set), conventions (the other tools' rules, as options), compare
(paired tests between two runs), formatting (how numbers and untrusted text
are shown).

May import: numpy, scipy, components.formats (the diagnosis takes what the readers understood; examples
read TREC text). The data model imports no reader.
Never: Streamlit, components.ui, components.serving, lessons.
"""
