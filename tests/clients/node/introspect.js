// Prints what node-postgres answers for catalog queries about the test
// tables: for each query a "== name" section with the result's fields (name
// and type OID) and its rows as node-postgres parses them (JSON). The Go
// test runs it against sqlgate and PostgreSQL 15 and compares the sections.
// A failing query prints its SQLSTATE and message instead.
// Usage: node introspect.js CONNECTION_STRING
'use strict';
const { Client } = require('pg');

const QUERIES = [
  ['information_schema.columns',
    `SELECT column_name, ordinal_position, data_type, is_nullable, character_maximum_length, numeric_precision,
            numeric_scale, datetime_precision, udt_name
       FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position`,
    ['every_type']],
  ['information_schema.tables',
    `SELECT table_schema, table_name, table_type FROM information_schema.tables
      WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY table_name`, []],
  ['primary key columns',
    `SELECT kcu.column_name, kcu.ordinal_position, tc.constraint_name
       FROM information_schema.table_constraints tc
       JOIN information_schema.key_column_usage kcu
         ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
      WHERE tc.constraint_type = 'PRIMARY KEY' AND tc.table_name = $1 ORDER BY kcu.ordinal_position`,
    ['every_type']],
  ['pg_attribute',
    `SELECT a.attname, a.attnum, a.atttypid, t.typname, a.atttypmod, a.attnotnull, a.attndims,
            pg_catalog.format_type(a.atttypid, a.atttypmod) AS formatted
       FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
      WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
    ['every_type']],
  ['pg_constraint',
    `SELECT conname, contype, conkey, pg_catalog.pg_get_constraintdef(oid, true) AS def
       FROM pg_catalog.pg_constraint WHERE conrelid = $1::regclass ORDER BY conname`,
    ['every_type']],
  ['pg_index',
    `SELECT i.indisprimary, i.indisunique, i.indnatts, i.indkey, pg_catalog.pg_get_indexdef(i.indexrelid) AS def
       FROM pg_catalog.pg_index i WHERE i.indrelid = $1::regclass`,
    ['every_type']],
  ['pg_class',
    `SELECT c.relname, c.relkind, c.relhasindex, c.relnatts, c.reltuples, c.relpersistence,
            pg_catalog.obj_description(c.oid, 'pg_class') AS comment
       FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' ORDER BY c.relname`, []],
  ['pg_namespace', `SELECT nspname FROM pg_catalog.pg_namespace ORDER BY nspname`, []],
  ['pg_type',
    `SELECT typname, typlen, typbyval, typtype, typcategory, typelem, typarray, typdelim
       FROM pg_catalog.pg_type WHERE typname = ANY($1) ORDER BY typname`,
    [['int4', 'text', 'json', '_int4', 'bpchar', 'numeric', 'timestamptz']]],
  ['session',
    `SELECT current_database(), current_schema(), current_schemas(true), current_user, session_user,
            pg_catalog.pg_table_is_visible($1::regclass)`,
    ['every_type']],
];

async function main() {
  const client = new Client({ connectionString: process.argv[2] });
  await client.connect();
  let out = '';
  for (const [name, text, values] of QUERIES) {
    out += `== ${name}\n`;
    try {
      const res = await client.query(text, values);
      out += JSON.stringify(res.fields.map((f) => [f.name, f.dataTypeID])) + '\n';
      for (const row of res.rows) out += JSON.stringify(row) + '\n';
    } catch (e) {
      out += `ERROR ${e.code}: ${e.message}\n`;
    }
  }
  await client.end();
  process.stdout.write(out);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
