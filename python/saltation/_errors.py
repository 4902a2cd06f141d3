"""The exceptions of saltation: one hierarchy under :class:`Error`.

Every message is the ``saltation`` command's own (what it prints after ``error:``): a bad model
file names ``file:line:column`` and the reason, a failed solve says where Newton stopped.
"""

__all__ = [
    "Error",
    "LoadError",
    "ParamError",
    "ArgumentError",
    "ArgumentTypeError",
    "OrbitError",
    "SimulationError",
    "ContinuationError",
    "BasinError",
    "LyapunovError",
    "SensitivityError",
]


class Error(Exception):
    """Base class of every error saltation raises."""


class LoadError(Error):
    """A model file that cannot be read or is not a valid model file.

    The message starts with ``origin:line:column`` (the path, or the ``origin`` given to
    :meth:`saltation.Model.from_str`), then the reason.
    """


class ParamError(Error, ValueError):
    """A parameter name the model does not have (the message suggests the nearest names), or a
    value it cannot take (not finite, out of its range, fractional for an integer)."""


class ArgumentError(Error, ValueError):
    """Bad input other than a parameter: a guess of the wrong length or with NaN, an unknown
    option, a tolerance out of range, an unknown method, a file without the section a call
    needs."""


class ArgumentTypeError(ArgumentError, TypeError):
    """An argument of the wrong type (a string where a number is needed, …)."""


class OrbitError(Error):
    """The orbit solve failed (Newton did not converge, a stride failed)."""


class SimulationError(Error):
    """A simulation stopped before its end time. :attr:`result` holds what was computed up to
    the failure (a :class:`saltation.Simulation`), or ``None``."""

    def __init__(self, message, result=None):
        super().__init__(message)
        self.result = result

    def __reduce__(self):
        return (type(self), (str(self), self.result))


class ContinuationError(Error):
    """A continuation, orbit diagram or two-parameter curve failed (no branch could start, no
    bifurcation of the kind asked for, …)."""


class BasinError(Error):
    """A basin of attraction could not be computed (an attractor's Newton solve failed, …)."""


class LyapunovError(Error):
    """Lyapunov exponents could not be computed (a stride failed, the walker fell)."""


class SensitivityError(Error):
    """The gait sensitivity norm could not be computed (the orbit solve or its linearisation
    failed, an unstable orbit's response does not decay)."""


class MfptError(Error):
    """A mean first-passage time could not be computed (the nominal orbit's Newton solve or the
    chain's eigenvalue iteration failed, …)."""
