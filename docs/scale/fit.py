"""The strength scale's fit (docs/strength.md, "The strength scale"): reads games.txt (one
game a line: white, black, white's score) and prints, by maximum likelihood on the logistic
Elo curve (400), with pela at 0:

- every engine's own rating (a free parameter each), as a rating list;
- the scale: every Hoshi skill `sK` on one line `a + b * K`, the other engines free; the
  line's ends at skills 0 and 95 and full master's rating are `SCALE` in
  crates/engine/src/levels/strength.rs.

Intervals are 95 % (1.96 standard errors from the curvature at the maximum). Plain Python,
no package: `python3 docs/scale/fit.py [GAMES] [SKILL ...]` prints the line at the skills
given too (by default 0 and 95).
"""

import math
import re
import sys
from pathlib import Path

ANCHOR = "pela"
C = math.log(10) / 400


def solve(a, b):
    """x with a x = b (Gaussian elimination, partial pivoting); a is square."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col])]
    return [m[i][n] / m[i][i] for i in range(n)]


def inverse(a):
    n = len(a)
    cols = [solve(a, [float(i == j) for i in range(n)]) for j in range(n)]
    return [[cols[j][i] for j in range(n)] for i in range(n)]


def fit(games, design, n):
    """Maximum likelihood of the parameters (n) where a player's rating is design(name) .
    theta (a sparse dict index -> coefficient); returns theta and its covariance."""
    rows = []
    for white, black, score in games:
        x = dict(design(white))
        for i, v in design(black).items():
            x[i] = x.get(i, 0.0) - v
        rows.append((x, score))
    theta = [0.0] * n
    for _ in range(100):
        grad = [0.0] * n
        hess = [[1e-9 * (i == j) for j in range(n)] for i in range(n)]
        for x, y in rows:
            p = 1 / (1 + math.exp(-C * sum(v * theta[i] for i, v in x.items())))
            for i, v in x.items():
                grad[i] += C * v * (y - p)
                for j, w in x.items():
                    hess[i][j] += C * C * v * w * p * (1 - p)
        step = solve(hess, grad)
        theta = [t + s for t, s in zip(theta, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return theta, inverse(hess)


def skill(name):
    m = re.fullmatch(r"s([\d.]+)", name)
    return float(m.group(1)) if m else None


def main():
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("games.txt")
    at = [float(k) for k in sys.argv[2:]] or [0.0, 95.0]
    games = [(w, b, float(s)) for w, b, s in (line.split() for line in path.open())]
    names = sorted({n for g in games for n in g[:2]} - {ANCHOR})
    played = {n: sum(n in g[:2] for g in games) for n in names + [ANCHOR]}
    print(f"{len(games)} games, {len(names) + 1} engines, {ANCHOR} = 0\n")

    theta, cov = fit(games, lambda n: {} if n == ANCHOR else {names.index(n): 1.0}, len(names))
    print("| engine | Elo | 95 % | games |\n|---|---:|---:|---:|")
    ranked = sorted(names + [ANCHOR], key=lambda n: -theta[names.index(n)] if n != ANCHOR else 0)
    for n in ranked:
        if n == ANCHOR:
            print(f"| {n} | 0 | anchor | {played[n]} |")
        else:
            i = names.index(n)
            print(f"| {n} | {theta[i]:+.1f} | ±{1.96 * math.sqrt(cov[i][i]):.1f} | {played[n]} |")

    free = [n for n in names if skill(n) is None]
    a, b = len(free), len(free) + 1

    def design(n):
        if n == ANCHOR:
            return {}
        k = skill(n)
        return {free.index(n): 1.0} if k is None else {a: 1.0, b: k / 100}

    theta, cov = fit(games, design, len(free) + 2)
    print(f"\nThe line: Elo = {theta[a]:.1f} + {theta[b] / 100:.2f} x skill "
          f"(slope ±{1.96 * math.sqrt(cov[b][b]) / 100:.2f})")
    for k in at:
        x = [0.0] * len(theta)
        x[a], x[b] = 1.0, k / 100
        var = sum(x[i] * cov[i][j] * x[j] for i in range(len(x)) for j in range(len(x)))
        print(f"  skill {k:g}: {sum(u * v for u, v in zip(x, theta)):+.1f} ±{1.96 * math.sqrt(var):.1f}")
    for n in free:
        i = free.index(n)
        print(f"  {n}: {theta[i]:+.1f} ±{1.96 * math.sqrt(cov[i][i]):.1f}")


if __name__ == "__main__":
    main()
