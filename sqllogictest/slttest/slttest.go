// Package slttest runs sqllogictest files as go test subtests. It is apart
// from package sqllogictest so that the sqlgate binary, which links the
// runner for `sqlgate slt`, does not link package testing.
package slttest

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/sqllogictest"
)

// RunT runs each file as a subtest of t (named after the file's base name)
// and reports every failed record with t.Error, so `go test -run` can pick
// one file. It returns the counts over all files; opts.Out, when set, still
// receives the runner's output.
func RunT(t *testing.T, files []string, opts sqllogictest.Options) sqllogictest.Summary {
	t.Helper()
	var total sqllogictest.Summary
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			fileOpts := opts
			fileOpts.Out = &out
			sum, err := sqllogictest.Run(t.Context(), []string{file}, fileOpts)
			if opts.Out != nil {
				_, _ = opts.Out.Write(out.Bytes())
			}
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("%s: %v", file, err)
			}
			for _, fs := range sum.Files {
				for _, f := range fs.Failures {
					t.Error(f.String())
				}
			}
			t.Logf("%s (%s)", file, sum)
			total.Passed += sum.Passed
			total.Failed += sum.Failed
			total.Skipped += sum.Skipped
			total.Files = append(total.Files, sum.Files...)
		})
	}
	return total
}
