"""One run's evaluation, as :func:`components.cli.evaluate.run_evaluation` returns it and the renderers show it."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from components.engine import model, run_diagnosis
from components.engine.measures import aggregate
from components.engine.metrics import Gain


@dataclass(frozen=True)
class Report:
    """The evaluation of a run: per-query values of each measure and how many queries were skipped.

    Attributes
    ----------
    gain : the nDCG/DCG gain used.
    values : canonical measure name -> per-query values, aligned with ``qids``.
    judged : the run joined with its qrels (evaluated and skipped query ids included).
    trailing_lines : how many lines of the run had text after the tag (ignored).
    runid : the run's tag (its first line's), trec_eval's "runid".
    diagnosis : the pair's diagnosis, when asked for (:func:`run_evaluation`'s ``diagnose``), else None.
    """

    gain: Gain
    values: dict[str, np.ndarray]
    judged: model.JudgedRun
    trailing_lines: int = 0
    runid: str = ""
    diagnosis: run_diagnosis.Diagnosis | None = None

    @property
    def qids(self) -> tuple[str, ...]:
        """The evaluated queries, in the qrels file's order."""
        return self.judged.qids

    @property
    def mean(self) -> dict[str, float]:
        """Each measure's value over the evaluated queries, as trec_eval's "all" line gives it: the mean, except
        the sum for the counts (num_ret, num_rel, num_rel_ret, num_q) and the geometric mean for GMAP and gm_bpref."""
        return {name: aggregate(name, v) for name, v in self.values.items()}

    def per_query(self) -> dict[str, dict[str, float]]:
        """qid -> measure -> value."""
        return {qid: {name: float(v[i]) for name, v in self.values.items()} for i, qid in enumerate(self.qids)}
