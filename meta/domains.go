package meta

import (
	"maps"

	"github.com/sqlgate/sqlgate/types"
)

// Domain is a domain CREATE DOMAIN made, stored as one row "domain/<oid>"
// so that it persists across restarts and, on a cluster, is shared by
// every server. Its columns are the base type in Fluss, each naming the
// domain by OID in its table's metadata (fluss.ColumnMeta.PGType
// "domain:<oid>"), as enum columns name their type (types.go).
type Domain struct {
	OID    uint32 `json:"oid"`
	Schema string `json:"schema"`
	Name   string `json:"name"`
	Owner  string `json:"owner"`
	// Base is the values' type; BaseText the type as written; Parent the
	// domain it is over (0 none).
	Base     types.T `json:"base"`
	BaseText string  `json:"base_text"`
	Parent   uint32  `json:"parent,omitempty"`
	TypMod   int32   `json:"typmod"`
	// Collation is COLLATE's name ("" none).
	Collation   string `json:"collation,omitempty"`
	Default     string `json:"default,omitempty"`
	NotNull     bool   `json:"not_null,omitempty"`
	NotNullName string `json:"not_null_name,omitempty"`
	// NotNullOID is the NOT NULL constraint's pg_constraint.oid.
	NotNullOID uint32              `json:"not_null_oid,omitempty"`
	Checks     []types.DomainCheck `json:"checks,omitempty"`
}

// Domains is one committed version's domains by OID, never changed once
// published: a new pointer means they (may have) changed.
type Domains struct {
	m map[uint32]Domain
}

func newDomains(m map[uint32]Domain) *Domains {
	if m == nil {
		m = map[uint32]Domain{}
	}
	return &Domains{m: m}
}

func (d *Domains) byOID() map[uint32]Domain {
	if d == nil {
		return map[uint32]Domain{}
	}
	return d.m
}

// All returns the domains by OID (a copy).
func (d *Domains) All() map[uint32]Domain { return maps.Clone(d.byOID()) }

// Domains is the current domains (read them; change them through Update's
// Tx.Domains).
func (m *Store) Domains() *Domains { return m.cur.Load().domains }
