package exec

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Backend is the kernel library a lowerable expression runs on.
type Backend uint8

// The backends. Auto (the default) picks per family from the committed
// ledger; Native is the hand-written Go kernels; Arrow is arrow-go compute,
// for the families it serves with results identical to Native.
const (
	BackendAuto Backend = iota
	BackendNative
	BackendArrow
)

var backendNames = [...]string{"auto", "native", "arrow"}

func (b Backend) String() string {
	if int(b) < len(backendNames) {
		return backendNames[b]
	}
	return "unknown"
}

// ParseBackend reads a backend name (sqlgate.backend, the backend hint).
func ParseBackend(s string) (Backend, error) {
	for i, n := range backendNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return Backend(i), nil
		}
	}
	return 0, sqlerr.New(sqlerr.InvalidParameterValue, "invalid value for parameter \"sqlgate.backend\": %q", s).
		WithHint("Available values: auto, native, arrow.")
}

// Family is a group of kernels that switch backend together.
type Family string

// The kernel families. The ones arrow-go can serve identically say so in
// families below; the others always run natively, for the reason given.
const (
	FamIntMul       Family = "int_mul"       // checked * on smallint/integer/bigint
	FamIntAddSub    Family = "int_addsub"    // checked + - (and unary -) on smallint/integer/bigint
	FamIntDivMod    Family = "int_divmod"    // integer / and %
	FamFloatArith   Family = "float_arith"   // + - * / % on real/double
	FamDecimalArith Family = "decimal_arith" // numeric arithmetic
	FamIntCmp       Family = "int_cmp"       // = <> < <= > >= on integers, dates, times, timestamps
	FamStringCmp    Family = "string_cmp"    // = <> < <= > >= on text (bytewise, the C collation)
	FamFloatCmp     Family = "float_cmp"     // comparisons on real/double
	FamOtherCmp     Family = "other_cmp"     // comparisons on bool, numeric, bytea, char(n); IS [NOT] DISTINCT FROM
	FamBoolLogic    Family = "bool_logic"    // three-valued AND, OR, NOT
	FamIsNull       Family = "is_null"       // IS [NOT] NULL, except on numeric
	FamDecIsNull    Family = "decimal_is_null"
	FamFilter       Family = "filter" // dropping rows by a boolean mask, fixed-width columns
	FamFilterVar    Family = "filter_varwidth"
	FamIntCast      Family = "int_cast"        // casts between integer types
	FamIntFloatCast Family = "int_float_cast"  // casts from integer types to real/double
	FamOtherCast    Family = "other_cast"      // every other cast
	FamFunction     Family = "scalar_function" // a function of sqlgate's library (upper, abs, date_trunc...)
	FamConcat       Family = "string_concat"   // text || text
	FamConditional  Family = "conditional"     // CASE, COALESCE
	FamSubquery     Family = "subquery"        // a subquery's plan, run for the expression
)

// familyInfo says whether arrow-go can serve a family and, if not, why.
type familyInfo struct {
	arrow  bool
	reason string
}

var families = map[Family]familyInfo{
	FamIntMul:       {arrow: true},
	FamIntAddSub:    {reason: "arrow-go v18.8's checked add/subtract miss negative overflow (MinInt64 + -1 wraps instead of failing)"},
	FamIntDivMod:    {reason: "arrow-go has no modulo kernel and its divide does not report PostgreSQL's 22012/22003 cases"},
	FamFloatArith:   {reason: "PostgreSQL raises 22003/22012 where IEEE arithmetic (arrow-go) yields Inf or NaN"},
	FamDecimalArith: {reason: "PostgreSQL's numeric precision, scale and rounding rules"},
	FamIntCmp:       {arrow: true},
	FamStringCmp:    {arrow: true},
	FamFloatCmp:     {reason: "PostgreSQL's float order (NaN = NaN, NaN above every number, -0 = +0)"},
	FamOtherCmp:     {reason: "no identical arrow-go kernel (bool/numeric/bytea/char(n) order, null-aware IS DISTINCT FROM)"},
	FamBoolLogic:    {arrow: true},
	FamIsNull:       {arrow: true},
	FamDecIsNull:    {reason: "arrow-go v18.8's is_null panics on decimal input"},
	FamFilter:       {arrow: true},
	FamFilterVar:    {reason: "arrow-go v18.8's filter of text/binary/nested columns panics on large batches (in a goroutine no recover reaches)"},
	FamIntCast:      {arrow: true},
	FamIntFloatCast: {arrow: true},
	FamOtherCast:    {reason: "PostgreSQL's cast rules (text parsing, rounding, error texts)"},
	FamFunction:     {reason: "sqlgate's function library (PostgreSQL semantics); arrow-go v18.8 has no string, date or PostgreSQL-identical math kernels"},
	FamConcat:       {reason: "arrow-go v18.8 has no string concatenation kernel"},
	FamConditional:  {reason: "PostgreSQL evaluates a branch only on the rows that reach it; arrow-go v18.8 has no case_when or coalesce"},
	FamSubquery:     {reason: "a subquery runs its own plan, whose nodes choose their own kernels"},
}

// Families lists every kernel family, sorted.
func Families() []Family {
	out := make([]Family, 0, len(families))
	for f := range families {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// ArrowServes reports whether arrow-go serves f with results identical to
// the native kernels.
func ArrowServes(f Family) bool { return families[f].arrow }

// Choice is the backend a family runs on for a requested backend, and why.
type Choice struct {
	Family   Family
	Selected Backend // Native or Arrow
	Reason   string
}

// SelectBackend resolves the requested backend for family f: Native and
// Arrow are honoured where arrow-go serves f identically; Auto follows the
// ledger.
func SelectBackend(req Backend, f Family) Choice {
	info := families[f]
	switch {
	case !info.arrow:
		return Choice{f, BackendNative, info.reason}
	case req == BackendNative:
		return Choice{f, BackendNative, "requested"}
	case req == BackendArrow:
		return Choice{f, BackendArrow, "requested"}
	}
	return ledgerChoice(f)
}

// backendFor is the backend family f runs on in this evaluation: the
// request (the context's, or its family's override) resolved by
// SelectBackend. Every evaluation of a family's kernel asks it, so that
// ec.Kernels, when set, records what ran.
func (ec *EvalContext) backendFor(f Family) Backend {
	if ec == nil {
		return BackendNative
	}
	req := ec.Backend
	if b, ok := ec.Families[f]; ok {
		req = b
	}
	c := SelectBackend(req, f)
	if ec.Kernels != nil {
		ec.Kernels.add(c)
	}
	return c.Selected
}

// BackendRequest is what a statement asks of the kernel backends: a
// default (the sqlgate.backend setting or a hint's bare backend(name)),
// overridden per kernel family and per plan node kind by a hint's
// name=backend entries (/*+ backend(native, filter=arrow, int_cmp=arrow) */).
// A node kind's entry wins over a family's for that node's kernels, and a
// family's over the default. The zero value asks auto of everything.
type BackendRequest struct {
	Default  Backend
	Families map[Family]Backend
	Nodes    map[string]Backend
}

// NodeRequest is the request the kernels of one plan node resolve.
type NodeRequest struct {
	Default  Backend
	Families map[Family]Backend // read only, shared
	// Named: a node kind entry of the request set Default.
	Named bool
}

// ForNode is the request of a node of the given kind (its EXPLAIN kind).
func (r *BackendRequest) ForNode(kind string) NodeRequest {
	if r == nil {
		return NodeRequest{}
	}
	if b, ok := r.Nodes[kind]; ok {
		return NodeRequest{Default: b, Named: true}
	}
	return NodeRequest{Default: r.Default, Families: r.Families}
}

// Select resolves family f for the node, the reason naming which entry of
// the request asked for it.
func (r NodeRequest) Select(f Family) Choice {
	req, from := r.Default, ""
	if r.Named {
		from = " for this node kind"
	}
	if b, ok := r.Families[f]; ok {
		req, from = b, " for this family"
	}
	c := SelectBackend(req, f)
	if c.Reason == "requested" {
		c.Reason += from
	}
	return c
}

// String is the request as the report shows it: the default backend, then
// the entries in name order.
func (r *BackendRequest) String() string {
	if r == nil {
		return BackendAuto.String()
	}
	var parts []string
	for f, b := range r.Families {
		parts = append(parts, string(f)+"="+b.String())
	}
	for k, b := range r.Nodes {
		parts = append(parts, k+"="+b.String())
	}
	if len(parts) == 0 {
		return r.Default.String()
	}
	sort.Strings(parts)
	return r.Default.String() + " (" + strings.Join(parts, ", ") + ")"
}

// ForNode is a copy of ec for the operator of one plan node: its kernels
// resolve req and, with log set, record in log what they run. What ec
// caches per execution (uncorrelated subqueries' rows) starts afresh: each
// subquery expression belongs to one node.
func (ec *EvalContext) ForNode(req NodeRequest, log *KernelLog) *EvalContext {
	c := *ec
	c.subqueries = nil
	c.Backend, c.Families, c.Kernels = req.Default, req.Families, log
	return &c
}

// Untraced is ec without its kernel log, for a plan of its own run by an
// expression (a subquery's, a LATERAL item's): that plan's nodes are not
// the node whose kernels the log records. ec itself when it has no log.
func (ec *EvalContext) Untraced() *EvalContext {
	if ec == nil || ec.Kernels == nil {
		return ec
	}
	c := *ec
	c.Kernels = nil
	return &c
}

// KernelLog records the kernel families one node's operator ran and the
// backend each ran on: what EXPLAIN ANALYZE shows as kernels_ran, and the
// independent check of the report's labels. Parallel parts of a plan
// share a node's log from several goroutines.
type KernelLog struct {
	mu  sync.Mutex
	ran []Choice
}

func (l *KernelLog) add(c Choice) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, r := range l.ran {
		if r.Family == c.Family && r.Selected == c.Selected {
			return
		}
	}
	l.ran = append(l.ran, Choice{Family: c.Family, Selected: c.Selected})
}

// Ran lists the families run, each with the backend it ran on (a family
// that ran on both is listed twice), in first-run order.
func (l *KernelLog) Ran() []Choice {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Choice(nil), l.ran...)
}

// Ledger is the committed benchmark ledger (ledger.json, written by `make
// ledger`): per family, ns/row of both backends at each batch size.
type Ledger struct {
	Generated  string                  `json:"generated"`
	Command    string                  `json:"command"`
	Note       string                  `json:"note"`
	BatchBytes []int                   `json:"batch_bytes"`
	Families   map[Family]LedgerFamily `json:"families"`
}

// LedgerFamily is one family's timings, one entry per Ledger.BatchBytes.
type LedgerFamily struct {
	NativeNsPerRow []float64 `json:"native_ns_per_row"`
	ArrowNsPerRow  []float64 `json:"arrow_ns_per_row"`
}

// AutoWinMargin is how much faster the other backend must be (at two
// adjacent batch sizes) for auto to leave the native default.
const AutoWinMargin = 1.25

//go:embed ledger.json
var ledgerJSON []byte

// ParseLedger reads a ledger file.
func ParseLedger(b []byte) (*Ledger, error) {
	var l Ledger
	if err := json.Unmarshal(b, &l); err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	return &l, nil
}

// Decide applies the auto rule to family f: Arrow when arrow-go serves f
// and beats native by more than AutoWinMargin at two adjacent batch sizes.
func (l *Ledger) Decide(f Family) Choice {
	if !families[f].arrow {
		return Choice{f, BackendNative, families[f].reason}
	}
	if l == nil {
		return Choice{f, BackendNative, "auto: no ledger"}
	}
	lf, ok := l.Families[f]
	if !ok {
		return Choice{f, BackendNative, "auto: not in the ledger"}
	}
	wins := func(i int) bool {
		return i < len(lf.NativeNsPerRow) && i < len(lf.ArrowNsPerRow) && lf.ArrowNsPerRow[i] > 0 &&
			lf.NativeNsPerRow[i] > AutoWinMargin*lf.ArrowNsPerRow[i]
	}
	for i := 0; i+1 < len(l.BatchBytes); i++ {
		if wins(i) && wins(i+1) {
			return Choice{f, BackendArrow, fmt.Sprintf("auto: ledger, arrow-go >25%% faster at %d and %d bytes", l.BatchBytes[i], l.BatchBytes[i+1])}
		}
	}
	return Choice{f, BackendNative, "auto: ledger, arrow-go not >25% faster at two adjacent batch sizes"}
}

// committedLedger is ledger.json, parsed once; it is never modified.
var committedLedger = func() *Ledger {
	l, err := ParseLedger(ledgerJSON)
	if err != nil {
		return nil
	}
	return l
}()

// CommittedLedger returns the ledger compiled into the binary.
func CommittedLedger() *Ledger { return committedLedger }

func ledgerChoice(f Family) Choice { return committedLedger.Decide(f) }

// ExprFamilies lists the kernel families e's evaluation uses, in first-use
// order without repeats (for the execution report).
func ExprFamilies(e Expr) []Family {
	var out []Family
	seen := map[Family]bool{}
	add := func(f Family) {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	var walk func(e Expr)
	walk = func(e Expr) {
		switch x := e.(type) {
		case *ArithExpr:
			walk(x.L)
			walk(x.R)
			add(arithFamily(x.Op, x.T))
		case *NegExpr:
			walk(x.X)
			if x.T.IsFloat() {
				add(arithFamily(Mul, x.T))
			} else {
				add(arithFamily(Sub, x.T))
			}
		case *CmpExpr:
			walk(x.L)
			walk(x.R)
			add(cmpFamily(x.Op, x.L.Type()))
		case *LogicExpr:
			walk(x.L)
			walk(x.R)
			add(FamBoolLogic)
		case *NotExpr:
			walk(x.X)
			add(FamBoolLogic)
		case *IsNullExpr:
			walk(x.X)
			add(isNullFamily(x.X.Type()))
		case *CastExpr:
			walk(x.X)
			add(castFamily(x.X.Type(), x.T))
		case *ConcatExpr:
			add(FamConcat)
			walk(x.L)
			walk(x.R)
		case *FuncExpr:
			for _, a := range x.Args {
				walk(a)
			}
			add(FamFunction)
		case *CoalesceExpr:
			add(FamConditional)
			for _, a := range x.Args {
				walk(a)
			}
		case *CaseExpr:
			add(FamConditional)
			for _, w := range x.Whens {
				walk(w.Cond)
				walk(w.Result)
			}
			if x.Else != nil {
				walk(x.Else)
			}
		case *SubqueryExpr:
			for _, o := range x.Outer {
				walk(o)
			}
			if x.X != nil {
				walk(x.X)
			}
			add(FamSubquery)
		}
	}
	walk(e)
	return out
}

func arithFamily(op ArithOp, t types.T) Family {
	switch {
	case t.Kind == types.Int16 || t.Kind == types.Int32 || t.Kind == types.Int64:
		switch op {
		case Div, Mod:
			return FamIntDivMod
		case Mul:
			return FamIntMul
		}
		return FamIntAddSub
	case t.IsFloat():
		return FamFloatArith
	}
	return FamDecimalArith
}

func cmpFamily(op CmpOp, t types.T) Family {
	if op == Distinct || op == NotDistinct {
		return FamOtherCmp
	}
	switch t.Kind {
	case types.Int8, types.Int16, types.Int32, types.Int64, types.Date, types.Time, types.Timestamp, types.TimestampTZ:
		return FamIntCmp
	case types.String:
		return FamStringCmp
	case types.Float32, types.Float64:
		return FamFloatCmp
	}
	return FamOtherCmp
}

// FilterFamily is the family of filtering batches of this schema: arrow-go
// is only trusted with fixed-width columns.
func FilterFamily(s *arrow.Schema) Family {
	for _, f := range s.Fields() {
		if _, ok := f.Type.(arrow.FixedWidthDataType); !ok {
			return FamFilterVar
		}
	}
	return FamFilter
}

func isNullFamily(t types.T) Family {
	if t.Kind == types.Decimal {
		return FamDecIsNull
	}
	return FamIsNull
}

func castFamily(from, to types.T) Family {
	if from.IsInteger() && to.IsInteger() {
		return FamIntCast
	}
	if from.IsInteger() && to.IsFloat() {
		return FamIntFloatCast
	}
	return FamOtherCast
}
