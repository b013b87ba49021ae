"""pyarrow's side of engine/copyfile_test.go's TestPyarrowInterop.

write PARQUET ARROW: writes the rows of the test's allRows with pyarrow, in
    the Arrow types of the table's Fluss types.
check PARQUET ARROW: reads the files sqlgate wrote of those rows and exits
    non-zero unless every column holds exactly the values written.
"""
import datetime
import decimal
import math
import sys

import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq

UTC = datetime.timezone.utc


def ns(y, mo, d, h=0, mi=0, s=0, frac=0):
    base = datetime.datetime(y, mo, d, h, mi, s, tzinfo=UTC)
    delta = base - datetime.datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86400 + delta.seconds) * 10**9 + frac


def expected():
    row_xy = pa.struct([("x", pa.int32()), ("y", pa.list_(pa.string()))])
    row_p = pa.struct([("p", pa.int32())])
    row_q = pa.struct([("q", pa.string())])
    cols = [
        ("id", pa.array([1, 2, 3], pa.int32())),
        ("b", pa.array([True, None, False])),
        ("i8", pa.array([-8, None, 127], pa.int8())),
        ("i16", pa.array([-16, None, 32767], pa.int16())),
        ("i64", pa.array([-64, None, 9223372036854775807], pa.int64())),
        ("f32", pa.array([1.5, None, math.inf], pa.float32())),
        ("f64", pa.array([-2.25, None, math.nan], pa.float64())),
        ("dec", pa.array([decimal.Decimal("12345678901234567890.0123456789"), None, decimal.Decimal("-0.0000000001")], pa.decimal128(38, 10))),
        ("s", pa.array(['héllo, "q"\nx\\t', None, ""])),
        ("c", pa.array(["ab ", None, "   "])),
        ("by", pa.array([b"\x00\xff", None, b""], pa.binary())),
        ("bin", pa.array([b"\x01\x02\x03\x04", None, b"\x00\x00\x00\x00"], pa.binary(4))),
        ("d", pa.array([datetime.date(2024, 2, 29), None, datetime.date(1, 1, 1)], pa.date32())),
        ("t", pa.array([datetime.time(23, 59, 58), None, datetime.time(0, 0, 0)], pa.time32("ms"))),
        ("ts3", pa.array([datetime.datetime(2024, 1, 2, 3, 4, 5, 123000), None, datetime.datetime(1900, 1, 1)], pa.timestamp("us"))),
        ("ts9", pa.array([ns(2024, 1, 2, 3, 4, 5, 123456789), None, ns(2200, 1, 1, frac=1)], pa.timestamp("ns"))),
        ("tz3", pa.array([datetime.datetime(2024, 1, 2, 3, 4, 5, 123000, tzinfo=UTC), None, datetime.datetime(1970, 1, 1, tzinfo=UTC)], pa.timestamp("us", tz="UTC"))),
        ("tz9", pa.array([-1, None, ns(2000, 1, 1, frac=1)], pa.timestamp("ns", tz="UTC"))),
        ("a", pa.array([[1, None, 3], None, []], pa.list_(pa.int32()))),
        ("aa", pa.array([[["a", None], ["b", "c"]], None, [[None]]], pa.list_(pa.list_(pa.string())))),
        ("m", pa.array([[("k", 1), ("n", None)], None, [("only", 0)]], pa.map_(pa.string(), pa.int32()))),
        ("r", pa.array([{"x": 1, "y": ["z", None]}, None, {"x": None, "y": None}], row_xy)),
        ("ar", pa.array([[{"p": 1}, None, {"p": None}], None, [{"p": -1}]], pa.list_(row_p))),
        ("mr", pa.array([[(1, {"q": "v"}), (2, None), (3, {"q": None})], None, [(0, {"q": ""})]], pa.map_(pa.int32(), row_q))),
    ]
    fields = [pa.field(n, a.type, nullable=(n != "id")) for n, a in cols]
    return pa.Table.from_arrays([a for _, a in cols], schema=pa.schema(fields))


def same(got, want):
    """Equal values; floats compared with NaN equal to NaN."""
    if pa.types.is_floating(want.type):
        g, w = got.to_pylist(), want.to_pylist()
        return all((x is None and y is None) or (x is not None and y is not None and (x == y or (math.isnan(x) and math.isnan(y)))) for x, y in zip(g, w)) and len(g) == len(w)
    return got.equals(want)


def check(table, want, name):
    table = table.sort_by("id")
    bad = []
    if table.column_names != want.column_names:
        bad.append(f"columns {table.column_names} != {want.column_names}")
    for f in want.schema:
        got = table.column(f.name).combine_chunks()
        exp = want.column(f.name).combine_chunks()
        if got.type != exp.type:
            # only a list element's or map entry's field name may differ
            try:
                got = got.cast(exp.type)
            except Exception as e:  # noqa: BLE001
                bad.append(f"{f.name}: type {got.type} != {exp.type} ({e})")
                continue
        if not same(got, exp):
            bad.append(f"{f.name}: {got.to_pylist()!r} != {exp.to_pylist()!r}" if not pa.types.is_timestamp(exp.type) else f"{f.name}: {got.cast(pa.int64()).to_pylist()} != {exp.cast(pa.int64()).to_pylist()}")
    if bad:
        print(f"{name}:", *bad, sep="\n  ")
        return False
    return True


def main():
    mode, parquet_path, arrow_path = sys.argv[1:4]
    want = expected()
    if mode == "write":
        pq.write_table(want, parquet_path)
        with ipc.new_file(arrow_path, want.schema) as w:
            w.write_table(want)
        return 0
    ok = check(pq.read_table(parquet_path), want, parquet_path)
    with pa.memory_map(arrow_path) as src:
        ok = check(ipc.open_file(src).read_all(), want, arrow_path) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
