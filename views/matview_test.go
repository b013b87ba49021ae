package views

import (
	"path/filepath"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

func TestMatviewSwitchPersists(t *testing.T) {
	file := filepath.Join(t.TempDir(), "views.json")
	s, err := Open(file)
	if err != nil {
		t.Fatal(err)
	}
	first := path(BackingName(0, 1))
	mv := view("mv", "SELECT a FROM t", nil, Column{Name: "a", Type: types.Int32Type})
	mv.Matview = &Matview{Backing: first}
	if _, err := s.Create(mv, false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Create(view("plain", "SELECT 1", nil), false); err != nil {
		t.Fatal(err)
	}
	second := path(BackingName(1, 2))
	if _, err := s.SetMatview(path("mv"), Matview{Backing: second, Previous: first, Indexes: []Index{{Name: "i", Unique: true, Columns: []string{"a"}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetMatview(path("plain"), Matview{}); sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		t.Errorf("SetMatview of a plain view: %v", err)
	}

	r, err := Open(file)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := r.Get(path("mv"))
	cases := []struct {
		name string
		ok   bool
	}{
		{"reopened", ok},
		{"materialized", got.Materialized()},
		{"populated", got.Populated()},
		{"current rows", got.Matview.Backing == second},
		{"previous rows", got.Matview.Previous == first},
		{"unique index", len(got.Matview.Indexes) == 1 && got.Matview.Indexes[0].Unique},
		{"backing names", IsBacking(first.Table) && !IsBacking("mv")},
		{"held tables", len(r.BackingTables()) == 2 && r.BackingTables()[first] && r.BackingTables()[second]},
	}
	for _, c := range cases {
		if !c.ok {
			t.Errorf("%s: %+v", c.name, got)
		}
	}
	plain, _ := r.Get(path("plain"))
	if plain.Materialized() || plain.Populated() {
		t.Errorf("a plain view reads as materialized: %+v", plain)
	}
	unpopulated := got
	unpopulated.Matview = &Matview{}
	if unpopulated.Populated() {
		t.Error("a materialized view without rows reads as populated")
	}
	renamed := got
	renamed.Columns = []Column{{Name: "b", Type: types.Int32Type}}
	if err := r.Replace(renamed); err != nil {
		t.Fatal(err)
	}
	if v, _ := r.Get(path("mv")); v.Columns[0].Name != "b" || v.Matview.Backing != second {
		t.Errorf("after Replace: %+v", v)
	}
	if err := r.Replace(View{ID: 99, Path: fluss.TablePath{Database: fluss.DefaultDatabase, Table: "mv"}}); sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		t.Errorf("Replace of another id: %v", err)
	}
	if again, err := Open(file); err != nil {
		t.Errorf("reopened after Replace: %v", err)
	} else if v, _ := again.Get(path("mv")); v.Columns[0].Name != "b" {
		t.Errorf("reopened after Replace: %+v", v)
	}
}
