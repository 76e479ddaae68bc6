"""Measure names as the field writes them (and trec_eval's), evaluating them on a query set, and set-level values.

Valid names (case-insensitive; k is a whole number from 1 to :data:`MAX_CUTOFF`, 2^63 − 1):

=========================================  ===========  ==============  =======  =================================
typed                                      canonical    trec_eval       over Q   engine (:mod:`components.engine.metrics`)
=========================================  ===========  ==============  =======  =================================
R@k, recall@k, recall_k                    R@k          recall_k        mean     :func:`~components.engine.metrics.recall`
Success@k, hit_rate@k, success_k           Success@k    success_k       mean     :func:`~components.engine.metrics.success`
P@k, P_k                                   P@k          P_k             mean     :func:`~components.engine.metrics.precision`
RR, MRR, recip_rank                        RR           recip_rank      mean     :func:`~components.engine.metrics.reciprocal_rank`
RR@k, MRR@k                                RR@k         (none)          mean     reciprocal_rank with the cutoff k
nDCG@k, ndcg@k, ndcg_cut_k                 nDCG@k       ndcg_cut_k      mean     :func:`~components.engine.metrics.ndcg`
nDCG, ndcg                                 nDCG         ndcg            mean     ndcg over the whole list
DCG@k                                      DCG@k        (none)          mean     :func:`~components.engine.metrics.dcg`
IDCG@k                                     IDCG@k       (none)          mean     :func:`~components.engine.metrics.idcg`
AP, MAP, map                               AP           map             mean     :func:`~components.engine.metrics.average_precision`
AP@k, MAP@k, map_cut_k                     AP@k         map_cut_k       mean     average_precision with the cutoff k
GMAP, gm_map                               GMAP         gm_map          geo.     :func:`~components.engine.metrics.floored_average_precision`
R-prec, Rprec                              R-prec       Rprec           mean     :func:`~components.engine.metrics.r_precision`
Rprec_mult@m, Rprec_mult_m (m > 0)         Rprec_mult@m Rprec_mult      mean     :func:`~components.engine.metrics.r_precision_at_multiple`
bpref                                      bpref        bpref           mean     :func:`~components.engine.metrics.bpref`
gm_bpref                                   gm_bpref     gm_bpref        geo.     :func:`~components.engine.metrics.floored_bpref`
infAP                                      infAP        infAP           mean     :func:`~components.engine.metrics.inferred_average_precision`
IPrec@x, iprec_at_recall_x (0 <= x <= 1)   IPrec@x      iprec_at_recall mean     :func:`~components.engine.metrics.interpolated_precision`
11pt_avg, 11-pt_avg                        11pt_avg     11pt_avg        mean     :func:`~components.engine.metrics.eleven_point_average`
Judged@k                                   Judged@k     (none)          mean     :func:`~components.engine.metrics.judged_at_k`
num_ret, NumRet                            num_ret      num_ret         sum      :func:`~components.engine.metrics.num_returned`
num_rel, NumRel                            num_rel      num_rel         sum      :func:`~components.engine.metrics.num_relevant`
num_rel_ret, NumRelRet                     num_rel_ret  num_rel_ret     sum      :func:`~components.engine.metrics.num_relevant_returned`
num_q, NumQ                                num_q        num_q           count    :func:`~components.engine.metrics.num_queries`
=========================================  ===========  ==============  =======  =================================

MRR is the mean of the per-query RR, and MAP the mean of the per-query AP,
so each pair of names gives the same per-query values; results are keyed by
the canonical name whatever alias was typed. Only nDCG, DCG and IDCG depend
on the gain ("linear": rel, as trec_eval; "exponential": 2^rel − 1).

"over Q" is how :func:`aggregate` turns per-query values into the set's value,
as trec_eval's summary line ("all") does: the mean for most; the sum for
the counts num_ret, num_rel and num_rel_ret; for num_q, whose per-query value
is 1 (trec_eval prints it only for "all"), the sum of those ones, the number
of queries; for GMAP and gm_bpref the geometric mean of the per-query
values, which are AP and bpref floored at 0.00001 (pytrec_eval reports the
log of that value per query). :func:`trec_name` gives trec_eval's name of
each measure, or None where trec_eval has none (RR@k, DCG@k, IDCG@k and
Judged@k, which is ir_measures').

infAP reads a negative grade as trec_eval does: "in the pool, but not
judged" (the pool was sampled and this document was not), unlike the other
measures here, for which a negative grade is judged non-relevant
(docs/conventions.md). Rprec_mult's m is a multiple of R, not a rank:
``Rprec_mult@0.2`` is P@c with c = ⌊0.2 · R + 0.9⌋, trec_eval's
``Rprec_mult_0.20``.

trec_eval's measure sets are names too (:data:`MEASURE_SETS`): ``official``
(what trec_eval prints by default) and ``all_trec`` (every trec_eval measure
offered here, with trec_eval's default cutoffs); and trec_eval's form
``name.p1,p2`` gives one measure per parameter (``P.5,10`` is P@5 and P@10,
``iprec_at_recall.0.5`` is IPrec@0.5, ``Rprec_mult.0.2,2`` is Rprec_mult@0.2
and Rprec_mult@2). :func:`trec_order` sorts measures as trec_eval prints
them. Not offered from trec_eval's own list: relstring, utility, binG, G,
ndcg_rel, Rndcg, relative_P, the set_ measures and num_nonrel_judged_ret;
nor 11pt_avg over levels of one's own (trec_eval's ``11pt_avg.0.2,0.5,0.8``,
one average over those levels).

No Streamlit import here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable, Literal

import numpy as np

from components.engine import metrics
from components.engine.metrics import Gain, QuerySet

DEFAULT_MEASURES = ("R@5", "R@10", "RR", "nDCG@10")

Aggregation = Literal["mean", "sum", "geometric mean"]
GEOMETRIC_MEAN: Aggregation = "geometric mean"  # GMAP's and gm_bpref's
# "level": a recall level between 0 and 1, not a rank; "multiple": a multiple of R, above 0, not a rank
Cutoff = Literal["required", "optional", "none", "level", "multiple"]
Engine = Callable[..., np.ndarray]  # (qs, k, gain), and the trec_eval version for a versioned family


@dataclass(frozen=True)
class _Family:
    """How one family of measures is computed, named in trec_eval and summed up over the queries."""

    compute: Engine  # per-query values; k is None only where the cutoff is optional or absent
    cutoff: Cutoff = "required"
    trec: str | None = None  # trec_eval's name without a cutoff
    trec_cut: str | None = None  # trec_eval's name with a cutoff k: f"{trec_cut}_{k}"
    aggregation: Aggregation = "mean"
    versioned: bool = False  # compute takes a 4th argument: the trec_eval whose convention to follow (TrecEval)


# canonical family -> how the engine computes it per query (the cutoff families check k with metrics.check_k)
_FAMILIES: dict[str, _Family] = {
    "R": _Family(lambda qs, k, gain: metrics.recall(qs, metrics.check_k(k)), trec_cut="recall"),
    "Success": _Family(lambda qs, k, gain: metrics.success(qs, metrics.check_k(k)), trec_cut="success"),
    "P": _Family(lambda qs, k, gain: metrics.precision(qs, metrics.check_k(k)), trec_cut="P"),
    "RR": _Family(lambda qs, k, gain: metrics.reciprocal_rank(qs, k), "optional", trec="recip_rank"),
    "nDCG": _Family(lambda qs, k, gain: metrics.ndcg(qs, k, gain), "optional", trec="ndcg", trec_cut="ndcg_cut"),
    "DCG": _Family(lambda qs, k, gain: metrics.dcg(qs, metrics.check_k(k), gain)),
    "IDCG": _Family(lambda qs, k, gain: metrics.idcg(qs, metrics.check_k(k), gain)),
    "AP": _Family(lambda qs, k, gain: metrics.average_precision(qs, k), "optional", trec="map", trec_cut="map_cut"),
    "GMAP": _Family(lambda qs, k, gain: metrics.floored_average_precision(qs), "none", trec="gm_map",
                    aggregation=GEOMETRIC_MEAN),
    "R-prec": _Family(lambda qs, k, gain: metrics.r_precision(qs), "none", trec="Rprec"),
    "Rprec_mult": _Family(lambda qs, k, gain: metrics.r_precision_at_multiple(qs, k), "multiple",
                          trec_cut="Rprec_mult"),
    "bpref": _Family(lambda qs, k, gain: metrics.bpref(qs), "none", trec="bpref"),
    "gm_bpref": _Family(lambda qs, k, gain: metrics.floored_bpref(qs), "none", trec="gm_bpref",
                        aggregation=GEOMETRIC_MEAN),
    "infAP": _Family(lambda qs, k, gain: metrics.inferred_average_precision(qs), "none", trec="infAP"),
    "IPrec": _Family(lambda qs, k, gain, version: metrics.interpolated_precision(qs, k, version), "level",
                     trec_cut="iprec_at_recall", versioned=True),
    "11pt_avg": _Family(lambda qs, k, gain, version: metrics.eleven_point_average(qs, version), "none",
                        trec="11pt_avg", versioned=True),
    "Judged": _Family(lambda qs, k, gain: metrics.judged_at_k(qs, metrics.check_k(k))),
    "num_ret": _Family(lambda qs, k, gain: metrics.num_returned(qs), "none", trec="num_ret", aggregation="sum"),
    "num_rel": _Family(lambda qs, k, gain: metrics.num_relevant(qs), "none", trec="num_rel", aggregation="sum"),
    "num_rel_ret": _Family(lambda qs, k, gain: metrics.num_relevant_returned(qs), "none", trec="num_rel_ret",
                           aggregation="sum"),
    "num_q": _Family(lambda qs, k, gain: metrics.num_queries(qs), "none", trec="num_q", aggregation="sum"),
}

# typed family name (lower case) -> canonical family name; trec_eval's own names, and ir_measures' for the counts
_ALIASES = {
    "r": "R", "recall": "R",
    "success": "Success", "hit_rate": "Success",
    "p": "P",
    "rr": "RR", "mrr": "RR", "recip_rank": "RR",
    "ndcg": "nDCG", "ndcg_cut": "nDCG",
    "dcg": "DCG",
    "idcg": "IDCG",
    "ap": "AP", "map": "AP", "map_cut": "AP",
    "gmap": "GMAP", "gm_map": "GMAP",
    "r-prec": "R-prec", "rprec": "R-prec",
    "rprec_mult": "Rprec_mult",
    "bpref": "bpref",
    "gm_bpref": "gm_bpref",
    "infap": "infAP",
    "iprec": "IPrec", "iprec_at_recall": "IPrec",
    "11pt_avg": "11pt_avg", "11-pt_avg": "11pt_avg",  # 11-pt_avg: trec_eval 8's name
    "judged": "Judged",
    "num_ret": "num_ret", "numret": "num_ret",
    "num_rel": "num_rel", "numrel": "num_rel",
    "num_rel_ret": "num_rel_ret", "numrelret": "num_rel_ret",
    "num_q": "num_q", "numq": "num_q",
}
_NOT_RANKS = ("level", "multiple")  # the cutoffs that are a decimal (trec_eval writes them with 2 decimals)
_NEEDS_CUTOFF = {"ndcg_cut", "map_cut"}  # trec_eval's cutoff names: without k they would mean another measure
# a family (11pt_avg begins with digits), then optionally a cutoff after "@" (the field's names) or "_" (trec_eval's:
# P_5, map_cut_10); a recall level (IPrec@0.5, iprec_at_recall_0.50) or a multiple of R (Rprec_mult_0.20) is a decimal
_FAMILY = r"(?P<family>[A-Za-z0-9][A-Za-z0-9_-]*?)"
_NAME = re.compile(_FAMILY + r"(?:[@_](?P<k>[0-9]+(?:\.[0-9]*)?|\.[0-9]+))?")
# trec_eval's form name.p1,p2,...: one measure per parameter
_TREC_PARAMETERS = re.compile(_FAMILY + r"\.(?P<params>[0-9.]+(?:,[0-9.]+)*)")

MAX_CUTOFF = 2**63 - 1  # the largest k: trec_eval reads cutoffs as a C long; numpy compares ranks as int64
TREC_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)  # trec_eval's default cutoffs for P, recall, ndcg_cut, map_cut
RECALL_LEVELS = metrics.ELEVEN_POINTS  # trec_eval's default levels for iprec_at_recall: 0.0, 0.1, ..., 1.0
R_MULTIPLES = tuple(i / 5 for i in range(1, 11))  # trec_eval's default multiples for Rprec_mult: 0.2, 0.4, ..., 2.0
MAX_MULTIPLE = 1000  # the largest multiple of R for Rprec_mult (trec_eval's defaults go to 2)
_OFFICIAL = ("num_q", "num_ret", "num_rel", "num_rel_ret", "AP", "GMAP", "R-prec", "bpref", "RR",
             *(f"IPrec@{x:g}" for x in RECALL_LEVELS), *(f"P@{k}" for k in TREC_CUTOFFS))
MEASURE_SETS: dict[str, tuple[str, ...]] = {
    "official": _OFFICIAL,  # trec_eval's default output (with its runid line, which is not a measure)
    "all_trec": (*_OFFICIAL, *(f"R@{k}" for k in TREC_CUTOFFS), "infAP", "gm_bpref",
                 *(f"Rprec_mult@{m:g}" for m in R_MULTIPLES), "11pt_avg", "nDCG",
                 *(f"nDCG@{k}" for k in TREC_CUTOFFS), *(f"AP@{k}" for k in TREC_CUTOFFS),
                 "Success@1", "Success@5", "Success@10"),
}
# trec_eval prints its measures in the order of its te_trec_measures table (those offered here), a family's
# cutoffs ascending
_TREC_PRINT_ORDER = ("num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
                     "iprec_at_recall", "P", "recall", "infAP", "gm_bpref", "Rprec_mult", "11pt_avg", "ndcg",
                     "ndcg_cut", "map_cut", "success")

VALID_FORMS = (
    "valid measures (case-insensitive, k a whole number >= 1): R@k, Success@k, P@k, RR, RR@k, nDCG@k, DCG@k, IDCG@k, "
    "nDCG, AP, AP@k, GMAP, R-prec, bpref, IPrec@x (a recall level x from 0 to 1), Judged@k, num_ret, num_rel, "
    "num_rel_ret, num_q, and trec_eval's infAP, gm_bpref, 11pt_avg and Rprec_mult@m (a multiple m of R, above 0); "
    "aliases: recall@k, hit_rate@k, MRR, MRR@k, ndcg@k, MAP, MAP@k, and trec_eval's names (recall_k, success_k, P_k, "
    "recip_rank, ndcg_cut_k, ndcg, map, map_cut_k, gm_map, Rprec, iprec_at_recall_x, Rprec_mult_m), its form "
    "P.5,10 and its sets official and all_trec; for example R@5, RR@10, nDCG@10, AP")


@dataclass(frozen=True)
class Measure:
    """One measure: a family (``R``, ``Success``, ``P``, ``RR``, ``nDCG``, ``DCG``, ``IDCG``, ``AP``, ``GMAP``,
    ``R-prec``, ``Rprec_mult``, ``bpref``, ``gm_bpref``, ``infAP``, ``IPrec``, ``11pt_avg``, ``Judged``,
    ``num_ret``, ``num_rel``, ``num_rel_ret``, ``num_q``) and its cutoff k.

    ``k`` is None for a measure without a cutoff (RR, nDCG and AP may have
    one; GMAP, R-prec, bpref, gm_bpref, infAP, 11pt_avg and the counts never
    do); for IPrec it is the recall level, a float between 0 and 1; for
    Rprec_mult the multiple of R, a float above 0.
    """

    family: str
    k: int | float | None = None

    @property
    def name(self) -> str:
        """The canonical name: ``R@5``, ``RR``, ``RR@10``, ``nDCG@10``, ...

        Examples
        --------
        A cutoff is written in full, a recall level in positional notation (never as ``1e+06``, which would
        not read back as the same measure):

        >>> Measure("nDCG", 10).name, Measure("RR").name, Measure("IPrec", 0.5).name
        ('nDCG@10', 'RR', 'IPrec@0.5')
        >>> Measure("R", 1_000_000).name, Measure("IPrec", 1e-10).name, Measure("IPrec", 1.0).name
        ('R@1000000', 'IPrec@0.0000000001', 'IPrec@1')
        >>> Measure("Rprec_mult", 0.2).name, Measure("Rprec_mult", 2.0).name, Measure("11pt_avg").name
        ('Rprec_mult@0.2', 'Rprec_mult@2', '11pt_avg')
        """
        if self.k is None:
            return self.family
        if isinstance(self.k, float):
            return f"{self.family}@{np.format_float_positional(self.k, trim='-')}"
        return f"{self.family}@{self.k}"

    def __str__(self) -> str:
        return self.name


def parse_measure(text: str, typed: str | None = None) -> Measure:
    """Read a measure name as the field writes it, or as trec_eval does.

    Raises ``ValueError``, listing the valid forms, for an unknown name, a
    missing cutoff (``P`` alone), a cutoff on a measure that has none
    (``bpref@10``) or a cutoff outside 1 .. :data:`MAX_CUTOFF`. The message
    quotes ``typed`` (default: ``text``), the name as the user wrote it.

    Examples
    --------
    >>> [parse_measure(t).name for t in ["r@5", "MRR", "mrr@10", "hit_rate@3", "NDCG@10", "recall@20"]]
    ['R@5', 'RR', 'RR@10', 'Success@3', 'nDCG@10', 'R@20']
    >>> [parse_measure(t).name for t in ["MAP", "map_cut_10", "gm_map", "Rprec", "ndcg", "P_5", "judged@10"]]
    ['AP', 'AP@10', 'GMAP', 'R-prec', 'nDCG', 'P@5', 'Judged@10']
    >>> [parse_measure(t).name for t in ["IPrec@0.5", "iprec_at_recall_0.10", "iprec@1", "IPrec@.3"]]
    ['IPrec@0.5', 'IPrec@0.1', 'IPrec@1', 'IPrec@0.3']
    >>> [parse_measure(t).name for t in ["Rprec_mult_0.20", "rprec_mult@2", "INFAP", "gm_bpref", "11-pt_avg"]]
    ['Rprec_mult@0.2', 'Rprec_mult@2', 'infAP', 'gm_bpref', '11pt_avg']
    >>> parse_measure("ERR@10")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown measure 'ERR@10'; valid measures (case-insensitive, k a whole number >= 1): R@k, Success@k, ...
    """
    shown = text if typed is None else typed
    match = _NAME.fullmatch(text.strip())
    name = match["family"].lower() if match else ""
    family = _ALIASES.get(name)
    if match is None or family is None:
        raise ValueError(f"unknown measure {shown!r}; {VALID_FORMS}")
    cutoff = _FAMILIES[family].cutoff
    if match["k"] is None:
        if cutoff == "multiple":
            raise ValueError(f"measure {shown!r} needs a multiple m of R, as in {family}@0.2 (trec_eval's "
                             f"Rprec_mult_0.20); {VALID_FORMS}")
        if cutoff in ("required", "level") or name in _NEEDS_CUTOFF:
            example = "0.5" if cutoff == "level" else "10"
            raise ValueError(f"measure {shown!r} needs a cutoff k, as in {family}@{example}; {VALID_FORMS}")
        return Measure(family)
    if cutoff == "none":
        raise ValueError(f"measure {shown!r} takes no cutoff: write {family}; {VALID_FORMS}")
    if cutoff == "level":
        level = float(match["k"])
        if level > 1:
            raise ValueError(f"measure {shown!r} has recall level {match['k']}, but a recall level lies between 0 "
                             f"and 1; {VALID_FORMS}")
        return Measure(family, level)
    if cutoff == "multiple":
        multiple = float(match["k"])
        if not 0 < multiple <= MAX_MULTIPLE:
            raise ValueError(f"measure {shown!r} has multiple {match['k']}, but m is a multiple of R above 0 and at "
                             f"most {MAX_MULTIPLE}; {VALID_FORMS}")
        return Measure(family, multiple)
    digits = match["k"]
    if not digits.isdigit() or not 1 <= _whole(digits) <= MAX_CUTOFF:
        raise ValueError(f"measure {shown!r} has cutoff {digits}, but k counts positions from the top (1, 2, 3, "
                         f"..., at most {MAX_CUTOFF:,}); {VALID_FORMS}")
    return Measure(family, int(digits))


def _whole(digits: str) -> int:
    """The number ASCII ``digits`` write; one above :data:`MAX_CUTOFF` for more digits than it has (``int`` refuses
    strings of more than 4,300 digits)."""
    significant = digits.lstrip("0") or "0"
    return int(significant) if len(significant) <= len(str(MAX_CUTOFF)) else MAX_CUTOFF + 1


def parse_measures(texts: Iterable[str]) -> tuple[Measure, ...]:
    """Parse several names; a measure typed twice (even as two aliases) is kept once, first place.

    A set's name (:data:`MEASURE_SETS`, case-insensitive) stands for its
    measures, and trec_eval's form ``name.p1,p2`` for one measure per parameter.

    Examples
    --------
    >>> [m.name for m in parse_measures(["R@5", "RR", "recall@5", "MRR", "P@5"])]
    ['R@5', 'RR', 'P@5']
    >>> [m.name for m in parse_measures(["P.5,10", "ndcg_cut.10", "iprec_at_recall.0.5,1"])]
    ['P@5', 'P@10', 'nDCG@10', 'IPrec@0.5', 'IPrec@1']
    >>> len(parse_measures(["official"])), len(parse_measures(["all_trec"]))
    (29, 73)
    """
    return tuple(dict.fromkeys(m for t in texts for m in _expanded(t)))


def _expanded(text: str) -> list[Measure]:
    """The measures one typed name stands for: a set's, trec_eval's ``name.p1,p2``, or one."""
    named_set = MEASURE_SETS.get(text.strip().lower())
    if named_set is not None:
        return [parse_measure(name) for name in named_set]
    with_parameters = _TREC_PARAMETERS.fullmatch(text.strip())
    if with_parameters:
        return [parse_measure(f"{with_parameters['family']}_{p}", typed=text)
                for p in with_parameters["params"].split(",")]
    return [parse_measure(text)]


def uses_measure_set(texts: Iterable[str]) -> bool:
    """Whether one of the typed names is one of trec_eval's measure sets (whose output begins with the runid).

    >>> uses_measure_set(["AP", "Official"]), uses_measure_set(["AP"])
    (True, False)
    """
    return any(t.strip().lower() in MEASURE_SETS for t in texts)


def trec_order(measures: Iterable[Measure | str]) -> list[Measure]:
    """The measures in the order trec_eval prints them: its table's order of families, each family's cutoffs
    ascending; measures trec_eval does not have come last, as given.

    >>> [m.name for m in trec_order(["P@10", "AP", "P@5", "nDCG@10", "num_q", "RR@10"])]
    ['num_q', 'AP', 'P@5', 'P@10', 'nDCG@10', 'RR@10']
    """
    parsed = [_measure(m) for m in measures]

    def place(m: Measure) -> tuple[int, float]:
        family = _FAMILIES[m.family]
        name = family.trec if m.k is None else family.trec_cut  # trec_eval's name, without the cutoff
        if name is None:
            return len(_TREC_PRINT_ORDER), 0
        return _TREC_PRINT_ORDER.index(name), 0 if m.k is None else m.k

    return sorted(parsed, key=place)


def evaluate(qs: QuerySet, measures: Iterable[Measure | str], gain: Gain,
             trec_eval: metrics.TrecEval = "9") -> dict[str, np.ndarray]:
    """Per-query values of each measure, keyed by canonical name, in the order given.

    Every value comes from the engine (:mod:`components.engine.metrics`); ``gain``
    applies to nDCG, DCG and IDCG only; ``trec_eval`` ("9": 9.0.7, as pytrec_eval; "10": 10.0) to the two
    measures whose cutoff of relevant documents the versions round apart, IPrec@x and 11pt_avg
    (:func:`~components.engine.metrics.recall_cutoff`). Names are parsed with :func:`parse_measure`.
    The set's value of each is :func:`aggregate` of these (not always their mean).

    Examples
    --------
    The four-query example (one relevant document per query, at ranks 1, 3, 1 and 8):

    >>> qs = metrics.from_rankings([[1], [0, 0, 1], [1], [0] * 7 + [1]])
    >>> values = evaluate(qs, ["recall@3", "MRR"], gain="linear")
    >>> values["R@3"].tolist(), round(float(values["RR"].mean()), 4)
    ([1.0, 1.0, 1.0, 0.0], 0.6146)
    """
    metrics.check_gain(gain)
    parsed = [m if isinstance(m, Measure) else parse_measure(m) for m in measures]
    if trec_eval not in metrics.TREC_EVAL_VERSIONS:
        raise ValueError(f"trec_eval must be one of {metrics.TREC_EVAL_VERSIONS}, got {trec_eval!r}")
    return {m.name: _FAMILIES[m.family].compute(qs, m.k, gain, trec_eval) if _FAMILIES[m.family].versioned
            else _FAMILIES[m.family].compute(qs, m.k, gain) for m in parsed}


def _measure(measure: Measure | str) -> Measure:
    return measure if isinstance(measure, Measure) else parse_measure(measure)


def aggregation(measure: Measure | str) -> Aggregation:
    """How the set's value comes from the per-query values, as in trec_eval's "all" line.

    "mean" for most measures; "sum" for num_ret, num_rel, num_rel_ret and
    num_q (whose per-query value is 1, so the sum is the number of queries);
    "geometric mean" for GMAP and gm_bpref.

    >>> aggregation("AP"), aggregation("num_rel_ret"), aggregation("gm_map"), aggregation("gm_bpref")
    ('mean', 'sum', 'geometric mean', 'geometric mean')
    """
    return _FAMILIES[_measure(measure).family].aggregation


def aggregate(measure: Measure | str, per_query) -> float:
    """The query set's value of ``measure`` from its per-query values (from :func:`evaluate`), as trec_eval's "all".

    The mean, the sum or the geometric mean (with trec_eval's floor 0.00001),
    as :func:`aggregation` says; nan for the mean of no queries, 0 for a sum
    over none.

    Examples
    --------
    >>> qs = metrics.from_rankings([[1, 0], [0, 1, 1]], [[1, 0], [1, 1, 1]])
    >>> values = evaluate(qs, ["AP", "num_rel", "num_q", "GMAP"], gain="linear")
    >>> {name: round(aggregate(name, v), 4) for name, v in values.items()}
    {'AP': 0.6944, 'num_rel': 4.0, 'num_q': 2.0, 'GMAP': 0.6236}
    """
    values = np.asarray(per_query, dtype=np.float64)
    rule = aggregation(measure)
    if rule == "sum":
        return float(values.sum())
    if rule == GEOMETRIC_MEAN:
        return metrics.geometric_mean(values)
    return float(values.mean()) if values.size else float("nan")


def trec_name(measure: Measure | str) -> str | None:
    """trec_eval's name of ``measure`` (as pytrec_eval reports it), or None where trec_eval has no such measure.

    The name says which measure, not which gain: trec_eval's nDCG is always
    linear gain. RR@k, DCG@k and IDCG@k have no trec_eval counterpart;
    Judged@k is ir_measures' measure.

    >>> [trec_name(n) for n in ["R@10", "P@5", "RR", "RR@10", "nDCG@10", "nDCG", "AP", "AP@10", "Success@10"]]
    ['recall_10', 'P_5', 'recip_rank', None, 'ndcg_cut_10', 'ndcg', 'map', 'map_cut_10', 'success_10']
    >>> [trec_name(n) for n in ["GMAP", "R-prec", "bpref", "Judged@10", "num_rel_ret", "num_q", "IPrec@0.1"]]
    ['gm_map', 'Rprec', 'bpref', None, 'num_rel_ret', 'num_q', 'iprec_at_recall_0.10']
    >>> [trec_name(n) for n in ["infAP", "gm_bpref", "11pt_avg", "Rprec_mult@0.2", "Rprec_mult@2"]]
    ['infAP', 'gm_bpref', '11pt_avg', 'Rprec_mult_0.20', 'Rprec_mult_2.00']
    """
    parsed = _measure(measure)
    family = _FAMILIES[parsed.family]
    if parsed.k is None:
        return family.trec
    if family.trec_cut is None:
        return None
    return f"{family.trec_cut}_{parsed.k:.2f}" if family.cutoff in _NOT_RANKS else f"{family.trec_cut}_{parsed.k}"


def rank_cutoff(measure: Measure | str) -> int | None:
    """The rank cutoff k the measure stops at, or None when it reads the whole list (IPrec's k is a recall level,
    Rprec_mult's a multiple of R: each query's cutoff depends on its R).

    >>> rank_cutoff("nDCG@10"), rank_cutoff("AP"), rank_cutoff("IPrec@0.5"), rank_cutoff("Rprec_mult@2")
    (10, None, None, None)
    """
    parsed = _measure(measure)
    return None if _FAMILIES[parsed.family].cutoff in _NOT_RANKS else parsed.k  # type: ignore[return-value]


def is_count(measure: Measure | str) -> bool:
    """Whether trec_eval prints the measure as a whole number (num_q, num_ret, num_rel, num_rel_ret).

    >>> is_count("num_ret"), is_count("AP")
    (True, False)
    """
    return _FAMILIES[_measure(measure).family].aggregation == "sum"


def per_query_in_trec(measure: Measure | str) -> bool:
    """Whether trec_eval's ``-q`` prints the measure per query: not num_q, GMAP and gm_bpref (only in the "all"
    line).

    >>> per_query_in_trec("GMAP"), per_query_in_trec("gm_bpref"), per_query_in_trec("AP")
    (False, False, True)
    """
    parsed = _measure(measure)
    return parsed.family != "num_q" and _FAMILIES[parsed.family].aggregation != GEOMETRIC_MEAN


def cutoff_kind(family: str) -> Cutoff:
    """Whether a family (canonical name) takes a rank cutoff k: "required" (R@k), "optional" (RR and RR@k), "none"
    (bpref), or a cutoff that is no rank ("level", "multiple"). The measure pickers derive their choices from it.

    >>> cutoff_kind("R"), cutoff_kind("nDCG"), cutoff_kind("bpref"), cutoff_kind("IPrec")
    ('required', 'optional', 'none', 'level')
    """
    return _FAMILIES[family].cutoff
