package fluss

import (
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/types"
)

// Column metadata that Fluss's schema cannot hold - the PostgreSQL type a
// column was declared with when Fluss stores it as another type, its
// DEFAULT expression, its identity (SERIAL / GENERATED AS IDENTITY) and the
// table's CHECK constraints - is kept with the table, in its descriptor's
// custom properties (TableDescriptor.CustomProperties, under
// ReservedPropertyPrefix, beside the owner), under keys that start with
// MetaPrefix. It is written by the same CreateTable call as the schema (so
// it is atomic with it), lives in the embedded store's catalog file or, on
// a cluster, in the table's Fluss custom properties, and so every sqlgate
// server of a cluster reads the same metadata. (Keys found among the
// table properties, where an earlier sqlgate kept them, are read too.)
//
// The keys, with N a column's 1-based position (a position, not a name:
// it survives a column rename, and Fluss only appends columns) and K a
// CHECK constraint's 1-based ordinal:
//
//	sqlgate.column.N.type      PostgreSQL type name (uuid, json, jsonb, numeric)
//	sqlgate.column.N.default   the DEFAULT expression, PostgreSQL text
//	sqlgate.column.N.identity  "a" (GENERATED ALWAYS) or "d" (BY DEFAULT, SERIAL)
//	sqlgate.column.N.sequence  the sequence an identity or SERIAL column draws from
//	sqlgate.column.N.generated a stored generated column's expression, PostgreSQL text
//	sqlgate.column.N.missing   the value rows written before ADD COLUMN read (hex of its compacted encoding)
//	sqlgate.column.N.missingtext that value as PostgreSQL text (pg_attribute.attmissingval)
//	sqlgate.column.N.notnull   "t": NOT NULL set by ALTER TABLE, enforced by sqlgate (missing.go)
//	sqlgate.column.N.stattarget ALTER COLUMN SET STATISTICS's target (pg_attribute.attstattarget)
//	sqlgate.column.N.storage   SET STORAGE's attstorage letter (p, e, x, m)
//	sqlgate.column.N.compression SET COMPRESSION's attcompression letter (p, l)
//	sqlgate.column.N.collation COLLATE's collation (C, POSIX, ucs_basic)
//	sqlgate.replident          REPLICA IDENTITY's relreplident letter (f, n, i; none: d)
//	sqlgate.replident.index    REPLICA IDENTITY USING INDEX's index
//	sqlgate.cluster            CLUSTER ON's index (pg_index.indisclustered)
//	sqlgate.check.K.name       a CHECK constraint's name
//	sqlgate.check.K.expr       its expression, PostgreSQL text
//	sqlgate.check.K.notvalid   "t" for a constraint added NOT VALID
//	sqlgate.fkey.K.name        a FOREIGN KEY constraint's name (ForeignKey
//	                           has its other keys)
//
// TableMeta and SetTableMeta are the one place that reads and writes them.
const MetaPrefix = ReservedPropertyPrefix

const (
	metaColumnPrefix = MetaPrefix + "column."
	metaCheckPrefix  = MetaPrefix + "check."
	metaFKeyPrefix   = MetaPrefix + "fkey."
)

// ColumnMeta is what sqlgate keeps about one column beyond Fluss's schema.
type ColumnMeta struct {
	// PGType is the PostgreSQL type name the column was declared with when
	// Fluss stores another type ("jsonb" on STRING); "" when they agree.
	PGType string
	// Default is the column's DEFAULT expression as PostgreSQL text ("" none).
	Default string
	// Identity is PostgreSQL's attidentity: 'a' for GENERATED ALWAYS AS
	// IDENTITY, 'd' for BY DEFAULT; 0 for none. A SERIAL column is no
	// identity (its Default is nextval of its Sequence).
	Identity byte
	// Sequence is the sequence the column's values come from (identity or
	// SERIAL), unqualified, in the table's database; "" for none.
	Sequence string
	// Generated is a stored generated column's expression (GENERATED
	// ALWAYS AS (expr) STORED) as PostgreSQL text; "" for other columns.
	Generated string
	// Missing is the value the rows written before the column was added
	// read (PostgreSQL's attmissingval), in the compacted encoding of the
	// column's type; "" when they read NULL. MissingText is its text.
	Missing, MissingText string
	// NotNull is a NOT NULL that ALTER TABLE set (ADD COLUMN ... NOT NULL,
	// ALTER COLUMN SET NOT NULL): Fluss's column stays nullable, sqlgate
	// enforces it (missing.go).
	NotNull bool
	// StatTarget, Storage and Compression are ALTER COLUMN SET
	// STATISTICS / STORAGE / COMPRESSION's values, PostgreSQL catalog
	// only (pg_attribute's attstattarget, attstorage, attcompression):
	// "" and 0 when not set (the type's defaults).
	StatTarget           string
	Storage, Compression byte
	// Collation is a column's COLLATE ("C", "POSIX", "ucs_basic"; ""
	// the default): pg_attribute.attcollation only, since strings compare
	// bytewise under each of them.
	Collation string
}

// Table-level keys of PostgreSQL catalog state that ALTER TABLE sets and
// that changes no storage (engine/pgstorage.go).
const (
	// ReplicaIdentityKey is REPLICA IDENTITY's relreplident ("f", "n",
	// "i"; absent: "d"), ReplicaIndexKey USING INDEX's index name.
	ReplicaIdentityKey = MetaPrefix + "replident"
	ReplicaIndexKey    = MetaPrefix + "replident.index"
	// ClusterIndexKey is CLUSTER ON's index name.
	ClusterIndexKey = MetaPrefix + "cluster"
)

// ColumnStorageKeys are the metadata keys of column n's (1-based) SET
// STATISTICS, SET STORAGE and SET COMPRESSION values.
func ColumnStorageKeys(n int) (statTarget, storage, compression string) {
	return fmt.Sprintf("%s%d.stattarget", metaColumnPrefix, n), fmt.Sprintf("%s%d.storage", metaColumnPrefix, n),
		fmt.Sprintf("%s%d.compression", metaColumnPrefix, n)
}

// IsZero reports whether m holds nothing.
func (m ColumnMeta) IsZero() bool { return m == ColumnMeta{} }

// CheckConstraint is a table's CHECK constraint.
type CheckConstraint struct {
	Name string
	// Expr is the boolean expression as PostgreSQL text.
	Expr string
	// NotValid is a constraint added NOT VALID (ALTER TABLE ... ADD
	// CONSTRAINT ... NOT VALID) and not validated since: the rows stored
	// before it were not checked (pg_constraint.convalidated false); new
	// writes are.
	NotValid bool
}

// TableMeta is sqlgate's metadata of a table (see MetaPrefix).
type TableMeta struct {
	// Columns has one entry per column of the schema, in order.
	Columns []ColumnMeta
	Checks  []CheckConstraint
	// ForeignKeys are the table's FOREIGN KEY constraints.
	ForeignKeys []ForeignKey
	// Uniques are its UNIQUE constraints and unique indexes (unique.go).
	Uniques []UniqueConstraint
}

// Column returns the metadata of column i (zero when there is none).
func (m TableMeta) Column(i int) ColumnMeta {
	if i < 0 || i >= len(m.Columns) {
		return ColumnMeta{}
	}
	return m.Columns[i]
}

// MetaOf reads the metadata kept in d's properties. Keys it does not know,
// or that name a column the schema does not have, are ignored: a newer
// sqlgate's keys must not make a table unreadable.
func MetaOf(d TableDescriptor) TableMeta {
	m := TableMeta{Columns: make([]ColumnMeta, len(d.Schema.Columns))}
	checks := map[int]*CheckConstraint{}
	fkeys := map[int]*ForeignKey{}
	uniques := map[int]*UniqueConstraint{}
	props := d.CustomProperties
	if hasMetaKeys(d.Properties) {
		props = maps.Clone(d.Properties)
		maps.Copy(props, d.CustomProperties)
	}
	for k, v := range props {
		switch {
		case strings.HasPrefix(k, metaColumnPrefix):
			n, field, ok := metaKey(k[len(metaColumnPrefix):])
			if !ok || n > len(m.Columns) {
				continue
			}
			c := &m.Columns[n-1]
			switch field {
			case "type":
				c.PGType = v
			case "default":
				c.Default = v
			case "identity":
				if v == "a" || v == "d" {
					c.Identity = v[0]
				}
			case "sequence":
				c.Sequence = v
			case "generated":
				c.Generated = v
			case "missing":
				if b, err := hex.DecodeString(v); err == nil && len(b) > 0 {
					c.Missing = string(b)
				}
			case "missingtext":
				c.MissingText = v
			case "notnull":
				c.NotNull = v == "t"
			case "stattarget":
				c.StatTarget = v
			case "storage":
				if len(v) == 1 {
					c.Storage = v[0]
				}
			case "compression":
				if len(v) == 1 {
					c.Compression = v[0]
				}
			case "collation":
				c.Collation = v
			}
		case strings.HasPrefix(k, metaCheckPrefix):
			n, field, ok := metaKey(k[len(metaCheckPrefix):])
			if !ok {
				continue
			}
			c := checks[n]
			if c == nil {
				c = &CheckConstraint{}
				checks[n] = c
			}
			switch field {
			case "name":
				c.Name = v
			case "expr":
				c.Expr = v
			case "notvalid":
				c.NotValid = v == "t"
			}
		case strings.HasPrefix(k, metaFKeyPrefix):
			readFKeyKey(fkeys, k[len(metaFKeyPrefix):], v)
		case strings.HasPrefix(k, metaUniquePrefix):
			readUniqueKey(uniques, k[len(metaUniquePrefix):], v) // unique.go
		}
	}
	m.ForeignKeys = sortedFKeys(fkeys, len(m.Columns))
	m.Uniques = sortedUniques(uniques, len(m.Columns))
	for _, n := range slices.Sorted(maps.Keys(checks)) {
		if c := checks[n]; c.Name != "" && c.Expr != "" {
			m.Checks = append(m.Checks, *c)
		}
	}
	return m
}

// hasMetaKeys reports metadata keys among props.
func hasMetaKeys(props map[string]string) bool {
	for k := range props {
		if strings.HasPrefix(k, metaColumnPrefix) || strings.HasPrefix(k, metaCheckPrefix) || strings.HasPrefix(k, metaFKeyPrefix) || strings.HasPrefix(k, metaUniquePrefix) {
			return true
		}
	}
	return false
}

// metaKey splits "N.field" into its 1-based number and field.
func metaKey(s string) (int, string, bool) {
	num, field, ok := strings.Cut(s, ".")
	if !ok {
		return 0, "", false
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 {
		return 0, "", false
	}
	return n, field, true
}

// SetTableMeta replaces the metadata kept in d's custom properties by m
// (allocating the map when needed; other custom properties, the owner's,
// are kept); zero fields write no key.
func SetTableMeta(d *TableDescriptor, m TableMeta) {
	isMeta := func(k, _ string) bool {
		return strings.HasPrefix(k, metaColumnPrefix) || strings.HasPrefix(k, metaCheckPrefix) || strings.HasPrefix(k, metaFKeyPrefix) || strings.HasPrefix(k, metaUniquePrefix)
	}
	if hasMetaKeys(d.Properties) {
		d.Properties = maps.Clone(d.Properties)
		maps.DeleteFunc(d.Properties, isMeta)
	}
	props := maps.Clone(d.CustomProperties)
	if props == nil {
		props = map[string]string{}
	}
	maps.DeleteFunc(props, isMeta)
	for i, c := range m.Columns {
		key := func(field string) string { return fmt.Sprintf("%s%d.%s", metaColumnPrefix, i+1, field) }
		if c.PGType != "" {
			props[key("type")] = c.PGType
		}
		if c.Default != "" {
			props[key("default")] = c.Default
		}
		if c.Identity != 0 {
			props[key("identity")] = string(c.Identity)
		}
		if c.Sequence != "" {
			props[key("sequence")] = c.Sequence
		}
		if c.Generated != "" {
			props[key("generated")] = c.Generated
		}
		if c.Missing != "" {
			props[key("missing")] = hex.EncodeToString([]byte(c.Missing))
			props[key("missingtext")] = c.MissingText
		}
		if c.NotNull {
			props[key("notnull")] = "t"
		}
		if c.StatTarget != "" {
			props[key("stattarget")] = c.StatTarget
		}
		if c.Storage != 0 {
			props[key("storage")] = string(c.Storage)
		}
		if c.Compression != 0 {
			props[key("compression")] = string(c.Compression)
		}
		if c.Collation != "" {
			props[key("collation")] = c.Collation
		}
	}
	for i, c := range m.Checks {
		name, expr, notValid := CheckKeys(i + 1)
		props[name], props[expr] = c.Name, c.Expr
		if c.NotValid {
			props[notValid] = "t"
		}
	}
	for i, fk := range m.ForeignKeys {
		maps.Copy(props, FKeyProperties(i+1, fk))
	}
	for i, u := range m.Uniques {
		maps.Copy(props, UniqueProperties(i+1, u)) // unique.go
	}
	d.CustomProperties = props
}

// IsMetaProperty reports whether a property key is sqlgate's metadata (kept
// in a cluster's custom properties, not Fluss's table properties).
func IsMetaProperty(key string) bool { return strings.HasPrefix(key, MetaPrefix) }

// variantTypes are the PostgreSQL types that Fluss lacks and sqlgate keeps
// as a types.Variant of the stored type: the column's values are the stored
// type's, clients see the PostgreSQL type.
var variantTypes = map[string]types.Variant{"json": types.JSON, "jsonb": types.JSONB, "uuid": types.UUID,
	// bit(n) and bit varying(n): STRING of '0'/'1' whose length is n
	// (types/bitstring.go)
	"bit": types.Bit, "varbit": types.VarBit,
	// inet: STRING of its canonical text (types/inet.go)
	"inet": types.Inet, "cidr": types.Cidr,
	// tsvector, tsquery, regconfig: STRING of their text (types/tsearch)
	"tsvector": types.TSVector, "tsquery": types.TSQuery, "regconfig": types.RegConfig,
	// pg_lsn, jsonpath, "char": STRING of their text (types/inet.go,
	// types/jsonpath; "char" its one character)
	"pg_lsn": types.PgLsn, "jsonpath": types.JSONPath, `"char"`: types.QChar,
	// macaddr, macaddr8: STRING of their text, as inet (types/macaddr.go);
	// money: BIGINT of its cents (types/money.go), which orders, sums and
	// indexes as the amount does
	"macaddr": types.MacAddr, "macaddr8": types.MacAddr8, "money": types.Money,
	// the range types: STRING of their text, dates and times in ISO and
	// UTC, the discrete ones canonical (types/ranges.go)
	"int4range": types.Int4Range, "int8range": types.Int8Range, "numrange": types.NumRange,
	"daterange": types.DateRange, "tsrange": types.TsRange, "tstzrange": types.TstzRange,
	// the multirange types: STRING of their text, as the ranges
	// (types/multirange.go)
	"int4multirange": types.Int4Multirange, "int8multirange": types.Int8Multirange, "nummultirange": types.NumMultirange,
	"datemultirange": types.DateMultirange, "tsmultirange": types.TsMultirange, "tstzmultirange": types.TstzMultirange,
	// the geometric types: STRING of their text with shortest floats
	// (types/geometric.go)
	"point": types.GeoPoint, "lseg": types.GeoLSeg, "line": types.GeoLine, "box": types.GeoBox,
	"path": types.GeoPath, "polygon": types.GeoPolygon, "circle": types.GeoCircle}

// variantKind is the kind a variant's column is stored as: Int64 for
// money, String for the others.
func variantKind(v types.Variant) types.Kind {
	if v == types.Money {
		return types.Int64
	}
	return types.String
}

// recordVariants notes, in d's metadata, the PostgreSQL type of each
// top-level column whose type is a variant Fluss does not store (json,
// jsonb, uuid), before normalisation drops the variant.
func recordVariants(d *TableDescriptor, cols []Column) {
	var m *TableMeta
	for i, c := range cols {
		name := c.Type.Variant.Name()
		if en := EnumPGType(c.Type); en != "" {
			name = en
		} else if bn := variantArrayPGType(c.Type); bn != "" {
			name = bn
		} else if _, ok := variantTypes[name]; !ok {
			continue
		}
		if m == nil {
			mm := MetaOf(*d)
			m = &mm
		}
		if m.Columns[i].PGType == "" {
			m.Columns[i].PGType = name
		}
	}
	if m != nil {
		SetTableMeta(d, *m)
	}
}

// applyVariants gives the columns whose metadata names a variant type
// (recordVariants) that variant again, as a table read back shows them.
func applyVariants(d *TableDescriptor) {
	m := MetaOf(*d)
	applyNotNull(d, m) // missing.go
	for i, c := range m.Columns {
		if oid, array, ok := parseEnumPGType(c.PGType); ok {
			t := &d.Schema.Columns[i].Type
			if array && t.Kind == types.Array && t.Elem != nil && t.Elem.Kind == types.String {
				e := *t.Elem
				e.Variant, e.TypeOID = types.Enum, oid
				t.Elem = &e
			} else if !array && t.Kind == types.String {
				t.Variant, t.TypeOID = types.Enum, oid
			}
			continue
		}
		if v, ok := variantTypes[c.PGType]; ok {
			t := &d.Schema.Columns[i].Type
			if t.Kind == variantKind(v) {
				t.Variant = v
			}
		}
		if elem, ok := strings.CutSuffix(c.PGType, "[]"); ok {
			// an array of a variant type: ARRAY<STRING> (ARRAY<BIGINT> for
			// money) whose elements are the variant (variantArrayPGType)
			v, ok := variantTypes[elem]
			t := &d.Schema.Columns[i].Type
			if ok && t.Kind == types.Array && t.Elem != nil && t.Elem.Kind == variantKind(v) {
				e := *t.Elem
				e.Variant = v
				t.Elem = &e
			}
		}
	}
}

// variantArrayPGType is the PGType of a one-level array of a variant type
// Fluss does not store ("bit[]", "uuid[]", "money[]" ...); "" for other
// types.
func variantArrayPGType(t types.T) string {
	if t.Kind != types.Array || t.Elem == nil {
		return ""
	}
	name := t.Elem.Variant.Name()
	if v, ok := variantTypes[name]; !ok || t.Elem.Kind != variantKind(v) {
		return ""
	}
	return name + "[]"
}

// An enum column (types.Enum, a user-defined type) is STRING in Fluss;
// its metadata names the type by OID, "enum:<oid>", or "enum:<oid>[]"
// for an array of it (engine/enumtypes.go); "" for other types.
func EnumPGType(t types.T) string {
	switch {
	case t.Variant == types.Enum:
		return OIDPGType("enum", t.TypeOID, false)
	case t.Kind == types.Array && t.Elem != nil && t.Elem.Variant == types.Enum:
		return OIDPGType("enum", t.Elem.TypeOID, true)
	}
	return ""
}

// parseEnumPGType reads EnumPGType's text.
func parseEnumPGType(s string) (oid uint32, array, ok bool) { return ParseOIDPGType("enum", s) }

// OIDPGType is the PGType of a column whose type is a user-defined type of
// kind (enum, domain) found by OID: "kind:<oid>", "kind:<oid>[]" for an
// array of it.
func OIDPGType(kind string, oid uint32, array bool) string {
	s := kind + ":" + strconv.FormatUint(uint64(oid), 10)
	if array {
		s += "[]"
	}
	return s
}

// ParseOIDPGType reads OIDPGType's text of kind; ok is false for another.
func ParseOIDPGType(kind, s string) (oid uint32, array, ok bool) {
	rest, found := strings.CutPrefix(s, kind+":")
	if !found {
		return 0, false, false
	}
	rest, array = strings.CutSuffix(rest, "[]")
	n, err := strconv.ParseUint(rest, 10, 32)
	if err != nil {
		return 0, false, false
	}
	return uint32(n), array, true
}

// ColumnTypeKey is the metadata key of column n's (1-based) PostgreSQL
// type (ColumnMeta.PGType): a store that adds a column without
// SetTableMeta (a cluster's ALTER TABLE) sets it as a custom property.
func ColumnTypeKey(n int) string { return fmt.Sprintf("%s%d.type", metaColumnPrefix, n) }

// CheckKeys are the metadata keys of the CHECK constraint numbered k
// (1-based, the number its keys carry: MetaOf orders the constraints by
// it, and numbers need not be consecutive): its name's, its expression's
// and its NOT VALID mark's, which ALTER TABLE ... ADD / DROP / VALIDATE
// CONSTRAINT set and reset as custom properties.
func CheckKeys(k int) (name, expr, notValid string) {
	p := fmt.Sprintf("%s%d.", metaCheckPrefix, k)
	return p + "name", p + "expr", p + "notvalid"
}

// CheckNumbers are the numbers (as CheckKeys takes them) of d's CHECK
// constraints, in MetaOf's order: a constraint's Checks index maps to
// its keys.
func CheckNumbers(d TableDescriptor) []int {
	props := d.CustomProperties
	if hasMetaKeys(d.Properties) {
		props = maps.Clone(d.Properties)
		maps.Copy(props, d.CustomProperties)
	}
	named := map[int]bool{}
	exprs := map[int]bool{}
	for k, v := range props {
		if !strings.HasPrefix(k, metaCheckPrefix) || v == "" {
			continue
		}
		n, field, ok := metaKey(k[len(metaCheckPrefix):])
		switch {
		case !ok:
		case field == "name":
			named[n] = true
		case field == "expr":
			exprs[n] = true
		}
	}
	var out []int
	for _, n := range slices.Sorted(maps.Keys(named)) {
		if exprs[n] {
			out = append(out, n)
		}
	}
	return out
}

// ColumnDefaultKey is the metadata key of column n's (1-based) DEFAULT
// expression (ColumnMeta.Default), which ALTER COLUMN SET / DROP DEFAULT
// set and reset as a custom property.
func ColumnDefaultKey(n int) string { return fmt.Sprintf("%s%d.default", metaColumnPrefix, n) }

// ColumnIdentityKeys are the metadata keys of column n's (1-based)
// identity (ColumnMeta.Identity and Sequence), which ALTER COLUMN ADD
// GENERATED, SET GENERATED and DROP IDENTITY set and reset.
func ColumnIdentityKeys(n int) (identity, sequence string) {
	return fmt.Sprintf("%s%d.identity", metaColumnPrefix, n), fmt.Sprintf("%s%d.sequence", metaColumnPrefix, n)
}

// HasGeneratedColumn reports whether d declares a stored generated column,
// from its metadata keys alone (no parse of the metadata): the write paths
// ask it of every table they write.
func HasGeneratedColumn(d TableDescriptor) bool {
	for _, props := range []map[string]string{d.CustomProperties, d.Properties} {
		for k := range props {
			if strings.HasPrefix(k, metaColumnPrefix) && strings.HasSuffix(k, ".generated") {
				return true
			}
		}
	}
	return false
}

// ForeignKey is a table's FOREIGN KEY constraint, kept under the keys
// sqlgate.fkey.K.field (FKeyProperties): columns by their 1-based
// positions (which survive a rename), the referenced table by database
// and name.
type ForeignKey struct {
	Name string
	// Columns are the referencing columns' indexes (0-based) in this
	// table; RefColumns the referenced ones' in RefTable, in the same
	// order (its primary key's columns).
	Columns    []int
	RefTable   TablePath
	RefColumns []int
	// Match, OnDelete and OnUpdate are pg_constraint's confmatchtype,
	// confdeltype and confupdtype ('s' / 'f'; 'a' NO ACTION, 'r'
	// RESTRICT, 'c' CASCADE, 'n' SET NULL, 'd' SET DEFAULT).
	Match, OnDelete, OnUpdate byte
	// DeleteSetColumns are ON DELETE SET NULL | DEFAULT (cols)'s columns
	// (indexes); nil: every referencing column.
	DeleteSetColumns               []int
	Deferrable, Deferred, NotValid bool
}

// FKeyProperties are the metadata keys and values of foreign key fk
// numbered k (1-based).
func FKeyProperties(k int, fk ForeignKey) map[string]string {
	p := fmt.Sprintf("%s%d.", metaFKeyPrefix, k)
	props := map[string]string{
		p + "name": fk.Name, p + "cols": positions(fk.Columns),
		p + "refdb": fk.RefTable.Database, p + "reftable": fk.RefTable.Table,
		p + "refcols": positions(fk.RefColumns),
		p + "actions": string([]byte{fk.Match, fk.OnDelete, fk.OnUpdate}),
	}
	if fk.DeleteSetColumns != nil {
		props[p+"delsetcols"] = positions(fk.DeleteSetColumns)
	}
	flags := ""
	for _, f := range []struct {
		on bool
		c  string
	}{{fk.Deferrable, "d"}, {fk.Deferred, "i"}, {fk.NotValid, "v"}} {
		if f.on {
			flags += f.c
		}
	}
	if flags != "" {
		props[p+"flags"] = flags
	}
	return props
}

// FKeyKeyPrefix is the prefix of every metadata key of foreign key k.
func FKeyKeyPrefix(k int) string { return fmt.Sprintf("%s%d.", metaFKeyPrefix, k) }

// FKeyNumbers are the numbers of d's foreign keys, in MetaOf's order: the
// k-th of MetaOf(d).ForeignKeys is numbered FKeyNumbers(d)[k] (both keep
// the complete keys only, completeFKey).
func FKeyNumbers(d TableDescriptor) []int {
	fkeys := fkeysOf(d)
	var out []int
	for _, n := range slices.Sorted(maps.Keys(fkeys)) {
		if completeFKey(fkeys[n], len(d.Schema.Columns)) {
			out = append(out, n)
		}
	}
	return out
}

// NextFKeyNumber is the number for a new foreign key of d: above every
// number d's metadata uses, a leftover of an incomplete key's too (whose
// stale fields a new key must not inherit).
func NextFKeyNumber(d TableDescriptor) int {
	n := 1
	for k := range fkeysOf(d) {
		n = max(n, k+1)
	}
	return n
}

// fkeysOf reads d's foreign-key metadata keys, complete or not.
func fkeysOf(d TableDescriptor) map[int]*ForeignKey {
	fkeys := map[int]*ForeignKey{}
	for _, props := range []map[string]string{d.Properties, d.CustomProperties} {
		for k, v := range props {
			if strings.HasPrefix(k, metaFKeyPrefix) {
				readFKeyKey(fkeys, k[len(metaFKeyPrefix):], v)
			}
		}
	}
	return fkeys
}

// positions writes 0-based indexes as comma-separated 1-based positions.
func positions(idx []int) string {
	parts := make([]string, len(idx))
	for i, n := range idx {
		parts[i] = strconv.Itoa(n + 1)
	}
	return strings.Join(parts, ",")
}

// parsePositions reads positions' text (nil on a malformed one).
func parsePositions(s string) []int {
	if s == "" {
		return nil
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		n, err := strconv.Atoi(part)
		if err != nil || n < 1 {
			return nil
		}
		out = append(out, n-1)
	}
	return out
}

// readFKeyKey reads one "K.field" key of a foreign key into fkeys.
func readFKeyKey(fkeys map[int]*ForeignKey, key, v string) {
	n, field, ok := metaKey(key)
	if !ok {
		return
	}
	fk := fkeys[n]
	if fk == nil {
		fk = &ForeignKey{Match: 's', OnDelete: 'a', OnUpdate: 'a'}
		fkeys[n] = fk
	}
	switch field {
	case "name":
		fk.Name = v
	case "cols":
		fk.Columns = parsePositions(v)
	case "refdb":
		fk.RefTable.Database = v
	case "reftable":
		fk.RefTable.Table = v
	case "refcols":
		fk.RefColumns = parsePositions(v)
	case "delsetcols":
		fk.DeleteSetColumns = parsePositions(v)
	case "actions":
		if len(v) == 3 {
			fk.Match, fk.OnDelete, fk.OnUpdate = v[0], v[1], v[2]
		}
	case "flags":
		fk.Deferrable, fk.Deferred, fk.NotValid = strings.Contains(v, "d"), strings.Contains(v, "i"), strings.Contains(v, "v")
	}
}

// sortedFKeys are the complete foreign keys of fkeys in the order of their
// numbers (a key naming a column the table lacks is dropped).
func sortedFKeys(fkeys map[int]*ForeignKey, ncols int) []ForeignKey {
	var out []ForeignKey
	for _, n := range slices.Sorted(maps.Keys(fkeys)) {
		if fk := fkeys[n]; completeFKey(fk, ncols) {
			out = append(out, *fk)
		}
	}
	return out
}

// completeFKey reports whether fk's metadata is whole and names columns a
// table of ncols columns has (an ADD COLUMN ... REFERENCES whose column a
// cluster refused leaves one that is not).
func completeFKey(fk *ForeignKey, ncols int) bool {
	return fk.Name != "" && len(fk.Columns) > 0 && len(fk.Columns) == len(fk.RefColumns) && fk.RefTable.Table != "" &&
		!slices.ContainsFunc(fk.Columns, func(c int) bool { return c >= ncols })
}
