package fluss

import (
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/sqlgate/sqlgate/types"
)

// TestForeignKeyMetadataRoundTrips: a table's foreign keys written by
// SetTableMeta read back by MetaOf as they were, numbered as FKeyNumbers
// says; keys of a broken one (a column the table lacks, a missing
// field) are dropped, not an error.
func TestForeignKeyMetadataRoundTrips(t *testing.T) {
	cols := []Column{{Name: "id", Type: types.Int32Type}, {Name: "a", Type: types.Int32Type}, {Name: "b", Type: types.StringType}}
	cases := []struct {
		name string
		fks  []ForeignKey
	}{
		{"none", nil},
		{"one", []ForeignKey{{Name: "c_a_fkey", Columns: []int{1}, RefTable: TablePath{Database: "public", Table: "p"}, RefColumns: []int{0},
			Match: 's', OnDelete: 'a', OnUpdate: 'a'}}},
		{"every field", []ForeignKey{
			{Name: "k1", Columns: []int{1, 2}, RefTable: TablePath{Database: "s", Table: "p"}, RefColumns: []int{1, 0}, Match: 'f',
				OnDelete: 'n', OnUpdate: 'c', DeleteSetColumns: []int{2}, Deferrable: true, Deferred: true, NotValid: true},
			{Name: "k2", Columns: []int{0}, RefTable: TablePath{Database: "public", Table: "c"}, RefColumns: []int{0}, Match: 's', OnDelete: 'd', OnUpdate: 'r'},
		}},
	}
	for _, c := range cases {
		d := TableDescriptor{Schema: Schema{Columns: cols}}
		m := MetaOf(d)
		m.ForeignKeys = c.fks
		SetTableMeta(&d, m)
		if got := MetaOf(d).ForeignKeys; !reflect.DeepEqual(got, c.fks) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.fks)
		}
		if n := FKeyNumbers(d); len(n) != len(c.fks) {
			t.Errorf("%s: FKeyNumbers %v for %d keys", c.name, n, len(c.fks))
		}
	}
	// a key naming column 9 of a three-column table is dropped
	d := TableDescriptor{Schema: Schema{Columns: cols}, CustomProperties: FKeyProperties(1, ForeignKey{Name: "bad", Columns: []int{8},
		RefTable: TablePath{Database: "public", Table: "p"}, RefColumns: []int{0}, Match: 's', OnDelete: 'a', OnUpdate: 'a'})}
	if got := MetaOf(d).ForeignKeys; len(got) != 0 {
		t.Errorf("a key on a missing column read back: %+v", got)
	}
	// beside a complete key numbered 2, the numbers stay aligned with
	// MetaOf's keys, and a new key is numbered above both
	maps.Copy(d.CustomProperties, FKeyProperties(2, ForeignKey{Name: "good", Columns: []int{1},
		RefTable: TablePath{Database: "public", Table: "p"}, RefColumns: []int{0}, Match: 's', OnDelete: 'a', OnUpdate: 'a'}))
	if got, n := MetaOf(d).ForeignKeys, FKeyNumbers(d); len(got) != 1 || got[0].Name != "good" || !slices.Equal(n, []int{2}) {
		t.Errorf("keys %+v numbered %v, want good numbered 2", got, n)
	}
	if n := NextFKeyNumber(d); n != 3 {
		t.Errorf("NextFKeyNumber = %d, want 3", n)
	}
}
