package embedded

import (
	"context"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// rowsOf renders a record's rows as "a,b,NULL" strings, sorted.
func rowsOf(rec arrow.RecordBatch) []string {
	if rec == nil {
		return nil
	}
	var out []string
	for i := 0; i < int(rec.NumRows()); i++ {
		s := ""
		for c := 0; c < int(rec.NumCols()); c++ {
			if c > 0 {
				s += ","
			}
			col := rec.Column(c).(*array.Int32)
			if col.IsNull(i) {
				s += "NULL"
			} else {
				s += string(rune('0' + col.Value(i)))
			}
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// TestAlterAddColumn: rows written before ADD COLUMN (stored values of a
// primary-key table, log batches of a log table, and both kinds' changelog)
// read NULL in the new column, rows written after carry it, through scans,
// lookups and a reopen of the store; the schema id grows by one per change.
func TestAlterAddColumn(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openStore(t, dir)
	for _, pk := range []bool{true, false} {
		name := "log_t"
		d := fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "a")}, BucketCount: 2}
		if pk {
			name = "pk_t"
			d.Schema.PrimaryKey = []string{"k"}
		}
		tb := createTable(t, s, name, d)
		write := func(tb fluss.Table, rec arrow.RecordBatch) { writeRows(t, tb, pk, rec) } // helpers_test.go
		write(tb, intRecord([]string{"k", "a"}, []int32{1, 1}, []int32{2, 2}))
		info, err := s.AlterTable(ctx, path(name), []fluss.TableChange{{Kind: fluss.ChangeAddColumn, Column: fluss.Column{Name: "b", Type: types.Int32Type}}})
		if err != nil {
			t.Fatal(err)
		}
		if info.SchemaID != 2 || len(info.Descriptor.Schema.Columns) != 3 {
			t.Fatalf("%s: schema %d with %d columns", name, info.SchemaID, len(info.Descriptor.Schema.Columns))
		}
		// the old handle is retired
		rec := intRecord([]string{"k", "a"}, []int32{3, 3})
		if _, err := tb.Append(ctx, rec); err == nil && !pk {
			t.Fatalf("%s: a write through a retired handle succeeded", name)
		}
		rec.Release()
		tb2, err := s.Table(ctx, path(name))
		if err != nil {
			t.Fatal(err)
		}
		write(tb2, intRecord([]string{"k", "a", "b"}, []int32{4, 4, 4}))
		want := []string{"1,1,NULL", "2,2,NULL", "4,4,4"}
		check := func(tb fluss.Table, when string) {
			t.Helper()
			got, _ := scanAll(t, tb, fluss.ScanOptions{})
			if r := rowsOf(got); !slices.Equal(r, want) {
				t.Fatalf("%s %s: scan %v, want %v", name, when, r, want)
			}
			got.Release()
			proj, _ := scanAll(t, tb, fluss.ScanOptions{Projection: []int{2, 0}})
			if r := rowsOf(proj); !slices.Equal(r, []string{"4,4", "NULL,1", "NULL,2"}) {
				t.Fatalf("%s %s: projected scan %v", name, when, r)
			}
			proj.Release()
			if pk {
				keys := intRecord([]string{"k"}, []int32{1}, []int32{4})
				defer keys.Release()
				got, err := tb.Lookup(ctx, keys, nil)
				if err != nil {
					t.Fatal(err)
				}
				if r := rowsOf(got); !slices.Equal(r, []string{"1,1,NULL", "4,4,4"}) {
					t.Fatalf("%s %s: lookup %v", name, when, r)
				}
				got.Release()
			}
			cl := tb.(fluss.ChangelogScanner)
			r, err := cl.ScanChangelog(ctx, fluss.ScanOptions{Projection: []int{3, 5}})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for {
				b, err := r.Next(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if b == nil {
					break
				}
				n += int(b.NumRows())
				b.Release()
			}
			r.Close()
			if n != 3 {
				t.Fatalf("%s %s: %d changelog rows, want 3", name, when, n)
			}
		}
		check(tb2, "after ALTER")
		// a second change: a property, then another column
		if _, err := s.AlterTable(ctx, path(name), []fluss.TableChange{{Kind: fluss.ChangeSetProperty, Key: "owner.team", Value: "x"}}); err != nil {
			t.Fatal(err)
		}
		_, err = s.AlterTable(ctx, path(name), []fluss.TableChange{{Kind: fluss.ChangeAddColumn, Column: fluss.Column{Name: "a", Type: types.Int32Type}}})
		if sqlerr.CodeOf(err) != sqlerr.DuplicateColumn {
			t.Fatalf("%s: ADD COLUMN of an existing name: %v", name, err)
		}
		_, err = s.AlterTable(ctx, path(name), []fluss.TableChange{{Kind: fluss.ChangeSetProperty, Key: "bucket.num", Value: "8"}})
		if sqlerr.CodeOf(err) != sqlerr.FeatureNotSupported {
			t.Fatalf("%s: SET bucket.num: %v", name, err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openStore(t, dir)
	defer s.Close()
	for _, name := range []string{"pk_t", "log_t"} {
		tb, err := s.Table(ctx, path(name))
		if err != nil {
			t.Fatal(err)
		}
		if info := tb.Info(); info.SchemaID != 2 || info.Descriptor.Properties["owner.team"] != "x" {
			t.Fatalf("%s after reopen: schema %d, properties %v", name, info.SchemaID, info.Descriptor.Properties)
		}
		got, _ := scanAll(t, tb, fluss.ScanOptions{})
		if r := rowsOf(got); !slices.Equal(r, []string{"1,1,NULL", "2,2,NULL", "4,4,4"}) {
			t.Fatalf("%s after reopen: %v", name, r)
		}
		got.Release()
	}
}

// TestDatabases: CREATE / DROP of databases, RESTRICT refusing one that
// holds tables, CASCADE dropping them, tables refused in a missing
// database, and all of it surviving a reopen.
func TestDatabases(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openStore(t, dir)
	desc := fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k")}}
	if _, err := s.CreateTable(ctx, fluss.TablePath{Database: "s1", Table: "t"}, desc, false); sqlerr.CodeOf(err) != sqlerr.InvalidSchemaName {
		t.Fatalf("table in a missing database: %v", err)
	}
	for _, db := range []string{"s1", "s2"} {
		if err := s.CreateDatabase(ctx, db, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateDatabase(ctx, "s1", false); sqlerr.CodeOf(err) != sqlerr.DuplicateSchema {
		t.Fatalf("duplicate: %v", err)
	}
	if err := s.CreateDatabase(ctx, "s1", true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateTable(ctx, fluss.TablePath{Database: "s1", Table: "t"}, desc, false); err != nil {
		t.Fatal(err)
	}
	if err := s.DropDatabase(ctx, "s1", false, false); sqlerr.CodeOf(err) != sqlerr.DependentObjectsStillExist {
		t.Fatalf("RESTRICT of a database with a table: %v", err)
	}
	if err := s.DropDatabase(ctx, "nope", false, false); sqlerr.CodeOf(err) != sqlerr.InvalidSchemaName {
		t.Fatalf("missing: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openStore(t, dir)
	defer s.Close()
	dbs, _ := s.ListDatabases(ctx)
	if !slices.Equal(dbs, []string{"public", "s1", "s2"}) {
		t.Fatalf("after reopen: %v", dbs)
	}
	if err := s.DropDatabase(ctx, "s1", false, true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetTable(ctx, fluss.TablePath{Database: "s1", Table: "t"}); sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		t.Fatalf("table of a dropped database: %v", err)
	}
	dbs, _ = s.ListDatabases(ctx)
	if !slices.Equal(dbs, []string{"public", "s2"}) {
		t.Fatalf("after drop: %v", dbs)
	}
}
