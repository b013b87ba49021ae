package pgtypes

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/types"
)

// moneyEncoder writes money (an int64 of cents) as cash_out's text,
// "$1,234.50" (types.AppendMoney), quoted inside json; its binary form is
// the int64's, which intEncoder writes.
type moneyEncoder struct {
	ints intEncoder[int64]
}

func (e *moneyEncoder) reset(arr arrow.Array) error { return e.ints.reset(arr) }

func (e *moneyEncoder) appendValue(dst []byte, row int) []byte {
	if e.ints.mode == modeJSON {
		return appendJSONString(dst, types.AppendMoney(nil, e.ints.vals[row]))
	}
	return types.AppendMoney(dst, e.ints.vals[row])
}
