package binder_test

import (
	"context"
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// collCatalog is catalog() with table ct(a text COLLATE "C", b text
// COLLATE "POSIX", c text, n int).
func collCatalog() fakeCatalog {
	cat := catalog()
	d := fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{
		{Name: "a", Type: types.StringType}, {Name: "b", Type: types.StringType},
		{Name: "c", Type: types.StringType}, {Name: "n", Type: types.Int32Type},
	}}}
	m := fluss.MetaOf(d)
	m.Columns[0].Collation, m.Columns[1].Collation = "C", "POSIX"
	fluss.SetTableMeta(&d, m)
	cat["ct"] = fluss.TableInfo{Path: fluss.TablePath{Database: "public", Table: "ct"}, TableID: 3, Descriptor: d}
	return cat
}

// TestCollationDerivation checks parse_collate.c's rules: COLLATE's type
// and name checks, explicit collations that must agree, implicit ones
// that conflict where a sort or group key needs one (the message, and
// the position of the clause or column PostgreSQL points at).
func TestCollationDerivation(t *testing.T) {
	cases := []struct {
		sql  string
		code sqlerr.Code // "" binds
		msg  string
		pos  int
	}{
		{sql: `select 'a' collate "C"`},
		{sql: `select 'a' collate pg_catalog."POSIX" || 'b'`},
		{sql: `select 'a' collate "C" collate "POSIX"`},
		{sql: `select a || b from ct`},            // a conflict nothing needs
		{sql: `select a < b collate "C" from ct`}, // explicit beats implicit
		{sql: `select a || c from ct order by 1`}, // non-default beats default
		{sql: `select (a || b) collate "C" from ct order by 1`},
		{sql: `select name collate "C.utf8" from t`},
		{sql: `select 1 collate "C"`, code: sqlerr.DatatypeMismatch, msg: "collations are not supported by type integer", pos: 10},
		{sql: `select 1 collate "nope"`, code: sqlerr.DatatypeMismatch, msg: "collations are not supported by type integer", pos: 10},
		{sql: `select 'a' collate "nope"`, code: sqlerr.UndefinedObject, msg: `collation "nope" for encoding "UTF8" does not exist`, pos: 12},
		{sql: `select 'a' collate public."C"`, code: sqlerr.UndefinedObject, msg: `collation "public.C" for encoding "UTF8" does not exist`, pos: 12},
		{sql: `select 'a' collate "C.UTF-8"`, code: sqlerr.UndefinedObject, msg: `collation "C.UTF-8" for encoding "UTF8" does not exist`, pos: 12},
		{sql: `select 'a' collate "en-x-icu"`, code: sqlerr.FeatureNotSupported, msg: `collation "en-x-icu" is an ICU collation, which sqlgate does not have`, pos: 12},
		{sql: `select 'a' collate "C" < 'b' collate "POSIX"`, code: sqlerr.CollationMismatch, msg: `collation mismatch between explicit collations "C" and "POSIX"`, pos: 30},
		{sql: `select upper('a' collate "C") || lower('b' collate "POSIX")`, code: sqlerr.CollationMismatch, msg: `collation mismatch between explicit collations "C" and "POSIX"`, pos: 44},
		{sql: `select a from ct order by a || b`, code: sqlerr.CollationMismatch, msg: `collation mismatch between implicit collations "C" and "POSIX"`, pos: 32},
		{sql: `select a || b from ct order by 1`, code: sqlerr.CollationMismatch, msg: `collation mismatch between implicit collations "C" and "POSIX"`, pos: 13},
		{sql: `select a || b, count(*) from ct group by 1`, code: sqlerr.CollationMismatch, msg: `collation mismatch between implicit collations "C" and "POSIX"`, pos: 13},
		{sql: `select distinct n, b || a from ct`, code: sqlerr.CollationMismatch, msg: `collation mismatch between implicit collations "POSIX" and "C"`, pos: 25},
	}
	for _, c := range cases {
		stmts, err := sql.NewParser().Parse(c.sql)
		if err == nil {
			_, err = binder.Bind(context.Background(), collCatalog(), stmts[0], nil)
		}
		if c.code == "" {
			if err != nil {
				t.Errorf("%s: %v", c.sql, err)
			}
			continue
		}
		e, ok := err.(*sqlerr.Error)
		if !ok || e.Code != c.code || e.Message != c.msg {
			t.Errorf("%s: got %v, want %s %s", c.sql, err, c.code, c.msg)
			continue
		}
		if pos := e.Position; pos != c.pos {
			t.Errorf("%s: position %d, want %d", c.sql, pos, c.pos)
		}
	}
}
