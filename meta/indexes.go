package meta

import (
	"encoding/json"
	"maps"
	"strconv"
)

// Index is an index CREATE INDEX made that is not unique (a unique one is
// its table's constraint, in the table's properties): one row
// "index/<oid>". The store keeps no secondary index, so it is catalog
// only: what PostgreSQL's pg_class, pg_index and pg_indexes would hold,
// kept as written and shown as PostgreSQL prints it (pgcatalog). It names
// its table by id, which a rename or SET SCHEMA keeps, and its columns by
// name, which ALTER TABLE ... RENAME COLUMN rewrites with the expressions.
type Index struct {
	OID     uint32 `json:"oid"`
	TableID int64  `json:"table"`
	Name    string `json:"name"`
	// Method is USING's access method, lower case ("btree" when not
	// written).
	Method string     `json:"method"`
	Keys   []IndexKey `json:"keys"`
	// Include are INCLUDE's columns.
	Include []string `json:"include,omitempty"`
	// Options are WITH's storage parameters, name=value as
	// pg_class.reloptions lists them.
	Options []string `json:"options,omitempty"`
	// Where is the predicate's text as written ("" none).
	Where            string `json:"where,omitempty"`
	NullsNotDistinct bool   `json:"nulls_not_distinct,omitempty"`
}

// IndexKey is one key column of an Index: a column (Column) or an
// expression (Expr, its text as written), with what was written after it.
type IndexKey struct {
	Column    string `json:"column,omitempty"`
	Expr      string `json:"expr,omitempty"`
	Collation string `json:"collation,omitempty"`
	// Opclass is the operator class as written ("" the type's default).
	Opclass    string `json:"opclass,omitempty"`
	Desc       bool   `json:"desc,omitempty"`
	NullsFirst bool   `json:"nulls_first,omitempty"`
}

// Indexes is the current indexes by OID (read them; change them through
// Update's Tx.Indexes).
func (m *Store) Indexes() map[uint32]Index { return m.cur.Load().indexes }

// NextIndexOID is the OID a new index takes among indexes: one past the
// largest, from base (OIDs of dropped indexes are not reused while a
// larger one lives).
func NextIndexOID(indexes map[uint32]Index, base uint32) uint32 {
	next := base
	for oid := range indexes {
		next = max(next, oid+1)
	}
	return next
}

func encodeIndexes(rows map[string]string, ixs map[uint32]Index) error {
	for oid, ix := range ixs {
		b, err := json.Marshal(ix)
		if err != nil {
			return err
		}
		rows[keyIndex+strconv.FormatUint(uint64(oid), 10)] = string(b)
	}
	return nil
}

func decodeIndex(st *state, v string) error {
	var ix Index
	if err := json.Unmarshal([]byte(v), &ix); err != nil {
		return err
	}
	if st.indexes == nil {
		st.indexes = map[uint32]Index{}
	}
	st.indexes[ix.OID] = ix
	return nil
}

func cloneIndexes(m map[uint32]Index) map[uint32]Index {
	out := maps.Clone(m)
	if out == nil {
		out = map[uint32]Index{}
	}
	return out
}

// IndexOIDBase is the first OID of CREATE INDEX's indexes (pgcatalog's
// sixteenth band above its first user OID, 16384 + 16<<22).
const IndexOIDBase = 16384 + 16<<22

// MoveIndexes makes the indexes of table from the indexes of table to:
// a rewrite or TRUNCATE replaced it by a table with a new id.
func (tx *Tx) MoveIndexes(from, to int64) {
	for oid, ix := range tx.Indexes {
		if ix.TableID == from {
			ix.TableID = to
			tx.Indexes[oid] = ix
		}
	}
}
