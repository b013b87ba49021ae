"""Runs a pyfluss script's main and leaves without the interpreter's teardown.

pyfluss 1.0.0 now and then aborts (SIGABRT) while the interpreter tears its
runtime down, after the script has done and printed everything: the tests
would fail on a crash that says nothing about the values they compare. So the
scripts end through run(): the exit status is main's (SystemExit's code, 1
with the traceback printed for any other exception), and the process leaves
with os._exit once stdout and stderr are flushed.
"""

import os
import sys
import traceback


def run(main, *args):
    status = 0
    try:
        result = main(*args)
        if isinstance(result, int):
            status = result
    except SystemExit as e:
        if e.code is None:
            status = 0
        elif isinstance(e.code, int):
            status = e.code
        else:
            print(e.code, file=sys.stderr)
            status = 1
    except BaseException:  # noqa: BLE001 - reported, then the same quick exit
        traceback.print_exc()
        status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
