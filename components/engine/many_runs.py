"""A baseline against several runs, over several measures, with the p-values corrected as one family.

Each run other than the baseline is compared with it as
:mod:`components.engine.compare` compares two runs (the same pairing rule:
the queries judged and answered by both), measure by measure:

- each run's own mean per measure with its 95% t-interval
  :math:`\\bar x \\pm t_{0.975,\\,n-1}\\, s/\\sqrt n` over its evaluated
  queries (what ``rankwise eval`` of that run alone gives);
- against the baseline: the mean difference, its 95% t-interval and its
  paired BCa bootstrap interval (:mod:`components.engine.bootstrap`; runs on the same queries are
  resampled together, the same draws for all), the
  wins, ties and losses, the paired t-test and the randomisation test;
- the randomisation tests' p-values (the primary test: it assumes no shape of
  the differences) and the t-tests' are each corrected across the whole
  family of m = (runs − 1) × measures comparisons
  (:mod:`components.engine.corrections`, Holm by default). A difference is
  *significant* only when its corrected randomisation p is below α.
- a measure averaged geometrically (GMAP, gm_bpref) is compared as its
  mean is taken: the paired means are geometric means over the shared
  queries, and the tests and both intervals work on the per-query log
  ratios, each interval brought back as a difference of geometric means
  (:func:`components.engine.compare.compare_values`).

A run that scores 0 on every query for every measure (a variant that never
ran, or whose ids match nothing) is **flagged** and left out of the family:
its comparisons are shown but never called significant, and it does not
make the correction of the others harsher. No Streamlit import here.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import numpy as np

from components.engine import attribution, bootstrap, compare, corrections, metrics, model
from components.engine.measures import GEOMETRIC_MEAN, Measure, aggregate, aggregation, evaluate, parse_measure
from components.engine.metrics import Gain

MAX_RUNS = 10  # the baseline included
ALPHA = compare.ALPHA


@dataclass(frozen=True)
class RunSummary:
    """One run on its own: its evaluated queries, each measure's mean and 95% t-interval, and the flag.

    never_ran : every per-query value of every measure is 0 (the run is left out of the correction).
    """

    name: str
    queries: int
    mean: dict[str, float]
    ci95: dict[str, tuple[float, float]]
    never_ran: bool


@dataclass(frozen=True)
class Versus:
    """One run against the baseline on one measure.

    comparison : the paired comparison (:class:`components.engine.compare.Comparison`).
    boot : the paired BCa bootstrap interval of the mean difference.
    p_t, p_rand : the t-test's and the randomisation test's p-values corrected across the family (nan when the
        run is flagged: it is not in the family).
    significant : the corrected randomisation p is below α (never for a flagged run).
    """

    run: str
    measure: str
    comparison: compare.Comparison
    boot: bootstrap.Interval
    p_t: float
    p_rand: float
    significant: bool

    @property
    def intervals_disagree(self) -> bool:
        """Whether the t-interval and the bootstrap interval disagree on whether 0 is inside."""
        return bootstrap.disagree(self.comparison.ci95, self.boot)


@dataclass(frozen=True)
class ManyRuns:
    """The whole comparison: ``runs[baseline]`` is the baseline; ``versus[(run, measure)]`` each pair."""

    names: tuple[str, ...]
    baseline: int
    measures: tuple[str, ...]
    runs: tuple[RunSummary, ...]
    versus: dict[tuple[str, str], Versus]
    pairings: dict[str, compare.Pairing]
    correction: corrections.Correction
    alpha: float
    family: int  # m, the number of comparisons corrected together

    @property
    def others(self) -> tuple[str, ...]:
        """The runs compared with the baseline, in the order given."""
        return tuple(n for i, n in enumerate(self.names) if i != self.baseline)

    @property
    def flagged(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.runs if r.never_ran)

    def as_dict(self) -> dict[str, Any]:
        """The JSON document: the settings, each run's means and intervals, each comparison with raw and
        corrected p-values and both intervals (nan and inf become None)."""
        def num(x: float) -> float | None:
            return float(x) if math.isfinite(x) else None

        return {
            "baseline": self.names[self.baseline], "correction": self.correction, "alpha": self.alpha,
            "family": self.family, "flagged": list(self.flagged),
            "runs": {r.name: {"queries": r.queries, "never_ran": r.never_ran,
                              "mean": {m: num(v) for m, v in r.mean.items()},
                              "ci95": {m: [num(lo), num(hi)] for m, (lo, hi) in r.ci95.items()}} for r in self.runs},
            "versus_baseline": {run: {m: {**self.versus[run, m].comparison.as_dict(),
                                          "bootstrap": self.versus[run, m].boot.as_dict(),
                                          "t_test_p_corrected": num(self.versus[run, m].p_t),
                                          "randomisation_p_corrected": num(self.versus[run, m].p_rand),
                                          "significant": self.versus[run, m].significant}
                                      for m in self.measures} for run in self.others},
        }


def summarise(name: str, judged: model.JudgedRun, values: dict[str, np.ndarray]) -> RunSummary:
    """A run's value of each measure over its queries, as trec_eval's "all" (:func:`~components.engine.measures.
    aggregate`: the mean; GMAP's and gm_bpref's geometric mean; a count's sum), its 95% t-interval
    (:func:`components.engine.compare.confidence_interval`: for a geometric mean, the interval of the mean log,
    exp'd; for a sum, the mean's interval × the queries), and the flag.

    >>> from components.formats.readers import read

    >>> judged = model.judge(read("q1 0 a 1\\nq2 0 c 1\\n", "qrels").parsed,
    ...                     read("q1 Q0 a 1 2 r\\nq1 Q0 b 2 1 r\\nq2 Q0 b 1 2 r\\nq2 Q0 c 2 1 r\\n", "run").parsed)
    >>> run = summarise("r", judged, evaluate(judged.queries, ["AP", "GMAP", "num_rel"], gain="linear"))
    >>> {m: round(v, 4) for m, v in run.mean.items()}  # AP 1 and 1/2: their mean, their geometric mean, 2 relevant
    {'AP': 0.75, 'GMAP': 0.7071, 'num_rel': 2.0}
    """
    mean: dict[str, float] = {}
    ci95: dict[str, tuple[float, float]] = {}
    for m, v in values.items():
        rule = aggregation(m)
        mean[m] = aggregate(m, v) if v.size else math.nan
        if rule == GEOMETRIC_MEAN and v.size:
            lo, hi = compare.confidence_interval(np.log(np.maximum(v, metrics.MIN_GEO_MEAN)))
            ci95[m] = (math.exp(lo), math.exp(hi))
        elif rule == "sum":
            lo, hi = compare.confidence_interval(v)
            ci95[m] = (lo * v.size, hi * v.size)
        else:
            ci95[m] = compare.confidence_interval(v)
    never_ran = all(not np.any(v) for v in values.values())
    return RunSummary(name, len(judged.qids), mean, ci95, never_ran)


def compare_many(judged: Sequence[model.JudgedRun], names: Sequence[str], measures: Iterable[Measure | str],
                 gain: Gain = "linear", baseline: int = 0, correction: corrections.Correction = "holm",
                 alpha: float = ALPHA, *, permutations: int = compare.PERMUTATIONS, seed: int = compare.SEED,
                 resamples: int = bootstrap.RESAMPLES, trec_eval: metrics.TrecEval = "9") -> ManyRuns:
    """Compare every run with ``judged[baseline]`` on each measure (the module's docstring says how), the measures
    as ``trec_eval``'s version computes them (:func:`~components.engine.measures.evaluate`).

    Raises ``ValueError`` for fewer than 2 or more than :data:`MAX_RUNS` runs, names that repeat, or a run
    that shares no judged query with the baseline (naming it).

    Examples
    --------
    >>> from components.formats.readers import read
    >>> qrels = read("1 0 a 1\\n2 0 b 1\\n", "qrels").parsed
    >>> runs = [model.judge(qrels, read(r, "run").parsed) for r in ("1 Q0 a 1 1 r\\n2 Q0 x 1 1 r\\n",
    ...                                                             "1 Q0 a 1 1 r\\n2 Q0 b 1 1 r\\n",
    ...                                                             "1 Q0 y 1 1 r\\n2 Q0 y 1 1 r\\n")]
    >>> result = compare_many(runs, ["base", "better", "broken"], ["RR"])
    >>> result.versus["better", "RR"].comparison.mean_diff, result.flagged, result.family
    (0.5, ('broken',), 1)
    """
    parsed = [m if isinstance(m, Measure) else parse_measure(m) for m in measures]
    names = tuple(names)
    if not 2 <= len(judged) <= MAX_RUNS or len(names) != len(judged):
        raise ValueError(f"compare 2 to {MAX_RUNS} runs, one name each; got {len(judged)} runs")
    if len(set(names)) != len(names):
        raise ValueError(f"each run needs its own name; these repeat: {sorted({n for n in names if names.count(n) > 1})}")
    if not 0 <= baseline < len(judged):
        raise ValueError(f"the baseline must be one of the {len(judged)} runs")
    values = [evaluate(j.queries, parsed, gain, trec_eval) for j in judged]
    runs = tuple(summarise(n, j, v) for n, j, v in zip(names, judged, values))
    pairs: dict[str, compare.RunComparison] = {}
    for i, (name, run) in enumerate(zip(names, judged)):
        if i == baseline:
            continue
        try:
            pairs[name] = compare.compare_judged(judged[baseline], run, parsed, gain, permutations=permutations,
                                                 seed=seed)
        except compare.NothingToCompare as err:
            raise compare.NothingToCompare(f"{name} against {names[baseline]}: {err}") from None
    return _corrected(names, baseline, tuple(m.name for m in parsed), runs, pairs, correction, alpha, resamples)


def _corrected(names: tuple[str, ...], baseline: int, measures: tuple[str, ...], runs: tuple[RunSummary, ...],
               pairs: dict[str, compare.RunComparison], correction: corrections.Correction, alpha: float,
               resamples: int) -> ManyRuns:
    """The bootstrap intervals and the corrected p-values of every (run, measure) pair."""
    flagged = {r.name for r in runs if r.never_ran}
    family = [(run, m) for run in pairs if run not in flagged for m in measures]
    p_rand = corrections.adjust([pairs[run].measures[m].randomisation_p for run, m in family], correction)
    p_t = corrections.adjust([_finite_p(pairs[run].measures[m].t_test_p) for run, m in family], correction)
    corrected = {pair: (float(t), float(r)) for pair, t, r in zip(family, p_t, p_rand)}
    boots: dict[tuple[str, str], bootstrap.Interval] = {}
    for runs_on_queries in _same_queries(pairs).values():  # resampled together: one pass per query set
        columns = [(run, m) for run in runs_on_queries for m in measures]
        diffs = np.column_stack([pairs[run].measures[m].tested for run, m in columns])
        for (run, m), boot in zip(columns, bootstrap.intervals(diffs, resamples=resamples)):
            to_difference = pairs[run].measures[m].as_difference  # a geometric mean's log ratio, as a difference
            boots[run, m] = dataclasses.replace(boot, low=to_difference(boot.low), high=to_difference(boot.high))
    versus: dict[tuple[str, str], Versus] = {}
    for run, result in pairs.items():
        for m in measures:
            t, r = corrected.get((run, m), (math.nan, math.nan))
            versus[run, m] = Versus(run, m, result.measures[m], boots[run, m], t, r, bool(r < alpha))
    return ManyRuns(names, baseline, measures, runs, versus, {run: r.pairing for run, r in pairs.items()},
                    correction, alpha, len(family))


def explain_query(base: model.JudgedRun, other: model.JudgedRun, qid: str, measures: Iterable[Measure | str],
                  gain: Gain = "linear") -> dict[str, attribution.Attribution | None]:
    """Why query ``qid``'s values differ from the baseline's run to the other: each measure's change split over
    the documents (:func:`components.engine.attribution.explain`; None for a measure it cannot split).

    The rankings are each run's list for the query as judged (after -J and -M); relevant means grade >= 1.
    Raises ``ValueError`` when the query is not judged and answered by both runs.

    >>> from components.formats.readers import read

    >>> qrels = read("1 0 a 1\\n", "qrels").parsed
    >>> base = model.judge(qrels, read("1 Q0 x 2 2 r\\n1 Q0 a 1 1 r\\n", "run").parsed)
    >>> other = model.judge(qrels, read("1 Q0 a 1 1 r\\n", "run").parsed)
    >>> why = explain_query(base, other, "1", ["RR", "bpref"])
    >>> why["RR"].change, [d.docid for d in why["RR"].documents], why["bpref"]
    (0.5, ['a', 'x'], None)
    """
    qa, qb = base.query_index.get(qid), other.query_index.get(qid)
    if qa is None or qb is None:
        raise ValueError(f"query {qid!r} is not judged and answered by both runs")
    ranking_a, ranking_b = ([d for d, _, _ in run.ranking(q)] for run, q in ((base, qa), (other, qb)))
    explained: dict[str, attribution.Attribution | None] = {}
    for m in measures:
        parsed = m if isinstance(m, Measure) else parse_measure(m)
        explained[parsed.name] = (attribution.explain(ranking_a, ranking_b, base.grades(qa), parsed, gain)
                                  if attribution.supports(parsed) else None)
    return explained


def _same_queries(pairs: dict[str, compare.RunComparison]) -> dict[tuple[str, ...], list[str]]:
    """The runs grouped by the queries they share with the baseline (usually one group: every run answers
    every judged query)."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for run, result in pairs.items():
        groups.setdefault(result.qids, []).append(run)
    return groups


def _finite_p(p: float) -> float:
    """A t-test p for the correction: nan (one query, or no spread) counts as 1 (no evidence)."""
    return p if math.isfinite(p) else 1.0
