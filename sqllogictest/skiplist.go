package sqllogictest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// SkipList names records not to run, each with its reason: what a target
// cannot do (for a Fluss cluster, the Fluss limit). Its file format is one
// entry a line,
//
//	FILE:LINE[,LINE...] REASON
//
// FILE relative to the skip list's directory, LINE the record's first line
// as failures report it ("file:line: ..."), '#' starting a comment line. An
// entry that names no record of a file that ran is itself a failure, so the
// list cannot go stale unnoticed when a file changes.
type SkipList struct {
	entries map[string]map[int]*skipEntry // absolute file -> line -> entry
	mu      sync.Mutex                    // guards skipEntry.used
}

type skipEntry struct {
	reason string
	where  string // "skipfile:line" of the entry, for the stale message
	used   bool
}

// ReadSkipList reads a skip list file.
func ReadSkipList(path string) (*SkipList, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseSkipList(path, string(text))
}

// ParseSkipList parses a skip list's text; path names it in errors and is
// the directory entries' files are relative to.
func ParseSkipList(path, text string) (*SkipList, error) {
	s := &SkipList{entries: map[string]map[int]*skipEntry{}}
	dir := filepath.Dir(path)
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		where := fmt.Sprintf("%s:%d", path, i+1)
		loc, reason, _ := strings.Cut(line, " ")
		reason = strings.TrimSpace(reason)
		file, lines, ok := strings.Cut(loc, ":")
		if !ok || file == "" || reason == "" {
			return nil, fmt.Errorf("%s: want FILE:LINE[,LINE...] REASON", where)
		}
		abs, err := filepath.Abs(filepath.Join(dir, file))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", where, err)
		}
		if s.entries[abs] == nil {
			s.entries[abs] = map[int]*skipEntry{}
		}
		for _, l := range strings.Split(lines, ",") {
			n, err := strconv.Atoi(l)
			if err != nil || n <= 0 {
				return nil, fmt.Errorf("%s: line %q is not a positive number", where, l)
			}
			if prev := s.entries[abs][n]; prev != nil {
				return nil, fmt.Errorf("%s: %s:%d is already skipped by %s", where, file, n, prev.where)
			}
			s.entries[abs][n] = &skipEntry{reason: reason, where: where}
		}
	}
	return s, nil
}

// reason returns why the record at file:line is skipped, if it is, and
// marks the entry used.
func (s *SkipList) reason(file string, line int) (string, bool) {
	if s == nil {
		return "", false
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", false
	}
	e := s.entries[abs][line]
	if e == nil {
		return "", false
	}
	s.mu.Lock()
	e.used = true
	s.mu.Unlock()
	return e.reason, true
}

// unused lists, as failures, the entries of file (a top-level file that
// ran, with includes) that named no record.
func (s *SkipList) unused(files []string) []Failure {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Failure
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			continue
		}
		for line, e := range s.entries[abs] {
			if !e.used {
				out = append(out, Failure{File: f, Line: line, Message: fmt.Sprintf("skip list entry %s names no record here", e.where)})
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	}
	return out
}
