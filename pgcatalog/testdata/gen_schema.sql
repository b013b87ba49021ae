with rels as (
 select c.oid, n.nspname, c.relname, c.relkind from pg_class c join pg_namespace n on n.oid=c.relnamespace
 where (n.nspname='pg_catalog' and c.relname in ('pg_namespace','pg_class','pg_attribute','pg_type','pg_index','pg_constraint','pg_attrdef','pg_description','pg_shdescription','pg_database','pg_roles','pg_user','pg_authid','pg_auth_members','pg_settings','pg_am','pg_proc','pg_tables','pg_views','pg_matviews','pg_indexes','pg_sequences','pg_stat_user_tables','pg_stat_all_tables','pg_stat_activity','pg_extension','pg_enum','pg_collation','pg_inherits','pg_policy','pg_statistic_ext','pg_publication','pg_publication_rel','pg_publication_namespace','pg_trigger','pg_rewrite','pg_range','pg_sequence','pg_foreign_table','pg_partitioned_table','pg_depend','pg_language','pg_tablespace','pg_event_trigger','pg_foreign_server','pg_user_mappings','pg_foreign_data_wrapper','pg_cast','pg_operator','pg_opclass','pg_aggregate','pg_default_acl','pg_init_privs','pg_seclabel','pg_subscription','pg_largeobject_metadata','pg_stat_progress_copy','pg_replication_slots','pg_stat_database','pg_stat_user_indexes','pg_stat_all_indexes','pg_statio_user_tables','pg_statio_all_tables','pg_stat_gssapi','pg_stat_replication'))
  or (n.nspname='information_schema' and c.relname in ('schemata','tables','columns','views','table_constraints','key_column_usage','referential_constraints','routines','parameters','check_constraints','constraint_column_usage','table_privileges','sequences','triggers','element_types','domains','character_sets'))
)
select format(E'\t{schema: %s, name: %L, oid: %s, kind: %L, cols: []col{%s}},',
  case r.nspname when 'pg_catalog' then 'pgCatalog' else 'infoSchema' end, r.relname, r.oid, r.relkind,
  string_agg(format('{%s, %s}', '"'||a.attname||'"',
    case format_type(a.atttypid, null)
      when 'oid' then 'tOid' when 'regproc' then 'tRegProc' when 'regtype' then 'tOid' when 'regclass' then 'tOid' when 'regnamespace' then 'tOid' when 'regrole' then 'tOid' when 'xid' then 'tXid' when 'inet' then 'tInet' when 'pg_lsn' then 'tLsn'
      when 'name' then 'tName' when '"char"' then 'tChar'
      when 'smallint' then 'tInt2' when 'integer' then 'tInt4' when 'bigint' then 'tInt8' when 'boolean' then 'tBool'
      when 'real' then 'tFloat4' when 'double precision' then 'tFloat8'
      when 'timestamp with time zone' then 'tTSTZ' when 'interval' then 'tInterval' when 'bytea' then 'tBytea' when 'numeric' then 'tNumeric'
      when 'int2vector' then 'tInt2Vec' when 'oidvector' then 'tOidVec' when 'oid[]' then 'tOidArr' when 'regtype[]' then 'tOidArr'
      when 'aclitem[]' then 'tAclArr' when 'pg_node_tree' then 'tNodeTree' when 'anyarray' then 'tAnyArray' when 'text[]' then 'tTextArr' when 'name[]' then 'tNameArr' when '"char"[]' then 'tCharArr' when 'smallint[]' then 'tInt2Arr' when 'real[]' then 'tFloat4Arr'
      when 'information_schema.sql_identifier' then 'tName' when 'information_schema.character_data' then 'tText'
      when 'information_schema.cardinal_number' then 'tInt4' when 'information_schema.yes_or_no' then 'tYesNo' when 'information_schema.time_stamp' then 'tTSTZ'
      else 'tText' end), ', ' order by a.attnum))
from rels r join pg_attribute a on a.attrelid=r.oid and a.attnum>0 and not a.attisdropped
group by r.nspname, r.relname, r.oid, r.relkind order by r.nspname desc, r.relname;
