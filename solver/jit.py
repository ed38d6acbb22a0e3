"""The one place numba is configured.

Kernels are compiled with ``cache=True`` so that a second process starts in a fraction
of a second. The cache goes to ``NUMBA_CACHE_DIR`` when set, else to a user cache
directory, so that a read-only install still imports.
"""

import os
from pathlib import Path

if "NUMBA_CACHE_DIR" not in os.environ:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    os.environ["NUMBA_CACHE_DIR"] = str(base / "landlord-solver" / "numba")

import numba  # noqa: E402  (the cache location must be set first)
import numba.extending  # noqa: E402

#: Decorator for every kernel: nopython, cached on disk, no Python objects inside.
kernel = numba.njit(cache=True)


def is_cached(module: str) -> bool:
    """Whether compiled code for ``solver.<module>`` is already in the on-disk cache."""
    root = Path(os.environ["NUMBA_CACHE_DIR"])
    return root.is_dir() and any(root.rglob(f"{module}.*.nbi"))


@numba.extending.intrinsic
def _borrow(typingctx, array):  # noqa: ARG001 (numba's intrinsic signature)
    """The same array, not reference-counted: numba skips counting an array whose
    reference record is null. Only for arrays the caller keeps alive throughout; the
    recursive search uses it to avoid two atomic operations per array per node."""

    def codegen(context, builder, signature, args):
        from numba.core import cgutils

        source = context.make_array(signature.args[0])(context, builder, value=args[0])
        alias = context.make_array(signature.return_type)(context, builder)
        for name in ("parent", "nitems", "itemsize", "data", "shape", "strides"):
            setattr(alias, name, getattr(source, name))
        alias.meminfo = cgutils.get_null_value(alias.meminfo.type)
        return alias._getvalue()

    return array(array), codegen


def _same(array):  # the pure-Python stand-in, when the JIT is off
    return array


borrow = _same if numba.config.DISABLE_JIT else _borrow
