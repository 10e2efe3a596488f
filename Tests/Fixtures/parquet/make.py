#!/usr/bin/env python3
"""Writes the Parquet fixtures of Tests/UTQTests/ParquetTests.swift, and what pyarrow reads
back from each (NAME.expected.json), so the tests compare utq with pyarrow without needing
pyarrow. Run it from anywhere; it writes beside itself:

    python3 Tests/Fixtures/parquet/make.py

The expected values are cells as text, so nothing is lost on the way (NaN, UINT64, exact
decimals): integers in decimal, doubles as Python's repr, times as microseconds since the
epoch (wall-clock times as if in UTC, the zone the tests load in), durations in microseconds,
bytes as hexadecimal unless they are all UTF-8 text. The DuckDB-written file needs the
`duckdb` command (pip install duckdb-cli); it is kept when it cannot be made again.
"""
import datetime as dt
import decimal
import json
import os
import shutil
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))
N = 40


def nth(values, k, every=7):
    """Every `every`-th cell null, so each column has nulls in its pages."""
    return [None if i % every == k % every else v for i, v in enumerate(values)]


def types_table():
    utc = pa.timestamp("us", tz="UTC")
    ints = [(-1) ** i * i * 1_000_003 for i in range(N)]
    words = ["bus", "tram", "ferry", "train", "bike", "walk", "ø-line", "线路 3", ""]
    cols = {
        "flag": pa.array(nth([i % 3 == 0 for i in range(N)], 0), pa.bool_()),
        "i8": pa.array(nth([(-1) ** i * (i * 3 % 128) for i in range(N)], 1), pa.int8()),
        "i16": pa.array(nth([(-1) ** i * i * 800 for i in range(N)], 2), pa.int16()),
        "i32": pa.array(nth([(-1) ** i * i * 50_000_000 % 2_000_000_000 for i in range(N)], 3), pa.int32()),
        "i64": pa.array(nth([x * 10_000_000_000 for x in ints], 4), pa.int64()),
        "u8": pa.array(nth([i * 6 % 256 for i in range(N)], 5), pa.uint8()),
        "u16": pa.array(nth([i * 1600 % 65536 for i in range(N)], 6), pa.uint16()),
        "u32": pa.array(nth([4_294_967_295 - i * 7 for i in range(N)], 0), pa.uint32()),
        "u64": pa.array(nth([i * 1000 for i in range(N)], 1), pa.uint64()),
        "f32": pa.array(nth([i * 0.1 - 1.5 for i in range(N)], 2), pa.float32()),
        "f64": pa.array(nth([(i - 20) / 3 for i in range(N)], 3), pa.float64()),
        "text": pa.array(nth([words[i % len(words)] for i in range(N)], 4), pa.string()),
        "unique": pa.array(nth([f"id-{i:05d}" for i in range(N)], 5), pa.string()),
        "bytes": pa.array(nth([bytes([i, 255 - i, 0]) for i in range(N)], 6), pa.binary()),
        "fixed": pa.array(nth([bytes([i, i + 1, i + 2, 200]) for i in range(N)], 0), pa.binary(4)),
        "day": pa.array(nth([dt.date(2020, 2, 27) + dt.timedelta(days=i) for i in range(N)], 1), pa.date32()),
        "ts_ms_utc": pa.array(nth([1_582_000_000_000 + i * 3_600_123 for i in range(N)], 2), pa.timestamp("ms", tz="UTC")),
        "ts_us_utc": pa.array(nth([1_582_000_000_000_000 + i * 61_000_001 for i in range(N)], 3), utc),
        "ts_ns_utc": pa.array(nth([1_582_000_000_000_000_000 + i * 1_000_000_007 for i in range(N)], 4), pa.timestamp("ns", tz="UTC")),
        "ts_ms_local": pa.array(nth([1_582_000_000_000 + i * 86_400_000 for i in range(N)], 5), pa.timestamp("ms")),
        "ts_us_local": pa.array(nth([-86_400_000_000 * 400 + i * 999_999 for i in range(N)], 6), pa.timestamp("us")),
        "ts_ns_local": pa.array(nth([1_600_000_000_123_456_789 + i for i in range(N)], 0), pa.timestamp("ns")),
        "clock_ms": pa.array(nth([i * 1_234_567 % 86_400_000 for i in range(N)], 1), pa.time32("ms")),
        "clock_us": pa.array(nth([i * 1_234_567_891 % 86_400_000_000 for i in range(N)], 2), pa.time64("us")),
        "clock_ns": pa.array(nth([i * 1_234_567_891_234 % 86_400_000_000_000 for i in range(N)], 3), pa.time64("ns")),
        "dec_9_2": pa.array(nth([decimal.Decimal(i * 1234 - 20000) / 100 for i in range(N)], 4), pa.decimal128(9, 2)),
        "dec_18_4": pa.array(nth([decimal.Decimal((-1) ** i * i * 123_456_789_012) / 10_000 for i in range(N)], 5), pa.decimal128(18, 4)),
        "dec_38_10": pa.array(nth([decimal.Decimal(f"{(-1) ** i}{i}12345678901234567.{i:010d}") for i in range(N)], 6), pa.decimal128(38, 10)),
        "category": pa.array(nth(["red", "green", "blue", "green"] * (N // 4), 0)).dictionary_encode(),
        "uuid": pa.array(nth([bytes(range(i, i + 16)) for i in range(N)], 1), pa.uuid()),
        "half": pa.array(nth([(i - 20) * 0.25 for i in range(N)], 2), pa.float16()),
        "doc": pa.array(nth([json.dumps({"k": i}) for i in range(N)], 3), pa.json_()),
        "nothing": pa.nulls(N),
        "always": pa.array([i * 2 for i in range(N)], pa.int64()),
    }
    return pa.table(cols)


def encodings_table():
    return pa.table({
        "i32": pa.array([(-1) ** i * i * i * 1000 for i in range(N)], pa.int32()),
        "i64": pa.array(nth([1_582_000_000_000_000 + i * 1_000_003 for i in range(N)], 1), pa.int64()),
        "ts": pa.array([1_582_000_000_000_000 + i * 5_000_000 for i in range(N)], pa.timestamp("us", tz="UTC")),
        "f32": pa.array(nth([i * 1.25 for i in range(N)], 2), pa.float32()),
        "f64": pa.array([(i - 7) / 9 for i in range(N)], pa.float64()),
        "prefixed": pa.array(nth([f"stop-{i // 3:03d}-{i}" for i in range(N)], 3), pa.string()),
        "lengths": pa.array(nth(["x" * (i % 9) for i in range(N)], 4), pa.string()),
        "flag": pa.array([i % 5 < 2 for i in range(N)], pa.bool_()),
        "fixed": pa.array([bytes([i, 7, i * 2 % 256]) for i in range(N)], pa.binary(3)),
    })


def nested_table():
    return pa.table({
        "id": pa.array(range(6), pa.int64()),
        "stops": pa.array([[1, 2], [], None, [3], [4, 5, 6], [7]], pa.list_(pa.int32())),
        "name": pa.array(["a", "b", None, "d", "e", "f"]),
        "place": pa.array([{"lat": 1.0, "lon": 2.0}] * 6, pa.struct([("lat", pa.float64()), ("lon", pa.float64())])),
        "tags": pa.array([[("k", "v")]] * 6, pa.map_(pa.string(), pa.string())),
        "score": pa.array([0.5, None, 1.5, 2.5, None, 3.5]),
    })


def many_pages_table():
    rows = 2400
    return pa.table({
        "n": pa.array(range(rows), pa.int64()),
        # Many distinct values: the dictionary outgrows its limit and later pages are PLAIN.
        "label": pa.array([f"L{i * 7919 % rows}" for i in range(rows)]),
        "mode": pa.array([["walk", "bus", None][i % 3] for i in range(rows)]),
        "x": pa.array([None if i % 11 == 0 else i / 7 for i in range(rows)]),
        "t": pa.array([1_600_000_000_000_000 + i * 1_000_000 for i in range(rows)], pa.timestamp("us", tz="UTC")),
    })


def dictionaries_table():
    """Text columns over four row groups of 500 rows, each group with its own dictionary:
    `few` draws other values in each group (so the groups' codes differ), `many` holds 200
    values a group and 500 in all (more than a byte's codes), and `mixed` has one group whose
    values outgrow the dictionary's limit, so its later pages are PLAIN."""
    rows = 2000
    few = [None if i % 9 == 4 else ["bus", "tram", "ferry", "walk", "bike", "car"][(i // 500) + i % 3] for i in range(rows)]
    many = [f"v{(i // 500) * 100 + i * 37 % 200:03d}" for i in range(rows)]
    mixed = [f"unique-{i:06d}" if 1000 <= i < 1500 else ["x", "y", None][i % 3] for i in range(rows)]
    return pa.table({"few": pa.array(few), "many": pa.array(many), "mixed": pa.array(mixed)})


def cell(value, arrow_type):
    """One cell as the tests read it; see the module's description."""
    if value is None:
        return None
    if pa.types.is_floating(arrow_type) or pa.types.is_decimal(arrow_type):
        return repr(float(value))
    if pa.types.is_boolean(arrow_type):
        return "true" if value else "false"
    return str(value)


def to_micros(array, unit):
    raw = array.cast(pa.int64())
    scale = {"s": 1_000_000, "ms": 1000, "us": 1, "ns": None}[unit]
    out = []
    for v in raw.to_pylist():
        if v is None:
            out.append(None)
        elif scale is None:
            out.append(str(v // 1000))
        else:
            out.append(str(v * scale))
    return out


def expected_column(name, array):
    """The utq type and the cells pyarrow gives for a column."""
    t = array.type
    if pa.types.is_dictionary(t):
        array, t = array.cast(t.value_type), t.value_type
    if getattr(t, "extension_name", None):
        if t.extension_name in ("arrow.uuid", "arrow.json"):
            return "string", [None if v is None else str(v) for v in array.to_pylist()]
        array, t = array.storage, t.storage_type
    if pa.types.is_null(t):
        return "null", [None] * len(array)
    if pa.types.is_timestamp(t):
        return "timestamp", to_micros(array, t.unit)
    if pa.types.is_date32(t):
        return "timestamp", [None if v is None else str(v * 86_400_000_000) for v in array.cast(pa.int32()).to_pylist()]
    if pa.types.is_time(t):
        return "duration", to_micros(array.cast(pa.int64() if t.bit_width == 64 else pa.int32()).cast(pa.int64()), t.unit)
    if pa.types.is_duration(t):
        return "duration", to_micros(array, t.unit)
    if pa.types.is_binary(t) or pa.types.is_large_binary(t):
        values = array.to_pylist()
        try:
            return "string", [None if v is None else v.decode("utf-8") for v in values]
        except UnicodeDecodeError:
            return "string", [None if v is None else v.hex() for v in values]
    if pa.types.is_fixed_size_binary(t):
        return "string", [None if v is None else v.hex() for v in array.to_pylist()]
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return "string", array.to_pylist()
    if pa.types.is_boolean(t):
        return "bool", [cell(v, t) for v in array.to_pylist()]
    if pa.types.is_floating(t) or pa.types.is_decimal(t):
        return "double", [cell(v, t) for v in array.to_pylist()]
    if pa.types.is_integer(t):
        return "int", [cell(v, t) for v in array.to_pylist()]
    raise ValueError(f"{name}: no expectation for {t}")


def interval_micros(array):
    """INTERVAL, which pyarrow gives as its 12 bytes (months, days, milliseconds), as a
    duration in microseconds, a month taken as 30 days."""
    out = []
    for v in array.to_pylist():
        if v is None:
            out.append(None)
            continue
        months, days, millis = (int.from_bytes(v[k:k + 4], "little") for k in (0, 4, 8))
        out.append(str((months * 30 + days) * 86_400_000_000 + millis * 1000))
    return out


def write_expected(path, skipped=(), expected=None):
    """What pyarrow reads from the file, without the columns utq leaves out, into `expected`
    (by default NAME.expected.json beside the file)."""
    table = pq.read_table(path)
    schema = pq.ParquetFile(path).schema
    intervals = {schema.column(k).name for k in range(len(schema)) if schema.column(k).converted_type == "INTERVAL"}
    columns = []
    for name in table.column_names:
        if name in skipped:
            continue
        if name in intervals:
            columns.append({"name": name, "type": "duration", "values": interval_micros(table.column(name).combine_chunks())})
            continue
        kind, values = expected_column(name, table.column(name).combine_chunks())
        columns.append({"name": name, "type": kind, "values": values})
    with open(expected or path.replace(".parquet", ".expected.json"), "w") as f:
        json.dump({"rows": table.num_rows, "skipped": sorted(skipped), "columns": columns}, f,
                  indent=1 if table.num_rows < 100 else None, ensure_ascii=False)
        f.write("\n")


def write(name, table, skipped=(), expected=None, **options):
    path = os.path.join(HERE, name + ".parquet")
    pq.write_table(table, path, **options)
    write_expected(path, skipped, expected and os.path.join(HERE, expected))


def duckdb_binary():
    try:
        import duckdb_cli  # the real binary beside the package, not its Python launcher
        path = os.path.join(os.path.dirname(duckdb_cli.__file__), "duckdb")
        if os.path.exists(path):
            return path
    except ImportError:
        pass
    return shutil.which("duckdb")


def main():
    types = types_table()
    for codec in ["none", "snappy", "gzip", "zstd"]:
        for page in ["1.0", "2.0"]:
            for dictionary in [True, False]:
                name = f"types_{codec}_v{page[0]}_{'dict' if dictionary else 'plain'}"
                # The same values every way: one file of what pyarrow reads from all of them.
                write(name, types, compression=codec, data_page_version=page, use_dictionary=dictionary,
                      store_decimal_as_integer=True, expected="types.expected.json")
    encodings = encodings_table()
    choice = {"i32": "DELTA_BINARY_PACKED", "i64": "DELTA_BINARY_PACKED", "ts": "DELTA_BINARY_PACKED",
              "f32": "BYTE_STREAM_SPLIT", "f64": "BYTE_STREAM_SPLIT", "prefixed": "DELTA_BYTE_ARRAY",
              "lengths": "DELTA_LENGTH_BYTE_ARRAY", "fixed": "BYTE_STREAM_SPLIT"}
    for page in ["1.0", "2.0"]:
        encoding = dict(choice)
        if page == "2.0":
            encoding["flag"] = "RLE"  # booleans in runs are a version 2 page's
        write(f"encodings_v{page[0]}", encodings, use_dictionary=False, column_encoding=encoding, data_page_version=page,
              compression="zstd" if page == "2.0" else "none")
    write("int96", pa.table({"t": pa.array(nth([1_582_000_000_123_456 + i * 86_400_000_001 for i in range(N)], 2),
                                            pa.timestamp("us"))}),
          use_deprecated_int96_timestamps=True)
    # Parquet 1.0: converted types only (UINT_32 becomes INT64, no logical type annotations).
    write("legacy", types.select(["flag", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "f64", "text", "day",
                                  "ts_ms_utc", "ts_us_utc", "dec_9_2", "dec_18_4"]), version="1.0")
    write("nested", nested_table(), skipped={"stops", "place", "tags"})
    write("many_pages", many_pages_table(), row_group_size=1000, data_page_size=512, dictionary_pagesize_limit=1024,
          write_batch_size=100)
    write("dictionaries", dictionaries_table(), row_group_size=500, dictionary_pagesize_limit=4096, write_batch_size=100,
          data_page_size=1024)
    write("empty", types.slice(0, 0).select(["i64", "text", "ts_us_utc"]))
    # A codec utq refuses (it has no LZ4): no expectations, the tests want the refusal.
    pq.write_table(types.select(["i64", "text"]), os.path.join(HERE, "refused-lz4.parquet"), compression="lz4")
    duckdb = duckdb_binary()
    target = os.path.join(HERE, "duckdb.parquet")
    if duckdb:
        sql = f"""
        SET TimeZone = 'UTC';
        COPY (SELECT i AS n,
                     i::TINYINT AS tiny, (i * 1000)::UINTEGER AS unsigned,
                     CASE WHEN i % 4 = 0 THEN NULL ELSE 'row ' || (i % 5) END AS label,
                     DATE '2020-01-01' + i AS day,
                     TIMESTAMP '2020-01-01 08:00:00' + to_minutes(i * 90) AS wall,
                     TIMESTAMPTZ '2020-01-01 08:00:00+00' + to_seconds(i * 61) AS instant,
                     (i * 12.345)::DECIMAL(10, 3) AS amount,
                     (i * 1234567.0001)::DECIMAL(30, 4) AS big_amount,
                     i / 8 AS ratio,
                     i % 2 = 0 AS even,
                     TIME '06:00:00' + to_minutes(i * 7) AS clock,
                     to_minutes(i) + to_days(i) AS gap,
                     md5(i::VARCHAR)::UUID AS token
              FROM (SELECT range::INTEGER AS i FROM range(0, 50)))
        TO '{target}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 20);
        """
        subprocess.run([duckdb, "-c", sql], check=True)
    if os.path.exists(target):
        write_expected(target)
    else:
        print("duckdb not found: duckdb.parquet kept as it was", file=sys.stderr)


if __name__ == "__main__":
    main()
