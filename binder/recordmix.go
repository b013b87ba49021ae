package binder

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Records of dissimilar field types met at run time. PostgreSQL gives
// every anonymous record one type, record, and compares two of them with
// record_cmp, which walks their fields left to right and fails (42804)
// on the first pair of different types it reaches with the pairs before
// it equal. sqlgate types a record by its fields and converts the inputs
// of a construct that needs one type (GREATEST, a set operation's
// column) to their field-wise common type: so these constructs remember
// the types the values had before and compare as record_cmp would.

// recordFieldsDiffer reports whether anonymous records a and b have a
// field pair that record_cmp takes for two types, or differ in length.
func recordFieldsDiffer(a, b types.T) bool {
	if !a.IsAnonRecord() || !b.IsAnonRecord() || len(a.Fields) == 0 || len(b.Fields) == 0 {
		return false
	}
	if len(a.Fields) != len(b.Fields) {
		return true
	}
	for i := range a.Fields {
		if !functions.SameRecordFieldType(a.Fields[i].Type, b.Fields[i].Type) {
			return true
		}
	}
	return false
}

// recordGreatest binds GREATEST and LEAST of anonymous records some of
// which differ in a field's type (GREATEST(ROW(1, 2), ROW(1, 2.5)) fails
// in PostgreSQL, GREATEST(ROW(1, 2), ROW(2, 2.5)) is (2,2.5)): the
// arguments are compared with their own types, as ExecEvalMinMax calls
// record_cmp(result so far, next argument), and the chosen one is given
// as its conversion to the common type. ok is false for other calls,
// and when the records have no common type (the resolution reports it).
func (b *binder) recordGreatest(n sourceNode, name string, args []Expr) (Expr, bool, error) {
	dir := 1
	switch name {
	case "greatest":
	case "least":
		dir = -1
	default:
		return nil, false, nil
	}
	var recs []types.T
	differ := false
	for _, a := range args {
		at := a.Type()
		if at.Kind == types.Null || isNullRecord(a) {
			continue
		}
		if !at.IsAnonRecord() {
			return nil, false, nil
		}
		for _, r := range recs {
			differ = differ || recordFieldsDiffer(r, at)
		}
		recs = append(recs, at)
	}
	if !differ {
		return nil, false, nil
	}
	ts := make([]types.T, len(args))
	for i, a := range args {
		ts[i] = b.commonInputType(a)
	}
	t, err := functions.CommonType("", ts)
	if err != nil {
		return nil, false, nil
	}
	t = t.Nullable()
	all := make([]Expr, 0, 2*len(args))
	own := make([]types.T, len(args))
	for i, a := range args {
		all = append(all, b.forgetCtor(a))
		own[i] = a.Type()
	}
	for _, a := range args {
		c, err := b.castToCommon(n, a, t)
		if err != nil {
			return nil, true, err
		}
		all = append(all, c)
	}
	return &FuncCall{Name: name, Args: all, T: t, Kernel: mixedPickKernel(dir, own, t)}, true, nil
}

// mixedPickKernel is recordGreatest's kernel: args are the records with
// their own types own, then the same converted to t.
func mixedPickKernel(dir int, own []types.T, t types.T) functions.Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		k := len(own)
		if len(args) != 2*k {
			return nil, sqlerr.New(sqlerr.InternalError, "record %d arguments for %d", len(args), k)
		}
		bld := array.NewBuilder(mem, t.ArrowType())
		defer bld.Release()
		bld.Reserve(n)
		for i := 0; i < n; i++ {
			best := -1
			var bestVal any
			for j := 0; j < k; j++ {
				v := types.ValueAt(args[j], i)
				if v == nil {
					continue
				}
				if best < 0 {
					best, bestVal = j, v
					continue
				}
				c, err := functions.CompareDissimilarRecords(own[best], own[j], bestVal, v)
				if err != nil {
					return nil, err
				}
				if c*dir < 0 {
					best, bestVal = j, v
				}
			}
			var out any
			if best >= 0 {
				out = types.ValueAt(args[k+best], i)
			}
			if err := types.AppendValue(bld, out); err != nil {
				return nil, err
			}
		}
		return bld.NewArray(), nil
	}
}

// MixedRecords marks a set operation without ALL whose branches give a
// column records of different field types (SELECT ROW(1, 2) UNION SELECT
// ROW(1, 2.5)). PostgreSQL sorts the rows of both to remove duplicates,
// and its record_cmp fails when a left row and a right row agree on every
// column before Col and on Col's first Fields fields; rows that differ
// earlier never reach the pair of dissimilar fields. The executor checks
// the rows for such a pair as it reads them (lower's mixedRecordCheck).
type MixedRecords struct {
	Col    int           // the first column whose records differ
	Fields int           // how many leading fields of it are alike
	Err    *sqlerr.Error // what record_cmp reports past them, left type first
	Flip   *sqlerr.Error // the same, right type first
}

// mixedRecords finds the first column of a set operation's branches (lc,
// rc, before their conversion to the common types) whose records differ:
// nil when none does, and when the first differing pair is two nested
// records, whose own fields record_cmp would walk (not modelled).
func mixedRecords(lc, rc []Column) *MixedRecords {
	for i := range lc {
		lt, rt := lc[i].T, rc[i].T
		if !recordFieldsDiffer(lt, rt) {
			continue
		}
		n := min(len(lt.Fields), len(rt.Fields))
		for f := 0; f < n; f++ {
			a, c := lt.Fields[f].Type, rt.Fields[f].Type
			if functions.SameRecordFieldType(a, c) {
				continue
			}
			if a.Kind == types.Row || c.Kind == types.Row || a.Kind == types.Unknown || c.Kind == types.Unknown {
				return nil
			}
			return &MixedRecords{Col: i, Fields: f, Err: functions.DissimilarColumns(a, c, f), Flip: functions.DissimilarColumns(c, a, f)}
		}
		return &MixedRecords{Col: i, Fields: n, Err: functions.DifferentRecordLengths(), Flip: functions.DifferentRecordLengths()}
	}
	return nil
}

// isRecordCast reports whether c is a cast to record.
func isRecordCast(c *pt.Cast) bool {
	tn, err := sql.ParseTypeName(c.Type)
	return err == nil && isRecordTarget(tn)
}

// rowSubqueryOperand is the left operand of x op ANY|ALL (SELECT ...) and
// x IN (SELECT ...) when it is written as a ROW constructor, which
// PostgreSQL compares field by field with the subquery's columns (its
// make_row_comparison_op): as many fields as columns, else "subquery has
// too few (many) columns", even against one column of records; one field
// is compared as itself (ROW(1) IN (SELECT 1)). Several fields against as
// many columns are returned as fields, compared row-wise
// (rowsubquery.go). Other operands are returned as they are.
func (b *binder) rowSubqueryOperand(at sourceNode, tree pt.Expr, x Expr, cols int) (Expr, []Expr, error) {
	// ROW(...)::record is still the constructor PostgreSQL looks at
	// (transformSubLink tests the operand after transformation)
	if !isRowTree(tree) || b.ctors[x] == nil || x.Type().Kind != types.Row { // subquery.go
		return x, nil, nil
	}
	fields := b.rowElements(x)
	switch {
	case len(fields) > cols:
		return nil, nil, b.errAt(at, sqlerr.New(sqlerr.SyntaxError, "subquery has too few columns"))
	case len(fields) < cols:
		return nil, nil, b.errAt(at, sqlerr.New(sqlerr.SyntaxError, "subquery has too many columns"))
	case len(fields) == 1:
		return fields[0], nil, nil
	}
	return nil, fields, nil
}
