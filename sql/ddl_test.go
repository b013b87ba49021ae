package sql

import (
	"reflect"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

func TestParseTypeName(t *testing.T) {
	tests := []struct {
		in   string
		want string // TypeName.String()
	}{
		{"BOOLEAN", "bool"}, {"bool", "bool"},
		{"TINYINT", "tinyint"}, {"SMALLINT", "int2"}, {"int2", "int2"},
		{"INT", "int4"}, {"INTEGER", "int4"}, {"int4", "int4"},
		{"BIGINT", "int8"}, {"int8", "int8"},
		{"FLOAT", "float"}, {"REAL", "float4"}, {"float(10)", "float4"}, {"float(40)", "float8"},
		{"DOUBLE", "float8"}, {"DOUBLE PRECISION", "float8"}, {"float8", "float8"},
		{"CHAR(3)", "char(3)"}, {"character(3)", "char(3)"}, {"bpchar", "bpchar"},
		{"STRING", "string"}, {"TEXT", "text"},
		{"VARCHAR(20)", "varchar(20)"}, {"character varying(20)", "varchar(20)"}, {"varchar", "varchar"},
		{"BYTES", "bytes"}, {"BLOB", "bytes"}, {"VARBINARY(8)", "bytes(8)"}, {"BYTEA", "bytea"}, {"BINARY(16)", "binary(16)"},
		{"DECIMAL(10,2)", "numeric(10,2)"}, {"NUMERIC(10, 2)", "numeric(10,2)"}, {"numeric", "numeric"},
		{"DATE", "date"}, {"TIME(3)", "time(3)"}, {"time with time zone", "timetz"},
		{"TIMESTAMP(6)", "timestamp(6)"}, {"DATETIME(3)", "timestamp(3)"}, {"timestamp without time zone", "timestamp"},
		{"TIMESTAMP_LTZ(3)", "timestamp_ltz(3)"}, {"TIMESTAMPTZ", "timestamptz"},
		{"TIMESTAMP WITH TIME ZONE", "timestamptz"}, {"timestamp(3) with time zone", "timestamptz(3)"},
		{"interval", "interval"}, {"interval day to second", "interval day to second"}, {"INTERVAL MONTH", "interval month"},
		{"pg_catalog.text", "text"}, {`"pg_catalog"."int4"`, "int4"}, {"regclass", "regclass"}, {"oid", "oid"}, {"name", "name"},
		{`"char"`, `"char"`},
		{"ARRAY<INT>", "array<int4>"}, {"ARRAY<INT NOT NULL>", "array<int4 not null>"},
		{"ARRAY<ARRAY<STRING>>", "array<array<string>>"},
		{"int[]", "int4[]"}, {"int4[][]", "int4[][]"}, {"numeric(10,2)[]", "numeric(10,2)[]"}, {"text[3]", "text[]"},
		{"MAP<STRING, BIGINT>", "map<string,int8>"}, {"MAP<INT NOT NULL, ARRAY<INT>>", "map<int4 not null,array<int4>>"},
		{"ROW<a INT, b STRING NOT NULL>", "row<a int4,b string not null>"},
		{"ROW(a INT, \"B\" ROW<c DOUBLE>)", "row<a int4,B row<c float8>>"},
		{"ARRAY<ROW<x INT>>", "array<row<x int4>>"},
	}
	for _, tc := range tests {
		got, err := ParseTypeName(tc.in)
		if err != nil {
			t.Errorf("ParseTypeName(%q): %v", tc.in, err)
			continue
		}
		if got.String() != tc.want {
			t.Errorf("ParseTypeName(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
	// structure of an array type
	tn, err := ParseTypeName("int[][]")
	if err != nil {
		t.Fatal(err)
	}
	if tn.Name != "array" || tn.ArrayDims != 2 || tn.Elem.Name != "array" || tn.Elem.Elem.Name != "int4" {
		t.Errorf("int[][] = %+v", tn)
	}
	for _, bad := range []string{"", "ARRAY<INT", "MAP<INT>", "ROW<>", "varchar(x)", "int int", "(int)", "numeric(10,", "ROW<a>"} {
		if _, err := ParseTypeName(bad); err == nil {
			t.Errorf("ParseTypeName(%q) succeeded, want an error", bad)
		}
	}
}

func TestCreateTable(t *testing.T) {
	st := parseOne(t, `CREATE TABLE IF NOT EXISTS db.orders (
		id BIGINT NOT NULL,
		"Name" VARCHAR(20) DEFAULT 'x',
		price DECIMAL(10, 2),
		tags ARRAY<STRING NOT NULL>,
		attrs MAP<STRING, INT>,
		addr ROW<city STRING, zip INT NOT NULL>,
		scores double precision[],
		ts TIMESTAMP(3) WITH TIME ZONE,
		PRIMARY KEY (id) NOT ENFORCED
	) WITH ('bucket.num' = '4', bucket.key = 'id', "table.x" = 7)`)
	if st.Kind != CreateTable {
		t.Fatalf("kind %v", st.Kind)
	}
	want := map[string]string{
		"id": "int8", "Name": "varchar(20)", "price": "numeric(10,2)", "tags": "array<string not null>",
		"attrs": "map<string,int4>", "addr": "row<city string,zip int4 not null>", "scores": "float8[]",
		"ts": "timestamptz(3)",
	}
	got := map[string]string{}
	for k, v := range st.ColumnTypes {
		got[k] = v.String()
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ColumnTypes = %v, want %v", got, want)
	}
	if wantProps := map[string]string{"bucket.num": "4", "bucket.key": "id", "table.x": "7"}; !reflect.DeepEqual(st.Properties, wantProps) {
		t.Errorf("Properties = %v, want %v", st.Properties, wantProps)
	}
	ct := st.AST.(*ast.CreateTableStmt)
	if !ct.IfNotExists || ct.Table.Name.O != "orders" || ct.Table.Schema.O != "db" || len(ct.Cols) != 8 {
		t.Errorf("AST: ifNotExists=%v table=%s.%s cols=%d", ct.IfNotExists, ct.Table.Schema, ct.Table.Name, len(ct.Cols))
	}
	if len(ct.Constraints) != 1 || ct.Constraints[0].Tp != ast.ConstraintPrimaryKey {
		t.Errorf("constraints = %+v", ct.Constraints)
	}
	// NOT NULL survives the type replacement; DEFAULT is taken out, as
	// written, for the binder (coldefs.go)
	var notNull bool
	for _, o := range ct.Cols[0].Options {
		notNull = notNull || o.Tp == ast.ColumnOptionNotNull
	}
	if !notNull {
		t.Errorf("column options lost: notNull=%v (rewritten %q)", notNull, st.Rewritten)
	}
	if d, ok := st.ColumnDefaults["Name"]; !ok || d.Expr == "" {
		t.Errorf("ColumnDefaults = %+v", st.ColumnDefaults)
	}

	// column-level primary key, no WITH
	st = parseOne(t, "CREATE TABLE t (k INT PRIMARY KEY NOT ENFORCED, v STRING)")
	if st.ColumnTypes["k"].Name != "int4" || st.ColumnTypes["v"].Name != "string" || st.Properties != nil {
		t.Errorf("ColumnTypes %v Properties %v", st.ColumnTypes, st.Properties)
	}
	if st.Rewritten != `create table t ( "k" text primary key, "v" text)` {
		t.Errorf("Rewritten = %q", st.Rewritten)
	}
	// key and index are ordinary column names in PostgreSQL
	st = parseOne(t, `CREATE TABLE kv (key VARCHAR(10) PRIMARY KEY, index INT, range INT)`)
	if st.ColumnTypes["key"].String() != "varchar(10)" || st.ColumnTypes["index"].String() != "int4" || st.ColumnTypes["range"].String() != "int4" {
		t.Errorf("ColumnTypes %v", st.ColumnTypes)
	}
	// a comma inside MAP<..> does not split columns
	st = parseOne(t, "CREATE TABLE t (m MAP<INT, ARRAY<INT>>, n INT)")
	if len(st.ColumnTypes) != 2 || st.ColumnTypes["m"].String() != "map<int4,array<int4>>" {
		t.Errorf("ColumnTypes %v", st.ColumnTypes)
	}
}

func TestOnConflict(t *testing.T) {
	st := parseOne(t, "INSERT INTO t (a, b) VALUES ($1, $2) ON CONFLICT (a) DO NOTHING")
	if !st.OnConflictDoNothing || st.Rewritten != "insert into t (a, b) values (?, ?)" {
		t.Errorf("DO NOTHING: flag=%v rewritten=%q", st.OnConflictDoNothing, st.Rewritten)
	}
	st = parseOne(t, "INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING")
	if !st.OnConflictDoNothing {
		t.Errorf("ON CONFLICT DO NOTHING without target not recorded")
	}
	st = parseOne(t, "INSERT INTO t (a, b) VALUES (1, 2) ON CONFLICT (a) DO UPDATE SET b = EXCLUDED.b, c = excluded.c + 1")
	ins := st.AST.(*ast.InsertStmt)
	if st.OnConflictDoNothing || len(ins.OnDuplicate) != 2 {
		t.Fatalf("DO UPDATE: %q -> %d assignments", st.Rewritten, len(ins.OnDuplicate))
	}
	if _, ok := ins.OnDuplicate[0].Expr.(*ast.ValuesExpr); !ok {
		t.Errorf("b = EXCLUDED.b became %T, want VALUES(b)", ins.OnDuplicate[0].Expr)
	}
	// DO UPDATE's WHERE and the inference clause's WHERE ride as marker
	// assignments (upsert.go), last in the list
	st = parseOne(t, "INSERT INTO t VALUES (1) ON CONFLICT (a) WHERE a > 0 DO UPDATE SET b = 1 WHERE b > excluded.b")
	ins = st.AST.(*ast.InsertStmt)
	if n := len(ins.OnDuplicate); n != 3 || ins.OnDuplicate[1].Column.Name.O != ConflictWhereMarker || ins.OnDuplicate[2].Column.Name.O != ConflictTargetWhereMarker {
		t.Errorf("DO UPDATE ... WHERE: %q", st.Rewritten)
	}
	if _, err := NewParser().Parse("INSERT INTO t VALUES (1) ON CONFLICT DO UPDATE SET b = 1"); err == nil {
		t.Errorf("DO UPDATE without an arbiter accepted")
	}
	// ON CONFLICT inside a string is not a clause
	st = parseOne(t, "INSERT INTO t VALUES ('ON CONFLICT DO NOTHING')")
	if st.OnConflictDoNothing {
		t.Errorf("ON CONFLICT inside a literal was taken as a clause")
	}
}
