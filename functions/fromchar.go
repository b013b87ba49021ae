package functions

import (
	"context"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// to_timestamp(text, text) and to_date(text, text): PostgreSQL 15's
// formatting.c read backwards. The template is parsed into nodes as
// parse_format does (keywords matched case-sensitively by the longest
// entry of DCH_keywords' first-letter run, FM/TM prefixes, TH/th/SP
// suffixes, "quoted" text, separators and spaces); the input is then
// walked as DCH_from_char walks it (spaces skipped before fields outside
// FX mode, a separator in the template matching one separator or space of
// the input or nothing, a literal consuming one character, numbers read
// at the field's width unless FM or a separator follows); and the fields
// become a date as do_to_timestamp makes it (12-hour clock, CC with YY,
// Julian days, ISO weeks, day of year), checked as ValidateDate checks it.
// Errors are PostgreSQL's messages and SQLSTATEs. TZ and OF in the
// template are 0A000, as in PostgreSQL 15; TM (localized names) reads the
// English names, which is what PostgreSQL reads under C.UTF-8.

// dateMode is a keyword's calendar convention (FROM_CHAR_DATE_*).
type dateMode int

const (
	modeNone dateMode = iota
	modeGregorian
	modeISOWeek
)

type dchKey struct {
	name    string
	id      string // the DCH_ id, upper case (DDD for ddd)
	isDigit bool
	mode    dateMode
}

// dchKeywords is DCH_keywords in its order: a template position takes the
// first entry of its first letter that it starts with.
var dchKeywords = func() []dchKey {
	g, i, n := modeGregorian, modeISOWeek, modeNone
	k := func(name, id string, digit bool, mode dateMode) dchKey {
		return dchKey{name: name, id: id, isDigit: digit, mode: mode}
	}
	return []dchKey{
		k("A.D.", "A.D.", false, n), k("A.M.", "A.M.", false, n), k("AD", "AD", false, n), k("AM", "AM", false, n),
		k("B.C.", "A.D.", false, n), k("BC", "AD", false, n), k("CC", "CC", true, n),
		k("DAY", "DAY", false, n), k("DDD", "DDD", true, g), k("DD", "DD", true, g), k("DY", "DY", false, n),
		k("Day", "DAY", false, n), k("Dy", "DY", false, n), k("D", "D", true, g),
		k("FF1", "FF1", false, n), k("FF2", "FF2", false, n), k("FF3", "FF3", false, n), k("FF4", "FF4", false, n),
		k("FF5", "FF5", false, n), k("FF6", "FF6", false, n), k("FX", "FX", false, n),
		k("HH24", "HH24", true, n), k("HH12", "HH12", true, n), k("HH", "HH", true, n),
		k("IDDD", "IDDD", true, i), k("ID", "ID", true, i), k("IW", "IW", true, i), k("IYYY", "IYYY", true, i),
		k("IYY", "IYY", true, i), k("IY", "IY", true, i), k("I", "I", true, i), k("J", "J", true, n),
		k("MI", "MI", true, n), k("MM", "MM", true, g), k("MONTH", "MONTH", false, g), k("MON", "MON", false, g),
		k("MS", "MS", true, n), k("Month", "MONTH", false, g), k("Mon", "MON", false, g), k("OF", "OF", false, n),
		k("P.M.", "A.M.", false, n), k("PM", "AM", false, n), k("Q", "Q", true, n), k("RM", "RM", false, g),
		k("SSSSS", "SSSS", true, n), k("SSSS", "SSSS", true, n), k("SS", "SS", true, n),
		k("TZH", "TZH", false, n), k("TZM", "TZM", true, n), k("TZ", "TZ", false, n), k("US", "US", true, n),
		k("WW", "WW", true, g), k("W", "W", true, g),
		k("Y,YYY", "Y,YYY", true, g), k("YYYY", "YYYY", true, g), k("YYY", "YYY", true, g), k("YY", "YY", true, g), k("Y", "Y", true, g),
		k("a.d.", "A.D.", false, n), k("a.m.", "A.M.", false, n), k("ad", "AD", false, n), k("am", "AM", false, n),
		k("b.c.", "A.D.", false, n), k("bc", "AD", false, n), k("cc", "CC", true, n),
		k("day", "DAY", false, n), k("ddd", "DDD", true, g), k("dd", "DD", true, g), k("dy", "DY", false, n), k("d", "D", true, g),
		k("ff1", "FF1", false, n), k("ff2", "FF2", false, n), k("ff3", "FF3", false, n), k("ff4", "FF4", false, n),
		k("ff5", "FF5", false, n), k("ff6", "FF6", false, n), k("fx", "FX", false, n),
		k("hh24", "HH24", true, n), k("hh12", "HH12", true, n), k("hh", "HH", true, n),
		k("iddd", "IDDD", true, i), k("id", "ID", true, i), k("iw", "IW", true, i), k("iyyy", "IYYY", true, i),
		k("iyy", "IYY", true, i), k("iy", "IY", true, i), k("i", "I", true, i), k("j", "J", true, n),
		k("mi", "MI", true, n), k("mm", "MM", true, g), k("month", "MONTH", false, g), k("mon", "MON", false, g),
		k("ms", "MS", true, n), k("of", "OF", false, n), k("p.m.", "A.M.", false, n), k("pm", "AM", false, n),
		k("q", "Q", true, n), k("rm", "RM", false, g),
		k("sssss", "SSSS", true, n), k("ssss", "SSSS", true, n), k("ss", "SS", true, n),
		k("tzh", "TZH", false, n), k("tzm", "TZM", true, n), k("tz", "TZ", false, n), k("us", "US", true, n),
		k("ww", "WW", true, g), k("w", "W", true, g),
		k("y,yyy", "Y,YYY", true, g), k("yyyy", "YYYY", true, g), k("yyy", "YYY", true, g), k("yy", "YY", true, g), k("y", "Y", true, g),
	}
}()

type dchNodeType int

const (
	dchAction dchNodeType = iota
	dchChar
	dchSpace
	dchSeparator
)

type dchNode struct {
	typ    dchNodeType
	key    *dchKey
	fm, th bool // FM prefix; TH/th suffix
	// tm is the TM prefix (names unpadded, in English, sqlgate's one
	// locale); thUpper says the suffix was TH, not th (to_char's case).
	tm, thUpper bool
	char        string // the character of a non-action node
}

// isSeparatorChar is formatting.c's is_separator_char: printable ASCII
// that is neither a letter nor a digit (nor a space).
func isSeparatorChar(c byte) bool {
	return c > 0x20 && c < 0x7f && !(c >= 'A' && c <= 'Z') && !(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9')
}

// isCSpace is isspace() in the C locale.
func isCSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func mbLen(s string) int {
	_, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return 1
	}
	return n
}

// parseDCHFormat is parse_format with DCH_FLAG.
func parseDCHFormat(f string) []dchNode {
	var out []dchNode
	for len(f) > 0 {
		fm, tm := false, false
		switch {
		case strings.HasPrefix(f, "FM"), strings.HasPrefix(f, "fm"):
			fm = true
			f = f[2:]
		case strings.HasPrefix(f, "TM"), strings.HasPrefix(f, "tm"):
			tm = true
			f = f[2:]
		}
		if len(f) == 0 {
			break
		}
		if k := dchKeyAt(f); k != nil {
			n := dchNode{typ: dchAction, key: k, fm: fm, tm: tm}
			f = f[len(k.name):]
			switch {
			case strings.HasPrefix(f, "TH"), strings.HasPrefix(f, "th"):
				n.th, n.thUpper = true, f[0] == 'T'
				f = f[2:]
			case strings.HasPrefix(f, "SP"):
				f = f[2:]
			}
			out = append(out, n)
			continue
		}
		if f[0] == '"' {
			f = quotedPicture(f, func(c string) { out = append(out, dchNode{typ: dchChar, char: c}) })
			continue
		}
		if f[0] == '\\' && len(f) > 1 && f[1] == '"' {
			f = f[1:]
		}
		l := mbLen(f)
		n := dchNode{typ: dchChar, char: f[:l]}
		switch {
		case isSeparatorChar(f[0]):
			n.typ = dchSeparator
		case isCSpace(f[0]):
			n.typ = dchSpace
		}
		out = append(out, n)
		f = f[l:]
	}
	return out
}

// quotedPicture reads the double-quoted literal text that starts format
// picture f (to_char's, to_date's, to_number's: PostgreSQL's
// parse_format), giving each of its characters to char, a backslash
// taking the next one as it is, up to the closing quote or f's end; it
// returns what follows.
func quotedPicture(f string, char func(string)) string {
	f = f[1:]
	for len(f) > 0 {
		if f[0] == '"' {
			return f[1:]
		}
		if f[0] == '\\' && len(f) > 1 {
			f = f[1:]
		}
		l := mbLen(f)
		char(f[:l])
		f = f[l:]
	}
	return f
}

func dchKeyAt(f string) *dchKey {
	for i := range dchKeywords {
		k := &dchKeywords[i]
		if k.name[0] == f[0] && strings.HasPrefix(f, k.name) {
			return k
		}
	}
	return nil
}

// tmFromChar is TmFromChar: the fields the input set (0 = not set).
type tmFromChar struct {
	mode                                      dateMode
	hh, pm, mi, ss, ssss, d, dd, ddd, mm, ms  int
	year, bc, ww, w, cc, j, us, yysz, clock12 int
	ff, tzsign, tzh, tzm                      int
}

func formatErr(msg string, args ...any) *sqlerr.Error {
	return sqlerr.New(sqlerr.InvalidDatetimeFormat, msg, args...)
}

func (t *tmFromChar) setInt(dest *int, v int, n *dchNode) error {
	if *dest != 0 && *dest != v {
		return formatErr("conflicting values for %q field in formatting string", n.key.name).
			WithDetail("This value contradicts a previous setting for the same field type.")
	}
	*dest = v
	return nil
}

// dchReader walks the input for DCH_from_char.
type dchReader struct {
	nodes []dchNode
	s     string // the rest of the input
	tm    *tmFromChar
}

// isNextSeparator is is_next_separator: may the number of node k be read
// to its end rather than at its width?
func (r *dchReader) isNextSeparator(k int) bool {
	n := &r.nodes[k]
	if n.th {
		return true
	}
	if k+1 >= len(r.nodes) {
		return true
	}
	next := &r.nodes[k+1]
	if next.typ == dchAction {
		return !next.key.isDigit
	}
	return !(len(next.char) == 1 && next.char[0] >= '0' && next.char[0] <= '9')
}

// strtol reads what C's strtol reads at s: spaces, a sign, digits. It
// returns the value, the characters used (0 when there are no digits) and
// whether the value overflowed a long.
func strtol(s string) (int64, int, bool) {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	var v int64
	over := false
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		d := int64(s[i] - '0')
		if v > (math.MaxInt64-d)/10 {
			over = true
		} else {
			v = v*10 + d
		}
		i++
	}
	if i == start {
		return 0, 0, false
	}
	if neg {
		v = -v
	}
	return v, i, over
}

// parseInt is from_char_parse_int_len: the number of node k at width
// width (or to its end), stored in dest when dest is not nil. It returns
// the characters used.
func (r *dchReader) parseInt(dest *int, width int, k int) (int, error) {
	n := &r.nodes[k]
	init := r.s
	sp := 0
	for sp < len(r.s) && isCSpace(r.s[sp]) {
		sp++
	}
	r.s = r.s[sp:]
	cp := r.s
	if len(cp) > width {
		cp = cp[:width]
	}
	var v int64
	var over bool
	if n.fm || r.isNextSeparator(k) {
		var used int
		v, used, over = strtol(init)
		r.s = init[used:]
	} else {
		if len(cp) < width {
			return 0, formatErr("source string too short for %q formatting field", n.key.name).
				WithDetail("Field requires %d characters, but only %d remain.", width, len(cp)).
				WithHint("If your source string is not fixed-width, try using the \"FM\" modifier.")
		}
		var used int
		v, used, over = strtol(cp)
		if used > 0 && used < width {
			return 0, formatErr("invalid value %q for %q", cp, n.key.name).
				WithDetail("Field requires %d characters, but only %d could be parsed.", width, used).
				WithHint("If your source string is not fixed-width, try using the \"FM\" modifier.")
		}
		r.s = r.s[used:]
	}
	if len(r.s) == len(init) {
		return 0, formatErr("invalid value %q for %q", cp, n.key.name).WithDetail("Value must be an integer.")
	}
	if over || v < math.MinInt32 || v > math.MaxInt32 {
		return 0, sqlerr.New(sqlerr.DatetimeFieldOverflow, "value for %q in source string is out of range", n.key.name).
			WithDetail("Value must be in the range %d to %d.", math.MinInt32, math.MaxInt32)
	}
	if dest != nil {
		if err := r.tm.setInt(dest, int(v), n); err != nil {
			return 0, err
		}
	}
	return len(init) - len(r.s), nil
}

func (r *dchReader) skipTH(k int) {
	if r.nodes[k].th {
		for c := 0; c < 2 && len(r.s) > 0; c++ {
			r.s = r.s[mbLen(r.s):]
		}
	}
}

// seqSearch is from_char_seq_search over seq_search_ascii: the first
// entry of list that the input starts with, ignoring ASCII case.
func (r *dchReader) seqSearch(list []string, k int) (int, error) {
	if r.s != "" {
		for idx, w := range list {
			if len(r.s) >= len(w) && asciiFoldEqual(r.s[:len(w)], w) {
				r.s = r.s[len(w):]
				return idx, nil
			}
		}
	}
	bad := r.s
	if i := strings.IndexAny(bad, " \t\n\r\f"); i >= 0 {
		bad = bad[:i]
	}
	return 0, formatErr("invalid value %q for %q", bad, r.nodes[k].key.name).
		WithDetail("The given value did not match any of the allowed values for this field.")
}

// asciiFoldEqual compares ignoring ASCII case only, as pg_ascii_tolower.
func asciiFoldEqual(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if x >= 'A' && x <= 'Z' {
			x += 'a' - 'A'
		}
		if y >= 'A' && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

var (
	monthsShort   = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	monthsFull    = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	daysFull      = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	daysShort     = []string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
	ampmShort     = []string{"am", "pm", "AM", "PM"}
	ampmLong      = []string{"a.m.", "p.m.", "A.M.", "P.M."}
	adbcShort     = []string{"ad", "bc", "AD", "BC"}
	adbcLong      = []string{"a.d.", "b.c.", "A.D.", "B.C."}
	romanMonthsLC = []string{"xii", "xi", "x", "ix", "viii", "vii", "vi", "v", "iv", "iii", "ii", "i"}
)

// adjustPartialYear is adjust_partial_year_to_2020.
func adjustPartialYear(y int) int {
	switch {
	case y < 70:
		return y + 2000
	case y < 100:
		return y + 1900
	case y < 520:
		return y + 2000
	case y < 1000:
		return y + 1000
	}
	return y
}

// fromChar is DCH_from_char (not in standard mode).
func fromChar(nodes []dchNode, in string) (*tmFromChar, error) {
	tm := &tmFromChar{}
	r := &dchReader{nodes: nodes, s: in, tm: tm}
	fx := false
	extraSkip := 0
	skipSpaces := func() {
		for len(r.s) > 0 && isCSpace(r.s[0]) {
			r.s = r.s[1:]
			extraSkip++
		}
	}
	for k := 0; k < len(nodes) && r.s != ""; k++ {
		n := &nodes[k]
		if !fx && (n.typ != dchAction || n.key.id != "FX") && (n.typ == dchAction || k == 0) {
			skipSpaces()
		}
		if n.typ == dchSpace || n.typ == dchSeparator {
			if !fx {
				extraSkip--
				if len(r.s) > 0 && (isCSpace(r.s[0]) || isSeparatorChar(r.s[0])) {
					r.s = r.s[1:]
					extraSkip++
				}
			} else if len(r.s) > 0 {
				r.s = r.s[mbLen(r.s):]
			}
			continue
		}
		if n.typ != dchAction {
			if !fx && extraSkip > 0 {
				extraSkip--
			} else if len(r.s) > 0 {
				r.s = r.s[mbLen(r.s):]
			}
			continue
		}
		if n.key.mode != modeNone {
			if tm.mode == modeNone {
				tm.mode = n.key.mode
			} else if tm.mode != n.key.mode {
				return nil, formatErr("invalid combination of date conventions").
					WithHint("Do not mix Gregorian and ISO week date conventions in a formatting template.")
			}
		}
		var err error
		var l int
		switch n.key.id {
		case "FX":
			fx = true
		case "A.M.", "AM":
			list := ampmShort
			if n.key.id == "A.M." {
				list = ampmLong
			}
			var v int
			if v, err = r.seqSearch(list, k); err == nil {
				err = tm.setInt(&tm.pm, v%2, n)
			}
			tm.clock12 = 1
		case "HH", "HH12":
			_, err = r.parseInt(&tm.hh, 2, k)
			tm.clock12 = 1
			r.skipTH(k)
		case "HH24":
			_, err = r.parseInt(&tm.hh, 2, k)
			r.skipTH(k)
		case "MI":
			_, err = r.parseInt(&tm.mi, len(n.key.name), k)
			r.skipTH(k)
		case "SS":
			_, err = r.parseInt(&tm.ss, len(n.key.name), k)
			r.skipTH(k)
		case "MS":
			if l, err = r.parseInt(&tm.ms, 3, k); err == nil {
				switch l {
				case 1:
					tm.ms *= 100
				case 2:
					tm.ms *= 10
				}
			}
			r.skipTH(k)
		case "FF1", "FF2", "FF3", "FF4", "FF5", "FF6", "US":
			width := 6
			if n.key.id != "US" {
				tm.ff = int(n.key.id[2] - '0')
				width = tm.ff
			}
			if l, err = r.parseInt(&tm.us, width, k); err == nil && l >= 1 && l <= 5 {
				tm.us *= []int{100000, 10000, 1000, 100, 10}[l-1]
			}
			r.skipTH(k)
		case "SSSS":
			_, err = r.parseInt(&tm.ssss, len(n.key.name), k)
			r.skipTH(k)
		case "TZ", "OF":
			err = sqlerr.New(sqlerr.FeatureNotSupported, "formatting field %q is only supported in to_char", n.key.name)
		case "TZH":
			switch {
			case len(r.s) > 0 && (r.s[0] == '+' || r.s[0] == '-' || r.s[0] == ' '):
				tm.tzsign = 1
				if r.s[0] == '-' {
					tm.tzsign = -1
				}
				r.s = r.s[1:]
			case extraSkip > 0 && len(in)-len(r.s) > 0 && in[len(in)-len(r.s)-1] == '-':
				tm.tzsign = -1
			default:
				tm.tzsign = 1
			}
			_, err = r.parseInt(&tm.tzh, 2, k)
		case "TZM":
			if tm.tzsign == 0 {
				tm.tzsign = 1
			}
			_, err = r.parseInt(&tm.tzm, 2, k)
		case "A.D.", "AD":
			list := adbcShort
			if n.key.id == "A.D." {
				list = adbcLong
			}
			var v int
			if v, err = r.seqSearch(list, k); err == nil {
				err = tm.setInt(&tm.bc, v%2, n)
			}
		case "MONTH", "MON":
			list := monthsShort
			if n.key.id == "MONTH" {
				list = monthsFull
			}
			var v int
			if v, err = r.seqSearch(list, k); err == nil {
				err = tm.setInt(&tm.mm, v+1, n)
			}
		case "DAY", "DY":
			list := daysShort
			if n.key.id == "DAY" {
				list = daysFull
			}
			var v int
			if v, err = r.seqSearch(list, k); err == nil {
				err = tm.setInt(&tm.d, v, n)
			}
			tm.d++
		case "MM":
			_, err = r.parseInt(&tm.mm, len(n.key.name), k)
			r.skipTH(k)
		case "DDD":
			_, err = r.parseInt(&tm.ddd, len(n.key.name), k)
			r.skipTH(k)
		case "IDDD":
			_, err = r.parseInt(&tm.ddd, 3, k)
			r.skipTH(k)
		case "DD":
			_, err = r.parseInt(&tm.dd, len(n.key.name), k)
			r.skipTH(k)
		case "D":
			_, err = r.parseInt(&tm.d, len(n.key.name), k)
			r.skipTH(k)
		case "ID":
			if _, err = r.parseInt(&tm.d, 1, k); err == nil {
				if tm.d++; tm.d > 7 {
					tm.d = 1
				}
			}
			r.skipTH(k)
		case "WW", "IW":
			_, err = r.parseInt(&tm.ww, len(n.key.name), k)
			r.skipTH(k)
		case "Q":
			_, err = r.parseInt(nil, len(n.key.name), k)
			r.skipTH(k)
		case "CC":
			_, err = r.parseInt(&tm.cc, len(n.key.name), k)
			r.skipTH(k)
		case "Y,YYY":
			err = r.yearWithComma(k)
			r.skipTH(k)
		case "YYYY", "IYYY":
			_, err = r.parseInt(&tm.year, len(n.key.name), k)
			tm.yysz = 4
			r.skipTH(k)
		case "YYY", "IYY", "YY", "IY", "Y", "I":
			if l, err = r.parseInt(&tm.year, len(n.key.name), k); err == nil && l < 4 {
				tm.year = adjustPartialYear(tm.year)
			}
			tm.yysz = len(n.key.name)
			r.skipTH(k)
		case "RM":
			var v int
			if v, err = r.seqSearch(romanMonthsLC, k); err == nil {
				err = tm.setInt(&tm.mm, 12-v, n)
			}
		case "W":
			_, err = r.parseInt(&tm.w, len(n.key.name), k)
			r.skipTH(k)
		case "J":
			_, err = r.parseInt(&tm.j, len(n.key.name), k)
			r.skipTH(k)
		}
		if err != nil {
			return nil, err
		}
		if !fx {
			extraSkip = 0
			skipSpaces()
		}
	}
	return tm, nil
}

// yearWithComma is Y,YYY: sscanf(s, "%d,%03d%n").
func (r *dchReader) yearWithComma(k int) error {
	bad := formatErr("invalid input string for \"Y,YYY\"")
	mil, used, over := strtol(r.s)
	if used == 0 || used >= len(r.s) || r.s[used] != ',' || over || mil < math.MinInt32 || mil > math.MaxInt32 {
		return bad
	}
	rest := r.s[used+1:]
	i := 0
	for i < len(rest) && isCSpace(rest[i]) {
		i++
	}
	j := i
	if j < len(rest) && (rest[j] == '+' || rest[j] == '-') {
		j++
	}
	for j < len(rest) && j-i < 3 && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	yv, n2, _ := strtol(rest[i:j])
	if n2 == 0 {
		return bad
	}
	r.s = rest[j:]
	if err := r.tm.setInt(&r.tm.year, int(yv)+int(mil)*1000, &r.nodes[k]); err != nil {
		return err
	}
	r.tm.yysz = 4
	return nil
}

// pgTM is the broken-down result (struct pg_tm): tm_year is astronomical
// (0 = 1 BC).
type pgTM struct {
	year, mon, mday, hour, min, sec int
	fsec                            int64
	fprec                           int
	hasZone                         bool
	zoneSecs                        int // seconds east of UTC
}

func fieldOverflow(in string) error {
	return sqlerr.New(sqlerr.DatetimeFieldOverflow, "date/time field value out of range: %q", in)
}

var ysum = [2][13]int{
	{0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365},
	{0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366},
}

func leapIdx(y int) int {
	if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		return 1
	}
	return 0
}

// doToTimestamp is do_to_timestamp.
func doToTimestamp(in, format string) (*pgTM, error) {
	tm := &pgTM{mon: 1, mday: 1}
	tmfc := &tmFromChar{}
	if format != "" {
		var err error
		if tmfc, err = fromChar(parseDCHFormat(format), in); err != nil {
			return nil, err
		}
	}
	const (
		fYear = 1 << iota
		fMonth
		fDay
	)
	fmask := 0
	if tmfc.ssss != 0 {
		x := tmfc.ssss
		tm.hour, tm.min, tm.sec = x/3600, x%3600/60, x%60
	}
	if tmfc.ss != 0 {
		tm.sec = tmfc.ss
	}
	if tmfc.mi != 0 {
		tm.min = tmfc.mi
	}
	if tmfc.hh != 0 {
		tm.hour = tmfc.hh
	}
	if tmfc.clock12 != 0 {
		if tm.hour < 1 || tm.hour > 12 {
			return nil, formatErr("hour \"%d\" is invalid for the 12-hour clock", tm.hour).
				WithHint("Use the 24-hour clock, or give an hour between 1 and 12.")
		}
		if tmfc.pm != 0 && tm.hour < 12 {
			tm.hour += 12
		} else if tmfc.pm == 0 && tm.hour == 12 {
			tm.hour = 0
		}
	}
	if tmfc.year != 0 {
		if tmfc.cc != 0 && tmfc.yysz <= 2 {
			if tmfc.bc != 0 {
				tmfc.cc = -tmfc.cc
			}
			tm.year = tmfc.year % 100
			if tm.year != 0 {
				if tmfc.cc >= 0 {
					tm.year += (tmfc.cc - 1) * 100
				} else {
					tm.year = (tmfc.cc+1)*100 - tm.year + 1
				}
			} else {
				tm.year = tmfc.cc * 100
				if tmfc.cc < 0 {
					tm.year++
				}
			}
		} else {
			tm.year = tmfc.year
			if tmfc.bc != 0 {
				tm.year = -tm.year
			}
			if tm.year < 0 {
				tm.year++
			}
		}
		fmask |= fYear
	} else if tmfc.cc != 0 {
		if tmfc.bc != 0 {
			tmfc.cc = -tmfc.cc
		}
		if tmfc.cc >= 0 {
			tm.year = (tmfc.cc-1)*100 + 1
		} else {
			tm.year = tmfc.cc*100 + 1
		}
		fmask |= fYear
	}
	if tmfc.j != 0 {
		tm.year, tm.mon, tm.mday = types.J2Date(tmfc.j)
		fmask |= fYear | fMonth | fDay
	}
	if tmfc.ww != 0 {
		if tmfc.mode == modeISOWeek {
			var jd int
			if tmfc.d != 0 {
				jd = isoweek2j(tm.year, tmfc.ww) + tmfc.d - 1 - 1
				if tmfc.d == 1 { // Sunday ends the ISO week (d counts from Sunday = 1)
					jd += 7
				}
			} else {
				jd = isoweek2j(tm.year, tmfc.ww)
			}
			tm.year, tm.mon, tm.mday = types.J2Date(jd)
			fmask |= fYear | fMonth | fDay
		} else {
			tmfc.ddd = (tmfc.ww-1)*7 + 1
		}
	}
	if tmfc.w != 0 {
		tmfc.dd = (tmfc.w-1)*7 + 1
	}
	if tmfc.dd != 0 {
		tm.mday = tmfc.dd
		fmask |= fDay
	}
	if tmfc.mm != 0 {
		tm.mon = tmfc.mm
		fmask |= fMonth
	}
	if tmfc.ddd != 0 && (tm.mon <= 1 || tm.mday <= 1) {
		if tm.year == 0 && tmfc.bc == 0 {
			return nil, formatErr("cannot calculate day of year without year information")
		}
		if tmfc.mode == modeISOWeek {
			j0 := isoweek2j(tm.year, 1) - 1
			tm.year, tm.mon, tm.mday = types.J2Date(j0 + tmfc.ddd)
			fmask |= fYear | fMonth | fDay
		} else {
			y := &ysum[leapIdx(tm.year)]
			i := 1
			for ; i <= 12; i++ {
				if tmfc.ddd <= y[i] {
					break
				}
			}
			if tm.mon <= 1 {
				tm.mon = i
			}
			if tm.mday <= 1 {
				tm.mday = tmfc.ddd - y[min(i, 13)-1]
			}
			fmask |= fMonth | fDay
		}
	}
	if tmfc.ms != 0 {
		tm.fsec += int64(tmfc.ms) * 1000
	}
	if tmfc.us != 0 {
		tm.fsec += int64(tmfc.us)
	}
	tm.fprec = tmfc.ff
	// ValidateDate
	if fmask&fMonth != 0 && (tm.mon < 1 || tm.mon > 12) {
		return nil, fieldOverflow(in)
	}
	if fmask&fDay != 0 && (tm.mday < 1 || tm.mday > 31) {
		return nil, fieldOverflow(in)
	}
	if fmask&(fYear|fMonth|fDay) == fYear|fMonth|fDay && tm.mday > monthDays[leapIdx(tm.year)][tm.mon-1] {
		return nil, fieldOverflow(in)
	}
	if tm.hour < 0 || tm.hour >= 24 || tm.min < 0 || tm.min >= 60 || tm.sec < 0 || tm.sec >= 60 || tm.fsec < 0 || tm.fsec >= 1e6 {
		return nil, fieldOverflow(in)
	}
	if tmfc.tzsign != 0 {
		if tmfc.tzh < 0 || tmfc.tzh > 15 || tmfc.tzm < 0 || tmfc.tzm >= 60 {
			return nil, sqlerr.New(sqlerr.InvalidTimeZoneDisplacement, "time zone displacement out of range: %q", in)
		}
		tm.hasZone = true
		tm.zoneSecs = tmfc.tzsign * (tmfc.tzh*3600 + tmfc.tzm*60)
	}
	return tm, nil
}

// isoweek2j is the Julian day of the Monday of ISO week wk of year.
func isoweek2j(year, wk int) int {
	// fourth day of January is always in week 1
	day4 := types.Date2J(year, 1, 4)
	// day0 == offset to first day of week (Monday)
	day0 := j2day(day4 - 1)
	return (wk-1)*7 + (day4 - day0)
}

// j2day is the day of the week of a Julian day, Sunday = 0.
func j2day(d int) int {
	d++
	d %= 7
	if d < 0 {
		d += 7
	}
	return d
}

// validJulian is IS_VALID_JULIAN.
func validJulian(y, m, d int) bool {
	return (y > -4713 || (y == -4713 && m >= 11)) && (y < 5874898 || (y == 5874898 && m < 6))
}

const (
	unixEpochJDate     = 2440588
	postgresEpochJDate = 2451545
)

// toDate is to_date(text, text): days since 1970-01-01.
func toDate(in, format string) (any, error) {
	tm, err := doToTimestamp(in, format)
	if err != nil {
		return nil, err
	}
	outOfRange := func() error { return sqlerr.New(sqlerr.DatetimeFieldOverflow, "date out of range: %q", in) }
	if !validJulian(tm.year, tm.mon, tm.mday) {
		return nil, outOfRange()
	}
	d := types.Date2J(tm.year, tm.mon, tm.mday) - postgresEpochJDate
	if d < -postgresEpochJDate || d >= 2147483494-postgresEpochJDate {
		return nil, outOfRange()
	}
	return int32(d + postgresEpochJDate - unixEpochJDate), nil
}

// timestampScales are AdjustTimestampForTypmod's rounding steps.
var timestampScales = [7]int64{1000000, 100000, 10000, 1000, 100, 10, 1}

// toTimestamp is to_timestamp(text, text) in zone loc: Unix microseconds.
func toTimestamp(in, format string, loc *time.Location) (any, error) {
	tm, err := doToTimestamp(in, format)
	if err != nil {
		return nil, err
	}
	if !validJulian(tm.year, tm.mon, tm.mday) {
		return nil, sqlerr.TimestampOutOfRange()
	}
	date := int64(types.Date2J(tm.year, tm.mon, tm.mday) - postgresEpochJDate)
	tod := (int64(tm.hour)*3600+int64(tm.min)*60+int64(tm.sec))*1e6 + tm.fsec
	local := date*types.USecsPerDay + tod // PostgreSQL-epoch microseconds, wall clock
	if (local-tod)/types.USecsPerDay != date || (local < 0 && date > 0) || (local > 0 && date < -1) {
		return nil, sqlerr.TimestampOutOfRange()
	}
	var off int64
	if tm.hasZone {
		off = int64(tm.zoneSecs)
	} else if loc != nil && loc != time.UTC {
		// DetermineTimeZoneOffset: the zone's offset at that wall clock
		wall := time.UnixMicro(local + pgEpochOffset*1_000_000).UTC()
		inst := types.LocalToInstant(wall, loc)
		off = wall.Unix() - inst.Unix()
	}
	r := local - off*1e6
	const minTimestamp, endTimestamp = -211813488000000000, 9223371331200000000
	if r < minTimestamp || r >= endTimestamp || r >= math.MaxInt64-pgEpochOffset*1_000_000 {
		return nil, sqlerr.TimestampOutOfRange()
	}
	if p := tm.fprec; p > 0 && p < 6 {
		scale := timestampScales[p]
		if r >= 0 {
			r = (r + scale/2) / scale * scale
		} else {
			r = -((-r + scale/2) / scale * scale)
		}
	}
	return r + pgEpochOffset*1_000_000, nil
}

func fromCharFuncs() []*Func {
	return []*Func{
		{Name: "to_date", Args: []types.T{tText, tText}, Ret: dateT, Strict: true,
			Kernel: rowFunc(dateT, true, func(_ context.Context, v []any) (any, error) { return toDate(v[0].(string), v[1].(string)) })},
		{Name: "to_timestamp", Args: []types.T{tText, tText}, Ret: tstzT, Strict: true,
			Kernel: rowFunc(tstzT, true, func(ctx context.Context, v []any) (any, error) {
				return toTimestamp(v[0].(string), v[1].(string), LocationOf(ctx))
			})},
	}
}
