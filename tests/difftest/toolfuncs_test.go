package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// The functions administration tools call for an object's properties
// (pg_identify_object, pg_identify_object_as_address, the relation file
// and sequence functions) and the text search functions that run a
// query given as text (ts_stat, ts_rewrite(query, select)).

// toolSetup are the objects the identification queries name.
var toolSetup = []string{
	"CREATE SCHEMA tsch",
	`CREATE TABLE tsch.tt (x int PRIMARY KEY, "Y" text, "select" int)`,
	"CREATE TABLE plain (a int, b text)",
	"CREATE VIEW tview AS SELECT 1 AS one",
	"CREATE SEQUENCE tseq START 5 INCREMENT 3",
	"CREATE SEQUENCE tseq2 AS integer MINVALUE -10 MAXVALUE 100 START -2 CYCLE",
}

// toolTypes are types both systems have, as regtype input.
var toolTypes = []string{"text", "date", "bool", "json", "jsonb", "name", "char", "bpchar", "numeric", "timestamptz",
	"timestamp", "_text", "_bool", "_int4", "_numeric", "_varchar", "_bpchar", "int2vector", "oidvector", "regclass", "record",
	"anyelement", `"any"`, "cstring", "bit", "varbit", `"char"`, "float4", "float8", "uuid", "interval", "time", "timetz",
	"unknown", "int2", "int8", "bytea", "inet", "tsvector", "tsquery", "int4range", "plain", "tsch.tt"}

// toolFuncs are functions both systems have, as regprocedure input.
var toolFuncs = []string{"pg_catalog.substr(text,int,int)", "now()", "pg_catalog.upper(text)", "pg_catalog.date_part(text,timestamptz)",
	"format_type(oid,int4)", "pg_catalog.lower(anyrange)", "pg_catalog.concat(\"any\")", "to_tsvector(regconfig,text)",
	"pg_catalog.length(bytea)"}

func TestIdentifyObjectDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	for _, c := range []*Session{r.SQLGate.(*Session), r.Postgres.(*Session)} {
		if err := c.Exec(ctx, toolSetup); err != nil {
			t.Fatal(err)
		}
	}
	stats := map[string]int{}
	ordered := tallyRule{ordered: true}
	names := func(list []string) string {
		q := make([]string, len(list))
		for i, s := range list {
			q[i] = tsLiteral(s)
		}
		return "ARRAY[" + strings.Join(q, ", ") + "]"
	}
	rels := []string{"plain", "tsch.tt", "tsch.tt_pkey", "tview", "tseq", "pg_class", "pg_database", "pg_tables", "pg_type",
		"pg_authid", "pg_am", "information_schema.tables"}
	queries := []string{
		fmt.Sprintf("SELECT t::text, (pg_identify_object('pg_type'::regclass, t, 0)).* FROM unnest(%s::regtype[]) WITH ORDINALITY u(t, n) ORDER BY n", names(toolTypes)),
		fmt.Sprintf("SELECT t::text, (pg_identify_object_as_address('pg_type'::regclass, t, 0)).* FROM unnest(%s::regtype[]) WITH ORDINALITY u(t, n) ORDER BY n", names(toolTypes)),
		fmt.Sprintf("SELECT (pg_identify_object('pg_proc'::regclass, p, 0)).* FROM unnest(%s::regprocedure[]) WITH ORDINALITY u(p, n) ORDER BY n", names(toolFuncs)),
		fmt.Sprintf("SELECT (pg_identify_object_as_address('pg_proc'::regclass, p, 0)).* FROM unnest(%s::regprocedure[]) WITH ORDINALITY u(p, n) ORDER BY n", names(toolFuncs)),
		"SELECT * FROM pg_identify_object('pg_namespace'::regclass, 'tsch'::regnamespace, 0)",
		"SELECT * FROM pg_identify_object('pg_namespace'::regclass, 'pg_catalog'::regnamespace, 0)",
		"SELECT * FROM pg_identify_object_as_address('pg_namespace'::regclass, 'information_schema'::regnamespace, 0)",
		"SELECT * FROM pg_identify_object('pg_tablespace'::regclass, 1663, 0), pg_identify_object('pg_tablespace'::regclass, 1664, 0)",
		"SELECT * FROM pg_identify_object_as_address('pg_tablespace'::regclass, 1664, 0)",
		"SELECT type, schema, name = current_database(), identity = current_database() FROM pg_identify_object('pg_database'::regclass, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)",
		"SELECT * FROM pg_identify_object(NULL, 1, 0)",
		"SELECT pg_identify_object('pg_class'::regclass, 'plain'::regclass, NULL) IS NULL",
		"SELECT * FROM pg_identify_object(1234, 1, 0)",
		"SELECT * FROM pg_identify_object(0, 0, 0)",
		"SELECT pg_get_function_arg_default('pg_catalog.upper(text)'::regprocedure, 1), pg_get_function_arg_default(0, 1), pg_get_function_arg_default('now()'::regprocedure, 0)",
		// the relation file functions agree with pg_class as both show it
		"SELECT count(*) FROM pg_class c WHERE pg_relation_filenode(c.oid) IS DISTINCT FROM (CASE WHEN relkind IN ('r', 'i', 'S', 'm', 't') THEN coalesce(nullif(relfilenode, 0), oid) END)",
		"SELECT count(*) FROM pg_class c WHERE relkind IN ('r', 'i', 'S', 'm') AND pg_filenode_relation(reltablespace, pg_relation_filenode(oid)) IS DISTINCT FROM oid",
		"SELECT count(*) FROM pg_class c WHERE (pg_relation_filepath(oid) IS NULL) <> (relkind NOT IN ('r', 'i', 'S', 'm', 't')) OR pg_relation_filepath(oid) !~ '^(global|base/[0-9]+)/[0-9]+$'",
		"SELECT relname, relfilenode = 0, relisshared, reltablespace, pg_relation_filepath(oid) LIKE 'global/%' FROM pg_class WHERE relnamespace = 'pg_catalog'::regnamespace AND relkind = 'r' AND relname IN ('pg_class', 'pg_proc', 'pg_database', 'pg_authid', 'pg_tablespace', 'pg_am', 'pg_namespace', 'pg_shdescription') ORDER BY 1",
		"SELECT pg_relation_filenode('tview'), pg_relation_filepath('tview'), pg_relation_filenode(0), pg_relation_filepath(0), pg_filenode_relation(0, 0), pg_filenode_relation(0, 1259)::text, pg_filenode_relation(1664, 1262)::text, pg_filenode_relation(0, 1262)",
		"SELECT pg_tablespace_size(0), pg_tablespace_size(99), pg_tablespace_size(NULL::oid)",
		"SELECT pg_tablespace_size('nope')",
		"SELECT * FROM pg_sequence_parameters('tseq'::regclass)",
		"SELECT pg_sequence_parameters('tseq2'::regclass)",
		"SELECT (pg_sequence_parameters('tseq2'::regclass)).data_type::regtype::text",
		"SELECT * FROM pg_sequence_parameters(NULL)",
		"SELECT * FROM pg_sequence_parameters(0)",
		"SELECT pg_sequence_last_value('tseq'), pg_sequence_last_value(NULL)",
		"SELECT pg_sequence_last_value('plain')",
		"SELECT pg_sequence_last_value(0)",
	}
	for _, rel := range rels {
		for _, sub := range []int{0, 1, 2, 3, -1, -6, 99} {
			queries = append(queries,
				fmt.Sprintf("SELECT * FROM pg_identify_object('pg_class'::regclass, %s::regclass, %d)", tsLiteral(rel), sub),
				fmt.Sprintf("SELECT * FROM pg_identify_object_as_address('pg_class'::regclass, %s::regclass, %d)", tsLiteral(rel), sub))
		}
	}
	for _, class := range []string{"pg_class", "pg_type", "pg_proc", "pg_namespace", "pg_authid", "pg_database", "pg_tablespace"} {
		for _, oid := range []string{"0", "4000000000"} {
			queries = append(queries,
				fmt.Sprintf("SELECT * FROM pg_identify_object(%s::regclass, %s, 0)", tsLiteral(class), oid),
				fmt.Sprintf("SELECT * FROM pg_identify_object_as_address(%s::regclass, %s, 0)", tsLiteral(class), oid))
		}
	}
	for _, q := range queries {
		tallyBy(t, ctx, r, q, stats, ordered)
	}
	// the message names the relation's OID, which differs
	tallyBy(t, ctx, r, "SELECT * FROM pg_sequence_parameters('plain'::regclass)", stats, tallyRule{codeOnly: true})
	// the sequence as nextval leaves it
	for i := 0; i < 3; i++ {
		tallyBy(t, ctx, r, "SELECT nextval('tseq'), pg_sequence_last_value('tseq'), pg_sequence_last_value('tseq2')", stats, ordered)
	}
	t.Logf("%v", stats)
	if stats["different"] > 0 || stats["same"] < len(queries)/2 || stats["refused alike"] < 5 {
		t.Errorf("outcomes: %v", stats)
	}
}

// randomTSVectorLiteral is tsvector input: lexemes of tsQueryWords, some
// with positions, some of those with weights.
func randomTSVectorLiteral(rng *rand.Rand) string {
	n := rng.Intn(6)
	parts := make([]string, n)
	for i := range parts {
		w := strings.Trim(tsQueryWords[rng.Intn(len(tsQueryWords))], "'")
		p := "'" + strings.ReplaceAll(w, "'", "''") + "'"
		for k, np := 0, rng.Intn(4); k < np; k++ {
			sep := ","
			if k == 0 {
				sep = ":"
			}
			p += fmt.Sprintf("%s%d%s", sep, 1+rng.Intn(20), []string{"", "", "A", "B", "C", "D"}[rng.Intn(6)])
		}
		parts[i] = p
	}
	return strings.Join(parts, " ")
}

func TestTSStatRewriteDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 3689))))
	rows := envInt(t, "SQLGATE_DIFF_ROWS", 40)
	setup := []string{"CREATE TABLE tsd (id int PRIMARY KEY, v tsvector, q tsquery, s tsquery)"}
	for i := 1; i <= rows; i++ {
		v := "NULL"
		switch rng.Intn(5) {
		case 0:
		case 1, 2:
			v = fmt.Sprintf("to_tsvector('english', %s)", tsLiteral(randomTSText(rng)))
		default:
			v = tsLiteral(randomTSVectorLiteral(rng)) + "::tsvector"
		}
		q, s := "NULL", "NULL"
		if rng.Intn(6) > 0 {
			q = fmt.Sprintf("to_tsquery('simple', %s)", tsLiteral(randomTSQuery(rng, 2)))
		}
		if rng.Intn(6) > 0 {
			s = fmt.Sprintf("to_tsquery('simple', %s)", tsLiteral(randomTSQuery(rng, 2)))
		}
		setup = append(setup, fmt.Sprintf("INSERT INTO tsd VALUES (%d, %s, %s, %s)", i, v, q, s))
	}
	for _, c := range []*Session{r.SQLGate.(*Session), r.Postgres.(*Session)} {
		if err := c.Exec(ctx, setup); err != nil {
			t.Fatal(err)
		}
	}
	stats := map[string]int{}
	ordered := tallyRule{ordered: true}
	for _, q := range []string{
		"SELECT * FROM ts_stat('SELECT v FROM tsd')",
		"SELECT * FROM ts_stat('SELECT v FROM tsd WHERE false')",
		"SELECT * FROM ts_stat(NULL)",
		"SELECT * FROM ts_stat('SELECT v FROM tsd', NULL)",
		"SELECT ts_stat('SELECT v FROM tsd WHERE id < 5')",
		"SELECT * FROM ts_stat('SELECT id FROM tsd')",
		"SELECT * FROM ts_stat('SELECT v, v FROM tsd')",
		"SELECT * FROM ts_stat('SELECT v::text FROM tsd')",
		"SELECT * FROM ts_stat('INSERT INTO tsd VALUES (0)')",
		"SELECT * FROM ts_stat('SELECT v FROM tsd; SELECT v FROM tsd')",
		"SELECT * FROM ts_stat('SELECT v FROM no_such_table')",
		"SELECT ts_rewrite('a'::tsquery, 'SELECT q FROM tsd')",
		"SELECT ts_rewrite('a'::tsquery, 'SELECT q::text, s FROM tsd')",
		"SELECT ts_rewrite('a'::tsquery, 'DELETE FROM tsd')",
		"SELECT ts_rewrite(NULL, 'SELECT q, s FROM tsd'), ts_rewrite('a'::tsquery, NULL)",
		"SELECT ts_rewrite(''::tsquery, 'SELECT q, s FROM tsd')",
	} {
		tallyBy(t, ctx, r, q, stats, ordered)
	}
	for i := 0; i < envInt(t, "SQLGATE_DIFF_QUERIES", 60); i++ {
		k, j := 2+rng.Intn(3), rng.Intn(2)
		weights := []string{"''", "'a'", "'AB'", "'cd'", "'x'", "'dcba'", "'b'"}[rng.Intn(7)]
		tallyBy(t, ctx, r, fmt.Sprintf("SELECT * FROM ts_stat('SELECT v FROM tsd WHERE id %% %d = %d', %s)", k, j, weights), stats, ordered)
		tallyBy(t, ctx, r, fmt.Sprintf("SELECT word, ndoc FROM ts_stat('SELECT v FROM tsd WHERE id <= %d') WHERE nentry > 1", 1+rng.Intn(rows)), stats, ordered)
		q := fmt.Sprintf("to_tsquery('simple', %s)", tsLiteral(randomTSQuery(rng, 3)))
		tallyBy(t, ctx, r, fmt.Sprintf("SELECT ts_rewrite(%s, 'SELECT q, s FROM tsd WHERE id %% %d = %d ORDER BY id')", q, k, j), stats, ordered)
		tallyBy(t, ctx, r, fmt.Sprintf("SELECT ts_rewrite(%s, 'SELECT q, s FROM tsd WHERE id <= %d ORDER BY id DESC')", q, 1+rng.Intn(rows)), stats, ordered)
	}
	t.Logf("%v", stats)
	if stats["refused alike"] < 8 || stats["same"] < 100 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}
