package engine

import (
	"cmp"
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// skippedNamed is the NOTICE of DROP ... IF EXISTS for an object of kind
// named schema.name that does not exist: the schema's when a qualified
// name's schema does not exist (PostgreSQL looks the schema up first),
// else kind's naming shown, the name as PostgreSQL prints it there (a
// relation's alone, a type's as written).
func (s *session) skippedNamed(ctx context.Context, kind, schema, shown string) *sqlerr.Error {
	if schema != "" {
		if exists, err := s.eng.tables.SchemaExists(ctx, schema); err == nil && !exists {
			return skipped("schema", schema)
		}
	}
	return skipped(kind, shown)
}

// missingSchema is 3F000 when the schema a qualified name names does not
// exist: PostgreSQL's answer to a statement that needs the object before
// the object's own "does not exist".
func (s *session) missingSchema(ctx context.Context, schema string) error {
	if schema == "" {
		return nil
	}
	if exists, err := s.eng.tables.SchemaExists(ctx, schema); err == nil && !exists {
		return sqlerr.UndefinedSchema(schema)
	}
	return nil
}

// qualifiedText is schema.name as PostgreSQL's NameListToString prints a
// name as written: its parts, unquoted, joined by dots.
func qualifiedText(schema, name string) string {
	if schema == "" {
		return name
	}
	return schema + "." + name
}

// typeNameText is a type name as written, as PostgreSQL's TypeNameToString
// prints the grammar's TypeName (DROP FUNCTION IF EXISTS's notice): a type
// the grammar spells with keywords (int, double precision, varchar(3),
// timestamp with time zone ...) is its internal name under pg_catalog,
// any other name its parts as written; typmods are dropped and any array
// bounds are one "[]".
func typeNameText(text string) string {
	t := strings.TrimSpace(text)
	array := false
	for strings.HasSuffix(t, "]") {
		open := strings.LastIndexByte(t, '[')
		if open < 0 {
			break
		}
		t, array = strings.TrimSpace(t[:open]), true
	}
	if up := strings.ToUpper(t); strings.HasSuffix(up, " ARRAY") {
		t, array = strings.TrimSpace(t[:len(t)-len(" ARRAY")]), true
	}
	var words []string // lower-cased unless quoted; quoted kept with its quote mark
	var floatPrec string
	for i := 0; i < len(t); {
		c := t[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '.':
			if c == '.' {
				words = append(words, ".")
			}
			i++
		case c == '(':
			end := strings.IndexByte(t[i:], ')')
			if end < 0 {
				end = len(t) - i - 1
			}
			floatPrec = strings.TrimSpace(t[i+1 : i+end])
			i += end + 1
		case c == '"':
			j := i + 1
			var b strings.Builder
			for j < len(t) {
				if t[j] == '"' {
					if j+1 < len(t) && t[j+1] == '"' {
						b.WriteByte('"')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(t[j])
				j++
			}
			words = append(words, "\""+b.String())
			i = j + 1
		default:
			j := i
			for j < len(t) && !strings.ContainsRune(" \t\n\r.(\"", rune(t[j])) {
				j++
			}
			words = append(words, strings.ToLower(t[i:j]))
			i = j
		}
	}
	out := types.KeywordTypeName(words, floatPrec)
	if out == "" {
		var b strings.Builder
		for _, w := range words {
			b.WriteString(strings.TrimPrefix(w, "\""))
		}
		out = b.String()
	} else {
		out = "pg_catalog." + out
	}
	if array {
		out += "[]"
	}
	return out
}

// functionSkipped is DROP FUNCTION IF EXISTS's NOTICE for a function f
// names that does not exist (DROP PROCEDURE's, ROUTINE's and AGGREGATE's
// name their kind; an aggregate's (*) is no argument): PostgreSQL's does_not_exist_skipping prints
// the name and the argument types as written (typeNameText), joined by
// commas without spaces, "()" when no list was written.
func functionSkipped(f *sql.FunctionStmt) *sqlerr.Error {
	var args []string
	for _, a := range f.Args {
		if a.Mode != 'o' {
			args = append(args, typeNameText(a.Type))
		}
	}
	return sqlerr.New(sqlerr.SuccessfulCompletion, "%s %s(%s) does not exist, skipping", cmp.Or(f.Object, "function"), qualifiedText(f.Name.Schema, f.Name.Name), strings.Join(args, ","))
}

// functionMissing is 42883 for the function f names (want its argument
// types' names) that does not exist, named as written: with an argument
// list its signature, else "could not find a function named".
func functionMissing(f *sql.FunctionStmt, want []string) *sqlerr.Error {
	name := qualifiedText(f.Name.Schema, f.Name.Name)
	if !f.HasArgs {
		return sqlerr.New(sqlerr.UndefinedFunction, "could not find a function named \"%s\"", name)
	}
	return sqlerr.New(sqlerr.UndefinedFunction, "function %s(%s) does not exist", name, strings.Join(want, ", "))
}

// typeMissing is the error for the type n names that does not exist: the
// schema's (3F000) when a qualified name's schema does not exist, else
// 42704 naming the type as written, as PostgreSQL's TypeNameToString does.
func (s *session) typeMissing(ctx context.Context, n sql.ObjectName) error {
	if err := s.missingSchema(ctx, n.Schema); err != nil {
		return err
	}
	return sqlerr.New(sqlerr.UndefinedObject, "type \"%s\" does not exist", qualifiedText(n.Schema, n.Name))
}
