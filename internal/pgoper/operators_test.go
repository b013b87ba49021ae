package pgoper_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/internal/pgoper"
	"github.com/sqlgate/sqlgate/internal/pgtest"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// noTables is a catalog without tables: the probes read none. Its one
// user-defined type is probeEnum, the sample of anyenum operands.
type noTables struct{ reg *types.Registry }

func (noTables) GetTable(_ context.Context, p fluss.TablePath) (fluss.TableInfo, error) {
	return fluss.TableInfo{}, sqlerr.New(sqlerr.UndefinedTable, "relation %q does not exist", p.Table)
}

func (c noTables) Types() *types.Registry { return c.reg }

func (c noTables) EnumType(schema, name string) (types.T, bool) {
	if name != probeEnumName || (schema != "" && schema != "public") {
		return types.T{}, false
	}
	return c.reg.Enum(probeEnumOID).T(), true
}

// probeEnumOID and probeEnumName are the probes' enum type (CREATE TYPE
// probe_enum AS ENUM ('a', 'b')), the sample an anyenum operand takes: an
// OID no PostgreSQL type has.
const (
	probeEnumOID  = 900000
	probeEnumName = "probe_enum"
)

// probeCatalog is the catalog the probes bind in.
var probeCatalog = sync.OnceValue(func() noTables {
	reg := types.NewRegistry()
	reg.PublishEnums([]*types.EnumType{{OID: probeEnumOID, ArrayOID: probeEnumOID + 1, Schema: "public", Name: probeEnumName,
		Labels: []string{"a", "b"}, Sorts: []float32{1, 2}, LabelOIDs: []uint32{probeEnumOID + 2, probeEnumOID + 3}}}, nil)
	return noTables{reg: reg}
})

// polySamples are the concrete types a polymorphic operand is probed with.
var polySamples = map[uint32]uint32{
	2277: 1007, 5078: 1007, // anyarray, anycompatiblearray: int4[]
	2283: 23, 2776: 23, 5077: 23, 5079: 23, // anyelement, anynonarray, anycompatible(nonarray): int4
	3831: 3904, 5080: 3904, // anyrange, anycompatiblerange: int4range
	3500: probeEnumOID, // anyenum: the probes' enum type
}

// polymorphic reports whether oid is a pseudo-type a result takes from its
// operands.
func polymorphic(oid uint32) bool {
	switch oid {
	case 2277, 5078, 2283, 2776, 5077, 5079, 3831, 5080, 4537, 4538, 3500:
		return true
	}
	return false
}

// resultOID binds text on sqlgate and returns its one column's type OID.
func resultOID(text string) (uint32, error) {
	stmts, err := sql.NewParser().Parse(text)
	if err != nil {
		return 0, err
	}
	st, err := binder.Bind(context.Background(), probeCatalog(), stmts[0], nil)
	if err != nil {
		return 0, err
	}
	q, ok := st.(*binder.Query)
	if !ok {
		return 0, fmt.Errorf("not a query")
	}
	oid, _, _ := pgtypes.OIDOf(q.Plan.Columns()[0].T)
	return oid, nil
}

type pgOperator struct {
	op        pgoper.Operator
	l, r, res string // format_type of the operands (l "" for prefix) and result
}

// operand is a typed NULL of oid (its polymorphic sample), as SQL text.
func operand(oid uint32, names map[uint32]string) (string, bool) {
	if s, ok := polySamples[oid]; ok {
		oid = s
	} else if polymorphic(oid) {
		return "", false
	}
	n, ok := names[oid]
	return "NULL::" + n, ok
}

// binds reports whether sqlgate binds text to a value of type want (any
// type when want is polymorphic).
func binds(text string, want uint32) (ok bool, why string) {
	defer func() {
		if r := recover(); r != nil {
			ok, why = false, fmt.Sprintf("panic: %v", r)
		}
	}()
	got, err := resultOID(text)
	if err != nil {
		return false, err.Error()
	}
	if got != want && !polymorphic(want) {
		return false, fmt.Sprintf("result type %d, PostgreSQL's %d", got, want)
	}
	return true, ""
}

// TestOperatorsMatchPostgres checks internal/pgoper/operators.go against
// PostgreSQL 15: every pg_catalog operator whose call (typed NULL operands,
// a polymorphic operand as a sample type) sqlgate binds to PostgreSQL's
// result type has its row, as PostgreSQL's pg_operator has it, and no
// other; each listed operator's implementing function binds too, with the
// same result. With SQLGATE_WRITE_OPERATORS=1 it writes the file instead.
func TestOperatorsMatchPostgres(t *testing.T) {
	conn := sharedPG.Conn(t)
	ctx := context.Background()
	names := map[uint32]string{}
	trows, err := conn.Query(ctx, `SELECT oid, format_type(oid, NULL) FROM pg_type`)
	if err != nil {
		t.Fatal(err)
	}
	for trows.Next() {
		var oid uint32
		var n string
		if err := trows.Scan(&oid, &n); err != nil {
			t.Fatal(err)
		}
		names[oid] = n
	}
	names[probeEnumOID] = probeEnumName
	rows, err := conn.Query(ctx, `SELECT o.oid, o.oprname::text, o.oprkind::text, o.oprleft, o.oprright, o.oprresult, o.oprcom, o.oprnegate,
		o.oprcanmerge, o.oprcanhash, p.proname::text, p.oid, o.oprrest::oid, o.oprjoin::oid,
		coalesce(obj_description(o.oid, 'pg_operator'), ''), coalesce(obj_description(p.oid, 'pg_proc'), ''),
		coalesce(format_type(nullif(o.oprleft, 0), NULL), ''), format_type(o.oprright, NULL), format_type(o.oprresult, NULL)
		FROM pg_operator o JOIN pg_proc p ON p.oid = o.oprcode
		WHERE o.oprnamespace = 'pg_catalog'::regnamespace ORDER BY o.oid`)
	if err != nil {
		t.Fatal(err)
	}
	var all []pgoper.Operator
	for rows.Next() {
		var o pgoper.Operator
		var kind string
		if err := rows.Scan(&o.OID, &o.Name, &kind, &o.Left, &o.Right, &o.Result, &o.Com, &o.Negate, &o.CanMerge, &o.CanHash,
			&o.Code, &o.CodeOID, &o.Rest, &o.Join, &o.Comment, &o.CodeComment, &o.LeftType, &o.RightType, &o.ResultType); err != nil {
			t.Fatal(err)
		}
		o.Kind = kind[0]
		all = append(all, o)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	var want []pgoper.Operator
	var why []string
	for _, o := range all {
		r, ok := operand(o.Right, names)
		if !ok {
			continue
		}
		text := "SELECT " + o.Name + " " + r
		if o.Kind == 'b' {
			l, ok := operand(o.Left, names)
			if !ok {
				continue
			}
			text = "SELECT " + l + " " + o.Name + " " + r
		}
		if ok, reason := binds(text, o.Result); ok {
			want = append(want, o)
		} else {
			why = append(why, text+": "+reason)
		}
	}
	t.Logf("%d of PostgreSQL's %d operators bind", len(want), len(all))
	if os.Getenv("SQLGATE_WRITE_OPERATORS") != "" {
		if os.Getenv("SQLGATE_OPERATORS_WHY") != "" {
			t.Logf("not bound:\n%s", strings.Join(why, "\n"))
		}
		writeOperators(t, want)
		return
	}
	got := map[uint32]pgoper.Operator{}
	for _, o := range pgoper.All() {
		got[o.OID] = o
	}
	for _, w := range want {
		g, ok := got[w.OID]
		switch {
		case !ok:
			t.Errorf("%s(%d,%d) binds on sqlgate but has no pg_operator row", w.Name, w.Left, w.Right)
		case g != w:
			t.Errorf("operator %d is %+v, PostgreSQL's %+v", w.OID, g, w)
		}
		delete(got, w.OID)
	}
	for _, g := range got {
		t.Errorf("%s(%d,%d) (%d) is listed but does not bind on sqlgate as PostgreSQL's", g.Name, g.Left, g.Right, g.OID)
	}
	// the implementing functions bind as their operators
	called := 0
	for _, o := range want {
		var args []string
		skip := false
		for _, a := range o.Operands() {
			s, ok := operand(a, names)
			if a == 2249 {
				s = "ROW(1, 2)" // a record of known fields
			}
			skip = skip || !ok
			args = append(args, s)
		}
		if skip {
			continue
		}
		text := "SELECT " + o.Code + "(" + strings.Join(args, ", ") + ")"
		if _, err := conn.Exec(ctx, text); err != nil {
			continue // PostgreSQL refuses it too (a VARIADIC function's array)
		}
		called++
		if ok, reason := binds(text, o.Result); !ok {
			t.Errorf("%s: %s", text, reason)
		}
	}
	if called < len(want)*9/10 {
		t.Errorf("only %d of %d functions called", called, len(want))
	}
}

func writeOperators(t *testing.T, ops []pgoper.Operator) {
	var b bytes.Buffer
	b.WriteString("// Code generated from PostgreSQL 15 by TestOperatorsMatchPostgres (SQLGATE_WRITE_OPERATORS=1); DO NOT EDIT.\n\n")
	b.WriteString("package pgoper\n\n")
	b.WriteString("// operators are PostgreSQL 15's pg_operator rows of the operators sqlgate\n// binds, by OID.\n")
	b.WriteString("var operators = []Operator{\n")
	for _, o := range ops {
		fmt.Fprintf(&b, "\t{%d, %q, '%c', %d, %d, %d, %d, %d, %v, %v, %q, %d, %d, %d, %q, %q, %q, %q, %q},\n",
			o.OID, o.Name, o.Kind, o.Left, o.Right, o.Result, o.Com, o.Negate, o.CanMerge, o.CanHash, o.Code, o.CodeOID, o.Rest, o.Join, o.Comment, o.CodeComment,
			o.LeftType, o.RightType, o.ResultType)
	}
	b.WriteString("}\n")
	pgtest.WriteGoSource(t, "operators.go", b.Bytes())
}
