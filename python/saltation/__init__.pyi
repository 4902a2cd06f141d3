# Type stubs of the saltation package (the public interface).
import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union, overload

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
class BasinError(Error): ...
class LyapunovError(Error): ...
class SensitivityError(Error): ...
class MfptError(Error): ...

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
    multiplier_accuracy: Optional[Dict[str, Any]]
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

class Curve:
    kind: str
    param_names: List[str]
    param_values: Dict[str, float]
    period_k: int
    params: npt.NDArray[np.float64]
    x0: npt.NDArray[np.float64]
    period: npt.NDArray[np.float64]
    multipliers: npt.NDArray[np.complex128]
    codim2: List[Dict[str, Any]]
    end: str
    end_reason: str
    def __len__(self) -> int: ...
    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Curve: ...
    def to_dict(self) -> Dict[str, Any]: ...

class Basin:
    FAILED: int
    UNDECIDED: int
    axes: List[Dict[str, Any]]
    cells: npt.NDArray[np.int64]
    attractors: List[Dict[str, Any]]
    fractions: Dict[Union[int, str], float]
    failure_causes: List[Tuple[str, int]]
    undecided_causes: List[Tuple[str, int]]
    def axis_values(self, k: int = ...) -> npt.NDArray[np.float64]: ...
    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Basin: ...
    def to_dict(self) -> Dict[str, Any]: ...

class BasinShard:
    text: str
    index: int
    count: int
    def __init__(self, text: str, index: int, count: int) -> None: ...
    def save(self, directory: Union[str, os.PathLike[str]], stem: str) -> str: ...

def merge_basins(parts: Sequence[Union[BasinShard, str]]) -> Basin: ...

class Mfpt:
    model: str
    param: str
    distribution: str
    nominal: Dict[str, Any]
    levels: List[Dict[str, Any]]
    roughness: npt.NDArray[np.float64]
    chain_mfpt: npt.NDArray[np.float64]
    chain_lambda2: npt.NDArray[np.float64]
    chain_expected_steps: npt.NDArray[np.float64]
    mc_mean: npt.NDArray[np.float64]
    mc_ci: npt.NDArray[np.float64]
    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Mfpt: ...
    def to_dict(self) -> Dict[str, Any]: ...

class MfptShard:
    text: str
    index: int
    count: int
    def __init__(self, text: str, index: int, count: int) -> None: ...
    def save(self, directory: Union[str, os.PathLike[str]], stem: str) -> str: ...

def merge_mfpt(parts: Sequence[Union[MfptShard, str]]) -> Mfpt: ...

Distribution = Union[str, Tuple[str, float, float]]

class Lyapunov:
    exponents: npt.NDArray[np.float64]
    per_stride: npt.NDArray[np.float64]
    strides: int
    time: float
    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Lyapunov: ...
    def to_dict(self) -> Dict[str, Any]: ...

class Sensitivity:
    disturbance: str
    indicators: List[str]
    norm: float
    lyapunov_norm: Optional[float]
    spectral_radius: float
    impulse_response: npt.NDArray[np.float64]
    strides: int
    params: Dict[str, float]
    period: float
    u0: npt.NDArray[np.float64]
    x0: npt.NDArray[np.float64]
    a: npt.NDArray[np.float64]
    b: npt.NDArray[np.float64]
    c: npt.NDArray[np.float64]
    d: npt.NDArray[np.float64]
    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Sensitivity: ...
    def to_dict(self) -> Dict[str, Any]: ...

Axes = Union[str, Mapping[str, Tuple[float, float, int]], Sequence[Tuple[str, float, float, int]]]

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
    def curve(
        self,
        kind: str,
        param: str,
        param2: str,
        to2: float,
        guess: Optional[Sequence[float]] = ...,
        progress: Progress = ...,
        shooting: Union[str, int, None] = ...,
        **options: Any,
    ) -> Curve: ...
    @overload
    def basin(
        self,
        axes: Axes,
        strides: Optional[int] = ...,
        max_period: Optional[int] = ...,
        at: Optional[Mapping[str, float]] = ...,
        shard: None = ...,
        progress: Progress = ...,
    ) -> Basin: ...
    @overload
    def basin(
        self,
        axes: Axes,
        strides: Optional[int] = ...,
        max_period: Optional[int] = ...,
        at: Optional[Mapping[str, float]] = ...,
        *,
        shard: Tuple[int, int],
        progress: Progress = ...,
    ) -> BasinShard: ...
    @overload
    def mfpt(
        self,
        param: str,
        distribution: Distribution,
        mesh: Optional[Axes] = ...,
        samples: Optional[int] = ...,
        runs: Optional[int] = ...,
        max_steps: Optional[int] = ...,
        seed: Optional[int] = ...,
        roughness: Union[None, str, Sequence[float]] = ...,
        shard: None = ...,
        progress: Progress = ...,
        method: Optional[str] = ...,
    ) -> Mfpt: ...
    @overload
    def mfpt(
        self,
        param: str,
        distribution: Distribution,
        mesh: Optional[Axes] = ...,
        samples: Optional[int] = ...,
        runs: Optional[int] = ...,
        max_steps: Optional[int] = ...,
        seed: Optional[int] = ...,
        roughness: Union[None, str, Sequence[float]] = ...,
        *,
        shard: Tuple[int, int],
        progress: Progress = ...,
        method: Optional[str] = ...,
    ) -> MfptShard: ...
    def lyapunov(
        self, strides: Optional[int] = ..., guess: Optional[Sequence[float]] = ...
    ) -> Lyapunov: ...
    def sensitivity(
        self, disturbance: str, guess: Union[None, str, Sequence[float]] = ...
    ) -> Sensitivity: ...
