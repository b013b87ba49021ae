// Package jsonpath is PostgreSQL's jsonpath type (OID 4072): the SQL/JSON
// path language of PostgreSQL 15's documentation (9.16.2), read by a
// recursive-descent parser of our own (parse.go) into a tree of Items
// (this file), printed back as PostgreSQL's jsonpath output prints it
// (print.go). types.ParseTextIn calls Normalize for the type's text input;
// functions/jsonpath*.go evaluates a parsed Path over jsonb.
//
// It imports nothing of sqlgate's but sqlerr and types/numeric, so that
// package types can use it.
package jsonpath

import "github.com/cockroachdb/apd/v3"

// Kind is the kind of an Item.
type Kind uint8

// The kinds of items.
const (
	Root    Kind = iota // $
	Current             // @
	Last                // last (in array subscripts)
	Var                 // $name: Str
	Null                // null
	Bool                // true/false: Bool
	Number              // Num (Str is its text as printed)
	String              // "...": Str

	Key      // ."key": Str
	AnyKey   // .*
	AnyArray // [*]
	Index    // [a, b to c]: Subs
	AnyPath  // .**{Lo to Hi}, -1 = last
	Method   // .name(): Str (type, size, double, ceiling, floor, abs, keyvalue)
	Datetime // .datetime(template): Str, HasArg
	Filter   // ?(L)

	Binary     // L Op R: + - * / % == != < <= > >= && ||
	Unary      // Op L: + -
	Not        // !(L)
	Exists     // exists (L)
	IsUnknown  // (L) is unknown
	StartsWith // L starts with R
	LikeRegex  // L like_regex Str flag Flags
)

// Item is one node of a parsed path: a primary, an accessor or an
// operation, with Next the accessor that follows it in a chain.
type Item struct {
	Kind   Kind
	Op     string // Binary's and Unary's operator, as printed ("!=" for <>)
	Str    string
	Bool   bool
	HasArg bool // Datetime has a template
	Num    *apd.Decimal
	L, R   *Item
	Subs   []Sub
	Lo, Hi int    // AnyPath's levels, -1 for last
	Flags  string // LikeRegex's flags, in the order printed (ismxq)
	Next   *Item
}

// Sub is one subscript of an Index: From, or From to To.
type Sub struct{ From, To *Item }

// Path is a parsed jsonpath: its mode and expression.
type Path struct {
	Strict bool
	Expr   *Item
}

// IsPredicate reports whether the item is a predicate (its value is
// true, false or unknown) rather than an expression.
func (it *Item) IsPredicate() bool {
	if it.Next != nil {
		return false // (predicate) with accessors is an expression
	}
	switch it.Kind {
	case Binary:
		switch it.Op {
		case "==", "!=", "<", "<=", ">", ">=", "&&", "||":
			return true
		}
	case Not, Exists, IsUnknown, StartsWith, LikeRegex:
		return true
	}
	return false
}
