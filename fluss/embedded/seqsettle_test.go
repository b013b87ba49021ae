package embedded

import (
	"context"
	"slices"
	"strconv"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
)

// serialDesc is a table with columns k and v whose k draws from the
// sequence seq (a SERIAL column, as the binder records it); seq "" for a
// plain table.
func serialDesc(seq string) fluss.TableDescriptor {
	d := fluss.TableDescriptor{BucketCount: 1}
	d.Schema.Columns = intCols("k", "v")
	if seq != "" {
		fluss.SetTableMeta(&d, fluss.TableMeta{Columns: []fluss.ColumnMeta{{Default: "nextval('" + seq + "'::regclass)", Sequence: seq}, {}}})
	}
	return d
}

// ownedSeq is a sequence definition OWNED BY table.column.
func ownedSeq(table, column string) fluss.SequenceDef {
	d := seqDef(1, 1, 1, 1<<40, false)
	if table != "" {
		d.OwnedBy, d.OwnedColumn = path(table), column
	}
	return d
}

// TestSettleSequencesAfterCrash: each case leaves the state a crash
// between a table's catalog commit and its sequences' leaves (the engine's
// order: a SERIAL table's sequences before the table, a dropped table's
// after it, a rename's follow after the catalog's rename), reopens the
// store, and checks every sequence is owned by its table's column under
// the table's current name, or gone with its table.
func TestSettleSequencesAfterCrash(t *testing.T) {
	type owned struct{ seq, table, column string }
	for _, tc := range []struct {
		name string
		// crash builds the state on a fresh store.
		crash func(t *testing.T, s *Store)
		want  []owned // every sequence after the reopen, sorted by name
	}{
		{"create table: sequence made, table not", func(t *testing.T, s *Store) {
			mustSeq(t, s, "t_k_seq", ownedSeq("t", "k"))
		}, nil},
		{"create table: both made", func(t *testing.T, s *Store) {
			mustSeq(t, s, "t_k_seq", ownedSeq("t", "k"))
			createTable(t, s, "t", serialDesc("t_k_seq"))
		}, []owned{{"t_k_seq", "t", "k"}}},
		{"drop table: table dropped, sequence not", func(t *testing.T, s *Store) {
			mustSeq(t, s, "t_k_seq", ownedSeq("t", "k"))
			createTable(t, s, "t", serialDesc("t_k_seq"))
			mustDrop(t, s, "t")
		}, nil},
		{"drop table: OWNED BY sequence left", func(t *testing.T, s *Store) {
			createTable(t, s, "t", serialDesc(""))
			mustSeq(t, s, "s", ownedSeq("t", "v"))
			mustDrop(t, s, "t")
		}, nil},
		{"drop and create again: OWNED BY sequence of the old table", func(t *testing.T, s *Store) {
			createTable(t, s, "t", serialDesc(""))
			mustSeq(t, s, "s", ownedSeq("t", "v"))
			mustDrop(t, s, "t")
			createTable(t, s, "t", serialDesc(""))
		}, nil},
		{"rename: catalog renamed, SERIAL sequence not followed", func(t *testing.T, s *Store) {
			mustSeq(t, s, "t_k_seq", ownedSeq("t", "k"))
			createTable(t, s, "t", serialDesc("t_k_seq"))
			if _, err := s.renameTable(context.Background(), path("t"), path("t2")); err != nil {
				t.Fatal(err)
			}
		}, []owned{{"t_k_seq", "t2", "k"}}},
		{"rename: catalog renamed, OWNED BY sequence not followed", func(t *testing.T, s *Store) {
			createTable(t, s, "t", serialDesc(""))
			mustSeq(t, s, "s", ownedSeq("t", "v"))
			if _, err := s.renameTable(context.Background(), path("t"), path("t2")); err != nil {
				t.Fatal(err)
			}
		}, []owned{{"s", "t2", "v"}}},
		{"rename: whole", func(t *testing.T, s *Store) {
			mustSeq(t, s, "t_k_seq", ownedSeq("t", "k"))
			createTable(t, s, "t", serialDesc("t_k_seq"))
			mustSeq(t, s, "s", ownedSeq("t", "v"))
			if _, err := s.RenameTable(context.Background(), path("t"), path("t2")); err != nil {
				t.Fatal(err)
			}
		}, []owned{{"s", "t2", "v"}, {"t_k_seq", "t2", "k"}}},
		{"rewrite: OWNED BY sequence of the replaced table follows the new one", func(t *testing.T, s *Store) {
			createTable(t, s, "t", serialDesc(""))
			mustSeq(t, s, "s", ownedSeq("t", "v"))
			replaceWith(t, s, "t", serialDesc(""))
		}, []owned{{"s", "t", "v"}}},
		{"rewrite twice: the sequence follows both", func(t *testing.T, s *Store) {
			createTable(t, s, "t", serialDesc(""))
			mustSeq(t, s, "s", ownedSeq("t", "v"))
			replaceWith(t, s, "t", serialDesc(""))
			replaceWith(t, s, "t", serialDesc(""))
		}, []owned{{"s", "t", "v"}}},
		{"rewrite: crash before the sequences followed", func(t *testing.T, s *Store) {
			createTable(t, s, "t", serialDesc(""))
			mustSeq(t, s, "s", ownedSeq("t", "v"))
			old, err := s.GetTable(context.Background(), path("t"))
			if err != nil {
				t.Fatal(err)
			}
			replaceWith(t, s, "t", serialDesc(""))
			ownerBack(t, s, old.TableID)
		}, []owned{{"s", "t", "v"}}},
		{"truncate twice: the sequence follows both", func(t *testing.T, s *Store) {
			createTable(t, s, "t", serialDesc(""))
			mustSeq(t, s, "s", ownedSeq("t", "v"))
			for range 2 {
				if _, err := s.RecreateTable(context.Background(), path("t"), serialDesc("")); err != nil {
					t.Fatal(err)
				}
			}
		}, []owned{{"s", "t", "v"}}},
		{"a sequence nobody owns stays", func(t *testing.T, s *Store) {
			mustSeq(t, s, "free", ownedSeq("", ""))
		}, []owned{{"free", "", ""}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s := openStore(t, dir)
			tc.crash(t, s)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s = openStore(t, dir)
			defer s.Close()
			list, err := s.ListSequences(context.Background(), fluss.DefaultDatabase)
			if err != nil {
				t.Fatal(err)
			}
			var got []owned
			for _, q := range list {
				got = append(got, owned{q.Path.Table, q.Def.OwnedBy.Table, q.Def.OwnedColumn})
			}
			slices.SortFunc(got, func(a, b owned) int {
				if a.seq < b.seq {
					return -1
				}
				return 1
			})
			if !slices.Equal(got, tc.want) {
				t.Errorf("sequences after reopening: %v, want %v", got, tc.want)
			}
		})
	}
}

// TestRenameMovesOwnedSequences: without a crash, a renamed table keeps
// its sequences, so that dropping it under the new name drops them.
func TestRenameMovesOwnedSequences(t *testing.T) {
	s := openStore(t, t.TempDir())
	defer s.Close()
	ctx := context.Background()
	mustSeq(t, s, "t_k_seq", ownedSeq("t", "k"))
	createTable(t, s, "t", serialDesc("t_k_seq"))
	mustSeq(t, s, "s", ownedSeq("t", "v"))
	if _, err := s.RenameTable(ctx, path("t"), path("t2")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"t_k_seq", "s"} {
		q, err := s.GetSequence(ctx, path(name))
		if err != nil {
			t.Fatal(err)
		}
		if q.Def.OwnedBy != path("t2") {
			t.Errorf("%s is owned by %s after the rename, want %s", name, q.Def.OwnedBy, path("t2"))
		}
	}
}

func mustSeq(t *testing.T, s *Store, name string, def fluss.SequenceDef) {
	t.Helper()
	if _, err := s.CreateSequence(context.Background(), path(name), def, false); err != nil {
		t.Fatalf("CreateSequence %s: %v", name, err)
	}
}

func mustDrop(t *testing.T, s *Store, name string) {
	t.Helper()
	if err := s.DropTable(context.Background(), path(name), false); err != nil {
		t.Fatalf("DropTable %s: %v", name, err)
	}
}

// replaceWith replaces table's table by an empty one with desc, as ALTER
// TABLE's rewrite does (the new table names the ids it was rewritten from).
func replaceWith(t *testing.T, s *Store, table string, desc fluss.TableDescriptor) {
	t.Helper()
	ctx := context.Background()
	old, err := s.GetTable(ctx, path(table))
	if err != nil {
		t.Fatal(err)
	}
	desc.CustomProperties = map[string]string{fluss.RewrittenFromProperty: strconv.FormatInt(old.TableID, 10)}
	if prev := old.Descriptor.CustomProperties[fluss.RewrittenFromProperty]; prev != "" {
		desc.CustomProperties[fluss.RewrittenFromProperty] += "," + prev
	}
	st, err := s.StageReplacement(ctx, path(table), desc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Replace(ctx, nil); err != nil {
		t.Fatal(err)
	}
}

// ownerBack makes every owned sequence's table id id again: what a crash
// between a replacement's catalog write and followReplace leaves.
func ownerBack(t *testing.T, s *Store, id int64) {
	t.Helper()
	err := s.withSequences(context.Background(), func(q *seqStore) error {
		return s.updateSequences(q, func() {
			for i := range q.file.Sequences {
				if q.file.Sequences[i].OwnerID != 0 {
					q.file.Sequences[i].OwnerID = id
				}
			}
		})
	})
	if err != nil {
		t.Fatal(err)
	}
}
