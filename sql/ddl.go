package sql

import (
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// columnConstraintWords start a column constraint in CREATE TABLE; the
// column's type ends before the first of them at nesting depth 0.
var columnConstraintWords = map[string]bool{
	"NOT": true, "NULL": true, "DEFAULT": true, "PRIMARY": true, "UNIQUE": true, "CHECK": true,
	"REFERENCES": true, "CONSTRAINT": true, "COMMENT": true, "GENERATED": true, "COLLATE": true,
	"AUTO_INCREMENT": true, "KEY": true,
}

// tableConstraintWords start a table-level element of CREATE TABLE.
// (KEY and INDEX are not among them: they are ordinary column names in
// PostgreSQL, and MySQL's KEY/INDEX table elements are not PostgreSQL.)
var tableConstraintWords = map[string]bool{
	"CONSTRAINT": true, "PRIMARY": true, "UNIQUE": true, "FOREIGN": true, "CHECK": true,
	"EXCLUDE": true, "LIKE": true,
}

// identName returns the name an identifier token stands for: unquoted
// names fold to lower case as in PostgreSQL, quoted ones are kept.
func identName(src string, t token) (string, bool) {
	switch t.kind {
	case tkIdent:
		return strings.ToLower(t.text(src)), true
	case tkQIdent:
		return unquoteIdent(t.text(src)), true
	}
	return "", false
}

// rewriteCreateTable parses every column type itself (recording it in
// st.ColumnTypes) and replaces it by TEXT so TiDB parses the rest; strips
// NOT ENFORCED and a trailing WITH (...) property list (into st.Properties).
func rewriteCreateTable(src string, toks []token, st *Statement) ([]token, error) {
	i := 1
	for i < len(toks) && toks[i].kind == tkIdent && !toks[i].is(src, "TABLE") {
		i++ // OR REPLACE, TEMP, TEMPORARY, UNLOGGED, GLOBAL, LOCAL
	}
	if i < len(toks) && toks[i].is(src, "TABLE") && i > 1 {
		// CREATE [GLOBAL | LOCAL] TEMP | TEMPORARY TABLE: a session-local
		// table (Statement.Temporary); UNLOGGED: an ordinary table (a Fluss
		// table is always durable, which is more than UNLOGGED asks).
		temp, ok := true, true
		for _, t := range toks[1:i] {
			switch t.word(src) {
			case "TEMP", "TEMPORARY":
				st.Temporary = true
			case "GLOBAL", "LOCAL":
			case "UNLOGGED":
				temp = false
			default:
				ok = false
			}
		}
		if ok && (st.Temporary || !temp) {
			toks = append([]token{toks[0]}, toks[i:]...)
			i = 1
		}
	}
	if i >= len(toks) || !toks[i].is(src, "TABLE") {
		return toks, nil // CREATE something else: left to TiDB
	}
	i++
	if i+2 < len(toks) && toks[i].is(src, "IF") && toks[i+1].is(src, "NOT") && toks[i+2].is(src, "EXISTS") {
		i += 3
	}
	for i < len(toks) && (toks[i].kind == tkIdent && !toks[i].is(src, "AS") || toks[i].kind == tkQIdent || toks[i].isPunct(src, ".")) {
		if err := pgPartitionOf(src, toks, i); err != nil { // partitions.go
			return nil, err
		}
		if n, ok := identName(src, toks[i]); ok {
			st.tableName = n
		}
		i++ // the name (AS ends it: CREATE TABLE t AS VALUES (..) has no column list)
	}
	if i >= len(toks) || !toks[i].isPunct(src, "(") {
		return toks, nil // CREATE TABLE ... AS / LIKE: nothing to do here
	}
	out := append(make([]token, 0, len(toks)), toks[:i+1]...)
	i++
	st.ColumnTypes = map[string]*TypeName{}
	for {
		if i >= len(toks) {
			return nil, syntaxErrorAt(src, toks, i)
		}
		elemStart := i
		elemOut := len(out)
		isLike := toks[i].is(src, "LIKE")
		if isLike { // LIKE source [INCLUDING ...] (createlike.go): its marker column stays
			marker, next, err := likeElement(src, toks, i, st)
			if err != nil {
				return nil, err
			}
			out = append(out, marker...)
			i = next
		}
		isColumn := i == elemStart && !tableConstraintWords[toks[i].word(src)] ||
			toks[i].is(src, "EXCLUDE") && !(i+1 < len(toks) && (toks[i+1].isPunct(src, "(") || toks[i+1].is(src, "USING")))
		if isColumn {
			// a column name is a ColId: PostgreSQL's reserved and
			// type/function-name keywords are no column names
			if err := columnNameError(src, toks, i); err != nil {
				return nil, err
			}
			name, ok := identName(src, toks[i])
			if !ok {
				return nil, syntaxErrorAt(src, toks, i)
			}
			// Quoted for TiDB: PostgreSQL column names such as key, index or
			// range are reserved words in MySQL's grammar.
			out = append(out, token{kind: tkQIdent, start: toks[i].start, end: toks[i].end, lead: toks[i].lead,
				hasComment: toks[i].hasComment, synth: `"` + strings.ReplaceAll(name, `"`, `""`) + `"`})
			i++
			ts := i
			i = typeEnd(src, toks, i)
			if ts == i {
				return nil, syntaxErrorAt(src, toks, i)
			}
			typeText := src[toks[ts].start:toks[i-1].end]
			tn, err := ParseTypeName(typeText)
			if err != nil {
				if e := sqlerr.As(err); e != nil && e.Position > 0 {
					return nil, e.WithPosition(charPos(src, toks[ts].start) + e.Position - 1)
				}
				return nil, err
			}
			if _, dup := st.ColumnTypes[name]; dup {
				return nil, sqlerr.New(sqlerr.DuplicateColumn, "column %q specified more than once", name).WithPosition(charPos(src, toks[elemStart].start))
			}
			st.ColumnTypes[name] = tn
			st.columnOrder = append(st.columnOrder, name)
			out = append(out, token{kind: tkIdent, start: toks[ts].start, end: toks[ts].start, lead: toks[ts].start, synth: "text"})
		}
		// the rest of the element: constraints, up to ',' or ')' at depth 0
		// (coldefs.go)
		column := ""
		if isColumn {
			column = lastColumn(st)
		}
		var dropped bool
		var err error
		if i, out, dropped, err = columnClauses(src, toks, i, column, st, out); err != nil {
			return nil, err
		}
		if dropped && !isLike { // a CHECK table constraint: no element for TiDB
			out = out[:elemOut]
			if i < len(toks) && toks[i].isPunct(src, ")") && len(out) > 0 && out[len(out)-1].isPunct(src, ",") {
				out = out[:len(out)-1]
			}
			if i < len(toks) && toks[i].isPunct(src, ",") {
				i++
				continue
			}
		}
		if i >= len(toks) {
			return nil, syntaxErrorAt(src, toks, i)
		}
		out = append(out, toks[i])
		if toks[i].isPunct(src, ")") {
			i++
			break
		}
		i++
	}
	// PostgreSQL's PARTITION BY, INHERITS, USING (partitions.go)
	i, err := pgTableClauses(src, toks, i, st)
	if err != nil {
		return nil, err
	}
	// PARTITIONED BY (cols) (partitions.go)
	if i, err = partitionedBy(src, toks, i, st); err != nil {
		return nil, err
	}
	// WITH ( 'k' = 'v', k.x = v, ... )
	if i+1 < len(toks) && toks[i].is(src, "WITH") && toks[i+1].isPunct(src, "(") {
		st.Properties = map[string]string{}
		j := i + 2
		for {
			key, next, ok := propertyKey(src, toks, j)
			if !ok {
				return nil, syntaxErrorAt(src, toks, j)
			}
			j = next
			if j >= len(toks) || !toks[j].isPunct(src, "=") {
				return nil, syntaxErrorAt(src, toks, j)
			}
			j++
			if j >= len(toks) {
				return nil, syntaxErrorAt(src, toks, j)
			}
			var val string
			switch toks[j].kind {
			case tkString:
				val = unquoteString(toks[j].text(src))
			case tkNumber, tkIdent:
				val = toks[j].text(src)
			case tkQIdent:
				val = unquoteIdent(toks[j].text(src))
			default:
				return nil, syntaxErrorAt(src, toks, j)
			}
			st.Properties[key] = val
			j++
			if j < len(toks) && toks[j].isPunct(src, ",") {
				j++
				continue
			}
			if j < len(toks) && toks[j].isPunct(src, ")") {
				j++
				break
			}
			return nil, syntaxErrorAt(src, toks, j)
		}
		i = j
	} else if i+1 < len(toks) && toks[i].is(src, "WITHOUT") && toks[i+1].is(src, "OIDS") {
		i += 2 // WITH's alternative in PostgreSQL's grammar, a no-op (old pg_dump output)
	}
	// ON COMMIT { DROP | DELETE ROWS | PRESERVE ROWS } (the engine's)
	if i+2 < len(toks) && toks[i].is(src, "ON") && toks[i+1].is(src, "COMMIT") {
		switch j := i + 2; {
		case toks[j].is(src, "DROP"):
			st.OnCommit, i = "DROP", j+1
		case j+1 < len(toks) && (toks[j].is(src, "DELETE") || toks[j].is(src, "PRESERVE")) && toks[j+1].is(src, "ROWS"):
			st.OnCommit, i = strings.ToUpper(toks[j].text(src))+" ROWS", j+2
		default:
			return nil, syntaxErrorAt(src, toks, j)
		}
	}
	return append(out, toks[i:]...), nil
}

// typeEnd returns where a column's type that starts at toks[i] ends: at a
// constraint word, ',' or ')' at depth 0 ('<' '>' nest for ARRAY<..>,
// MAP<..>, ROW<..>).
func typeEnd(src string, toks []token, i int) int {
	depth := 0
	for i < len(toks) {
		t := toks[i]
		if t.kind == tkOp {
			for _, c := range t.text(src) {
				switch c {
				case '<':
					depth++
				case '>':
					depth--
				}
			}
		} else if t.isPunct(src, "(") || t.isPunct(src, "[") {
			depth++
		} else if t.isPunct(src, ")") || t.isPunct(src, "]") {
			if depth == 0 {
				return i
			}
			depth--
		} else if depth == 0 && (t.isPunct(src, ",") || columnConstraintWords[t.word(src)]) {
			return i
		}
		i++
	}
	return i
}

// propertyKey reads a WITH-list key: 'bucket.num' or bucket.num.
func propertyKey(src string, toks []token, j int) (string, int, bool) {
	if j >= len(toks) {
		return "", j, false
	}
	if toks[j].kind == tkString {
		return unquoteString(toks[j].text(src)), j + 1, true
	}
	var parts []string
	for j < len(toks) {
		name, ok := identName(src, toks[j])
		if !ok {
			return "", j, false
		}
		parts = append(parts, name)
		j++
		if j+1 < len(toks) && toks[j].isPunct(src, ".") {
			j++
			continue
		}
		break
	}
	return strings.Join(parts, "."), j, true
}

// wordOrRequoted reports whether t is the word w, also when the name
// quoting (names.go) made it a quoted name: it quotes CONFLICT before ON
// CONSTRAINT (a word followed by ON reads as a table name there).
func wordOrRequoted(src string, t token, w string) bool {
	if t.is(src, w) {
		return true
	}
	return t.kind == tkQIdent && t.inPlace && t.end > t.start && src[t.start] != '"' && strings.EqualFold(src[t.start:t.end], w)
}

// rewriteOnConflict turns INSERT ... ON CONFLICT [(cols)] DO NOTHING into
// a plain INSERT (recording st.OnConflictDoNothing) and ON CONFLICT ... DO
// UPDATE SET a = EXCLUDED.a into ON DUPLICATE KEY UPDATE a = VALUES(a).
func rewriteOnConflict(src string, toks []token, st *Statement) ([]token, error) {
	depth := 0
	on := -1
	for i, t := range toks {
		if t.isPunct(src, "(") {
			depth++
		} else if t.isPunct(src, ")") {
			depth--
		} else if depth == 0 && t.is(src, "ON") && i+1 < len(toks) && wordOrRequoted(src, toks[i+1], "CONFLICT") {
			on = i
			break
		}
	}
	if on < 0 {
		return toks, nil
	}
	i := on + 2
	var targetWhere []token
	if i < len(toks) && toks[i].isPunct(src, "(") {
		m := (&rewriter{src: src, toks: toks}).matchClose(i, len(toks))
		if m < 0 {
			return nil, syntaxErrorAt(src, toks, len(toks))
		}
		// The conflict target: the binder checks it names the primary key.
		st.ConflictTarget = []string{}
		for k := i + 1; k < m; k++ {
			if n, ok := identName(src, toks[k]); ok {
				st.ConflictTarget = append(st.ConflictTarget, n)
				st.ConflictTargetPos = charPos(src, toks[k].start)
			} else if !toks[k].isPunct(src, ",") {
				// an index expression: sqlgate has no index on one (its
				// unique indexes are of plain columns), so none matches
				return nil, sqlerr.New(sqlerr.InvalidColumnReference, "there is no unique or exclusion constraint matching the ON CONFLICT specification")
			}
		}
		i = m + 1
		if i < len(toks) && toks[i].is(src, "WHERE") {
			// the inference clause's predicate: every unique index is a
			// whole-table one, which any predicate infers; the binder
			// checks the predicate alone (a marker assignment, upsert.go)
			do := setListEnd(src, toks, i+1, len(toks), "DO")
			if do == i+1 || do >= len(toks) {
				return nil, syntaxErrorAt(src, toks, do)
			}
			targetWhere = toks[i+1 : do]
			i = do
		}
	} else if i+2 < len(toks) && toks[i].is(src, "ON") && toks[i+1].is(src, "CONSTRAINT") {
		if n, ok := identName(src, toks[i+2]); ok { // the binder checks it names the table's (binder/unique.go)
			st.ConflictConstraint = n
		}
		i += 3
	}
	if i+1 >= len(toks) || !toks[i].is(src, "DO") {
		return nil, syntaxErrorAt(src, toks, i)
	}
	out := append(make([]token, 0, len(toks)+8), toks[:on]...)
	at := toks[on].start
	synth := func(kind tokKind, w string) token { return token{kind: kind, start: at, end: at, lead: at, synth: w} }
	onDuplicate := func() {
		for _, w := range []string{"on", "duplicate", "key", "update"} {
			out = append(out, synth(tkIdent, w))
		}
	}
	// marker appends ", name = (cond)" (no comma first when first).
	marker := func(name string, cond []token, first bool) {
		if !first {
			out = append(out, synth(tkPunct, ","))
		}
		out = append(out, synth(tkIdent, name), synth(tkOp, "="), synth(tkPunct, "("))
		out = append(out, cond...)
		out = append(out, synth(tkPunct, ")"))
	}
	switch {
	case toks[i+1].is(src, "NOTHING"):
		st.OnConflictDoNothing = true
		if targetWhere != nil {
			onDuplicate()
			marker(ConflictTargetWhereMarker, targetWhere, true)
		}
		return append(out, toks[i+2:]...), nil
	case toks[i+1].is(src, "UPDATE") && i+2 < len(toks) && toks[i+2].is(src, "SET"):
		if st.ConflictTarget == nil && st.ConflictConstraint == "" {
			return nil, sqlerr.New(sqlerr.SyntaxError, "ON CONFLICT DO UPDATE requires inference specification or constraint name").
				WithHint("For example, ON CONFLICT (column_name).").WithPosition(charPos(src, toks[on].start))
		}
		onDuplicate()
		ret := setListEnd(src, toks, i+3, len(toks), "RETURNING") // EXCLUDED means nothing there
		where := setListEnd(src, toks, i+3, ret, "WHERE")
		toks, err := rewriteMultiAssign(src, toks, i+3, where) // upsert.go: indexes past where move
		if err != nil {
			return nil, err
		}
		ret = setListEnd(src, toks, i+3, len(toks), "RETURNING")
		where = setListEnd(src, toks, i+3, ret, "WHERE")
		out = append(out, excludedAsValues(src, toks[i+3:where])...)
		if where < ret {
			if where+1 == ret {
				return nil, syntaxErrorAt(src, toks, ret)
			}
			marker(ConflictWhereMarker, excludedAsValues(src, toks[where+1:ret]), false)
		}
		if targetWhere != nil {
			marker(ConflictTargetWhereMarker, targetWhere, false)
		}
		return append(out, toks[ret:]...), nil
	}
	return nil, syntaxErrorAt(src, toks, i+1)
}

// excludedAsValues turns EXCLUDED.x into VALUES(x), TiDB's name for the
// proposed row's column in ON DUPLICATE KEY UPDATE.
func excludedAsValues(src string, toks []token) []token {
	out := make([]token, 0, len(toks))
	for j := 0; j < len(toks); j++ {
		t := toks[j]
		if t.is(src, "EXCLUDED") && j+2 < len(toks) && toks[j+1].isPunct(src, ".") && (toks[j+2].kind == tkIdent || toks[j+2].kind == tkQIdent) {
			out = append(out,
				token{kind: tkIdent, start: t.start, end: t.start, lead: t.lead, synth: "values", callName: true},
				token{kind: tkPunct, start: t.start, end: t.start, lead: t.start, synth: "("},
				toks[j+2],
				token{kind: tkPunct, start: toks[j+2].end, end: toks[j+2].end, lead: toks[j+2].end, synth: ")"})
			j += 2
			continue
		}
		out = append(out, t)
	}
	return out
}

// rewriteExplainedDML gives the INSERT, UPDATE or DELETE that EXPLAIN
// explains (toks as rewriteExplain left them) the rewrites the statement
// gets on its own (RETURNING, UPDATE ... FROM, ON CONFLICT...).
func rewriteExplainedDML(src string, toks []token, st *Statement) ([]token, error) {
	k := 1
	if k < len(toks) && toks[k].synth == "analyze" {
		k++
	}
	if k >= len(toks) {
		return toks, nil
	}
	inner := toks[k:len(toks):len(toks)]
	var err error
	switch inner[0].word(src) {
	case "INSERT":
		inner = rewriteInsertAlias(src, inner, st)
		inner = rewriteInsertDefaults(src, inner, st) // coldefs.go
		if inner, err = rewriteOnConflict(src, inner, st); err != nil {
			return nil, err
		}
		if inner, err = rewriteDML(src, inner, st); err != nil {
			return nil, err
		}
	case "UPDATE", "DELETE", "WITH":
		inner = hoistWithIntoInsert(src, inner) // withdml.go
		if inner, err = rewriteDML(src, inner, st); err != nil {
			return nil, err
		}
	case "COPY":
		// PostgreSQL's EXPLAIN explains no COPY: its grammar fails there
		return nil, syntaxErrorAt(src, toks, k)
	default:
		return toks, nil
	}
	return append(append(make([]token, 0, k+len(inner)), toks[:k]...), inner...), nil
}

// rewriteExplain turns PostgreSQL's EXPLAIN (ANALYZE, VERBOSE, COSTS OFF,
// FORMAT TEXT) and EXPLAIN ANALYZE VERBOSE into TiDB's EXPLAIN [ANALYZE],
// recording every option in st.ExplainOptions (lower-case names; values
// lower-cased, "true" when omitted).
func rewriteExplain(src string, toks []token, st *Statement) ([]token, error) {
	st.ExplainOptions = map[string]string{}
	i := 1
	if i < len(toks) && toks[i].isPunct(src, "(") {
		i++
		for {
			if i >= len(toks) || toks[i].kind != tkIdent {
				return nil, syntaxErrorAt(src, toks, i)
			}
			name := strings.ToLower(toks[i].text(src))
			i++
			val := "true"
			if i < len(toks) && !toks[i].isPunct(src, ",") && !toks[i].isPunct(src, ")") {
				switch toks[i].kind {
				case tkIdent, tkNumber:
					val = strings.ToLower(toks[i].text(src))
				case tkString:
					val = strings.ToLower(unquoteString(toks[i].text(src)))
				default:
					return nil, syntaxErrorAt(src, toks, i)
				}
				i++
			}
			st.ExplainOptions[name] = val
			if i < len(toks) && toks[i].isPunct(src, ",") {
				i++
				continue
			}
			if i < len(toks) && toks[i].isPunct(src, ")") {
				i++
				break
			}
			return nil, syntaxErrorAt(src, toks, i)
		}
	} else {
		for i < len(toks) && (toks[i].is(src, "ANALYZE") || toks[i].is(src, "ANALYSE") || toks[i].is(src, "VERBOSE")) {
			name := strings.ToLower(toks[i].text(src))
			if name == "analyse" {
				name = "analyze"
			}
			st.ExplainOptions[name] = "true"
			i++
		}
	}
	out := append(make([]token, 0, len(toks)), toks[0])
	switch st.ExplainOptions["analyze"] {
	case "true", "on", "1", "yes":
		out = append(out, token{kind: tkIdent, start: toks[0].end, end: toks[0].end, lead: toks[0].end, synth: "analyze"})
	}
	return append(out, toks[i:]...), nil
}
