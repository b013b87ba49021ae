package functions

import (
	"context"
	"strings"
)

// SearchPathSchemas returns the schemas a search_path setting names, in
// order: "$user" stands for user, quoted names keep their case and
// unquoted ones are folded to lower case, as PostgreSQL reads the setting.
func SearchPathSchemas(setting, user string) []string {
	var out []string
	for _, part := range splitSearchPath(setting) {
		s := strings.TrimSpace(part)
		if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
			s = strings.ReplaceAll(s[1:len(s)-1], `""`, `"`)
		} else {
			s = strings.ToLower(s)
		}
		if s == "$user" {
			s = user
		}
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// splitSearchPath splits a search_path setting at its commas outside
// double quotes (a quoted schema name may hold a comma).
func splitSearchPath(setting string) []string {
	var parts []string
	quoted, start := false, 0
	for i := 0; i < len(setting); i++ {
		switch setting[i] {
		case '"':
			quoted = !quoted
		case ',':
			if !quoted {
				parts = append(parts, setting[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, setting[start:])
}

// SearchPathSetting is the search_path setting SET gives for its list of
// schema names: each quoted as quote_ident would, joined by ", ", as
// PostgreSQL keeps a list setting (GUC_LIST_QUOTE) and SHOW prints it.
func SearchPathSetting(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = QuoteIdent(n)
	}
	return strings.Join(quoted, ", ")
}

// SearchPathOf is SearchPathSchemas of the session in ctx; ok is false
// when ctx carries no search_path.
func SearchPathOf(ctx context.Context) (schemas []string, ok bool) {
	setting, ok := SettingOf(ctx, "search_path")
	if !ok {
		return nil, false
	}
	user := ""
	if s, has := SessionIn(ctx); has {
		user = s.User
	}
	return SearchPathSchemas(setting, user), true
}

// effectivePath is the search path's schemas that exist and the session
// may use (current_schemas(false)); without a search path or a catalog, public.
func effectivePath(ctx context.Context) []string {
	path, ok := SearchPathOf(ctx)
	c, err := catalogOf(ctx)
	if !ok || err != nil {
		return []string{"public"}
	}
	sess, _ := SessionIn(ctx)
	out := []string{}
	for _, s := range path {
		if _, exists := c.LookupNamespace(s); exists && s != "pg_catalog" && (sess.SchemaUsable == nil || sess.SchemaUsable(s)) {
			out = append(out, s)
		}
	}
	return out
}
