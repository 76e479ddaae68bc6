"""Every run of the "Compare runs" page against the baseline, and each run's diagnosis, cached for the whole
server (every session comparing the same files with the same settings shares the results, read-only)."""
from __future__ import annotations

import streamlit as st

from components.engine import corrections, many_runs, model, run_diagnosis
from components.engine.metrics import Gain
from components.formats import readers
from components.serving import uploads
from components.serving.shared_cache import freeze


@st.cache_resource(max_entries=8, show_spinner=False)
def compared(files: tuple[uploads.PairKey, ...], names: tuple[str, ...], measures: tuple[str, ...], gain: Gain,
             baseline: int, correction: corrections.Correction,
             _judged: tuple[model.JudgedRun, ...]) -> many_runs.ManyRuns:
    """Every run against the baseline; shared by every session, cached by the files' keys and the settings."""
    return freeze(many_runs.compare_many(_judged, names, measures, gain, baseline, correction))


@st.cache_resource(max_entries=32, show_spinner=False)
def diagnosed(files: uploads.PairKey, k: int, measures: tuple[str, ...], gain: Gain, chunks: str | None,
              _qrels: readers.Read, _run: readers.Read, _judged: model.JudgedRun) -> run_diagnosis.Diagnosis:
    """A run diagnosed against the qrels at k (the command line's diagnosis)."""
    return run_diagnosis.diagnose_read(_qrels, _run, _judged, k=k, measures=measures, gain=gain, chunks=chunks)
