package lower

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rewritePlans regenerates the expected EXPLAIN output of the files under
// testdata/plans instead of comparing with it: `go test ./lower -run
// TestPlanShapes -rewrite`, then read the diff before committing it.
var rewritePlans = flag.Bool("rewrite", false, "rewrite the expected plans in lower/testdata/plans from the planner's output")

// planCase is one record of a plan file:
//
//	# what the case shows (any number of comment lines)
//	plan [disable=rule,rule]     (or: decorrelate)
//	SELECT ...                   (one or more lines)
//	----
//	the expected EXPLAIN lines
//	                             (a blank line ends the record)
//
// "plan" plans over sizedCatalog with sizedStats with the rules named off;
// "decorrelate" plans over testCatalog without
// join_input_pruning (which renumbers join keys), so that the decorrelation
// rule's own output is what is compared. Both leave out the report fields.
type planCase struct {
	comments []string
	command  string
	disabled []string
	sql      string
	want     []string
	line     int // of the command, for messages
}

// parsePlanFile reads path's records and its header: the comment lines
// before the first blank line, when no command precedes them.
func parsePlanFile(t *testing.T, path string) (header []string, cases []planCase) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cur *planCase
	var comments []string
	state := "between" // between, sql, want
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		switch state {
		case "between":
			switch {
			case l == "" && len(cases) == 0 && header == nil && len(comments) > 0:
				header, comments = comments, nil
			case l == "":
			case strings.HasPrefix(l, "#"):
				comments = append(comments, l)
			default:
				fields := strings.Fields(l)
				c := planCase{comments: comments, command: fields[0], line: n}
				comments = nil
				if c.command != "plan" && c.command != "decorrelate" {
					t.Fatalf("%s:%d: unknown command %q (want plan or decorrelate)", path, n, c.command)
				}
				for _, arg := range fields[1:] {
					v, ok := strings.CutPrefix(arg, "disable=")
					if !ok {
						t.Fatalf("%s:%d: unknown argument %q", path, n, arg)
					}
					c.disabled = strings.Split(v, ",")
				}
				cases = append(cases, c)
				cur = &cases[len(cases)-1]
				state = "sql"
			}
		case "sql":
			if l == "----" {
				state = "want"
				continue
			}
			if cur.sql != "" {
				cur.sql += "\n"
			}
			cur.sql += l
		case "want":
			if l == "" {
				state = "between"
				continue
			}
			cur.want = append(cur.want, l)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if state == "sql" {
		t.Fatalf("%s:%d: the last record has no ---- line", path, cur.line)
	}
	return header, cases
}

func (c planCase) explain(t *testing.T) []string {
	t.Helper()
	if c.command == "decorrelate" {
		var out []string
		for _, l := range explainText(t, c.sql) {
			// the report fields (backend, kernels, schema) between the
			// details and the estimate are not the rule's output
			i, j := strings.Index(l, " (lowerable"), strings.LastIndex(l, " (estimated rows=")
			if i < 0 || j < i {
				t.Fatalf("EXPLAIN line without its report and estimate: %q", l)
			}
			out = append(out, l[:i]+l[j:])
		}
		return out
	}
	return explainLines(t, c.sql, c.disabled...)
}

func writePlanFile(t *testing.T, path string, header []string, cases []planCase) {
	t.Helper()
	var b strings.Builder
	for _, l := range header {
		b.WriteString(l + "\n")
	}
	if len(header) > 0 {
		b.WriteString("\n")
	}
	for i, c := range cases {
		if i > 0 {
			b.WriteString("\n")
		}
		for _, l := range c.comments {
			b.WriteString(l + "\n")
		}
		b.WriteString(c.command)
		if len(c.disabled) > 0 {
			b.WriteString(" disable=" + strings.Join(c.disabled, ","))
		}
		fmt.Fprintf(&b, "\n%s\n----\n", c.sql)
		for _, l := range c.want {
			b.WriteString(l + "\n")
		}
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPlanShapes compares the plan of every record in testdata/plans with
// its expected EXPLAIN lines: what each optimiser rule makes of a query
// (rules.plans, with the plan without the rule where that shows what it
// did) and which subquery forms become joins (decorrelate.plans).
func TestPlanShapes(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "plans", "*.plans"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no plan files under testdata/plans (%v)", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			header, cases := parsePlanFile(t, path)
			for i := range cases {
				c := &cases[i]
				got := c.explain(t)
				if *rewritePlans {
					c.want = got
					continue
				}
				if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
					t.Errorf("%s:%d: %s\n got:\n%s\nwant:\n%s", path, c.line, c.sql, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
				}
			}
			if *rewritePlans {
				writePlanFile(t, path, header, cases)
			}
		})
	}
}
