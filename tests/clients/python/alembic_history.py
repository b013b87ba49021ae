"""An Alembic migration history of five revisions (issue 36), run with
`upgrade head` and `downgrade base` as Alembic runs them on PostgreSQL:
transactional_ddl, so psycopg2 opens a transaction block and every
revision's DDL and the alembic_version row changes run inside it
(engine/txddl.go). Prints one "== step" section each; the Go test runs it
against sqlgate and PostgreSQL 15 and compares the outputs.

The revisions: 1 creates two tables, 2 adds a column and widens another
(its downgrade narrows it back and drops the column: table rewrites on
sqlgate), 3 creates an index, 4 sets a table comment, 5 drops a table. The
"rename attempt" section renames a column and back in one transaction.

Usage: python3 alembic_history.py SQLALCHEMY_URL
"""
import os
import shutil
import sys
import tempfile

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.operations import Operations

from create_all import section

ENV_PY = '''
from alembic import context
import sqlalchemy as sa

config = context.config
engine = sa.create_engine(config.get_main_option("sqlalchemy.url"), poolclass=sa.pool.NullPool)
with engine.connect() as connection:
    context.configure(connection=connection, target_metadata=None)
    with context.begin_transaction():
        context.run_migrations()
'''

HEADER = '''
from alembic import op
import sqlalchemy as sa

revision = %r
down_revision = %r
branch_labels = None
depends_on = None
'''

REVISIONS = [
    ("r1", None, '''
def upgrade():
    op.create_table(
        "account",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("name", sa.String(40), nullable=False),
    )
    op.create_table(
        "legacy",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("note", sa.Text),
    )


def downgrade():
    op.drop_table("legacy")
    op.drop_table("account")
'''),
    ("r2", "r1", '''
def upgrade():
    op.add_column("account", sa.Column("email", sa.String(100), nullable=True))
    op.alter_column("account", "name", type_=sa.String(80), existing_nullable=False)


def downgrade():
    # (sqlgate rewrites the table for both: engine/rewrite.go)
    op.alter_column("account", "name", type_=sa.String(40), existing_nullable=False)
    op.drop_column("account", "email")
'''),
    ("r3", "r2", '''
def upgrade():
    op.create_index("ix_account_email", "account", ["email"])


def downgrade():
    op.drop_index("ix_account_email", table_name="account")
'''),
    ("r4", "r3", '''
def upgrade():
    op.create_table_comment("account", "customer accounts")


def downgrade():
    op.drop_table_comment("account", existing_comment="customer accounts")
'''),
    ("r5", "r4", '''
def upgrade():
    op.drop_table("legacy")


def downgrade():
    op.create_table(
        "legacy",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("note", sa.Text),
    )
'''),
]


def schema(engine):
    """The public tables as SQLAlchemy reflects them."""
    insp = sa.inspect(engine)
    out = []
    for t in sorted(insp.get_table_names(schema="public")):
        cols = ", ".join("%s %s%s" % (c["name"], c["type"].compile(dialect=engine.dialect),
                                      "" if c["nullable"] else " NOT NULL")
                         for c in insp.get_columns(t, schema="public"))
        out.append("%s (%s) pk=%s" % (t, cols, insp.get_pk_constraint(t, schema="public")["constrained_columns"]))
    return out


def comment(engine):
    return sa.inspect(engine).get_table_comment("account", schema="public")["text"]


def version(engine):
    with engine.connect() as c:
        return [r[0] for r in c.execute(sa.text("SELECT version_num FROM alembic_version"))]


def rename_attempt(engine):
    """ALTER TABLE ... RENAME COLUMN through Alembic's op, a new table and a
    new column in one transaction, then a ROLLBACK, as a failed migration
    ends: the schema after it is the schema before (engine/txddl.go)."""
    with engine.connect() as c:
        tx = c.begin()
        try:
            ops = Operations(MigrationContext.configure(c))
            ops.alter_column("account", "name", new_column_name="full_name")
            ops.add_column("account", sa.Column("nickname", sa.String(20)))
            ops.create_table("attempt", sa.Column("id", sa.Integer, primary_key=True))
            cols = [col["name"] for col in sa.inspect(c).get_columns("account", schema="public")]
            return ["renamed"] + cols
        finally:
            tx.rollback()


def main():
    url = sys.argv[1]
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    work = tempfile.mkdtemp(prefix="alembic-")
    try:
        os.makedirs(os.path.join(work, "versions"))
        with open(os.path.join(work, "env.py"), "w") as f:
            f.write(ENV_PY)
        for rev, down, body in REVISIONS:
            with open(os.path.join(work, "versions", rev + ".py"), "w") as f:
                f.write(HEADER % (rev, down) + body)
        cfg = Config()
        cfg.set_main_option("script_location", work)
        cfg.set_main_option("sqlalchemy.url", url)

        section("upgrade head", lambda: command.upgrade(cfg, "head"))
        section("version after upgrade", lambda: version(engine))
        section("schema after upgrade", lambda: schema(engine))
        section("comment after upgrade", lambda: comment(engine))
        section("indexes after upgrade", lambda: [(i["name"], i["column_names"]) for i in sa.inspect(engine).get_indexes("account")] or "none")
        section("rename attempt", lambda: rename_attempt(engine))
        section("schema after the rename attempt", lambda: schema(engine))
        section("downgrade to r2", lambda: command.downgrade(cfg, "r2"))
        section("schema at r2", lambda: schema(engine))
        section("comment at r2", lambda: comment(engine))
        section("downgrade base", lambda: command.downgrade(cfg, "base"))
        section("version after downgrade", lambda: version(engine))
        section("schema after downgrade", lambda: schema(engine))
        section("upgrade head again", lambda: command.upgrade(cfg, "head"))
        section("schema after the second upgrade", lambda: schema(engine))
        section("downgrade base again", lambda: command.downgrade(cfg, "base"))
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
