from typing import Any, Callable, Iterable, List, Optional, Tuple, Union

from . import Basin, Mfpt, Model

FUNCTIONS: Tuple[str, ...]

def map_params(
    model: Model,
    name: str,
    values: Iterable[float],
    fn: Union[str, Callable[..., Any]] = ...,
    client: Optional[Any] = ...,
    errors: str = ...,
    **kwargs: Any,
) -> List[Any]: ...

def basin(
    model: Model,
    axes: Any,
    shards: Optional[int] = ...,
    client: Optional[Any] = ...,
    **kwargs: Any,
) -> Basin: ...

def mfpt(
    model: Model,
    param: str,
    distribution: Any,
    mesh: Optional[str] = ...,
    shards: Optional[int] = ...,
    client: Optional[Any] = ...,
    **kwargs: Any,
) -> Mfpt: ...
