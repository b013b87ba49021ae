package binder

import (
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// likeColumns expands the placeholder column of a CREATE TABLE (LIKE
// source ...) element (sql.LikeClause) into the source's columns, as
// PostgreSQL copies them: names, types (the declared PostgreSQL type too:
// numeric, jsonb) and NOT NULL always; comments with INCLUDING COMMENTS;
// defaults with INCLUDING DEFAULTS (a SERIAL's nextval default then reads
// the source's sequence, as in PostgreSQL); the primary key with
// INCLUDING INDEXES (a Fluss table's only index); generation expressions
// with INCLUDING GENERATED. Copying an identity
// column's generator or CHECK constraints is not built: INCLUDING
// IDENTITY or CONSTRAINTS of a source that has them is 0A000. ok is false
// when name is no placeholder; meta holds each copied column's metadata.
func (b *binder) likeColumns(name string) (cols []fluss.Column, meta []fluss.ColumnMeta, pk []string, ok bool, err error) {
	rest, found := strings.CutPrefix(name, "pg__like_")
	if !found {
		return nil, nil, nil, false, nil
	}
	k, err := strconv.Atoi(rest)
	if err != nil || k < 0 || k >= len(b.stmt.CreateLike) {
		return nil, nil, nil, false, nil
	}
	lc := b.stmt.CreateLike[k]
	path := fluss.TablePath{Database: lc.Schema, Table: lc.Table}
	if path.Database == "" {
		path.Database = fluss.DefaultDatabase
	}
	info, err := b.cat.GetTable(b.ctx, path)
	if err != nil {
		if se := sqlerr.As(err); se != nil {
			return nil, nil, nil, true, se.WithPosition(lc.Pos)
		}
		return nil, nil, nil, true, err
	}
	src := fluss.MetaOf(info.Descriptor)
	if lc.Including["constraints"] && len(src.Checks) > 0 {
		return nil, nil, nil, true, sqlerr.NotSupported("CREATE TABLE (LIKE ... INCLUDING CONSTRAINTS) of a table with CHECK constraints")
	}
	for i, c := range info.Descriptor.Schema.Columns {
		if !lc.Including["comments"] {
			c.Comment = ""
		}
		m := src.Column(i)
		if m.Identity != 0 && lc.Including["identity"] {
			return nil, nil, nil, true, sqlerr.NotSupported("CREATE TABLE (LIKE ... INCLUDING IDENTITY) of a table with an identity column")
		}
		out := fluss.ColumnMeta{PGType: m.PGType}
		if lc.Including["defaults"] && m.Identity == 0 {
			out.Default = m.Default
		}
		if lc.Including["generated"] {
			out.Generated = m.Generated // without it, a plain column (generated.go)
		}
		cols = append(cols, c)
		meta = append(meta, out)
	}
	if lc.Including["indexes"] {
		pk = append(pk, info.Descriptor.Schema.PrimaryKey...)
	}
	return cols, meta, pk, true, nil
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
