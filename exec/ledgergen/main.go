package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/types"
)

var batchBytes = []int{64 << 10, 1 << 20, 16 << 20}

func main() {
	out := flag.String("o", "exec/ledger.json", "ledger file to write")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "ledgergen:", err)
		os.Exit(1)
	}
}

// batch is rows of a, b bigint uniform in [0, 40) (10% NULL in b), s text,
// x, y boolean.
func batch(rows int) arrow.RecordBatch {
	rng := rand.New(rand.NewPCG(7, 7))
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "b", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}, {Name: "x", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "y", Type: arrow.FixedWidthTypes.Boolean, Nullable: true}}, nil)
	rb := array.NewRecordBuilder(mem, schema)
	defer rb.Release()
	words := []string{"ab", "abc", "b", "zz", "é"}
	for i := 0; i < rows; i++ {
		rb.Field(0).(*array.Int64Builder).Append(int64(rng.IntN(40)))
		if rng.IntN(10) == 0 {
			rb.Field(1).AppendNull()
		} else {
			rb.Field(1).(*array.Int64Builder).Append(int64(rng.IntN(40)))
		}
		rb.Field(2).(*array.StringBuilder).Append(words[rng.IntN(len(words))])
		rb.Field(3).(*array.BooleanBuilder).Append(rng.IntN(2) == 0)
		if rng.IntN(10) == 0 {
			rb.Field(4).AppendNull()
		} else {
			rb.Field(4).(*array.BooleanBuilder).Append(rng.IntN(2) == 0)
		}
	}
	return rb.NewRecordBatch()
}

var (
	colA = &exec.ColExpr{Index: 0, Name: "a", T: types.Int64Type}
	colB = &exec.ColExpr{Index: 1, Name: "b", T: types.Int64Type}
	colS = &exec.ColExpr{Index: 2, Name: "s", T: types.StringType}
	colX = &exec.ColExpr{Index: 3, Name: "x", T: types.BoolType}
	colY = &exec.ColExpr{Index: 4, Name: "y", T: types.BoolType}
)

// workloads is one representative expression per family arrow-go serves.
func workloads() map[exec.Family]exec.Expr {
	return map[exec.Family]exec.Expr{
		exec.FamIntMul:       &exec.ArithExpr{Op: exec.Mul, L: colA, R: colB, T: types.Int64Type},
		exec.FamIntCmp:       &exec.CmpExpr{Op: exec.Ge, L: colA, R: &exec.ConstExpr{Value: int64(20), T: types.Int64Type}},
		exec.FamStringCmp:    &exec.CmpExpr{Op: exec.Eq, L: colS, R: &exec.ConstExpr{Value: "ab", T: types.StringType}},
		exec.FamBoolLogic:    &exec.LogicExpr{And: true, L: colX, R: colY},
		exec.FamIsNull:       &exec.IsNullExpr{X: colB},
		exec.FamIntCast:      &exec.CastExpr{X: colA, T: types.Int32Type},
		exec.FamIntFloatCast: &exec.CastExpr{X: colA, T: types.Float64Type},
		exec.FamFilter:       colX, // the mask of the Filter operator (measure rebuilds it)
	}
}

func measure(f exec.Family, backend exec.Backend, rec arrow.RecordBatch) (float64, error) {
	ec := &exec.EvalContext{Ctx: context.Background(), Mem: exec.NewPoolAllocator(512 << 20), Backend: backend}
	e := workloads()[f]
	var failure error
	res := testing.Benchmark(func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if f == exec.FamFilter {
				// the fixed-width columns only (a, b, x, y): the family
				fixed := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{rec.Schema().Field(0), rec.Schema().Field(1), rec.Schema().Field(3), rec.Schema().Field(4)}, nil),
					[]arrow.Array{rec.Column(0), rec.Column(1), rec.Column(3), rec.Column(4)}, rec.NumRows())
				op := &exec.Filter{EC: ec, Input: &once{rec: fixed}, Cond: &exec.ColExpr{Index: 2, Name: "x", T: types.BoolType}}
				out, err := op.Next(ec.Ctx)
				if err != nil {
					failure = err
					return
				}
				out.Release()
				op.Close()
				continue
			}
			out, err := e.Eval(ec, rec)
			if err != nil {
				failure = err
				return
			}
			out.Release()
		}
	})
	if failure != nil {
		return 0, failure
	}
	return float64(res.NsPerOp()) / float64(rec.NumRows()), nil
}

// once returns one batch.
type once struct{ rec arrow.RecordBatch }

func (o *once) Schema() *arrow.Schema { return o.rec.Schema() }
func (o *once) Close() {
	if o.rec != nil {
		o.rec.Release()
		o.rec = nil
	}
}
func (o *once) Next(context.Context) (arrow.RecordBatch, error) {
	r := o.rec
	o.rec = nil
	return r, nil
}

func run(path string) error {
	l := exec.Ledger{
		Generated:  time.Now().UTC().Format(time.RFC3339),
		Command:    "make ledger (go run ./exec/ledgergen -o exec/ledger.json)",
		Note:       "ns/row of one representative expression per family; batch bytes are those of one int64 column. load average at start: " + loadAvg(),
		BatchBytes: batchBytes,
		Families:   map[exec.Family]exec.LedgerFamily{},
	}
	for _, bytes := range batchBytes {
		rec := batch(bytes / 8)
		for _, f := range exec.Families() {
			if !exec.ArrowServes(f) {
				continue
			}
			if workloads()[f] == nil {
				rec.Release()
				return fmt.Errorf("no workload for family %s", f)
			}
			nat, err := measure(f, exec.BackendNative, rec)
			if err != nil {
				rec.Release()
				return fmt.Errorf("%s native: %w", f, err)
			}
			arr, err := measure(f, exec.BackendArrow, rec)
			if err != nil {
				rec.Release()
				return fmt.Errorf("%s arrow: %w", f, err)
			}
			lf := l.Families[f]
			lf.NativeNsPerRow = append(lf.NativeNsPerRow, round3(nat))
			lf.ArrowNsPerRow = append(lf.ArrowNsPerRow, round3(arr))
			l.Families[f] = lf
			fmt.Printf("%-12s %9d bytes  native %7.3f ns/row  arrow %7.3f ns/row\n", f, bytes, nat, arr)
		}
		rec.Release()
	}
	out, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return err
	}
	for _, f := range exec.Families() {
		c := l.Decide(f)
		fmt.Printf("auto %-16s -> %s (%s)\n", f, c.Selected, c.Reason)
	}
	return os.WriteFile(path, append(out, '\n'), 0o644)
}

func round3(x float64) float64 { return float64(int64(x*1000+0.5)) / 1000 }

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
