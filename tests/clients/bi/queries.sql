-- Introspection queries that BI tools' PostgreSQL integrations send,
-- copied verbatim from each project's published source (named in the
-- "source" line; ? parameters there are $1 here, bound as the "param" line
-- says: nsp:NAME is the OID of schema NAME, rel:NAME the OID of table NAME,
-- text:VALUE a text value). TestBIIntrospectionQueries runs each one on
-- sqlgate and on PostgreSQL 15 over the same tables and compares the
-- results (as multisets unless the query has an ORDER BY that fixes the
-- row order, marked "ordered"). Each query ends at a line "-- end".
--
-- Grafana: the PostgreSQL data source's query editor (schema, table and
-- column pickers, version and TimescaleDB detection).

-- name: grafana getVersion
-- source: grafana/grafana public/app/plugins/datasource/grafana-postgresql-datasource/postgresMetaQuery.ts getVersion()
SELECT current_setting('server_version_num')::int/100 as version
-- end

-- name: grafana getTimescaleDBVersion
-- source: grafana/grafana public/app/plugins/datasource/grafana-postgresql-datasource/postgresMetaQuery.ts getTimescaleDBVersion()
SELECT extversion FROM pg_extension WHERE extname = 'timescaledb'
-- end

-- name: grafana showSchemas
-- source: grafana/grafana public/app/plugins/datasource/grafana-postgresql-datasource/postgresMetaQuery.ts showSchemas()
-- ordered
SELECT schema_name AS "name"
    FROM information_schema.schemata
    WHERE schema_name NOT IN ('information_schema',
                              'pg_catalog',
                              'pg_toast',
                              '_timescaledb_cache',
                              '_timescaledb_catalog',
                              '_timescaledb_internal',
                              '_timescaledb_config',
                              'timescaledb_information',
                              'timescaledb_experimental')
    ORDER BY schema_name
-- end

-- name: grafana showTables('public')
-- source: grafana/grafana public/app/plugins/datasource/grafana-postgresql-datasource/postgresMetaQuery.ts showTables(schema), schema 'public'
-- ordered
SELECT quote_ident(table_name) AS "table"
      FROM information_schema.tables
      WHERE quote_ident(table_schema) = 'public'
      ORDER BY 1
-- end

-- name: grafana showTables()
-- source: grafana/grafana public/app/plugins/datasource/grafana-postgresql-datasource/postgresMetaQuery.ts showTables() with buildSchemaConstraint()
-- ordered
SELECT
    CASE WHEN 
          quote_ident(table_schema) IN (
          SELECT
            CASE WHEN trim(s[i]) = '"$user"' THEN user ELSE trim(s[i]) END
          FROM
            generate_series(
              array_lower(string_to_array(current_setting('search_path'),','),1),
              array_upper(string_to_array(current_setting('search_path'),','),1)
            ) as i,
            string_to_array(current_setting('search_path'),',') s
          )
      THEN quote_ident(table_name)
      ELSE quote_ident(table_schema) || '.' || quote_ident(table_name)
    END AS "table"
    FROM information_schema.tables
    WHERE quote_ident(table_schema) NOT IN ('information_schema',
                             'pg_catalog',
                             '_timescaledb_cache',
                             '_timescaledb_catalog',
                             '_timescaledb_internal',
                             '_timescaledb_config',
                             'timescaledb_information',
                             'timescaledb_experimental')
    ORDER BY CASE WHEN 
          quote_ident(table_schema) IN (
          SELECT
            CASE WHEN trim(s[i]) = '"$user"' THEN user ELSE trim(s[i]) END
          FROM
            generate_series(
              array_lower(string_to_array(current_setting('search_path'),','),1),
              array_upper(string_to_array(current_setting('search_path'),','),1)
            ) as i,
            string_to_array(current_setting('search_path'),',') s
          ) THEN 0 ELSE 1 END, 1
-- end

-- name: grafana getSchema('every_type')
-- source: grafana/grafana public/app/plugins/datasource/grafana-postgresql-datasource/postgresMetaQuery.ts getSchema(table), table 'every_type'
SELECT quote_ident(column_name) AS "column", data_type AS "type"
    FROM information_schema.columns
    WHERE
      CASE WHEN array_length(parse_ident('every_type'),1) = 2
        THEN quote_ident(table_schema) = (parse_ident('every_type'))[1]
          AND quote_ident(table_name) = (parse_ident('every_type'))[2]
        ELSE quote_ident(table_name) = 'every_type'
          AND 
          quote_ident(table_schema) IN (
          SELECT
            CASE WHEN trim(s[i]) = '"$user"' THEN user ELSE trim(s[i]) END
          FROM
            generate_series(
              array_lower(string_to_array(current_setting('search_path'),','),1),
              array_upper(string_to_array(current_setting('search_path'),','),1)
            ) as i,
            string_to_array(current_setting('search_path'),',') s
          )
      END
-- end

-- name: grafana getSchema('public.events')
-- source: grafana/grafana public/app/plugins/datasource/grafana-postgresql-datasource/postgresMetaQuery.ts getSchema(table), table 'public.events'
SELECT quote_ident(column_name) AS "column", data_type AS "type"
    FROM information_schema.columns
    WHERE
      CASE WHEN array_length(parse_ident('public.events'),1) = 2
        THEN quote_ident(table_schema) = (parse_ident('public.events'))[1]
          AND quote_ident(table_name) = (parse_ident('public.events'))[2]
        ELSE quote_ident(table_name) = 'public.events'
          AND 
          quote_ident(table_schema) IN (
          SELECT
            CASE WHEN trim(s[i]) = '"$user"' THEN user ELSE trim(s[i]) END
          FROM
            generate_series(
              array_lower(string_to_array(current_setting('search_path'),','),1),
              array_upper(string_to_array(current_setting('search_path'),','),1)
            ) as i,
            string_to_array(current_setting('search_path'),',') s
          )
      END
-- end

-- Metabase: the postgres driver's own SQL (its table and column sync goes
-- through pgJDBC's DatabaseMetaData, which TestPgJDBCMetadata covers).

-- name: metabase enum-types
-- source: metabase/metabase src/metabase/driver/postgres.clj enum-types
SELECT nspname, typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE t.oid IN (SELECT DISTINCT enumtypid FROM pg_enum e)
-- end

-- name: metabase current-user-table-privileges
-- source: metabase/metabase src/metabase/driver/postgres.clj sql-jdbc.sync/current-user-table-privileges (lines joined with "\n" as the driver does)
with table_privileges as (
 select
   NULL as role,
   t.schemaname as schema,
   t.objectname as table,
   pg_catalog.has_table_privilege(current_user, '"' || t.schemaname || '"' || '.' || '"' || t.objectname || '"',  'update') as update,
   pg_catalog.has_table_privilege(current_user, '"' || t.schemaname || '"' || '.' || '"' || t.objectname || '"',  'select') as select,
   pg_catalog.has_table_privilege(current_user, '"' || t.schemaname || '"' || '.' || '"' || t.objectname || '"',  'insert') as insert,
   pg_catalog.has_table_privilege(current_user, '"' || t.schemaname || '"' || '.' || '"' || t.objectname || '"',  'delete') as delete
 from (
   select schemaname, tablename as objectname from pg_catalog.pg_tables
   union
   select schemaname, viewname as objectname from pg_catalog.pg_views
   union
   select schemaname, matviewname as objectname from pg_catalog.pg_matviews
 ) t
 where t.schemaname !~ '^pg_'
   and t.schemaname <> 'information_schema'
   and pg_catalog.has_schema_privilege(current_user, t.schemaname, 'usage')
)
select t.*
from table_privileges t
-- end

-- DBeaver: the PostgreSQL plugin's navigator caches (schemas, tables,
-- columns, constraints, indexes, procedures, collations, extensions).

-- name: dbeaver SchemaCache
-- source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/model/PostgreDatabase.java SchemaCache.prepareLookupStatement
-- ordered
SELECT n.oid,n.*,d.description FROM pg_catalog.pg_namespace n
LEFT OUTER JOIN pg_catalog.pg_description d ON d.objoid=n.oid AND d.objsubid=0 AND d.classoid='pg_namespace'::regclass
 ORDER BY nspname
-- end

-- name: dbeaver TableCache
-- source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/model/PostgreSchema.java TableCache.prepareLookupStatement
-- param: nsp:public
SELECT c.oid,c.*,d.description,(select array_agg(i.inhparent) from pg_catalog.pg_inherits i where i.inhrelid = c.oid) parents
FROM pg_catalog.pg_class c
LEFT OUTER JOIN pg_catalog.pg_description d ON d.objoid=c.oid AND d.objsubid=0
WHERE c.relnamespace=$1 AND c.relkind not in ('i','c')
-- end

-- name: dbeaver TableCache columns
-- source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/model/PostgreSchema.java TableCache.prepareChildrenStatement
-- param: nsp:public
SELECT c.relname,a.*,pg_catalog.pg_get_expr(ad.adbin, ad.adrelid, true) as def_value,dsc.description
FROM pg_catalog.pg_attribute a
INNER JOIN pg_catalog.pg_class c ON (a.attrelid=c.oid)
LEFT OUTER JOIN pg_catalog.pg_attrdef ad ON (a.attrelid=ad.adrelid AND a.attnum = ad.adnum)
LEFT OUTER JOIN pg_catalog.pg_description dsc ON (c.oid=dsc.objoid AND a.attnum = dsc.objsubid)
WHERE NOT a.attisdropped AND c.relnamespace=$1 AND c.relkind not in ('i','c')  ORDER BY a.attnum
-- end

-- name: dbeaver ConstraintCache
-- source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/model/PostgreSchema.java ConstraintCache.prepareObjectsStatement (whole schema)
-- param: nsp:public
SELECT c.oid,c.*,t.relname as tabrelname,rt.relnamespace as refnamespace
FROM pg_catalog.pg_constraint c
INNER JOIN pg_catalog.pg_class t ON t.oid=c.conrelid
LEFT OUTER JOIN pg_catalog.pg_class rt ON rt.oid=c.confrelid
WHERE t.relnamespace=$1
ORDER BY c.oid
-- end

-- name: dbeaver IndexCache
-- source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/model/PostgreSchema.java IndexCache.prepareObjectsStatement (whole schema, server >= 7.4)
-- param: nsp:public
-- ordered
SELECT i.*,i.indkey as keys,c.relname,c.relnamespace,c.relam,tc.relname as tabrelname,dsc.description,pg_catalog.pg_get_expr(i.indexprs, i.indrelid, true) as expr
FROM pg_catalog.pg_index i
INNER JOIN pg_catalog.pg_class c ON c.oid=i.indexrelid
INNER JOIN pg_catalog.pg_class tc ON tc.oid=i.indrelid
LEFT OUTER JOIN pg_catalog.pg_description dsc ON i.indexrelid=dsc.objoid
WHERE  c.relnamespace=$1 ORDER BY c.relname
-- end

-- name: dbeaver IndexCache one table
-- source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/model/PostgreSchema.java IndexCache.prepareObjectsStatement (forTable, server >= 7.4)
-- param: rel:every_type
-- ordered
SELECT i.*,i.indkey as keys,c.relname,c.relnamespace,c.relam,tc.relname as tabrelname,dsc.description,pg_catalog.pg_get_expr(i.indexprs, i.indrelid, true) as expr
FROM pg_catalog.pg_index i
INNER JOIN pg_catalog.pg_class c ON c.oid=i.indexrelid
INNER JOIN pg_catalog.pg_class tc ON tc.oid=i.indrelid
LEFT OUTER JOIN pg_catalog.pg_description dsc ON i.indexrelid=dsc.objoid
WHERE  i.indrelid=$1 ORDER BY c.relname
-- end

-- name: dbeaver ProceduresCache
-- source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/model/PostgreSchema.java ProceduresCache.prepareLookupStatement
-- param: nsp:public
-- ordered
SELECT p.oid,p.*,d.description
FROM pg_catalog.pg_proc p
LEFT OUTER JOIN pg_catalog.pg_description d ON d.objoid=p.oid
WHERE p.pronamespace=$1
ORDER BY p.proname
-- end

-- name: dbeaver CollationCache
-- source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/model/PostgreSchema.java CollationCache.prepareObjectsStatement
-- param: nsp:public
-- ordered
SELECT c.oid,c.* FROM pg_catalog.pg_collation c 
WHERE c.collnamespace=$1
ORDER BY c.oid
-- end

-- name: dbeaver ExtensionCache
-- source: dbeaver/dbeaver plugins/org.jkiss.dbeaver.ext.postgresql/src/org/jkiss/dbeaver/ext/postgresql/model/PostgreSchema.java ExtensionCache.prepareObjectsStatement
-- param: nsp:public
-- ordered
SELECT e.oid,e.* FROM pg_catalog.pg_extension e 
WHERE e.extnamespace=$1
ORDER BY e.oid
-- end

-- pgcli: the completion refresher's metadata queries (pgexecute.py; the
-- relkind list psycopg binds for %s is written as the array it renders).

-- name: pgcli search_path
-- source: dbcli/pgcli pgcli/pgexecute.py PGExecute.search_path_query
SELECT * FROM unnest(current_schemas(true))
-- end

-- name: pgcli schemata
-- source: dbcli/pgcli pgcli/pgexecute.py PGExecute.schemata_query
-- ordered
SELECT  nspname
        FROM    pg_catalog.pg_namespace
        ORDER BY 1
-- end

-- name: pgcli tables
-- source: dbcli/pgcli pgcli/pgexecute.py PGExecute.tables_query, kinds ['r', 'p', 'f']
-- compare: shape it lists the system catalogs too, of which sqlgate serves those clients read (pgcatalog/doc.go)
SELECT  n.nspname schema_name,
                c.relname table_name
        FROM    pg_catalog.pg_class c
                LEFT JOIN pg_catalog.pg_namespace n
                    ON n.oid = c.relnamespace
        WHERE   c.relkind = ANY(ARRAY['r', 'p', 'f'])
        ORDER BY 1,2
-- end

-- name: pgcli table columns
-- source: dbcli/pgcli pgcli/pgexecute.py PGExecute._columns (server >= 8.4), kinds ['r', 'p', 'f']
-- compare: shape it lists the system catalogs' columns too, of which sqlgate serves those clients read (pgcatalog/doc.go)
SELECT  nsp.nspname schema_name,
                        cls.relname table_name,
                        att.attname column_name,
                        att.atttypid::regtype::text type_name,
                        att.atthasdef AS has_default,
                        pg_catalog.pg_get_expr(def.adbin, def.adrelid, true) as default
                FROM    pg_catalog.pg_attribute att
                        INNER JOIN pg_catalog.pg_class cls
                            ON att.attrelid = cls.oid
                        INNER JOIN pg_catalog.pg_namespace nsp
                            ON cls.relnamespace = nsp.oid
                        LEFT OUTER JOIN pg_attrdef def
                            ON def.adrelid = att.attrelid
                            AND def.adnum = att.attnum
                WHERE   cls.relkind = ANY(ARRAY['r', 'p', 'f'])
                        AND NOT att.attisdropped
                        AND att.attnum  > 0
                ORDER BY 1, 2, att.attnum
-- end

-- name: pgcli databases
-- source: dbcli/pgcli pgcli/pgexecute.py PGExecute.databases_query
-- compare: shape PostgreSQL also lists its postgres and template databases
SELECT d.datname
        FROM pg_catalog.pg_database d
        ORDER BY 1
-- end

-- name: pgcli full databases
-- source: dbcli/pgcli pgcli/pgexecute.py PGExecute.full_databases_query
-- compare: shape PostgreSQL also lists its postgres and template databases
SELECT d.datname as "Name",
            pg_catalog.pg_get_userbyid(d.datdba) as "Owner",
            pg_catalog.pg_encoding_to_char(d.encoding) as "Encoding",
            d.datcollate as "Collate",
            d.datctype as "Ctype",
            pg_catalog.array_to_string(d.datacl, E'\n') AS "Access privileges"
        FROM pg_catalog.pg_database d
        ORDER BY 1
-- end

-- name: pgcli socket directory
-- source: dbcli/pgcli pgcli/pgexecute.py PGExecute.socket_directory_query
-- compare: shape sqlgate listens on TCP only: it has no socket directory setting
SELECT setting
        FROM pg_settings
        WHERE name = 'unix_socket_directories'
-- end

-- name: pgcli foreign keys
-- source: dbcli/pgcli pgcli/pgexecute.py PGExecute.foreignkeys (server >= 9.0)
SELECT s_p.nspname AS parentschema,
                       t_p.relname AS parenttable,
                       unnest((
                        select
                            array_agg(attname ORDER BY i)
                        from
                            (select unnest(confkey) as attnum, generate_subscripts(confkey, 1) as i) x
                            JOIN pg_catalog.pg_attribute c USING(attnum)
                            WHERE c.attrelid = fk.confrelid
                        )) AS parentcolumn,
                       s_c.nspname AS childschema,
                       t_c.relname AS childtable,
                       unnest((
                        select
                            array_agg(attname ORDER BY i)
                        from
                            (select unnest(conkey) as attnum, generate_subscripts(conkey, 1) as i) x
                            JOIN pg_catalog.pg_attribute c USING(attnum)
                            WHERE c.attrelid = fk.conrelid
                        )) AS childcolumn
                FROM pg_catalog.pg_constraint fk
                JOIN pg_catalog.pg_class      t_p ON t_p.oid = fk.confrelid
                JOIN pg_catalog.pg_namespace  s_p ON s_p.oid = t_p.relnamespace
                JOIN pg_catalog.pg_class      t_c ON t_c.oid = fk.conrelid
                JOIN pg_catalog.pg_namespace  s_c ON s_c.oid = t_c.relnamespace
                WHERE fk.contype = 'f'
-- end

-- name: pgcli functions
-- source: dbcli/pgcli pgcli/pgexecute.py PGExecute.functions (server >= 11)
-- compare: shape the two servers' function libraries differ (docs/functions.md)
SELECT n.nspname schema_name,
                        p.proname func_name,
                        p.proargnames,
                        COALESCE(proallargtypes::regtype[], proargtypes::regtype[])::text[],
                        p.proargmodes,
                        prorettype::regtype::text return_type,
                        p.prokind = 'a' is_aggregate,
                        p.prokind = 'w' is_window,
                        p.proretset is_set_returning,
                        d.deptype = 'e' is_extension,
                        pg_get_expr(proargdefaults, 0) AS arg_defaults
                FROM pg_catalog.pg_proc p
                        INNER JOIN pg_catalog.pg_namespace n
                            ON n.oid = p.pronamespace
                LEFT JOIN pg_depend d ON d.objid = p.oid and d.deptype = 'e'
                WHERE p.prorettype::regtype != 'trigger'::regtype
                ORDER BY 1, 2
-- end

-- name: pgcli datatypes
-- source: dbcli/pgcli pgcli/pgexecute.py PGExecute.datatypes (server > 9.0)
-- ordered
SELECT n.nspname schema_name,
                           t.typname type_name
                    FROM   pg_catalog.pg_type t
                           INNER JOIN pg_catalog.pg_namespace n
                              ON n.oid = t.typnamespace
                    WHERE ( t.typrelid = 0  -- non-composite types
                            OR (  -- composite type, but not a table
                                  SELECT c.relkind = 'c'
                                  FROM pg_catalog.pg_class c
                                  WHERE c.oid = t.typrelid
                                )
                          )
                          AND NOT EXISTS( -- ignore array types
                                SELECT  1
                                FROM    pg_catalog.pg_type el
                                WHERE   el.oid = t.typelem AND el.typarray = t.oid
                              )
                          AND n.nspname <> 'pg_catalog'
                          AND n.nspname <> 'information_schema'
                    ORDER BY 1, 2
-- end

-- pgAdmin 4: the dashboard's server activity and statistics graphs
-- (web/pgadmin/dashboard/templates/dashboard/sql, server-wide: no did).

-- name: pgadmin activity
-- source: pgadmin-org/pgadmin4 web/pgadmin/dashboard/templates/dashboard/sql/10_plus/activity.sql
-- compare: shape the sessions are each server's own
/*pga4dash*/
SELECT
    pid,
    datname,
    usename,
    application_name,
    client_addr,
    to_char(backend_start, 'YYYY-MM-DD HH24:MI:SS TZ') AS backend_start,
    state,
    wait_event_type || ': ' || wait_event AS wait_event,
    pg_blocking_pids(pid) AS blocking_pids,
    query,
    to_char(state_change, 'YYYY-MM-DD HH24:MI:SS TZ') AS state_change,
    to_char(query_start, 'YYYY-MM-DD HH24:MI:SS TZ') AS query_start,
    backend_type
FROM
    pg_stat_activity
ORDER BY pid
-- end

-- name: pgadmin session_stats
-- source: pgadmin-org/pgadmin4 web/pgadmin/dashboard/templates/dashboard/sql/default/session_stats.sql
-- compare: shape the sessions are each server's own
/*pga4dash*/
SELECT
   (SELECT count(*) FROM pg_stat_activity) AS "Total",
   (SELECT count(*) FROM pg_stat_activity WHERE state = 'active')  AS "Active",
   (SELECT count(*) FROM pg_stat_activity WHERE state = 'idle')  AS "Idle"
-- end

-- name: pgadmin tps_stats
-- source: pgadmin-org/pgadmin4 web/pgadmin/dashboard/templates/dashboard/sql/default/tps_stats.sql
-- compare: shape the counters are each server's own
/*pga4dash*/
SELECT
   (SELECT sum(xact_commit) + sum(xact_rollback) FROM pg_stat_database) AS "Transactions",
   (SELECT sum(xact_commit) FROM pg_stat_database) AS "Commits",
   (SELECT sum(xact_rollback) FROM pg_stat_database) AS "Rollbacks"
-- end

-- name: pgadmin ti_stats
-- source: pgadmin-org/pgadmin4 web/pgadmin/dashboard/templates/dashboard/sql/default/ti_stats.sql
-- compare: shape the counters are each server's own
/*pga4dash*/
SELECT
   (SELECT sum(tup_inserted) FROM pg_stat_database) AS "Inserts",
   (SELECT sum(tup_updated) FROM pg_stat_database) AS "Updates",
   (SELECT sum(tup_deleted) FROM pg_stat_database) AS "Deletes"
-- end

-- name: pgadmin bio_stats
-- source: pgadmin-org/pgadmin4 web/pgadmin/dashboard/templates/dashboard/sql/default/bio_stats.sql
-- compare: shape the counters are each server's own
/*pga4dash*/
SELECT
   (SELECT sum(blks_read) FROM pg_stat_database) AS "Reads",
   (SELECT sum(blks_hit) FROM pg_stat_database) AS "Hits"
-- end

-- name: pgadmin replication_slots
-- source: pgadmin-org/pgadmin4 web/pgadmin/dashboard/templates/dashboard/sql/default/replication_slots.sql
select * from pg_replication_slots
-- end

-- name: pgadmin locks
-- source: pgadmin-org/pgadmin4 web/pgadmin/dashboard/templates/dashboard/sql/default/locks.sql
-- compare: shape PostgreSQL lists the relation locks of the query itself
/*pga4dash*/
SELECT
    pid,
    locktype,
    datname,
    relation::regclass,
    page,
    tuple,
    virtualxid
    transactionid,
    classid::regclass,
    objid,
    objsubid,
    virtualtransaction,
    mode,
    granted,
    fastpath
FROM
    pg_locks l
    LEFT OUTER JOIN pg_database d ON (l.database = d.oid)
ORDER BY
    pid, locktype
-- end

-- name: pgadmin config
-- source: pgadmin-org/pgadmin4 web/pgadmin/dashboard/templates/dashboard/sql/default/config.sql
-- compare: shape sqlgate has fewer settings than PostgreSQL
/*pga4dash*/
SELECT
    name,
    category,
    setting,
    unit,
    short_desc
FROM
    pg_catalog.pg_show_all_settings()
ORDER BY
    category
-- end

-- Superset: PostgresEngineSpec (superset/db_engine_specs/postgres.py).

-- name: superset get_catalog_names
-- source: apache/superset superset/db_engine_specs/postgres.py PostgresEngineSpec.get_catalog_names
-- compare: shape PostgreSQL also lists its postgres database
SELECT datname FROM pg_database
WHERE datistemplate = false
-- end

-- name: superset cancel_query
-- source: apache/superset superset/db_engine_specs/postgres.py PostgresEngineSpec.cancel_query, a PID that is no session
SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid='1'
-- end

-- name: superset get_cancel_query_id
-- source: apache/superset superset/db_engine_specs/postgres.py PostgresEngineSpec.get_cancel_query_id
-- compare: shape the process ids are each server's own
SELECT pg_backend_pid()
-- end
