package binder

import (
	"context"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// SequenceCatalog is the part of a catalog that reads sequences, which
// CREATE TABLE (LIKE ... INCLUDING IDENTITY) needs for the options of a
// source identity column's sequence. A catalog without it refuses that
// copy (0A000).
type SequenceCatalog interface {
	GetSequence(ctx context.Context, path fluss.TablePath) (fluss.SequenceInfo, error)
}

// likeCopy is what one LIKE element copies from its source table.
type likeCopy struct {
	cols []fluss.Column
	meta []fluss.ColumnMeta
	// pk is the source's primary key (INCLUDING INDEXES).
	pk []string
	// checks are the source's CHECK constraints (INCLUDING CONSTRAINTS),
	// named as in the source and valid: PostgreSQL skips their validation
	// because the new table is empty.
	checks []fluss.CheckConstraint
	// uniques are the source's UNIQUE constraints and unique indexes
	// (INCLUDING INDEXES), by column names.
	uniques []likeUnique
	// identity holds, by index in cols, the sequence options of the
	// source's identity columns (INCLUDING IDENTITY): each gets a new
	// sequence of the same options, as PostgreSQL's
	// transformTableLikeClause makes through sequence_options.
	identity map[int]fluss.SequenceDef
}

// likeUnique is a UNIQUE constraint (or, index, a unique index) LIKE ...
// INCLUDING INDEXES copies: PostgreSQL's generateClonedIndexStmt leaves
// its name for the new table to choose.
type likeUnique struct {
	columns []string
	index   bool
}

// likeExtras are the CHECK constraints, unique constraints and identity
// sequences that a CREATE TABLE's LIKE elements copied, the identity
// columns by their index in the new table; bindColumnMeta and bindUniques
// apply them.
type likeExtras struct {
	checks   []fluss.CheckConstraint
	uniques  []likeUnique
	identity map[int]fluss.SequenceDef
}

func (x *likeExtras) empty() bool {
	return x == nil || len(x.checks) == 0 && len(x.identity) == 0
}

// add takes in one LIKE element's copy, whose first column is the new
// table's column at.
func (x *likeExtras) add(c *likeCopy, at int) {
	x.checks = append(x.checks, c.checks...)
	x.uniques = append(x.uniques, c.uniques...)
	for i, def := range c.identity {
		if x.identity == nil {
			x.identity = map[int]fluss.SequenceDef{}
		}
		x.identity[at+i] = def
	}
}

// likeColumns expands the placeholder column of a CREATE TABLE (LIKE
// source ...) element (sql.LikeClause) into the source's columns, as
// PostgreSQL copies them: names, types (the declared PostgreSQL type too:
// numeric, jsonb) and NOT NULL always; comments with INCLUDING COMMENTS;
// defaults with INCLUDING DEFAULTS (a SERIAL's nextval default then reads
// the source's sequence, as in PostgreSQL); the primary key and the
// UNIQUE constraints and indexes with INCLUDING INDEXES; generation expressions
// with INCLUDING GENERATED; CHECK constraints with INCLUDING CONSTRAINTS;
// identity columns, each with a new sequence of its source's options,
// with INCLUDING IDENTITY. ok is false when name is no placeholder.
func (b *binder) likeColumns(name string) (lc *likeCopy, ok bool, err error) {
	rest, found := strings.CutPrefix(name, "pg__like_")
	if !found {
		return nil, false, nil
	}
	k, err := strconv.Atoi(rest)
	if err != nil || k < 0 || k >= len(b.stmt.CreateLike) {
		return nil, false, nil
	}
	clause := b.stmt.CreateLike[k]
	path := fluss.TablePath{Database: clause.Schema, Table: clause.Table}
	if path.Database == "" {
		path.Database = fluss.DefaultDatabase
	}
	info, err := b.cat.GetTable(b.ctx, path)
	if err != nil {
		if se := sqlerr.As(b.relationAsWritten(err, clause.Schema, clause.Table)); se != nil {
			return nil, true, se.WithPosition(clause.Pos)
		}
		return nil, true, err
	}
	src := fluss.MetaOf(info.Descriptor)
	lc = &likeCopy{}
	if clause.Including["constraints"] {
		for _, c := range src.Checks {
			lc.checks = append(lc.checks, fluss.CheckConstraint{Name: c.Name, Expr: c.Expr})
		}
	}
	for i, c := range info.Descriptor.Schema.Columns {
		if !clause.Including["comments"] {
			c.Comment = ""
		}
		m := src.Column(i)
		out := fluss.ColumnMeta{PGType: m.PGType, Collation: m.Collation} // a column definition keeps its collation
		if m.Identity != 0 && clause.Including["identity"] {
			def, err := b.identityOptions(info.Path, m.Sequence)
			if err != nil {
				return nil, true, err
			}
			if lc.identity == nil {
				lc.identity = map[int]fluss.SequenceDef{}
			}
			lc.identity[i] = def
			out.Identity = m.Identity
		}
		if clause.Including["defaults"] && m.Identity == 0 {
			out.Default = m.Default
		}
		if clause.Including["generated"] {
			out.Generated = m.Generated // without it, a plain column (generated.go)
		}
		lc.cols = append(lc.cols, c)
		lc.meta = append(lc.meta, out)
	}
	if clause.Including["indexes"] {
		lc.pk = append(lc.pk, info.Descriptor.Schema.PrimaryKey...)
		for _, u := range src.Uniques {
			lc.uniques = append(lc.uniques, likeUnique{columns: columnNames(info.Descriptor.Schema.Columns, u.Columns), index: u.Index})
		}
	}
	return lc, true, nil
}

// identityOptions reads the options of the sequence seq (in table's
// schema) of an identity column that LIKE ... INCLUDING IDENTITY copies.
func (b *binder) identityOptions(table fluss.TablePath, seq string) (fluss.SequenceDef, error) {
	sc, ok := b.cat.(SequenceCatalog)
	if !ok {
		return fluss.SequenceDef{}, sqlerr.NotSupported("CREATE TABLE (LIKE ... INCLUDING IDENTITY) on a store without sequences")
	}
	si, err := sc.GetSequence(b.ctx, fluss.TablePath{Database: table.Database, Table: seq})
	if err != nil {
		return fluss.SequenceDef{}, err
	}
	def := si.Def
	def.OwnedBy, def.OwnedColumn, def.Identity = fluss.TablePath{}, "", false
	return def, nil
}

// applyLikeMeta writes the copied columns' metadata (by column index)
// into desc.
func applyLikeMeta(desc *fluss.TableDescriptor, meta map[int]fluss.ColumnMeta) {
	if len(meta) == 0 {
		return
	}
	m := fluss.MetaOf(*desc)
	for i, c := range meta {
		if i < len(m.Columns) {
			m.Columns[i] = c
		}
	}
	fluss.SetTableMeta(desc, m)
}
