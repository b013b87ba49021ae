package engine_test

import (
	"testing"
)

// TestIfExistsNotices: DROP ... IF EXISTS (and ALTER ... IF EXISTS) of a
// name that does not exist completes with PostgreSQL's NOTICE for each
// missing name, worded with the statement's kind of object, and drops the
// names that do exist.
func TestIfExistsNotices(t *testing.T) {
	s := newSession(t)
	if _, _, err := runNotices(t, s, "CREATE TABLE present (k INT PRIMARY KEY); CREATE VIEW pv AS SELECT k FROM present"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sql, tag string
		notices  []string
	}{
		{"DROP TABLE IF EXISTS gone_t", "DROP TABLE", []string{`table "gone_t" does not exist, skipping`}},
		{"DROP VIEW IF EXISTS gone_v, pv", "DROP VIEW", []string{`view "gone_v" does not exist, skipping`}},
		{"DROP TABLE IF EXISTS gone_a, present, gone_b", "DROP TABLE",
			[]string{`table "gone_a" does not exist, skipping`, `table "gone_b" does not exist, skipping`}},
		{"DROP SEQUENCE IF EXISTS gone_s", "DROP SEQUENCE", []string{`sequence "gone_s" does not exist, skipping`}},
		{"ALTER SEQUENCE IF EXISTS gone_s RESTART", "ALTER SEQUENCE", []string{`relation "gone_s" does not exist, skipping`}},
		{"DROP SCHEMA IF EXISTS gone_sc", "DROP SCHEMA", []string{`schema "gone_sc" does not exist, skipping`}},
		{"DROP ROLE IF EXISTS gone_r1, gone_r2", "DROP ROLE",
			[]string{`role "gone_r1" does not exist, skipping`, `role "gone_r2" does not exist, skipping`}},
		{"ALTER TABLE IF EXISTS gone_t ADD COLUMN c INT", "ALTER TABLE", []string{`relation "gone_t" does not exist, skipping`}},
	} {
		tag, notices, err := runNotices(t, s, tc.sql)
		if err != nil {
			t.Errorf("%s: %v", tc.sql, err)
			continue
		}
		if tag != tc.tag {
			t.Errorf("%s: tag %q, want %q", tc.sql, tag, tc.tag)
		}
		var got []string
		for _, n := range notices {
			if n.Severity != "NOTICE" || n.Code != "00000" {
				t.Errorf("%s: notice %q has severity %s code %s", tc.sql, n.Message, n.Severity, n.Code)
			}
			got = append(got, n.Message)
		}
		if len(got) != len(tc.notices) {
			t.Errorf("%s: notices %q, want %q", tc.sql, got, tc.notices)
			continue
		}
		for i := range got {
			if got[i] != tc.notices[i] {
				t.Errorf("%s: notice %q, want %q", tc.sql, got[i], tc.notices[i])
			}
		}
	}
	if _, _, err := runNotices(t, s, "SELECT * FROM present"); err == nil {
		t.Error("DROP TABLE IF EXISTS gone_a, present, gone_b left present behind")
	}
}

// TestIfNotExistsNotices: CREATE ... IF NOT EXISTS (and ADD COLUMN / ADD
// VALUE IF NOT EXISTS) that meets its object completes with PostgreSQL's
// NOTICE, under the SQLSTATE PostgreSQL gives it, and changes nothing.
func TestIfNotExistsNotices(t *testing.T) {
	s := newSession(t)
	if _, _, err := runNotices(t, s, "CREATE TABLE inx (k INT PRIMARY KEY, c TEXT); CREATE SEQUENCE inx_s; CREATE SCHEMA inx_sc; CREATE TYPE inx_e AS ENUM ('a')"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sql, tag, code, notice string
	}{
		{"CREATE TABLE IF NOT EXISTS inx (x INT)", "CREATE TABLE", "42P07", `relation "inx" already exists, skipping`},
		{"CREATE TABLE IF NOT EXISTS inx AS SELECT 1 AS x", "CREATE TABLE AS", "42P07", `relation "inx" already exists, skipping`},
		{"CREATE SEQUENCE IF NOT EXISTS inx_s", "CREATE SEQUENCE", "42P07", `relation "inx_s" already exists, skipping`},
		{"CREATE SCHEMA IF NOT EXISTS inx_sc", "CREATE SCHEMA", "42P06", `schema "inx_sc" already exists, skipping`},
		{"ALTER TABLE inx ADD COLUMN IF NOT EXISTS c TEXT", "ALTER TABLE", "42701", `column "c" of relation "inx" already exists, skipping`},
		{"ALTER TYPE inx_e ADD VALUE IF NOT EXISTS 'a'", "ALTER TYPE", "42710", `enum label "a" already exists, skipping`},
	} {
		tag, notices, err := runNotices(t, s, tc.sql)
		if err != nil {
			t.Errorf("%s: %v", tc.sql, err)
			continue
		}
		if tag != tc.tag {
			t.Errorf("%s: tag %q, want %q", tc.sql, tag, tc.tag)
		}
		if len(notices) != 1 || notices[0].Message != tc.notice || string(notices[0].Code) != tc.code || notices[0].Severity != "NOTICE" {
			t.Errorf("%s: notices %+v, want one %s %q", tc.sql, notices, tc.code, tc.notice)
		}
	}
	// a new object: no notice
	if _, notices, err := runNotices(t, s, "CREATE TABLE IF NOT EXISTS inx2 (x INT)"); err != nil || len(notices) != 0 {
		t.Errorf("CREATE TABLE IF NOT EXISTS of a new table: %v %v", notices, err)
	}
}
