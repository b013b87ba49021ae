package sql

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestModifyingWithTakenOut checks that the data-modifying items of a
// top-level WITH list leave the statement for Statement.ModifyingWith,
// each text the input blanked outside it and the plain items before it.
func TestModifyingWithTakenOut(t *testing.T) {
	type part struct {
		name      string
		cols      []string
		pos       int
		text      string // trimmed, spaces squeezed
		returning bool
	}
	tests := []struct {
		in        string
		rewritten string
		parts     []part
	}{
		{"WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d", "select * from d",
			[]part{{"d", nil, 6, "DELETE FROM t RETURNING *", true}}},
		{"with s as (select 1), D(a, \"B\") as (delete from t where k in (select * from s) returning *), e as (update u set v = 1) select * from d, s",
			"with s as (select 1) select * from d, s",
			[]part{{"d", []string{"a", "B"}, 23, "with s as (select 1) delete from t where k in (select * from s) returning *", true},
				{"e", nil, 94, "with s as (select 1) update u set v = 1", false}}},
		{"WITH a AS (INSERT INTO t VALUES ($1) RETURNING k), s AS (SELECT k FROM a), b AS MATERIALIZED (DELETE FROM u) INSERT INTO v SELECT * FROM s",
			"insert into v with s as (select k from a) select * from s", // hoisted onto the INSERT's query
			[]part{{"a", nil, 6, "INSERT INTO t VALUES ($1) RETURNING k", true},
				{"b", nil, 76, "WITH s AS (SELECT k FROM a) DELETE FROM u", false}}},
		{"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3), d AS (DELETE FROM t RETURNING k) SELECT * FROM r",
			"with recursive r(n) as (select 1 union all select n + 1 from r where n < 3) select * from r",
			[]part{{"d", nil, 78, "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) DELETE FROM t RETURNING k", true}}},
		// no data-modifying item: the statement as it was
		{"WITH s AS (SELECT 1) SELECT * FROM s", "with s as (select 1) select * from s", nil},
	}
	for _, tt := range tests {
		sts, err := NewParser().Parse(tt.in)
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		st := sts[0]
		if got := strings.Join(strings.Fields(st.Rewritten), " "); got != tt.rewritten {
			t.Errorf("%s:\n rewritten %q\n want      %q", tt.in, got, tt.rewritten)
		}
		var got []part
		for _, m := range st.ModifyingWith {
			if len(m.Text) != len(tt.in) {
				t.Errorf("%s: part %s's text is %d bytes, the input %d", tt.in, m.Name, len(m.Text), len(tt.in))
			}
			got = append(got, part{m.Name, m.Columns, m.NamePos, strings.Join(strings.Fields(m.Text), " "), m.Returning})
		}
		if !reflect.DeepEqual(got, tt.parts) {
			t.Errorf("%s:\n parts %+v\n want  %+v", tt.in, got, tt.parts)
		}
	}
}

// TestModifyingWithElsewhere checks PostgreSQL's errors for a
// data-modifying WITH query anywhere but in a statement's top-level WITH
// list.
func TestModifyingWithElsewhere(t *testing.T) {
	tests := []struct {
		in      string
		message string
		pos     int
		code    sqlerr.Code
	}{
		{"WITH d AS (DELETE FROM t RETURNING *), d AS (SELECT 1) SELECT * FROM d", `WITH query name "d" specified more than once`, 40, sqlerr.DuplicateAlias},
		{"WITH RECURSIVE d AS (DELETE FROM t WHERE k IN (SELECT k FROM d) RETURNING k) SELECT * FROM d", `recursive query "d" must not contain data-modifying statements`, 16, sqlerr.InvalidRecursion},
		{"SELECT * FROM (WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d) s", "WITH clause containing a data-modifying statement must be at the top level", 21, ""},
		{"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL (WITH d AS (DELETE FROM t RETURNING k) SELECT k FROM d)) SELECT * FROM r", "WITH clause containing a data-modifying statement must be at the top level", 50, ""},
		{"INSERT INTO t WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d", "WITH clause containing a data-modifying statement must be at the top level", 20, ""},
		{"CREATE VIEW v AS WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d", "views must not contain data-modifying statements in WITH", 0, ""},
		{"CREATE MATERIALIZED VIEW v AS WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d", "materialized views must not use data-modifying statements in WITH", 0, ""},
		{"DECLARE c CURSOR FOR WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d", "DECLARE CURSOR must not contain data-modifying statements in WITH", 0, ""},
		{"EXPLAIN WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d", "data-modifying statements in WITH are not supported in EXPLAIN", 0, ""},
		{"CREATE TABLE c AS WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d", "data-modifying statements in WITH are not supported in CREATE TABLE AS", 0, ""},
		{"COPY (WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d) TO STDOUT", "data-modifying statements in WITH are not supported in COPY", 0, ""},
	}
	for _, tt := range tests {
		_, err := NewParser().Parse(tt.in)
		e := sqlerr.As(err)
		if tt.code == "" {
			tt.code = sqlerr.FeatureNotSupported
		}
		if e == nil || e.Code != tt.code || e.Message != tt.message || e.Position != tt.pos {
			t.Errorf("%s: %v, want %s %q at %d", tt.in, err, tt.code, tt.message, tt.pos)
		}
	}
}

// TestModifyingCTEParse checks that a WITH query's statement cut short
// fails at the ")" ending it, as PostgreSQL reports it, and that a whole
// one parses.
func TestModifyingCTEParse(t *testing.T) {
	tests := []struct {
		in      string
		message string // "" for none
		pos     int
	}{
		{"WITH d AS (DELETE FROM t WHERE) SELECT 1", `syntax error at or near ")"`, 31},
		{"WITH d AS (UPDATE t SET) SELECT 1", `syntax error at or near ")"`, 24},
		{"WITH d AS (UPDATE t SET v = 1 RETURNING k) SELECT 1", "", 0},
	}
	for _, tt := range tests {
		sts, err := NewParser().Parse(tt.in)
		if err != nil || len(sts[0].ModifyingWith) != 1 {
			t.Fatalf("%s: %v", tt.in, err)
		}
		st, err := sts[0].ModifyingWith[0].Parse(NewParser())
		if tt.message == "" {
			if err != nil || st.Kind != Update {
				t.Errorf("%s: %v, %v", tt.in, st, err)
			}
			continue
		}
		e := sqlerr.As(err)
		if e == nil || e.Code != sqlerr.SyntaxError || e.Message != tt.message || e.Position != tt.pos {
			t.Errorf("%s: %v, want %q at %d", tt.in, err, tt.message, tt.pos)
		}
	}
}
