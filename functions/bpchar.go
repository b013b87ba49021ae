package functions

import (
	"unicode/utf8"

	"github.com/sqlgate/sqlgate/types"
)

// character(n) values are held without their trailing blanks; the
// functions PostgreSQL defines on bpchar that see the blanks put them
// back: octet_length(character) counts the bytes of the value padded to n
// characters (bpcharoctetlen), so octet_length(”::char) is 1 while
// length() strips them as PostgreSQL's bpcharlen does.
func bpcharFuncs() []*Func {
	return []*Func{{Name: "octet_length", Args: []types.T{{Kind: types.Char}}, Ret: tInt4, Strict: true,
		Kernel: intOfString(func(s string) int64 { return int64(len(s)) }),
		specialize: func(args []types.T, _ []any) (types.T, Kernel) {
			width := args[0].Length
			return tInt4, intOfString(func(s string) int64 { return paddedOctets(s, width) })
		}}}
}

// paddedOctets is the byte length of s blank-padded to width characters.
func paddedOctets(s string, width int) int64 {
	n := int64(len(s))
	if c := utf8.RuneCountInString(s); c < width {
		n += int64(width - c)
	}
	return n
}
