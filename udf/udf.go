package udf

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/types"
)

// ScalarFunc computes a scalar UDF over one batch. args holds one array per
// declared argument, all of the batch's length and of the declared types'
// Arrow types; they may contain NULLs (a UDF is not strict: it decides what
// a NULL argument gives). It returns an array of that length and of the
// return type's Arrow type, which sqlgate releases; the arguments belong to
// sqlgate and must not be released or kept after the call (Retain them to
// keep them).
type ScalarFunc func(ctx context.Context, args []arrow.Array) (arrow.Array, error)

// TableFunc runs a record-batch UDF. args holds one array of length 1 per
// declared argument (the call's argument values, evaluated once). It calls
// emit for each output batch, which must have the declared columns' types
// (names are taken from the declaration); emit retains what it keeps, so
// the UDF still releases its own reference after emit returns. A non-nil
// error from emit (the statement was cancelled, or the consumer needs no
// more rows, e.g. LIMIT) means: stop and return it.
type TableFunc func(ctx context.Context, args []arrow.Array, emit func(arrow.RecordBatch) error) error

// Scalar declares a scalar batch UDF.
type Scalar struct {
	// Name is the SQL name (case-insensitive, as an unquoted identifier).
	Name string
	// Args are the declared argument types (at least one).
	Args []types.T
	// Returns is the declared result type.
	Returns types.T
	Fn      ScalarFunc
	// Language names the language the function is written in, for
	// messages and pg_proc: "" is Go; "python" is a function made by
	// CREATE FUNCTION ... LANGUAGE python (package pyudf).
	Language string
	// Source is the function's source text when SQL made it (pg_proc's
	// prosrc); "" for Go UDFs. ArgNames, when set, are the arguments'
	// names (pg_proc's proargnames, psql's \df).
	Source   string
	ArgNames []string
	// Owner is the role that owns a function SQL made (pg_proc's
	// proowner); "" for Go UDFs, which the bootstrap superuser owns.
	// Comment is its COMMENT ON FUNCTION text (pg_description).
	Owner   string
	Comment string
	// SQL is a LANGUAGE sql function's definition (Fn nil): the binder
	// expands its body where it is called.
	SQL *SQLFunc
}

// SQLFunc is what a LANGUAGE sql function is besides its signature.
type SQLFunc struct {
	// Body is the function's body: the statements of AS 'text' or BEGIN
	// ATOMIC ... END, or RETURN's expression, as BodyKind says ("",
	// "atomic", "return").
	Body     string
	BodyKind string
	// Defaults are the arguments' DEFAULT expressions as written ("" none),
	// nil when none has one.
	Defaults []string
	// Volatility is 'i', 's' or 'v' (PostgreSQL's provolatile); Strict is
	// STRICT (a NULL argument makes the result NULL without running it).
	Volatility byte
	Strict     bool
	// SetOf is a set-returning function (RETURNS SETOF, RETURNS TABLE):
	// Scalar.Returns is the type of its rows' values, a Row of Columns'
	// fields for RETURNS TABLE of more than one column. Columns are
	// RETURNS TABLE's (nil for SETOF type); Rows is the ROWS estimate.
	SetOf   bool
	Columns []Column
	Rows    float64
	// Params are all the parameters in their order, with their modes
	// ('i' IN, 'o' OUT, 'b' INOUT), when some are OUT or INOUT (nil
	// otherwise): Args are the IN and INOUT ones, Columns the OUT and
	// INOUT ones (the result, a record of them when more than one).
	Params []Param
	// Variadic is a function whose last input parameter is VARIADIC (an
	// array, Args' last): a call gives its elements one by one, or the
	// array after the word VARIADIC.
	Variadic bool
}

// Param is a LANGUAGE sql function's parameter with its mode.
type Param struct {
	Name string
	Type types.T
	Mode byte
}

// Label is how messages name the UDF ("Go UDF f", "Python UDF f").
func (s *Scalar) Label() string { return label(s.Language, s.Name) }

// Label is how messages name the UDF.
func (t *Table) Label() string { return label("", t.Name) }

func label(lang, name string) string {
	switch lang {
	case "":
		return "Go UDF " + name
	case "python":
		return "Python UDF " + name
	}
	return lang + " UDF " + name
}

// Column is one column of a record-batch UDF's output.
type Column struct {
	Name string
	Type types.T
}

// Table declares a record-batch UDF, called in FROM like a table function.
type Table struct {
	// Name is the SQL name (case-insensitive, as an unquoted identifier).
	Name string
	// Args are the declared argument types (possibly none).
	Args []types.T
	// Columns are the declared output columns (at least one).
	Columns []Column
	Fn      TableFunc
}

// Schema is the Arrow schema of the declared output columns.
func (t *Table) Schema() *arrow.Schema {
	fs := make([]arrow.Field, len(t.Columns))
	for i, c := range t.Columns {
		fs[i] = arrow.Field{Name: c.Name, Type: c.Type.ArrowType(), Nullable: true}
	}
	return arrow.NewSchema(fs, nil)
}

// Registry holds the UDFs of a server. Fill it before the server starts;
// server.Start takes a copy, so later additions do not reach a running
// server. A Registry is not safe for concurrent additions.
type Registry struct {
	scalars map[string][]*Scalar
	tables  map[string][]*Table
	batches map[string][]*Batch
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{scalars: map[string][]*Scalar{}, tables: map[string][]*Table{}, batches: map[string][]*Batch{}}
}

// AddScalar registers a scalar UDF. Several UDFs may share a name when
// their argument types differ (overloads); a name may not be both a scalar
// and a record-batch UDF.
func (r *Registry) AddScalar(s Scalar) error {
	name, err := checkName(s.Name)
	if err != nil {
		return err
	}
	if s.Fn == nil && s.SQL == nil {
		return fmt.Errorf("udf %s: no function", name)
	}
	if len(s.Args) == 0 && s.SQL == nil {
		return fmt.Errorf("udf %s: a scalar UDF takes at least one argument", name)
	}
	if err := checkTypes(name, append(slices.Clone(s.Args), s.Returns)); err != nil {
		return err
	}
	if len(r.tables[name]) > 0 || len(r.batches[name]) > 0 {
		return fmt.Errorf("udf %s: already registered as another kind of UDF", name)
	}
	for _, o := range r.scalars[name] {
		if sameArgs(o.Args, s.Args) {
			return fmt.Errorf("udf %s(%s): already registered", name, typeList(s.Args))
		}
	}
	s.Name = name
	s.Args = slices.Clone(s.Args)
	r.scalars[name] = append(r.scalars[name], &s)
	return nil
}

// AddTable registers a record-batch UDF.
func (r *Registry) AddTable(t Table) error {
	name, err := checkName(t.Name)
	if err != nil {
		return err
	}
	if t.Fn == nil {
		return fmt.Errorf("udf %s: no function", name)
	}
	if len(t.Columns) == 0 {
		return fmt.Errorf("udf %s: a record-batch UDF declares at least one output column", name)
	}
	all := slices.Clone(t.Args)
	for _, c := range t.Columns {
		if c.Name == "" {
			return fmt.Errorf("udf %s: an output column has no name", name)
		}
		all = append(all, c.Type)
	}
	if err := checkTypes(name, all); err != nil {
		return err
	}
	if len(r.scalars[name]) > 0 || len(r.batches[name]) > 0 {
		return fmt.Errorf("udf %s: already registered as another kind of UDF", name)
	}
	for _, o := range r.tables[name] {
		if sameArgs(o.Args, t.Args) {
			return fmt.Errorf("udf %s(%s): already registered", name, typeList(t.Args))
		}
	}
	t.Name = name
	t.Args = slices.Clone(t.Args)
	t.Columns = slices.Clone(t.Columns)
	r.tables[name] = append(r.tables[name], &t)
	return nil
}

// Scalars returns the scalar UDFs named name (nil: none). r may be nil.
func (r *Registry) Scalars(name string) []*Scalar {
	if r == nil {
		return nil
	}
	return r.scalars[foldName(name)]
}

// Tables returns the record-batch UDFs named name (nil: none). r may be nil.
func (r *Registry) Tables(name string) []*Table {
	if r == nil {
		return nil
	}
	return r.tables[foldName(name)]
}

// Names returns the names of every registered UDF, sorted.
func (r *Registry) Names() []string {
	if r == nil {
		return nil
	}
	var out []string
	for n := range r.scalars {
		out = append(out, n)
	}
	for n := range r.tables {
		out = append(out, n)
	}
	for n := range r.batches {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Clone returns a copy that later additions to r do not change.
func (r *Registry) Clone() *Registry {
	if r == nil {
		return nil
	}
	c := NewRegistry()
	for n, s := range r.scalars {
		c.scalars[n] = slices.Clone(s)
	}
	for n, t := range r.tables {
		c.tables[n] = slices.Clone(t)
	}
	for n, b := range r.batches {
		c.batches[n] = slices.Clone(b)
	}
	return c
}

// foldName is the registry's key for a name as SQL writes it.
func foldName(name string) string { return strings.ToLower(name) }

// checkName folds a UDF name as PostgreSQL folds an unquoted identifier and
// checks that it is one (the call site's name arrives folded).
func checkName(name string) (string, error) {
	n := strings.ToLower(name)
	if n == "" {
		return "", fmt.Errorf("udf: empty name")
	}
	// a session's temporary function is registered as pg_temp.name
	// (binder.TempFunctionName), which only a call qualified by pg_temp
	// reaches
	for i, c := range strings.TrimPrefix(n, "pg_temp.") {
		if !(c == '_' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return "", fmt.Errorf("udf %q: a name is letters, digits and underscores, not starting with a digit", name)
		}
	}
	if strings.HasPrefix(n, "pg__") {
		return "", fmt.Errorf("udf %s: the pg__ prefix is reserved", n)
	}
	return n, nil
}

// checkTypes refuses the types a UDF cannot declare: the literal-only
// kinds (unknown, NULL) have no Arrow type of their own.
func checkTypes(name string, ts []types.T) error {
	for _, t := range ts {
		switch t.Kind {
		case types.Unknown, types.Null:
			return fmt.Errorf("udf %s: %s is not a declarable type", name, t.PGName())
		}
	}
	return nil
}

func sameArgs(a, b []types.T) bool {
	return slices.EqualFunc(a, b, func(x, y types.T) bool { return x.Equal(y) })
}

func typeList(ts []types.T) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.PGName()
	}
	return strings.Join(names, ", ")
}
