"""The ``rankwise`` command: ``rankwise eval`` (a trec_eval-compatible evaluator), ``rankwise fuse`` and
``rankwise app``. What each does, its options and its output: docs/cli.md.

Its modules, one job each:

- options.py: the parsers (a subcommand each) and every check of what was typed, before any file is read;
- evaluate.py: ``rankwise eval``: read the files, run the engine, pick the renderer;
- fuse.py, app.py: ``rankwise fuse`` and ``rankwise app``;
- report.py: one run's evaluation (:class:`~components.cli.report.Report`);
- render_text.py, render_trec.py, render_json.py, render_report.py: the readable table, trec_eval's layout,
  JSON, and the Markdown/LaTeX report table (components/formats/report_tables.py draws it);
- output.py: the words (lessons/text/cli.md), escaping for the terminal, errors and exit statuses.

Like the pure folders, it imports the engine, formats and course, never Streamlit, components/ui/ or a page.
"""
from __future__ import annotations

import sys
from typing import Sequence

from components.cli import app, evaluate, fuse, options, output


def main(argv: Sequence[str] | None = None) -> int:
    """``rankwise eval ...``, ``rankwise fuse ...`` or ``rankwise app ...``; return the exit status (2 for a usage
    error: one line on stderr, or the usage of every command when no command comes first)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = options.build_command_parser()
    try:  # the command comes first: anything before it is the usage (or, for -h, the help) however it goes on
        args, rest = parser.parse_known_args(argv if argv[:1] and argv[0] in parser.commands else argv[:1])
        if args.command is None:
            parser.error("no command")
    except options.ShowUsage as shown:
        print(output.text("Usage"), file=sys.stderr)
        return shown.status
    if args.command == "app":
        return app.app_main(rest)
    if rest:  # what parse_args would say, from the subcommand's parser
        args.parser.error(f"unrecognized arguments: {' '.join(rest)}")
    return (evaluate.run_eval if args.command == "eval" else fuse.run_fuse)(args.parser, args)
