"""Parameter sweeps and basins on Dask: one task per parameter value (:func:`map_params`) or per
shard of a basin (:func:`basin`), on a laptop's ``distributed.LocalCluster`` or a cluster's
scheduler.

Models and results pickle (a model as its file text and parameter values, a result as its
dict), so they travel to workers as they are::

    from distributed import Client, LocalCluster
    import numpy as np
    import saltation
    from saltation.dask import map_params

    walker = saltation.Model.load("models/simplest_walker.ron")
    with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster) as client:
        orbits = map_params(walker, "gamma", np.linspace(0.005, 0.015, 200), client=client)

A value whose computation fails gives the exception (a :class:`saltation.Error`) in its place
with ``errors="return"`` (the default ``"raise"`` raises the first).

On a SLURM cluster, ``dask-jobqueue`` starts the workers as batch jobs; the rest is the same::

    from dask_jobqueue import SLURMCluster
    from distributed import Client

    cluster = SLURMCluster(
        queue="normal", cores=8, processes=8, memory="16GB", walltime="01:00:00",
        # the workers need the package: the same environment as this script
        job_script_prologue=["source ~/venvs/saltation/bin/activate"],
    )
    cluster.scale(jobs=4)            # 4 nodes × 8 single-threaded workers
    client = Client(cluster)
    orbits = map_params(walker, "gamma", values, client=client)

Each task holds its worker's thread for the whole solve with the GIL released; use one thread
per worker process (``processes == cores``) so workers do not share a core.

A basin's shards run the same way, then merge into exactly the serial basin::

    from saltation.dask import basin
    b = basin(walker, axes={"u0": (0.15, 0.25, 300), "u1": (-0.3, -0.1, 300)}, shards=16,
              client=client, strides=50)
    b.cells                          # identical to walker.basin(...).cells
"""

import numbers

from ._analyses import merge_basins, merge_mfpt
from ._errors import ArgumentError, ArgumentTypeError, Error
from ._model import Model

__all__ = ["map_params", "basin", "mfpt", "FUNCTIONS"]

#: The computations ``map_params`` can run by name: methods of :class:`saltation.Model`.
FUNCTIONS = ("orbit", "simulate", "continuation", "orbit_diagram")


def _run(model, name, value, fn, kwargs, errors):
    """One task: the model at ``name = value``, then ``fn`` on it."""
    try:
        m = model.with_params(**{name: value})
        if callable(fn):
            return fn(m, **kwargs)
        return getattr(m, fn)(**kwargs)
    except Error as e:
        if errors == "return":
            return e
        raise


def _client(client):
    """``client``, else the current ``distributed`` client, else ``None``."""
    if client is not None:
        return client
    try:
        from distributed import get_client

        return get_client()
    except (ImportError, ValueError):
        return None


def _shard(model, method, i, n, kwargs):
    """One task of :func:`basin` or :func:`mfpt`: shard ``i`` of ``n``."""
    return getattr(model, method)(shard=(i, n), **kwargs)


def _sharded(model, method, merge, shards, client, kwargs):
    """Runs ``model.<method>`` as ``shards`` shards, one Dask task each, and ``merge`` s them."""
    import dask

    if not isinstance(model, Model):
        raise ArgumentTypeError(f"model: expected a saltation.Model, got {type(model).__name__}")
    for k in ("shard", "progress"):
        if k in kwargs:
            raise ArgumentError(f"{k}: not an option of saltation.dask.{method}")
    client = _client(client)
    if shards is None:
        workers = len(client.scheduler_info().get("workers", {})) if client is not None else 1
        shards = 2 * max(workers, 1)
    if isinstance(shards, bool) or not isinstance(shards, numbers.Integral):
        raise ArgumentTypeError(f"shards={shards!r}: expected an integer")
    if shards < 1:
        raise ArgumentError(f"shards={shards}: must be at least 1")
    n = int(shards)
    if client is not None:
        futures = client.map(
            _shard, [model] * n, [method] * n, range(n), [n] * n, kwargs=kwargs, pure=False
        )
        parts = client.gather(futures)
    else:
        tasks = [dask.delayed(_shard)(model, method, i, n, kwargs) for i in range(n)]
        parts = list(dask.compute(*tasks, scheduler="threads"))
    return merge(parts)


def basin(model, axes, shards=None, client=None, **kwargs):
    """The basin of attraction of ``model`` (see :meth:`saltation.Model.basin`) computed as
    ``shards`` shards, one Dask task each, merged into exactly the unsharded result (cells,
    attractors, fractions identical, whatever the number of shards or workers).

    Args:
        model: a :class:`saltation.Model`.
        axes: the grid, as for :meth:`saltation.Model.basin`.
        shards: the number of shards (tasks); ``None``: twice the cluster's worker count
            (with a client), else 2. Each shard holds cells ``i, i + n, …``, so the slow cells
            spread over all of them.
        client: a ``distributed.Client``; ``None``: the current one, else Dask's local
            scheduler (threads; the GIL is released).
        **kwargs: passed to :meth:`saltation.Model.basin` (``strides``, ``max_period``,
            ``at``; not ``shard`` nor ``progress``).

    Returns:
        Basin: the merged basin.
    """
    return _sharded(model, "basin", merge_basins, shards, client, dict(kwargs, axes=axes))


def mfpt(model, param, distribution, mesh=None, shards=None, client=None, **kwargs):
    """The mean first-passage time of ``model`` (see :meth:`saltation.Model.mfpt`) computed as
    ``shards`` shards, one Dask task each (shard ``i`` builds the chain's rows of mesh points
    ``i, i + n, …`` and runs the Monte Carlo walks ``i, i + n, …``), merged into exactly the
    unsharded result, as ``saltation merge`` joins the command's shards.

    Args:
        model: a :class:`saltation.Model`.
        param, distribution, mesh: as for :meth:`saltation.Model.mfpt`.
        shards: the number of shards; ``None``: twice the cluster's worker count (with a
            client), else 2.
        client: a ``distributed.Client``; ``None``: the current one, else Dask's local
            scheduler (threads).
        **kwargs: passed to :meth:`saltation.Model.mfpt` (``samples``, ``runs``,
            ``max_steps``, ``seed``, ``roughness``, ``method``; not ``shard`` nor
            ``progress``).

    Returns:
        Mfpt: the merged result.
    """
    kwargs = dict(kwargs, param=param, distribution=distribution, mesh=mesh)
    return _sharded(model, "mfpt", merge_mfpt, shards, client, kwargs)


def map_params(model, name, values, fn="orbit", client=None, errors="raise", **kwargs):
    """Runs ``fn`` on ``model`` at each value of parameter ``name``, one Dask task per value,
    and returns the results in the order of ``values``.

    Args:
        model: a :class:`saltation.Model`.
        name: the parameter to set (one of ``model.params``).
        values: the parameter values (any iterable of numbers).
        fn: a computation by name (``"orbit"``, ``"simulate"``, ``"continuation"``,
            ``"orbit_diagram"``) or a function ``fn(model, **kwargs)`` (picklable: defined at
            a module's top level).
        client: a ``distributed.Client``; ``None``: the current one (``distributed``'s
            ``get_client()``), else Dask's local scheduler (threads; the GIL is released).
        errors: ``"raise"`` (the first failure is raised) or ``"return"`` (a failed value's
            :class:`saltation.Error` takes its place in the list).
        **kwargs: passed to ``fn`` (``guess=…``, ``rtol=…``, …).

    Returns:
        list: one result per value.
    """
    import dask

    if not isinstance(model, Model):
        raise ArgumentTypeError(f"model: expected a saltation.Model, got {type(model).__name__}")
    if not isinstance(name, str):
        raise ArgumentTypeError(f"name={name!r}: expected a parameter name (str)")
    if name not in model.params:
        model.with_params(**{name: 0.0})  # raises ParamError suggesting the nearest names
    if not (callable(fn) or fn in FUNCTIONS):
        raise ArgumentError(f"fn={fn!r}: expected one of {FUNCTIONS} or a callable")
    if errors not in ("raise", "return"):
        raise ArgumentError(f"errors={errors!r}: expected 'raise' or 'return'")
    vals = list(values)
    for i, v in enumerate(vals):
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise ArgumentTypeError(f"values[{i}]={v!r}: expected a number")
    client = _client(client)
    if client is not None:
        futures = client.map(
            _run, [model] * len(vals), [name] * len(vals), vals,
            fn=fn, kwargs=kwargs, errors=errors, pure=False,
        )
        return client.gather(futures)
    tasks = [dask.delayed(_run)(model, name, v, fn, kwargs, errors) for v in vals]
    return list(dask.compute(*tasks, scheduler="threads"))
