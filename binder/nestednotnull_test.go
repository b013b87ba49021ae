package binder_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// A null at a NOT NULL place inside a ROW, ARRAY or MAP column value is
// refused when the statement is bound, whatever form the value is written
// in, with the store's message (the path column.field) and, for an array
// element, a detail naming it; values without such a null bind.
func TestNestedNotNullAtBind(t *testing.T) {
	c := catalog()
	nn := func(t types.T) types.T { t.NotNull = true; return t }
	ptr := func(t types.T) *types.T { return &t }
	row := func(fs ...types.Field) types.T { return types.T{Kind: types.Row, Fields: fs} }
	c["nn"] = fluss.TableInfo{Path: fluss.TablePath{Database: "public", Table: "nn"}, TableID: 9, Descriptor: fluss.TableDescriptor{Schema: fluss.Schema{
		Columns: []fluss.Column{
			{Name: "id", Type: nn(types.Int32Type)},
			{Name: "a", Type: types.ArrayOf(nn(types.Int32Type))},
			{Name: "nr", Type: row(
				types.Field{Name: "x", Type: nn(types.Int32Type)},
				types.Field{Name: "y", Type: row(types.Field{Name: "p", Type: nn(types.Int32Type)})},
				types.Field{Name: "l", Type: types.ArrayOf(nn(types.StringType))},
			)},
			{Name: "m", Type: types.T{Kind: types.Map, Key: ptr(nn(types.StringType)), Elem: ptr(nn(types.Int32Type))}},
		},
		PrimaryKey: []string{"id"},
	}}}
	cases := []struct {
		sql, path, detail string // path "" = binds
	}{
		{"INSERT INTO nn (id, a) VALUES (1, '{1,NULL}')", "a", "Element 2"},
		{"INSERT INTO nn (id, a) VALUES (1, ARRAY[1, NULL])", "a", "Element 2"},
		{"INSERT INTO nn (id, a) VALUES (1, ARRAY[NULL::int])", "a", "Element 1"},
		{"UPDATE nn SET a = ARRAY[id, 2]", "", ""},
		{"INSERT INTO nn (id, a) VALUES (1, '{1,2}')", "", ""},
		{"INSERT INTO nn (id, a) VALUES (1, NULL)", "", ""},
		{"INSERT INTO nn (id, nr) VALUES (1, '{\"y\":{\"p\":1}}')", "nr.x", ""},
		{"INSERT INTO nn (id, nr) VALUES (1, '{\"x\":null,\"y\":{\"p\":1}}')", "nr.x", ""},
		{"INSERT INTO nn (id, nr) VALUES (1, '{\"x\":1,\"y\":{}}')", "nr.y.p", ""},
		{"INSERT INTO nn (id, nr) VALUES (1, '[1,{\"p\":2},[\"s\",null]]')", "nr.l", "Element 2"},
		{"INSERT INTO nn (id, nr) VALUES (1, '{\"x\":1}')", "", ""},
		{"INSERT INTO nn (id, nr) VALUES (1, ROW(NULL, ROW(1), NULL))", "nr.x", ""},
		{"INSERT INTO nn (id, nr) VALUES (1, ROW(1, ROW(NULL), NULL))", "nr.y.p", ""},
		{"UPDATE nn SET nr = ROW(id, ROW(NULL), NULL)", "nr.y.p", ""},
		{"INSERT INTO nn (id, nr) VALUES (1, ROW(1, ROW(2), ARRAY['s', NULL]))", "nr.l", "Element 2"},
		{"INSERT INTO nn (id, nr) VALUES (1, ROW(1, ROW(2), ARRAY['s']))", "", ""},
		{"INSERT INTO nn (id, m) VALUES (1, MAP['k', NULL])", "m", "map"},
		{"INSERT INTO nn (id, m) VALUES (1, '{\"k\": null}')", "m", "map"},
		{"INSERT INTO nn (id, m) VALUES (1, MAP['k', 1])", "", ""},
		{"UPDATE nn SET a = '{NULL}'", "a", "Element 1"},
		{"UPDATE nn SET nr = ROW(1, ROW(NULL), NULL) WHERE id = 1", "nr.y.p", ""},
		{"INSERT INTO nn (id) VALUES (1) ON CONFLICT (id) DO UPDATE SET a = ARRAY[NULL, 1]", "a", "Element 1"},
	}
	for _, tc := range cases {
		stmts, err := sql.NewParser().Parse(tc.sql)
		if err != nil {
			t.Fatalf("%s: %v", tc.sql, err)
		}
		_, err = binder.Bind(context.Background(), c, stmts[0], nil)
		if tc.path == "" {
			if err != nil {
				t.Errorf("%s: %v, want it to bind", tc.sql, err)
			}
			continue
		}
		want := `null value in column "` + tc.path + `" of relation "nn" violates not-null constraint`
		e, _ := err.(*sqlerr.Error)
		if e == nil || e.Code != sqlerr.NotNullViolation || e.Message != want || !strings.Contains(e.Detail, tc.detail) {
			t.Errorf("%s: %#v, want 23502 %q with a detail holding %q", tc.sql, err, want, tc.detail)
		}
	}
}
