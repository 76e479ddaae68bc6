"""The loaded pair evaluated under the "Your data" page's options, cached for the whole server (every session
that shows the same files shares the results, which are therefore read-only)."""
from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

import numpy as np
import streamlit as st

from components.course import prose
from components.engine import model, run_diagnosis
from components.engine.measures import evaluate
from components.engine.metrics import Gain
from components.serving import uploads
from components.serving.shared_cache import freeze
from components.ui import upload_flow

TEXT = "your_data"  # the page whose words these are


@st.cache_resource(max_entries=8, show_spinner=prose.text(TEXT, "Evaluating"))
def adjusted(files: uploads.PairKey, level: int, judged_only: bool, _judged: model.JudgedRun) -> model.JudgedRun:
    """The pair under the page's relevance level and judged-only choice (trec_eval's -l and -J)."""
    return _judged.adjusted(level, judged_only)


@st.cache_resource(max_entries=32, show_spinner=prose.text(TEXT, "Evaluating"))
def evaluated(files: tuple, names: tuple[str, ...], gain: Gain, _judged: model.JudgedRun) -> Mapping[str, np.ndarray]:
    """Per-query values of each measure (the engine's, as the command line computes them)."""
    return MappingProxyType(freeze(evaluate(_judged.queries, names, gain)))


@st.cache_resource(max_entries=8, show_spinner=prose.text(TEXT, "Diagnosing"))
def diagnosed(files: tuple, k: int, names: tuple[str, ...], gain: Gain, level: int, _loaded: upload_flow.LoadedPair
              ) -> run_diagnosis.Diagnosis:
    """The diagnosis of the pair at k (the command line's)."""
    return run_diagnosis.diagnose_read(_loaded.read("qrels"), _loaded.read("run"), _loaded.judged(), k=k,
                                       measures=names, gain=gain, relevance_level=level,
                                       chunks=_loaded.run.reading.chunks)
