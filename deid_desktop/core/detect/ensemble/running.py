"""Running an ensemble's members over one call's texts: one after another, or the models side
by side in threads (``members.side_by_side_threads`` says when), with one progress figure
for the whole call either way.

The caller's callbacks are only ever called from the caller's thread: a window's detection
thread may touch its own objects from them, and either callback may raise to stop. A stop
reaches a member running beside the others at its next batch; the call returns only when
every member thread has ended, so no detection is left running behind a cancelled one."""

from __future__ import annotations

import threading
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from typing import Callable, Mapping, Sequence

from ...spans import Span
from ..base import Detector
from .members import reports_progress, work_shares

# How often the caller hears of the progress of members running beside it (seconds).
POLL_S = 0.2


class _Stopped(Exception):
    """Ends a member thread once the call is being abandoned."""


def run_members(
    members: Mapping[str, Detector],
    order: Sequence[str],
    texts: Sequence[str],
    *,
    side_by_side: Sequence[str] = (),
    progress: Callable[[str], None] | None = None,
    fraction: Callable[[float], None] | None = None,
    wanted: Mapping[str, Sequence[Sequence[tuple[int, int]] | None]] | None = None,
) -> dict[str, list[list[Span]]]:
    """Each member's spans per text, by member name. ``side_by_side`` names the members to
    run in threads of their own while the others run in turn in this thread (a model beside
    the rules, or two models); ``progress(member)`` is called as each member starts,
    ``fraction(done)`` with the share of the call done (0-1). ``wanted`` gives a model the
    character ranges of each text it is to read (``TransformerDetector.detect_many``)."""
    apart = [n for n in order if n in side_by_side]
    shares = dict(zip(order, work_shares([members[n] for n in order])))
    done = {n: 0.0 for n in order}  # each member's own share done; one writer per key
    stop = threading.Event()

    def report() -> None:
        if fraction is not None:
            fraction(min(1.0, sum(shares[n] * done[n] for n in order)))

    def run(name: str, in_thread: bool) -> list[list[Span]]:
        member = members[name]
        extra = {"wanted": wanted[name]} if wanted and name in wanted else {}
        if reports_progress(member) and (in_thread or fraction is not None):

            def within(f: float) -> None:
                if stop.is_set():
                    raise _Stopped()
                done[name] = f
                if not in_thread:
                    report()

            out = member.detect_many(list(texts), progress=within, **extra)
        else:
            out = member.detect_many(list(texts), **extra)
        done[name] = 1.0
        return out

    results: dict[str, list[list[Span]]] = {}
    pool = ThreadPoolExecutor(max_workers=len(apart), thread_name_prefix="deid-member") if apart else None
    try:
        futures = {}
        for n in apart:
            if progress:
                progress(n)
            futures[n] = pool.submit(run, n, True)  # type: ignore[union-attr]
        for n in order:
            if n in futures:
                continue
            if progress:
                progress(n)
            results[n] = run(n, False)
            report()
        pending = set(futures.values())
        while pending:
            finished, pending = wait(pending, timeout=POLL_S, return_when=FIRST_COMPLETED)
            for f in finished:
                f.result()  # a member's error is raised here, in the caller's thread
            report()
        for n, f in futures.items():
            results[n] = f.result()
    except BaseException:
        stop.set()
        raise
    finally:
        if pool is not None:
            pool.shutdown(wait=True)
    return results
