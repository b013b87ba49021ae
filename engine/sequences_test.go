package engine_test

import (
	"context"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// storeWithoutSequences hides the embedded store's sequences, as a Fluss
// cluster's store has none.
type storeWithoutSequences struct{ fluss.Store }

// TestSequencesRefusedWithoutSequenceStore: on a store that keeps no
// sequences (a Fluss cluster), sequence DDL and SERIAL / identity columns
// are refused with 0A000 and create nothing; defaults and CHECK
// constraints, kept in the table's metadata, still work.
func TestSequencesRefusedWithoutSequenceStore(t *testing.T) {
	store, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	s, err := engine.New(storeWithoutSequences{store}, engine.Options{}).NewSession(context.Background(), pgwire.SessionInfo{User: "u"})
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		"CREATE SEQUENCE s",
		"CREATE TABLE t (id SERIAL PRIMARY KEY)",
		"CREATE TABLE t (id INT GENERATED ALWAYS AS IDENTITY)",
	} {
		if _, _, err := run(t, s, stmt); sqlerr.CodeOf(err) != sqlerr.FeatureNotSupported {
			t.Errorf("%s: %v, want 0A000", stmt, err)
		}
	}
	if _, err := store.GetTable(context.Background(), fluss.TablePath{Database: fluss.DefaultDatabase, Table: "t"}); sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		t.Errorf("a refused SERIAL table was created: %v", err)
	}
	if _, _, err := run(t, s, "CREATE TABLE d (id INT, n INT DEFAULT 7 CHECK (n > 0)); INSERT INTO d (id) VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	lines, _, err := run(t, s, "SELECT n FROM d")
	if err != nil || len(lines) != 1 || lines[0] != "7" {
		t.Errorf("default: %v %v", lines, err)
	}
	if _, _, err := run(t, s, "INSERT INTO d VALUES (2, -1)"); sqlerr.CodeOf(err) != "23514" {
		t.Errorf("check: %v", err)
	}
}
