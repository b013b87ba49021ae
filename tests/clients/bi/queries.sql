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
