"""The tally both checkers keep: one line per check, a count of passes and failures."""
import sys

passed = failed = 0


def check(name: str, ok: bool, detail: str = "") -> bool:
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
    print(f"{'PASS' if ok else 'FAIL'} {name}" + (f": {detail}" if detail and not ok else ""))
    return ok


def guarded(name, fn):
    """Run one check; an exception is a failure, not a crash."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        check(name, False, f"{type(e).__name__}: {e}")


def finish():
    """Print the count and exit: status 0 only when nothing failed."""
    print(f"{passed} passed, {failed} failed")
    sys.exit(0 if failed == 0 else 1)
