"""SQLAlchemy's metadata.create_all and reflection of a schema with column
defaults, a sequence, SERIAL and identity keys, a CHECK constraint and
UUID, JSONB and NUMERIC columns (issue 36): creates the tables, writes rows
through the ORM-level Core (defaults filled by the server), reflects them
and reads them back, printing one "== step" section each; the Go test runs
it against sqlgate and PostgreSQL 15 and compares the outputs. Volatile
values (uuids, timestamps) are printed as their shape only.

DDL runs in autocommit mode, each statement committed on its own
(alembic_history.py runs DDL inside psycopg2's transaction block).

Usage: python3 create_all.py SQLALCHEMY_URL
"""
import re
import sys

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql as pg


def show(value):
    if isinstance(value, dict):
        return "{" + ", ".join("%s: %s" % (k, show(value[k])) for k in sorted(value)) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if isinstance(value, sa.types.TypeEngine):
        return repr(value)
    return repr(value)


def section(name, call):
    print("== " + name)
    try:
        result = call()
    except sa.exc.DBAPIError as e:
        orig = e.orig
        print("ERROR %s: %s" % (getattr(orig, "pgcode", None), str(orig).strip().splitlines()[0]))
        return
    except sa.exc.NoSuchTableError as e:
        print("NoSuchTableError %s" % e)
        return
    if isinstance(result, list):
        for item in result:
            print(show(item))
    else:
        print(show(result))


UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def main():
    engine = sa.create_engine(sys.argv[1])
    # DDL in autocommit: each statement commits on its own
    # (alembic_history.py covers DDL in a block and its ROLLBACK)
    ddl = sa.create_engine(sys.argv[1], isolation_level="AUTOCOMMIT")
    md = sa.MetaData()
    order_seq = sa.Sequence("order_no_seq", start=1000, increment=10, metadata=md)
    sa.Table(
        "sa_customer", md,
        sa.Column("id", sa.Integer, primary_key=True),  # SERIAL
        sa.Column("name", sa.String(40), nullable=False, server_default="anon"),
        sa.Column("active", sa.Boolean, server_default=sa.true()),
    )
    sa.Table(
        "sa_order", md,
        sa.Column("id", pg.UUID(as_uuid=False), primary_key=True, server_default=sa.text("gen_random_uuid()")),
        sa.Column("order_no", sa.BigInteger, order_seq, server_default=order_seq.next_value(), nullable=False),
        sa.Column("doc", pg.JSONB, server_default=sa.text("'{}'::jsonb")),
        sa.Column("amount", sa.Numeric(12, 2), nullable=False),
        sa.Column("qty", sa.Integer, server_default="1"),
        sa.Column("created", sa.DateTime(timezone=True), server_default=sa.func.now()),
        sa.CheckConstraint("qty > 0", name="qty_positive"),
    )
    sa.Table(
        "sa_item", md,
        sa.Column("id", sa.BigInteger, sa.Identity(always=True, start=5), primary_key=True),
        sa.Column("label", sa.Text),
    )
    section("create_all", lambda: md.create_all(ddl))
    with engine.begin() as conn:
        t = md.tables
        section("insert customers", lambda: [conn.execute(t["sa_customer"].insert().values(name="ann")).inserted_primary_key[0],
                                              conn.execute(t["sa_customer"].insert().values()).inserted_primary_key[0]])
    with engine.begin() as conn:
        section("insert orders", lambda: [bool(UUID_RE.match(str(conn.execute(t["sa_order"].insert().values(amount=12.5, doc={"a": [1, 2]})).inserted_primary_key[0]))),
                                           bool(UUID_RE.match(str(conn.execute(t["sa_order"].insert().values(amount=3, qty=2)).inserted_primary_key[0])))])
    with engine.begin() as conn:
        section("insert items", lambda: [conn.execute(t["sa_item"].insert().values(label="x")).inserted_primary_key[0]])
    with engine.begin() as conn:
        section("check violation", lambda: conn.execute(t["sa_order"].insert().values(amount=1, qty=0)))
    with engine.connect() as conn:
        section("customers", lambda: [tuple(r) for r in conn.execute(sa.text("SELECT id, name, active FROM sa_customer ORDER BY id"))])
        section("orders", lambda: [(r.order_no, r.doc, str(r.amount), r.qty, r.created is not None) for r in
                                   conn.execute(sa.text("SELECT order_no, doc, amount, qty, created FROM sa_order ORDER BY order_no"))])
    insp = sa.inspect(engine)
    section("get_sequence_names()", lambda: sorted(insp.get_sequence_names()))
    section("has_sequence('order_no_seq')", lambda: insp.has_sequence("order_no_seq"))
    for table in ("sa_customer", "sa_order", "sa_item"):
        insp = sa.inspect(engine)
        section("get_columns(%r)" % table, lambda: insp.get_columns(table))
        section("get_pk_constraint(%r)" % table, lambda: insp.get_pk_constraint(table))
        section("get_check_constraints(%r)" % table, lambda: insp.get_check_constraints(table))
    md2 = sa.MetaData()
    section("reflect", lambda: [(name, [c.name for c in tbl.columns]) for name, tbl in sorted(md2.tables.items())]
            if md2.reflect(engine, only=["sa_customer", "sa_order", "sa_item"]) is None else None)
    section("drop_all", lambda: md.drop_all(ddl))
    section("get_sequence_names() after drop_all", lambda: sorted(insp.get_sequence_names()))
    engine.dispose()
    ddl.dispose()


if __name__ == "__main__":
    main()
