# sqlgate's Python UDF worker (package pyudf). sqlgate starts it with one
# end of a unix socket pair as file descriptor 3 and serves calls over it,
# one at a time:
#
#   request:  u32 length, JSON {"key", "name", "args", "kind", "body"},
#             u64 length, an Arrow IPC stream of one record batch
#   response: u32 length, JSON {"ok": true} then u64 length and an Arrow
#             IPC stream of one record batch, or {"ok": false, "error",
#             "traceback"}
#
# (integers little-endian). The function body is the body of a Python
# function of batch (the pyarrow.RecordBatch of the arguments, or of the
# input relation for RETURNS TABLE) and of each argument column by name;
# pa (pyarrow) and pc (pyarrow.compute) are in scope. A scalar function
# returns an array of the batch's length, a table function a RecordBatch or
# Table. The worker ends when its socket closes.
import json
import os
import resource
import socket
import struct
import sys
import textwrap
import traceback

limit = int(sys.argv[1]) if len(sys.argv) > 1 else 0
if limit > 0:
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

import pyarrow as pa  # noqa: E402
import pyarrow.compute as pc  # noqa: E402

sock = socket.socket(fileno=3)
rfile = sock.makefile("rb")
wfile = sock.makefile("wb")
functions = {}


def read_exact(n):
    data = rfile.read(n)
    if data is None or len(data) < n:
        sys.exit(0)
    return data


def compile_function(req):
    args = ", ".join(["batch"] + req["args"])
    body = textwrap.indent(textwrap.dedent(req["body"]).strip("\n") or "pass", "    ")
    src = "def __sqlgate_fn(" + args + "):\n" + body + "\n"
    scope = {"pa": pa, "pc": pc}
    exec(compile(src, "<function " + req["name"] + ">", "exec"), scope)
    return scope["__sqlgate_fn"]


def result_batch(kind, out, rows):
    if kind == "scalar":
        if isinstance(out, pa.ChunkedArray):
            out = out.combine_chunks()
        if not isinstance(out, pa.Array):
            raise TypeError("a scalar function returns a pyarrow.Array, not %s" % type(out).__name__)
        return pa.record_batch([out], names=["result"])
    if isinstance(out, pa.Table):
        out = out.combine_chunks()
        batches = out.to_batches()
        if not batches:
            return pa.RecordBatch.from_pylist([], schema=out.schema)
        return batches[0]
    if not isinstance(out, pa.RecordBatch):
        raise TypeError("a table function returns a pyarrow.RecordBatch or Table, not %s" % type(out).__name__)
    return out


def send(header, payload=None):
    h = json.dumps(header).encode()
    wfile.write(struct.pack("<I", len(h)))
    wfile.write(h)
    if payload is not None:
        wfile.write(struct.pack("<Q", len(payload)))
        wfile.write(payload)
    wfile.flush()


while True:
    (n,) = struct.unpack("<I", read_exact(4))
    req = json.loads(read_exact(n))
    (m,) = struct.unpack("<Q", read_exact(8))
    payload = read_exact(m)
    try:
        fn = functions.get(req["key"])
        if fn is None:
            fn = functions[req["key"]] = compile_function(req)
        batch = pa.ipc.open_stream(payload).read_next_batch()
        out = result_batch(req["kind"], fn(batch, *batch.columns), batch.num_rows)
        sink = pa.BufferOutputStream()
        with pa.ipc.new_stream(sink, out.schema) as w:
            w.write_batch(out)
        buf = sink.getvalue()
        send({"ok": True}, memoryview(buf))
    except MemoryError:
        send({"ok": False, "error": "out of memory (the worker's limit is %d bytes)" % limit, "traceback": traceback.format_exc()})
    except BaseException as e:  # noqa: B036 - every failure is the call's
        send({"ok": False, "error": "%s: %s" % (type(e).__name__, e), "traceback": traceback.format_exc()})
