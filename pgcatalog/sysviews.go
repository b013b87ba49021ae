package pgcatalog

// PostgreSQL 15's server-file and build views, with what is true of
// sqlgate. pg_available_extensions and pg_available_extension_versions
// list the one extension it has, plpgsql (pg_extension's row), as
// PostgreSQL lists it. The others are always empty (no generator):
// pg_file_settings and pg_hba_file_rules and pg_ident_file_mappings
// because sqlgate reads no postgresql.conf, pg_hba.conf or pg_ident.conf
// (its settings come from its command line, its users from its users
// file), pg_config because it was not built from PostgreSQL's sources
// (no pg_config values describe it), pg_shmem_allocations because it
// allocates no shared memory segments.

// plpgsqlComment is plpgsql's control file comment.
const plpgsqlComment = "PL/pgSQL procedural language"

func availableExtensionRows() []row {
	return []row{{"name": "plpgsql", "default_version": "1.0", "installed_version": "1.0", "comment": plpgsqlComment}}
}

func availableExtensionVersionRows() []row {
	return []row{{"name": "plpgsql", "version": "1.0", "installed": true, "superuser": true, "trusted": true,
		"relocatable": false, "schema": pgCatalog, "requires": nil, "comment": plpgsqlComment}}
}

// CurrentQuery is current_query()'s answer for the session pid: its
// pg_stat_activity query.
func (c *Catalog) CurrentQuery(pid int32) (string, bool) {
	if c.opts.Activity == nil {
		return "", false
	}
	for _, a := range c.opts.Activity.List() {
		if a.PID == pid {
			return a.Query, true
		}
	}
	return "", false
}
