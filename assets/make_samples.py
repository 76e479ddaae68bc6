"""Write the sample qrels and runs of the "Your data" page (seeded: the same files every time).

    python assets/make_samples.py

A small made-up test collection in TREC format: 12 judged topics (101 to 112)
with grades 0, 1 and 2, and two systems' runs of 30 results per topic:

- ``sample_qrels.txt``: ``qid iter docid grade``;
- ``sample_run.txt`` (tag ``bm25``) and ``sample_run_b.txt`` (tag ``rerank``,
  a second system on the same topics, for comparing two systems):
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
"""
from __future__ import annotations

import random
from pathlib import Path

SEED = 14
HERE = Path(__file__).resolve().parent
QRELS = "sample_qrels.txt"
RUNS = {"sample_run.txt": ("bm25", 0.0), "sample_run_b.txt": ("rerank", 0.6)}  # file: (tag, how much better)
TOPICS = [str(t) for t in range(101, 113)]
NO_RELEVANT = "105"
JUDGED_ONLY = "112"
RUN_ONLY = "199"
FORCED_TIES = ("102", "107")
DEPTH = 30


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


def main() -> None:
    for name, content in samples().items():
        (HERE / name).write_text(content, encoding="utf-8")
        print(f"wrote {HERE / name} ({content.count(chr(10))} lines)")


if __name__ == "__main__":
    main()
