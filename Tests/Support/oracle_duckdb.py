#!/usr/bin/env python3
"""The DuckDB side of utq's differential oracle (Tests/UTQTests/OracleTests.swift).

    oracle_duckdb.py CASES.json RESULTS.json

CASES.json: {"zone": "Europe/Oslo", "tables": [{"name", "path", "columns": [[name, type]]}],
             "cases": [{"id", "sql"}]}
Each table is read from its CSV with the given types (empty cells are null); each case's SQL
runs in one connection with the session time zone set. RESULTS.json holds, per case, either
{"rows": [[cell, ...], ...]} or {"error": "..."}; cells are canonical: null, booleans, whole
numbers (as text when past 2^53, so no digit is lost), other numbers, text, booleans as
{"b": v} and times as microseconds since 1970 (UTC) in {"t": n}.
"""
import datetime, decimal, fractions, json, math, sys

import duckdb


def utq_round(x, d):
    """round(x, d) as utq does it: on the exact value of the double, half away from zero."""
    if x is None or d is None:
        return None
    if math.isnan(x) or math.isinf(x) or x == 0 or d > 22:
        return x
    if d < -22:
        return 0.0 * x
    q = decimal.Decimal(x).quantize(decimal.Decimal(1).scaleb(-d), rounding=decimal.ROUND_HALF_UP)
    return math.copysign(float(q), x) if q == 0 else float(q)


def utq_pair(f, pairs):
    """A summary of two columns (corr, covar, covar_pop, regr_slope, regr_intercept, regr_r2)
    of [y, x] pairs, exactly: the doubles as fractions, the answer rounded once. DuckDB's
    own running sums lose digits where the products nearly cancel (1e15 and -1e15 beside 1
    and 2); utq keeps them. None where there is no answer (fewer than two pairs, a column
    that does not vary), NaN with NaN or an infinity among the pairs."""
    if f is None or pairs is None:
        return None
    n = len(pairs)
    if any(not math.isfinite(v) for p in pairs for v in p):
        return float("nan")
    if n == 0 or (n < 2 and f != "covar_pop"):
        return None
    ys = [fractions.Fraction(p[0]) for p in pairs]
    xs = [fractions.Fraction(p[1]) for p in pairs]
    my, mx = sum(ys) / n, sum(xs) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if f == "covar_pop":
        return float(sxy / n)
    if f in ("covar", "covar_samp"):
        return float(sxy / (n - 1))
    if sxx == 0 or (f == "corr" and syy == 0):
        return None
    if f == "regr_slope":
        return float(sxy / sxx)
    if f == "regr_intercept":
        return float(my - sxy / sxx * mx)
    if f == "regr_r2":
        return 1.0 if syy == 0 else float(sxy * sxy / (sxx * syy))
    # corr: the square root of r², to 60 digits, with r's sign.
    r2 = sxy * sxy / (sxx * syy)
    with decimal.localcontext() as c:
        c.prec = 60
        r = (decimal.Decimal(r2.numerator) / decimal.Decimal(r2.denominator)).sqrt()
    return math.copysign(float(r), sxy)


def canonical(v):
    if v is None:
        return None
    if isinstance(v, bool):
        return {"b": v}
    if isinstance(v, int):
        return v if abs(v) < 2**53 else {"int": str(v)}
    if isinstance(v, float):
        if math.isnan(v):
            return {"float": "nan"}
        if math.isinf(v):
            return {"float": "inf" if v > 0 else "-inf"}
        return v
    if isinstance(v, decimal.Decimal):
        return float(v)
    if isinstance(v, datetime.datetime):
        if v.tzinfo is None:
            v = v.replace(tzinfo=datetime.timezone.utc)
        delta = v - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
        return {"t": (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds}
    if isinstance(v, datetime.date):
        return {"date": v.isoformat()}
    if isinstance(v, datetime.timedelta):
        return {"d": (v.days * 86400 + v.seconds) * 1_000_000 + v.microseconds}
    return str(v)


def main():
    spec = json.load(open(sys.argv[1]))
    con = duckdb.connect()
    con.execute(f"SET TimeZone = '{spec['zone']}'")
    con.execute("SET threads = 1")
    con.create_function("utq_round", utq_round, ["DOUBLE", "BIGINT"], "DOUBLE", null_handling="special")
    con.create_function("utq_pair", utq_pair, ["VARCHAR", "DOUBLE[][]"], "DOUBLE", null_handling="special")
    for t in spec["tables"]:
        cols = ", ".join(f"'{n}': '{ty}'" for n, ty in t["columns"])
        con.execute(f"CREATE TABLE \"{t['name']}\" AS SELECT * FROM read_csv('{t['path']}', header = true, "
                    f"columns = {{{cols}}}, nullstr = '', quote = '\"', escape = '\"', delim = ',')")
    out = []
    for case in spec["cases"]:
        try:
            rows = con.execute(case["sql"]).fetchall()
            out.append({"id": case["id"], "rows": [[canonical(v) for v in r] for r in rows]})
        except Exception as e:  # an error is a result too: the other engine must give one
            out.append({"id": case["id"], "error": str(e).splitlines()[0][:300]})
    json.dump(out, open(sys.argv[2], "w"))


if __name__ == "__main__":
    main()
