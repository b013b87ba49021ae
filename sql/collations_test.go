package sql

import (
	"reflect"
	"testing"
)

// CREATE TABLE's columns' COLLATE clauses are read before they are
// removed from the text: the column they follow, C / POSIX / ucs_basic /
// C.utf8 only, never a constraint's or an expression's inside parentheses.
func TestColumnCollations(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want map[string]string
	}{
		{`CREATE TABLE t (a text COLLATE "C", b int)`, map[string]string{"a": "C"}},
		{`CREATE TEMP TABLE IF NOT EXISTS s.t ("Mixed" varchar(3) COLLATE pg_catalog."POSIX" NOT NULL, c text collate ucs_basic)`,
			map[string]string{"Mixed": "POSIX", "c": "ucs_basic"}},
		{`CREATE TABLE t (a text COLLATE "default", b text COLLATE pg_catalog."default")`, nil},
		{`CREATE TABLE t (a text, CONSTRAINT k CHECK (a COLLATE "C" > ''), b text DEFAULT ('x' COLLATE "C"))`, nil},
		{`CREATE TABLE t (a text, UNIQUE (a), b text COLLATE "C")`, map[string]string{"b": "C"}},
		{`CREATE TABLE t (a varchar(3) COLLATE "C.utf8")`, map[string]string{"a": "C.utf8"}},
		{`SELECT a COLLATE "C" FROM t`, nil},
		{`CREATE VIEW v AS SELECT a COLLATE "C" AS a FROM t`, nil},
	} {
		st, err := NewParser().Parse(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if got := st[0].Collations; !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.in, got, tc.want)
		}
	}
}

// ALTER COLUMN ... TYPE's COLLATE is the action's, for the engine to keep;
// ADD COLUMN's is removed as a column's type's.
func TestAlterColumnTypeCollation(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string // each action's Collation
	}{
		{`ALTER TABLE t ALTER COLUMN f TYPE varchar(9) COLLATE "C.utf8", ALTER COLUMN b TYPE varchar(9)`, []string{"C.utf8", ""}},
		{`ALTER TABLE t ALTER a SET DATA TYPE bigint COLLATE pg_catalog."C"`, []string{"C"}},
		{`ALTER TABLE t ADD COLUMN z text COLLATE "POSIX"`, []string{""}},
	} {
		st, err := NewParser().Parse(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		var got []string
		for _, a := range st[0].DDL.Actions {
			got = append(got, a.Collation)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.in, got, tc.want)
		}
	}
}
