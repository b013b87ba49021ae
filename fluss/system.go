package fluss

// SystemDatabase is the database where sqlgate keeps its own tables on a
// Fluss cluster (the metadata store's, package meta). It is reserved:
// catalog listings (pg_catalog, information_schema, psql's \dn and \dt)
// leave it out, and SQL does not name it.
const SystemDatabase = "sqlgate_system"
