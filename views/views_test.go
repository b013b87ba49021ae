package views

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

func path(name string) fluss.TablePath {
	return fluss.TablePath{Database: fluss.DefaultDatabase, Table: name}
}

func view(name, def string, uses []Relation, cols ...Column) View {
	return View{Path: path(name), Definition: def, Columns: cols, Uses: uses}
}

func TestCreateReplaceRule(t *testing.T) {
	s, _ := Open("")
	id := Column{Name: "id", Type: types.Int32Type}
	name := Column{Name: "name", Type: types.StringType}
	v, err := s.Create(view("v", "SELECT id, name FROM t", nil, id, name), false)
	if err != nil || v.ID != 1 {
		t.Fatalf("create: %v %v", v, err)
	}
	cases := []struct {
		cols []Column
		code sqlerr.Code
		msg  string
	}{
		{[]Column{id}, sqlerr.InvalidTableDefinition, "cannot drop columns from view"},
		{[]Column{name, id}, sqlerr.InvalidTableDefinition, `cannot change name of view column "id" to "name"`},
		{[]Column{{Name: "id", Type: types.Int64Type}, name}, sqlerr.InvalidTableDefinition, `cannot change data type of view column "id" from integer to bigint`},
		{[]Column{id, name, {Name: "extra", Type: types.BoolType}}, "", ""},
	}
	for _, c := range cases {
		got, err := s.Create(view("v", "SELECT ...", nil, c.cols...), true)
		if c.code == "" {
			if err != nil || got.ID != 1 {
				t.Errorf("append a column: %v %v", got, err)
			}
			continue
		}
		if sqlerr.CodeOf(err) != c.code || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%v: %v, want %s %q", c.cols, err, c.code, c.msg)
		}
	}
	if _, err := s.Create(view("v", "SELECT 1", nil, id), false); sqlerr.CodeOf(err) != sqlerr.DuplicateTable {
		t.Errorf("create over an existing view: %v", err)
	}
	if err := s.Drop(path("nope")); sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		t.Errorf("drop missing: %v", err)
	}
}

func TestPersistsAndListsDependents(t *testing.T) {
	file := filepath.Join(t.TempDir(), "views.json")
	s, err := Open(file)
	if err != nil {
		t.Fatal(err)
	}
	col := Column{Name: "a", Type: types.T{Kind: types.Decimal, Precision: 10, Scale: 2}}
	tbl := Relation{Path: path("t"), TableID: 7}
	for _, v := range []View{
		view("z_first", "SELECT a FROM t", []Relation{tbl}, col),
		view("a_second", "SELECT a FROM z_first", []Relation{{Path: path("z_first"), ViewID: 1}}, col),
		view("m_third", "SELECT a FROM t", []Relation{tbl}, col),
	} {
		if _, err := s.Create(v, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Drop(path("m_third")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Create(view("m_third", "SELECT a FROM t", []Relation{tbl}, col), false); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode: %v %v", fi, err)
	}
	re, err := Open(file)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, v := range re.List(fluss.DefaultDatabase) {
		names = append(names, v.Path.Table)
	}
	if strings.Join(names, ",") != "a_second,m_third,z_first" {
		t.Errorf("list after reopen: %v", names)
	}
	v, ok := re.Get(path("z_first"))
	if !ok || v.ID != 1 || v.Definition != "SELECT a FROM t" || !v.Columns[0].Type.Equal(col.Type) {
		t.Errorf("reopened view: %+v", v)
	}
	// ids are never reused: the re-created view got a new one
	if v, _ := re.Get(path("m_third")); v.ID != 4 {
		t.Errorf("re-created view id %d, want 4", v.ID)
	}
	if nv, _ := re.Create(view("n", "SELECT 1", nil), false); nv.ID != 5 {
		t.Errorf("next id after reopen: %d", nv.ID)
	}
	// dependents in creation order, as PostgreSQL lists them
	var deps []string
	for _, d := range re.Dependents(path("t")) {
		deps = append(deps, d.Path.Table)
	}
	if strings.Join(deps, ",") != "z_first,m_third" {
		t.Errorf("dependents of t: %v", deps)
	}
	if d := re.Dependents(path("z_first")); len(d) != 1 || d[0].Path.Table != "a_second" {
		t.Errorf("dependents of z_first: %v", d)
	}
}

func TestOpenRefusesMisreadTypes(t *testing.T) {
	file := filepath.Join(t.TempDir(), "views.json")
	s, _ := Open(file)
	if _, err := s.Create(view("v", "SELECT 1", nil, Column{Name: "a", Type: types.Int32Type}), false); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(file)
	if err := os.WriteFile(file, []byte(strings.Replace(string(b), `"type_text": "int"`, `"type_text": "bigint"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(file); err == nil || !strings.Contains(err.Error(), "reads back as") {
		t.Errorf("open with a changed type: %v", err)
	}
	if err := os.WriteFile(file, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(file); err == nil {
		t.Error("open of a torn file succeeded")
	}
}

// TestEnumColumnsReadBack: a view column of an enum type (alone, in an
// array) is stored without the registry that names it, and a file of an
// earlier version, which printed the enum by name, still opens; a
// changed kind around the enum is still refused.
func TestEnumColumnsReadBack(t *testing.T) {
	reg := types.NewRegistry()
	mood := &types.EnumType{OID: 70001, Name: "mood", Schema: "app", Labels: []string{"sad", "ok"}}
	reg.PublishEnums([]*types.EnumType{mood}, nil)
	enum := mood.T()
	arr := types.T{Kind: types.Array, Elem: &enum}
	file := filepath.Join(t.TempDir(), "views.json")
	s, _ := Open(file)
	if _, err := s.Create(view("v", "SELECT 1", nil, Column{Name: "m", Type: enum}, Column{Name: "ms", Type: arr}), false); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(file); err != nil {
		t.Fatalf("open of a view with enum columns: %v", err)
	}
	b, _ := os.ReadFile(file)
	for _, c := range []struct {
		name, from, to string
		opens          bool
	}{
		{"enum by name", `"type_text": "enum(70001)"`, `"type_text": "app.mood"`, true},
		{"array of an enum by name", `"type_text": "array\u003cenum(70001)\u003e"`, `"type_text": "array\u003capp.mood\u003e"`, true},
		{"enum read as an array", `"type_text": "enum(70001)"`, `"type_text": "array\u003capp.mood\u003e"`, false},
		{"array read as an enum", `"type_text": "array\u003cenum(70001)\u003e"`, `"type_text": "app.mood"`, false},
	} {
		text := string(b)
		if !strings.Contains(text, c.from) {
			t.Fatalf("%s: the file lacks %s:\n%s", c.name, c.from, text)
		}
		if err := os.WriteFile(file, []byte(strings.Replace(text, c.from, c.to, 1)), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(file); (err == nil) != c.opens {
			t.Errorf("%s: open: %v, want opened %v", c.name, err, c.opens)
		}
	}
}
