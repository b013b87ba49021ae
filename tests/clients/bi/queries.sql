-- Introspection queries that BI tools' PostgreSQL integrations send,
-- copied verbatim from each project's published source (named in the
-- "source" line; ? parameters there are $1 here, bound as the "param" line
-- says: nsp:NAME is the OID of schema NAME, rel:NAME the OID of table NAME,
-- text:VALUE a text value). TestBIIntrospectionQueries runs each one on
-- sqlgate and on PostgreSQL 15 over the same tables and compares the
-- results (as multisets unless the query has an ORDER BY that fixes the
-- row order, marked "ordered"). Each query ends at a line "-- end".
-- Queries marked "captured" are the forms a client was seen sending (with
-- its OID literals bound to this test's objects). Other directives:
-- "compare: shape REASON" compares the columns' names and types only;
-- "protocol: simple" sends the text as one simple Query (several
-- statements, as psycopg 3 sends text without parameters); "postgres
-- only: VALUE" leaves out the rows with a cell VALUE (PostgreSQL's own
-- objects, such as its postgres database).
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

-- Metabase connecting and syncing (captured from Metabase v0.55.1 over
-- pgJDBC, as datafusion-contrib/datafusion-postgres
-- datafusion-postgres/tests/metabase.rs lists them): its session setup,
-- pgJDBC's getSchemas, the privileges query and describe-database's table
-- list with pg_stat_user_tables' row estimate.

-- name: metabase set extra_float_digits
-- source: captured (datafusion-postgres tests/metabase.rs), pgJDBC's connection setup
SET extra_float_digits = 2
-- end

-- name: metabase show transaction isolation level
-- source: captured (datafusion-postgres tests/metabase.rs)
SHOW TRANSACTION ISOLATION LEVEL
-- end

-- name: metabase set session characteristics
-- source: captured (datafusion-postgres tests/metabase.rs); READ COMMITTED follows READ UNCOMMITTED as Metabase sends them
-- protocol: simple
SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ UNCOMMITTED;
SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED
-- end

-- name: metabase show timezone
-- source: captured (datafusion-postgres tests/metabase.rs)
-- compare: shape the test servers' time zones are their own settings
show timezone
-- end

-- name: metabase getSchemas
-- source: captured (datafusion-postgres tests/metabase.rs): pgJDBC PgDatabaseMetaData.getSchemas
-- ordered
SELECT nspname AS "TABLE_SCHEM", current_database() AS "TABLE_CATALOG" FROM pg_catalog.pg_namespace  WHERE nspname <> 'pg_toast' AND (nspname !~ '^pg_temp_'  OR nspname = (pg_catalog.current_schemas(true))[1]) AND (nspname !~ '^pg_toast_temp_'  OR nspname = replace((pg_catalog.current_schemas(true))[1], 'pg_temp_', 'pg_toast_temp_'))  ORDER BY "TABLE_SCHEM"
-- end

-- name: metabase current-user-table-privileges (v0.55)
-- source: captured (datafusion-postgres tests/metabase.rs): sql-jdbc.sync/current-user-table-privileges with has_any_column_privilege
with table_privileges as (
         select
           NULL as role,
           t.schemaname as schema,
           t.objectname as table,
           pg_catalog.has_any_column_privilege(current_user, '"' || replace(t.schemaname, '"', '""') || '"' || '.' || '"' || replace(t.objectname, '"', '""') || '"',  'update') as update,
           pg_catalog.has_any_column_privilege(current_user, '"' || replace(t.schemaname, '"', '""') || '"' || '.' || '"' || replace(t.objectname, '"', '""') || '"',  'select') as select,
           pg_catalog.has_any_column_privilege(current_user, '"' || replace(t.schemaname, '"', '""') || '"' || '.' || '"' || replace(t.objectname, '"', '""') || '"',  'insert') as insert,
           pg_catalog.has_table_privilege(     current_user, '"' || replace(t.schemaname, '"', '""') || '"' || '.' || '"' || replace(t.objectname, '"', '""') || '"',  'delete') as delete
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

-- name: metabase describe-database tables
-- source: captured (datafusion-postgres tests/metabase.rs): describe-database's table list, schema public
-- ordered
SELECT "n"."nspname" AS "schema", "c"."relname" AS "name", CASE "c"."relkind" WHEN 'r' THEN 'TABLE' WHEN 'p' THEN 'PARTITIONED TABLE' WHEN 'v' THEN 'VIEW' WHEN 'f' THEN 'FOREIGN TABLE' WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE NULL END AS "type", "d"."description" AS "description", "stat"."n_live_tup" AS "estimated_row_count" FROM "pg_catalog"."pg_class" AS "c" INNER JOIN "pg_catalog"."pg_namespace" AS "n" ON "c"."relnamespace" = "n"."oid" LEFT JOIN "pg_catalog"."pg_description" AS "d" ON ("c"."oid" = "d"."objoid") AND ("d"."objsubid" = '0') AND ("d"."classoid" = 'pg_class'::regclass) LEFT JOIN "pg_stat_user_tables" AS "stat" ON ("n"."nspname" = "stat"."schemaname") AND ("c"."relname" = "stat"."relname") WHERE ("c"."relnamespace" = "n"."oid") AND ("n"."nspname" !~ '^pg_') AND ("n"."nspname" <> 'information_schema') AND c.relkind in ('r', 'p', 'v', 'f', 'm') AND ("n"."nspname" IN ('public')) ORDER BY "type" ASC, "schema" ASC, "name" ASC
-- end

-- DBeaver connecting (captured from DBeaver 25.1.5 over pgJDBC, as
-- datafusion-contrib/datafusion-postgres datafusion-postgres/tests/dbeaver.rs
-- lists them; its OID literals are bound to this schema's objects): the
-- session setup, pgJDBC's type lookups, the database and settings reads,
-- the keyword list, and the newer navigator queries (partition columns,
-- sizes, index scan counts, constraint sources).

-- name: dbeaver current_schema
-- source: captured (datafusion-postgres tests/dbeaver.rs)
SELECT current_schema(),session_user
-- end

-- name: dbeaver pgjdbc type lookup
-- source: captured (datafusion-postgres tests/dbeaver.rs): pgJDBC TypeInfoCache, type 1034 (aclitem[])
SELECT n.nspname = ANY(current_schemas(true)), n.nspname, t.typname FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON t.typnamespace = n.oid WHERE t.oid = 1034
-- end

-- name: dbeaver pgjdbc is_array
-- source: captured (datafusion-postgres tests/dbeaver.rs): pgJDBC TypeInfoCache.isArray, type 1034
-- ordered
SELECT typinput='pg_catalog.array_in'::regproc as is_array, typtype, typname, pg_type.oid   FROM pg_catalog.pg_type   LEFT JOIN (select ns.oid as nspoid, ns.nspname, r.r           from pg_namespace as ns           join ( select s.r, (current_schemas(false))[s.r] as nspname                    from generate_series(1, array_upper(current_schemas(false), 1)) as s(r) ) as r          using ( nspname )        ) as sp     ON sp.nspoid = typnamespace  WHERE pg_type.oid = 1034  ORDER BY sp.r, pg_type.oid DESC
-- end

-- name: dbeaver show search_path
-- source: captured (datafusion-postgres tests/dbeaver.rs)
SHOW search_path
-- end

-- name: dbeaver database
-- source: captured (datafusion-postgres tests/dbeaver.rs), the connection's database (sqlgate here, postgres there)
SELECT db.oid,db.* FROM pg_catalog.pg_database db WHERE datname='sqlgate'
-- end

-- name: dbeaver standard_conforming_strings
-- source: captured (datafusion-postgres tests/dbeaver.rs)
SELECT * FROM pg_catalog.pg_settings where name='standard_conforming_strings'
-- end

-- name: dbeaver keywords
-- source: captured (datafusion-postgres tests/dbeaver.rs): PostgreDialect, the server's keywords beyond DBeaver's SQL:2003 list (typos as DBeaver sends them)
SELECT string_agg(word, ',' ) from pg_catalog.pg_get_keywords() where word <> ALL ('{a,abs,absolute,action,ada,add,admin,after,all,allocate,alter,aIways,and,any,are,array,as,asc,asenstitive,assertion,assignment,asymmetric,at,atomic,attribute,attributes,authorization,avg,before,begin,bernoulli,between,bigint,binary,blob,boolean,both,breaadth,by,c,call,called,cardinaliity,cascade,cascaded,case,cast,catalog,catalog_name,ceil,ceiling,chain,char,char_length,character,character_length,character_set_catalog,character_set_name,character_set_schema,characteristics,characters,check,checkeed,class_origin,clob,close,coalesce,coboI,code_units,collate,collation,collaition_catalog,collaition_name,collaition_schema,collect,colum,column_name,command_function,command_function_code,commit,committed,condiition,condiition_number,connect,connection_name,constraint,constraint_catalog,constraint_name,constraint_schema,constraints,constructors,contains,continue,convert,corr,correspondiing,count,covar_pop,covar_samp,create,cross,cube,cume_dist,current,current_collation,current_date,current_default_transfom_group,current_path,current_role,current_time,current_timestamp,current_transfom_group_for_type,current_user,cursor,cursor_name,cycle,data,date,datetime_interval_code,datetime_interval_precision,day,deallocate,dec,decimaI,declare,default,defaults,not,null,nullable,nullif,nulls,number,numeric,object,octeet_length,octets,of,old,on,only,open,option,options,or,order,ordering,ordinaliity,others,out,outer,output,over,overlaps,overlay,overriding,pad,parameter,parameter_mode,parameter_name,parameter_ordinal_position,parameter_speciific_catalog,parameter_speciific_name,parameter_speciific_schema,partiaI,partitioon,pascal,path,percent_rank,percentile_cont,percentile_disc,placing,pli,position,power,preceding,precision,prepare,preseerv,primary,prior,privileges,procedure,public,range,rank,read,reads,real,recursivve,ref,references,referencing,regr_avgx,regr_avgy,regr_count,regr_intercept,regr_r2,regr_slope,regr_sxx,regr_sxy,regr_sy y,relative,release,repeatable,restart,result,retun,returned_cardinality,returned_length,returned_octeet_length,returned_sqlstate,returns,revoe,right,role,rollback,rollup,routine,routine_catalog,routine_name,routine_schema,row,row_count,row_number,rows,savepoint,scale,schema,schema_name,scope_catalog,scope_name,scope_schema,scroll,search,second,section,security,select,self,sensitive,sequence,seriializeable,server_name,session,session_user,set,sets,similar,simple,size,smalIint,some,source,space,specifiic,speciific_name,speciifictype,sql,sqlexception,sqlstate,sqlwarning,sqrt,start,state,statement,static,stddev_pop,stddev_samp,structure,style,subclass_origin,submultiset,substring,sum,symmetric,system,system_user,table,table_name,tablesample,temporary,then,ties,time,timesamp,timezone_hour,timezone_minute,to,top_level_count,trailing,transaction,transaction_active,transactions_committed,transactions_rolled_back,transfor,transforms,translate,translation,treat,trigger,trigger_catalog,trigger_name,trigger_schema,trim,true,type,unbounde,undefined,uncommitted,under,union,unique,unknown,unnaamed,unnest,update,upper,usage,user,user_defined_type_catalog,user_defined_type_code,user_defined_type_name,user_defined_type_schema,using,value,values,var_pop,var_samp,varchar,varying,view,when,whenever,where,width_bucket,window,with,within,without,work,write,year,zone}'::text[])
-- end

-- name: dbeaver version
-- source: captured (datafusion-postgres tests/dbeaver.rs)
-- compare: shape the version strings are each server's own
SELECT version()
-- end

-- name: dbeaver pg_enum probe
-- source: captured (datafusion-postgres tests/dbeaver.rs)
SELECT * FROM pg_catalog.pg_enum WHERE 1<>1 LIMIT 1
-- end

-- name: dbeaver reltype probe
-- source: captured (datafusion-postgres tests/dbeaver.rs)
SELECT reltype FROM pg_catalog.pg_class WHERE 1<>1 LIMIT 1
-- end

-- name: dbeaver DataTypeCache
-- source: captured (datafusion-postgres tests/dbeaver.rs): PostgreDataTypeCache
-- compare: shape sqlgate lists the types it has, not PostgreSQL's 600
SELECT t.oid,t.*,c.relkind,format_type(nullif(t.typbasetype, 0), t.typtypmod) as base_type_name, d.description FROM pg_catalog.pg_type t LEFT OUTER JOIN pg_catalog.pg_type et ON et.oid=t.typelem LEFT OUTER JOIN pg_catalog.pg_class c ON c.oid=t.typrelid LEFT OUTER JOIN pg_catalog.pg_description d ON t.oid=d.objoid WHERE t.typname IS NOT NULL AND (c.relkind IS NULL OR c.relkind = 'c') AND (et.typcategory IS NULL OR et.typcategory <> 'C')
-- end

-- name: dbeaver TableCache with partitions
-- source: captured (datafusion-postgres tests/dbeaver.rs): TableCache.prepareLookupStatement, newer form; relnamespace bound to public
-- param: nsp:public
SELECT c.oid,c.*,d.description,pg_catalog.pg_get_expr(c.relpartbound, c.oid) as partition_expr,  pg_catalog.pg_get_partkeydef(c.oid) as partition_key
    FROM pg_catalog.pg_class c
    LEFT OUTER JOIN pg_catalog.pg_description d ON d.objoid=c.oid AND d.objsubid=0 AND d.classoid='pg_class'::regclass
    WHERE c.relnamespace=$1 AND c.relkind not in ('i','I','c')
-- end

-- name: dbeaver table sizes
-- source: captured (datafusion-postgres tests/dbeaver.rs): PostgreTable sizes; relnamespace bound to public
-- param: nsp:public
select c.oid,pg_catalog.pg_total_relation_size(c.oid) as total_rel_size,pg_catalog.pg_relation_size(c.oid) as rel_size
     FROM pg_class c
     WHERE c.relnamespace=$1
-- end

-- name: dbeaver IndexCache with sizes
-- source: captured (datafusion-postgres tests/dbeaver.rs): IndexCache.prepareObjectsStatement, newer form; indrelid bound to every_type
-- param: rel:every_type
-- ordered
SELECT i.*,i.indkey as keys,c.relname,c.relnamespace,c.relam,c.reltablespace,tc.relname as tabrelname,dsc.description,pg_catalog.pg_get_expr(i.indpred, i.indrelid) as pred_expr,pg_catalog.pg_get_expr(i.indexprs, i.indrelid, true) as expr,pg_catalog.pg_relation_size(i.indexrelid) as index_rel_size,pg_catalog.pg_stat_get_numscans(i.indexrelid) as index_num_scans FROM pg_catalog.pg_index i
    INNER JOIN pg_catalog.pg_class c ON c.oid=i.indexrelid
    INNER JOIN pg_catalog.pg_class tc ON tc.oid=i.indrelid
    LEFT OUTER JOIN pg_catalog.pg_description dsc ON i.indexrelid=dsc.objoid
    WHERE  i.indrelid=$1 ORDER BY tabrelname, c.relname
-- end

-- name: dbeaver ConstraintCache with sources
-- source: captured (datafusion-postgres tests/dbeaver.rs): ConstraintCache.prepareObjectsStatement, newer form; conrelid bound to every_type
-- param: rel:every_type
-- ordered
SELECT c.oid,c.*,t.relname as tabrelname,rt.relnamespace as refnamespace,d.description, case when c.contype='c' then "substring"(pg_get_constraintdef(c.oid), 7) else null end consrc_copy
    FROM pg_catalog.pg_constraint c
    INNER JOIN pg_catalog.pg_class t ON t.oid=c.conrelid
    LEFT OUTER JOIN pg_catalog.pg_class rt ON rt.oid=c.confrelid
    LEFT OUTER JOIN pg_catalog.pg_description d ON d.objoid=c.oid AND d.objsubid=0 AND d.classoid='pg_constraint'::regclass
    WHERE c.conrelid=$1
    ORDER BY c.oid
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

-- name: pgcli show time zone
-- source: captured (datafusion-contrib/datafusion-postgres datafusion-postgres/tests/pgcli.rs), pgcli's startup
-- compare: shape the test servers' time zones are their own settings
show time zone
-- end

-- name: pgcli tables (psycopg 3)
-- source: captured (datafusion-postgres tests/pgcli.rs): PGExecute.tables_query as psycopg 3 sends it, kinds '{r,p,f}'
-- compare: shape it lists the system catalogs too, of which sqlgate serves those clients read (pgcatalog/doc.go)
SELECT  n.nspname schema_name,
                        c.relname table_name
                FROM    pg_catalog.pg_class c
                        LEFT JOIN pg_catalog.pg_namespace n
                            ON n.oid = c.relnamespace
                WHERE   c.relkind = ANY('{r,p,f}')
                ORDER BY 1,2;
-- end

-- name: pgcli user tables (psycopg 3)
-- source: captured (datafusion-postgres tests/pgcli.rs): PGExecute.tables_query, kinds '{r,p,f}', this test's schema only
-- ordered
SELECT  n.nspname schema_name,
                        c.relname table_name
                FROM    pg_catalog.pg_class c
                        LEFT JOIN pg_catalog.pg_namespace n
                            ON n.oid = c.relnamespace
                WHERE   c.relkind = ANY('{r,p,f}') AND n.nspname = 'public'
                ORDER BY 1,2;
-- end

-- name: pgcli views (psycopg 3)
-- source: captured (datafusion-postgres tests/pgcli.rs): PGExecute.tables_query, kinds '{v,m}'
-- compare: shape it lists the system views too, of which sqlgate serves those clients read (pgcatalog/doc.go)
SELECT  n.nspname schema_name,
                        c.relname table_name
                FROM    pg_catalog.pg_class c
                        LEFT JOIN pg_catalog.pg_namespace n
                            ON n.oid = c.relnamespace
                WHERE   c.relkind = ANY('{v,m}')
                ORDER BY 1,2;
-- end

-- name: pgcli user table columns (psycopg 3)
-- source: captured (datafusion-postgres tests/pgcli.rs): PGExecute._columns, kinds '{r,p,f}', this test's schema only
-- ordered
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
                        WHERE   cls.relkind = ANY('{r,p,f}')
                                AND NOT att.attisdropped
                                AND att.attnum  > 0
                                AND nsp.nspname = 'public'
                        ORDER BY 1, 2, att.attnum
-- end

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

-- pgAdmin 4 connecting (web/pgadmin/utils/driver/psycopg3/connection.py
-- _initialize and _set_user_info, psycopg 3 sending them as simple
-- queries) and browsing the tree (the nodes.sql templates rendered as
-- pgAdmin renders them for PostgreSQL 15: no did/scid filter of their own,
-- last_system_oid 16383, system objects hidden).

-- name: pgadmin connect setup
-- source: pgadmin-org/pgadmin4 web/pgadmin/utils/driver/psycopg3/connection.py Connection._initialize
-- protocol: simple
SET DateStyle=ISO; SET client_min_messages=notice; SELECT set_config('bytea_output','hex',false) FROM pg_settings WHERE name = 'bytea_output'; SET client_encoding='UTF8';
-- end

-- name: pgadmin connect database
-- source: pgadmin-org/pgadmin4 web/pgadmin/utils/driver/psycopg3/connection.py Connection._initialize
SELECT
    db.oid as did, db.datname, db.datallowconn,
    pg_encoding_to_char(db.encoding) AS serverencoding,
    has_database_privilege(db.oid, 'CREATE') as cancreate,
    datistemplate
FROM
    pg_catalog.pg_database db
WHERE db.datname = current_database()
-- end

-- name: pgadmin connect gssapi
-- source: pgadmin-org/pgadmin4 web/pgadmin/utils/driver/psycopg3/connection.py Connection._initialize (server >= 12)
SELECT
             gss_authenticated, encrypted
        FROM
            pg_catalog.pg_stat_gssapi
        WHERE pid = pg_backend_pid()
-- end

-- name: pgadmin connect user
-- source: pgadmin-org/pgadmin4 web/pgadmin/utils/driver/psycopg3/connection.py Connection._set_user_info
SELECT
            roles.oid as id, roles.rolname as name,
            roles.rolsuper as is_superuser,
            CASE WHEN roles.rolsuper THEN true ELSE roles.rolcreaterole END as
            can_create_role,
            CASE WHEN roles.rolsuper THEN true
            ELSE roles.rolcreatedb END as can_create_db,
            CASE WHEN 'pg_signal_backend'=ANY(ARRAY(WITH RECURSIVE cte AS (
            SELECT pg_roles.oid,pg_roles.rolname FROM pg_roles
                WHERE pg_roles.oid = roles.oid
            UNION ALL
            SELECT m.roleid,pgr.rolname FROM cte cte_1
                JOIN pg_auth_members m ON m.member = cte_1.oid
                JOIN pg_roles pgr ON pgr.oid = m.roleid)
            SELECT rolname  FROM cte)) THEN True
            ELSE False END as can_signal_backend
        FROM
            pg_catalog.pg_roles as roles
        WHERE
            rolname = current_user
-- end

-- name: pgadmin server type
-- source: datafusion-contrib/datafusion-postgres datafusion-postgres/tests/pgadmin.rs (pgAdmin's replication type check, captured)
SELECT CASE
        WHEN (SELECT count(extname) FROM pg_catalog.pg_extension WHERE extname='bdr') > 0
        THEN 'pgd'
        WHEN (SELECT COUNT(*) FROM pg_replication_slots) > 0
        THEN 'log'
        ELSE NULL
    END as type
-- end

-- name: pgadmin databases nodes
-- source: pgadmin-org/pgadmin4 web/pgadmin/browser/server_groups/servers/databases/templates/databases/sql/default/nodes.sql (no did, last_system_oid 16383)
-- ordered
-- postgres only: postgres
SELECT
    db.oid as did, db.datname as name, ta.spcname as spcname, db.datallowconn,
    db.datistemplate AS is_template,
    pg_catalog.has_database_privilege(db.oid, 'CREATE') as cancreate, datdba as owner,
    descr.description
FROM
    pg_catalog.pg_database db
    LEFT OUTER JOIN pg_catalog.pg_tablespace ta ON db.dattablespace = ta.oid
    LEFT OUTER JOIN pg_catalog.pg_shdescription descr ON (
        db.oid=descr.objoid AND descr.classoid='pg_database'::regclass
    )
WHERE
    db.oid > 16383::OID OR db.datname IN ('postgres', 'edb')

ORDER BY datname;
-- end

-- name: pgadmin schemas nodes
-- source: pgadmin-org/pgadmin4 web/pgadmin/browser/server_groups/servers/databases/schemas/templates/schemas/pg/default/sql/nodes.sql with catalog/pg/macros/catalogs.sql LIST('nsp') (no scid, system objects hidden)
-- ordered
SELECT
    nsp.oid,
    nsp.nspname as name,
    pg_catalog.has_schema_privilege(nsp.oid, 'CREATE') as can_create,
    pg_catalog.has_schema_privilege(nsp.oid, 'USAGE') as has_usage,
    des.description
FROM
    pg_catalog.pg_namespace nsp
    LEFT OUTER JOIN pg_catalog.pg_description des ON
        (des.objoid=nsp.oid AND des.classoid='pg_namespace'::regclass)
WHERE
     nspname NOT LIKE E'pg\\_%' AND
    NOT (
    (nsp.nspname = 'pg_catalog' AND EXISTS
        (SELECT 1 FROM pg_catalog.pg_class WHERE relname = 'pg_class' AND
            relnamespace = nsp.oid LIMIT 1)) OR
    (nsp.nspname = 'pgagent' AND EXISTS
        (SELECT 1 FROM pg_catalog.pg_class WHERE relname = 'pga_job' AND
            relnamespace = nsp.oid LIMIT 1)) OR
    (nsp.nspname = 'information_schema' AND EXISTS
        (SELECT 1 FROM pg_catalog.pg_class WHERE relname = 'tables' AND
            relnamespace = nsp.oid LIMIT 1))
    )

ORDER BY nspname;
-- end

-- name: pgadmin tables nodes
-- source: pgadmin-org/pgadmin4 web/pgadmin/browser/server_groups/servers/databases/schemas/tables/templates/tables/sql/default/nodes.sql (scid public, no tid)
-- param: nsp:public
-- ordered
SELECT rel.oid, rel.relname AS name,
    (SELECT count(*) FROM pg_trigger WHERE tgrelid=rel.oid) AS triggercount,
    (SELECT count(*) FROM pg_trigger WHERE tgrelid=rel.oid AND tgenabled = 'O') AS has_enable_triggers,
	(SELECT count(1) FROM pg_inherits WHERE inhrelid=rel.oid LIMIT 1) as is_inherits,
	(SELECT count(1) FROM pg_inherits WHERE inhparent=rel.oid LIMIT 1) as is_inherited
FROM pg_class rel
    WHERE rel.relkind IN ('r','s','t') AND rel.relnamespace = $1::oid
    ORDER BY rel.relname;
-- end

-- name: pgadmin table stats
-- source: pgadmin-org/pgadmin4 web/pgadmin/browser/server_groups/servers/databases/schemas/tables/templates/tables/sql/default/stats.sql (English labels, no pgstattuple, tid every_type)
-- param: rel:every_type
SELECT
    seq_scan AS "Sequential scans",
    seq_tup_read AS "Sequential tuples read",
    idx_scan AS "Index scans",
    idx_tup_fetch AS "Index tuples fetched",
    n_tup_ins AS "Tuples inserted",
    n_tup_upd AS "Tuples updated",
    n_tup_del AS "Tuples deleted",
    n_tup_hot_upd AS "Tuples HOT updated",
    n_live_tup AS "Live tuples",
    n_dead_tup AS "Dead tuples",
    heap_blks_read AS "Heap blocks read",
    heap_blks_hit AS "Heap blocks hit",
    idx_blks_read AS "Index blocks read",
    idx_blks_hit AS "Index blocks hit",
    toast_blks_read AS "Toast blocks read",
    toast_blks_hit AS "Toast blocks hit",
    tidx_blks_read AS "Toast index blocks read",
    tidx_blks_hit AS "Toast index blocks hit",
    last_vacuum AS "Last vacuum",
    last_autovacuum AS "Last autovacuum",
    last_analyze AS "Last analyze",
    last_autoanalyze AS "Last autoanalyze",
    pg_catalog.pg_relation_size(stat.relid) AS "Table size",
    CASE WHEN cl.reltoastrelid = 0 THEN NULL ELSE pg_catalog.pg_size_pretty(pg_catalog.pg_relation_size(cl.reltoastrelid)
        + COALESCE((SELECT SUM(pg_catalog.pg_relation_size(indexrelid))
                        FROM pg_catalog.pg_index WHERE indrelid=cl.reltoastrelid)::int8, 0))
        END AS "Toast table size",
    COALESCE((SELECT SUM(pg_catalog.pg_relation_size(indexrelid))
                                FROM pg_catalog.pg_index WHERE indrelid=stat.relid)::int8, 0)
        AS "Indexes size"
FROM
    pg_catalog.pg_stat_all_tables stat
JOIN
    pg_catalog.pg_statio_all_tables statio ON stat.relid = statio.relid
JOIN
    pg_catalog.pg_class cl ON cl.oid=stat.relid
WHERE
    stat.relid = $1::oid
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
