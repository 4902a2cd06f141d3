"""Speed of the Python package (BENCHMARKS.md, "From Python"): run from the repository root
with the package installed in release mode (`pip install ./python`):

    python python/bench/bench.py [--sweep N]

1. An orbit solve called from Python against the solve time the library measures itself
   (`Orbit.solve_seconds`, what `saltation orbit --json` reports), median of many calls.
2. Two threads solving in parallel against the same solves in series.
3. A sweep of N orbits (default 300) with saltation.dask.map_params on a LocalCluster of one
   worker and of two.
"""

import argparse
import pathlib
import statistics
import threading
import time

import numpy as np

import saltation

ROOT = pathlib.Path(__file__).resolve().parents[2]


def orbit_overhead(walker, n=200):
    ratios, extra = [], []
    for _ in range(n):
        t = time.perf_counter()
        o = walker.orbit()
        wall = time.perf_counter() - t
        ratios.append(wall / o.solve_seconds)
        extra.append(wall - o.solve_seconds)
    print(f"orbit from Python: median wall/solve_seconds = {statistics.median(ratios):.3f}, "
          f"median overhead = {statistics.median(extra) * 1e6:.1f} µs "
          f"(solve_seconds ≈ {o.solve_seconds * 1e3:.2f} ms)")


def threads(walker, reps=20):
    models = [walker.with_params(gamma=g) for g in (0.0085, 0.0095)]

    def work(m):
        for _ in range(reps):
            m.orbit()

    t = time.perf_counter()
    for m in models:
        work(m)
    serial = time.perf_counter() - t
    ths = [threading.Thread(target=work, args=(m,)) for m in models]
    t = time.perf_counter()
    for th in ths:
        th.start()
    for th in ths:
        th.join()
    par = time.perf_counter() - t
    print(f"two threads: serial {serial:.3f} s, parallel {par:.3f} s, ratio {par / serial:.2f}")


def sweep(walker, n):
    from distributed import Client, LocalCluster

    from saltation.dask import map_params

    gammas = np.linspace(0.004, 0.015, n)
    times = {}
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=None) as c, \
                Client(c) as client:
            map_params(walker, "gamma", gammas[:4], client=client, errors="return")  # warm up
            t = time.perf_counter()
            map_params(walker, "gamma", gammas, client=client, errors="return")
            times[workers] = time.perf_counter() - t
    print(f"dask sweep of {n} orbits: 1 worker {times[1]:.2f} s, 2 workers {times[2]:.2f} s, "
          f"speed-up {times[1] / times[2]:.2f}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--sweep", type=int, default=300)
    a = ap.parse_args()
    walker = saltation.Model.load(ROOT / "models" / "simplest_walker.ron")
    walker.orbit()
    orbit_overhead(walker)
    threads(walker)
    sweep(walker, a.sweep)
