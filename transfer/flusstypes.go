package transfer

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/types"
)

// parseFlussType reads a column type as sqlgate's DESCRIBE prints it
// (int, decimal(38, 10), char(3), timestamp_ltz(9), array<int>,
// map<string NOT NULL, int>, row<x int, y array<string>>): export reads a
// table's exact Fluss types from it, where the wire's type OIDs lose them
// (a MAP or ROW column is json there, a TINYINT smallint).
func parseFlussType(s string) (types.T, error) {
	p := &typeParser{s: strings.ToLower(strings.TrimSpace(s))}
	t, err := p.typ()
	if err != nil {
		return types.T{}, err
	}
	if p.skip(); p.i != len(p.s) {
		return types.T{}, fmt.Errorf("type %q: unexpected %q", s, p.s[p.i:])
	}
	return t, nil
}

type typeParser struct {
	s string
	i int
}

func (p *typeParser) skip() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *typeParser) word() string {
	p.skip()
	start := p.i
	for p.i < len(p.s) && (p.s[p.i] == '_' || p.s[p.i] >= 'a' && p.s[p.i] <= 'z' || p.s[p.i] >= '0' && p.s[p.i] <= '9') {
		p.i++
	}
	return p.s[start:p.i]
}

func (p *typeParser) accept(c byte) bool {
	p.skip()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *typeParser) expect(c byte) error {
	if !p.accept(c) {
		return fmt.Errorf("type %q: want %q at %d", p.s, c, p.i)
	}
	return nil
}

// args reads an optional (n[, m]) list.
func (p *typeParser) args() ([]int, error) {
	if !p.accept('(') {
		return nil, nil
	}
	var out []int
	for {
		n, err := strconv.Atoi(p.word())
		if err != nil {
			return nil, fmt.Errorf("type %q: %v", p.s, err)
		}
		out = append(out, n)
		if p.accept(')') {
			return out, nil
		}
		if err := p.expect(','); err != nil {
			return nil, err
		}
	}
}

func (p *typeParser) typ() (types.T, error) {
	name := p.word()
	var t types.T
	switch name {
	case "array":
		if err := p.expect('<'); err != nil {
			return t, err
		}
		e, err := p.typ()
		if err != nil {
			return t, err
		}
		t = types.ArrayOf(e)
		if err := p.expect('>'); err != nil {
			return t, err
		}
	case "map":
		if err := p.expect('<'); err != nil {
			return t, err
		}
		k, err := p.typ()
		if err != nil {
			return t, err
		}
		if err := p.expect(','); err != nil {
			return t, err
		}
		v, err := p.typ()
		if err != nil {
			return t, err
		}
		k.NotNull = true
		t = types.T{Kind: types.Map, Key: &k, Elem: &v}
		if err := p.expect('>'); err != nil {
			return t, err
		}
	case "row":
		if err := p.expect('<'); err != nil {
			return t, err
		}
		t = types.T{Kind: types.Row}
		for {
			p.skip()
			var fname string
			if p.accept('"') {
				end := strings.IndexByte(p.s[p.i:], '"')
				if end < 0 {
					return t, fmt.Errorf("type %q: unterminated name", p.s)
				}
				fname, p.i = p.s[p.i:p.i+end], p.i+end+1
			} else {
				fname = p.word()
			}
			ft, err := p.typ()
			if err != nil {
				return t, err
			}
			t.Fields = append(t.Fields, types.Field{Name: fname, Type: ft})
			if p.accept('>') {
				break
			}
			if err := p.expect(','); err != nil {
				return t, err
			}
		}
	default:
		args, err := p.args()
		if err != nil {
			return t, err
		}
		arg := func(i, def int) int {
			if i < len(args) {
				return args[i]
			}
			return def
		}
		switch name {
		case "boolean", "bool":
			t = types.T{Kind: types.Bool}
		case "tinyint":
			t = types.T{Kind: types.Int8}
		case "smallint":
			t = types.T{Kind: types.Int16}
		case "int", "integer":
			t = types.T{Kind: types.Int32}
		case "bigint":
			t = types.T{Kind: types.Int64}
		case "float":
			t = types.T{Kind: types.Float32}
		case "double":
			t = types.T{Kind: types.Float64}
		case "decimal":
			t = types.DecimalType(arg(0, 10), arg(1, 0))
		case "string":
			t = types.T{Kind: types.String}
		case "char":
			t = types.T{Kind: types.Char, Length: arg(0, 1)}
		case "bytes":
			t = types.T{Kind: types.Bytes}
		case "binary":
			t = types.T{Kind: types.Binary, Length: arg(0, 1)}
		case "date":
			t = types.T{Kind: types.Date}
		case "time":
			t = types.T{Kind: types.Time, Precision: arg(0, 0)}
		case "timestamp":
			t = types.TimestampType(arg(0, 6))
		case "timestamp_ltz":
			t = types.TimestampTZType(arg(0, 6))
		default:
			return t, fmt.Errorf("unknown type %q", name)
		}
	}
	p.skip()
	if strings.HasPrefix(p.s[p.i:], "not null") {
		p.i += len("not null")
		t.NotNull = true
	}
	return t, nil
}
