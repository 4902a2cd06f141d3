# Type stubs of the saltation package (the public interface).
import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

Progress = Union[None, bool, str, Callable[[Dict[str, Any]], Any]]

class Error(Exception): ...
class LoadError(Error): ...
class ParamError(Error, ValueError): ...
class ArgumentError(Error, ValueError): ...
class ArgumentTypeError(ArgumentError, TypeError): ...
class OrbitError(Error): ...
class SimulationError(Error):
    result: Optional[Simulation]
    def __init__(self, message: str, result: Optional[Simulation] = ...) -> None: ...
class ContinuationError(Error): ...

class Orbit:
    x0: npt.NDArray[np.float64]
    period: float
    multipliers: npt.NDArray[np.complex128]
    stable: bool
    admissible: Optional[bool]
    violation: Optional[str]
    phases: Optional[List[Tuple[str, float]]]
    residual: float
    newton_iterations: int
    params: Dict[str, float]
    solve_seconds: float
    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Orbit: ...
    def to_dict(self) -> Dict[str, Any]: ...

class Simulation:
    t: npt.NDArray[np.float64]
    y: npt.NDArray[np.float64]
    modes: npt.NDArray[np.int64]
    outputs: Dict[str, npt.NDArray[np.float64]]
    events: List[Dict[str, Any]]
    t_events: npt.NDArray[np.float64]
    state_names: List[str]
    status: int
    success: bool
    message: str
    stats: Dict[str, int]
    nfev: int
    njev: int
    nlu: int
    method: str
    params: Dict[str, float]
    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Simulation: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def __getattr__(self, name: str) -> npt.NDArray[np.float64]: ...

class Branch:
    label: str
    period_k: int
    end: str
    params: npt.NDArray[np.float64]
    x0: npt.NDArray[np.float64]
    period: npt.NDArray[np.float64]
    multipliers: npt.NDArray[np.complex128]
    stable: npt.NDArray[np.bool_]
    admissible: Optional[npt.NDArray[np.bool_]]
    def __len__(self) -> int: ...

class Continuation:
    param: str
    params: Dict[str, float]
    branches: List[Branch]
    bifurcations: List[Dict[str, Any]]
    def branch(self, label: str) -> Branch: ...
    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Continuation: ...
    def to_dict(self) -> Dict[str, Any]: ...

class OrbitDiagram:
    param: str
    params: npt.NDArray[np.float64]
    values: List[npt.NDArray[np.float64]]
    failed: npt.NDArray[np.bool_]
    causes: List[Optional[str]]
    first_failure: Optional[Dict[str, Any]]
    failure_ranges: List[Dict[str, Any]]
    def points(self) -> Tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]: ...
    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> OrbitDiagram: ...
    def to_dict(self) -> Dict[str, Any]: ...

class Model:
    @classmethod
    def load(cls, path: Union[str, os.PathLike[str]]) -> Model: ...
    @classmethod
    def from_str(cls, text: str, origin: str = ...) -> Model: ...
    @property
    def params(self) -> Dict[str, float]: ...
    @property
    def name(self) -> str: ...
    @property
    def origin(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def state_names(self) -> List[str]: ...
    @property
    def reduced_dim(self) -> int: ...
    @property
    def mode_names(self) -> List[str]: ...
    @property
    def guesses(self) -> Dict[str, List[float]]: ...
    def with_params(self, **values: float) -> Model: ...
    def orbit(
        self,
        guess: Union[None, str, Sequence[float], npt.NDArray[np.float64]] = ...,
        **options: Any,
    ) -> Orbit: ...
    def simulate(
        self,
        t_end: float,
        t_eval: Optional[Sequence[float]] = ...,
        method: Optional[str] = ...,
        rtol: Optional[float] = ...,
        atol: Optional[float] = ...,
        allow_inadmissible: bool = ...,
    ) -> Simulation: ...
    def continuation(
        self, param: Optional[str] = ..., to: Optional[float] = ..., progress: Progress = ...
    ) -> Continuation: ...
    def orbit_diagram(
        self,
        param: Optional[str] = ...,
        start: Optional[float] = ...,
        stop: Optional[float] = ...,
        count: Optional[int] = ...,
        progress: Progress = ...,
    ) -> OrbitDiagram: ...
