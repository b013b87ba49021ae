package sqllogictest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// Complete mode: run each record on the target and rewrite the file so
// that its expectations are what the target answered. Everything but the
// records' headers and result blocks is kept byte for byte (comments,
// conditions, SQL, blank lines, CRLF).

// completion is a record's new header and result lines.
type completion struct {
	rec     *record
	header  string
	results []string // nil: no ---- block
}

// maxExplicitValues is how many values a new result block lists before it
// is written as a hash (an existing block keeps its form).
const maxExplicitValues = 64

// complete runs rec and records its completion; it returns a failure
// message only when the record could not be judged at all.
func (r *fileRun) complete(ctx context.Context, rec *record) string {
	res, problem := r.exec(ctx, rec.sql)
	if problem != "" {
		return problem
	}
	c := completion{rec: rec}
	origHeader := rec.header
	if res.err != nil {
		var pgErr *pgconn.PgError
		if !errors.As(res.err, &pgErr) {
			return fmt.Sprintf("failed without a SQLSTATE: %v", res.err)
		}
		switch {
		case rec.expectErr != nil && checkError(rec.expectErr, res.err, rec.sql) == "":
			c.header = origHeader // the expectation still holds
		case rec.kind == kindStatement:
			c.header = "statement error (" + pgErr.Code + ")"
		default:
			c.header = "query error (" + pgErr.Code + ")"
		}
		if rec.kind == kindQuery && rec.expectErr != nil && rec.expectErr.hasMsg && c.header == origHeader {
			c.results = rec.expected
		}
		r.completions[rec.line-1] = c
		return ""
	}
	if rec.kind == kindStatement {
		c.header = origHeader
		switch {
		case rec.expectErr != nil:
			c.header = "statement ok"
		case rec.hasCount:
			var got int64
			if n := len(res.results); n > 0 {
				got = res.results[n-1].CommandTag.RowsAffected()
			}
			c.header = fmt.Sprintf("statement count %d", got)
		}
		r.completions[rec.line-1] = c
		return ""
	}
	var result *pgconn.Result
	for _, rs := range res.results {
		if len(rs.FieldDescriptions) > 0 {
			result = rs
		}
	}
	if result == nil {
		return fmt.Sprintf("query returned no result set\n  sql: %s", firstLine(rec.sql))
	}
	types := rec.types
	if rec.expectErr != nil || len(types) != len(result.FieldDescriptions) {
		types = typeLetters(result.FieldDescriptions)
	}
	rows := make([][]string, len(result.Rows))
	for i, raw := range result.Rows {
		row := make([]string, len(types))
		for j := range row {
			row[j] = renderValue(types[j], raw[j], result.FieldDescriptions[j].DataTypeOID == boolOID)
		}
		rows[i] = row
	}
	mode := r.sortMode
	if rec.sortExplicit {
		mode = rec.sort
	}
	arranged := arrange(rows, mode, len(types))
	c.header = queryHeader(origHeader, types, rec)
	values := flatten(arranged)
	wasHash := len(rec.expected) == 1 && hashLine.MatchString(rec.expected[0])
	switch {
	case wasHash || (rec.expected == nil && len(values) > maxExplicitValues):
		c.results = []string{fmt.Sprintf("%d values hashing to %s", len(values), hashValues(values))}
	case r.layout == layoutValuewise || len(types) == 1:
		c.results = values
	default:
		for _, row := range arranged {
			c.results = append(c.results, strings.Join(row, " "))
		}
	}
	if c.results == nil {
		c.results = []string{}
	}
	if rec.label != "" {
		r.checkLabel(rec.label, hashValues(values))
	}
	r.completions[rec.line-1] = c
	return ""
}

// queryHeader keeps the original header when its type letters still fit,
// else writes one with the new letters and the same sort mode and label.
func queryHeader(orig, types string, rec *record) string {
	if rec.expectErr == nil && types == rec.types {
		return orig
	}
	parts := []string{"query", types}
	if rec.sortExplicit && rec.expectErr == nil {
		parts = append(parts, rec.sort.String())
	}
	if rec.label != "" {
		parts = append(parts, rec.label)
	}
	return strings.Join(parts, " ")
}

// typeLetters derives type letters from a result's columns: I for
// integers, R for floating and numeric, T for the rest.
func typeLetters(fds []pgconn.FieldDescription) string {
	var b strings.Builder
	for _, fd := range fds {
		switch fd.DataTypeOID {
		case 20, 21, 23, 26:
			b.WriteByte('I')
		case 700, 701, 1700:
			b.WriteByte('R')
		default:
			b.WriteByte('T')
		}
	}
	return b.String()
}

// rewrite writes file with the completed records.
func (r *fileRun) rewrite(file, text string) error {
	if len(r.completions) == 0 {
		return nil
	}
	crlf := strings.Contains(text, "\r\n")
	lines := splitLines(text)
	var out []string
	for i := 0; i < len(lines); {
		c, ok := r.completions[i]
		if !ok {
			out = append(out, lines[i])
			i++
			continue
		}
		out = append(out, c.header)
		// The SQL: up to the ---- line, or the record's end.
		j := i + 1
		for j < c.rec.end && strings.TrimSpace(lines[j]) != "----" {
			out = append(out, lines[j])
			j++
		}
		if c.results != nil {
			out = append(out, "----")
			out = append(out, c.results...)
		}
		i = c.rec.end
	}
	nl := "\n"
	if crlf {
		nl = "\r\n"
	}
	st, err := os.Stat(file)
	if err != nil {
		return err
	}
	return os.WriteFile(file, []byte(strings.Join(out, nl)+nl), st.Mode().Perm())
}
