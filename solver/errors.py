"""The solver's exceptions: bad input, and operational failures.

Bad input (``LandlordError``, a ``ValueError``) is found once, at the boundary; the
kernels trust what they are given, and every message quotes the offending input and
says where it was found. The command line reports it in one line with exit code 2.

Operational failures (``OperationalError``) are not the input's fault: a worker that
died, a cluster that went away, an output that cannot be written. The command line
reports them in one line with exit code 1.
"""


class LandlordError(ValueError):
    """Base class for every input error the solver reports."""


class CardError(LandlordError):
    """A hand or play written in the notation is malformed or impossible."""


class RuleError(LandlordError):
    """A set of cards is not the legal combination it was meant to be."""


class InputFileError(LandlordError):
    """A contest file or puzzle file cannot be read as such."""


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
