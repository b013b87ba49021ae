package udf_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

func scalarFn(context.Context, []arrow.Array) (arrow.Array, error) { return nil, nil }

func tableFn(context.Context, []arrow.Array, func(arrow.RecordBatch) error) error { return nil }

func batchFn(context.Context, []arrow.Array, udf.BatchInput, func(arrow.RecordBatch) error) error {
	return nil
}

func TestRegistryChecksDeclarations(t *testing.T) {
	i64 := []types.T{types.Int64Type}
	col := []udf.Column{{Name: "x", Type: types.Int64Type}}
	cases := []struct {
		name   string
		add    func(r *udf.Registry) error
		errHas string // "" = accepted
	}{
		{"scalar", func(r *udf.Registry) error {
			return r.AddScalar(udf.Scalar{Name: "Twice", Args: i64, Returns: types.Int64Type, Fn: scalarFn})
		}, ""},
		{"empty name", func(r *udf.Registry) error {
			return r.AddScalar(udf.Scalar{Args: i64, Returns: types.Int64Type, Fn: scalarFn})
		}, "empty name"},
		{"not an identifier", func(r *udf.Registry) error {
			return r.AddScalar(udf.Scalar{Name: "my-fn", Args: i64, Returns: types.Int64Type, Fn: scalarFn})
		}, "letters, digits"},
		{"leading digit", func(r *udf.Registry) error {
			return r.AddScalar(udf.Scalar{Name: "1fn", Args: i64, Returns: types.Int64Type, Fn: scalarFn})
		}, "letters, digits"},
		{"reserved prefix", func(r *udf.Registry) error {
			return r.AddScalar(udf.Scalar{Name: "pg__x", Args: i64, Returns: types.Int64Type, Fn: scalarFn})
		}, "reserved"},
		{"no function", func(r *udf.Registry) error {
			return r.AddScalar(udf.Scalar{Name: "f", Args: i64, Returns: types.Int64Type})
		}, "no function"},
		{"no arguments", func(r *udf.Registry) error {
			return r.AddScalar(udf.Scalar{Name: "f", Returns: types.Int64Type, Fn: scalarFn})
		}, "at least one argument"},
		{"unknown return type", func(r *udf.Registry) error {
			return r.AddScalar(udf.Scalar{Name: "f", Args: i64, Fn: scalarFn})
		}, "not a declarable type"},
		{"duplicate overload", func(r *udf.Registry) error {
			r.AddScalar(udf.Scalar{Name: "f", Args: i64, Returns: types.Int64Type, Fn: scalarFn})
			return r.AddScalar(udf.Scalar{Name: "F", Args: i64, Returns: types.StringType, Fn: scalarFn})
		}, "already registered"},
		{"overload by type", func(r *udf.Registry) error {
			r.AddScalar(udf.Scalar{Name: "f", Args: i64, Returns: types.Int64Type, Fn: scalarFn})
			return r.AddScalar(udf.Scalar{Name: "f", Args: []types.T{types.StringType}, Returns: types.Int64Type, Fn: scalarFn})
		}, ""},
		{"table", func(r *udf.Registry) error {
			return r.AddTable(udf.Table{Name: "gen", Columns: col, Fn: tableFn})
		}, ""},
		{"table without columns", func(r *udf.Registry) error {
			return r.AddTable(udf.Table{Name: "gen", Fn: tableFn})
		}, "at least one output column"},
		{"table column without name", func(r *udf.Registry) error {
			return r.AddTable(udf.Table{Name: "gen", Columns: []udf.Column{{Type: types.Int64Type}}, Fn: tableFn})
		}, "no name"},
		{"scalar and table share a name", func(r *udf.Registry) error {
			r.AddTable(udf.Table{Name: "gen", Columns: col, Fn: tableFn})
			return r.AddScalar(udf.Scalar{Name: "gen", Args: i64, Returns: types.Int64Type, Fn: scalarFn})
		}, "another kind of UDF"},
		{"batch", func(r *udf.Registry) error {
			return r.AddBatch(udf.Batch{Name: "Map", Input: col, Args: i64, Columns: col, Fn: batchFn})
		}, ""},
		{"batch without input", func(r *udf.Registry) error {
			return r.AddBatch(udf.Batch{Name: "m", Columns: col, Fn: batchFn})
		}, "at least one input column"},
		{"batch without output", func(r *udf.Registry) error {
			return r.AddBatch(udf.Batch{Name: "m", Input: col, Fn: batchFn})
		}, "at least one output column"},
		{"batch column declared twice", func(r *udf.Registry) error {
			return r.AddBatch(udf.Batch{Name: "m", Input: col, Columns: append(col, col...), Fn: batchFn})
		}, "column x declared twice"},
		{"batch without function", func(r *udf.Registry) error {
			return r.AddBatch(udf.Batch{Name: "m", Input: col, Columns: col})
		}, "no function"},
		{"batch and table share a name", func(r *udf.Registry) error {
			r.AddTable(udf.Table{Name: "gen", Columns: col, Fn: tableFn})
			return r.AddBatch(udf.Batch{Name: "gen", Input: col, Columns: col, Fn: batchFn})
		}, "another kind of UDF"},
		{"batch overload", func(r *udf.Registry) error {
			r.AddBatch(udf.Batch{Name: "m", Input: col, Columns: col, Fn: batchFn})
			return r.AddBatch(udf.Batch{Name: "m", Input: col, Columns: col, Fn: batchFn})
		}, "already registered"},
	}
	for _, c := range cases {
		err := c.add(udf.NewRegistry())
		switch {
		case c.errHas == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.errHas != "" && (err == nil || !strings.Contains(err.Error(), c.errHas)):
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.errHas)
		}
	}
}

func TestRegistryLookupAndClone(t *testing.T) {
	r := udf.NewRegistry()
	if err := r.AddScalar(udf.Scalar{Name: "Twice", Args: []types.T{types.Int64Type}, Returns: types.Int64Type, Fn: scalarFn}); err != nil {
		t.Fatal(err)
	}
	c := r.Clone()
	if err := r.AddTable(udf.Table{Name: "gen", Columns: []udf.Column{{Name: "x", Type: types.Int32Type}}, Fn: tableFn}); err != nil {
		t.Fatal(err)
	}
	if s := c.Scalars("TWICE"); len(s) != 1 || s[0].Name != "twice" {
		t.Errorf("lookup folds case: %v", s)
	}
	if len(c.Tables("gen")) != 0 || len(r.Tables("gen")) != 1 {
		t.Error("a clone does not see later additions")
	}
	if got := strings.Join(r.Names(), ","); got != "gen,twice" {
		t.Errorf("names %s", got)
	}
	var nilReg *udf.Registry
	if nilReg.Scalars("x") != nil || nilReg.Tables("x") != nil || nilReg.Clone() != nil || nilReg.Names() != nil {
		t.Error("a nil registry has no UDFs")
	}
	s := r.Tables("gen")[0].Schema()
	if s.NumFields() != 1 || s.Field(0).Name != "x" || !arrow.TypeEqual(s.Field(0).Type, arrow.PrimitiveTypes.Int32) {
		t.Errorf("schema %v", s)
	}
}

// An error made with Errorf or WithStack carries its maker's stack.
func TestErrorStack(t *testing.T) {
	err := udf.Errorf("bad %d", 1)
	var e *udf.Error
	if !errors.As(err, &e) || err.Error() != "bad 1" || !strings.Contains(e.Stack(), "udf_test.TestErrorStack") {
		t.Fatalf("Errorf: %v %q", err, e.Stack())
	}
	if strings.Contains(e.Stack(), "udf.callerStack") || strings.Contains(e.Stack(), "udf.Errorf") {
		t.Errorf("the stack starts at the caller:\n%s", e.Stack())
	}
	base := errors.New("plain")
	w := udf.WithStack(base)
	if !errors.Is(w, base) || !errors.As(w, &e) || !strings.Contains(e.Stack(), "TestErrorStack") {
		t.Errorf("WithStack: %v", w)
	}
	if udf.WithStack(w) != w || udf.WithStack(nil) != nil {
		t.Error("WithStack keeps an error's own stack, and nil")
	}
}
