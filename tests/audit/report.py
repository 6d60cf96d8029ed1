"""Print every difference the fuzz cases find: ``python -m tests.audit.report [substring...]``."""
from __future__ import annotations

import sys
import time

from tests.audit.fuzz import diff, skip_reason
from tests.audit.registry import all_cases
from tests.audit.skips import SKIPS


def main(argv: list[str]) -> int:
    show_skipped = "--skipped" in argv
    show_raises = "--raises" in argv
    trace = "--trace" in argv
    filt = [a for a in argv if not a.startswith("--")]
    cases = all_cases()
    if filt:
        cases = [c for c in cases if any(f in c.id for f in filt)]
    t0 = time.time()
    bad = 0
    for c in cases:
        why = skip_reason(c.id, SKIPS)
        if why and not show_skipped:
            continue
        if trace:
            print("RUN", c.id, file=sys.stderr, flush=True)
        if show_raises:
            from tests.audit.fuzz import PADDLE, outcome
            k, e = outcome(c, PADDLE)
            if k == "raise":
                print(f"RAISES {c.id}: {type(e).__name__}: {str(e).strip().splitlines()[0][:150] if str(e).strip() else ''}")
            continue
        d = diff(c)
        if d:
            bad += 1
            print(f"{c.id} {c.args!r:.80} {c.kwargs!r:.60}" + (f"  [skipped: {why}]" if why else ""))
            for line in d:
                print("    " + line)
    print(f"{bad} differing of {len(cases)} cases in {time.time() - t0:.1f}s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
