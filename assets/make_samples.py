"""Write the sample qrels and runs of the "Your data" page (seeded: the same files every time).

    python assets/make_samples.py

A small made-up test collection in TREC format: 12 judged topics (101 to 112)
with grades 0, 1 and 2, and two systems' runs of 30 results per topic:

- ``sample_qrels.txt``: ``qid iter docid grade``;
- ``sample_run.txt`` (tag ``bm25``), ``sample_run_b.txt`` (tag ``rerank``,
  a second system on the same topics, for comparing systems) and
  ``sample_run_c.txt`` (tag ``hybrid``, a third, a little better than the
  first, for comparing several variants with a baseline):
  ``qid Q0 docid rank score tag``, written in trec_eval's order (score
  descending, ties by docid descending).

Built in so that the page has something to show:

- topic 105 has judgments but no relevant document (every metric is 0 for it);
- topic 112 is judged but missing from both runs, and topic 199 is in the
  runs but was never judged (both are skipped, and counted);
- some relevant documents are never returned (they sit in the editor's tray);
- a few results tie on score (topics 102 and 107 on purpose, others by
  rounding), so the docid breaks the tie;
- most returned documents nobody judged (they count as grade 0).

The same judgments and first run in the formats practitioners bring (each
reads to the same qrels and run, so the same numbers come out):

- ``beir_sample/``, a BEIR-style folder: ``qrels/test.tsv`` (BEIR's header
  ``query-id corpus-id score``, the score being the grade) and
  ``results.json``, the run as a JSON dict-of-dicts ``{qid: {docid: score}}``
  (as pytrec_eval, ranx and ir_measures take it);
- ``sample_golden.jsonl``, one query per line with its judged documents
  (``{"query_id": ..., "judgments": [{"id": ..., "grade": ...}, ...]}``), and
  ``sample_results.jsonl``, one query per line with its retrieved chunks in
  rank order, without scores (``{"query_id": ..., "retrieved_ids": [...]}``):
  each id is a chunk, ``D1115#3``, and some documents come back a second time
  as another chunk further down, so the numbers are the run's once chunks
  count as their document (separator ``#``), and all 0 until then.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

SEED = 14
HERE = Path(__file__).resolve().parent
QRELS = "sample_qrels.txt"
RUNS = {"sample_run.txt": ("bm25", 0.0), "sample_run_b.txt": ("rerank", 0.6),  # file: (tag, how much better)
        "sample_run_c.txt": ("hybrid", 0.2)}
TOPICS = [str(t) for t in range(101, 113)]
NO_RELEVANT = "105"
JUDGED_ONLY = "112"
RUN_ONLY = "199"
FORCED_TIES = ("102", "107")
DEPTH = 30
BEIR_QRELS = "beir_sample/qrels/test.tsv"
BEIR_RESULTS = "beir_sample/results.json"
GOLDEN = "sample_golden.jsonl"
RESULTS = "sample_results.jsonl"
SECOND_CHUNK_EVERY = 4  # every 4th result comes back once more, as another chunk, after the first DEPTH


def collection(rng: random.Random) -> dict[str, dict[str, int]]:
    """topic -> judged docid -> grade; document numbers are unique across topics."""
    judged: dict[str, dict[str, int]] = {}
    for t, topic in enumerate(TOPICS):
        n = rng.randint(12, 22)
        docs = [f"D{t * 100 + i + 1000:04d}" for i in rng.sample(range(100), n)]
        if topic == NO_RELEVANT:
            grades = [0] * n
        else:
            relevant = rng.randint(2, 7)
            grades = [2 if i < max(1, relevant // 3) else 1 if i < relevant else 0 for i in range(n)]
        judged[topic] = dict(zip(docs, grades))
    return judged


def ranking(rng: random.Random, topic: str, judged: dict[str, int], skill: float) -> list[tuple[str, float]]:
    """The top DEPTH (docid, score) of one system for one topic, in trec_eval's order."""
    t = TOPICS.index(topic) if topic in TOPICS else len(TOPICS)
    candidates = {doc: 0.0 for doc in judged}
    candidates |= {f"D{t * 100 + 1100 + i:04d}": 0.0 for i in range(60)}  # documents nobody judged
    scored = []
    for doc in sorted(candidates):
        grade = judged.get(doc, 0)
        signal = (1.0 + skill) * grade + rng.gauss(0.0, 1.3)
        if grade > 0 and rng.random() < 0.15:
            signal -= 6.0  # a relevant document the system misses entirely
        scored.append((doc, round(12.0 + 2.0 * signal, 2)))
    scored.sort(key=lambda pair: (-pair[1], [-b for b in pair[0].encode()]))
    top = scored[:DEPTH]
    if topic in FORCED_TIES:  # positions 3 and 4 tie: the docid decides
        top[3] = (top[3][0], top[2][1])
        top.sort(key=lambda pair: (-pair[1], [-b for b in pair[0].encode()]))
    return top


def samples() -> dict[str, str]:
    """File name -> content of every sample file."""
    rng = random.Random(SEED)
    judged = collection(rng)
    files = {QRELS: "".join(f"{topic} 0 {doc} {grade}\n" for topic, docs in judged.items()
                            for doc, grade in docs.items())}
    for name, (tag, skill) in RUNS.items():
        lines = []
        for topic in [*TOPICS, RUN_ONLY]:
            if topic == JUDGED_ONLY:
                continue
            for rank, (doc, score) in enumerate(ranking(rng, topic, judged.get(topic, {}), skill), 1):
                lines.append(f"{topic} Q0 {doc} {rank} {score:.2f} {tag}\n")
        files[name] = "".join(lines)
    return files


def other_formats(files: dict[str, str]) -> dict[str, str]:
    """File name -> content of the qrels and the first run (of :func:`samples`) as a BEIR folder and a JSON Lines
    pair (see the module's docstring)."""
    qrels_text, run_text = files[QRELS], files["sample_run.txt"]
    judged: dict[str, dict[str, int]] = {}
    for topic, _, doc, grade in (line.split() for line in qrels_text.splitlines()):
        judged.setdefault(topic, {})[doc] = int(grade)
    ranked: dict[str, dict[str, float]] = {}
    for topic, _, doc, _, score, _ in (line.split() for line in run_text.splitlines()):
        ranked.setdefault(topic, {})[doc] = float(score)
    golden = [{"query_id": topic, "judgments": [{"id": doc, "grade": grade} for doc, grade in docs.items()]}
              for topic, docs in judged.items()]
    results = [{"query_id": topic, "retrieved_ids": chunk_ids(list(docs))} for topic, docs in ranked.items()]
    return {
        BEIR_QRELS: "query-id\tcorpus-id\tscore\n" + "".join(f"{topic}\t{doc}\t{grade}\n"
                                                             for topic, docs in judged.items()
                                                             for doc, grade in docs.items()),
        BEIR_RESULTS: json.dumps(ranked, indent=1) + "\n",
        GOLDEN: "".join(json.dumps(line) + "\n" for line in golden),
        RESULTS: "".join(json.dumps(line) + "\n" for line in results),
    }


def chunk_ids(docs: list[str]) -> list[str]:
    """The ranking as chunk ids, ``doc#n``; every SECOND_CHUNK_EVERY-th document once more at the end, as another
    chunk (ranked below its first one, so counting chunks as documents gives the ranking back)."""
    first = [f"{doc}#{rank * 5 % 7}" for rank, doc in enumerate(docs, 1)]
    again = [f"{doc}#{rank * 5 % 7 + 7}" for rank, doc in enumerate(docs, 1) if rank % SECOND_CHUNK_EVERY == 0]
    return first + again


def main() -> None:
    files = samples()
    for name, content in (files | other_formats(files)).items():
        (HERE / name).parent.mkdir(parents=True, exist_ok=True)
        (HERE / name).write_text(content, encoding="utf-8")
        print(f"wrote {HERE / name} ({content.count(chr(10))} lines)")


if __name__ == "__main__":
    main()
