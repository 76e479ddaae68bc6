"""The sample files the "Your data" and "Compare runs" pages load with a button: one collection's qrels and
three runs, and the same collection in the formats practitioners bring.

No Streamlit import here.
"""
from __future__ import annotations

from pathlib import Path

ASSETS = Path(__file__).resolve().parents[2] / "assets"
SAMPLE_QRELS = ASSETS / "sample_qrels.txt"
SAMPLE_RUN = ASSETS / "sample_run.txt"
SAMPLE_OTHERS = (ASSETS / "sample_run_b.txt", ASSETS / "sample_run_c.txt")  # runs B and C on "Compare runs"
# a BEIR folder's qrels and results, a JSONL golden set and results (with chunk ids: doc#chunk)
OTHER_FORMATS = {"beir": (ASSETS / "beir_sample" / "qrels" / "test.tsv", ASSETS / "beir_sample" / "results.json"),
                 "jsonl": (ASSETS / "sample_golden.jsonl", ASSETS / "sample_results.jsonl")}
