# Independent high-precision solution of ROBER (Robertson 1966), the source of
# saltation_models::reference::rober::Y_SHORT (y at t = 40): the 3-stage Radau IIA method
# (order 5, exact coefficients) in 40-digit arithmetic (mpmath), full Newton on the stage
# equations, step-doubling error control (one step of h against two of h/2) with local
# extrapolation. Not part of the build or the tests; needs only Python 3 and mpmath.
#
# Usage (from the repository root): python3 scripts/rober_mpmath.py rober T_END TOL
#   python3 scripts/rober_mpmath.py rober 40 1e-16    (about 3500 steps, a few minutes)
#   python3 scripts/rober_mpmath.py rober 1e11 1e-13  (checks against the test set's y(1e11))
import sys
from mpmath import mp, mpf, sqrt, matrix, lu_solve
mp.dps = 40
s6 = sqrt(6)
A = [[(88-7*s6)/360, (296-169*s6)/1800, (-2+3*s6)/225],
     [(296+169*s6)/1800, (88+7*s6)/360, (-2-3*s6)/225],
     [(16-s6)/36, (16+s6)/36, mpf(1)/9]]

def rober(y):
    k1, k2, k3 = mpf('0.04'), mpf('3e7'), mpf('1e4')
    f = [-k1*y[0]+k3*y[1]*y[2], k1*y[0]-k3*y[1]*y[2]-k2*y[1]**2, k2*y[1]**2]
    J = [[-k1, k3*y[2], k3*y[1]], [k1, -k3*y[2]-2*k2*y[1], -k3*y[1]], [0, 2*k2*y[1], 0]]
    return f, J

def step(F, y, h):
    n = len(y)
    Z = [[mpf(0)]*n for _ in range(3)]
    for it in range(60):
        Ys = [[y[k]+Z[i][k] for k in range(n)] for i in range(3)]
        FJ = [F(Y) for Y in Ys]
        # residual R = Z - h A F(Y)
        R = matrix(3*n, 1)
        M = matrix(3*n, 3*n)
        for i in range(3):
            for k in range(n):
                R[i*n+k] = Z[i][k] - h*sum(A[i][j]*FJ[j][0][k] for j in range(3))
                for j in range(3):
                    for l in range(n):
                        M[i*n+k, j*n+l] = (1 if (i == j and k == l) else 0) - h*A[i][j]*FJ[j][1][k][l]
        d = lu_solve(M, -R)
        nrm = max(abs(d[m]) for m in range(3*n))
        for i in range(3):
            for k in range(n):
                Z[i][k] += d[i*n+k]
        if nrm < mpf(10)**(-mp.dps+5):
            return [y[k]+Z[2][k] for k in range(n)], True
    return None, False

def integrate(F, y0, tend, tol, h):
    t, y = mpf(0), [mpf(v) for v in y0]
    tend = mpf(tend)
    nsteps = 0
    while t < tend:
        h = min(h, tend-t)
        big, ok1 = step(F, y, h)
        half, ok2 = step(F, y, h/2)
        small, ok3 = (step(F, half, h/2) if ok2 else (None, False))
        if not (ok1 and ok3):
            h /= 4
            continue
        err = max(abs(small[k]-big[k])/(abs(small[k])+mpf(tol)) for k in range(len(y)))/31
        if err <= tol:
            t += h
            # local extrapolation (order 6)
            y = [small[k] + (small[k]-big[k])/31 for k in range(len(y))]
            nsteps += 1
        fac = min(mpf(4), max(mpf('0.2'), mpf('0.8')*(tol/max(err, mpf(10)**-60))**(mpf(1)/6)))
        h *= fac
    return y, nsteps

if __name__ == '__main__':
    prob, tend, tol = sys.argv[1], sys.argv[2], mpf(sys.argv[3])
    F = {'rober': rober}[prob]
    y0 = {'rober': [1, 0, 0]}[prob]
    y, n = integrate(F, y0, tend, tol, mpf('1e-8'))
    print(prob, tend, sys.argv[3], n, [mp.nstr(v, 22) for v in y])
