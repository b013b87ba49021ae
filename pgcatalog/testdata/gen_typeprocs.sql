-- Generates pgcatalog/typeprocs.go from a PostgreSQL 15 server:
--   psql -XAt -v types='16,17,...' -f gen_typeprocs.sql | gofmt > ../typeprocs.go
-- (the OIDs of pgTypes in schema.go, and record 2249 for the tables' row
-- types). The I/O functions of those types (pg_type.typinput ...) and the
-- access methods' handlers (pg_am.amhandler), as pg_proc lists them.
\set ON_ERROR_STOP 1
with t as (
  select oid, typname, typinput::oid i, typoutput::oid o, typreceive::oid r, typsend::oid s, typmodin::oid mi,
         typmodout::oid mo, typanalyze::oid a, typsubscript::oid sub
  from pg_type where oid = any (string_to_array(:'types', ',')::oid[])
), procs as (
  select distinct p from t, unnest(array[i, o, r, s, mi, mo, a, sub]) p where p <> 0
  union select amhandler::oid from pg_am
)
select E'// Code generated from PostgreSQL 15 by testdata/gen_typeprocs.sql; DO NOT EDIT.\n\npackage pgcatalog\n\n'
  || E'// typeProcs are PostgreSQL 15''s typinput, typoutput, typreceive, typsend,\n'
  || E'// typmodin, typmodout, typanalyze and typsubscript of each type pgTypes\n// lists (0: none).\n'
  || E'var typeProcs = map[uint32][8]uint32{\n'
  || (select string_agg(format(E'\t%s: {%s, %s, %s, %s, %s, %s, %s, %s}, // %s', oid, i, o, r, s, mi, mo, a, sub, typname), E'\n' order by oid) from t)
  || E'\n}\n\n// typeProcInfos are those functions and the access methods'' handlers\n'
  || E'// (pg_am.amhandler), with PostgreSQL 15''s OIDs, as pg_proc lists them.\n'
  || E'var typeProcInfos = []procInfo{\n'
  || (select string_agg(format(E'\t{oid: %s, name: "%s", args: []any{%s}, ret: %s, nargs: %s},', p.oid, p.proname,
        coalesce((select string_agg(format('uint32(%s)', a), ', ' order by n) from unnest(p.proargtypes::oid[]) with ordinality u(a, n)), ''),
        p.prorettype::oid, p.pronargs), E'\n' order by p.oid)
      from pg_proc p join procs on procs.p = p.oid)
  || E'\n}';
