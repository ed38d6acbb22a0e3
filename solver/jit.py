"""The one place numba is configured.

Kernels are compiled with ``cache=True`` so that a second process starts in a fraction
of a second. The cache goes to ``NUMBA_CACHE_DIR`` when set, else to a user cache
directory, so that a read-only install still imports.

Kernels never allocate: every array comes from the caller, who holds it for the call.
So they are compiled without numba's reference counting (``_nrt=False``), which would
otherwise count each array in and out at every call of a kernel by another: about a
fifth of the forced-win search's time. A kernel that allocated would fail to compile.
"""

import os
from pathlib import Path

if "NUMBA_CACHE_DIR" not in os.environ:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    os.environ["NUMBA_CACHE_DIR"] = str(base / "landlord-solver" / "numba")

import numba  # noqa: E402  (the cache location must be set first)

#: Decorator for every kernel: nopython, cached on disk, no reference counting inside.
kernel = numba.njit(cache=True, _nrt=False)


def is_cached(module: str) -> bool:
    """Whether compiled code for ``solver.<module>`` is already in the on-disk cache."""
    root = Path(os.environ["NUMBA_CACHE_DIR"])
    return root.is_dir() and any(root.rglob(f"{module}.*.nbi"))
