package lower

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Plan lowers a bound logical plan into a blueprint: the rules of rules.go
// rewrite the logical plan first, then every node and expression is
// translated one to one.
// Constants are folded with PostgreSQL's default settings (no session):
// PlanIn folds them in a session's.
func Plan(n binder.Node) (Node, error) {
	return PlanWith(n, Options{})
}

// PlanIn is Plan in the session of ctx (functions.WithSession), whose
// settings the constants it folds read (a float's text:
// extra_float_digits), and which bounds the planning.
func PlanIn(ctx context.Context, n binder.Node) (Node, error) {
	return PlanWith(n, Options{Ctx: ctx})
}

// PlanWith is Plan with row estimates from o.Stats (for join ordering and
// EXPLAIN) and, for tests, some rules disabled.
func PlanWith(n binder.Node, o Options) (Node, error) {
	fo := newFolder(o.Ctx)
	fo.deferOutputs, fo.pullUp = true, true
	n = pullUpValues(n) // valuesfold.go
	if !o.Disabled["subquery_push_qual"] {
		n = pushSubqueryQuals(o.Ctx, n) // pushsubquery.go
	}
	folded, err := fo.foldPlan(n)
	if err != nil {
		// PostgreSQL raises it while planning: every execution fails with
		// it, before reading anything.
		return &failNode{out: schemaOf(n.Columns()), err: err}, nil
	}
	e := newEstimator(o)
	opt, err := optimizeWith(folded, e, o.Disabled)
	if err != nil {
		return nil, err
	}
	if fo.deferred > 0 {
		// Outputs that failed to fold were left for the rules to drop
		// unread; one they kept is the statement's error, as PostgreSQL
		// folds what it kept.
		again := newFolder(o.Ctx)
		again.pruneSubqueries = true
		if _, err := again.foldPlan(opt); err != nil {
			return &failNode{out: schemaOf(n.Columns()), err: err}, nil
		}
	}
	root, err := lowerNode(opt)
	if err != nil {
		return nil, err
	}
	setTableRows(root, e)
	return root, nil
}

// schemaOf is exec.SchemaOf of the columns' names and types (every field
// nullable), built without the two intermediate slices: planning builds
// one per node.
func schemaOf(cols []binder.Column) *arrow.Schema {
	// arrow.NewSchema copies the fields: a narrow schema's are built on
	// the stack
	var buf [8]arrow.Field
	fs := buf[:0]
	for _, c := range cols {
		fs = append(fs, arrow.Field{Name: c.Name, Type: c.T.ArrowType(), Nullable: true})
	}
	return arrow.NewSchema(fs, nil)
}

// lookupSchemaOf is schemaOf(cols) for a lookup of the table's projection
// (nil: every column), with each column read straight from the table as
// nullable as the table declares it: the schema the store labels the rows
// with, so that exec.Lookup hands them on without building a relabelled
// record per execution.
func lookupSchemaOf(info fluss.TableInfo, projection []int, cols []binder.Column) *arrow.Schema {
	return tableSchemaOf(info, 'l', projection, cols, func() *arrow.Schema { return buildLookupSchema(info, projection, cols) })
}

// scanSchemaOf is schemaOf(cols) for a scan of the table's projection
// (nil: every column, and the changelog's columns when it reads them).
func scanSchemaOf(info fluss.TableInfo, projection []int, cols []binder.Column) *arrow.Schema {
	return tableSchemaOf(info, 's', projection, cols, func() *arrow.Schema { return schemaOf(cols) })
}

// tableSchemaOf returns the schema build makes for reading the table's
// projection as cols, kept in the table's ArrowSchemas under kind, the
// projection and the columns' names (a table's column types are fixed by
// its schema version; the check on a hit guards the binder's types).
func tableSchemaOf(info fluss.TableInfo, kind byte, projection []int, cols []binder.Column, build func() *arrow.Schema) *arrow.Schema {
	if info.ArrowSchemas == nil {
		return build()
	}
	var buf [128]byte
	key := append(buf[:0], kind)
	for i, c := range cols {
		t := i // as in buildLookupSchema
		if projection != nil {
			t = -1
			if i < len(projection) {
				t = projection[i]
			}
		}
		key = append(key, byte(t), byte(t>>8), byte(t>>16))
		key = append(key, c.Name...)
		key = append(key, 0)
	}
	s := info.ArrowSchemas.Get(key, build)
	if !fieldTypesAre(s, cols) {
		return build()
	}
	return s
}

// fieldTypesAre reports whether s has one field per column, of its type.
func fieldTypesAre(s *arrow.Schema, cols []binder.Column) bool {
	if s.NumFields() != len(cols) {
		return false
	}
	for i, c := range cols {
		if !arrow.TypeEqual(s.Field(i).Type, c.T.ArrowType()) {
			return false
		}
	}
	return true
}

func buildLookupSchema(info fluss.TableInfo, projection []int, cols []binder.Column) *arrow.Schema {
	tcols := info.Descriptor.Schema.Columns
	var buf [8]arrow.Field // as in schemaOf
	fs := buf[:0]
	for i, c := range cols {
		f := arrow.Field{Name: c.Name, Type: c.T.ArrowType(), Nullable: true}
		t := i
		if projection != nil {
			t = -1
			if i < len(projection) {
				t = projection[i]
			}
		}
		if t >= 0 && t < len(tcols) && tcols[t].Name == c.Name && arrow.TypeEqual(tcols[t].Type.ArrowType(), f.Type) {
			f.Nullable = !tcols[t].Type.NotNull
		}
		fs = append(fs, f)
	}
	return arrow.NewSchema(fs, nil)
}

// keySchemaOf is exec.KeySchemaOf(info) without building the whole
// table's schema first: the primary-key columns as the table stores them,
// kept in the table's ArrowSchemas (it depends on the schema alone).
func keySchemaOf(info fluss.TableInfo) *arrow.Schema {
	return info.ArrowSchemas.Get([]byte{'k'}, func() *arrow.Schema { return buildKeySchema(info) })
}

func buildKeySchema(info fluss.TableInfo) *arrow.Schema {
	pk := info.Descriptor.Schema.PrimaryKey
	cols := info.Descriptor.Schema.Columns
	var buf [8]arrow.Field // as in schemaOf
	fs := buf[:0]
	for _, name := range pk {
		c := cols[info.ColumnIndex(name)]
		fs = append(fs, arrow.Field{Name: c.Name, Type: c.Type.ArrowType(), Nullable: !c.Type.NotNull})
	}
	return arrow.NewSchema(fs, nil)
}

func lowerNode(n binder.Node) (Node, error) {
	switch x := n.(type) {
	case *binder.Scan:
		return &scanNode{path: x.Table.Path, table: x.Alias, changelog: x.Changelog, binlog: x.Binlog, out: scanSchemaOf(x.Table, nil, x.Columns())}, nil
	case *scanProjection:
		return &scanNode{path: x.table.Path, table: x.table.Path.Table, changelog: x.changelog, projection: x.projection, out: scanSchemaOf(x.table, x.projection, x.Columns())}, nil
	case *prefixLookup:
		return lowerPrefixLookup(x)
	case *prunedLeaf:
		return lowerPruned(x) // partitions.go
	case *changelogRange:
		return lowerChangelogRange(x)
	case *pkLookup:
		// one backing array for every key's expressions
		n := 0
		for _, k := range x.keys {
			n += len(k)
		}
		flat := make([]exec.Expr, 0, n)
		keys := make([][]exec.Expr, len(x.keys))
		var slab exprSlab
		// A value several keys share (the fixed column's of id IN (...)
		// AND region = 'eu') is lowered once when the keys hold few
		// distinct values: the keys only read their expressions.
		var distinctBuf [32]binder.Expr
		if distinct, ok := distinctKeyValues(x.keys, distinctBuf[:0]); ok {
			slab.add(distinct...)
			slab.make()
			var loweredBuf [32]exec.Expr
			lowered := loweredBuf[:len(distinct)]
			for i, e := range distinct {
				le, err := slab.expr(e)
				if err != nil {
					return nil, err
				}
				lowered[i] = le
			}
			for i, k := range x.keys {
				start := len(flat)
				for _, e := range k {
					flat = append(flat, lowered[slices.Index(distinct, e)])
				}
				keys[i] = flat[start:len(flat):len(flat)]
			}
			return &lookupNode{path: x.table.Path, table: x.table.Path.Table, keys: keys, projection: x.projection, out: lookupSchemaOf(x.table, x.projection, x.Columns()),
				keySchema: keySchemaOf(x.table)}, nil
		}
		for _, k := range x.keys {
			slab.add(k...)
		}
		slab.make()
		for i, k := range x.keys {
			start := len(flat)
			for _, e := range k {
				le, err := slab.expr(e)
				if err != nil {
					return nil, err
				}
				flat = append(flat, le)
			}
			keys[i] = flat[start:len(flat):len(flat)]
		}
		return &lookupNode{path: x.table.Path, table: x.table.Path.Table, keys: keys, projection: x.projection, out: lookupSchemaOf(x.table, x.projection, x.Columns()),
			keySchema: keySchemaOf(x.table)}, nil
	case *binder.Values:
		v := &valuesNode{out: schemaOf(x.Cols)}
		var slab exprSlab
		for _, r := range x.Rows {
			slab.add(r...)
		}
		slab.make()
		// one backing array for every row's expressions: a 1000-row
		// INSERT makes one allocation here rather than a thousand
		n := 0
		for _, r := range x.Rows {
			n += len(r)
		}
		cells := make([]exec.Expr, n)
		v.rows = make([][]exec.Expr, 0, len(x.Rows))
		for _, r := range x.Rows {
			row := cells[:len(r):len(r)]
			cells = cells[len(r):]
			for i, e := range r {
				le, err := slab.expr(e)
				if err != nil {
					return nil, err
				}
				row[i] = le
			}
			v.rows = append(v.rows, row)
		}
		return v, nil
	case *binder.TableFunc, *binder.ProjectSet, *binder.RowsFrom:
		return lowerSetReturning(x)
	case *binder.UDFTable:
		return lowerUDFTable(x)
	case *binder.FileTable:
		return lowerFileTable(x) // filetables.go
	case *binder.UDFBatch:
		return lowerUDFBatch(x)
	case *binder.RecursiveUnion, *binder.WorkTableScan:
		return lowerRecursive(x) // recursive.go
	case *binder.CTEScan:
		return lowerCTEScan(x) // cte.go
	case *binder.Aggregate:
		return lowerAggregate(x)
	case *binder.Join:
		return lowerJoin(x)
	case *binder.Lateral:
		return lowerLateral(x) // lateral.go
	case *binder.Window:
		return lowerWindow(x)
	case *binder.LockRows:
		return lowerLockRows(x)
	case *binder.Distinct:
		in, err := lowerNode(x.Input)
		if err != nil {
			return nil, err
		}
		return &distinctNode{input: in, forms: keyForms(x.Columns(), nil)}, nil
	case *binder.DistinctOn:
		in, err := lowerNode(x.Input)
		if err != nil {
			return nil, err
		}
		return &distinctNode{input: in, on: x.Keys, forms: keyForms(x.Input.Columns(), x.Keys)}, nil
	case *binder.SetOp:
		l, err := lowerNode(x.Left)
		if err != nil {
			return nil, err
		}
		r, err := lowerNode(x.Right)
		if err != nil {
			return nil, err
		}
		return &setOpNode{left: l, right: r, kind: setOpKinds[x.Kind], all: x.All, forms: keyForms(x.Columns(), nil), name: x.Kind.String(), out: schemaOf(x.Columns()), mixed: mixedCheckOf(x)}, nil
	case *binder.Filter:
		if hasUDF(x.Cond) {
			return lowerUDFFilter(x)
		}
		in, err := lowerNode(x.Input)
		if err != nil {
			return nil, err
		}
		ordered := orderQual(x.Cond)
		cond, err := lowerExpr(ordered)
		if err != nil {
			return nil, err
		}
		markQual(cond)
		if sn, ok := in.(*scanNode); ok {
			if err := addScanRanges(sn, x.Cond); err != nil { // chunkranges.go
				return nil, err
			}
			// every conjunct a range: the filter is its ranges (topscan.go)
			sn.rangesWhole = len(sn.ranges) == len(conjuncts(x.Cond))
		}
		f := &filterNode{input: in, cond: cond, replayable: !binder.ContainsVolatile(x.Cond)}
		if g := oneTimeQual(ordered); g != nil {
			if f.gate, err = lowerExpr(g); err != nil {
				return nil, err
			}
			// a conjunct list too: a NULL conjunct ends the one-time
			// filter as a false one does (ExecQual)
			markQual(f.gate)
		}
		return f, nil
	case *binder.Project:
		in, err := lowerNode(x.Input)
		if err != nil {
			return nil, err
		}
		exprs := x.Exprs
		if in, exprs, err = extractUDFs(in, exprs); err != nil {
			return nil, err
		}
		p := &projectNode{input: in, out: schemaOf(x.Cols), exprs: make([]exec.Expr, len(exprs)), replayable: !slices.ContainsFunc(exprs, binder.ContainsVolatile)}
		p.rowWise = !p.replayable && sequenceColumns(exprs) > 1
		slab := newExprSlab(exprs...)
		for i, e := range exprs {
			le, err := slab.expr(e)
			if err != nil {
				return nil, err
			}
			p.exprs[i] = le
		}
		return p, nil
	case *binder.Sort:
		in, err := lowerNode(x.Input)
		if err != nil {
			return nil, err
		}
		s := &sortNode{input: in, keys: make([]exec.SortKey, 0, len(x.Keys)), names: make([]string, 0, len(x.Keys))}
		for _, k := range x.Keys {
			ref, ok := k.Expr.(*binder.ColumnRef)
			if !ok {
				return nil, sqlerr.New(sqlerr.InternalError, "sort key is not a column")
			}
			s.keys = append(s.keys, exec.SortKey{Column: ref.Index, Desc: k.Desc, NullsFirst: k.NullsFirst, Form: ref.Type().KeyForm()})
			s.names = append(s.names, ref.Name)
		}
		if d, ok := in.(*distinctNode); ok && d.on == nil {
			d.sortFirst = uniqueSortKeys(d, s.keys)
		}
		orderGroupsAs(x, in) // grouporder.go
		return s, nil
	case *binder.Limit:
		in, err := lowerNode(x.Input)
		if err != nil {
			return nil, err
		}
		l := &limitNode{input: in}
		// LIMIT over a plain scan (through projections, no filter or sort):
		// the scan stops once it has produced enough rows.
		// (an offset known only when the query runs, LIMIT 1 OFFSET 2*1,
		// cannot bound either)
		n, okn := constInt(x.Count)
		off, oko := constInt(x.Offset)
		if okn && oko && x.Count != nil && n >= 0 {
			if sc := plainScanUnder(in); sc != nil {
				sc.limit = n + max(off, 0)
			}
		}
		// LIMIT n directly over a sort: keep only the first n (+ offset) rows.
		if s, ok := in.(*sortNode); ok && s.topN == 0 {
			switch {
			case okn && oko && x.Count != nil && n > 0:
				s.topN = n + max(off, 0)
			case x.Count != nil && (!okn || !oko) && n != math.MaxInt64: // (OFFSET alone has count MaxInt64)
				// LIMIT $1 (what ORMs and keyset pagination send) or an
				// expression: N is known only when the plan runs, so the
				// limit above picks top-N then (limitNode.Build), instead
				// of sorting every row.
				s.runtimeTopN = true
			}
			if s.topN > 0 || s.runtimeTopN {
				s.hintTop() // topscan.go
			}
		}
		slab := newExprSlab(x.Count, x.Offset)
		if x.Count != nil {
			if l.count, err = slab.expr(x.Count); err != nil {
				return nil, err
			}
		}
		if x.Offset != nil {
			if l.offset, err = slab.expr(x.Offset); err != nil {
				return nil, err
			}
		}
		if lr, ok := in.(*lockRowsNode); ok {
			lr.limit = l // lock no row past the limit
		}
		return l, nil
	}
	return nil, sqlerr.New(sqlerr.FeatureNotSupported, "%s is not supported yet", planNodeName(n))
}

// distinctKeyValues appends the distinct expressions of keys to out, and
// reports false when there are more than out's capacity (then finding
// each one again would cost more than lowering it twice).
func distinctKeyValues(keys [][]binder.Expr, out []binder.Expr) ([]binder.Expr, bool) {
	limit := cap(out)
	for _, k := range keys {
		for _, e := range k {
			if slices.Contains(out, e) {
				continue
			}
			if len(out) == limit {
				return nil, false
			}
			out = append(out, e)
		}
	}
	return out, true
}

// arithOp and cmpOp map a binder operator to its kernel's (a switch: they
// are asked for every operator of every lowered expression).
func arithOp(op binder.Op) (exec.ArithOp, bool) {
	switch op {
	case binder.OpAdd:
		return exec.Add, true
	case binder.OpSub:
		return exec.Sub, true
	case binder.OpMul:
		return exec.Mul, true
	case binder.OpDiv:
		return exec.Div, true
	case binder.OpMod:
		return exec.Mod, true
	}
	return 0, false
}

func cmpOp(op binder.Op) (exec.CmpOp, bool) {
	switch op {
	case binder.OpEq:
		return exec.Eq, true
	case binder.OpNe:
		return exec.Ne, true
	case binder.OpLt:
		return exec.Lt, true
	case binder.OpLe:
		return exec.Le, true
	case binder.OpGt:
		return exec.Gt, true
	case binder.OpGe:
		return exec.Ge, true
	case binder.OpIsNotDistinct:
		return exec.NotDistinct, true
	case binder.OpIsDistinct:
		return exec.Distinct, true
	}
	return 0, false
}

// lowerExpr translates a bound expression into the lowerable tier and
// folds constant subtrees (the constant_folding rule of the expression
// tier: an expression that reads no column, parameter, outer row or
// volatile function is computed once here). A subtree whose evaluation
// fails is left to fail at execution, where the row context exists.
func lowerExpr(e binder.Expr) (exec.Expr, error) {
	s := newExprSlab(e)
	return s.expr(e)
}

// expr is lowerExpr with the nodes from s.
func (s *exprSlab) expr(e binder.Expr) (exec.Expr, error) {
	le, err := s.raw(e)
	if err != nil {
		return nil, err
	}
	return foldConstant(le), nil
}

func foldConstant(e exec.Expr) exec.Expr {
	switch e.(type) {
	case *exec.ConstExpr, *exec.ColExpr, *exec.ParamExpr, *exec.OuterRefExpr, *exec.SubqueryExpr:
		return e
	}
	if !isConstant(e) {
		return e
	}
	if c, ok := e.(*exec.CastExpr); ok {
		// the common case (a literal brought to a column's type) without
		// building Arrow arrays
		if k, ok := c.X.(*exec.ConstExpr); ok && !c.Assign {
			if v, err := exec.CastValue(k.Value, k.T, c.T); err == nil {
				return &exec.ConstExpr{Value: v, T: c.T}
			}
			return e
		}
	}
	v, err := exec.EvalScalar(&exec.EvalContext{Ctx: context.Background(), Mem: memory.DefaultAllocator}, e)
	if err != nil {
		return e
	}
	return &exec.ConstExpr{Value: v, T: e.Type()}
}

// isConstant reports whether e reads nothing that varies between rows or
// executions. Its children were folded already, so only direct children
// need checking.
func isConstant(e exec.Expr) bool {
	switch x := e.(type) {
	case *exec.ConstExpr:
		return true
	case *exec.ArithExpr:
		return isConstant(x.L) && isConstant(x.R)
	case *exec.CmpExpr:
		return isConstant(x.L) && isConstant(x.R)
	case *exec.LogicExpr:
		return isConstant(x.L) && isConstant(x.R)
	case *exec.ConcatExpr:
		return isConstant(x.L) && isConstant(x.R)
	case *exec.NotExpr:
		return isConstant(x.X)
	case *exec.NegExpr:
		return isConstant(x.X)
	case *exec.CastExpr:
		// a cast that reads the session's TimeZone (timestamp to
		// timestamptz, time to timetz ...) or DateStyle (text to date)
		// waits for the session: folding has none, and would compute it
		// in UTC and MDY
		return isConstant(x.X) && !exec.CastNeedsSession(x.X.Type(), x.T)
	case *exec.IsNullExpr:
		return isConstant(x.X)
	}
	return false // functions (possibly volatile), CASE, COALESCE, subqueries
}

// raw lowers e, its sub-expressions through expr (folded), its nodes from s.
func (s *exprSlab) raw(e binder.Expr) (exec.Expr, error) {
	switch x := e.(type) {
	case *binder.ColumnRef:
		c := take(&s.cols)
		*c = exec.ColExpr{Index: x.Index, Name: x.Name, T: x.T}
		return c, nil
	case *binder.Const:
		c := take(&s.consts)
		*c = exec.ConstExpr{Value: x.Value, T: x.T}
		return c, nil
	case *binder.Param:
		t := x.T
		if t.Kind == types.Unknown {
			t = types.StringType // an undetermined parameter arrives as text
		}
		return &exec.ParamExpr{Index: x.Index, T: t}, nil
	case *binder.Cast:
		if from := x.X.Type(); from.Variant.IsRecord() && from.Variant != x.T.Variant {
			// a SEARCH/CYCLE record key has no value to convert (binder/searchcycle.go)
			return nil, sqlerr.New(sqlerr.FeatureNotSupported, "casting a value of type %s to %s is not supported", from.PGName(), x.T.PGName())
		}
		if k, ok := x.X.(*binder.Const); ok {
			// a literal brought to a column's type, the commonest cast:
			// folded here as foldConstant would, without the two
			// intermediate nodes
			cast := exec.CastValue
			if x.Assign {
				cast = exec.AssignValue
			}
			if v, err := cast(k.Value, k.T, x.T); err == nil {
				c := take(&s.consts)
				*c = exec.ConstExpr{Value: v, T: x.T}
				return c, nil
			}
		}
		in, err := s.expr(x.X)
		if err != nil {
			return nil, err
		}
		return &exec.CastExpr{X: in, T: x.T, Assign: x.Assign}, nil
	case *binder.IsNull:
		in, err := s.expr(x.X)
		if err != nil {
			return nil, err
		}
		return &exec.IsNullExpr{X: in, Not: x.Not}, nil
	case *binder.UnaryOp:
		in, err := s.expr(x.X)
		if err != nil {
			return nil, err
		}
		if x.Op == binder.OpNot {
			return &exec.NotExpr{X: in}, nil
		}
		return &exec.NegExpr{X: in, T: x.T}, nil
	case *binder.Case:
		c := &exec.CaseExpr{T: x.T}
		for _, w := range x.Whens {
			cond, err := s.expr(w.Cond)
			if err != nil {
				return nil, err
			}
			res, err := s.expr(w.Result)
			if err != nil {
				return nil, err
			}
			c.Whens = append(c.Whens, exec.CaseWhen{Cond: cond, Result: res})
		}
		if x.Else != nil {
			el, err := s.expr(x.Else)
			if err != nil {
				return nil, err
			}
			c.Else = el
		}
		return c, nil
	case *binder.Subquery:
		plan, err := lowerNode(trimSubqueryPlan(x.Plan))
		if err != nil {
			return nil, err
		}
		sq := &exec.SubqueryExpr{Mode: exec.SubqueryMode(x.Mode), RowWise: x.RowWise, Hashed: hashedSubPlan(x), T: x.T, Open: func(ec *exec.EvalContext) (exec.Operator, error) {
			rt, ok := ec.Env.(*Runtime)
			if !ok {
				return nil, sqlerr.New(sqlerr.InternalError, "subquery evaluated without a runtime")
			}
			// Each run builds from a copy of rt, sharing its WITH
			// queries' rows (cte.go): a WITH query runs once per
			// execution, not once per run of the subquery.
			rt.cteRuns()
			sub := *rt
			sub.Metrics, sub.parent, sub.EC = nil, nil, ec
			return Build(&sub, plan)
		}}
		for _, o := range x.Outer {
			lo, err := s.expr(o)
			if err != nil {
				return nil, err
			}
			sq.Outer = append(sq.Outer, lo)
		}
		if x.X != nil {
			if sq.X, err = s.expr(x.X); err != nil {
				return nil, err
			}
			sq.Op, _ = cmpOp(x.Op)
		}
		return sq, nil
	case *binder.OuterRef:
		return &exec.OuterRefExpr{Slot: x.Slot, Name: x.Name, T: x.T}, nil
	case *binder.UDFCall:
		return nil, udfPlacement(x)
	case *binder.FuncCall:
		f := &exec.FuncExpr{Name: x.Name, T: x.T, Kernel: exec.Kernel(x.Kernel)}
		if len(x.Args) > 0 {
			f.Args = make([]exec.Expr, 0, len(x.Args))
		}
		for _, a := range x.Args {
			la, err := s.expr(a)
			if err != nil {
				return nil, err
			}
			f.Args = append(f.Args, la)
		}
		return f, nil
	case *binder.Coalesce:
		c := &exec.CoalesceExpr{T: x.T, Args: make([]exec.Expr, 0, len(x.Args))}
		for _, a := range x.Args {
			la, err := s.expr(a)
			if err != nil {
				return nil, err
			}
			c.Args = append(c.Args, la)
		}
		return c, nil
	case *binder.BinaryOp:
		l, err := s.expr(x.L)
		if err != nil {
			return nil, err
		}
		r, err := s.expr(x.R)
		if err != nil {
			return nil, err
		}
		if op, ok := arithOp(x.Op); ok {
			a := take(&s.ariths)
			*a = exec.ArithExpr{Op: op, L: l, R: r, T: x.T}
			return a, nil
		}
		if op, ok := cmpOp(x.Op); ok {
			c := take(&s.cmps)
			*c = exec.CmpExpr{Op: op, L: l, R: r}
			return c, nil
		}
		switch x.Op {
		case binder.OpAnd:
			g := take(&s.logics)
			*g = exec.LogicExpr{And: true, L: l, R: r, Eager: x.Eager}
			return g, nil
		case binder.OpOr:
			g := take(&s.logics)
			*g = exec.LogicExpr{L: l, R: r, Eager: x.Eager}
			return g, nil
		case binder.OpConcat:
			return &exec.ConcatExpr{L: l, R: r}, nil
		}
	}
	return nil, sqlerr.New(sqlerr.FeatureNotSupported, "expression %s cannot be lowered", e.String())
}

func planNodeName(n binder.Node) string {
	switch x := n.(type) {
	case *binder.Join:
		return x.Type.String() + " join"
	case *binder.Aggregate:
		return "aggregation"
	case *binder.Distinct:
		return "SELECT DISTINCT"
	}
	return fmt.Sprintf("plan node %T", n)
}

// constInt reads a constant integer expression (nil: absent).
func constInt(e binder.Expr) (int64, bool) {
	if e == nil {
		return 0, true
	}
	for {
		c, ok := e.(*binder.Cast)
		if !ok {
			break
		}
		e = c.X
	}
	if c, ok := e.(*binder.Const); ok {
		if v, ok := c.Value.(int64); ok {
			return v, true
		}
	}
	return 0, false
}

// LowerExprs lowers expressions that are not part of a plan (ON CONFLICT DO
// UPDATE's merge expressions).
func LowerExprs(es []binder.Expr) ([]exec.Expr, error) {
	out := make([]exec.Expr, len(es))
	for i, e := range es {
		le, err := lowerExpr(e)
		if err != nil {
			return nil, err
		}
		out[i] = le
	}
	return out, nil
}

// plainScanUnder returns the scan under n when only projections lie between.
func plainScanUnder(n Node) *scanNode {
	for {
		switch x := n.(type) {
		case *projectNode:
			n = x.input
		case *scanNode:
			return x
		default:
			return nil
		}
	}
}

// sequenceColumns counts the expressions of exprs that call a sequence
// function: two of them in one projection are evaluated a row at a time
// (exec.Project.RowWise), since PostgreSQL's `nextval('s'), nextval('s')`
// or `nextval('s'), currval('s')` take turns within each row.
func sequenceColumns(exprs []binder.Expr) int {
	n := 0
	for _, e := range exprs {
		found := false
		binder.Walk(e, func(x binder.Expr) {
			if f, ok := x.(*binder.FuncCall); ok {
				switch strings.ToLower(f.Name) {
				case "nextval", "currval", "setval", "lastval":
					found = true
				}
			}
		})
		if found {
			n++
		}
	}
	return n
}
