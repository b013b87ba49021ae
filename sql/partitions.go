package sql

import (
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// Partitioned tables' syntax, as Fluss's Flink SQL has it:
//
//	CREATE TABLE t (...) PARTITIONED BY (col [, col ...]) WITH (...)
//	ALTER TABLE t ADD [IF NOT EXISTS] PARTITION (col = 'v' [, ...])
//	ALTER TABLE t DROP [IF EXISTS] PARTITION (col = 'v' [, ...])
//	SHOW PARTITIONS t
//
// PARTITIONED BY is taken out of the text TiDB parses (into
// Statement.PartitionKeys); the ALTER TABLE actions are parsed here.

// partitionedBy reads PARTITIONED BY (cols) at toks[i], if it is there,
// into st.PartitionKeys and returns the index after it.
func partitionedBy(src string, toks []token, i int, st *Statement) (int, error) {
	if i+2 >= len(toks) || !toks[i].is(src, "PARTITIONED") || !toks[i+1].is(src, "BY") || !toks[i+2].isPunct(src, "(") {
		return i, nil
	}
	j := i + 3
	for {
		if j >= len(toks) {
			return j, syntaxErrorAt(src, toks, j)
		}
		name, ok := identName(src, toks[j])
		if !ok {
			return j, syntaxErrorAt(src, toks, j)
		}
		st.PartitionKeys = append(st.PartitionKeys, name)
		j++
		if j < len(toks) && toks[j].isPunct(src, ",") {
			j++
			continue
		}
		if j < len(toks) && toks[j].isPunct(src, ")") {
			return j + 1, nil
		}
		return j, syntaxErrorAt(src, toks, j)
	}
}

// partitionAction parses the rest of ALTER TABLE ... ADD / DROP when it is
// a PARTITION action (ok), after ADD or DROP.
func (p *ddlParser) partitionAction(add bool) (AlterAction, bool, error) {
	start := p.pos
	a := AlterAction{Kind: AlterDropPartition}
	if add {
		a.Kind = AlterAddPartition
		a.IfNotExists = p.accept("IF", "NOT", "EXISTS")
	} else {
		a.IfNotExists = p.accept("IF", "EXISTS") // IF EXISTS: a missing partition is no error
	}
	if !p.accept("PARTITION") {
		p.pos = start
		return a, false, nil
	}
	if !p.punct("(") {
		return a, true, p.err()
	}
	for {
		k, err := p.ident()
		if err != nil {
			return a, true, err
		}
		if !p.punct("=") {
			return a, true, p.err()
		}
		v, err := p.value()
		if err != nil {
			return a, true, err
		}
		a.Props = append(a.Props, [2]string{k, v})
		if p.punct(")") {
			return a, true, nil
		}
		if !p.punct(",") {
			return a, true, p.err()
		}
	}
}

// PostgreSQL's table clauses. Its declarative partitioning by LIST over one
// column maps onto Fluss's partitions: PARTITION BY LIST (col) makes a
// partitioned table (Statement.PartitionKeys, PartitionStrategy) and
// CREATE TABLE p PARTITION OF t FOR VALUES IN (v) (PartitionOfStmt) the
// partition of v, which engine/pgpartitions.go names p. What has no Fluss
// counterpart is a 0A000 at its keyword, where the grammar TiDB knows
// would otherwise give a syntax error somewhere later: RANGE and HASH
// partitioning, inheritance (INHERITS), table access methods (USING)
// other than heap, PostgreSQL's only one, which is taken and dropped.

// partitionHint points PostgreSQL's partitioning at Fluss's.
const partitionHint = "A Fluss partitioned table has one partition per value of its partition columns: CREATE TABLE t (...) PARTITIONED BY (col), partitions added with ALTER TABLE t ADD PARTITION (col = 'v')."

// PartitionStrategyList is Statement.PartitionStrategy of CREATE TABLE ...
// PARTITION BY LIST (col): PostgreSQL's declarative partitioning that maps
// onto Fluss's partitions (one partition per value of col).
const PartitionStrategyList = "list"

// pgTableClauses checks the clauses after a CREATE TABLE's column list at
// toks[i] and returns the index after a PARTITION BY LIST (col) or a USING
// heap it took.
func pgTableClauses(src string, toks []token, i int, st *Statement) (int, error) {
	at := func(k int) int { return charPos(src, toks[k].start) }
	switch {
	case i+1 < len(toks) && toks[i].is(src, "PARTITION") && toks[i+1].is(src, "BY"):
		return partitionByList(src, toks, i, st)
	case i < len(toks) && toks[i].is(src, "INHERITS"):
		return i, sqlerr.NotSupported("table inheritance (INHERITS)").WithPosition(at(i))
	case i+1 < len(toks) && toks[i].is(src, "USING"):
		name, ok := identName(src, toks[i+1])
		if !ok {
			return i, syntaxErrorAt(src, toks, i+1)
		}
		if name != "heap" {
			return i, sqlerr.New(sqlerr.UndefinedObject, "access method \"%s\" does not exist", name).WithPosition(at(i + 1))
		}
		return i + 2, nil
	}
	return i, nil
}

// partitionByList reads PARTITION BY strategy (key [, ...]) at toks[i]:
// LIST over one plain column becomes Fluss's partitioning on that column
// (Statement.PartitionKeys, PartitionStrategy). RANGE and HASH have no
// Fluss counterpart (0A000 with the hint at PARTITIONED BY); several LIST
// columns are PostgreSQL's own 42P17, an unknown strategy its 22023, and a
// key expression (Fluss partitions by columns only) 0A000.
func partitionByList(src string, toks []token, i int, st *Statement) (int, error) {
	at := func(k int) int { return charPos(src, toks[k].start) }
	if i+2 >= len(toks) {
		return i, syntaxErrorAt(src, toks, min(i+2, len(toks)))
	}
	strategy, ok := identName(src, toks[i+2])
	if !ok || toks[i+2].kind != tkIdent {
		return i, syntaxErrorAt(src, toks, i+2)
	}
	j := i + 3
	if j >= len(toks) || !toks[j].isPunct(src, "(") {
		return i, syntaxErrorAt(src, toks, j)
	}
	// the key elements: a column name, or anything else (an expression)
	var cols []string
	var exprAt []int
	j++
	for {
		start, depth := j, 0
		for j < len(toks) && (depth > 0 || !toks[j].isPunct(src, ",") && !toks[j].isPunct(src, ")")) {
			switch {
			case toks[j].isPunct(src, "("):
				depth++
			case toks[j].isPunct(src, ")"):
				depth--
			}
			j++
		}
		if j >= len(toks) || j == start {
			return i, syntaxErrorAt(src, toks, j)
		}
		name, ok := identName(src, toks[start])
		if j == start+1 && ok {
			cols = append(cols, name)
		} else {
			cols = append(cols, "")
			exprAt = append(exprAt, start)
		}
		if toks[j].isPunct(src, ")") {
			j++
			break
		}
		j++
	}
	switch strategy {
	case "range", "hash":
		return i, sqlerr.NotSupported("PARTITION BY " + strings.ToUpper(strategy)).WithHint(partitionHint).WithPosition(at(i))
	case PartitionStrategyList:
	default:
		return i, sqlerr.New(sqlerr.InvalidParameterValue, "unrecognized partitioning strategy \"%s\"", strategy)
	}
	if len(cols) > 1 {
		return i, sqlerr.New(sqlerr.InvalidObjectDefinition, "cannot use \"list\" partition strategy with more than one column")
	}
	if len(exprAt) > 0 {
		return i, sqlerr.NotSupported("a partition key expression").WithHint("A Fluss table is partitioned by its columns' values: PARTITION BY LIST (col).").WithPosition(at(exprAt[0]))
	}
	st.PartitionKeys, st.PartitionStrategy = cols, PartitionStrategyList
	return j, nil
}

// PartitionOfStmt is CREATE TABLE name PARTITION OF parent FOR VALUES IN
// (v [, ...]) | DEFAULT (Statement.DDL.PartitionOf, Kind CreatePartition).
type PartitionOfStmt struct {
	Table, Parent ObjectName
	IfNotExists   bool
	// Bound is the bound's kind: "IN", "FROM" (a range's), "WITH" (a
	// hash's) or "DEFAULT"; BoundPos its position (1-based characters).
	Bound    string
	BoundPos int
	// Values are FOR VALUES IN's items as written, ValuePos their
	// positions.
	Values   []string
	ValuePos []int
}

// createPartitionOf parses CREATE TABLE [IF NOT EXISTS] name PARTITION OF
// parent FOR VALUES ... | DEFAULT, after CREATE TABLE; ok is false (and
// nothing is consumed) when the statement is another CREATE TABLE.
func (p *ddlParser) createPartitionOf(st *Statement) (bool, error) {
	start := p.pos
	ifNot := p.accept("IF", "NOT", "EXISTS")
	name, err := p.objectName()
	if err != nil || p.word(0) != "PARTITION" || p.word(1) != "OF" {
		p.pos = start
		return false, nil
	}
	p.pos += 2
	po := &PartitionOfStmt{Table: name, IfNotExists: ifNot}
	st.Kind, st.DDL = CreatePartition, &DDLStmt{PartitionOf: po}
	if po.Parent, err = p.objectName(); err != nil {
		return true, err
	}
	if p.pos < len(p.toks) && p.toks[p.pos].isPunct(p.src, "(") {
		return true, p.notSupported("column definitions of a partition", "A partition has its parent table's columns and constraints.")
	}
	if done, err := p.partitionBoundSpec(po); done || err != nil {
		return true, err
	}
	if p.pos < len(p.toks) && p.word(0) == "PARTITION" {
		return true, p.notSupported("a partition that is itself partitioned", partitionHint)
	}
	return true, p.done()
}

// partitionBoundSpec reads FOR VALUES IN (...) | FROM ... | WITH ... |
// DEFAULT into po (CREATE TABLE ... PARTITION OF, ALTER TABLE ... ATTACH
// PARTITION); done is true when the statement is read to its end (a
// range's or a hash's bound, refused once the parent says its strategy).
func (p *ddlParser) partitionBoundSpec(po *PartitionOfStmt) (done bool, err error) {
	po.BoundPos = p.pos + 1
	if p.pos < len(p.toks) {
		po.BoundPos = charPos(p.src, p.toks[p.pos].start)
	}
	switch {
	case p.accept("DEFAULT"):
		po.Bound = "DEFAULT"
	case p.accept("FOR", "VALUES"):
		switch {
		case p.accept("IN"):
			po.Bound = "IN"
		case p.accept("FROM"), p.accept("WITH"):
			po.Bound = strings.ToUpper(p.toks[p.pos-1].word(p.src))
		default:
			return true, p.err()
		}
		if !p.punct("(") {
			return true, p.err()
		}
		for po.Bound == "IN" {
			pos := p.pos
			text, err := p.listItem()
			if err != nil {
				return true, err
			}
			po.Values = append(po.Values, text)
			po.ValuePos = append(po.ValuePos, charPos(p.src, p.toks[pos].start))
			if p.punct(")") {
				break
			}
			if !p.punct(",") {
				return true, p.err()
			}
		}
		if po.Bound != "IN" {
			return true, nil // refused once the parent says its strategy
		}
	default:
		return true, p.err()
	}
	return false, nil
}

// listItem reads one item of a parenthesised list: the tokens up to a ','
// or ')' at depth 0, as source text.
func (p *ddlParser) listItem() (string, error) {
	start, depth := p.pos, 0
	for p.pos < len(p.toks) {
		t := p.toks[p.pos]
		if depth == 0 && (t.isPunct(p.src, ",") || t.isPunct(p.src, ")")) {
			break
		}
		if t.isPunct(p.src, "(") {
			depth++
		} else if t.isPunct(p.src, ")") {
			depth--
		}
		p.pos++
	}
	if p.pos == start || p.pos >= len(p.toks) {
		return "", p.err()
	}
	return strings.TrimSpace(p.src[p.toks[start].start:p.toks[p.pos-1].end]), nil
}

// pgPartitionOf refuses CREATE TEMP | UNLOGGED TABLE t PARTITION OF parent
// at toks[i] (CREATE TABLE t PARTITION OF parent is createPartitionOf's).
func pgPartitionOf(src string, toks []token, i int) error {
	if i+1 < len(toks) && toks[i].is(src, "PARTITION") && toks[i+1].is(src, "OF") {
		return sqlerr.NotSupported("CREATE TEMP TABLE ... PARTITION OF").WithHint(partitionHint).WithPosition(charPos(src, toks[i].start))
	}
	return nil
}
