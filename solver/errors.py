"""The solver's exceptions: bad input, and operational failures.

Bad input (``LandlordError``, a ``ValueError``) is found once, at the boundary; the
kernels trust what they are given, and every message quotes the offending input and
says where it was found. The command line reports it in one line with exit code 2.

Operational failures (``OperationalError``) are not the input's fault: a worker that
died, a cluster that went away, an output that cannot be written. The command line
reports them in one line with exit code 1.
"""


def quoted(text: str | bytes, cut: bool = False) -> str:
    """Input quoted for a message, readable whatever it holds: a byte that is no text
    (read from a file, or from a command line as Python hands it over) as ``\\xff``, a
    control character escaped; ``cut`` marks text that went on."""
    if isinstance(text, str):
        text = text.encode("utf-8", "surrogateescape")
    chars = text.decode("utf-8", "backslashreplace")
    shown = "".join(c if c.isprintable() or c == "\\" else repr(c)[1:-1] for c in chars)
    return f"'{shown}{'...' if cut else ''}'"


class LandlordError(ValueError):
    """Base class for every input error the solver reports."""


class CardError(LandlordError):
    """A hand or play written in the notation is malformed or impossible."""


class RuleError(LandlordError):
    """A set of cards is not the legal combination it was meant to be."""


class InputFileError(LandlordError):
    """A contest file or puzzle file cannot be read as such."""

    #: the name of the item (a puzzle) the error spoils, when it has one
    name: str | None = None


class WholeFileError(InputFileError):
    """A file none of whose items can be read (unreadable, not text, bad syntax, no T)."""


class OperationalError(Exception):
    """Base class for the failures that are not bad input."""


class OutputError(OperationalError):
    """The results cannot be written (a full disk, a closed pipe)."""

    def __init__(self, message: str, broken_pipe: bool = False) -> None:
        super().__init__(message)
        self.broken_pipe = broken_pipe


class RunStopped(OperationalError):
    """A batch run cannot go on (a worker died, the cluster went away); what is written
    is kept."""


class EngineError(OperationalError):
    """The cluster cannot be used (unreachable, no workers): nothing was run."""
