package fluss

// SystemDatabase is the database where sqlgate keeps its own tables on a
// Fluss cluster (the metadata store's, package meta). It is reserved:
// catalog listings (pg_catalog, information_schema, psql's \dn and \dt)
// leave it out, and SQL does not name it.
const SystemDatabase = "sqlgate_system"

// ReservedPropertyPrefix begins the custom properties sqlgate keeps for
// itself in a table (the owner, meta.OwnerProperty): they are not table
// properties to SQL, so listings do not show them, ALTER TABLE does not
// set them, and they stay in CustomProperties (Fluss refuses unknown keys
// among a table's properties).
const ReservedPropertyPrefix = "sqlgate."

// OwnerProperty is the custom property naming a table's owner, written
// with the table by CREATE TABLE so that the owner commits atomically
// with it on either store (package meta keeps the grants).
const OwnerProperty = ReservedPropertyPrefix + "owner"

// GrantsFromProperty is the custom property of a table re-created empty
// (TRUNCATE of a log table: a new table id) that names the id of the
// table it replaced, whose grants it takes: written with the new table,
// so that a crash before the grants move (package meta keys them by table
// id) loses none; meta's Reconcile moves them when the server starts.
const GrantsFromProperty = ReservedPropertyPrefix + "grants_from"

// PrimaryKeyNameProperty holds the name of a table's primary-key
// constraint that is not PrimaryKeyName's table_pkey (TableInfo's
// PrimaryKeyName reads it): pg_dump adds a key named pk_t so.
const PrimaryKeyNameProperty = ReservedPropertyPrefix + "pkey_name"
