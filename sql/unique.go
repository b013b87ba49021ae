package sql

import "github.com/sqlgate/sqlgate/sqlerr"

// UniqueClause is a UNIQUE constraint of CREATE TABLE or ALTER TABLE ...
// ADD: a column's UNIQUE (Column set, Columns that one column) or a
// table's UNIQUE (cols), taken out of the text TiDB parses for the binder
// (binder/unique.go), which names it as PostgreSQL does when Name is "".
type UniqueClause struct {
	Name    string
	Column  string
	Columns []string
	Pos     int
	// NullsNotDistinct is NULLS NOT DISTINCT (PostgreSQL 15).
	NullsNotDistinct bool
}

// uniqueClause reads UNIQUE [NULLS [NOT] DISTINCT] [(cols)] at toks[i]
// (the list only for a table constraint, column ""), and returns the
// index after it. What PostgreSQL accepts after it and sqlgate has no use
// for (DEFERRABLE, an index's INCLUDE, WITH or tablespace) is refused
// with 0A000.
func uniqueClause(src string, toks []token, i int, column, name string) (UniqueClause, int, error) {
	p := &fkParser{sessionParser{src: src, toks: toks, pos: i}}
	u := UniqueClause{Name: name, Column: column, Pos: charPos(src, toks[i].start)}
	p.pos++ // UNIQUE
	if p.accept("NULLS") {
		u.NullsNotDistinct = p.accept("NOT")
		if !p.accept("DISTINCT") {
			return u, 0, p.err()
		}
	}
	if column == "" {
		cols, err := p.columnList()
		if err != nil {
			return u, 0, err
		}
		u.Columns = cols
	} else {
		u.Columns = []string{column}
	}
	switch p.word(0) {
	case "DEFERRABLE", "INITIALLY", "INCLUDE", "WITH", "USING":
		return u, 0, sqlerr.New(sqlerr.FeatureNotSupported, "UNIQUE ... %s is not supported", p.word(0)).
			WithPosition(charPos(src, toks[p.pos].start))
	case "NOT":
		if p.word(1) == "DEFERRABLE" {
			p.pos += 2
		}
	}
	return u, p.pos, nil
}

// primaryKeyClause reads PRIMARY KEY (cols) of ALTER TABLE ... ADD at
// toks[i] and returns the index after it; Pos is PRIMARY's position (the
// caller moves it to CONSTRAINT's: where PostgreSQL points a column named
// twice). What uniqueClause refuses after
// the list is refused here too.
func primaryKeyClause(src string, toks []token, i int, name string) (UniqueClause, int, error) {
	p := &fkParser{sessionParser{src: src, toks: toks, pos: i}}
	u := UniqueClause{Name: name, Pos: charPos(src, toks[i].start)}
	p.pos++ // PRIMARY
	if !p.accept("KEY") {
		return u, 0, p.err()
	}
	cols, err := p.columnList()
	if err != nil {
		return u, 0, err
	}
	u.Columns = cols
	switch p.word(0) {
	case "DEFERRABLE", "INITIALLY", "INCLUDE", "WITH", "USING":
		return u, 0, sqlerr.New(sqlerr.FeatureNotSupported, "PRIMARY KEY ... %s is not supported", p.word(0)).
			WithPosition(charPos(src, toks[p.pos].start))
	case "NOT":
		if p.word(1) == "DEFERRABLE" {
			p.pos += 2
		}
	}
	return u, p.pos, nil
}
