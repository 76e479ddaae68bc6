"""The command line's parsers, and every check of what was typed: each option's value as argparse reads it
(``type=``), then the options that do not go together. A bad one is a usage error naming the option, the value as
typed and what was expected, before any file is read."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Sequence

import numpy as np

from components.cli.output import printable, text
from components.engine import fusion, metrics
from components.engine.checks import read_whole
from components.engine.corrections import CORRECTIONS, DEFAULT_CORRECTION
from components.engine.measures import DEFAULT_MEASURES, MAX_CUTOFF, Measure, parse_measures, trec_name
from components.engine.metrics import GAINS
from components.formats import chunks as chunk_ids
from components.formats import readers
from components.formats.json_formats import Fields, parse_fields

REPORT_FORMATS = ("markdown", "latex")  # --format: a report table to paste in a paper
FORMATS = ("table", "json", "trec", *REPORT_FORMATS)
_LONGEST_WHOLE = 100  # an option's whole number longer than this (in characters) is refused unread


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage error is one line on stderr, without the usage (``--help`` shows it): the
    option, the value as typed and what was expected, :func:`~components.cli.output.printable` on one line (a
    value's line breaks are escaped too); exit status 2."""

    def error(self, message: str):
        self.exit(2, text("Usage error", prog=self.prog, message=printable(message, one_line=True)) + "\n")


class ShowUsage(Exception):
    """``rankwise`` without a known command, or with ``-h``/``--help`` before one: the usage of every command
    (lessons/text/cli.md's "Usage") is to be shown, and ``status`` returned (2, or 0 for the help)."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


class _CommandParser(argparse.ArgumentParser):
    """``rankwise`` itself, whose error is :class:`ShowUsage`. ``commands``: each subcommand's own parser, by name."""

    commands: dict[str, argparse.ArgumentParser]

    def error(self, message: str):
        raise ShowUsage(2)


class _Help(argparse.Action):
    """``rankwise -h``: :class:`ShowUsage`, status 0."""

    def __call__(self, parser, namespace, values, option_string=None):
        raise ShowUsage(0)


def build_command_parser() -> _CommandParser:
    """``rankwise eval|fuse|app ...``: a subcommand each, with its own parser (``args.parser``). ``app`` declares
    nothing: all that follows it is Streamlit's (the arguments ``parse_known_args`` leaves)."""
    parser = _CommandParser(prog="rankwise", add_help=False, allow_abbrev=False)
    parser.add_argument("-h", "--help", action=_Help, nargs=0)
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)
    raw = argparse.RawDescriptionHelpFormatter
    _eval_arguments(commands.add_parser("eval", prog="rankwise eval", description=text("Description"),
                                        epilog=text("Epilog"), formatter_class=raw))
    _fuse_arguments(commands.add_parser("fuse", prog="rankwise fuse", description=text("Fuse description"),
                                        formatter_class=raw))
    commands.add_parser("app", prog="rankwise app", add_help=False, allow_abbrev=False)
    parser.commands = dict(commands.choices)
    for sub in parser.commands.values():
        sub.set_defaults(parser=sub)
    return parser


def build_parser() -> argparse.ArgumentParser:
    """``rankwise eval`` on its own: QRELS RUN [-m MEASURE ...] [--gain ...] [--per-query] [--complete] ..."""
    return build_command_parser().commands["eval"]


def _eval_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("qrels", type=_file, help=text("Help qrels"))
    parser.add_argument("runs", type=_file, nargs="+", metavar="RUN", help=text("Help run"))
    parser.add_argument("--split", choices=readers.BEIR_SPLITS, help=text("Help split"))
    parser.add_argument("-m", "--measure", type=_measure, action="append", dest="measures", metavar="MEASURE",
                        help=text("Help measure", default=" ".join(DEFAULT_MEASURES)))
    parser.add_argument("--gain", choices=GAINS, default="linear", help=text("Help gain"))
    parser.add_argument("--trec-eval", choices=metrics.TREC_EVAL_VERSIONS, default=metrics.TREC_EVAL_VERSIONS[0],
                        help=text("Help trec-eval"))
    parser.add_argument("-q", "--per-query", action="store_true", help=text("Help per-query"))
    parser.add_argument("-c", "--complete", action="store_true", help=text("Help complete"))
    parser.add_argument("-l", "--rel-level", type=_whole, default=1, metavar="N", help=text("Help rel-level"))
    parser.add_argument("-J", "--judged-only", action="store_true", help=text("Help judged-only"))
    parser.add_argument("-M", "--max-docs", type=_whole, metavar="N", help=text("Help max-docs"))
    parser.add_argument("--format", choices=FORMATS, default="table", help=text("Help format"))
    parser.add_argument("--json", action="store_true", help=text("Help json"))
    parser.add_argument("--compare", type=_file, metavar="RUN2", help=text("Help compare"))
    parser.add_argument("--baseline", metavar="RUN", help=text("Help baseline"))
    parser.add_argument("--correction", choices=CORRECTIONS, default=DEFAULT_CORRECTION,
                        help=text("Help correction"))
    parser.add_argument("--power", type=_positive_float, metavar="DELTA", help=text("Help power"))
    parser.add_argument("--explain", metavar="QID", help=text("Help explain"))
    parser.add_argument("--diagnose", action="store_true", help=text("Help diagnose"))
    parser.add_argument("--diagnose-k", type=_whole, metavar="K", help=text("Help diagnose-k"))
    parser.add_argument("--chunks", type=_separator, nargs="?", const=chunk_ids.DEFAULT_SEPARATOR, metavar="SEP",
                        help=text("Help chunks", default=chunk_ids.DEFAULT_SEPARATOR))
    for kind in ("qrels", "run"):
        parser.add_argument(f"--{kind}-fields", type=_fields, metavar="ROLE=KEY,...", help=text(f"Help {kind}-fields"))
    return parser


def _fuse_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("runs", type=_file, nargs="+", metavar="RUN", help=text("Help fuse runs"))
    parser.add_argument("--method", choices=fusion.METHODS, default="rrf", help=text("Help fuse method"))
    parser.add_argument("--rrf-k", type=_positive_float, metavar="K", help=text("Help rrf-k", k=fusion.RRF_K))
    parser.add_argument("--norm", choices=fusion.NORMS, help=text("Help norm"))
    parser.add_argument("--depth", type=_whole, metavar="N", help=text("Help depth"))
    parser.add_argument("--tag", type=_tag, default=fusion.TAG, help=text("Help tag", tag=fusion.TAG))
    return parser


# Each option's value is checked here, as argparse reads it (``type=``).

def _file(value: str) -> Path:
    """QRELS, RUN, ``--compare``: a path; a usage error for an empty one (which ``Path`` would read as ``.``)."""
    if not value:
        raise argparse.ArgumentTypeError(text("Not a file name", value=repr(value)))
    return Path(value)


def _measure(value: str) -> str:
    """``-m``: the name as typed, once :func:`components.engine.measures.parse_measures` reads it (a set's name,
    trec_eval's ``P.5,10``, one measure); a usage error quoting it as typed otherwise."""
    try:
        parse_measures([value])
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return value


def _whole(value: str) -> int:
    """``-l``, ``-M``, ``--diagnose-k``, ``--depth``: a whole number from 1 to
    :data:`~components.engine.measures.MAX_CUTOFF` (the int64 the engine compares grades and ranks with), as
    ``int`` reads it (spaces around it and ``_`` between digits allowed); a usage error for anything else, however
    long (``int`` reads at most 4,300 digits)."""
    number = read_whole(value) if len(value) <= _LONGEST_WHOLE else None
    if number is None or not 1 <= number <= MAX_CUTOFF:
        raise argparse.ArgumentTypeError(text("Not a whole number", value=repr(value), most=f"{MAX_CUTOFF:,}"))
    return number


def _positive_float(value: str) -> float:
    """``--power DELTA``, ``--rrf-k K``: a usage error for anything but a positive finite number (any such is
    answered: :mod:`components.engine.power`)."""
    try:
        number = float(value)
    except ValueError:
        number = float("nan")
    if not (np.isfinite(number) and number > 0):
        raise argparse.ArgumentTypeError(text("Not a positive number", value=repr(value)))
    return number


def _separator(value: str) -> str:
    """``--chunks SEP``: the separator, once :func:`components.formats.chunks.separator_bytes` accepts it (text
    without whitespace); a usage error otherwise."""
    try:
        chunk_ids.separator_bytes(value)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return value


def _fields(spec: str) -> Fields:
    """``--qrels-fields`` / ``--run-fields``: a usage error for a mapping that does not parse."""
    try:
        return parse_fields(spec)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _tag(value: str) -> str:
    """``--tag``: the run's name in the written file's last column: text without whitespace."""
    if not value or any(c.isspace() for c in value):
        raise argparse.ArgumentTypeError(text("Not a tag", value=repr(value)))
    return value


# The options that do not go together: checked once the values are read, before any file is.

def check_eval(parser: argparse.ArgumentParser, args: argparse.Namespace, measures: Sequence[Measure],
               layout: str) -> tuple[list[Path], int]:
    """``rankwise eval``'s options together: a usage error for any that do not go together with the others or
    with the layout. Returns the runs (``--compare`` last) and which of them is the baseline."""
    if layout in REPORT_FORMATS:
        for option, given in (("-q", args.per_query), ("--diagnose", args.diagnose or args.diagnose_k is not None),
                              ("--power", args.power is not None), ("--explain", args.explain is not None)):
            if given:
                parser.error(text("Report table options", layout=layout, option=option))
    runs = [*args.runs, *([args.compare] if args.compare is not None else [])]
    if len(runs) > 1:
        from components.engine.many_runs import MAX_RUNS  # scipy loads only when runs are compared

        if layout == "trec":
            parser.error(text("Compare options"))
        if len(runs) > MAX_RUNS:
            parser.error(text("Too many runs", n=len(runs), most=MAX_RUNS))
        check_distinct(parser, runs)
        if args.explain is not None and args.rel_level != 1:
            parser.error(text("Explain needs level one"))
        return runs, _baseline(parser, args.baseline, runs)
    for option, given in (("--baseline", args.baseline), ("--power", args.power), ("--explain", args.explain)):
        if given is not None:
            parser.error(text("Needs several runs", option=option))
    untranslatable = [m.name for m in measures if trec_name(m) is None]
    if layout == "trec" and untranslatable:
        parser.error(text("Not in trec format", names=", ".join(untranslatable)))
    return runs, 0


def check_fuse(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``rankwise fuse``'s options together: two runs or more, each once, ``--norm`` and ``--rrf-k`` with their
    methods only."""
    if len(args.runs) < 2:
        parser.error(text("Fuse needs two runs"))
    if args.method == "rrf" and args.norm is not None:
        parser.error(text("Norm with rrf"))
    if args.method != "rrf" and args.rrf_k is not None:
        parser.error(text("Rrf-k without rrf", method=args.method))
    check_distinct(parser, args.runs)


def check_distinct(parser: argparse.ArgumentParser, runs: Sequence[Path]) -> None:
    """A usage error for a run given twice."""
    if len(set(map(str, runs))) < len(runs):
        parser.error(text("Run twice"))


def _baseline(parser: argparse.ArgumentParser, given: str | None, runs: Sequence[Path]) -> int:
    """``--baseline``: which of the runs, by its path as given or its file name (default: the first)."""
    if given is None:
        return 0
    matches = [i for i, run in enumerate(runs) if given in (str(run), run.name)]
    if len(matches) != 1:
        parser.error(text("Baseline unknown", given=repr(given), runs=", ".join(map(str, runs))))
    return matches[0]
