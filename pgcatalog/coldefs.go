package pgcatalog

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/deparse"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Sequences, column defaults, identity columns and CHECK constraints as
// PostgreSQL's catalogs show them (pg_class relkind 'S', pg_sequence,
// pg_sequences, information_schema.sequences; pg_attrdef and
// pg_attribute.atthasdef / attidentity, information_schema.columns'
// column_default and identity columns; pg_constraint contype 'c'), from
// the store's sequences (fluss.SequenceStore) and the tables' metadata
// (fluss.TableMeta). A sequence's OID is firstUserOID + 6<<22 + its id;
// a default's is firstUserOID + 7<<22 + table id * 2048 + column number;
// a CHECK constraint's firstUserOID + 8<<22 + table id * 64 + its ordinal
// (tables of more than 2047 columns or 63 constraints would collide).

// tRegType is regtype (pg_sequences.data_type).
var tRegType = types.RegOf(types.RegType)

const (
	sequenceOIDBase = firstUserOID + 6*oidStride
	attrdefOIDBase  = firstUserOID + 7*oidStride
	checkOIDBase    = firstUserOID + 8*oidStride
)

// SequenceOID is the OID of the sequence with the given id.
func SequenceOID(id int64) uint32 { return uint32(sequenceOIDBase + id) }

func attrdefOID(tableID int64, attnum int) uint32 {
	return uint32(attrdefOIDBase + tableID*2048 + int64(attnum))
}

// checkOID is the pg_constraint OID of a table's CHECK constraint; k is
// the number its metadata keys carry (fluss.CheckKeys), so that an OID
// stays the constraint's when another is dropped.
func checkOID(tableID int64, k int) uint32 { return uint32(checkOIDBase + tableID*64 + int64(k)) }

// listSequences lists the store's sequences in every schema (none when
// the store keeps none).
func (c *Catalog) listSequences(ctx context.Context) ([]fluss.SequenceInfo, error) {
	q, ok := c.store.(fluss.SequenceStore)
	if !ok {
		return nil, nil
	}
	return fluss.AllSequences(ctx, c.store, q)
}

// sequenceTypeOID is the OID of a sequence data type.
func sequenceTypeOID(typ string) uint32 {
	switch typ {
	case "smallint":
		return pgtypes.OIDInt2
	case "integer":
		return pgtypes.OIDInt4
	}
	return pgtypes.OIDInt8
}

func (c *Catalog) sequenceClassRows(s *snapshot) []row {
	var rows []row
	for _, q := range s.sequences {
		r := classBase(SequenceOID(q.ID), q.Path.Table, namespaceOID(q.Path.Database), "S", 3)
		r["relam"] = 0
		r["relowner"] = c.roleOID(q.Def.Owner)
		rows = append(rows, r)
	}
	return rows
}

func (c *Catalog) pgSequenceRows(_ context.Context, s *snapshot) ([]row, error) {
	var rows []row
	for _, q := range s.sequences {
		d := q.Def
		rows = append(rows, row{"seqrelid": SequenceOID(q.ID), "seqtypid": sequenceTypeOID(d.Type), "seqstart": int(d.Start),
			"seqincrement": int(d.Increment), "seqmax": int(d.Max), "seqmin": int(d.Min), "seqcache": int(d.Cache), "seqcycle": d.Cycle})
	}
	return rows, nil
}

func (c *Catalog) pgSequencesViewRows(_ context.Context, s *snapshot) ([]row, error) {
	var rows []row
	for _, q := range s.sequences {
		d := q.Def
		r := row{"schemaname": q.Path.Database, "sequencename": q.Path.Table, "sequenceowner": c.opts.User,
			"data_type": sequenceTypeOID(d.Type), "start_value": int(d.Start), "min_value": int(d.Min), "max_value": int(d.Max),
			"increment_by": int(d.Increment), "cycle": d.Cycle, "cache_size": int(d.Cache)}
		if q.Called {
			r["last_value"] = int(q.Last)
		}
		rows = append(rows, r)
	}
	return rows, nil
}

func (c *Catalog) infoSequenceRows(_ context.Context, s *snapshot) ([]row, error) {
	var rows []row
	for _, q := range s.sequences {
		d := q.Def
		prec := map[string]int{"smallint": 16, "integer": 32, "bigint": 64}[d.Type]
		rows = append(rows, row{"sequence_catalog": c.opts.Database, "sequence_schema": q.Path.Database,
			"sequence_name": q.Path.Table, "data_type": d.Type, "numeric_precision": prec, "numeric_precision_radix": 2,
			"numeric_scale": 0, "start_value": strconv.FormatInt(d.Start, 10), "minimum_value": strconv.FormatInt(d.Min, 10),
			"maximum_value": strconv.FormatInt(d.Max, 10), "increment": strconv.FormatInt(d.Increment, 10), "cycle_option": yesNo(d.Cycle)})
	}
	return rows, nil
}

// columnDefault is the default pg_attrdef shows for a column: its DEFAULT,
// or the nextval of its identity sequence (which PostgreSQL keeps out of
// pg_attrdef: ok false for identity columns).
func columnDefault(m fluss.ColumnMeta) (string, bool) {
	if m.Generated != "" {
		return m.Generated, true // a generated column's expression is its pg_attrdef row
	}
	if m.Identity != 0 {
		return "", false
	}
	return m.Default, m.Default != ""
}

func (c *Catalog) attrdefRows(_ context.Context, s *snapshot) ([]row, error) {
	var rows []row
	for _, t := range s.tables {
		meta := fluss.MetaOf(t.Descriptor)
		for i, m := range meta.Columns {
			if d, ok := columnDefault(m); ok {
				rows = append(rows, row{"oid": attrdefOID(t.TableID, i+1), "adrelid": RelationOID(t.TableID), "adnum": i + 1, "adbin": adbinText(i+1, d)}) // exprs.go
			}
		}
	}
	return rows, nil
}

// shownType is the type a column shows: the PostgreSQL type it was
// declared with where Fluss stores another (NUMERIC without precision is
// numeric, stored as the widest DECIMAL).
func shownType(t types.T, m fluss.ColumnMeta) types.T {
	if m.PGType == "numeric" && t.Kind == types.Decimal {
		n := types.NumericType
		n.NotNull = t.NotNull
		return n
	}
	return t
}

// withColumnMeta completes a pg_attribute row of a table column.
func withColumnMeta(r row, m fluss.ColumnMeta) row {
	_, r["atthasdef"] = columnDefault(m)
	if m.Generated != "" {
		r["attgenerated"] = "s"
	}
	if m.Identity != 0 {
		r["attidentity"] = string(m.Identity)
	}
	return r
}

// withInfoColumnMeta completes an information_schema.columns row of
// column i of t: its default and generation expression as pg_get_expr
// prints them (exprs.go) over the table's scope (made once per table, by
// the first column that needs it).
func (c *Catalog) withInfoColumnMeta(r row, t fluss.TableInfo, i int, m fluss.ColumnMeta, s *snapshot, scope func() deparse.Scope) row {
	if m.Generated != "" {
		r["is_generated"], r["generation_expression"] = "ALWAYS", defaultText(scope(), i, m.Generated, false)
	} else if d, ok := columnDefault(m); ok {
		r["column_default"] = defaultText(scope(), i, d, false)
	}
	if m.Identity == 0 {
		return r
	}
	r["is_identity"] = "YES"
	r["identity_generation"] = "BY DEFAULT"
	if m.Identity == 'a' {
		r["identity_generation"] = "ALWAYS"
	}
	for _, q := range s.sequences {
		if q.Path.Table == m.Sequence {
			d := q.Def
			r["identity_start"], r["identity_increment"] = strconv.FormatInt(d.Start, 10), strconv.FormatInt(d.Increment, 10)
			r["identity_maximum"], r["identity_minimum"] = strconv.FormatInt(d.Max, 10), strconv.FormatInt(d.Min, 10)
			r["identity_cycle"] = yesNo(d.Cycle)
		}
	}
	return r
}

func (c *Catalog) checkConstraintRows(s *snapshot) []row {
	var rows []row
	for _, t := range s.tables {
		numbers := fluss.CheckNumbers(t.Descriptor)
		for k, ch := range fluss.MetaOf(t.Descriptor).Checks {
			rows = append(rows, row{
				"oid": checkOID(t.TableID, numbers[k]), "conname": ch.Name, "connamespace": namespaceOID(t.Path.Database), "contype": "c",
				"condeferrable": false, "condeferred": false, "convalidated": !ch.NotValid, "conrelid": RelationOID(t.TableID),
				"contypid": 0, "conindid": 0, "conparentid": 0, "confrelid": 0,
				"confupdtype": " ", "confdeltype": " ", "confmatchtype": " ", "conislocal": true, "coninhcount": 0,
				"connoinherit": false, "conkey": int2s(checkAttnums(t, ch)), "conbin": ch.Expr,
			})
		}
	}
	return rows
}

// checkAttnums are the columns a CHECK names (by a word match of the
// expression's text, which is what the catalog has).
func checkAttnums(t fluss.TableInfo, ch fluss.CheckConstraint) []int {
	var out []int
	for i, c := range t.Descriptor.Schema.Columns {
		if containsWord(ch.Expr, c.Name) {
			out = append(out, i+1)
		}
	}
	return out
}

func containsWord(s, w string) bool {
	isWord := func(b byte) bool {
		return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
	}
	for i := 0; i+len(w) <= len(s); i++ {
		if s[i:i+len(w)] == w && (i == 0 || !isWord(s[i-1])) && (i+len(w) == len(s) || !isWord(s[i+len(w)])) {
			return true
		}
	}
	return false
}

// checkDef is pg_get_constraintdef of a CHECK constraint's OID.
func (c *Catalog) checkDef(ctx context.Context, oid uint32, pretty bool) (string, bool, error) {
	if oid < checkOIDBase || oid >= checkOIDBase+1<<30 {
		return "", false, nil
	}
	// the tables of every schema: a CHECK's OID does not say which
	ts, _, err := c.allTables(ctx)
	if err != nil {
		return "", false, err
	}
	for _, t := range ts {
		if t.TableID != (int64(oid)-checkOIDBase)/64 {
			continue // checkOID: the table's id, then the constraint's number
		}
		numbers := fluss.CheckNumbers(t.Descriptor)
		for k, ch := range fluss.MetaOf(t.Descriptor).Checks {
			if checkOID(t.TableID, numbers[k]) == oid {
				return c.checkText(ctx, t, ch, pretty), true, nil // exprs.go
			}
		}
	}
	return "", false, nil
}

// sequenceByOID finds the sequence with the given OID.
func (c *Catalog) sequenceByOID(ctx context.Context, oid uint32) (fluss.SequenceInfo, bool, error) {
	if oid <= sequenceOIDBase || oid >= sequenceOIDBase+oidStride {
		return fluss.SequenceInfo{}, false, nil
	}
	seqs, err := c.listSequences(ctx)
	if err != nil {
		return fluss.SequenceInfo{}, false, err
	}
	for _, q := range seqs {
		if SequenceOID(q.ID) == oid {
			return q, true, nil
		}
	}
	return fluss.SequenceInfo{}, false, nil
}

// sequenceOIDByName is the OID of the sequence named name in schema.
func (c *Catalog) sequenceOIDByName(ctx context.Context, schema, name string) (uint32, bool, error) {
	seqs, err := c.listSequences(ctx)
	if err != nil {
		return 0, false, err
	}
	for _, q := range seqs {
		if q.Path.Table == name && q.Path.Database == schema {
			return SequenceOID(q.ID), true, nil
		}
	}
	return 0, false, nil
}

// SerialSequence implements functions.SerialSequences: the sequence the
// column of the table with OID reloid owns, schema-qualified.
func (c *Catalog) SerialSequence(ctx context.Context, reloid uint32, column string) (string, bool, error) {
	t, index, sp, ok, err := c.relation(ctx, reloid)
	if err != nil || !ok || index || sp != nil {
		return "", false, err
	}
	if t.ColumnIndex(column) < 0 {
		return "", false, sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", column, t.Path.Table)
	}
	seqs, err := c.listSequences(ctx)
	if err != nil {
		return "", false, err
	}
	for _, q := range seqs {
		if q.Def.OwnedBy == t.Path && q.Def.OwnedColumn == column {
			return quoteIdent(q.Path.Database) + "." + quoteIdent(q.Path.Table), true, nil
		}
	}
	return "", false, nil
}

// sequenceDependRows are pg_depend's rows for the sequences a column owns:
// the sequence depends on the column, automatically (deptype 'a': serial,
// OWNED BY) or internally (deptype 'i': an identity column's), as
// PostgreSQL records them. pg_dump reads them to dump an owned sequence
// with its table (ALTER SEQUENCE ... OWNED BY, or the identity column's
// ADD GENERATED ... AS IDENTITY) instead of as a sequence of its own.
func (c *Catalog) sequenceDependRows(_ context.Context, s *snapshot) ([]row, error) {
	var rows []row
	for _, q := range s.sequences {
		if q.Def.OwnedColumn == "" {
			continue
		}
		for _, t := range s.tables {
			if t.Path != q.Def.OwnedBy {
				continue
			}
			i := t.ColumnIndex(q.Def.OwnedColumn)
			if i < 0 {
				break
			}
			deptype := "a"
			if fluss.MetaOf(t.Descriptor).Column(i).Identity != 0 {
				deptype = "i"
			}
			rows = append(rows, row{"classid": classPgClass, "objid": SequenceOID(q.ID), "objsubid": 0,
				"refclassid": classPgClass, "refobjid": RelationOID(t.TableID), "refobjsubid": i + 1, "deptype": deptype})
			break
		}
	}
	// a column default drawing from a sequence depends on it (normally,
	// 'n'): pg_dump then sets a serial column's default after creating
	// the sequence (ALTER TABLE ... SET DEFAULT), breaking the loop of
	// table, default and owned sequence as PostgreSQL's dump does
	for _, t := range s.tables {
		for i, m := range fluss.MetaOf(t.Descriptor).Columns {
			d, ok := columnDefault(m)
			if !ok || m.Generated != "" {
				continue
			}
			if q, ok := defaultSequence(d, t.Path.Database, s.sequences); ok {
				rows = append(rows, row{"classid": classPgAttrdef, "objid": attrdefOID(t.TableID, i+1), "objsubid": 0,
					"refclassid": classPgClass, "refobjid": SequenceOID(q.ID), "refobjsubid": 0, "deptype": "n"})
			}
		}
	}
	return rows, nil
}

// nextvalDefault matches a default that is one nextval call on a
// sequence named by a literal.
var nextvalDefault = regexp.MustCompile(`(?i)^\s*nextval\(\s*'((?:[^']|'')*)'(?:::regclass)?\s*\)\s*$`)

// defaultSequence is the sequence default text d draws from: an
// unqualified name is the table's schema's sequence (SERIAL makes it
// there), else public's.
func defaultSequence(d, schema string, seqs []fluss.SequenceInfo) (fluss.SequenceInfo, bool) {
	m := nextvalDefault.FindStringSubmatch(d)
	if m == nil {
		return fluss.SequenceInfo{}, false
	}
	name := strings.ReplaceAll(m[1], "''", "'")
	parts := []string{schema, "public"}
	if sch, n, ok := strings.Cut(name, "."); ok {
		parts, name = []string{strings.Trim(sch, `"`)}, n
	}
	name = strings.Trim(name, `"`)
	for _, sch := range parts {
		for _, q := range seqs {
			if q.Path.Database == sch && q.Path.Table == name {
				return q, true
			}
		}
	}
	return fluss.SequenceInfo{}, false
}

var _ functions.SequenceCatalog = (*Catalog)(nil)

// SequenceByOID implements functions.SequenceCatalog.
func (c *Catalog) SequenceByOID(ctx context.Context, oid uint32) (functions.SequenceState, bool, error) {
	q, ok, err := c.sequenceByOID(ctx, oid)
	if err != nil || !ok {
		return functions.SequenceState{}, false, err
	}
	d := q.Def
	return functions.SequenceState{Start: d.Start, Min: d.Min, Max: d.Max, Increment: d.Increment, Cache: d.Cache, Cycle: d.Cycle,
		TypeOID: sequenceTypeOID(d.Type), Last: q.Last, Called: q.Called}, true, nil
}
