"""``rankwise fuse``: two or more runs fused into one (:mod:`components.engine.fusion`), written as a TREC run on
stdout. Each run may be in any format :mod:`components.formats.readers` reads."""
from __future__ import annotations

import argparse
import sys
from typing import cast

from components.cli import options
from components.cli.output import file_error
from components.engine import fusion, model
from components.formats import readers, trec_layout


def run_fuse(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """``rankwise fuse`` once its parser has read the command line; return the exit status (0 ok, 1 a file that
    cannot be read, or holds an id a TREC run cannot carry, 2 usage)."""
    options.check_fuse(parser, args)
    try:
        runs = [cast(model.Run, readers.read(path, "run").parsed) for path in args.runs]
        for run in runs:  # written as a TREC run: every id must be one a TREC file can carry
            trec_layout.check_writable(run)
    except (OSError, MemoryError, model.TrecFormatError) as err:
        return file_error(err, args.runs)
    fused = fusion.fuse(runs, args.method, k=args.rrf_k or fusion.RRF_K, norm=args.norm or "none",
                        depth=args.depth)
    sys.stdout.write(fusion.to_trec(fused, args.tag))
    return 0
