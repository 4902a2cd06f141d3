"""A sweep of the simplest walker's stable gait over the slope on a Dask LocalCluster of two
workers: one orbit per slope, the spectral radius of each.

    python python/examples/dask_sweep.py             # from the repository root

On a SLURM cluster, replace the LocalCluster by dask-jobqueue's SLURMCluster (docs/python.md).
"""

import pathlib
import time

import numpy as np
from distributed import Client, LocalCluster

import saltation
from saltation.dask import map_params

ROOT = pathlib.Path(__file__).resolve().parents[2]

if __name__ == "__main__":
    walker = saltation.Model.load(ROOT / "models" / "simplest_walker.ron")
    gammas = np.linspace(0.004, 0.015, 200)
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        t = time.perf_counter()
        orbits = map_params(walker, "gamma", gammas, client=client, errors="return")
        wall = time.perf_counter() - t
    ok = [(g, o) for g, o in zip(gammas, orbits) if isinstance(o, saltation.Orbit)]
    print(f"{len(ok)} of {len(gammas)} orbits in {wall:.2f} s on 2 workers")
    for g, o in ok[:: max(1, len(ok) // 10)]:
        print(f"gamma = {g:.5f}: period {o.period:.5f}, spectral radius {max(abs(o.multipliers)):.5f}")
