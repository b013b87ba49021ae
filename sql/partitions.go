package sql

import "github.com/sqlgate/sqlgate/sqlerr"

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

// PostgreSQL's table clauses that have no Fluss counterpart: its
// declarative partitioning (PARTITION BY RANGE / LIST / HASH, PARTITION
// OF), inheritance (INHERITS) and table access methods (USING). Each is a
// 0A000 at its keyword, where the grammar TiDB knows would otherwise give a
// syntax error somewhere later (or, for PARTITION BY LIST, at the
// statement's start). USING heap, PostgreSQL's only table access method,
// is taken and dropped.

// partitionHint points PostgreSQL's partitioning at Fluss's.
const partitionHint = "A Fluss partitioned table has one partition per value of its partition columns: CREATE TABLE t (...) PARTITIONED BY (col), partitions added with ALTER TABLE t ADD PARTITION (col = 'v')."

// pgTableClauses checks the clauses after a CREATE TABLE's column list at
// toks[i] and returns the index after a USING heap it took.
func pgTableClauses(src string, toks []token, i int) (int, error) {
	at := func(k int) int { return charPos(src, toks[k].start) }
	switch {
	case i+1 < len(toks) && toks[i].is(src, "PARTITION") && toks[i+1].is(src, "BY"):
		return i, sqlerr.NotSupported("PARTITION BY").WithHint(partitionHint).WithPosition(at(i))
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

// pgPartitionOf refuses CREATE TABLE t PARTITION OF parent at toks[i].
func pgPartitionOf(src string, toks []token, i int) error {
	if i+1 < len(toks) && toks[i].is(src, "PARTITION") && toks[i+1].is(src, "OF") {
		return sqlerr.NotSupported("CREATE TABLE ... PARTITION OF").WithHint(partitionHint).WithPosition(charPos(src, toks[i].start))
	}
	return nil
}
