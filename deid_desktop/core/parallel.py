"""Work items run a few at a time in threads, their results taken in order by the caller.

A model's forward passes (``detect/transformer.py``) and a huge text's windows
(``windows.detect_windowed``) both run this way: the work releases the interpreter (ONNX
Runtime computes with it released), a few items run ahead of the caller, and the caller
handles each result in its own thread, in the order given (decoding a batch, telling the
progress). When the caller stops early (a progress callback raising, an item failing) the
items not yet started are dropped and the call returns only when no thread is left running.
"""

from __future__ import annotations

from collections import deque
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Iterable, Iterator, TypeVar

T = TypeVar("T")
R = TypeVar("R")
_END = object()


def in_order(work: Callable[[T], R], items: Iterable[T], threads: int, name: str) -> Iterator[tuple[T, R]]:
    """(item, ``work(item)``) for each item, in order; ``threads`` items at a time in threads
    named ``name``, a few ahead of the caller (one after another in this thread when
    ``threads`` is one)."""
    if threads <= 1:
        for item in items:
            yield item, work(item)
        return
    pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix=name)
    pending: deque = deque()
    todo = iter(items)
    ahead = 2 * threads  # enough queued that no thread waits while the caller handles one
    try:
        for item in todo:
            pending.append((item, pool.submit(work, item)))
            if len(pending) >= ahead:
                break
        while pending:
            item, fut = pending.popleft()
            nxt = next(todo, _END)
            if nxt is not _END:
                pending.append((nxt, pool.submit(work, nxt)))
            yield item, fut.result()
    finally:
        for _, fut in pending:
            fut.cancel()
        pool.shutdown(wait=True)
