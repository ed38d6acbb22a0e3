"""One exception tree for bad input, rooted in ``ValueError``.

Validation happens once, at the boundary; the kernels trust what they are given.
Every message quotes the offending input and says where it was found.
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
