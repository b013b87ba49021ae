package meta

import "maps"

// EnumType is an enum type CREATE TYPE ... AS ENUM made, stored as one row
// "type/<oid>" so that it persists across restarts and, on a cluster, is
// shared by every server. Its columns are STRING in Fluss, each naming the
// type by OID in its table's metadata (fluss.ColumnMeta.PGType
// "enum:<oid>"), so a table and its enum commit apart: DROP TYPE refuses a
// type a column uses (unless CASCADE, which drops those columns' tables
// first, as PostgreSQL drops the columns), and a column whose type is
// gone reads as text.
type EnumType struct {
	OID    uint32      `json:"oid"`
	Schema string      `json:"schema"`
	Name   string      `json:"name"`
	Labels []EnumLabel `json:"labels"` // in sort order
	Owner  string      `json:"owner"`
	// Composite marks a composite type (CREATE TYPE ... AS (...)), kept
	// in the same rows as the enums so that the two share one namespace
	// and persist alike: Attrs are its attributes, RelOID its pg_class
	// row (engine/compositetypes.go). Labels is then empty.
	Composite bool            `json:"composite,omitempty"`
	Attrs     []CompositeAttr `json:"attrs,omitempty"`
	RelOID    uint32          `json:"relOid,omitempty"`
}

// CompositeAttr is one attribute of a composite type: its name and its
// type's canonical SQL spelling, which the engine resolves.
type CompositeAttr struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// EnumLabel is one label: pg_enum's enumlabel, enumsortorder and oid.
type EnumLabel struct {
	Label string  `json:"label"`
	Sort  float32 `json:"sort"`
	OID   uint32  `json:"oid"`
}

// Types is one committed version's enum types by OID, never changed once
// published: a new pointer means the types (may have) changed.
type Types struct {
	m map[uint32]EnumType
}

func newTypes(m map[uint32]EnumType) *Types {
	if m == nil {
		m = map[uint32]EnumType{}
	}
	return &Types{m: m}
}

func (t *Types) byOID() map[uint32]EnumType {
	if t == nil {
		return map[uint32]EnumType{}
	}
	return t.m
}

// All returns the enum types by OID (a copy).
func (t *Types) All() map[uint32]EnumType { return maps.Clone(t.byOID()) }

// Len is how many enum types there are.
func (t *Types) Len() int { return len(t.byOID()) }

// Types is the current enum types (read them; change them through
// Update's Tx.Types).
func (m *Store) Types() *Types { return m.cur.Load().types }
