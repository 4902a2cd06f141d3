#!/usr/bin/env python3
"""Work-precision measurements of SciPy's stiff solvers on ROBER, VDPOL and HIRES.

The SciPy counterpart of `cargo run --release --example work_precision`: the same problems,
tolerances, error measure and reference values, with `scipy.integrate.solve_ivp` methods
Radau, BDF and LSODA, each given the exact Jacobian.

How to run (from the repository root):

    python3 -m pip install scipy numpy
    python3 scripts/scipy_work_precision.py            # rtol = 1e-3 ... 1e-10
    python3 scripts/scipy_work_precision.py --quick    # rtol = 1e-3, 1e-6, 1e-9, one run each

Writes figures/work_precision_scipy_<problem>.csv with the columns of the Rust example
(`problem,method,rtol,atol,status,error,mescd,time_s,repeats,steps,rejected_steps,rhs_evals,
jacobian_evals,lu_decompositions,newton_iters`); solve_ivp reports no rejected steps and no
Newton iterations, so those columns stay empty, and `steps` is the number of accepted steps
(len(sol.t) - 1 without t_eval).

Problems (Test Set for IVP Solvers, Mazzia & Magherini 2008; Hairer & Wanner 1996, Solving
Ordinary Differential Equations II, 2nd ed., sections IV.1 and IV.10):
  ROBER  Robertson (1966) kinetics, k = (0.04, 3e7, 1e4), y0 = (1, 0, 0), on [0, 1e11];
  VDPOL  van der Pol, scaled form, eps = 1e-6, y0 = (2, 0), on [0, 2];
  HIRES  Schaefer (1975) high-irradiance response, y0 = (1, 0, 0, 0, 0, 0, 0, 0.0057),
         on [0, 321.8122].

Tolerances: atol = c * rtol with c = 1e-6 (ROBER), 1 (VDPOL), 1e-4 (HIRES), as in the Rust
example.

Error: the mixed relative error in the max norm,
    err = max_i |y_i - ref_i| / (|ref_i| + c),
whose -log10 is the test set's "mixed error significant correct digits" (mescd).

Timing: one BLAS thread (set before numpy loads, unless the environment says otherwise);
median wall time (time.perf_counter) of up to 7 runs, repeating only while a point's
total stays under 0.3 s; a run over 5 s skips the method's tighter tolerances.
"""

import os
import sys
import time
import warnings
from pathlib import Path

# One thread for the linear algebra, like the Rust solvers (and fair under load: a
# multithreaded BLAS on a busy machine slows these small solves down by several times).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402  (after the thread settings, which numpy reads on import)
from scipy.integrate import solve_ivp  # noqa: E402

# Reference end values: Test Set for IVP Solvers (F. Mazzia and C. Magherini, University of
# Bari, release 2.4, 2008), problems ROBER, VDPOL and HIRES, computed there with RADAU /
# RADAU5 at tolerance 1.1e-18 in extended precision; copied to 16 digits.
ROBER_REF = np.array([0.2083340149701255e-07, 0.8333360770334713e-13, 0.9999999791665050e+00])
VDPOL_REF = np.array([0.1706167732170483e+01, -0.8928097010247975e+00])
HIRES_REF = np.array([
    0.7371312573325668e-03, 0.1442485726316185e-03, 0.5888729740967575e-04,
    0.1175651343283149e-02, 0.2386356198831331e-02, 0.6238968252742796e-02,
    0.2849998395185769e-02, 0.2850001604814231e-02,
])

MAX_REPEATS = 7
POINT_BUDGET_S = 0.3
SLOW_RUN_S = 5.0
RTOLS = [1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10]
RTOLS_QUICK = [1e-3, 1e-6, 1e-9]
METHODS = ["Radau", "BDF", "LSODA"]


# ---- ROBER -------------------------------------------------------------------------------
def rober_f(t, y):
    y1, y2, y3 = y
    return np.array([
        -0.04 * y1 + 1e4 * y2 * y3,
        0.04 * y1 - 1e4 * y2 * y3 - 3e7 * y2 * y2,
        3e7 * y2 * y2,
    ])


def rober_jac(t, y):
    _, y2, y3 = y
    return np.array([
        [-0.04, 1e4 * y3, 1e4 * y2],
        [0.04, -1e4 * y3 - 6e7 * y2, -1e4 * y2],
        [0.0, 6e7 * y2, 0.0],
    ])


# ---- VDPOL -------------------------------------------------------------------------------
EPS = 1e-6


def vdpol_f(t, y):
    y1, y2 = y
    return np.array([y2, ((1.0 - y1 * y1) * y2 - y1) / EPS])


def vdpol_jac(t, y):
    y1, y2 = y
    return np.array([
        [0.0, 1.0],
        [(-2.0 * y1 * y2 - 1.0) / EPS, (1.0 - y1 * y1) / EPS],
    ])


# ---- HIRES -------------------------------------------------------------------------------
def hires_f(t, y):
    y1, y2, y3, y4, y5, y6, y7, y8 = y
    bind = 280.0 * y6 * y8
    return np.array([
        -1.71 * y1 + 0.43 * y2 + 8.32 * y3 + 0.0007,
        1.71 * y1 - 8.75 * y2,
        -10.03 * y3 + 0.43 * y4 + 0.035 * y5,
        8.32 * y2 + 1.71 * y3 - 1.12 * y4,
        -1.745 * y5 + 0.43 * y6 + 0.43 * y7,
        -bind + 0.69 * y4 + 1.71 * y5 - 0.43 * y6 + 0.69 * y7,
        bind - 1.81 * y7,
        -bind + 1.81 * y7,
    ])


def hires_jac(t, y):
    y6, y8 = y[5], y[7]
    j = np.zeros((8, 8))
    j[0, 0], j[0, 1], j[0, 2] = -1.71, 0.43, 8.32
    j[1, 0], j[1, 1] = 1.71, -8.75
    j[2, 2], j[2, 3], j[2, 4] = -10.03, 0.43, 0.035
    j[3, 1], j[3, 2], j[3, 3] = 8.32, 1.71, -1.12
    j[4, 4], j[4, 5], j[4, 6] = -1.745, 0.43, 0.43
    j[5, 3], j[5, 4], j[5, 5], j[5, 6], j[5, 7] = 0.69, 1.71, -280.0 * y8 - 0.43, 0.69, -280.0 * y6
    j[6, 5], j[6, 6], j[6, 7] = 280.0 * y8, -1.81, 280.0 * y6
    j[7, 5], j[7, 6], j[7, 7] = -280.0 * y8, 1.81, -280.0 * y6
    return j


PROBLEMS = [
    # tag, title, f, jac, y0, t_end, reference, c (atol = c * rtol, floor of the error)
    ("rober", "ROBER on [0, 1e11]", rober_f, rober_jac, [1.0, 0.0, 0.0], 1e11, ROBER_REF, 1e-6),
    ("vdpol", "VDPOL (eps = 1e-6) on [0, 2]", vdpol_f, vdpol_jac, [2.0, 0.0], 2.0, VDPOL_REF, 1.0),
    ("hires", "HIRES on [0, 321.8122]", hires_f, hires_jac,
     [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0057], 321.8122, HIRES_REF, 1e-4),
]

CSV_HEADER = ("problem,method,rtol,atol,status,error,mescd,time_s,repeats,steps,"
              "rejected_steps,rhs_evals,jacobian_evals,lu_decompositions,newton_iters")


def mixed_error(y, ref, c):
    return float(np.max(np.abs(y - ref) / (np.abs(ref) + c)))


def run_once(f, jac, y0, t_end, method, rtol, atol):
    start = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sol = solve_ivp(f, (0.0, t_end), y0, method=method, rtol=rtol, atol=atol, jac=jac)
    except Exception as e:  # a failed run is recorded, never fatal
        return None, f"exception: {e}", time.perf_counter() - start
    secs = time.perf_counter() - start
    if not sol.success:
        return None, f"failed: {sol.message}", secs
    return sol, "ok", secs


def csv_field(s):
    return f'"{s.replace(chr(34), chr(34) * 2)}"' if any(ch in s for ch in ',"\n') else s


def fmt(v):
    return "" if v is None or not np.isfinite(v) else f"{v:e}"


def run_problem(problem, rtols, repeats, out_dir):
    tag, title, f, jac, y0, t_end, ref, c = problem
    print(f"\n== {title} (SciPy solve_ivp; atol = {c:g}*rtol, error = max |y-ref|/(|ref| + {c:g})) ==")
    print(f"{'method':<7} {'rtol':>7} {'error':>10} {'mescd':>6} {'time/ms':>10} {'n':>3} "
          f"{'steps':>8} {'rhs':>9} {'jac':>7} {'lu':>7}  status")
    rows = [CSV_HEADER]
    started = time.perf_counter()
    for method in METHODS:
        give_up = False
        for rtol in rtols:
            atol = c * rtol
            err, t_med, n, sol, status = float("nan"), float("nan"), 0, None, ""
            if give_up:
                status = "skipped: a looser tolerance exceeded the time budget"
            else:
                sol, status, t0 = run_once(f, jac, y0, t_end, method, rtol, atol)
                times, n = [t0], 1
                if sol is not None:
                    err = mixed_error(sol.y[:, -1], ref, c)
                    total = t0
                    while len(times) < repeats and total + t0 < POINT_BUDGET_S:
                        _, _, t = run_once(f, jac, y0, t_end, method, rtol, atol)
                        times.append(t)
                        total += t
                    n = len(times)
                t_med = float(np.median(times))
                if t_med > SLOW_RUN_S:
                    give_up = True
            ok = sol is not None
            steps = len(sol.t) - 1 if ok else None
            counts = (steps, sol.nfev, sol.njev, sol.nlu) if ok else (None,) * 4
            cnt = ["" if v is None else str(v) for v in counts]
            mescd = -np.log10(err) if err > 0 else float("nan")
            print(f"{method:<7} {rtol:>7.0e} {err:>10.3e} {mescd:>6.2f} {t_med * 1e3:>10.3f} {n:>3} "
                  f"{cnt[0]:>8} {cnt[1]:>9} {cnt[2]:>7} {cnt[3]:>7}  {status}")
            rows.append(",".join([tag, method, f"{rtol:e}", f"{atol:e}", csv_field(status),
                                  fmt(err), fmt(mescd), fmt(t_med), str(n), cnt[0], "",
                                  cnt[1], cnt[2], cnt[3], ""]))
    print(f"({title} measured in {time.perf_counter() - started:.1f} s)")
    path = out_dir / f"work_precision_scipy_{tag}.csv"
    path.write_text("\n".join(rows) + "\n")
    print(f"  wrote {path}")


def main():
    quick = "--quick" in sys.argv[1:]
    rtols, repeats = (RTOLS_QUICK, 1) if quick else (RTOLS, MAX_REPEATS)
    out_dir = Path(__file__).resolve().parent.parent / "figures"
    out_dir.mkdir(exist_ok=True)
    started = time.perf_counter()
    for problem in PROBLEMS:
        run_problem(problem, rtols, repeats, out_dir)
    print(f"\ntotal {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
