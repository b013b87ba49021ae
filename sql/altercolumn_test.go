package sql

import (
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestAlterColumnActions: ADD COLUMN's DEFAULT (its text ends where the
// column's next constraint or action begins) and NOT NULL, ALTER COLUMN
// SET / DROP NOT NULL, and PostgreSQL's 42601 for contradicting
// declarations, at the second.
func TestAlterColumnActions(t *testing.T) {
	for _, c := range []struct {
		q          string
		kind       AlterKind
		def        string
		notNull    bool
		constraint string
	}{
		{"ALTER TABLE t ADD COLUMN c int DEFAULT 0 NOT NULL", AlterAddColumn, "0", true, ""},
		{"ALTER TABLE t ADD c int NOT NULL DEFAULT 0", AlterAddColumn, "0", true, ""},
		{"ALTER TABLE t ADD COLUMN c text DEFAULT 'a,b' || 'c', ADD COLUMN d int", AlterAddColumn, "'a,b' || 'c'", false, ""},
		{"ALTER TABLE t ADD COLUMN c int DEFAULT NULL", AlterAddColumn, "NULL", false, ""},
		{"ALTER TABLE t ADD COLUMN c int DEFAULT (1 + 2) NULL", AlterAddColumn, "(1 + 2)", false, ""},
		{"ALTER TABLE t ADD COLUMN c int[] DEFAULT ARRAY[1, 2] CONSTRAINT nn NOT NULL", AlterAddColumn, "ARRAY[1, 2]", true, ""},
		{"ALTER TABLE t ADD COLUMN c int DEFAULT 1 CHECK (c > 0)", AlterAddColumn, "1", false, "CHECK"},
		{"ALTER TABLE t ALTER COLUMN c SET NOT NULL", AlterSetNotNull, "", false, ""},
		{"ALTER TABLE t ALTER c DROP NOT NULL", AlterDropNotNull, "", false, ""},
	} {
		sts, err := NewParser().Parse(c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		a := sts[0].DDL.Actions[0]
		if a.Kind != c.kind || a.Default != c.def || a.NotNull != c.notNull || a.Constraint != c.constraint || a.Column != "c" {
			t.Errorf("%s: %+v", c.q, a)
		}
	}
	for _, c := range []struct {
		q   string
		msg string
		pos int
	}{
		{"ALTER TABLE t ADD COLUMN c int NULL NOT NULL", `conflicting NULL/NOT NULL declarations for column "c" of table "t"`, 37},
		{"ALTER TABLE t ADD COLUMN c int NOT NULL NULL", `conflicting NULL/NOT NULL declarations for column "c" of table "t"`, 41},
		{"ALTER TABLE t ADD COLUMN c int DEFAULT 1 DEFAULT 2", `multiple default values specified for column "c" of table "t"`, 42},
	} {
		_, err := NewParser().Parse(c.q)
		e := sqlerr.As(err)
		if e == nil || e.Code != sqlerr.SyntaxError || e.Message != c.msg || e.Position != c.pos {
			t.Errorf("%s: %+v, want %q at %d", c.q, e, c.msg, c.pos)
		}
	}
}

func TestParseRewriteActions(t *testing.T) {
	for _, c := range []struct {
		q    string
		want AlterAction
	}{
		{`ALTER TABLE t ALTER COLUMN a TYPE bigint USING "a"::bigint`, AlterAction{Kind: AlterColumnType, Column: "a", Default: `"a"::bigint`, DefaultPos: 48}},
		{`ALTER TABLE t ALTER a SET DATA TYPE varchar(5)`, AlterAction{Kind: AlterColumnType, Column: "a"}},
		{`ALTER TABLE t ALTER a TYPE text COLLATE "C"`, AlterAction{Kind: AlterColumnType, Column: "a"}},
		{`ALTER TABLE t DROP COLUMN IF EXISTS a CASCADE`, AlterAction{Kind: AlterDropColumn, Column: "a", IfNotExists: true, Cascade: true}},
		{`ALTER TABLE t DROP a RESTRICT`, AlterAction{Kind: AlterDropColumn, Column: "a"}},
		{`ALTER TABLE t RENAME COLUMN a TO b`, AlterAction{Kind: AlterRenameColumn, Column: "a", NewName: "b"}},
		{`ALTER TABLE t RENAME a TO "B"`, AlterAction{Kind: AlterRenameColumn, Column: "a", NewName: "B"}},
	} {
		sts, err := NewParser().Parse(c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		a := sts[0].DDL.Actions[0]
		a.Type = nil
		if a.Kind != c.want.Kind || a.Column != c.want.Column || a.NewName != c.want.NewName || a.Default != c.want.Default ||
			a.DefaultPos != c.want.DefaultPos || a.IfNotExists != c.want.IfNotExists || a.Cascade != c.want.Cascade {
			t.Errorf("%s: %+v", c.q, a)
		}
	}
	for _, q := range []string{`ALTER TABLE t RENAME COLUMN a b`, `ALTER TABLE t ALTER a TYPE`, `ALTER TABLE t ALTER a TYPE int USING`,
		`ALTER TABLE t RENAME a TO b, ADD c int`} {
		if _, err := NewParser().Parse(q); err == nil {
			t.Errorf("%s parsed", q)
		}
	}
}

func TestRenameColumnInExpr(t *testing.T) {
	for _, c := range []struct{ in, from, want string }{
		{"c > 0", "c", "d > 0"},
		{`"c" > 0 AND t.c < 9`, "c", "d > 0 AND t.d < 9"},
		{"c(c) + c::c + CAST(c AS c)", "c", "c(d) + d::c + CAST(d AS c)"},
		{"C > c2", "c", "d > c2"},
		// columns named like keywords: the keywords of the syntax stay
		{`"time" AT TIME ZONE 'UTC' > '2000-01-01'`, "time", `d AT TIME ZONE 'UTC' > '2000-01-01'`},
		{`"time"::time > TIME '10:00' AND "time" IS NOT NULL`, "time", `d::time > TIME '10:00' AND d IS NOT NULL`},
		{`extract(year FROM year) > 2000`, "year", `extract(year FROM d) > 2000`},
		{`date > DATE '2000-01-01' AND date::date IS NOT NULL`, "date", `d > DATE '2000-01-01' AND d::date IS NOT NULL`},
		{`value > 0 AND type <> 'x'`, "value", `d > 0 AND type <> 'x'`},
		{`type <> 'x'`, "type", `d <> 'x'`},
		{`"user" <> '' AND "order" >= 0`, "user", `d <> '' AND "order" >= 0`},
		{`"order" >= 0`, "order", `d >= 0`},
		{`CAST("interval" AS interval) > INTERVAL '1 day'`, "interval", `CAST(d AS interval) > INTERVAL '1 day'`},
	} {
		got, ok := RenameColumnInExpr(c.in, c.from, "d")
		if !ok || got != c.want {
			t.Errorf("%s: %q %v, want %q", c.in, got, ok, c.want)
		}
	}
	if _, ok := RenameColumnInExpr("a > 0", "c", "d"); ok {
		t.Error("a text without c renamed")
	}
}
