"""Time and memory caps for the bad-input tables (tests/test_bad_input*.py)."""

import resource
import signal
from contextlib import contextmanager


@contextmanager
def capped(seconds=10, extra_bytes=3 * 2**30):
    """Fail (TimeoutError / MemoryError) instead of hanging or swapping.

    The address space is capped at what this process has plus ``extra_bytes`` (child
    processes inherit the cap), the time at ``seconds``.
    """
    def stop(signum, frame):
        raise TimeoutError(f"no answer within {seconds} s")
    old = signal.signal(signal.SIGALRM, stop)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as fh:
        vm = int(fh.read().split()[0]) * resource.getpagesize()
    cap = vm + extra_bytes
    resource.setrlimit(resource.RLIMIT_AS, (cap if hard == resource.RLIM_INFINITY
                                            else min(cap, hard), hard))
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


time_cap = capped          # the older tables' name: the same time and memory caps
