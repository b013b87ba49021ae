package functions

import (
	"context"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// System administration and information functions of PostgreSQL 15
// (§9.27, §9.28) whose answers follow from what sqlgate is: its
// configuration is read once at start-up (pg_reload_conf has nothing to
// reload and says so by succeeding, as PostgreSQL does when the signal is
// sent), it has no log collector (pg_rotate_logfile warns and returns
// false; pg_current_logfile is NULL), no commit timestamps
// (track_commit_timestamp is off) and no multixacts, and it assigns no
// transaction IDs of PostgreSQL's kind: every real transaction ID's age is
// counted from FirstNormalTransactionId (3), the next ID of a cluster
// that has assigned none. unistr and pg_char_to_encoding are PostgreSQL's
// text functions.
func sysAdminFuncs() []*Func {
	tXid := types.XidType
	logfile := func(ctx context.Context, a []any) (any, error) {
		if len(a) == 1 {
			switch f := a[0].(string); f {
			case "stderr", "csvlog", "jsonlog":
			default:
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "log format %q is not supported", f).
					WithHint("%s", `The supported log formats are "stderr", "csvlog", and "jsonlog".`)
			}
		}
		return nil, nil // no log collector writes a file
	}
	return append(append(currentQueryFuncs(), indexAMFuncs()...), []*Func{
		{Name: "unistr", Args: []types.T{tText}, Ret: tText, Strict: true, Kernel: rowFunc(tText, true, func(_ context.Context, a []any) (any, error) {
			return unistr(a[0].(string))
		})},
		{Name: "pg_char_to_encoding", Args: []types.T{tName}, Ret: tInt4, Strict: true, Kernel: rowFunc(tInt4, true, func(_ context.Context, a []any) (any, error) {
			return int64(charToEncoding(a[0].(string))), nil
		})},
		{Name: "pg_reload_conf", Ret: tBool, Volatile: true, Kernel: rowFunc(tBool, false, func(context.Context, []any) (any, error) { return true, nil })},
		{Name: "pg_rotate_logfile", Ret: tBool, Volatile: true, Kernel: rowFunc(tBool, false, func(ctx context.Context, _ []any) (any, error) {
			warn(ctx, sqlerr.New(sqlerr.Code("01000"), "rotation not possible because log collection not active"))
			return false, nil
		})},
		{Name: "pg_current_logfile", Ret: tText, Volatile: true, Kernel: rowFunc(tText, false, logfile)},
		{Name: "pg_current_logfile", Args: []types.T{tText}, Ret: tText, Strict: true, Volatile: true, Kernel: rowFunc(tText, true, logfile)},
		// no transaction of sqlgate's holds a PostgreSQL transaction ID
		{Name: "txid_current_if_assigned", Ret: tInt8, Volatile: true, Kernel: rowFunc(tInt8, false, func(context.Context, []any) (any, error) { return nil, nil })},
		{Name: "txid_status", Args: []types.T{tInt8}, Ret: tText, Strict: true, Volatile: true, Kernel: rowFunc(tText, true, func(_ context.Context, a []any) (any, error) {
			full := uint64(a[0].(int64))
			switch xid := uint32(full); {
			case xid == 0:
				return nil, nil // the invalid ID, in any epoch
			case xid < firstNormalXid:
				return "committed", nil // bootstrap and frozen IDs, in any epoch
			}
			// sqlgate's transactions take no PostgreSQL transaction IDs: it
			// answers as a freshly initialized PostgreSQL 15 cluster does,
			// whose next ID is initdbNextXid and whose commit log keeps no
			// older ID's status (NULL: too old to tell)
			if full < initdbNextXid {
				return nil, nil
			}
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "transaction ID %d is in the future", full)
		})},
		{Name: "pg_xact_commit_timestamp", Args: []types.T{tXid}, Ret: tstzT, Strict: true, Volatile: true, Kernel: rowFunc(tstzT, true, func(_ context.Context, a []any) (any, error) {
			xid := uint32(a[0].(int64))
			switch {
			case xid == 0:
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "cannot retrieve commit timestamp for transaction %d", xid)
			case xid < firstNormalXid:
				return nil, nil // frozen and bootstrap IDs committed before time began
			}
			return nil, sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "could not get commit timestamp data").
				WithHint("%s", `Make sure the configuration parameter "track_commit_timestamp" is set.`)
		})},
		{Name: "age", Args: []types.T{tXid}, Ret: tInt4, Strict: true, Volatile: true, Kernel: rowFunc(tInt4, true, func(_ context.Context, a []any) (any, error) {
			xid := uint32(a[0].(int64))
			if xid < firstNormalXid {
				return int64(math.MaxInt32), nil // PostgreSQL's age of an ID that is not a normal one
			}
			return int64(int32(firstNormalXid - xid)), nil
		})},
		{Name: "mxid_age", Args: []types.T{tXid}, Ret: tInt4, Strict: true, Volatile: true, Kernel: rowFunc(tInt4, true, func(_ context.Context, a []any) (any, error) {
			mxid := uint32(a[0].(int64))
			if mxid == 0 {
				return int64(math.MaxInt32), nil
			}
			return int64(int32(firstMultiXact - mxid)), nil // the next multixact is the first one
		})},
	}...)
}

const (
	firstNormalXid = 3 // PostgreSQL's FirstNormalTransactionId
	// initdbNextXid is the next transaction ID of a PostgreSQL 15 cluster
	// initdb has just made (pg_controldata's NextXID 0:724); its VACUUM
	// FREEZE leaves the commit log no status of older IDs.
	initdbNextXid  = 724
	firstMultiXact = 1 // FirstMultiXactId
)

// unistr is PostgreSQL 15's unistr(text): \\ is a backslash, \XXXX,
// \uXXXX, \+XXXXXX and \UXXXXXXXX (hex digits) a code point, a UTF-16
// surrogate pair written as two escapes one character; anything else
// after a backslash is an invalid escape.
func unistr(s string) (string, error) {
	invalidEscape := func() error {
		return sqlerr.New(sqlerr.SyntaxError, "invalid Unicode escape").
			WithHint("%s", `Unicode escapes must be \XXXX, \+XXXXXX, \uXXXX, or \UXXXXXXXX.`)
	}
	invalidPair := func() error { return sqlerr.New(sqlerr.SyntaxError, "invalid Unicode surrogate pair") }
	hexAt := func(i, n int) (rune, bool) {
		if i+n > len(s) {
			return 0, false
		}
		var v rune
		for _, c := range []byte(s[i : i+n]) {
			var d byte
			switch {
			case c >= '0' && c <= '9':
				d = c - '0'
			case c >= 'a' && c <= 'f':
				d = c - 'a' + 10
			case c >= 'A' && c <= 'F':
				d = c - 'A' + 10
			default:
				return 0, false
			}
			v = v<<4 | rune(d)
		}
		return v, true
	}
	var b strings.Builder
	var pairFirst rune
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			if pairFirst != 0 {
				return "", invalidPair()
			}
			b.WriteByte(s[i])
			i++
			continue
		}
		if i+1 < len(s) && s[i+1] == '\\' {
			if pairFirst != 0 {
				return "", invalidPair()
			}
			b.WriteByte('\\')
			i += 2
			continue
		}
		var r rune
		var ok bool
		switch {
		case i+1 < len(s) && s[i+1] == 'u':
			r, ok = hexAt(i+2, 4)
			i += 6
		case i+1 < len(s) && s[i+1] == '+':
			r, ok = hexAt(i+2, 6)
			i += 8
		case i+1 < len(s) && s[i+1] == 'U':
			r, ok = hexAt(i+2, 8)
			i += 10
		default:
			r, ok = hexAt(i+1, 4)
			i += 5
		}
		if !ok {
			return "", invalidEscape()
		}
		if r <= 0 || r > utf8.MaxRune {
			return "", sqlerr.New(sqlerr.InvalidParameterValue, "invalid Unicode code point: %04X", uint32(r))
		}
		first, second := r >= 0xD800 && r <= 0xDBFF, r >= 0xDC00 && r <= 0xDFFF
		switch {
		case pairFirst != 0 && !second, pairFirst == 0 && second:
			return "", invalidPair()
		case second:
			b.WriteRune(((pairFirst - 0xD800) << 10) + (r - 0xDC00) + 0x10000)
			pairFirst = 0
		case first:
			pairFirst = r
		default:
			b.WriteRune(r)
		}
	}
	if pairFirst != 0 {
		return "", invalidPair()
	}
	return b.String(), nil
}

// charToEncoding is pg_char_to_encoding: the number of the encoding name
// names (any case, punctuation ignored; toascii.go's table), -1 for none.
func charToEncoding(name string) int {
	if enc, ok := encodingByName(name); ok {
		return slices.Index(pgEncodingsByCode, enc)
	}
	return -1
}

// CurrentQueries is implemented by a CatalogInfo that sees the server's
// sessions (pgcatalog over the session registry): the text of the
// statement the session with pid runs, as pg_stat_activity.query shows it.
type CurrentQueries interface {
	CurrentQuery(pid int32) (query string, ok bool)
}

// currentQueryFuncs is current_query(): the client's current query text,
// NULL where the context sees no session registry. Of a simple-protocol
// string of several statements it is the running statement, where
// PostgreSQL shows the whole string (sqlgate's registry holds one
// statement at a time, without a trailing comment).
func currentQueryFuncs() []*Func {
	return []*Func{{Name: "current_query", Ret: tText, Volatile: true, Kernel: withCatalogNoArgs(tText, func(ctx context.Context, c CatalogInfo) (any, error) {
		if cq, ok := c.(CurrentQueries); ok {
			if q, ok := cq.CurrentQuery(sessionOf(ctx).BackendPID); ok {
				return q, nil
			}
		}
		return nil, nil
	})}}
}

// indexAMProperties are PostgreSQL 15's index access methods' answers to
// pg_indexam_has_property (can_order, can_unique, can_multi_col,
// can_exclude, can_include), by pg_am OID: the access methods sqlgate's
// pg_am lists under PostgreSQL's OIDs.
var indexAMProperties = map[uint32][5]bool{
	403:  {true, true, true, true, true},     // btree
	405:  {false, false, false, true, false}, // hash
	783:  {false, false, true, true, true},   // gist
	2742: {false, false, true, false, false}, // gin
	4000: {false, false, false, true, true},  // spgist
	3580: {false, false, true, false, false}, // brin
}

// indexAMFuncs is pg_indexam_has_property(am, property): NULL for an OID
// that is no index access method or a property name it does not know
// (any case).
func indexAMFuncs() []*Func {
	names := []string{"can_order", "can_unique", "can_multi_col", "can_exclude", "can_include"}
	return []*Func{{Name: "pg_indexam_has_property", Args: []types.T{tOid, tText}, Ret: tBool, Strict: true,
		Kernel: rowFunc(tBool, true, func(_ context.Context, a []any) (any, error) {
			props, ok := indexAMProperties[oidArg(a[0])]
			if !ok {
				return nil, nil
			}
			for i, n := range names {
				if strings.EqualFold(n, a[1].(string)) {
					return props[i], nil
				}
			}
			return nil, nil
		})}}
}
