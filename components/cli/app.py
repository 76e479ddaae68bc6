"""``rankwise app``: the installed app (``app.py`` and its ``.streamlit/config.toml``, found beside the installed
packages, so it works from any folder) run with ``streamlit run``."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Sequence

from components.cli.output import text


def app_paths() -> tuple[Path, Path]:
    """Where the installed app lives: (its ``app.py``, the folder holding its ``.streamlit/config.toml``).

    Beside the packages: the checkout itself for an editable install (or a
    run from the checkout), the installed package data otherwise.
    """
    here = Path(__file__).resolve().parent.parent  # components/
    for folder in (here.parent, here / "app"):
        if (folder / "app.py").is_file() and (folder / ".streamlit" / "config.toml").is_file():
            return folder / "app.py", folder
    raise FileNotFoundError(f"no app.py with .streamlit/config.toml beside {here}: is Rankwise installed?")


def app_main(streamlit_args: Sequence[str]) -> int:
    """``streamlit run app.py [options]`` in the app's folder, so its ``.streamlit/config.toml`` applies.

    The command becomes the server (``os.execv``), so a signal that stops ``rankwise app`` stops the server:
    no child is left running after its parent.
    """
    try:
        script, folder = app_paths()
    except FileNotFoundError as err:
        print(text("Error", message=err), file=sys.stderr)
        return 1
    os.chdir(folder)
    os.execv(sys.executable, [sys.executable, "-m", "streamlit", "run", str(script), *streamlit_args])
