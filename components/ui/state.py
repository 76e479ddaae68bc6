"""Every session-state key and URL query parameter (but a live class's: components/live_class/session.py), and
validated readers for URL values.

A reader takes the raw string from the URL (or None when absent) and returns a
:class:`Reading`: the value to use and, when the raw value was unusable, a
note for the learner saying what was wrong and what default was used instead.
A note is Markdown in which the raw value is a code span
(:func:`components.engine.formatting.literal`): a link that carries an image, a
link, HTML or KaTeX shows it as text and renders none of it.
Readers never raise on bad input: a URL is typed by people.

No Streamlit import here, so the readers are tested as plain functions.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Iterable, Mapping, MutableMapping, Sequence, TypeVar

from components.course import prose
from components.engine.checks import read_whole
from components.engine.formatting import literal
from components.engine.metrics import GAINS

T = TypeVar("T")
TEXT = "ui"  # lessons/text/ui.md holds the notes' wording


# --- session-state keys (mode flags shared by every page) -------------------
PROJECTOR = "projector"  # bool: larger type, charts scaled
REVEAL = "reveal"  # bool: answers hidden until revealed (instructor mode)
PREDICT_FIRST = "predict_first"  # bool: live values hidden after each change until revealed
STEP_MODE = "steps"  # bool: worked arithmetic shown one step at a time
MODE_FLAGS = (PROJECTOR, REVEAL, PREDICT_FIRST, STEP_MODE)
CLASSROOM_OPEN = "classroom.open"  # bool: the Classroom panel has been open this session (it stays open)
BROWSER_STORE_SESSION = "browser_store.session"  # str: this session's random tag for the storage helpers
LINK_NOTES = "link_notes"  # tuple of notes about unusable link values, shown until dismissed (widgets.keep_link_note)
LINK_NOTES_DISMISSED = "link_notes.dismissed"  # tuple of the notes the learner dismissed

# --- URL query parameter names ----------------------------------------------
PARAM_K = "k"
# a section's own cutoff, beside the page's main k
PARAM_FAIR_K, PARAM_BLIND_K, PARAM_HIT_K = "fair_k", "blind_k", "hit_k"  # Recall@k
PARAM_GAINS_K, PARAM_IDEAL_K, PARAM_SHORT_K = "gains_k", "ideal_k", "short_k"  # nDCG
PARAM_AP_DUEL_K = "duel_k"  # average precision
PARAM_ORDER = "order"
PARAM_GRADES = "grades"
PARAM_GAIN = "gain"
PARAM_SEED = "seed"
PARAM_CUTOFF = "cutoff"  # the MRR lesson's RR@k cutoff: 1..10, or none
PARAM_RANKS = "ranks"  # the four-query figure: ranks=1,3,1,8 ("-" for a hit not returned)
PARAM_RRF_K, PARAM_LEXICAL, PARAM_DENSE = "rrf_k", "bm25", "dense"  # hybrid search: rrf's k, the two rankers' lists


@dataclass(frozen=True)
class Reading(Generic[T]):
    """A value read from the URL, with a note when the raw value was rejected."""

    value: T
    note: str | None = None


def _quote(raw: str) -> str:
    """The raw value for a note: a Markdown code span, shortened, so nothing in it is rendered."""
    return literal(raw, limit=40)


def read_int(raw: str | None, *, name: str, default: int, lo: int, hi: int) -> Reading[int]:
    """A whole number between lo and hi inclusive, else the default with a note."""
    if raw is None or raw == "":
        return Reading(default)
    value = read_whole(raw)
    if value is None:
        return Reading(default, prose.text(TEXT, "Link not whole", value=_quote(f"{name}={raw}"), default=default))
    if not lo <= value <= hi:
        return Reading(default, prose.text(TEXT, "Link out of range", value=_quote(f"{name}={value}"), lo=lo, hi=hi,
                                      default=default))
    return Reading(value)


def read_k(raw: str | None, *, default: int, hi: int, lo: int = 1, name: str = PARAM_K) -> Reading[int]:
    """The cutoff k (between lo and hi), else the default with a note naming the parameter ``name``."""
    return read_int(raw, name=name, default=default, lo=lo, hi=hi)


def read_gain(raw: str | None, *, default: str = "exponential") -> Reading[str]:
    """'exponential' or 'linear' (case-insensitive), else the default with a note."""
    if raw is None or raw == "":
        return Reading(default)
    if raw.strip().lower() in GAINS:
        return Reading(raw.strip().lower())
    return Reading(default, prose.text(TEXT, "Link gain", value=_quote(f"{PARAM_GAIN}={raw}"), default=default))


def read_flag(raw: str | None, *, name: str, default: bool = False) -> Reading[bool]:
    """A mode flag: 1/true/on/yes or 0/false/off/no, else the default with a note."""
    if raw is None or raw == "":
        return Reading(default)
    word = raw.strip().lower()
    if word in ("1", "true", "on", "yes"):
        return Reading(True)
    if word in ("0", "false", "off", "no"):
        return Reading(False)
    shown = "1" if default else "0"
    return Reading(default, prose.text(TEXT, "Link flag", value=_quote(f"{name}={raw}"), default=shown))


def read_order(raw: str | None, *, valid_ids: Sequence[str], default: Sequence[str],
               name: str = PARAM_ORDER) -> Reading[tuple[str, ...]]:
    """A comma-separated list of distinct known ids (a subset, in order), else the default.

    Ids left out of the list are "not returned". An empty list is allowed
    only as ``-`` (nothing returned), so a stray ``order=`` does not wipe a ranking.
    """
    if raw is None or raw == "":
        return Reading(tuple(default))
    if raw.strip() == "-":
        return Reading(())
    ids = [part.strip() for part in raw.split(",")]
    known = set(valid_ids)
    unknown = [i for i in ids if i not in known]
    if unknown:
        return Reading(tuple(default), prose.text(TEXT, "Link unknown document", name=name, value=_quote(unknown[0])))
    if len(set(ids)) != len(ids):
        return Reading(tuple(default), prose.text(TEXT, "Link document twice", name=name))
    return Reading(tuple(ids))


def write_order(order: Iterable[str]) -> str:
    """The URL form of an order, the inverse of :func:`read_order`."""
    order = list(order)
    return ",".join(order) if order else "-"


def read_ranks(raw: str | None, *, n: int, length: int, default: Sequence[int | None]) -> Reading[tuple[int | None, ...]]:
    """``n`` comma-separated hit ranks, each 1..length or ``-`` (not returned), else the default with a note.

    >>> read_ranks("1,-,3,10", n=4, length=10, default=(1, 1, 1, 1)).value
    (1, None, 3, 10)
    >>> read_ranks("1,2", n=4, length=10, default=(1, 3, 1, 8)).value
    (1, 3, 1, 8)
    """
    if raw is None or raw == "":
        return Reading(tuple(default))
    parts = [part.strip() for part in raw.split(",")]
    ranks = [None if part == "-" else read_whole(part) for part in parts]
    if len(parts) != n or any(r is None and p != "-" or r is not None and not 1 <= r <= length
                              for r, p in zip(ranks, parts)):
        return Reading(tuple(default), prose.text(TEXT, "Link ranks", name=PARAM_RANKS, value=_quote(raw), n=n,
                                                  length=length))
    return Reading(tuple(ranks))


def read_cutoff(raw: str | None, *, hi: int, default: int | str) -> Reading[int | str]:
    """A cutoff 1..hi, or ``none`` (no cutoff), else the default with a note.

    >>> read_cutoff("3", hi=10, default="none").value, read_cutoff("none", hi=10, default=5).value
    (3, 'none')
    """
    if raw is not None and raw.strip().lower() == "none":
        return Reading("none")
    if raw is None or raw == "":
        return Reading(default)
    number = read_int(raw, name=PARAM_CUTOFF, default=1, lo=1, hi=hi)
    return Reading(default, prose.text(TEXT, "Link cutoff", value=_quote(f"{PARAM_CUTOFF}={raw}"), hi=hi)) \
        if number.note else Reading(number.value)


def write_ranks(ranks: Iterable[int | None]) -> str:
    """The URL form of hit ranks, the inverse of :func:`read_ranks`."""
    return ",".join("-" if r is None else str(r) for r in ranks)


def read_grades(raw: str | None, *, valid_ids: Sequence[str], default: Mapping[str, int],
                lo: int, hi: int) -> Reading[dict[str, int]]:
    """Grade overrides ``id:grade,id:grade`` on top of the defaults, each in lo..hi, else the defaults."""
    if raw is None or raw == "":
        return Reading(dict(default))
    grades = dict(default)
    known = set(valid_ids)
    for part in raw.split(","):
        doc, sep, grade = part.partition(":")
        doc = doc.strip()
        if not sep or doc not in known:
            return Reading(dict(default), prose.text(TEXT, "Link grade entry", name=PARAM_GRADES, value=_quote(part)))
        try:
            value = int(grade)
        except ValueError:
            value = None
        if value is None or not lo <= value <= hi:
            return Reading(dict(default), prose.text(TEXT, "Link grade range", value=_quote(doc), lo=lo, hi=hi))
        grades[doc] = value
    return Reading(grades)


def load_mode_flags(params: Mapping[str, str], session: MutableMapping) -> list[str]:
    """Copy the mode flags from the URL into the session (first visit only); return notes.

    A flag already in the session (set by its toggle) wins over the URL.
    """
    notes = []
    for flag in MODE_FLAGS:
        if flag in session:
            continue
        reading = read_flag(params.get(flag), name=flag)
        session[flag] = reading.value
        if reading.note:
            notes.append(reading.note)
    return notes


# --- lesson 0: why accuracy fails --------------------------------------------
ACCURACY_RETURNED = "accuracy.returned"
ACCURACY_RELEVANT_RETURNED = "accuracy.relevant_returned"

# --- lesson 1: Recall@k ---------------------------------------------------------
RECALL_EDITOR = "recall.editor"
RECALL_K = "recall.k"  # the main slider, mirrored in the URL as ?k=
RECALL_COMPARE_K = "recall.compare_k"
RECALL_HIT_RATE_K = "recall.hit_rate_k"
RECALL_FAIR = "recall.fair"  # the duel System A vs System B at one k
RECALL_BLIND = "recall.blind"  # the duel: hits at 1–4 against hits at 16–19
RECALL_BLIND_K = "recall.blind_k"
RECALL_PUZZLE = "recall.puzzle"

# --- practice: questions and progress (components/ui/quiz_ui.py) -------------------
QUIZ_PREFIX = "quiz."  # every show_question key lives under quiz.<key>.<part> (answer, result, hints, ...)
PROGRESS_SOLVED = "progress.solved"  # frozenset of solved question ids: the session's source of truth
PROGRESS_SYNCED = "progress.synced"  # bool: the browser's stored progress has been read and merged
PROGRESS_SHOWN = "progress.shown"  # the solved ids the sidebar showed last (stale after a fragment rerun)
PROGRESS_STORE = "progress.store"  # key of the localStorage helper component
PROGRESS_RESET = "progress.reset"  # the "reset my progress" button
PROGRESS_RERUN = "progress.rerun"  # the solved ids a full-app rerun was last asked for (never loops)
PRACTICE_NEW_EXERCISE = "practice.new_exercise"  # the "New exercise" button
PRACTICE_TABS = "practice.tabs"  # the practice page's section buttons (one per lesson, warm-ups, exercises)

# --- lesson 2: MRR -----------------------------------------------------------------
MRR_EDITORS = ("mrr.editor.1", "mrr.editor.2", "mrr.editor.3")
MRR_CUTOFF = "mrr.cutoff"  # "none" or 1..10
MRR_TWO_RELEVANT_EDITOR = "mrr.editor.two_relevant"

# --- lesson: precision and average precision ------------------------------------
AP_EDITOR = "ap.editor"
AP_K = "ap.k"  # mirrored in the URL as ?k=
AP_DUEL = "ap.duel"  # hits at 1–4 against hits at 16–19
AP_DUEL_K = "ap.duel_k"
AP_PUZZLE = "ap.puzzle"
AP_LEVEL = "ap.level"  # the relevance level of the grades pitfall

# --- lesson 3: nDCG ----------------------------------------------------------------
NDCG_EDITOR = "ndcg.editor"
NDCG_K = "ndcg.k"  # mirrored in the URL as ?k=
NDCG_GAIN = "ndcg.gain"
NDCG_TABLE = "ndcg.table"  # whether the position-by-position table's fold is open (it is built only then)
NDCG_GAINS = "ndcg.gains"  # one strip: one list, scored in both gains
NDCG_GAINS_K = "ndcg.gains_k"
NDCG_IDEAL = "ndcg.ideal"  # one strip: one list, its ideal from every judged page and from the list only
NDCG_IDEAL_K = "ndcg.ideal_k"
NDCG_FALL = "ndcg.fall"  # the list 2, 0, 0, 2 whose nDCG@k falls as k grows
NDCG_SHORT = "ndcg.short"  # a 3-page list read at k up to 10
NDCG_SHORT_K = "ndcg.short_k"
NDCG_PUZZLE = "ndcg.puzzle"

# --- lesson 4: four queries -----------------------------------------------------------
FOUR_RANKS = "four.ranks"  # the figure's hit ranks, mirrored in the URL as ?ranks=
FOUR_K = "four.k"  # mirrored in the URL as ?k=
FOUR_BUDGET = "four.budget"  # the number of chunks the generator reads

# --- hybrid search ----------------------------------------------------------------------
FUSION_K = "fusion.k"  # rrf's constant, mirrored in the URL as ?rrf_k=
FUSION_DUEL = "fusion.duel"  # the two rankers' strips (their orders mirrored as ?bm25= and ?dense=)
FUSION_FUSED = "fusion.fused"  # the fused strip: an order the page makes, never moved

# --- putting it together ---------------------------------------------------------------
CHOOSING_EDITOR = "choosing.editor"
CHOOSING_K = "choosing.k"  # mirrored in the URL as ?k=
DIFFER_EDITOR = "differ.editor"
DIFFER_K = "differ.k"  # mirrored in the URL as ?k=

# --- your data: upload qrels and a run (lessons/your_data.py) ---------------------------
YOUR_DATA_QRELS = "your_data.qrels"  # the latest qrels file received: {"name", "data", "sha256"} (see receive())
YOUR_DATA_RUN = "your_data.run"  # the latest run file received, same shape
YOUR_DATA_LOADED = "your_data.loaded"  # the last pair that read cleanly: what the page shows
YOUR_DATA_FAILED = "your_data.failed"  # the last pair that did not read, and the reader's error
YOUR_DATA_QRELS_UPLOADER = "your_data.qrels_uploader"  # prefix of the qrels st.file_uploader's key (+ ".<round>")
YOUR_DATA_RUN_UPLOADER = "your_data.run_uploader"  # prefix of the run st.file_uploader's key (+ ".<round>")
YOUR_DATA_UPLOAD_ROUND = "your_data.upload_round"  # int: bumped to empty both uploaders (the samples were loaded)
YOUR_DATA_SEEN_SUFFIX = ".file_id"  # <uploader key> + this: the file_id of the upload already received
YOUR_DATA_SAMPLES = "your_data.samples"  # the "use the sample files" button
YOUR_DATA_REFUSED = "your_data.refused"  # kind -> why its latest file was refused (over the session's upload cap)
YOUR_DATA_FORGET = "your_data.forget"  # the "forget my files" button
YOUR_DATA_K = "your_data.k"  # "the k your pipeline consumes"
YOUR_DATA_MEASURES = "your_data.measures"  # measure families chosen (R, Success, P, RR, AP, nDCG, ...)
YOUR_DATA_GAIN = "your_data.gain"  # nDCG/DCG gain; linear (trec_eval's) by default
YOUR_DATA_LEVEL = "your_data.rel_level"  # the lowest grade that counts as relevant (trec_eval's -l); 1 by default
YOUR_DATA_JUDGED_ONLY = "your_data.judged_only"  # drop the run's unjudged documents first (trec_eval's -J)
YOUR_DATA_TABLE = "your_data.table"  # the per-query table (a row selection opens that query)
YOUR_DATA_DOWNLOAD = "your_data.download"  # the per-query CSV download button
YOUR_DATA_SHOWN_MEASURE = "your_data.shown_measure"  # the measure whose distribution is drawn
YOUR_DATA_QUERY = "your_data.query"  # the qid opened in the editor (selectbox; a table click sets it)
YOUR_DATA_DIAGNOSIS = "your_data.diagnosis"  # prefixes the diagnosis's example buttons
YOUR_DATA_CHUNKS = "your_data.chunks"  # count chunks (doc#3) as their document
YOUR_DATA_CHUNK_SEPARATOR = "your_data.chunk_separator"
YOUR_DATA_FIELDS = "your_data.fields"  # prefixes the JSON field mapping's select boxes
YOUR_DATA_EDITOR = "your_data.editor"  # prefix of each opened query's ranking-editor key
YOUR_DATA_RESET = "your_data.reset"  # the "back to the run's order" button

# the runs compared with the first (the "Compare runs" page), one key per slot, B to J: {"name", "data", "sha256"}
YOUR_DATA_OTHER_RUNS = tuple(f"your_data.run_{letter}" for letter in "bcdefghij")
YOUR_DATA_RUN_B = YOUR_DATA_OTHER_RUNS[0]
YOUR_DATA_TAB_STORE = "your_data.tab_store"  # key of the sessionStorage helper: were files on show in this tab?
YOUR_DATA_TAB_SYNCED = "your_data.tab_synced"  # bool: the tab's stored flag has been read
YOUR_DATA_FILES_GONE = "your_data.files_gone"  # bool: this tab had files on show in a session the server lost

# --- compare runs -----------------------------------------------------------------------
COMPARE_HOLDERS = "compare_runs.holders"  # slot -> (its files key, the Holder claiming that parsed pair)
COMPARE_UPLOADER = "compare_runs.uploader"  # prefix of the runs' st.file_uploader's key (+ ".<round>")
COMPARE_NO_ROOM = "compare_runs.no_room"  # names of the latest upload's files that found no free slot
UPLOADS_TRIMMED = "uploads.trimmed"  # names of uploads the store let go for the session's cap, until the page said so
COMPARE_SAMPLES = "compare_runs.samples"  # the "use the samples" button (qrels, A, B and C)
COMPARE_SAMPLE_RUNS = "compare_runs.sample_runs"  # the "add sample runs B and C" button
COMPARE_FUSE_RUNS = "compare_runs.fuse_runs"  # the runs to fuse: their letters
COMPARE_FUSE_K = "compare_runs.fuse_k"  # rrf's constant k
COMPARE_FUSE_MEASURE = "compare_runs.fuse_measure"  # the measure the k sweep charts
COMPARE_FUSE_ADD = "compare_runs.fuse_add"  # "add the fused run" button
COMPARE_DIAGNOSIS = "compare_runs.diagnosis"  # prefixes each run's diagnosis (+ ".<letter>")
COMPARE_REMOVE = "compare_runs.remove"  # prefixes each run's remove button (+ ".<slot>")
COMPARE_BASELINE = "compare_runs.baseline"  # the baseline: a run's letter
COMPARE_CORRECTION = "compare_runs.correction"  # holm, bonferroni or bh
COMPARE_K = "compare_runs.k"
COMPARE_MEASURES = "compare_runs.measures"  # the measure families compared
COMPARE_GAIN = "compare_runs.gain"
COMPARE_RUN = "compare_runs.run"  # the run whose query changes are explained (a letter)
COMPARE_MEASURE = "compare_runs.measure"  # the measure explained and planned for
COMPARE_QUERY = "compare_runs.query"  # the query explained
COMPARE_DELTA = "compare_runs.delta"  # the difference to detect (how many queries)

# --- glossary ---------------------------------------------------------------------------
GLOSSARY_FILTER = "glossary.filter"


def duel_side(key: str, i: int) -> str:
    """The session-state key of strip ``i`` (0: the top one) of the duel ``key`` (its editor's key)."""
    return f"{key}.{i}"


# every lesson's duel, and how many strips it draws (one: a single list scored two ways)
DUELS = {RECALL_FAIR: 2, RECALL_BLIND: 2, AP_DUEL: 2, NDCG_GAINS: 1, NDCG_IDEAL: 1, FUSION_DUEL: 2}
