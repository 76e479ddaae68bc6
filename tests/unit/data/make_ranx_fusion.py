"""Write ranx_fusion.json: generated runs without tied scores, and what ranx's ``fuse`` makes of them; and what the
hybrid-search lesson's ranx snippet prints, run on the lesson's take-home files.

tests/unit/test_fusion.py checks Rankwise's fusion, and the lesson's snippet, against this file, so the suite needs
no ranx (it compiles with numba on first use, about a minute). Made with ranx 0.3.21, from the repository's root:

    pip install ranx==0.3.21
    python tests/unit/data/make_ranx_fusion.py
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

CASES = [("rrf", None, {"k": 60}), ("rrf", None, {"k": 5}), ("sum", "min-max", None), ("mnz", "min-max", None),
         ("sum", "zmuv", None), ("mnz", "zmuv", None)]  # ranx's names
METHODS = {"rrf": "rrf", "sum": "combsum", "mnz": "combmnz"}  # Rankwise's
NORMS = {None: "none", "min-max": "minmax", "zmuv": "zscore"}


def generated_runs(seed: int) -> list[dict[str, dict[str, float]]]:
    """Three runs over four queries; documents drawn from a pool of 15; distinct scores within a query."""
    rng = random.Random(seed)
    runs = []
    for _ in range(3):
        run = {}
        for q in range(4):
            docs = rng.sample([f"d{i}" for i in range(15)], rng.randint(3, 10))
            scores = rng.sample(range(1, 10_000), len(docs))
            run[f"q{q}"] = {d: s / 100 for d, s in zip(docs, scores)}
        runs.append(run)
    return runs


def main() -> None:
    from ranx import Run, fuse  # only here: the suite imports this module (doctests) without ranx

    cases = []
    for seed in range(3):
        runs = generated_runs(seed)
        for method, norm, params in CASES:
            fused = fuse([Run(r) for r in runs], norm=norm, method=method, params=params)
            cases.append({"runs": runs, "method": METHODS[method], "norm": NORMS[norm], "k": (params or {}).get("k", 60),
                          "fused": {q: dict(docs) for q, docs in fused.to_dict().items()}})
    out = Path(__file__).with_name("ranx_fusion.json")
    out.write_text(json.dumps({"ranx": "0.3.21", "cases": cases, "lesson": lesson_snippet()},
                              separators=(",", ":")) + "\n")
    print(f"{len(cases)} cases written to {out}")


def lesson_snippet() -> dict[str, str]:
    """The hybrid-search lesson's ranx snippet (its lists as the page opens, k = 60) and what it prints, run as a
    learner would: in a folder holding the take-home files."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
    from components.course import hybrid

    pack = hybrid.take_home(tuple(hybrid.Q.presets[name] for name in hybrid.RANKERS), hybrid.fusion.RRF_K)
    with tempfile.TemporaryDirectory() as folder:
        for name, text in pack.files.items():
            Path(folder, name).write_text(text)
        Path(folder, "snippet.py").write_text(pack.ranx)
        printed = subprocess.run([sys.executable, "snippet.py"], cwd=folder, capture_output=True, text=True,
                                 check=True).stdout
    return {"snippet": pack.ranx, "printed": printed}


if __name__ == "__main__":
    main()
