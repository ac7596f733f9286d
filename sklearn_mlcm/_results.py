"""Result objects that unpack like scipy's (``stat, p = friedman_test(r)``).

scipy.stats returns named results whose first fields unpack as a tuple and
whose further fields are attributes (``FriedmanchisquareResult`` is
``(statistic, pvalue)``). :func:`unpackable` gives a frozen dataclass the same
behaviour: iterating, ``len`` and indexing see the named fields, in order;
every field stays an attribute. ``repr`` lists them all, unless the class
prints a summary of its own (the interval, paired-comparison and
threshold-curve results and those of ``compare/``, by
:mod:`sklearn_mlcm._summary`'s pieces).
"""

from collections import namedtuple

__all__ = ["ConfidenceInterval", "unpackable"]

#: The bounds of a confidence interval; arrays of shape (n_labels,) per label.
ConfidenceInterval = namedtuple("ConfidenceInterval", ["low", "high"])


def unpackable(*fields):
    """Class decorator: instances unpack as the tuple of ``fields``."""

    def decorate(cls):
        def as_tuple(self):
            return tuple(getattr(self, name) for name in fields)

        cls.__iter__ = lambda self: iter(as_tuple(self))
        cls.__len__ = lambda self: len(fields)
        cls.__getitem__ = lambda self, index: as_tuple(self)[index]
        cls._unpacked_fields = fields
        return cls

    return decorate
