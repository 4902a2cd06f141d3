"""Saltation: periodic orbits, Floquet stability, continuation and simulation of hybrid
dynamical systems — smooth flows interrupted by guards and resets (walkers, hoppers, impacting
and switching systems) — from Python.

Models are the RON model files of the ``saltation`` command (``models/*.ron``)::

    import saltation
    walker = saltation.Model.load("models/simplest_walker.ron")
    orbit = walker.orbit()                       # Newton shooting from the file's first guess
    orbit.period, orbit.multipliers              # float, complex128 array
    steeper = walker.with_params(gamma=0.012)    # a new model
    sim = walker.simulate(5.0)                   # like scipy's solve_ivp: sim.t, sim.y
    basin = walker.basin(axes={"u0": (0.15, 0.25, 50), "u1": (-0.3, -0.1, 50)})
    basin.cells                                  # int64 array (50, 50): attractor id, -1, -2

Every computation runs in Rust with the GIL released (threads run in parallel); models and
results are picklable (multiprocessing, Dask: see :mod:`saltation.dask`). Errors are
:class:`saltation.Error` subclasses carrying the command's messages.
"""

from ._analyses import (
    Basin,
    BasinShard,
    Curve,
    Lyapunov,
    Mfpt,
    MfptShard,
    Sensitivity,
    merge_basins,
    merge_mfpt,
)
from ._errors import (
    ArgumentError,
    ArgumentTypeError,
    BasinError,
    ContinuationError,
    Error,
    LoadError,
    LyapunovError,
    MfptError,
    OrbitError,
    ParamError,
    SensitivityError,
    SimulationError,
)
from ._model import Model
from ._results import Branch, Continuation, Orbit, OrbitDiagram, Simulation
from ._saltation import __version__

__all__ = [
    "Model",
    "Orbit",
    "Simulation",
    "Branch",
    "Continuation",
    "OrbitDiagram",
    "Curve",
    "Basin",
    "BasinShard",
    "Lyapunov",
    "Sensitivity",
    "Mfpt",
    "MfptShard",
    "merge_basins",
    "merge_mfpt",
    "Error",
    "LoadError",
    "ParamError",
    "ArgumentError",
    "ArgumentTypeError",
    "OrbitError",
    "SimulationError",
    "ContinuationError",
    "BasinError",
    "MfptError",
    "LyapunovError",
    "SensitivityError",
    "__version__",
]
