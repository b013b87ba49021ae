package binder

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// FOREIGN KEY constraints of CREATE TABLE and ALTER TABLE ... ADD: the
// referenced table's key resolved with PostgreSQL's rules and errors, and
// the constraint named as PostgreSQL names it. A foreign key references
// its table's primary key, or the columns of one of its UNIQUE
// constraints or unique indexes (fluss.UniqueConstraint); the engine
// enforces it (engine/fk*.go).

// fkTable is a table a foreign key is bound against: its path, columns,
// primary key and unique constraints.
type fkTable struct {
	path    fluss.TablePath
	cols    []fluss.Column
	pk      []string
	uniques []fluss.UniqueConstraint
}

func fkTableOf(info fluss.TableInfo) fkTable {
	return fkTable{path: info.Path, cols: info.Descriptor.Schema.Columns, pk: info.Descriptor.Schema.PrimaryKey,
		uniques: fluss.MetaOf(info.Descriptor).Uniques}
}

// uniqueKey reports whether names are the columns of the table's primary
// key or of one of its unique constraints, in any order, as PostgreSQL
// matches a foreign key's referenced columns to a unique index.
func (t fkTable) uniqueKey(names []string) bool {
	if sameSet(names, t.pk) {
		return true
	}
	for _, u := range t.uniques {
		cols := make([]string, len(u.Columns))
		for k, c := range u.Columns {
			cols[k] = t.cols[c].Name
		}
		if sameSet(names, cols) {
			return true
		}
	}
	return false
}

func (t fkTable) column(name string) int {
	return slices.IndexFunc(t.cols, func(c fluss.Column) bool { return c.Name == name })
}

// bindForeignKeys binds CREATE TABLE's foreign keys over desc, the table
// being created (which may reference itself), into its metadata.
func (b *binder) bindForeignKeys(path fluss.TablePath, desc *fluss.TableDescriptor) error {
	clauses := b.stmt.ForeignKeys
	if len(clauses) == 0 {
		return nil
	}
	meta := fluss.MetaOf(*desc)
	self := fkTable{path: path, cols: desc.Schema.Columns, pk: desc.Schema.PrimaryKey, uniques: meta.Uniques}
	taken := ConstraintNames(self.path.Table, meta, len(self.pk) > 0)
	for _, c := range clauses {
		if c.Name != "" && taken[c.Name] {
			return sqlerr.ConstraintExists(c.Name, path.Table)
		}
		fk, err := bindForeignKey(b.ctx, b, self, c, taken)
		if err != nil {
			return err
		}
		taken[fk.Name] = true
		meta.ForeignKeys = append(meta.ForeignKeys, fk)
	}
	fluss.SetTableMeta(desc, meta)
	return nil
}

// AddForeignKey binds ALTER TABLE ... ADD [CONSTRAINT name] FOREIGN KEY
// of info's table (its definition as the statement's earlier actions
// leave it).
func AddForeignKey(ctx context.Context, cat Catalog, info fluss.TableInfo, c sql.ForeignKeyClause) (fluss.ForeignKey, error) {
	b := &binder{ctx: ctx, cat: cat}
	self := fkTableOf(info)
	taken := ConstraintNames(info.Path.Table, fluss.MetaOf(info.Descriptor), info.HasPrimaryKey())
	if c.Name != "" && taken[c.Name] {
		return fluss.ForeignKey{}, sqlerr.ConstraintExists(c.Name, info.Path.Table)
	}
	return bindForeignKey(ctx, b, self, c, taken)
}

// ConstraintNames are the names of a table's constraints: its primary
// key's (table_pkey), its CHECK constraints' and foreign keys'.
func ConstraintNames(table string, meta fluss.TableMeta, hasPK bool) map[string]bool {
	taken := map[string]bool{}
	if hasPK {
		taken[table+"_pkey"] = true
	}
	for _, c := range meta.Checks {
		taken[c.Name] = true
	}
	for _, fk := range meta.ForeignKeys {
		taken[fk.Name] = true
	}
	for _, u := range meta.Uniques {
		taken[u.Name] = true
	}
	return taken
}

// bindForeignKey resolves one foreign key of self.
func bindForeignKey(ctx context.Context, b *binder, self fkTable, c sql.ForeignKeyClause, taken map[string]bool) (fluss.ForeignKey, error) {
	fk := fluss.ForeignKey{Match: c.Match, OnDelete: c.OnDelete, OnUpdate: c.OnUpdate, Deferrable: c.Deferrable, Deferred: c.Deferred, NotValid: c.NotValid}
	parent := self
	refPath, err := b.resolvePath(c.RefSchema, c.RefTable, false)
	if err != nil {
		return fk, err
	}
	if refPath != self.path {
		info, err := b.cat.GetTable(ctx, refPath)
		if err != nil {
			return fk, b.relationAsWritten(err, c.RefSchema, c.RefTable)
		}
		parent = fkTableOf(info)
	}
	fk.RefTable = parent.path
	for _, name := range c.Columns {
		i := self.column(name)
		if i < 0 {
			return fk, errFKColumn(name)
		}
		fk.Columns = append(fk.Columns, i)
	}
	refNames := c.RefColumns
	if refNames == nil {
		if len(parent.pk) == 0 {
			return fk, sqlerr.New(sqlerr.UndefinedObject, "there is no primary key for referenced table \"%s\"", parent.path.Table)
		}
		refNames = parent.pk
	}
	for _, name := range refNames {
		i := parent.column(name)
		if i < 0 {
			return fk, errFKColumn(name)
		}
		fk.RefColumns = append(fk.RefColumns, i)
	}
	if len(fk.Columns) != len(fk.RefColumns) {
		return fk, sqlerr.New(invalidForeignKeyCode, "number of referencing and referenced columns for foreign key disagree")
	}
	if c.RefColumns != nil && !parent.uniqueKey(c.RefColumns) {
		return fk, sqlerr.New(invalidForeignKeyCode, "there is no unique constraint matching given keys for referenced table \"%s\"", parent.path.Table)
	}
	fk.Name = c.Name
	if fk.Name == "" {
		fk.Name = fkeyName(self.path.Table, c.Columns, taken)
	}
	for k, i := range fk.Columns {
		if err := ForeignKeyTypes(fk.Name, self.cols[i].Name, parent.cols[fk.RefColumns[k]].Name, self.cols[i].Type, parent.cols[fk.RefColumns[k]].Type); err != nil {
			return fk, err
		}
	}
	for _, name := range c.DeleteSetColumns {
		i := self.column(name)
		if i < 0 {
			return fk, errFKColumn(name)
		}
		if !slices.Contains(fk.Columns, i) {
			return fk, sqlerr.New(invalidForeignKeyCode, "column \"%s\" referenced in ON DELETE SET action must be part of foreign key", name)
		}
		fk.DeleteSetColumns = append(fk.DeleteSetColumns, i)
	}
	return fk, nil
}

// ForeignKeyTypes is the rule for one pair of a foreign key's columns:
// referencing column col of type ft, referenced column ref of type pt.
// CREATE TABLE and ADD CONSTRAINT check it, and so does ALTER COLUMN ...
// TYPE on either side of an existing key (PostgreSQL rebuilds the key
// after the change and refuses it alike).
func ForeignKeyTypes(name, col, ref string, ft, pt types.T) error {
	if fkCastOnly(ft, pt) {
		// PostgreSQL casts these to compare them; sqlgate compares a
		// key's values as stored
		return sqlerr.New(sqlerr.FeatureNotSupported, "foreign key constraint \"%s\" from type %s to type %s is not supported", name, ft.PGName(), pt.PGName()).
			WithHint("Declare the referencing column with the referenced column's type.")
	}
	if !fkComparable(ft, pt) {
		return sqlerr.New(sqlerr.DatatypeMismatch, "foreign key constraint \"%s\" cannot be implemented", name).
			WithDetail("Key columns \"%s\" and \"%s\" are of incompatible types: %s and %s.", col, ref, ft.PGName(), pt.PGName())
	}
	return nil
}

func errFKColumn(name string) error {
	return sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" referenced in foreign key constraint does not exist", name)
}

// sameSet reports whether a and b hold the same names (PostgreSQL matches
// the referenced columns to a unique key's in any order).
func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, n := range a {
		if !slices.Contains(b, n) {
			return false
		}
	}
	return true
}

// fkeyName is PostgreSQL's name for an unnamed foreign key:
// table_col1_col2_fkey, cut to 63 bytes as makeObjectName cuts it, with
// a number after fkey while the name is taken.
func fkeyName(table string, cols []string, taken map[string]bool) string {
	addition := strings.Join(cols, "_")
	if len(addition) > 63 {
		addition = addition[:63]
	}
	for n := 0; ; n++ {
		label := "fkey"
		if n > 0 {
			label = fmt.Sprintf("fkey%d", n)
		}
		if name := objectName(table, addition, label); !taken[name] {
			return name
		}
	}
}

// objectName is PostgreSQL's makeObjectName: name1_name2_label (name1_label
// when name2 is ""), within NAMEDATALEN-1 (63) bytes: while too long, the
// longer name loses a byte (name2 when they are as long), then each is cut
// back to a whole character (pg_mbcliplen). Every generated name uses it:
// foreign keys', CHECK constraints', SERIAL sequences'.
func objectName(name1, name2, label string) string {
	const maxIdent = 63
	overhead := len(label) + 1
	if name2 != "" {
		overhead++
	}
	n1, n2 := len(name1), len(name2)
	for n1+n2 > maxIdent-overhead {
		if n1 > n2 {
			n1--
		} else {
			n2--
		}
	}
	name1, name2 = clipChars(name1, n1), clipChars(name2, n2)
	if name2 == "" {
		return name1 + "_" + label
	}
	return name1 + "_" + name2 + "_" + label
}

// clipChars is s cut to at most n bytes at a character's start.
func clipChars(s string, n int) string {
	for n < len(s) && n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// fkComparable reports whether a referencing column of type fk can be
// compared with a referenced one of type pk by an equality PostgreSQL's
// foreign keys accept: the same type family, or fk implicitly cast to pk.
func fkComparable(fk, pk types.T) bool {
	family := func(t types.T) int {
		switch t.Kind {
		case types.Int8, types.Int16, types.Int32, types.Int64:
			return 1
		case types.Float32, types.Float64:
			return 2
		case types.Decimal:
			return 3
		case types.Char, types.String:
			if t.Variant != 0 {
				return 100 + int(t.Variant)
			}
			return 4
		case types.Timestamp, types.TimestampTZ, types.Date:
			return 5
		}
		return 1000 + int(t.Kind)
	}
	f, p := family(fk), family(pk)
	switch {
	case f == 3 && p == 3:
		return fk.Scale == pk.Scale // (a key's stored values compare)
	case f == p:
		return f < 1000 || fk.Kind != types.Array && fk.Kind != types.Map && fk.Kind != types.Row
	case f == 1 && p == 2: // integers cast to floats
		return true
	}
	return false
}

// fkCastOnly reports the pairs PostgreSQL's foreign keys accept by a cast
// that sqlgate does not make (an integer or a numeric referencing a
// numeric of another scale or a float).
func fkCastOnly(fk, pk types.T) bool {
	switch {
	case pk.Kind == types.Decimal:
		return fk.Kind == types.Int8 || fk.Kind == types.Int16 || fk.Kind == types.Int32 || fk.Kind == types.Int64 ||
			fk.Kind == types.Decimal && fk.Scale != pk.Scale
	case pk.Kind == types.Float32 || pk.Kind == types.Float64:
		return fk.Kind == types.Decimal
	}
	return false
}

// invalidForeignKeyCode is PostgreSQL's invalid_foreign_key (42830).
const invalidForeignKeyCode sqlerr.Code = "42830"
