package pgcatalog

import (
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/internal/pgproc"
)

// Pseudo-types a built-in's declared argument type stands for in
// PostgreSQL's pg_proc (besides anyarray and anyelement: rows.go).
const (
	oidAnyNonArray        = 2776
	oidAnyCompatible      = 5077
	oidAnyCompatibleArray = 5078
)

// polyStandIns are, for each argument type OID a built-in in functions is
// declared with in place of a polymorphic one (any array is declared
// text[], Resolve matching arrays by kind; any value is "any"), the
// pseudo-types PostgreSQL's own signature may have there.
var polyStandIns = map[uint32][]uint32{
	1009:   {oidAnyArray, oidAnyCompatibleArray}, // text[]
	oidAny: {oidAnyElement, oidAnyCompatible, oidAnyNonArray},
}

// polyArgs rewrites the argument OIDs of a built-in whose signature is
// not PostgreSQL's into PostgreSQL's polymorphic one when exactly one of
// the name's PostgreSQL signatures matches it, each argument the same or
// a pseudo-type it stands for: array_length(text[], int4) is pg_proc's
// array_length(anyarray, integer), which 'array_length(anyarray,int4)'
// ::regprocedure names and regprocedure's output prints. It reports
// whether args changed. A result declared with a stand-in (text[], "any")
// becomes the pseudo-type of the arguments' family, as PostgreSQL's
// polymorphism requires (array_cat(...) anycompatiblearray, array_fill
// (anyelement, ...) anyarray). sigs are PostgreSQL's signatures by name
// (pgSignatures).
func polyArgs(name string, args []any, ret *uint32, sigs map[string][][]uint32) bool {
	own := make([]uint32, len(args))
	for i, a := range args {
		own[i] = a.(uint32)
	}
	if _, ok := pgproc.Of(pgproc.Signature(name, own)); ok {
		return false // PostgreSQL's signature already
	}
	var match []uint32
	for _, sig := range sigs[name] {
		if len(sig) != len(own) || !standsFor(own, sig) {
			continue
		}
		if match != nil {
			return false // ambiguous: left as declared
		}
		match = sig
	}
	if match == nil {
		return false
	}
	compatible := false
	for i, o := range match {
		args[i] = o
		compatible = compatible || o == oidAnyCompatible || o == oidAnyCompatibleArray
	}
	switch {
	case *ret == 1009 && compatible:
		*ret = oidAnyCompatibleArray
	case *ret == 1009:
		*ret = oidAnyArray
	case *ret == oidAny && compatible:
		*ret = oidAnyCompatible
	case *ret == oidAny:
		*ret = oidAnyElement
	}
	return true
}

// standsFor reports whether the declared argument OIDs own stand for
// PostgreSQL's signature sig position by position.
func standsFor(own, sig []uint32) bool {
	poly := false
	for i, o := range own {
		if o == sig[i] {
			continue
		}
		ok := false
		for _, p := range polyStandIns[o] {
			ok = ok || p == sig[i]
		}
		if !ok {
			return false
		}
		poly = true
	}
	return poly
}

// pgSignatures are PostgreSQL 15's built-in signatures (internal/pgproc)
// by name, their argument type OIDs.
func pgSignatures() map[string][][]uint32 {
	out := map[string][][]uint32{}
	for _, s := range pgproc.Signatures() {
		open := strings.IndexByte(s, '(')
		if open < 0 || !strings.HasSuffix(s, ")") {
			continue
		}
		var args []uint32
		if inner := s[open+1 : len(s)-1]; inner != "" {
			for _, f := range strings.Split(inner, ",") {
				n, err := strconv.ParseUint(f, 10, 32)
				if err != nil {
					args = nil
					break
				}
				args = append(args, uint32(n))
			}
		}
		out[s[:open]] = append(out[s[:open]], args)
	}
	return out
}
