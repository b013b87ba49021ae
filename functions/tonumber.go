package functions

import (
	"context"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// to_number(text, text): formatting.c's NUM_processor run backwards, under
// the C locale's number conventions ('.' decimal point, ',' thousands
// separator, '-'/'+' signs, a blank currency symbol), which is what
// PostgreSQL uses with LC_NUMERIC C. The template is read as parse_format
// reads a number picture (NUMDesc_prepare's checks and 42601 errors on the
// way); digits are taken one per 9/0 as NUM_numpart_from_char takes them,
// with the sign read before the first digit (a leading - or +, < with PR,
// or S's sign) or after the last one; a template character that is no
// pattern skips one input character, and L, TH, MI, PL and SG skip only
// characters that cannot be part of the number (NUM_eat_non_data_chars). The digits read become numeric_in's input under
// typmod (template digits before the point, digits read after it), and V
// divides by 10^n.

type numKey struct {
	name string
	id   string
}

// numKeywords is NUM_keywords in its order.
var numKeywords = []numKey{
	{",", ","}, {".", "."}, {"0", "0"}, {"9", "9"}, {"B", "B"}, {"C", "C"}, {"D", "D"}, {"EEEE", "EEEE"},
	{"FM", "FM"}, {"G", "G"}, {"L", "L"}, {"MI", "MI"}, {"PL", "PL"}, {"PR", "PR"}, {"RN", "RN"},
	{"SG", "SG"}, {"SP", "SP"}, {"S", "S"}, {"TH", "TH"}, {"V", "V"},
	{"b", "B"}, {"c", "C"}, {"d", "D"}, {"eeee", "EEEE"}, {"fm", "FM"}, {"g", "G"}, {"l", "L"}, {"mi", "MI"},
	{"pl", "PL"}, {"pr", "PR"}, {"rn", "RN"}, {"sg", "SG"}, {"sp", "SP"}, {"s", "S"}, {"th", "TH"}, {"v", "V"},
}

// numDesc is NUMDesc: what the picture says of the number.
type numDesc struct {
	pre, post, multi                                  int
	decimal, zero, blank, fill, lsign, bracket, minus bool
	plus, roman, isMulti, eeee                        bool
	lsignPre                                          bool // S before the decimal point
	lsignSet                                          bool
}

type numNode struct {
	action bool
	id     string
	char   string
}

func numSyntax(msg string) *sqlerr.Error { return sqlerr.New(sqlerr.SyntaxError, "%s", msg) }

// prepare is NUMDesc_prepare for one keyword.
func (d *numDesc) prepare(id string) error {
	if d.eeee && id != "EEEE" {
		return numSyntax(`"EEEE" must be the last pattern used`)
	}
	switch id {
	case "9":
		if d.bracket {
			return numSyntax(`"9" must be ahead of "PR"`)
		}
		switch {
		case d.isMulti:
			d.multi++
		case d.decimal:
			d.post++
		default:
			d.pre++
		}
	case "0":
		if d.bracket {
			return numSyntax(`"0" must be ahead of "PR"`)
		}
		if !d.zero && !d.decimal {
			d.zero = true
		}
		if !d.decimal {
			d.pre++
		} else {
			d.post++
		}
	case "B":
		if d.pre == 0 && d.post == 0 && !d.zero {
			d.blank = true
		}
	case "D", ".":
		if d.decimal {
			return numSyntax("multiple decimal points")
		}
		if d.isMulti {
			return numSyntax(`cannot use "V" and decimal point together`)
		}
		d.decimal = true
	case "FM":
		d.fill = true
	case "S":
		if d.lsign {
			return numSyntax(`cannot use "S" twice`)
		}
		if d.plus || d.minus || d.bracket {
			return numSyntax(`cannot use "S" and "PL"/"MI"/"SG"/"PR" together`)
		}
		if !d.decimal {
			d.lsign, d.lsignPre, d.lsignSet = true, true, true
		} else if !d.lsignSet {
			d.lsign, d.lsignSet = true, true
		}
	case "MI":
		if d.lsign {
			return numSyntax(`cannot use "S" and "MI" together`)
		}
		d.minus = true
	case "PL":
		if d.lsign {
			return numSyntax(`cannot use "S" and "PL" together`)
		}
		d.plus = true
	case "SG":
		if d.lsign {
			return numSyntax(`cannot use "S" and "SG" together`)
		}
		d.minus, d.plus = true, true
	case "PR":
		if d.lsign || d.plus || d.minus {
			return numSyntax(`cannot use "PR" and "S"/"PL"/"MI"/"SG" together`)
		}
		d.bracket = true
	case "RN":
		d.roman = true
	case "V":
		if d.decimal {
			return numSyntax(`cannot use "V" and decimal point together`)
		}
		d.isMulti = true
	case "EEEE":
		if d.eeee {
			return numSyntax(`cannot use "EEEE" twice`)
		}
		if d.blank || d.fill || d.lsign || d.bracket || d.minus || d.plus || d.roman || d.isMulti {
			return numSyntax(`"EEEE" is incompatible with other formats`).
				WithDetail(`"EEEE" may only be used together with digit and decimal point patterns.`)
		}
		d.eeee = true
	}
	return nil
}

// parseNumFormat is parse_format with NUM_FLAG.
func parseNumFormat(f string) ([]numNode, *numDesc, error) {
	d := &numDesc{}
	var out []numNode
	for len(f) > 0 {
		var key *numKey
		for i := range numKeywords {
			if k := &numKeywords[i]; k.name[0] == f[0] && strings.HasPrefix(f, k.name) {
				key = k
				break
			}
		}
		if key != nil {
			if err := d.prepare(key.id); err != nil {
				return nil, nil, err
			}
			out = append(out, numNode{action: true, id: key.id})
			f = f[len(key.name):]
			continue
		}
		if f[0] == '"' {
			f = quotedPicture(f, func(c string) { out = append(out, numNode{char: c}) }) // fromchar.go
			continue
		}
		if f[0] == '\\' && len(f) > 1 && f[1] == '"' {
			f = f[1:]
		}
		l := mbLen(f)
		out = append(out, numNode{char: f[:l]})
		f = f[l:]
	}
	return out, d, nil
}

// numReader is NUMProc for TO_NUMBER.
type numReader struct {
	d                 *numDesc
	in                string
	p                 int
	sign              byte // ' ' until a sign is read
	digits            []byte
	readPre, readPost int
	readDec           bool
}

func isASCIIDigit(c byte) bool { return c >= '0' && c <= '9' }

// numpart is NUM_numpart_from_char for a 9, 0 or decimal point.
func (r *numReader) numpart(id string) {
	n := len(r.in)
	if r.p >= n {
		return
	}
	if r.in[r.p] == ' ' {
		r.p++
	}
	if r.p >= n {
		return
	}
	if r.sign == ' ' && (id == "0" || id == "9") && r.readPre+r.readPost == 0 {
		c := r.in[r.p]
		if r.d.lsign && r.d.lsignPre {
			if c == '-' || c == '+' {
				r.sign = c
				r.p++
			}
		} else if c == '-' || (r.d.bracket && c == '<') {
			r.sign = '-'
			r.p++
		} else if c == '+' {
			r.sign = '+'
			r.p++
		}
	}
	if r.p >= n {
		return
	}
	isread := false
	if c := r.in[r.p]; isASCIIDigit(c) {
		if r.readDec && r.readPost == r.d.post {
			return
		}
		r.digits = append(r.digits, c)
		if r.readDec {
			r.readPost++
		} else {
			r.readPre++
		}
		isread = true
	} else if r.d.decimal && !r.readDec && c == '.' {
		r.digits = append(r.digits, '.')
		r.readDec = true
		isread = true
	}
	if r.p >= n {
		return
	}
	if r.sign == ' ' && r.readPre+r.readPost > 0 {
		if r.d.lsign && isread && r.p+1 < n && !isASCIIDigit(r.in[r.p+1]) {
			if c := r.in[r.p+1]; c == '-' || c == '+' {
				r.p++ // the caller steps past it
				r.sign = c
			}
		} else if !isread && !r.d.lsign && (r.d.plus || r.d.minus) {
			if c := r.in[r.p]; c == '-' || c == '+' {
				r.sign = c
			}
		}
	}
}

// eatNonData is NUM_eat_non_data_chars: skip up to n input characters
// that cannot be part of the number.
func (r *numReader) eatNonData(n int) {
	for ; n > 0 && r.p < len(r.in); n-- {
		if strings.IndexByte("0123456789.,+-", r.in[r.p]) >= 0 {
			break
		}
		r.p += mbLen(r.in[r.p:])
	}
}

// toNumber is to_number(text, text).
func toNumber(in, format string) (any, error) {
	if format == "" {
		return nil, nil
	}
	nodes, d, err := parseNumFormat(format)
	if err != nil {
		return nil, err
	}
	if d.eeee {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, `"EEEE" not supported for input`)
	}
	if d.roman {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, `"RN" not supported for input`)
	}
	r := &numReader{d: d, in: in, sign: ' '}
	for _, n := range nodes {
		if r.p >= len(r.in) {
			break
		}
		if !n.action {
			r.p += mbLen(r.in[r.p:])
			continue
		}
		switch n.id {
		case "9", "0", ".", "D":
			r.numpart(n.id)
		case ",":
			if d.fill || r.in[r.p] != ',' {
				continue
			}
		case "G":
			// the C locale's thousands separator is ",": skipped only
			// where the input has it
			if d.fill || r.in[r.p] != ',' {
				continue
			}
		case "L":
			r.eatNonData(1) // the C locale's currency symbol is " "
			continue
		case "TH":
			if !d.decimal {
				r.eatNonData(2)
			}
			continue
		case "MI", "PL", "SG":
			c := r.in[r.p]
			switch {
			case c == '-' && n.id != "PL", c == '+' && n.id != "MI":
				r.sign = c
			default:
				r.eatNonData(1)
				continue
			}
		default:
			continue
		}
		r.p++
	}
	digits := r.digits
	if len(digits) > 0 && digits[len(digits)-1] == '.' {
		digits = digits[:len(digits)-1]
	}
	text := string(r.sign) + string(digits)
	v, err := numeric.Parse(text)
	if err != nil {
		return nil, err
	}
	scale := r.readPost
	var res *apd.Decimal
	if res, err = numeric.ApplyTypmod(v, d.pre+d.multi+scale, scale); err != nil {
		return nil, err
	}
	if d.isMulti {
		// numeric_power(10, -n), whose display scale (16 at least) the
		// product keeps, as PostgreSQL's to_number computes it
		p, err := numeric.Power(numeric.FromInt64(10), numeric.FromInt64(int64(-d.multi)))
		if err != nil {
			return nil, err
		}
		if res, err = numeric.Mul(res, p); err != nil {
			return nil, err
		}
	}
	return res, nil
}

func toNumberFuncs() []*Func {
	return []*Func{
		{Name: "to_number", Args: []types.T{tText, tText}, Ret: tNumeric, Strict: true,
			Kernel: rowFunc(tNumeric, true, func(_ context.Context, v []any) (any, error) { return toNumber(v[0].(string), v[1].(string)) })},
	}
}
