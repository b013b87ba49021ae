package binder

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// UNIQUE constraints beyond the primary key (CREATE TABLE's column and
// table constraints, ALTER TABLE ... ADD [CONSTRAINT name] UNIQUE, CREATE
// UNIQUE INDEX): their columns resolved and the constraint named as
// PostgreSQL names it, kept in the table's metadata
// (fluss.UniqueConstraint). The engine enforces them through an index
// table of the store (engine/unique*.go).

// bindUniques binds CREATE TABLE's UNIQUE constraints over desc into its
// metadata, then those its LIKE elements copied (copied: named afresh, as
// PostgreSQL's expandTableLikeClause makes them after the table). As
// PostgreSQL's transformIndexConstraints, a constraint on
// the primary key's columns (in its order), or on another's, is dropped as
// redundant, its name passed to an unnamed one it repeats.
func (b *binder) bindUniques(path fluss.TablePath, desc *fluss.TableDescriptor, copied []likeUnique) error {
	clauses := b.stmt.Uniques
	if len(clauses) == 0 && len(copied) == 0 {
		return nil
	}
	meta := fluss.MetaOf(*desc)
	pk := desc.Schema.PrimaryKey
	taken := ConstraintNames(path.Table, meta, len(pk) > 0)
	for _, c := range clauses {
		if c.Name != "" && taken[c.Name] {
			return sqlerr.RelationExists(c.Name)
		}
		if c.Name != "" {
			taken[c.Name] = true
		}
	}
	var named []string // the names given, by index of meta.Uniques
	for _, c := range clauses {
		cols, err := uniqueColumns(desc.Schema.Columns, c)
		if err != nil {
			return err
		}
		if slices.Equal(columnNames(desc.Schema.Columns, cols), pk) {
			continue // UNIQUE PRIMARY KEY: the primary key's index serves
		}
		if k := slices.IndexFunc(meta.Uniques, func(u fluss.UniqueConstraint) bool { return slices.Equal(u.Columns, cols) }); k >= 0 {
			if named[k] == "" && c.Name != "" {
				named[k] = c.Name
			}
			continue
		}
		meta.Uniques = append(meta.Uniques, fluss.UniqueConstraint{Name: c.Name, Columns: cols, ID: fluss.NextUniqueID(meta)})
		named = append(named, c.Name)
	}
	for k := range meta.Uniques {
		u := &meta.Uniques[k]
		if named[k] != "" {
			u.Name = named[k]
			continue
		}
		u.Name = uniqueName(path.Table, columnNames(desc.Schema.Columns, u.Columns), "key", taken)
		taken[u.Name] = true
	}
	for _, lu := range copied {
		var cols []int
		for _, name := range lu.columns {
			cols = append(cols, slices.IndexFunc(desc.Schema.Columns, func(c fluss.Column) bool { return c.Name == name }))
		}
		if slices.Contains(cols, -1) {
			continue // no such column: the LIKE copied it, so never here
		}
		// Not merged with the table's own constraint on the same columns:
		// PostgreSQL makes the copy a second index (name_key1).
		label := "key"
		if lu.index {
			label = "idx"
		}
		name := uniqueName(path.Table, lu.columns, label, taken)
		taken[name] = true
		meta.Uniques = append(meta.Uniques, fluss.UniqueConstraint{Name: name, Columns: cols, Index: lu.index, ID: fluss.NextUniqueID(meta)})
	}
	fluss.SetTableMeta(desc, meta)
	return nil
}

// uniqueColumns resolves a UNIQUE clause's columns (42703 for a column
// the table lacks, 42701 for one named twice, as PostgreSQL's).
func uniqueColumns(cols []fluss.Column, c sql.UniqueClause) ([]int, error) {
	var out []int
	for _, name := range c.Columns {
		i := slices.IndexFunc(cols, func(col fluss.Column) bool { return col.Name == name })
		if i < 0 {
			return nil, sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" named in key does not exist", name).WithPosition(c.Pos)
		}
		if slices.Contains(out, i) {
			return nil, sqlerr.New(sqlerr.DuplicateColumn, "column \"%s\" appears twice in unique constraint", name).WithPosition(c.Pos)
		}
		out = append(out, i)
	}
	if c.NullsNotDistinct {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "UNIQUE NULLS NOT DISTINCT is not supported").WithPosition(c.Pos).
			WithHint("Declare the columns NOT NULL, which makes NULLS NOT DISTINCT the same as the default.")
	}
	return out, nil
}

// columnNames are the names of columns idx.
func columnNames(cols []fluss.Column, idx []int) []string {
	out := make([]string, len(idx))
	for i, c := range idx {
		out[i] = cols[c].Name
	}
	return out
}

// uniqueName is PostgreSQL's ChooseRelationName for a unique constraint
// (label "key") or index ("idx"): table_col1_col2_label, cut to 63 bytes
// as makeObjectName cuts it, with a number after the label while taken.
func uniqueName(table string, cols []string, label string, taken map[string]bool) string {
	addition := strings.Join(cols, "_")
	if len(addition) > 63 {
		addition = addition[:63]
	}
	for n := 0; ; n++ {
		l := label
		if n > 0 {
			l = fmt.Sprintf("%s%d", label, n)
		}
		if name := objectName(table, addition, l); !taken[name] { // fkeys.go
			return name
		}
	}
}

// AddUnique binds ALTER TABLE ... ADD [CONSTRAINT name] UNIQUE (cols) or
// CREATE UNIQUE INDEX [name] ON t (cols) (index) of info's table: the
// constraint to add, named as PostgreSQL would name it. A name taken by
// one of the table's constraints is 42P07 as PostgreSQL reports the
// index's relation (42710 for a CHECK's or a foreign key's name).
func AddUnique(ctx context.Context, cat Catalog, info fluss.TableInfo, c sql.UniqueClause, index bool) (fluss.UniqueConstraint, error) {
	meta := fluss.MetaOf(info.Descriptor)
	cols, err := uniqueColumns(info.Descriptor.Schema.Columns, c)
	if err != nil {
		return fluss.UniqueConstraint{}, withoutPosition(err)
	}
	taken := ConstraintNames(info.Path.Table, meta, info.HasPrimaryKey())
	name := c.Name
	switch {
	case name != "" && taken[name] && !index && !slices.ContainsFunc(meta.Uniques, func(u fluss.UniqueConstraint) bool { return u.Name == name }) && name != info.Path.Table+"_pkey":
		return fluss.UniqueConstraint{}, sqlerr.ConstraintExists(name, info.Path.Table)
	case name != "" && (taken[name] || name == info.Path.Table):
		return fluss.UniqueConstraint{}, sqlerr.RelationExists(name)
	case name == "" && index:
		name = uniqueName(info.Path.Table, columnNames(info.Descriptor.Schema.Columns, cols), "idx", taken)
	case name == "":
		name = uniqueName(info.Path.Table, columnNames(info.Descriptor.Schema.Columns, cols), "key", taken)
	}
	return fluss.UniqueConstraint{Name: name, Columns: cols, Index: index, ID: fluss.NextUniqueID(meta)}, nil
}

// uniqueTargetOf reports whether ON CONFLICT (target) names the columns
// of one of info's unique constraints or indexes (in any order).
func uniqueTargetOf(target []string, info fluss.TableInfo) bool {
	for _, u := range fluss.MetaOf(info.Descriptor).Uniques {
		if sameSet(target, columnNames(info.Descriptor.Schema.Columns, u.Columns)) { // fkeys.go
			return true
		}
	}
	return false
}

// checkConflictConstraint checks ON CONFLICT ON CONSTRAINT name: the
// table's primary key or one of its UNIQUE constraints, else
// PostgreSQL's 42704.
func checkConflictConstraint(name string, info fluss.TableInfo) error {
	if info.HasPrimaryKey() && name == info.PrimaryKeyName() {
		return nil
	}
	for _, u := range fluss.MetaOf(info.Descriptor).Uniques {
		if u.Name == name && !u.Index {
			return nil
		}
	}
	return sqlerr.New(sqlerr.UndefinedObject, "constraint \"%s\" for table \"%s\" does not exist", name, info.Path.Table)
}

// conflictArbiter names the constraint ON CONFLICT (target) or ON
// CONSTRAINT name infers (checked before): the primary key's name when
// the target is its columns, a unique constraint's; "" without either.
func conflictArbiter(target []string, constraint string, info fluss.TableInfo) string {
	switch {
	case constraint != "":
		return constraint
	case target == nil:
		return ""
	case sameSet(target, info.Descriptor.Schema.PrimaryKey):
		return info.PrimaryKeyName()
	}
	for _, u := range fluss.MetaOf(info.Descriptor).Uniques {
		if sameSet(target, columnNames(info.Descriptor.Schema.Columns, u.Columns)) {
			return u.Name
		}
	}
	return ""
}
