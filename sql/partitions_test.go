package sql

import (
	"slices"
	"testing"
)

func TestParsePartitionedBy(t *testing.T) {
	sts, err := NewParser().Parse(`CREATE TABLE t (dt STRING, "Id" INT, v INT) PARTITIONED BY (dt, "Id") WITH ('bucket.num' = '2')`)
	if err != nil {
		t.Fatal(err)
	}
	st := sts[0]
	if !slices.Equal(st.PartitionKeys, []string{"dt", "Id"}) || st.Properties["bucket.num"] != "2" {
		t.Fatalf("partition keys %v, properties %v", st.PartitionKeys, st.Properties)
	}
	for _, bad := range []string{
		`CREATE TABLE t (dt STRING) PARTITIONED BY ()`,
		`CREATE TABLE t (dt STRING) PARTITIONED BY (dt`,
		`CREATE TABLE t (dt STRING) PARTITIONED BY (1)`,
	} {
		if _, err := NewParser().Parse(bad); err == nil {
			t.Errorf("%s parsed", bad)
		}
	}
}

func TestParsePartitionActions(t *testing.T) {
	for _, c := range []struct {
		q      string
		kind   AlterKind
		ifFlag bool
		spec   [][2]string
	}{
		{`ALTER TABLE t ADD PARTITION (dt = '20240101')`, AlterAddPartition, false, [][2]string{{"dt", "20240101"}}},
		{`ALTER TABLE t ADD IF NOT EXISTS PARTITION (a = 'x', b = 2)`, AlterAddPartition, true, [][2]string{{"a", "x"}, {"b", "2"}}},
		{`ALTER TABLE t DROP PARTITION (dt = '20240101')`, AlterDropPartition, false, [][2]string{{"dt", "20240101"}}},
		{`ALTER TABLE t DROP IF EXISTS PARTITION (dt = '20240101')`, AlterDropPartition, true, [][2]string{{"dt", "20240101"}}},
	} {
		sts, err := NewParser().Parse(c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		a := sts[0].DDL.Actions[0]
		if a.Kind != c.kind || a.IfNotExists != c.ifFlag || !slices.Equal(a.Props, c.spec) {
			t.Errorf("%s: %+v", c.q, a)
		}
	}
	// ADD COLUMN and DROP COLUMN keep their meaning.
	sts, err := NewParser().Parse(`ALTER TABLE t ADD COLUMN partition_no INT, DROP COLUMN x`)
	if err != nil {
		t.Fatal(err)
	}
	if a := sts[0].DDL.Actions; a[0].Kind != AlterAddColumn || a[1].Kind != AlterDropColumn || a[1].Column != "x" {
		t.Fatalf("actions %+v", a)
	}
	if _, err := NewParser().Parse(`ALTER TABLE t ADD PARTITION dt = 'x'`); err == nil {
		t.Error("ADD PARTITION without parentheses parsed")
	}
}
