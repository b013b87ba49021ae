// Package pgcatalog serves PostgreSQL 15's catalog relations - pg_catalog
// and information_schema - computed from a live fluss.Catalog, so that
// psql's \d commands, drivers' metadata calls and BI tools' schema sync
// work against sqlgate.
//
// It owns: the list of virtual relations with PostgreSQL 15's column names
// and types and PostgreSQL's own relation OIDs (schema.go, generated from a
// PostgreSQL 15 server by testdata/gen_schema.sql), the rows each one
// shows (generated at scan time from the store's catalog, never cached),
// pg_type's rows for the types sqlgate emits and the enum types CREATE
// TYPE made (with pg_enum's rows: enums.go, Options.EnumTypes) and the
// domains CREATE DOMAIN made (with their pg_constraint and
// information_schema rows: domains.go, Options.Domains) and the composite
// types CREATE TYPE made (with their pg_class and pg_attribute rows, and
// the tables' row types' array types: composites.go,
// Options.CompositeTypes; format_type, pg_attribute and
// information_schema name them by OID from the store's registry,
// Options.Types, which the server shares with the engine), the OID scheme for user
// objects, built-ins' polymorphic signatures as PostgreSQL's pg_proc spells
// them (anyarray, anycompatible ...: polyargs.go), and the answers the catalog functions in functions need
// (Catalog implements functions.CatalogInfo: regclass/regtype lookups,
// one catalog row by OID for pg_identify_object and pg_relation_filenode
// (catalogrow.go: each catalog generated once per statement, indexed by
// OID in the statement's functions.Memoized memo),
// format_type, pg_get_indexdef, obj_description ...; and the optional
// interfaces of the system information functions: Databases for
// pg_tablespace_databases and pg_describe_object, ColumnNames for
// pg_describe_object, AppendOnlyTables for pg_relation_is_updatable,
// PartitionedTables for pg_partition_root and pg_partition_tree).
//
// It must not: write to the store (virtual relations reject writes with
// 42501, views with 0A000); parse or bind SQL; keep mutable state (every
// scan lists the store's tables afresh).
//
// OIDs are stable across restarts: a table's OID is 16384 + TableID (the
// OID engine/prepare.go reports in RowDescription), its row type, its
// primary-key index and its primary-key constraint are that plus 1<<22,
// 2<<22 and 3<<22. Namespaces use PostgreSQL's OIDs (pg_catalog 11, public
// 2200, information_schema 13207), the one user is OID 10; a database's
// OID is a hash of its name above 2^31 (functions.DatabaseOID), outside
// the system range as a database PostgreSQL users create.
//
// Known differences from PostgreSQL 15:
//   - Every catalog column has PostgreSQL 15's type on the wire
//     (TestCatalogColumnTypes): regproc columns (pg_type.typinput ...)
//     name PostgreSQL's own I/O functions, which pg_proc lists under
//     their OIDs (typeprocs.go, generated from PostgreSQL 15 and checked
//     by TestTypeProcsMatchPostgres:
//     pgJDBC tells arrays by typinput = 'array_in'::regproc); pg_proc
//     lists PostgreSQL's own rows (OID, prokind, argument modes, names,
//     defaults, comment) of every built-in function, aggregate and window
//     function whose call the binder resolves, and of the support
//     functions their pg_aggregate rows name (pgprocrows.go over
//     internal/pgproc's procrows.go, which tests/difftest's
//     TestProcRowsMatchPostgres generates and checks both ways), then
//     under OIDs from procOIDBase the library's overloads PostgreSQL has
//     no row of, the set-returning and record functions not listed yet
//     (proretset, prorows and OUT columns as PostgreSQL's), the
//     types' I/O functions, then the server's Go UDFs (udfprocs.go: schema
//     public, language c, a record-batch or batch UDF as RETURNS TABLE;
//     pg_depend's rows of a function using a table's row type and of the
//     row types' tables, dependRows).
//     A built-in returning a row has its PostgreSQL function's OUT
//     parameters and IN argument names (rows.go's outParams).
//     A built-in's provolatile, proisstrict, proparallel, prosrc,
//     language and cost are PostgreSQL 15's (internal/pgproc, generated from
//     it by TestProcPropsMatchPostgres, which also checks it), and
//     pg_get_functiondef writes them as ruleutils.c does (functiondef.go);
//     Volatility and IOVolatility give the planner (lower's plan-time
//     folding) a signature's and a type's I/O functions' provolatile.
//     aclitem[] (NULL except the schemas' default ACLs), pg_node_tree and
//     anyarray columns carry their text (types.AclItem, PgNodeTree,
//     AnyArray); "char", int2vector and oidvector columns have
//     PostgreSQL's types (types.QChar, Int2Vector, OidVector).
//   - information_schema's character_data columns are varchar without a
//     limit (as clients see PostgreSQL's domain over varchar); its
//     sql_identifier, cardinal_number and time_stamp columns are name,
//     int4 and timestamptz (the domains' base types, which is also what
//     PostgreSQL sends in RowDescription).
//   - Tables have no TOAST table (reltoastrelid 0) and relfrozenxid 0;
//     pg_attribute lists their system columns (ctid, xmin, cmin, xmax,
//     cmax, tableoid; attnum -1 to -6) as PostgreSQL does. The catalog
//     relations themselves have no row type (reltype 0).
//   - pg_settings is a fixed list of server defaults (with PostgreSQL 15's
//     descriptions, settingdescs.go), not the session's current values;
//     pg_show_all_settings() is that relation (the binder reads it, as
//     PostgreSQL defines pg_settings as SELECT * FROM that function).
//   - Columns of PostgreSQL's catalog-only types xid, inet and pg_lsn
//     have those types on the wire (types.Xid, Inet, PgLsn: the values'
//     text in both directions, PostgreSQL's binary forms), so that
//     drivers decode pg_stat_activity.client_addr as an address; inet and
//     pg_lsn values compare as text.
//   - pg_stat_activity, pg_stat_progress_copy (activity.go) and the
//     counters of pg_stat_user_tables, pg_stat_database and the
//     pg_stat_get_* functions (stattables.go) come from the server's
//     session registry (Options.Activity, package server/activity): a
//     table's counters are its scans and the rows statements returned or
//     wrote since the server started, n_live_tup the store's estimate;
//     reltuples stays -1. pg_relation_size and its kin read the store's
//     bytes on disk (sizes.go: fluss.TableSizer). pg_database lists the
//     server's database and those sessions connected to (databases.go).
//   - The table comment (obj_description) is the table's COMMENT if it has
//     one, else a summary of its Fluss properties: "fluss primary-key
//     table, 4 buckets, bucket key (id)". Other objects' COMMENT ON texts
//     come from the metadata store (CommentSource; comments.go), in
//     pg_description and pg_shdescription (roles); the built-in types'
//     are PostgreSQL 15's (typecomments.go, generated).
//   - REPLICA IDENTITY, CLUSTER ON, storage parameters and ALTER COLUMN
//     SET STATISTICS / STORAGE / COMPRESSION are table metadata shown in
//     pg_class, pg_index and pg_attribute (pgstorage.go).
//   - pg_stat_ssl shows the asking connection only (its TLS version,
//     cipher and key bits; no client certificates, so no DNs), and so does
//     pg_stat_gssapi (never GSSAPI); pg_statio_all_tables is
//     pg_statio_user_tables (sqlgate serves no system tables' counters);
//     a PostgreSQL-partitioned table's partitions show in pg_class,
//     pg_inherits, pg_partition_tree and pg_partition_ancestors, and
//     its primary key as a partitioned index with each partition's own
//     index and constraint (pg_class, pg_index, pg_indexes,
//     pg_constraint, pg_inherits, pg_depend), as pg_dump reads them
//     (pgpartitions.go; Fluss PARTITIONED BY tables' are no relations).
//   - pg_prepared_statements (prepared.go) lists the asking session's
//     statements (functions.Session.Prepared); every execution counts as
//     a generic plan, since sqlgate plans a statement once.
//   - Materialized views (matviews.go) show in pg_class (relkind m) and
//     pg_matviews; their indexes are not in pg_class / pg_index.
//   - Every relation has the tableoid system column (package binder reads
//     it as the relation's regclass OID), which pg_dump reads from each
//     catalog it lists. pg_roles and pg_authid list PostgreSQL 15's
//     predefined roles (pg_monitor ... pg_database_owner) after the
//     server's; pg_init_privs has initdb's ACLs of pg_catalog and public.
//     pg_get_expr and pg_get_constraintdef qualify user types and
//     relations outside the session's search path, as PostgreSQL's do.
//   - pg_operator and pg_cast (operators.go, casts.go) are PostgreSQL
//     15's rows of the operators and casts sqlgate binds (internal/pgoper,
//     generated by binding each of PostgreSQL's), with the operators'
//     comments in pg_description; oprrest and oprjoin are 0 (no
//     selectivity estimators). The operators' and casts' functions are
//     pg_proc rows under PostgreSQL's OIDs (a library row of the same
//     signature takes that OID). pg_opfamily, pg_opclass, pg_amop and
//     pg_amproc (opclasses.go) are PostgreSQL 15's rows of the families
//     (btree, hash, gist, gin, spgist, brin) whose every operator sqlgate
//     binds (internal/pgoper), their support functions pg_proc rows, and
//     pg_index.indclass names the key columns' default classes (an
//     enum's enum_ops); pg_collation, pg_ts_parser, pg_ts_template,
//     pg_ts_config, pg_ts_config_map and pg_ts_dict (collations.go) list
//     the collations and text search objects sqlgate has, which
//     regcollation, regconfig and regdictionary name, and the parser's
//     and templates' functions as pg_proc rows.
//   - pg_proc lists the library's overloads PostgreSQL has no row of only
//     under names PostgreSQL has functions of: the engine's pg__ helpers,
//     the reg* types' cast helpers and the grammar's constructs
//     (coalesce, current_date ...) are not listed. A built-in's
//     proargdefaults is PostgreSQL's node tree text (internal/pgproc's
//     argdefaults.go); a user function's is a node of its defaults' text
//     (exprs.go), which pg_get_expr prints as PostgreSQL's list.
//   - pg_proc's argument names,
//     pg_trigger, pg_policy ... are empty or minimal: sqlgate has no
//     triggers, policies or partitions.
//   - The server-file and build views (sysviews.go): pg_available_extensions
//     and pg_available_extension_versions list plpgsql alone;
//     pg_file_settings, pg_hba_file_rules and pg_ident_file_mappings are
//     empty (sqlgate reads no postgresql.conf, pg_hba.conf or
//     pg_ident.conf: its command line and users file configure it),
//     pg_config is empty (it is not a build of PostgreSQL's sources) and
//     pg_shmem_allocations is empty (it allocates no shared memory).
//   - Sequences, column defaults, identity columns and CHECK constraints
//     (coldefs.go) come from the store's sequences and the tables'
//     metadata (fluss.TableMeta); pg_depend has PostgreSQL's rows for a
//     sequence a column owns ('a' serial, 'i' identity) and for a default
//     drawing from a sequence ('n'), which pg_dump orders its output by.
//     A sequence read as a relation (SELECT last_value, is_called FROM s)
//     is a one-row relation of its state (seqrelation.go; log_cnt 0). Their
//     expressions print as PostgreSQL's deparser prints them (exprs.go
//     over package deparse: pg_get_constraintdef, pg_get_expr,
//     column_default, generation_expression, check_constraints), or as
//     written where the deparser does not reproduce one; adbin is
//     {EXPR :adnum n :text ...}, not a node tree.
//     A column ADD COLUMN ... DEFAULT gave a missing value shows it in
//     pg_attribute's atthasmissing / attmissingval (missing.go).
//   - FOREIGN KEY constraints (fkeys.go): pg_constraint (contype 'f'),
//     pg_get_constraintdef, information_schema's table_constraints,
//     key_column_usage, referential_constraints and
//     constraint_column_usage, and relhastriggers (which psql's \d asks
//     before listing them), from the tables' metadata.
//   - UNIQUE constraints and unique indexes (unique.go): pg_class (relkind
//     'i'), pg_attribute, pg_index, pg_indexes, pg_constraint (contype
//     'u'), pg_get_indexdef, pg_get_constraintdef, regclass names and
//     information_schema's constraint views; their index tables
//     (fluss.IndexTablePath) are listed nowhere.
//   - CREATE INDEX's other indexes (indexes.go, meta.Index through
//     Options.Views' IndexSource): pg_class, pg_attribute, pg_index,
//     pg_indexes, pg_get_indexdef and regclass names, printed as
//     PostgreSQL prints them.
//   - Views (views.go) show their definition as written, not re-printed;
//     they are not updatable, and pg_rewrite / pg_depend have no rows.
package pgcatalog
