"""The ``pagaie`` command line (also ``python -m pagaie``).

    pagaie run script.py [args...]   run an unmodified Paddle script on pagaie
    pagaie run-check                 check the installation (paddle.utils.run_check)
    pagaie --version                 print the version
"""
from __future__ import annotations

import argparse
import os
import runpy
import sys
from typing import Sequence


def _run_script(script: str, args: Sequence[str]) -> int:
    if not os.path.isfile(script):
        print(f"pagaie run: no such script: {script}", file=sys.stderr)
        return 2
    from pagaie import compat
    compat.install()
    sys.argv = [script, *args]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as exc:
        code = exc.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        print(code, file=sys.stderr)
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pagaie`` command.

    Args:
        argv (list[str], optional): the arguments after the program name; ``sys.argv[1:]``
            by default.

    Returns:
        int: the exit status.

    Examples:
        >>> from pagaie.__main__ import main
        >>> main(['--version'])  # doctest: +ELLIPSIS
        pagaie ...
        0
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(
        prog="pagaie", description="PaddlePaddle's API on PyTorch's kernels.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command")
    run = sub.add_parser("run", help="run an unmodified Paddle script ('import paddle' gives pagaie)")
    run.add_argument("script", help="the Python script to run")
    run.add_argument("args", nargs=argparse.REMAINDER, help="arguments passed to the script")
    sub.add_parser("run-check", help="check that pagaie works on every device found")
    # Everything after the script name belongs to the script, even options like --lr.
    if len(argv) >= 2 and argv[0] == "run" and not argv[1].startswith("-"):
        return _run_script(argv[1], argv[2:])
    ns = parser.parse_args(argv)
    if ns.version:
        from pagaie._version import __version__
        print(f"pagaie {__version__}")
        return 0
    if ns.command == "run":
        return _run_script(ns.script, ns.args)
    if ns.command == "run-check":
        from pagaie.utils.install_check import check_installation
        return 0 if check_installation(verbose=True) else 1
    parser.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
