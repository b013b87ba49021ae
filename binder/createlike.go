package binder

import (
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// likeColumns expands the placeholder column of a CREATE TABLE (LIKE
// source ...) element (sql.LikeClause) into the source's columns, as
// PostgreSQL copies them: names, types and NOT NULL always; comments with
// INCLUDING COMMENTS; the primary key with INCLUDING INDEXES (a Fluss
// table's only index). Defaults, constraints and the rest are options
// sqlgate's tables do not have, so including them copies nothing. ok is
// false when name is no placeholder.
func (b *binder) likeColumns(name string) (cols []fluss.Column, pk []string, ok bool, err error) {
	rest, found := strings.CutPrefix(name, "pg__like_")
	if !found {
		return nil, nil, false, nil
	}
	k, err := strconv.Atoi(rest)
	if err != nil || k < 0 || k >= len(b.stmt.CreateLike) {
		return nil, nil, false, nil
	}
	lc := b.stmt.CreateLike[k]
	path := fluss.TablePath{Database: lc.Schema, Table: lc.Table}
	if path.Database == "" {
		path.Database = fluss.DefaultDatabase
	}
	info, err := b.cat.GetTable(b.ctx, path)
	if err != nil {
		if se := sqlerr.As(err); se != nil {
			return nil, nil, true, se.WithPosition(lc.Pos)
		}
		return nil, nil, true, err
	}
	for _, c := range info.Descriptor.Schema.Columns {
		if !lc.Including["comments"] {
			c.Comment = ""
		}
		cols = append(cols, c)
	}
	if lc.Including["indexes"] {
		pk = append(pk, info.Descriptor.Schema.PrimaryKey...)
	}
	return cols, pk, true, nil
}
