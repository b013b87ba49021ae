"""Prints what SQLAlchemy's inspector (over psycopg2) answers about the test
tables: get_schema_names, get_table_names, get_columns, get_pk_constraint
and get_indexes, one "== call" section each. A failing call prints its
SQLSTATE and message instead, so the other calls still run. The Go test
runs it against sqlgate and PostgreSQL 15 and compares the outputs.

Usage: python3 inspect_tables.py SQLALCHEMY_URL
"""
import sys

import sqlalchemy


def show(value):
    """A stable text form: dicts sorted by key, SQL types by their repr."""
    if isinstance(value, dict):
        return "{" + ", ".join("%s: %s" % (k, show(value[k])) for k in sorted(value)) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if isinstance(value, sqlalchemy.types.TypeEngine):
        return repr(value)
    return repr(value)


def section(name, call):
    print("== " + name)
    try:
        result = call()
    except sqlalchemy.exc.DBAPIError as e:
        orig = e.orig
        print("ERROR %s: %s" % (getattr(orig, "pgcode", None), str(orig).strip().replace("\n", " ")))
        return
    if isinstance(result, list):
        for item in result:
            print(show(item))
    else:
        print(show(result))


def main():
    engine = sqlalchemy.create_engine(sys.argv[1])
    insp = sqlalchemy.inspect(engine)
    section("get_schema_names()", insp.get_schema_names)
    # get_table_names' query has no ORDER BY: its order is the server's
    section("get_table_names()", lambda: sorted(insp.get_table_names()))
    section("get_table_names(schema='public')", lambda: sorted(insp.get_table_names(schema="public")))
    section("get_view_names()", insp.get_view_names)
    for table in ("every_type", "events"):
        # every call with a fresh inspector: the inspector caches answers
        insp = sqlalchemy.inspect(engine)
        section("get_columns(%r)" % table, lambda: insp.get_columns(table))
        section("get_pk_constraint(%r)" % table, lambda: insp.get_pk_constraint(table))
        section("get_indexes(%r)" % table, lambda: insp.get_indexes(table))
        section("get_unique_constraints(%r)" % table, lambda: insp.get_unique_constraints(table))
        section("get_foreign_keys(%r)" % table, lambda: insp.get_foreign_keys(table))
        section("get_table_comment(%r)" % table, lambda: insp.get_table_comment(table))
    engine.dispose()


if __name__ == "__main__":
    main()
