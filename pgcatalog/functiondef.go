package pgcatalog

import (
	"context"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/functions"
)

// FunctionSQLBody implements functions.FunctionDefs: the RETURN or BEGIN
// ATOMIC body of a LANGUAGE sql function written with one (or of a
// built-in PostgreSQL defines so), as pg_get_function_sqlbody; false for
// a body given as text and for an OID no function has.
func (c *Catalog) FunctionSQLBody(_ context.Context, oid uint32) (string, bool) {
	p, ok := c.procByOID(oid)
	if !ok {
		return "", false
	}
	if p.userFunc {
		return p.sqlBody, p.lang == langSQL && p.sqlBody != ""
	}
	pp, ok := builtinProp(p)
	return pp.Body, ok && pp.Body != ""
}

// FunctionDef implements functions.FunctionDefs: pg_get_functiondef's
// CREATE OR REPLACE FUNCTION statement for the pg_proc row oid, as
// PostgreSQL 15's ruleutils.c writes it: the signature, RETURNS, LANGUAGE,
// one line of the options that differ from CREATE FUNCTION's defaults
// (volatility, parallel safety, STRICT, COST, ROWS, SUPPORT), and the
// body dollar-quoted.
func (c *Catalog) FunctionDef(ctx context.Context, oid uint32) (string, bool) {
	p, ok := c.procByOID(oid)
	if !ok {
		return "", false
	}
	result, args := c.signature(ctx, p)
	volatile, parallel, strict, src, lang, support, cost, body, leakproof := byte('i'), byte('s'), true, p.name, "internal", "", float32(1), "", false
	bin := ""
	if p.userFunc {
		volatile, parallel, strict, lang = 'v', 'u', false, "c"
		if len(p.parallel) > 0 {
			parallel = p.parallel[0]
		}
		switch p.lang {
		case langPython:
			lang = "python"
		case langSQL:
			lang, volatile, strict, cost, body = "sql", p.volatile, p.strict, 100, p.sqlBody
			args = c.functionArguments(ctx, p)
		}
		if p.src != "" || p.sql {
			src = p.src
		}
	} else if pp, ok := builtinProp(p); ok {
		volatile, parallel, strict, support, leakproof = pp.Volatile, pp.Parallel, pp.Strict, pp.Support, pp.Leakproof
		if pp.Args != "" {
			args = pp.Args // the names and defaults sqlgate's pg_proc does not keep
		}
		if pp.Src != "" || pp.Body != "" {
			src, lang, cost, body, bin = pp.Src, pp.Lang, pp.Cost, pp.Body, pp.Bin
		}
	}
	ns := p.ns
	if ns == 0 {
		ns = nsPgCatalog
	}
	schema, _ := c.NamespaceName(ns)
	var b strings.Builder
	b.WriteString("CREATE OR REPLACE FUNCTION " + functions.QuoteIdent(schema) + "." + functions.QuoteIdent(p.name) + "(" + args + ")\n")
	b.WriteString(" RETURNS " + result + "\n")
	b.WriteString(" LANGUAGE " + functions.QuoteIdent(lang) + "\n")
	var opts strings.Builder
	if p.pg != nil && p.pg.Kind == 'w' {
		opts.WriteString(" WINDOW")
	}
	switch volatile {
	case 'i':
		opts.WriteString(" IMMUTABLE")
	case 's':
		opts.WriteString(" STABLE")
	}
	switch parallel {
	case 's':
		opts.WriteString(" PARALLEL SAFE")
	case 'r':
		opts.WriteString(" PARALLEL RESTRICTED")
	}
	if strict {
		opts.WriteString(" STRICT")
	}
	if leakproof {
		opts.WriteString(" LEAKPROOF")
	}
	// CREATE FUNCTION's default cost is 1 for C and internal functions,
	// 100 for the others
	def := float32(100)
	if lang == "internal" || lang == "c" {
		def = 1
	}
	if cost != def {
		opts.WriteString(" COST " + strconv.FormatFloat(float64(cost), 'g', -1, 32))
	}
	if p.retset && p.rows > 0 && p.rows != 1000 {
		opts.WriteString(" ROWS " + strconv.FormatFloat(p.rows, 'g', -1, 64))
	}
	if support != "" {
		opts.WriteString(" SUPPORT " + support)
	}
	if opts.Len() > 0 {
		b.WriteString(opts.String() + "\n")
	}
	if body != "" {
		// a SQL-standard body, as pg_get_function_sqlbody prints it
		b.WriteString(body + "\n")
		return b.String(), true
	}
	// $function$, with x's added until the body does not contain it
	dq := "$function"
	for strings.Contains(src, dq) {
		dq += "x"
	}
	dq += "$"
	// a C function's library comes first, as a string constant
	// (pg_get_functiondef: probin, then prosrc as the symbol)
	b.WriteString("AS ")
	if bin != "" {
		b.WriteString("'" + strings.ReplaceAll(bin, "'", "''") + "', ")
	}
	b.WriteString(dq + src + dq + "\n")
	return b.String(), true
}

// ProcKind implements functions.ProcKinds: the name and prokind of the
// pg_proc row oid (0 for none).
func (c *Catalog) ProcKind(oid uint32) (string, byte) {
	p, ok := c.procByOID(oid)
	switch {
	case !ok:
		return "", 0
	case p.pg != nil:
		return p.name, p.pg.Kind
	}
	return p.name, 'f'
}
