package meta

import "maps"

// Function is a function CREATE FUNCTION made (LANGUAGE python, package
// pyudf, or LANGUAGE sql, which the binder expands where it is called), stored as one row "function/<signature>" so that it
// persists across restarts and, on a cluster, is shared by every server.
// Types are kept as their canonical SQL spelling; the engine resolves them.
type Function struct {
	Name     string        `json:"name"`
	Args     []FunctionArg `json:"args"`
	Returns  string        `json:"returns,omitempty"` // "" with Table
	Table    []FunctionArg `json:"table,omitempty"`   // RETURNS TABLE columns
	Language string        `json:"language"`
	Body     string        `json:"body"`
	Owner    string        `json:"owner"`
	// Comment is COMMENT ON FUNCTION's text ("" none).
	Comment string `json:"comment,omitempty"`
	// LANGUAGE sql's: BodyKind is how the body was written ("" AS
	// 'text', "return" RETURN expr, "atomic" BEGIN ATOMIC ... END);
	// Volatility 'i', 's' or 'v' (0: volatile); Strict is STRICT.
	BodyKind   string `json:"body_kind,omitempty"`
	Volatility byte   `json:"volatility,omitempty"`
	Strict     bool   `json:"strict,omitempty"`
	// SetOf is RETURNS SETOF Returns (a RETURNS TABLE function returns a
	// set too); Rows is its ROWS estimate (0: the default, 1000).
	SetOf bool    `json:"setof,omitempty"`
	Rows  float64 `json:"rows,omitempty"`
}

// FunctionArg is an argument or a RETURNS TABLE column.
type FunctionArg struct {
	Name string `json:"name,omitempty"`
	Type string `json:"type"`
	// Default is the argument's DEFAULT expression as written ("" none).
	Default string `json:"default,omitempty"`
	// Mode is a LANGUAGE sql function's parameter's mode: "" IN, "o"
	// OUT, "b" INOUT. OUT parameters are no part of the signature; the
	// OUT and INOUT ones are the result's columns.
	Mode string `json:"mode,omitempty"`
}

// Functions is one committed version's functions, never changed once
// published: a new pointer means the functions (may have) changed.
type Functions struct {
	m map[string]Function
}

func newFunctions(m map[string]Function) *Functions {
	if m == nil {
		m = map[string]Function{}
	}
	return &Functions{m: m}
}

func (f *Functions) bySig() map[string]Function {
	if f == nil {
		return map[string]Function{}
	}
	return f.m
}

// All returns the functions by signature (a copy).
func (f *Functions) All() map[string]Function { return maps.Clone(f.bySig()) }

// Len is how many functions there are.
func (f *Functions) Len() int { return len(f.bySig()) }

// Functions is the current functions (read them; change them through
// Update's Tx.Functions).
func (m *Store) Functions() *Functions { return m.cur.Load().functions }
