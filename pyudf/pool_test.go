package pyudf_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/pyudf"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/tests/testbin"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

// testPython is the interpreter with pyarrow that
// scripts/install-test-deps.sh installs (SQLGATE_PYTHON overrides it).
func testPython(t testing.TB) string {
	if p := os.Getenv("SQLGATE_PYTHON"); p != "" {
		return p
	}
	p := testbin.ToolPath("pyarrow-21.0.0", "bin", "python")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("pyarrow is not installed (%v): run scripts/install-test-deps.sh or set SQLGATE_PYTHON", err)
	}
	return p
}

func int64Batch(t *testing.T, name string, vals ...int64) arrow.RecordBatch {
	t.Helper()
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues(vals, nil)
	a := b.NewArray()
	defer a.Release()
	s := arrow.NewSchema([]arrow.Field{{Name: name, Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	return array.NewRecordBatch(s, []arrow.Array{a}, int64(len(vals)))
}

func TestPoolCalls(t *testing.T) {
	p := pyudf.NewPool(pyudf.Config{Python: testPython(t), Workers: 1, MemoryLimit: 2 << 30})
	defer p.Close()
	ctx := context.Background()
	x := []udf.Column{{Name: "x", Type: types.Int64Type}}
	double := &pyudf.Function{Name: "double", Args: x, Returns: types.Int64Type, Body: "return pc.multiply(x, 2)"}
	in := int64Batch(t, "x", 1, 2, 3)
	defer in.Release()
	out, err := p.Call(ctx, double, "scalar", in)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Column(0).String(); got != "[2 4 6]" {
		t.Errorf("double: %s", got)
	}
	out.Release()

	// a table function changes the row count and the schema
	rep := &pyudf.Function{Name: "rep", Args: x, Table: []udf.Column{{Name: "v", Type: types.Int64Type}, {Name: "s", Type: types.StringType}},
		Body: `
            vs = [v for v in x.to_pylist() for _ in range(v)]
            return pa.record_batch([pa.array(vs, pa.int64()), pa.array([str(v) for v in vs])], names=["v", "s"])`}
	out, err = p.Call(ctx, rep, "table", in)
	if err != nil {
		t.Fatal(err)
	}
	if out.NumRows() != 6 || out.NumCols() != 2 || out.Column(1).String() != `["1" "2" "2" "3" "3" "3"]` {
		t.Errorf("rep: %v", out)
	}
	out.Release()

	// an exception: 38000 with the traceback in DETAIL; the worker stays
	fails := &pyudf.Function{Name: "fails", Args: x, Returns: types.Int64Type, Body: "raise ValueError('no good')"}
	_, err = p.Call(ctx, fails, "scalar", in)
	if se := sqlerr.As(err); se == nil || se.Code != sqlerr.ExternalRoutineException || !strings.Contains(se.Message, "ValueError: no good") ||
		!strings.Contains(se.Detail, "Traceback") || !strings.Contains(se.Detail, "<function fails>") {
		t.Errorf("exception: %#v", err)
	}

	// out of memory under the worker's limit
	hog := &pyudf.Function{Name: "hog", Args: x, Returns: types.Int64Type, Body: "b = bytearray(3 << 30)\nreturn x"}
	_, err = p.Call(ctx, hog, "scalar", in)
	if se := sqlerr.As(err); se == nil || se.Code != sqlerr.ExternalRoutineException || !strings.Contains(se.Message, "out of memory") {
		t.Errorf("memory limit: %#v", err)
	}

	// a loop the statement's deadline ends: the worker is killed and
	// replaced
	loop := &pyudf.Function{Name: "loop", Args: x, Returns: types.Int64Type, Body: "while True:\n    pass"}
	tctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	start := time.Now()
	_, err = p.Call(tctx, loop, "scalar", in)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 10*time.Second {
		t.Errorf("loop: %v after %v", err, time.Since(start))
	}

	// a worker killed mid-call: 38000 naming the signal; the next call
	// gets a new worker
	pidFile := filepath.Join(t.TempDir(), "pid")
	sleeper := &pyudf.Function{Name: "sleeper", Args: x, Returns: types.Int64Type,
		Body: "import os, time\nopen(" + strconv.Quote(pidFile) + ", 'w').write(str(os.getpid()))\ntime.sleep(60)\nreturn x"}
	go func() {
		for i := 0; i < 200; i++ {
			time.Sleep(50 * time.Millisecond)
			if b, err := os.ReadFile(pidFile); err == nil && len(b) > 0 {
				pid, _ := strconv.Atoi(string(b))
				syscall.Kill(pid, syscall.SIGKILL)
				return
			}
		}
	}()
	_, err = p.Call(ctx, sleeper, "scalar", in)
	if se := sqlerr.As(err); se == nil || se.Code != sqlerr.ExternalRoutineException || !strings.Contains(se.Message, "worker process died") ||
		!strings.Contains(se.Message, "killed") {
		t.Errorf("killed worker: %#v", err)
	}
	out, err = p.Call(ctx, double, "scalar", in)
	if err != nil {
		t.Fatalf("after a killed worker: %v", err)
	}
	out.Release()

	// a worker killed while idle is replaced before the next call, which
	// does not fail
	os.Remove(pidFile)
	pidOf := &pyudf.Function{Name: "pid_of", Args: x, Returns: types.Int64Type,
		Body: "import os\nopen(" + strconv.Quote(pidFile) + ", 'w').write(str(os.getpid()))\nreturn x"}
	out, err = p.Call(ctx, pidOf, "scalar", in)
	if err != nil {
		t.Fatal(err)
	}
	out.Release()
	b, _ := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(string(b))
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// the pool reaps it (then signal 0 finds no process)
	for i := 0; i < 200 && syscall.Kill(pid, 0) == nil; i++ {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	out, err = p.Call(ctx, double, "scalar", in)
	if err != nil {
		t.Fatalf("after a worker killed while idle: %v", err)
	}
	out.Release()
}

// A bad interpreter fails the call with 38000 naming it.
func TestPoolBadPython(t *testing.T) {
	p := pyudf.NewPool(pyudf.Config{Python: "/nonexistent/python"})
	defer p.Close()
	in := int64Batch(t, "x", 1)
	defer in.Release()
	_, err := p.Call(context.Background(), &pyudf.Function{Name: "f", Body: "return x"}, "scalar", in)
	if se := sqlerr.As(err); se == nil || se.Code != sqlerr.ExternalRoutineException || !strings.Contains(se.Message, "/nonexistent/python") {
		t.Errorf("%v", err)
	}
}
