package fluss

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// UniqueConstraint is a table's UNIQUE constraint beyond its primary key
// (or a unique index CREATE UNIQUE INDEX made), kept under the keys
// sqlgate.unique.K.field (UniqueProperties): its columns by their 1-based
// positions, which survive a rename. sqlgate enforces it through a hidden
// index table of the same store (IndexTablePath, engine/unique*.go); the
// table itself stays an ordinary Fluss table, whose other clients (Flink,
// pyfluss) see no constraint.
type UniqueConstraint struct {
	Name string
	// Columns are the constrained columns' indexes (0-based), in the
	// constraint's order.
	Columns []int
	// Index marks a unique index made by CREATE UNIQUE INDEX, which
	// PostgreSQL lists in pg_index but not in pg_constraint.
	Index bool
	// ID is the number the index table's name carries (IndexTablePath):
	// fixed when the constraint is made, so that a rename of the table,
	// its columns or the constraint moves nothing.
	ID int
}

const metaUniquePrefix = MetaPrefix + "unique."

// UniqueProperties are the metadata keys and values of unique constraint
// u numbered k (1-based).
func UniqueProperties(k int, u UniqueConstraint) map[string]string {
	p := fmt.Sprintf("%s%d.", metaUniquePrefix, k)
	props := map[string]string{p + "name": u.Name, p + "cols": positions(u.Columns), p + "id": strconv.Itoa(u.ID)}
	if u.Index {
		props[p+"index"] = "t"
	}
	return props
}

// readUniqueKey reads one "K.field" key of a unique constraint.
func readUniqueKey(us map[int]*UniqueConstraint, key, v string) {
	n, field, ok := metaKey(key)
	if !ok {
		return
	}
	u := us[n]
	if u == nil {
		u = &UniqueConstraint{}
		us[n] = u
	}
	switch field {
	case "name":
		u.Name = v
	case "cols":
		u.Columns = parsePositions(v)
	case "id":
		u.ID, _ = strconv.Atoi(v)
	case "index":
		u.Index = v == "t"
	}
}

// sortedUniques are the complete constraints of us, in key order.
func sortedUniques(us map[int]*UniqueConstraint, ncols int) []UniqueConstraint {
	var out []UniqueConstraint
	for _, n := range slices.Sorted(maps.Keys(us)) {
		u := us[n]
		if u.Name != "" && len(u.Columns) > 0 && u.ID > 0 && !slices.ContainsFunc(u.Columns, func(c int) bool { return c >= ncols }) {
			out = append(out, *u)
		}
	}
	return out
}

// indexTablePrefix starts the name of every index table: a name
// ListTables of the embedded store leaves out (IsIndexTable).
const indexTablePrefix = "sqlgate$unique$"

// IndexTablePath is the hidden table that indexes unique constraint id of
// the table with tableID: in the default database, named by the ids, so
// that renaming the table or moving it to another schema moves nothing.
// Its primary key is the constraint's columns; its other columns the
// table's primary key, the row that holds the value.
func IndexTablePath(tableID int64, id int) TablePath {
	return TablePath{Database: DefaultDatabase, Table: fmt.Sprintf("%s%d$%d", indexTablePrefix, tableID, id)}
}

// IsIndexTable reports whether name is an index table's (IndexTablePath):
// sqlgate's metadata, which no catalog lists.
func IsIndexTable(name string) bool { return strings.HasPrefix(name, indexTablePrefix) }

// IndexTableOf reads the name of an index table (IndexTablePath): the
// ids of its table and of its constraint (ok false for another name).
func IndexTableOf(name string) (tableID int64, id int, ok bool) {
	rest, found := strings.CutPrefix(name, indexTablePrefix)
	if !found {
		return 0, 0, false
	}
	t, c, found := strings.Cut(rest, "$")
	tid, err1 := strconv.ParseInt(t, 10, 64)
	cid, err2 := strconv.Atoi(c)
	if !found || err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return tid, cid, true
}

// IndexTableLister is a store that lists its index tables, which
// ListTables leaves out: what the startup sweep of the index tables no
// constraint names any more (a crash between a DDL statement's steps)
// reads.
type IndexTableLister interface {
	ListIndexTables(ctx context.Context) ([]TablePath, error)
}

// NextUniqueID is the ID for a new unique constraint of m: above every
// one its constraints use.
func NextUniqueID(m TableMeta) int {
	n := 1
	for _, u := range m.Uniques {
		n = max(n, u.ID+1)
	}
	return n
}

// ReferencedUnique is the unique constraint of info's table whose columns
// fk references, in any order (ok false: fk references the primary key,
// whose columns are tried first, or no constraint has its columns).
func ReferencedUnique(info TableInfo, fk ForeignKey) (UniqueConstraint, bool) {
	sameCols := func(cols []int) bool {
		return len(cols) == len(fk.RefColumns) && !slices.ContainsFunc(fk.RefColumns, func(c int) bool { return !slices.Contains(cols, c) })
	}
	var pk []int
	for _, n := range info.Descriptor.Schema.PrimaryKey {
		pk = append(pk, info.ColumnIndex(n))
	}
	if sameCols(pk) {
		return UniqueConstraint{}, false
	}
	for _, u := range MetaOf(info.Descriptor).Uniques {
		if sameCols(u.Columns) {
			return u, true
		}
	}
	return UniqueConstraint{}, false
}
