package engine

import (
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// TestShowCreateTablePartitioned: SHOW CREATE TABLE of a partitioned table
// says PARTITIONED BY, in the place Fluss's Flink SQL has it, so that the
// statement run again creates the same table.
func TestShowCreateTablePartitioned(t *testing.T) {
	info := fluss.TableInfo{Path: fluss.TablePath{Database: "public", Table: "ev"}, Descriptor: fluss.TableDescriptor{
		Schema:        fluss.Schema{Columns: []fluss.Column{{Name: "dt", Type: types.StringType}, {Name: "Id", Type: types.Int32Type}}},
		PartitionKeys: []string{"dt", "Id"}, BucketCount: 2}}
	got := showCreateTable(info)
	if want := `) PARTITIONED BY (dt, "Id") WITH ('bucket.num' = '2');`; !strings.Contains(got, want) {
		t.Fatalf("got %s\nwant it to contain %s", got, want)
	}
	info.Descriptor.PartitionKeys = nil
	if got := showCreateTable(info); strings.Contains(got, "PARTITIONED") {
		t.Fatalf("a table that is not partitioned: %s", got)
	}
}

// TestPartitionValues orders ADD / DROP PARTITION's spec by the table's
// partition keys and refuses a spec that does not name each once.
func TestPartitionValues(t *testing.T) {
	info := fluss.TableInfo{Path: fluss.TablePath{Table: "m"}, Descriptor: fluss.TableDescriptor{PartitionKeys: []string{"a", "b"}}}
	got, err := partitionValues(info, [][2]string{{"b", "2"}, {"a", "1"}})
	if err != nil || strings.Join(got, ",") != "1,2" {
		t.Fatalf("got %v, %v", got, err)
	}
	for _, spec := range [][][2]string{{{"a", "1"}}, {{"a", "1"}, {"c", "2"}}, {{"a", "1"}, {"b", "2"}, {"c", "3"}}} {
		if _, err := partitionValues(info, spec); sqlerr.CodeOf(err) != sqlerr.InvalidParameterValue {
			t.Errorf("spec %v: %v", spec, err)
		}
	}
}
