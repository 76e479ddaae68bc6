"""Take it home: a lesson's rankings as a TREC qrels + run pair, and snippets that print the same numbers.

A learner leaves a lesson with two files and a few lines of code for their
own tools. Everything here is plain text generation (no Streamlit import);
the panel that shows it is :mod:`components.ui.take_home`.

The files
---------
- **qrels** (``qid 0 docid grade``): every *judged* document of every query,
  returned or not (a judged document the system never returned still counts
  in Recall's denominator and in nDCG's ideal ordering). A returned document
  nobody judged is left out: every tool then counts it as grade 0.
- **run** (``qid Q0 docid rank score rankwise``): the returned documents, top
  first. The score encodes the on-screen order: a list of n documents scores
  n, n − 1, ..., 1 (whole numbers, exact even at 32-bit precision), so scores
  strictly decrease and no tie-breaking rule can reorder the list.

Query and document ids must be safe for the whitespace-separated format: no
whitespace or control character, not empty, not starting with ``#`` (a
comment for some readers, Rankwise's among them). An unsafe id is rejected
with a ``ValueError`` that names it; nothing is renamed silently. Query ids
default to ``q1``, ``q2``, ... in the order given.

The snippets
------------
For the measures a lesson shows (Recall@k, Success@k, P@k, RR, RR@k, nDCG@k,
AP, AP@k), a pytrec_eval snippet and an ir_measures snippet print one line per
measure, ``<name> <value to 3 decimals>``, exactly as :func:`expected_output`
prints the engine's numbers (the page's numbers). The options they need:

- exponential gain (2^rel − 1): pytrec_eval scores nDCG on the qrels mapped to
  2^rel − 1 (0 for a grade <= 0); ir_measures takes a gains mapping,
  ``nDCG(gains={0: 0, 1: 1, 2: 3})@k``, asked for in a call of its own (mixed
  into one ``calc_aggregate`` call with another nDCG, ir_measures 0.4 returns
  a wrong value for one of them);
- RR@k in pytrec_eval: trec_eval's RR has no cutoff, so the snippet keeps each
  query's top k first;
- AP and AP@k need none: AP = (1/R) Σ P@i over the ranks i of the relevant
  returned documents (i <= k for AP@k), with R every relevant judged document,
  returned or not (never min(k, R)). That is trec_eval's ``map`` and
  ``map_cut_k``, which pytrec_eval takes at any k (as ``P_k`` and
  ``ndcg_cut_k``), and ir_measures' ``AP`` and ``AP@k``, which its default
  provider computes with pytrec_eval;
- the mean is over every judged query, a query whose list is empty counting 0
  (the page's rule; ir_measures does this itself, the pytrec_eval snippet
  divides by the number of judged queries, and the command line gets
  ``--complete``).

DCG@k has no counterpart in either library, so it is refused here, as are the
measures the snippets do not cover (GMAP, bpref, ...).

Templates use ``string.Template`` (``$name``), so the code's own braces stay
as they are.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from string import Template
from types import MappingProxyType
from typing import Iterable, Mapping, Sequence

import numpy as np

from components.engine import metrics
from components.engine.measures import Measure, evaluate, parse_measure, trec_name
from components.engine.metrics import Gain
from components.formats.trec_layout import unwritable

RUN_TAG = "rankwise"
TOOLS = ("pytrec_eval", "ir_measures")
SNIPPET_FAMILIES = ("R", "Success", "P", "RR", "nDCG", "AP")  # DCG@k, IDCG@k: neither library has them
_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_AT_K = re.compile(r"@k$", re.IGNORECASE)


# ----------------------------------------------------------------------------
# Rankings
# ----------------------------------------------------------------------------

def check_id(value, what: str = "id") -> str:
    """Return ``value`` if it can stand as one column of a TREC file, else raise ``ValueError``.

    Examples
    --------
    >>> check_id("lombok-1.18.30.jar", "docid")
    'lombok-1.18.30.jar'
    >>> check_id("Django Guide", "docid")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: docid 'Django Guide' contains whitespace, ... (e.g. 'Django_Guide')
    """
    if not isinstance(value, str) or not value:
        raise ValueError(f"{what} must be a non-empty string, got {value!r}")
    why = unwritable(value)  # the rule of every TREC file Rankwise writes
    if why is not None:
        raise ValueError(f"{what} {value!r} {why}")
    if not value.isprintable():
        raise ValueError(f"{what} {value!r} contains a control character: TREC ids must be printable text")
    return value


@dataclass(frozen=True)
class Ranking:
    """One query to export: its id, the returned documents top first, and every judged grade.

    Attributes
    ----------
    qid : the query id.
    returned : ids of the returned documents, top first.
    grades : docid -> judged grade of every judged document, returned or not;
        a returned document missing here is unjudged (grade 0).

    Raises ``ValueError`` for an unsafe id (see :func:`check_id`), a document
    returned twice, a grade that is not a whole number, or a query with no
    judged document (TREC tools would skip it; the page counts it).

    Examples
    --------
    >>> r = Ranking("q1", ("b", "x", "a"), {"a": 2, "b": 0, "c": 1})
    >>> r.order_grades(), r.judged_grades()
    ([0, 0, 2], [2, 0, 1])
    """

    qid: str
    returned: tuple[str, ...]
    grades: Mapping[str, int]

    def __post_init__(self):
        check_id(self.qid, "query id")
        if isinstance(self.returned, str):
            raise ValueError(f"returned must be a list of document ids, not the single string {self.returned!r}")
        returned = tuple(check_id(d, f"docid (query {self.qid})") for d in self.returned)
        repeated = sorted({d for d in returned if returned.count(d) > 1})
        if repeated:
            raise ValueError(f"query {self.qid!r} returns {repeated[0]!r} more than once")
        grades = {}
        for doc, grade in dict(self.grades).items():
            check_id(doc, f"docid (query {self.qid})")
            if isinstance(grade, bool) or not isinstance(grade, (int, np.integer)):
                raise ValueError(f"the grade of {doc!r} (query {self.qid!r}) must be a whole number, got {grade!r}")
            grades[doc] = int(grade)
        if not grades:
            raise ValueError(f"query {self.qid!r} has no judged document: TREC tools skip a query missing from "
                             f"the qrels, so its numbers could not match; judge at least one document")
        object.__setattr__(self, "returned", returned)
        object.__setattr__(self, "grades", MappingProxyType(grades))

    def order_grades(self) -> list[int]:
        """Grades of the returned documents, top first (0 for an unjudged one)."""
        return [self.grades.get(d, 0) for d in self.returned]

    def judged_grades(self) -> list[int]:
        """Every judged grade, returned or not."""
        return list(self.grades.values())


def as_rankings(queries: Iterable, qids: Sequence[str] | None = None) -> tuple[Ranking, ...]:
    """Rankings from :class:`Ranking` objects or editor states (anything with ``order`` and ``grades``).

    An editor state becomes query ``q1``, ``q2``, ... by its position, unless
    ``qids`` names them; a :class:`Ranking` keeps its own id. Raises
    ``ValueError`` for no query at all, or a query id used twice.

    Examples
    --------
    >>> from components.ranking_editor import EditorState
    >>> [r.qid for r in as_rankings([EditorState(("a",), (), {"a": 1}), EditorState(("b",), (), {"b": 0})])]
    ['q1', 'q2']
    """
    queries = list(queries)
    if not queries:
        raise ValueError("there is no query to export")
    if qids is not None and len(qids) != len(queries):
        raise ValueError(f"got {len(qids)} query ids for {len(queries)} queries")
    rankings = []
    for i, query in enumerate(queries):
        qid = qids[i] if qids is not None else f"q{i + 1}"
        if isinstance(query, Ranking):
            rankings.append(query if qids is None else Ranking(qid, query.returned, query.grades))
        elif hasattr(query, "order") and hasattr(query, "grades"):
            rankings.append(Ranking(qid, tuple(query.order), dict(query.grades)))
        else:
            raise ValueError(f"a query to export must be a Ranking or an editor state (order and grades), "
                             f"got {query!r}")
    seen = [r.qid for r in rankings]
    repeated = sorted({q for q in seen if seen.count(q) > 1})
    if repeated:
        raise ValueError(f"query id {repeated[0]!r} is used for more than one query")
    return tuple(rankings)


def qrels_text(rankings: Sequence[Ranking]) -> str:
    """The qrels file: ``qid 0 docid grade`` for every judged document, returned or not.

    Examples
    --------
    >>> print(qrels_text([Ranking("q1", ("b", "x"), {"a": 2, "b": 1})]), end="")
    q1 0 a 2
    q1 0 b 1
    """
    return "".join(f"{r.qid} 0 {doc} {grade}\n" for r in rankings for doc, grade in r.grades.items())


def run_text(rankings: Sequence[Ranking], tag: str = RUN_TAG) -> str:
    """The run file: ``qid Q0 docid rank score tag``, scores n, n − 1, ..., 1 down each list of n.

    Examples
    --------
    >>> print(run_text([Ranking("q1", ("b", "x", "a"), {"a": 2, "b": 1})]), end="")
    q1 Q0 b 1 3 rankwise
    q1 Q0 x 2 2 rankwise
    q1 Q0 a 3 1 rankwise
    """
    check_id(tag, "run tag")
    return "".join(f"{r.qid} Q0 {doc} {rank} {len(r.returned) - rank + 1} {tag}\n"
                   for r in rankings for rank, doc in enumerate(r.returned, 1))


def query_set(rankings: Sequence[Ranking]) -> metrics.QuerySet:
    """The rankings as the engine sees them (what the page computes its numbers from)."""
    return metrics.from_rankings([r.order_grades() for r in rankings], [r.judged_grades() for r in rankings])


# ----------------------------------------------------------------------------
# Measures and the engine's numbers
# ----------------------------------------------------------------------------

def resolve_measures(measures: Iterable[str], k: int | None) -> tuple[Measure, ...]:
    """The measures a page shows, with ``@k`` read as the page's cutoff ``k``.

    Names are the field's (see :mod:`components.engine.measures`): ``R@k``,
    ``Success@k``, ``P@k``, ``RR``, ``RR@k``, ``nDCG@k``, ``AP``, ``AP@k``, or
    a fixed cutoff such as ``RR@1``. When the page has no cutoff (``k=None``),
    a name ending in ``@k`` is left out, as the page shows no such number.
    Raises ``ValueError`` for an unknown name, a measure outside
    :data:`SNIPPET_FAMILIES` (DCG@k has no library counterpart) or no measure
    at all.

    Examples
    --------
    >>> [m.name for m in resolve_measures(["R@k", "RR", "nDCG@k", "RR@1"], 5)]
    ['R@5', 'RR', 'nDCG@5', 'RR@1']
    >>> [m.name for m in resolve_measures(["MAP", "MAP@k", "map_cut_3"], 5)]
    ['AP', 'AP@5', 'AP@3']
    >>> [m.name for m in resolve_measures(["RR", "RR@k"], None)]
    ['RR']
    """
    if k is not None:
        k = metrics.check_k(k)
    parsed = []
    for name in measures:
        if _AT_K.search(name):
            if k is None:
                continue
            name = _AT_K.sub(f"@{k}", name)
        measure = parse_measure(name)
        if measure.family not in SNIPPET_FAMILIES:
            raise ValueError(f"{measure.name} has no counterpart in the pytrec_eval and ir_measures snippets; they "
                             f"cover R@k, Success@k, P@k, RR, RR@k, nDCG@k, AP and AP@k")
        parsed.append(measure)
    if not parsed:
        raise ValueError("no measure to export: name at least one, e.g. R@k or RR")
    return tuple(dict.fromkeys(parsed))


def engine_values(rankings: Sequence[Ranking], measures: Sequence[Measure], gain: Gain) -> dict[str, float]:
    """Mean of each measure over the queries, from the engine: the page's numbers."""
    values = evaluate(query_set(rankings), measures, gain)
    return {name: float(v.mean()) for name, v in values.items()}


def expected_output(rankings: Sequence[Ranking], measures: Sequence[Measure], gain: Gain) -> str:
    """What every snippet prints: one line per measure, ``<name> <value to 3 decimals>``.

    Examples
    --------
    >>> from components.course.scenarios import FRAMEWORKS
    >>> b = Ranking("q1", FRAMEWORKS.presets["System B"], {d.id: d.grade for d in FRAMEWORKS.docs})
    >>> print(expected_output([b], resolve_measures(["nDCG@k"], 3), "exponential"))
    nDCG@3 0.531
    """
    # Python's own format, as the snippets print (an exact tie such as 1/16 = 0.0625 stays 0.062 there).
    return "\n".join(f"{name} {value:.3f}" for name, value in engine_values(rankings, measures, gain).items())


def exponential_gains(rankings: Sequence[Ranking]) -> dict[int, int]:
    """grade -> 2^grade − 1 (0 for a grade <= 0), for every grade in the qrels.

    Examples
    --------
    >>> exponential_gains([Ranking("q1", (), {"a": 2, "b": 0, "c": 1, "d": -2})])
    {-2: 0, 0: 0, 1: 1, 2: 3}
    """
    grades = sorted({g for r in rankings for g in r.grades.values()})
    return {g: 2 ** g - 1 if g > 0 else 0 for g in grades}


# ----------------------------------------------------------------------------
# Snippet templates (code, so they live here; the panel's prose is lessons/text/take_home.md)
# ----------------------------------------------------------------------------

PYTREC_EVAL_TEMPLATE = Template('''\
# pip install pytrec-eval-terrier   (run this next to $qrels and $run)
import pytrec_eval

with open("$qrels") as f:
    qrels = pytrec_eval.parse_qrel(f)
with open("$run") as f:
    run = pytrec_eval.parse_run(f)


def mean(qrels, run, measure):
    """trec_eval's measure, averaged over every judged query (a query missing from the run counts 0)."""
    values = pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(run)
    return sum(values.get(q, {}).get(measure, 0.0) for q in qrels) / len(qrels)

$setup
$prints
''')
PYTREC_EVAL_GAINS = '''\
# exponential gain: trec_eval takes the grade as the gain, so give it 2^rel - 1 (0 for a grade <= 0)
gains = {q: {d: 2 ** g - 1 if g > 0 else 0 for d, g in docs.items()} for q, docs in qrels.items()}
'''
PYTREC_EVAL_TOP_K = Template('''\
# RR@$k: trec_eval's RR has no cutoff, so keep each query's top $k (score descending, ties: docid descending)
top_$k = {q: dict(sorted(docs.items(), key=lambda d: (d[1], d[0]), reverse=True)[:$k]) for q, docs in run.items()}
''')
PYTREC_EVAL_PRINT = Template('''print("$label", f"{mean($qrels, $run, '$measure'):.3f}")''')

IR_MEASURES_TEMPLATE = Template('''\
# pip install ir-measures   (run this next to $qrels and $run)
import ir_measures
from ir_measures import $imports

qrels = list(ir_measures.read_trec_qrels("$qrels"))
run = list(ir_measures.read_trec_run("$run"))

# means over every judged query (a query missing from the run counts 0)
$calls
$prints
''')
IR_MEASURES_CALL = Template('''values = ir_measures.calc_aggregate([$measures], qrels, run)
''')
IR_MEASURES_GAINS = Template('''\
# nDCG@$k with exponential gain (2^rel - 1) as a gains mapping, in a call of its own:
# asked for together with another nDCG in one call, ir_measures can return a wrong value
ndcg_exp_$k = nDCG(gains=$gains)@$k
exp_$k = ir_measures.calc_aggregate([ndcg_exp_$k], qrels, run)
''')
IR_MEASURES_PRINT = Template('''print("$label", f"{$values[$measure]:.3f}")''')

COMMAND_TEMPLATE = Template("rankwise eval $qrels $run $measures --gain $gain$complete")


def _is_exponential_ndcg(measure: Measure, gain: Gain) -> bool:
    return measure.family == "nDCG" and gain == "exponential"


def pytrec_eval_snippet(rankings: Sequence[Ranking], measures: Sequence[Measure], gain: Gain, *,
                        qrels_name: str, run_name: str) -> str:
    """A pytrec_eval script that prints :func:`expected_output` for the files ``qrels_name`` and ``run_name``."""
    metrics.check_gain(gain)
    setup, prints = [], []
    if any(_is_exponential_ndcg(m, gain) for m in measures):
        setup.append(PYTREC_EVAL_GAINS)
    for m in measures:
        if m.family == "RR" and m.k is not None:
            piece = PYTREC_EVAL_TOP_K.substitute(k=m.k)
            if piece not in setup:
                setup.append(piece)
            qrels, run, name = "qrels", f"top_{m.k}", "recip_rank"
        elif m.family == "RR":
            qrels, run, name = "qrels", "run", "recip_rank"
        else:
            qrels = "gains" if _is_exponential_ndcg(m, gain) else "qrels"
            found = trec_name(m)
            if found is None:
                raise ValueError(f"{m.name} has no pytrec_eval measure to print it with")
            run, name = "run", found
        prints.append(PYTREC_EVAL_PRINT.substitute(label=m.name, qrels=qrels, run=run, measure=name))
    return PYTREC_EVAL_TEMPLATE.substitute(qrels=qrels_name, run=run_name, setup="".join(setup),
                                           prints="\n".join(prints))


def _ir_measures_name(measure: Measure) -> str:
    return measure.family if measure.k is None else f"{measure.family}@{measure.k}"


def ir_measures_snippet(rankings: Sequence[Ranking], measures: Sequence[Measure], gain: Gain, *,
                        qrels_name: str, run_name: str) -> str:
    """An ir_measures script that prints :func:`expected_output` for the files ``qrels_name`` and ``run_name``."""
    metrics.check_gain(gain)
    plain = [m for m in measures if not _is_exponential_ndcg(m, gain)]
    calls, prints = [], []
    if plain:
        calls.append(IR_MEASURES_CALL.substitute(measures=", ".join(_ir_measures_name(m) for m in plain)))
    gains = exponential_gains(rankings)
    for m in measures:
        if _is_exponential_ndcg(m, gain):
            piece = IR_MEASURES_GAINS.substitute(k=m.k, gains=repr(gains))
            if piece not in calls:
                calls.append(piece)
            prints.append(IR_MEASURES_PRINT.substitute(label=m.name, values=f"exp_{m.k}", measure=f"ndcg_exp_{m.k}"))
        else:
            prints.append(IR_MEASURES_PRINT.substitute(label=m.name, values="values", measure=_ir_measures_name(m)))
    imports = ", ".join(f for f in SNIPPET_FAMILIES if any(m.family == f for m in measures))
    return IR_MEASURES_TEMPLATE.substitute(qrels=qrels_name, run=run_name, imports=imports,
                                           calls="\n".join(calls), prints="\n".join(prints))


def command_line(rankings: Sequence[Ranking], measures: Sequence[Measure], gain: Gain, *,
                 qrels_name: str, run_name: str) -> str:
    """The ``rankwise eval`` line that prints the same numbers (``--complete`` if a list is empty).

    Examples
    --------
    >>> r = [Ranking("q1", ("a",), {"a": 1}), Ranking("q2", (), {"b": 1})]
    >>> command_line(r, resolve_measures(["R@k", "RR"], 5), "exponential", qrels_name="x.qrels", run_name="x.run")
    'rankwise eval x.qrels x.run -m R@5 -m RR --gain exponential --complete'
    """
    metrics.check_gain(gain)
    complete = " --complete" if any(not r.returned for r in rankings) else ""
    return COMMAND_TEMPLATE.substitute(qrels=qrels_name, run=run_name, gain=gain, complete=complete,
                                       measures=" ".join(f"-m {m.name}" for m in measures))


# ----------------------------------------------------------------------------
# Everything a panel needs
# ----------------------------------------------------------------------------

@dataclass(frozen=True)
class TakeHome:
    """A lesson's export: the two files, the numbers they give, and how to get them elsewhere.

    Attributes
    ----------
    qrels_name, run_name : file names (``<name>.qrels``, ``<name>.run``), as the snippets open them.
    qrels, run : the files' text.
    measures, gain : what the numbers are.
    expected : the engine's numbers, exactly as every snippet and :func:`expected_output` print them.
    snippets : tool (``pytrec_eval``, ``ir_measures``) -> a short runnable script.
    command : the ``rankwise eval`` line (run from the Rankwise folder).
    """

    qrels_name: str
    run_name: str
    qrels: str
    run: str
    measures: tuple[Measure, ...]
    gain: Gain
    expected: str
    snippets: Mapping[str, str]
    command: str


def take_home(name: str, queries: Iterable, *, k: int | None, gain: Gain, measures: Iterable[str]) -> TakeHome:
    """Export ``queries`` (rankings or editor states) with snippets for the ``measures`` a page shows.

    ``name`` names the files (``<name>.qrels``, ``<name>.run``): letters,
    digits, ``_``, ``.`` and ``-``. ``k`` is the page's cutoff, read into
    names ending in ``@k`` (see :func:`resolve_measures`); ``gain`` is the
    page's nDCG gain. Raises ``ValueError`` for a bad name, gain or measure, an
    unsafe id, or when no query returned anything (the run would be empty).

    Examples
    --------
    >>> from components.course.scenarios import LAWYER
    >>> a = Ranking("q1", LAWYER.presets["System A"], {d.id: d.grade for d in LAWYER.docs})
    >>> pack = take_home("recall", [a], k=5, gain="exponential", measures=["R@k", "RR"])
    >>> print(pack.expected)
    R@5 0.400
    RR 1.000
    >>> pack.command
    'rankwise eval recall.qrels recall.run -m R@5 -m RR --gain exponential'
    """
    if not isinstance(name, str) or not _SAFE_NAME.fullmatch(name):
        raise ValueError(f"name must be letters, digits, '_', '.' or '-' (it names the files), got {name!r}")
    gain = metrics.check_gain(gain)
    rankings = as_rankings(queries)
    if not any(r.returned for r in rankings):
        raise ValueError("no query returned any document: a run file needs at least one line")
    parsed = resolve_measures(measures, k)
    files = dict(qrels_name=f"{name}.qrels", run_name=f"{name}.run")
    return TakeHome(
        **files,
        qrels=qrels_text(rankings),
        run=run_text(rankings),
        measures=parsed,
        gain=gain,
        expected=expected_output(rankings, parsed, gain),
        snippets=MappingProxyType({
            "pytrec_eval": pytrec_eval_snippet(rankings, parsed, gain, **files),
            "ir_measures": ir_measures_snippet(rankings, parsed, gain, **files),
        }),
        command=command_line(rankings, parsed, gain, **files),
    )


# ----------------------------------------------------------------------------
# Tables for a spreadsheet
# ----------------------------------------------------------------------------

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet may read as the start of a formula


def spreadsheet_safe(text: str) -> str:
    """A text cell no spreadsheet runs as a formula: a leading ``'`` before = + - @ tab or CR (OWASP's advice).

    >>> spreadsheet_safe('=HYPERLINK("http://x","y")'), spreadsheet_safe("q1")
    ('\\'=HYPERLINK("http://x","y")', 'q1')
    """
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def table_csv(table) -> str:
    """A pandas table as CSV for download: every text cell made :func:`spreadsheet_safe`, numbers as they are."""
    from pandas.api.types import is_numeric_dtype

    safe = table.copy()
    for column in safe.columns:
        if not is_numeric_dtype(safe[column]):
            safe[column] = safe[column].map(lambda v: spreadsheet_safe(v) if isinstance(v, str) else v)
    return safe.to_csv(index=False)
