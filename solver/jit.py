"""The one place numba is configured.

Kernels are compiled with ``cache=True`` so that a second process starts in a fraction
of a second. The cache goes to a folder for this version of the sources, under
``NUMBA_CACHE_DIR`` when set, else under a user cache directory. Where that folder cannot be
written (a read-only install, an unwritable home), numba would refuse to define the
kernels at all; they are then compiled in memory instead, every run, and
``CACHE_PROBLEM`` says why.

Kernels never allocate: every array comes from the caller, who holds it for the call.
So they are compiled without numba's reference counting (``_nrt=False``), which would
otherwise count each array in and out at every call of a kernel by another: about a
fifth of the forced-win search's time. A kernel that allocated would fail to compile.
"""

import hashlib
import importlib
import os
import tempfile
from pathlib import Path


def _fingerprint() -> str:
    """A digest of the solver's sources. numba looks only at the stamp of the file a
    kernel is written in, not at those of the kernels it calls (compiled into it): code
    compiled from other sources of those must never be found, so each version of the
    sources has a cache folder of its own."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _cache_folder() -> str:
    """The folder for this version of the sources: under ``NUMBA_CACHE_DIR`` when set
    (a folder already named for this version, as a worker process inherits it, is kept
    as it is), else under the user cache directory."""
    version = _fingerprint()
    given = os.environ.get("NUMBA_CACHE_DIR")  # unset or empty: the user cache directory
    if given:
        return given if Path(given).name == version else str(Path(given) / version)
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return str(base / "landlord-solver" / "numba" / version)


os.environ["NUMBA_CACHE_DIR"] = _cache_folder()

import numba  # noqa: E402  (the cache location must be set first)
from llvmlite import ir  # noqa: E402
from numba.core import cgutils, types  # noqa: E402
from numba.core.registry import CPUDispatcher  # noqa: E402
from numba.extending import intrinsic  # noqa: E402


def _cache_problem(folder: str) -> str | None:
    """Why compiled code cannot be cached in ``folder``, or None when it can."""
    try:
        os.makedirs(folder, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as e:
        return f"cannot write the compiled-code cache {folder}: {e.strerror or e}"
    return None


#: Why kernels are compiled in memory rather than cached on disk (None: they are cached).
CACHE_PROBLEM = _cache_problem(os.environ["NUMBA_CACHE_DIR"])

#: Decorator for every kernel: nopython, cached on disk, no reference counting inside.
kernel = numba.njit(cache=CACHE_PROBLEM is None, _nrt=False)


@intrinsic
def _prefetch(typingctx, array, row):
    """LLVM's prefetch of the first word of ``array[row]`` (a 2-d array): a read, to be
    kept in every cache level."""

    def codegen(context, builder, signature, args):
        kind = signature.args[0]
        ary = context.make_array(kind)(context, builder, args[0])
        first = context.get_constant(types.intp, 0)
        shape = cgutils.unpack_tuple(builder, ary.shape)
        strides = cgutils.unpack_tuple(builder, ary.strides)
        at = cgutils.get_item_pointer2(
            context, builder, ary.data, shape, strides, kind.layout, [args[1], first]
        )
        word = ir.IntType(32)
        fn = cgutils.get_or_insert_function(
            builder.module,
            ir.FunctionType(ir.VoidType(), [at.type, word, word, word]),
            "llvm.prefetch.p0",
        )
        builder.call(fn, [at, word(0), word(3), word(1)])
        return context.get_dummy_value()

    return types.void(array, row), codegen


def _no_prefetch(array: object, row: int) -> None:
    """Without the JIT there are no caches to ask for."""


#: For kernels: ask the processor to bring a row of a table into its caches without
#: waiting for it, so that lookups that need several rows wait for memory together.
prefetch = _no_prefetch if numba.config.DISABLE_JIT else _prefetch


def is_cached(module: str) -> bool:
    """Whether compiled code for the kernels of ``solver.<module>`` is in the on-disk
    cache (importing a module compiles nothing: kernels compile on their first call)."""
    if CACHE_PROBLEM is not None:
        return False
    mod = importlib.import_module(f"solver.{module}")
    kernels = [
        k
        for k in vars(mod).values()
        if isinstance(k, CPUDispatcher) and k.py_func.__module__ == mod.__name__
    ]
    return any(os.path.exists(k._cache._cache_file._index_path) for k in kernels)
