"""Where the model runs and with which number format: CUDA, then Apple MPS, then CPU."""

from __future__ import annotations

import contextlib
import importlib.metadata
import os
import sys
from functools import lru_cache
from typing import Any, Iterator

from ..errors import ModelError

# torch is imported inside the functions that need it: the ONNX Runtime path asks only
# physical_cores and accelerator_possible, and importing torch costs seconds at start-up.


def accelerator_possible() -> bool:
    """False when this machine certainly has no device torch could use: a CPU-only torch
    build, or no NVIDIA driver (and not a Mac, where MPS may be). Answered without importing
    torch."""
    if sys.platform == "darwin":
        return True
    try:
        version = importlib.metadata.version("torch")
    except importlib.metadata.PackageNotFoundError:
        return False
    if "+cpu" in version:
        return False
    if sys.platform.startswith("linux"):
        return os.path.exists("/proc/driver/nvidia/version") or os.path.exists("/dev/nvidia0") or os.path.exists("/dev/kfd")
    return True


def pick_device(device: str = "auto") -> Any:
    """A torch.device: the one named, else CUDA, then Apple MPS, then the CPU."""
    import torch

    if device and device != "auto":
        try:
            return torch.device(device)
        except RuntimeError:
            raise ModelError(f"unknown device {device!r}") from None
    if torch.cuda.is_available():
        return torch.device("cuda")
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


def physical_cores() -> int:
    try:
        import psutil

        n = psutil.cpu_count(logical=False)
    except Exception:  # psutil missing or unsupported platform
        n = None
    return max(1, n or os.cpu_count() or 1)


THREADS_ENV = "DEID_THREADS"


def default_threads() -> int:
    """Intra-op threads for a model: ``DEID_THREADS`` when set (a batch with N worker
    processes gives each its share of the cores), else one per physical core."""
    raw = os.environ.get(THREADS_ENV, "").strip()
    if raw.isdigit() and int(raw) > 0:
        return int(raw)
    return physical_cores()


@lru_cache(maxsize=1)
def cpu_has_native_bf16() -> bool:
    """True when the CPU multiplies bfloat16 in hardware (AVX512-BF16 or AMX). Elsewhere
    bf16 is emulated and slower than float32, so it is not used."""
    import torch

    try:
        if not torch.ops.mkldnn._is_mkldnn_bf16_supported():
            return False
    except (AttributeError, RuntimeError):
        return False
    if not sys.platform.startswith("linux"):
        return False
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="ignore") as f:
            flags = next((line for line in f if line.startswith("flags")), "")
    except OSError:
        return False
    return " avx512_bf16" in flags or " amx_bf16" in flags


def autocast_dtype(device: Any, precision: str = "auto") -> Any:
    """The reduced-precision type to autocast to, or None for plain float32.

    "auto": bfloat16 on CUDA cards that support it (else float16) and on CPUs with native
    bf16; float32 elsewhere (MPS included). "bf16" forces bfloat16, "fp32" turns it off."""
    import torch

    if precision == "fp32":
        return None
    if precision == "bf16":
        return torch.bfloat16
    if precision != "auto":
        raise ModelError(f"unknown precision {precision!r}; expected auto, bf16 or fp32")
    if device.type == "cuda":
        return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
    if device.type == "cpu" and cpu_has_native_bf16():
        return torch.bfloat16
    return None


@contextlib.contextmanager
def torch_threads(n: int | None) -> Iterator[None]:
    """Run with ``n`` intra-op threads (None or 0: one per physical core) and put the
    process-wide setting back afterwards, so a library call leaves no trace in its host."""
    import torch

    want = n or physical_cores()
    before = torch.get_num_threads()
    if want != before:
        torch.set_num_threads(want)
    try:
        yield
    finally:
        if torch.get_num_threads() != before:
            torch.set_num_threads(before)
