package functions

import (
	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/types/numeric"

	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

func toCharNumberFuncs() []*Func {
	var fs []*Func
	for _, t := range []types.T{tInt4, tInt8, types.Float32Type, tFloat8, tNumeric} {
		fs = append(fs, &Func{Name: "to_char", Args: []types.T{t, tText}, Ret: tText, Strict: true, Kernel: toCharNumber})
	}
	return fs
}

// toCharNumber is to_char(number, format) with PostgreSQL's numeric
// template patterns (see numTemplate).
var toCharNumber = rowKernel(tText, true, func(args []arrow.Array) (func(int) (any, error), error) {
	ss, err := strArgs(args[1:])
	if err != nil {
		return nil, err
	}
	var src numSource
	switch x := args[0].(type) {
	case *array.Decimal128, *types.NumericArray:
		get, _ := types.NewNumericReader(x)
		src = func(i int) numValue {
			var d apd.Decimal
			return numValue{dec: get(i, &d)}
		}
	case *array.Float32, *array.Float64:
		get, _ := floatGetter(0, args[0])
		digits := 15 // float8 prints at most DBL_DIG significant digits
		if _, ok := x.(*array.Float32); ok {
			digits = 6 // FLT_DIG
		}
		src = func(i int) numValue { return numValue{float: true, f: get(i), sig: digits} }
	default:
		get, err := intGetter(0, args[0])
		if err != nil {
			return nil, err
		}
		intType := types.Int64Type
		if _, ok := x.(*array.Int32); ok {
			intType = types.Int32Type
		}
		src = func(i int) numValue {
			var d apd.Decimal
			d.SetInt64(get(i))
			return numValue{dec: &d, intType: &intType}
		}
	}
	return func(i int) (any, error) {
		t := parseNumTemplate(ss[0].Value(i))
		return t.format(src(i))
	}, nil
})

type numSource func(i int) numValue

// numValue is the number to_char formats: an exact decimal (numeric and
// integers), or a float printed with at most sig significant digits.
type numValue struct {
	dec   *apd.Decimal
	float bool
	f     float64
	sig   int
	// intType is the type of an integer argument: V's product wraps
	// around in int4 and is refused when too big in int8, as in PostgreSQL
	intType *types.T
}

// fixed is the value times 10^multi rounded to post fraction digits:
// integer digits, fraction digits (fewer than post when a float has no
// more significant digits) and the sign of what was printed.
func (v numValue) fixed(post, multi int) (ip, fp string, neg bool, err error) {
	var s string
	if v.special() {
		// printed as "NaN", "Infinity" or "-Infinity" (PostgreSQL's own
		// snprintf and numeric_out), digits of no fraction
		return v.specialText(), "", v.specialNeg(), nil
	}
	if v.float {
		f := v.f * math.Pow(10, float64(multi))
		intLen := len(strconv.FormatFloat(math.Abs(f), 'f', 0, 64))
		switch {
		case intLen >= v.sig:
			post = 0
		case intLen+post > v.sig:
			post = v.sig - intLen
		}
		s = strconv.FormatFloat(f, 'f', post, 64)
	} else {
		var d apd.Decimal
		d.Set(v.dec)
		d.Exponent += int32(multi)
		if v.intType != nil && multi > 0 {
			n, _ := v.dec.Int64()
			p := int64(math.Pow(10, float64(multi)))
			switch {
			case v.intType.Kind == types.Int32:
				d.SetInt64(int64(int32(n) * int32(p))) // wraps, as PostgreSQL's int4 to_char
			case n != 0 && (n*p)/p != n:
				return "", "", false, types.IntOutOfRange(*v.intType)
			}
		}
		r, _ := numeric.Round(&d, int64(post))
		s = numeric.String(r)
		if r.IsZero() {
			s = strings.TrimPrefix(s, "-") // numeric has no negative zero
		}
	}
	neg = strings.HasPrefix(s, "-")
	ip, fp, _ = strings.Cut(strings.TrimPrefix(s, "-"), ".")
	return ip, fp, neg, nil
}

// special reports NaN and the infinities.
func (v numValue) special() bool {
	if v.float {
		return math.IsNaN(v.f) || math.IsInf(v.f, 0)
	}
	return v.dec != nil && numeric.IsSpecial(v.dec)
}

// specialText is a special value's digits as to_char sees them.
func (v numValue) specialText() string {
	if v.float && math.IsNaN(v.f) || !v.float && numeric.IsNaN(v.dec) {
		return "NaN"
	}
	return "Infinity"
}

func (v numValue) specialNeg() bool {
	if v.float {
		return math.IsInf(v.f, -1)
	}
	return numeric.IsInf(v.dec) && v.dec.Negative
}

// specialPost is the fraction positions a special value's overflow fill
// has: the template's, cut for a float as float8_to_char cuts them to fit
// DBL_DIG (FLT_DIG) digits with its text's length.
func (v numValue) specialPost(post int) int {
	if !v.float {
		return post
	}
	n := len(v.specialText())
	switch {
	case n >= v.sig:
		return 0
	case n+post > v.sig:
		return v.sig - n
	}
	return post
}

// sci is the value in scientific notation with post fraction digits of
// the mantissa and an exponent of at least two digits ("1.20e+01").
func (v numValue) sci(post int) (string, bool) {
	if v.float || (v.intType != nil && v.intType.Kind == types.Int32) {
		f := v.f
		if !v.float { // int4 prints through a float8: ties round to even
			n, _ := v.dec.Int64()
			f = float64(n)
		}
		s := strconv.FormatFloat(f, 'e', post, 64)
		return strings.TrimPrefix(s, "-"), strings.HasPrefix(s, "-")
	}
	neg := v.dec.Sign() < 0
	var a apd.Decimal
	a.Abs(v.dec)
	exp := 0
	if !a.IsZero() {
		exp = int(a.NumDigits()) + int(a.Exponent) - 1
	}
	mantissa := func() string {
		var m apd.Decimal
		m.Set(&a)
		m.Exponent -= int32(exp)
		r, _ := numeric.Round(&m, int64(post))
		return numeric.String(r)
	}
	// a mantissa rounded up to 10 stays so ("10.00e+01"), as PostgreSQL
	// prints it
	ms := mantissa()
	es := "+"
	if exp < 0 {
		es, exp = "-", -exp
	}
	e := strconv.Itoa(exp)
	if len(e) < 2 {
		e = "0" + e
	}
	return ms + "e" + es + e, neg
}

// roman is the value rounded to an integer (floats to even, as rint);
// a numeric must fit an integer, as in PostgreSQL.
func (v numValue) roman() (int64, bool, error) {
	if v.float {
		r := math.RoundToEven(v.f)
		return int64(r), r >= 1 && r <= 3999, nil
	}
	if numeric.IsSpecial(v.dec) {
		_, _, err := numeric.ToInt64(v.dec, "integer") // numeric_int4's refusal
		return 0, false, err
	}
	var d apd.Decimal
	d.Set(v.dec)
	r, _ := numeric.Round(&d, 0)
	n, err := r.Int64()
	if err != nil || n != int64(int32(n)) {
		return 0, false, types.IntOutOfRange(types.Int32Type)
	}
	return n, n >= 1 && n <= 3999, nil
}

type numItemKind int

const (
	niLiteral numItemKind = iota
	niDigit               // 9 or 0
	niPoint               // . or D
	niGroup               // , or G
	niS
	niMI
	niPL
	niSG
	niPR
	niL
	niTH
	niNone // FM, V, EEEE: no output of their own
)

type numItem struct {
	kind  numItemKind
	text  string // literal text; TH's case
	frac  bool   // a digit after the decimal point
	index int    // a digit's index among the integer or fraction positions
	lower bool   // rn rather than RN
}

// numTemplate is a parsed numeric to_char template. Integer digit
// positions (9, 0, and those after V) are counted in pre, fraction
// positions in post. A 0 makes every integer position from it on print
// leading zeros, and in fill mode (FM) keeps fraction digits up to the
// last 0. The sign goes next to the number unless a sign pattern places
// it: MI, SG and PL at their own positions (PL adds to the sign next to
// the number), PR as angle brackets, S next to the number or, written
// after the integer digits, at its position.
type numTemplate struct {
	items      []numItem
	fm         bool
	pre, post  int
	multi      int
	zeroStart  int // first integer position printing leading zeros (pre: none)
	zeroEnd    int // last fraction position printed in fill mode (-1: none)
	sign       numItemKind
	trailingS  bool
	eeee       bool
	roman      string // "RN" or "rn" when roman numerals are asked for
	hasDecimal bool
	prClose    int // the item after which PR's closing bracket prints (-1: none)
	// minusPattern: MI or SG is in the template, which then writes the
	// minus sign itself (PostgreSQL's sign_wrote), even with PL after it
	minusPattern bool
}

var numCharKeywords = []string{"EEEE", "eeee", "FM", "fm", "MI", "mi", "PL", "pl", "PR", "pr", "RN", "rn", "SG", "sg", "SP", "sp", "TH", "th",
	"S", "s", "D", "d", "G", "g", "L", "l", "V", "v", "B", "b", "9", "0", ".", ","}

func parseNumTemplate(format string) *numTemplate {
	t := &numTemplate{zeroEnd: -1, zeroStart: -1, sign: niNone}
	afterV := false
	for i := 0; i < len(format); {
		if format[i] == '"' {
			var b strings.Builder
			rest := quotedPicture(format[i:], func(c string) { b.WriteString(c) }) // fromchar.go
			t.items = append(t.items, numItem{kind: niLiteral, text: b.String()})
			i = len(format) - len(rest)
			continue
		}
		kw := ""
		for _, k := range numCharKeywords {
			if strings.HasPrefix(format[i:], k) {
				kw = k
				break
			}
		}
		if kw == "" {
			t.items = append(t.items, numItem{kind: niLiteral, text: format[i : i+1]})
			i++
			continue
		}
		i += len(kw)
		it := numItem{kind: niNone}
		switch strings.ToUpper(kw) {
		case "9", "0":
			it.kind = niDigit
			it.text = kw
			switch {
			case t.hasDecimal:
				it.frac, it.index = true, t.post
				if kw == "0" {
					t.zeroEnd = t.post
				}
				t.post++
			default:
				it.index = t.pre
				if kw == "0" && t.zeroStart < 0 {
					// counted among the digits not after V: a 0 after
					// 9s after V zeroes earlier positions, as in PostgreSQL
					t.zeroStart = t.pre - t.multi
				}
				t.pre++
				if afterV && kw == "9" { // a 0 after V is a plain digit
					t.multi++
				}
			}
		case ".", "D":
			it.kind = niPoint
			t.hasDecimal = true
		case ",", "G":
			it.kind = niGroup
		case "SP":
			it.text = "SP" // a pattern of PostgreSQL's list that prints nothing
		case "FM":
			t.fm = true
			it.text = "FM"
		case "V":
			afterV = true
			it.text = "V"
		case "EEEE":
			t.eeee = true
			it.text = "EEEE"
		case "RN":
			if t.roman == "" {
				t.roman = kw
			}
			it.text, it.lower = "RN", kw == "rn"
		case "B":
			it.text = "B" // blank-if-zero in PostgreSQL's list, which prints nothing
		case "TH":
			it.kind, it.text = niTH, kw
		case "L":
			it.kind = niL
		case "S":
			it.kind = niS
			t.sign = niS
		case "MI", "PL", "SG", "PR":
			it.kind = map[string]numItemKind{"MI": niMI, "PL": niPL, "SG": niSG, "PR": niPR}[strings.ToUpper(kw)]
			if t.sign != niPR { // a sign pattern after PR leaves the brackets
				t.sign = it.kind
			}
			t.minusPattern = t.minusPattern || it.kind == niMI || it.kind == niSG
		}
		t.items = append(t.items, it)
	}
	if t.zeroStart < 0 {
		t.zeroStart = t.pre
	}
	// S prints at its place when written after the decimal point or after
	// every integer position; 9s after V do not count as written before it
	// (so S after them stays next to the number, as in PostgreSQL)
	before, point := 0, false
	afterV = false
	for _, it := range t.items {
		switch it.kind {
		case niPoint:
			point = true
		case niDigit:
			if !afterV || it.text == "0" {
				before++
			}
		case niNone:
			afterV = afterV || it.text == "V"
		case niS:
			t.trailingS = point || before == t.pre
		}
		if it.kind == niS {
			break
		}
	}
	// PR's closing bracket follows the last digit unless a decimal point
	// comes after it
	t.prClose = -1
	for i, it := range t.items {
		switch it.kind {
		case niDigit:
			t.prClose = i
		case niPoint:
			t.prClose = i // printed only when the number has a fraction or overflows
		}
	}
	return t
}

// check is NUMDesc_prepare's refusals of a template (42601), in its
// order: each pattern is checked against those before it.
func (t *numTemplate) check() error {
	var decimal, multi, lsign, plus, minus, bracket, fill, roman, eeee, blank, zero bool
	digits := 0
	refuse := func(msg string) error { return sqlerr.New(sqlerr.SyntaxError, "%s", msg) }
	for _, it := range t.items {
		if it.kind == niLiteral {
			continue
		}
		if eeee && it.text != "EEEE" {
			return refuse(`"EEEE" must be the last pattern used`)
		}
		switch it.kind {
		case niDigit:
			if bracket {
				return refuse(`"` + it.text + `" must be ahead of "PR"`)
			}
			digits++
			zero = zero || it.text == "0"
		case niPoint:
			if decimal {
				return refuse("multiple decimal points")
			}
			if multi {
				return refuse(`cannot use "V" and decimal point together`)
			}
			decimal = true
		case niS:
			if lsign {
				return refuse(`cannot use "S" twice`)
			}
			if plus || minus || bracket {
				return refuse(`cannot use "S" and "PL"/"MI"/"SG"/"PR" together`)
			}
			lsign = true
		case niMI, niPL, niSG:
			if lsign {
				return refuse(`cannot use "S" and "` + map[numItemKind]string{niMI: "MI", niPL: "PL", niSG: "SG"}[it.kind] + `" together`)
			}
			minus = minus || it.kind != niPL
			plus = plus || it.kind != niMI
		case niPR:
			if lsign || plus || minus {
				return refuse(`cannot use "PR" and "S"/"PL"/"MI"/"SG" together`)
			}
			bracket = true
		case niNone:
			switch it.text {
			case "FM":
				fill = true
			case "RN":
				roman = true
			case "B":
				// blank-if-zero, set only before any digit or 0
				blank = blank || digits == 0 && !zero
			case "V":
				if decimal {
					return refuse(`cannot use "V" and decimal point together`)
				}
				multi = true
			case "EEEE":
				if eeee {
					return refuse(`cannot use "EEEE" twice`)
				}
				if blank || fill || lsign || bracket || minus || plus || roman || multi {
					return sqlerr.New(sqlerr.SyntaxError, `"EEEE" is incompatible with other formats`).
						WithDetail(`"EEEE" may only be used together with digit and decimal point patterns.`)
				}
				eeee = true
			}
		}
	}
	return nil
}

func (t *numTemplate) format(v numValue) (string, error) {
	if err := t.check(); err != nil {
		return "", err
	}
	if t.roman != "" {
		return t.formatRoman(v)
	}
	if t.eeee {
		if v.special() {
			// float8_to_char and numeric_to_char: '#' for the digits, the
			// point, "e", the exponent's sign and two digits; no sign
			return " " + strings.Repeat("#", t.pre) + "." + strings.Repeat("#", t.post+4), nil
		}
		s, neg := v.sci(t.post)
		if neg {
			return "-" + s, nil
		}
		return " " + s, nil
	}
	ip, fp, neg, err := v.fixed(t.post, t.multi)
	if err != nil {
		return "", err
	}
	overflow := len(ip) > t.pre
	thValue := ip
	if overflow && v.special() {
		fp = strings.Repeat("#", v.specialPost(t.post)) // the '#' fill has the fraction too
	}
	fracDigits := len(fp) // a float prints no more than its significant digits
	if t.fm {
		keep := len(fp)
		for keep > 0 && fp[keep-1] == '0' && keep-1 > t.zeroEnd {
			keep--
		}
		fp = fp[:keep]
	}
	// a zero integer part is not printed before a fraction, unless fill
	// mode left no fraction digits to print
	// in fill mode with no fraction digits left it is, but group
	// separators after it print as before the number
	lonelyZero := ip == "0" && fracDigits > 0 && t.fm && fp == "" && t.zeroStart >= t.pre
	if ip == "0" && fracDigits > 0 && !lonelyZero {
		ip = ""
	}
	// without fraction digits the number ends at the decimal point: the
	// rest of the template is not printed
	printPoint := overflow || fracDigits > 0
	var b strings.Builder
	signDone := false
	started := false
	begin := func() { // the number starts: the sign next to it goes first
		if signDone {
			return
		}
		signDone, started = true, true
		switch {
		case t.sign == niS && !t.trailingS:
			b.WriteString(map[bool]string{true: "-", false: "+"}[neg])
		case t.sign == niPR && t.minusPattern:
			// MI or SG after PR writes the sign; only the closing
			// bracket stays
		case t.sign == niPR:
			if neg {
				b.WriteByte('<')
			} else if !t.fm {
				b.WriteByte(' ')
			}
		case (t.sign == niNone || t.sign == niPL) && !t.minusPattern:
			if neg {
				b.WriteByte('-')
			} else if !t.fm {
				b.WriteByte(' ')
			}
		}
	}
	blank := func() {
		if !t.fm {
			b.WriteByte(' ')
		}
	}
	closed := false
	closeNumber := func() { // PR's closing bracket, a trailing S
		if closed {
			return
		}
		closed = true
		switch {
		case t.sign == niPR && neg:
			b.WriteByte('>')
		case t.sign == niPR:
			blank()
		case t.sign == niS && t.trailingS:
			b.WriteString(map[bool]string{true: "-", false: "+"}[neg])
		}
	}
	pad := t.pre - len(ip)
	for i, it := range t.items {
		switch it.kind {
		case niLiteral:
			b.WriteString(it.text)
		case niDigit:
			switch {
			case it.frac && it.index >= fracDigits:
				// a float printed fewer digits than the template has: the
				// output ends with them, except that a 9 prints nothing
				// in fill mode
				if !t.fm || it.text == "0" {
					closeNumber()
					return b.String(), nil
				}
			case it.frac && overflow:
				b.WriteByte('#')
				started = true
			case it.frac:
				if it.index < len(fp) {
					b.WriteByte(fp[it.index])
					started = true
				}
			case overflow:
				begin()
				b.WriteByte('#')
			case it.index < pad && it.index < t.zeroStart:
				blank()
			case it.index < pad:
				begin()
				b.WriteByte('0')
			default:
				begin()
				b.WriteByte(ip[it.index-pad])
				if lonelyZero {
					started = false
				}
			}
		case niPoint:
			if !printPoint {
				return b.String(), nil
			}
			begin()
			b.WriteByte('.')
			// a group separator between the point and the next digit
			// is a blank: PostgreSQL's num_in is false again there
			started = false
		case niGroup:
			if started {
				b.WriteByte(',')
			} else {
				blank()
			}
		case niS: // at the number's end when trailing, else next to it
		case niMI:
			if neg {
				b.WriteByte('-')
			} else {
				blank()
			}
		case niPL:
			if !neg {
				b.WriteByte('+')
			} else {
				blank()
			}
		case niSG:
			b.WriteString(map[bool]string{true: "-", false: "+"}[neg])
		case niL:
			b.WriteByte(' ') // lc_monetary C has no currency symbol
		case niTH:
			switch {
			case neg || t.hasDecimal:
			case t.pre == 0:
				// no integer position: every number overflows them, and
				// the overflow's text is the point alone, no '#' to
				// skip TH for
				return "", sqlerr.New(sqlerr.InvalidTextRepresentation, "\".\" is not a number")
			case !overflow:
				if v.special() { // get_th wants a last digit
					return "", sqlerr.New(sqlerr.InvalidTextRepresentation, "\"%s\" is not a number", thValue)
				}
				b.WriteString(ordinalSuffix(thValue, it.text == "TH"))
			}
		}
		if i == t.prClose {
			closeNumber()
		}
	}
	return b.String(), nil
}

// formatRoman is NUM_processor with roman numerals: every RN (rn: in
// lower case) prints the numeral, right-aligned in 15 characters unless
// FM is anywhere in the template (fifteen '#' when the value is outside
// 1..3999); text is copied, a group separator, MI and PL print a blank
// (nothing under FM), L its blank, and the digit, sign, TH and other
// patterns nothing. SG writes the sign, which a roman numeral does not
// have: PostgreSQL's NUL byte, which ends the output there.
func (t *numTemplate) formatRoman(v numValue) (string, error) {
	n, ok, err := v.roman()
	if err != nil {
		return "", err
	}
	numeral := strings.Repeat("#", 15)
	if ok {
		var b strings.Builder
		for _, r := range romanNumerals {
			for n >= r.v {
				b.WriteString(r.s)
				n -= r.v
			}
		}
		numeral = b.String()
	}
	var b strings.Builder
	for _, it := range t.items {
		switch it.kind {
		case niLiteral:
			b.WriteString(it.text)
		case niGroup, niMI, niPL:
			if !t.fm {
				b.WriteByte(' ')
			}
		case niL:
			b.WriteByte(' ') // lc_monetary C has no currency symbol
		case niSG:
			return b.String(), nil
		case niNone:
			if it.text != "RN" {
				continue
			}
			s := numeral
			if it.lower {
				s = strings.ToLower(s)
			}
			if !t.fm && len(s) < 15 {
				b.WriteString(strings.Repeat(" ", 15-len(s)))
			}
			b.WriteString(s)
		}
	}
	return b.String(), nil
}

var romanNumerals = []struct {
	v int64
	s string
}{{1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"}, {90, "XC"}, {50, "L"}, {40, "XL"},
	{10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"}}

// ordinalSuffix is st, nd, rd or th for the integer written in digits.
func ordinalSuffix(digits string, upper bool) string {
	s := "th"
	last := digits[len(digits)-1]
	if len(digits) < 2 || digits[len(digits)-2] != '1' {
		switch last {
		case '1':
			s = "st"
		case '2':
			s = "nd"
		case '3':
			s = "rd"
		}
	}
	if upper {
		return strings.ToUpper(s)
	}
	return s
}
