package functions

import (
	"context"
	"sort"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// Ret of a GREATEST/LEAST/COALESCE overload is types.UnknownType (the
// caller learns the real type from Bind, which returns the common type).

// Kernel evaluates a function over argument arrays of length n (constants
// arrive broadcast to n). Each argument array has the Arrow type of the
// declared argument type Resolve returned for it; the result has n rows.
type Kernel func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error)

// Func is one overload of a scalar function.
type Func struct {
	Name string
	// Args are the declared argument types of this overload (after the
	// caller casts to them). A Decimal argument declared here as
	// types.NumericType accepts any decimal; Resolve returns the argument's
	// own decimal type for it so that no scale is lost.
	Args []types.T
	// Variadic: the last Arg repeats (concat, concat_ws, greatest, ...).
	Variadic bool
	// Ret is the result type. When ResultType is set it refines Ret from
	// the actual argument types (e.g. abs(numeric(10,2)) keeps scale 2).
	Ret types.T
	// Volatile functions (random(), now() family) are never constant-folded.
	Volatile bool
	// Strict: a NULL in any argument gives a NULL result. Informational:
	// every kernel handles NULLs itself.
	Strict bool
	Kernel Kernel
	// specialize, when set, builds the result type and a kernel for the
	// concrete argument types and the values of constant arguments (nil
	// where not constant). Used where PostgreSQL's result type depends on
	// its inputs: decimal scales, round(numeric, s).
	specialize func(args []types.T, consts []any) (types.T, Kernel)
	// unify, when set, makes Resolve cast every argument to their
	// CommonType (GREATEST, LEAST, COALESCE); it is the construct's name
	// in CommonType's error messages.
	unify string
	// sameArrays: the array parameters are PostgreSQL's anyarray, which
	// one call binds to a single array type: an unknown literal there
	// takes the other array argument's type, and arrays of two types do
	// not match (arraycontains, arraycontained, arrayoverlap).
	sameArrays bool
	// check, when set, narrows a declared any further: Resolve returns
	// its error (42883, or 42725 for an operand PostgreSQL finds
	// ambiguous) for argument types it refuses (-> and #> take json or
	// jsonb only), so the caller reports PostgreSQL's failed lookup at
	// bind time rather than a kernel's error when the first row arrives.
	check func(name string, args []types.T) error
}

// Bind returns the result type and the kernel of f for the concrete
// argument types args (those Resolve returned) and consts, the values of
// the arguments that are constants (types/value.go's physical values; nil
// for non-constant arguments; consts itself may be nil). Callers that need
// the exact result type (decimal scales) must use Bind rather than Ret and
// Kernel: for example round(x numeric(10,4), 2) is numeric with scale 2,
// and abs(numeric(10,2)) keeps scale 2.
func (f *Func) Bind(args []types.T, consts []any) (types.T, Kernel) {
	if f.specialize == nil {
		return f.Ret, f.Kernel
	}
	if len(consts) != len(args) { // nil, or a caller's miscount: treat as non-constant
		consts = make([]any, len(args))
	}
	return f.specialize(args, consts)
}

// catalog maps lower-case function names to their overloads. It is built
// once and never modified afterwards.
type catalog map[string][]*Func

var builtins = sync.OnceValue(func() catalog {
	c := catalog{}
	for _, f := range allFuncs() {
		if f.Kernel == nil && f.specialize != nil {
			// keep Kernel usable for callers that ignore Bind: the
			// specialization for the declared types
			_, f.Kernel = f.specialize(f.Args, make([]any, len(f.Args)))
		}
		c[f.Name] = append(c[f.Name], f)
	}
	return c
})

func allFuncs() []*Func {
	var fs []*Func
	fs = append(fs, stringFuncs()...)
	fs = append(fs, mathFuncs()...)
	fs = append(fs, timeFuncs()...)
	fs = append(fs, toASCIIFuncs()...)
	fs = append(fs, timeTZFuncs()...)
	fs = append(fs, dateArithFuncs()...)
	fs = append(fs, intervalFuncs()...)
	fs = append(fs, settingFuncs()...)
	fs = append(fs, sequenceFuncs()...)
	fs = append(fs, patternFuncs()...)
	fs = append(fs, toCharNumberFuncs()...)
	fs = append(fs, polyFuncs()...)
	fs = append(fs, catalogFuncs()...)
	fs = append(fs, jsonOpFuncs()...)
	fs = append(fs, regexFuncs()...)
	fs = append(fs, byteaFuncs()...)
	fs = append(fs, miscFuncs()...)
	fs = append(fs, jsonFuncsFamily()...)
	fs = append(fs, jsonAggFuncs()...)
	fs = append(fs, arrayMinMaxFuncs()...) // arrayminmax.go
	fs = append(fs, orderedSetFuncs()...)
	fs = append(fs, jsonContainFuncs()...)
	fs = append(fs, similarFuncs()...)
	fs = append(fs, epochFuncs()...)
	fs = append(fs, fromCharFuncs()...)
	fs = append(fs, toNumberFuncs()...)
	fs = append(fs, normalizeFuncs()...)
	fs = append(fs, trigFuncs()...)
	fs = append(fs, numericMathFuncs()...)
	fs = append(fs, operatorFuncs()...)
	fs = append(fs, bitStringFuncs()...) // bitstring.go
	fs = append(fs, netFuncs()...)       // netfuncs.go
	fs = append(fs, moneyFuncs()...)     // moneyfuncs.go
	fs = append(fs, jsonbDeleteFuncs()...)
	fs = append(fs, jsonExtraFuncs()...)
	fs = append(fs, overlapsFuncs()...)
	fs = append(fs, makeTimeFuncs()...)
	fs = append(fs, jsonbCmpFuncs()...)
	fs = append(fs, bpcharFuncs()...)
	fs = append(fs, jsonCastOpFuncs()...)
	fs = append(fs, dateBinFuncs()...)
	fs = append(fs, signalFuncs()...)   // signals.go
	fs = append(fs, statFuncs()...)     // statfuncs.go
	fs = append(fs, advisoryFuncs()...) // advisory.go
	fs = append(fs, notifyFuncs()...)   // notify.go
	fs = append(fs, sleepFuncs()...)    // sleep.go
	fs = append(fs, randomFuncs()...)   // random.go
	fs = append(fs, percentileIntervalFuncs()...)
	fs = append(fs, jsonPathFuncs()...)       // jsonpath.go
	fs = append(fs, tsearchFuncs()...)        // tsearch.go
	fs = append(fs, jsonTSFuncs()...)         // tsearchjson.go
	fs = append(fs, rangeFuncs()...)          // ranges.go
	fs = append(fs, geometricFuncs()...)      // geometric.go
	fs = append(fs, sysAdminFuncs()...)       // sysfuncs.go
	fs = append(fs, columnSizeFuncs()...)     // columnsize.go
	fs = append(fs, relPropFuncs()...)        // relprops.go
	fs = append(fs, describeObjectFuncs()...) // describeobj.go
	fs = append(fs, partitionFuncs()...)      // partitiontree.go
	return fs
}

// Lookup returns the overloads registered under name (case-insensitive).
func Lookup(name string) []*Func { return builtins()[strings.ToLower(name)] }

// Names returns the names of all built-in functions, sorted.
func Names() []string {
	c := builtins()
	out := make([]string, 0, len(c))
	for n := range c {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
