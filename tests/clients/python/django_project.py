"""A Django project run as a team would run it (issue 36's next tool):
`migrate` of the contrib apps (contenttypes, auth, admin, sessions) and of a
small app whose models have foreign keys (DEFERRABLE INITIALLY DEFERRED),
unique and check constraints, LIKE indexes (varchar_pattern_ops and
text_pattern_ops), JSONField, DecimalField, DateTimeField with time zones,
UUIDField and ArrayField; the ORM's queries (lookups, annotations,
subqueries, window functions, select_related / prefetch_related,
bulk_create with RETURNING, update_or_create, select_for_update, atomic
blocks with savepoints, server-side cursors of .iterator()); Django's own
introspection and `inspectdb`; a migration that renames and alters fields
and adds a column, rolled back; a migration that fails half-way. Prints one
"== step" section each; the Go test (django_test.go) runs it against sqlgate
and PostgreSQL 15 and compares.

Run it with the Python of the Django virtualenv that
scripts/install-test-deps.sh makes (Django with psycopg2-binary).

Usage: python django_project.py HOST PORT [USER DATABASE]
"""
import datetime
import decimal
import io
import os
import shutil
import sys
import tempfile
import uuid

MODELS = '''
import uuid

from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q


class Category(models.Model):
    name = models.CharField(max_length=50, unique=True)
    slug = models.SlugField(max_length=50)
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="children")


class Product(models.Model):
    code = models.UUIDField(default=uuid.uuid4, unique=True)
    category = models.ForeignKey(Category, on_delete=models.CASCADE, related_name="products")
    name = models.CharField(max_length=100, db_index=True)
    description = models.TextField(blank=True, db_index=True)
    price = models.DecimalField(max_digits=10, decimal_places=2)
    stock = models.IntegerField(default=0)
    attrs = models.JSONField(default=dict)
    tags = ArrayField(models.CharField(max_length=20), default=list, blank=True)
    created = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["category", "name"], name="shop_product_category_name_uniq"),
            models.CheckConstraint(condition=Q(price__gte=0), name="shop_product_price_nonneg"),
        ]
        indexes = [models.Index(fields=["created"], name="shop_product_created_idx")]


class Order(models.Model):
    product = models.ForeignKey(Product, on_delete=models.PROTECT, related_name="orders")
    quantity = models.PositiveIntegerField()
    placed = models.DateTimeField()
    note = models.CharField(max_length=200, null=True, blank=True)
'''

# The second migration: a rename, a wider column, a NOT NULL column added
# with a default (Django sets the default, then drops it), a nullable
# column added.
MIGRATION_2 = '''
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("shop", "0001_initial")]

    operations = [
        migrations.RenameField("product", "stock", "on_hand"),
        migrations.AlterField("category", "name", models.CharField(max_length=80, unique=True)),
        migrations.AddField("order", "channel", models.CharField(max_length=10, default="web")),
        migrations.AddField("product", "rating", models.DecimalField(max_digits=3, decimal_places=1, null=True)),
    ]
'''

# A migration that fails after its first operations: on PostgreSQL the
# migration's transaction takes the new table and column with it.
MIGRATION_FAILS = '''
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("shop", "0002_change")]

    operations = [
        migrations.CreateModel("Audit", [("id", models.BigAutoField(primary_key=True)), ("what", models.TextField())]),
        migrations.AddField("category", "weight", models.IntegerField(null=True)),
        migrations.RunSQL("SELECT 1/0"),
    ]
'''

# A nullable column made NOT NULL with a default: Django sets the
# default, fills the NULLs with an UPDATE, sets NOT NULL and drops the
# default, all in the migration's transaction.
MIGRATION_3 = '''
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("shop", "0002_change")]

    operations = [
        migrations.AlterField("order", "note", models.CharField(max_length=200, default="", blank=True)),
    ]
'''


def setup(host, port, user, dbname, tmp):
    app = os.path.join(tmp, "shop")
    os.makedirs(os.path.join(app, "migrations"))
    for path, text in [("__init__.py", ""), ("models.py", MODELS), (os.path.join("migrations", "__init__.py"), "")]:
        with open(os.path.join(app, path), "w") as f:
            f.write(text)
    sys.path.insert(0, tmp)
    from django.conf import settings
    settings.configure(
        SECRET_KEY="sqlgate-test",
        USE_TZ=True,
        TIME_ZONE="UTC",
        INSTALLED_APPS=[
            "django.contrib.contenttypes",
            "django.contrib.auth",
            "django.contrib.admin",
            "django.contrib.sessions",
            "django.contrib.messages",
            "django.contrib.postgres",
            "shop",
        ],
        DATABASES={"default": {
            "ENGINE": "django.db.backends.postgresql",
            "HOST": host, "PORT": port, "USER": user, "PASSWORD": "", "NAME": dbname,
            "OPTIONS": {"sslmode": "disable"},
        }},
        DEFAULT_AUTO_FIELD="django.db.models.BigAutoField",
    )
    import django
    django.setup()
    return app


def error_text(e):
    """The SQLSTATE and first line of a database error, or the exception."""
    cause = e.__cause__ if getattr(e, "__cause__", None) is not None else e
    code = getattr(cause, "pgcode", None)
    if code is not None:
        return "ERROR %s: %s" % (code, str(cause).strip().splitlines()[0])
    return "%s: %s" % (type(e).__name__, str(e).strip().splitlines()[0] if str(e).strip() else "")


def show(value):
    if isinstance(value, dict):
        return "{" + ", ".join("%s: %s" % (k, show(value[k])) for k in sorted(value, key=str)) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if isinstance(value, uuid.UUID):
        return "<uuid>"
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    return repr(value)


def section(name, call):
    from django.db import DatabaseError, connection
    print("== " + name)
    sys.stdout.flush()
    try:
        result = call()
    except (DatabaseError, Exception) as e:  # noqa: B014 (a failed step prints its error and the run goes on)
        print(error_text(e))
        # An error inside a transaction the step opened is the step's; a
        # broken connection is reset so the next step starts clean.
        if connection.in_atomic_block is False and connection.connection is not None:
            try:
                connection.rollback()
            except Exception:
                connection.close()
        return
    if isinstance(result, list):
        if not result:
            print("(none)")
        for item in result:
            print(show(item))
    elif result is not None:
        print(show(result))


def command(*args, **kwargs):
    from django.core.management import call_command
    out = io.StringIO()
    call_command(*args, stdout=out, **kwargs)
    return [line.rstrip() for line in out.getvalue().splitlines() if line.strip()]


def migrate(*args):
    """Runs migrate and returns its lines; a failure is the last line."""
    from django.core.management import call_command
    out = io.StringIO()
    try:
        call_command("migrate", *args, stdout=out, skip_checks=True, verbosity=1)
        tail = []
    except Exception as e:
        tail = [error_text(e)]
    lines = [line.strip() for line in out.getvalue().splitlines()]
    return [line for line in lines if line.startswith(("Applying", "Unapplying", "No migrations"))] + tail


def ours(name):
    return name.startswith(("auth_", "django_", "shop_"))


def tables():
    from django.db import connection
    with connection.cursor() as cur:
        return sorted("%s %s" % (t.name, t.type) for t in connection.introspection.get_table_list(cur) if ours(t.name))


def columns(prefix):
    from django.db import connection
    out = []
    with connection.cursor() as cur:
        for t in sorted(t.name for t in connection.introspection.get_table_list(cur) if t.name.startswith(prefix)):
            for c in connection.introspection.get_table_description(cur, t):
                out.append("%s.%s %s %s size=%s prec=%s scale=%s null=%s default=%s auto=%s" % (
                    t, c.name, field_type(c), c.type_code,
                    c.internal_size, c.precision, c.scale, c.null_ok, c.default, c.is_autofield))
    return out


def field_type(c):
    """Django's field for a column's type OID (arrays have none)."""
    from django.db import connection
    try:
        return connection.introspection.get_field_type(c.type_code, c)
    except KeyError:
        return "?"


def constraints(prefix, want_indexes=False):
    """The constraints of the tables named prefix..., or their plain
    indexes (want_indexes)."""
    from django.db import connection
    out = []
    with connection.cursor() as cur:
        for t in sorted(t.name for t in connection.introspection.get_table_list(cur) if t.name.startswith(prefix)):
            cons = connection.introspection.get_constraints(cur, t)
            for name in sorted(cons):
                c = cons[name]
                if c.get("index") and not (c.get("unique") or c.get("primary_key")):
                    if want_indexes:
                        out.append("%s %s cols=%s type=%s orders=%s" % (t, name, c["columns"], c["type"], c["orders"]))
                    continue
                if want_indexes:
                    continue
                kinds = [k for k in ("primary_key", "unique", "check", "index") if c.get(k)]
                fk = c.get("foreign_key")
                out.append("%s %s cols=%s %s%s" % (t, name, c["columns"], "+".join(kinds), " fk=%s" % (fk,) if fk else ""))
    return out


def sequences():
    from django.db import connection
    with connection.cursor() as cur:
        return ["%s %s" % (t, connection.introspection.get_sequences(cur, t))
                for t in ("shop_category", "shop_product", "shop_order", "auth_user")]


def seed():
    from shop.models import Category, Order, Product
    utc = datetime.timezone.utc
    tools = Category.objects.create(name="Tools", slug="tools")
    garden = Category.objects.create(name="Garden", slug="garden", parent=tools)
    toys = Category.objects.create(name="Toys", slug="toys")
    rows = [
        (tools, "Hammer", "steel head, wooden handle", "12.50", 10, {"color": "red", "size": "M"}, ["sale", "new"], 1),
        (tools, "Wrench", "adjustable", "8.99", 0, {"color": "blue"}, [], 2),
        (tools, "Saw", "", "21.00", 4, {}, ["sale"], 3),
        (garden, "Gardening gloves", "Size M, green", "5.25", 30, {"color": "green", "size": "M"}, ["new"], 4),
        (garden, "Garden hose", "15 m", "19.99", 7, {"length": 15}, [], 5),
        (toys, "Kite", "Diamond kite", "14.00", 3, {"color": "red"}, ["sale", "gift"], 6),
    ]
    made = Product.objects.bulk_create([
        Product(category=c, name=n, description=d, price=decimal.Decimal(p), stock=s, attrs=a, tags=tg,
                created=datetime.datetime(2024, 1, day, 10, 30, tzinfo=utc))
        for c, n, d, p, s, a, tg, day in rows])
    orders = []
    for i, (prod, qty) in enumerate([(0, 2), (0, 1), (1, 5), (3, 10), (3, 4), (4, 1), (5, 2), (0, 3)]):
        orders.append(Order(product=made[prod], quantity=qty,
                            placed=datetime.datetime(2024, 2, 1 + i, 8 + i, 0, tzinfo=datetime.timezone(datetime.timedelta(hours=2))),
                            note=None if i % 3 else "gift wrap"))
    made_orders = Order.objects.bulk_create(orders)
    return ["products %s" % [p.pk for p in made], "orders %s" % [o.pk for o in made_orders]]


def queries():
    from django.contrib.postgres.aggregates import ArrayAgg, StringAgg
    from django.db import transaction
    from django.db.models import (Avg, Case, Count, DecimalField, Exists, F, IntegerField, Max, Min, OuterRef,
                                  Prefetch, Q, Subquery, Sum, Value, When, Window)
    from django.db.models.functions import Coalesce, ExtractYear, Lower, Rank, RowNumber, TruncDate, Upper
    from shop.models import Category, Order, Product

    P, C, O = Product.objects, Category.objects, Order.objects

    def names(qs):
        return [p.name for p in qs]

    yield "icontains", lambda: names(P.filter(name__icontains="GARD").order_by("id"))
    yield "startswith", lambda: names(P.filter(name__startswith="Ga").order_by("id"))
    yield "istartswith endswith", lambda: names(P.filter(Q(name__istartswith="h") | Q(description__endswith="kite")).order_by("id"))
    yield "in range", lambda: names(P.filter(id__in=[1, 3, 5, 99], price__range=(5, 20)).order_by("id"))
    yield "isnull exclude", lambda: list(O.exclude(note__isnull=True).order_by("id").values_list("id", flat=True))
    yield "category isnull", lambda: list(C.filter(parent__isnull=True).order_by("id").values_list("name", flat=True))
    yield "iexact regex", lambda: names(P.filter(Q(name__iexact="saw") | Q(name__regex=r"^W.*h$")).order_by("id"))
    yield "json key", lambda: names(P.filter(attrs__color="red").order_by("id"))
    yield "json has_key contains", lambda: names(P.filter(attrs__has_key="size", attrs__contains={"size": "M"}).order_by("id"))
    yield "json key in values", lambda: list(P.order_by("id").values_list("name", "attrs__color"))
    yield "array contains len index", lambda: [
        names(P.filter(tags__contains=["sale"]).order_by("id")),
        names(P.filter(tags__len=2).order_by("id")),
        names(P.filter(tags__0="new").order_by("id")),
        names(P.filter(tags__overlap=["gift", "new"]).order_by("id")),
    ]
    yield "datetime lookups", lambda: [
        list(O.filter(placed__date=datetime.date(2024, 2, 3)).values_list("id", flat=True)),
        list(O.filter(placed__year=2024, placed__month=2, placed__day__gte=6).order_by("id").values_list("id", flat=True)),
        list(O.filter(placed__hour=6).order_by("id").values_list("id", flat=True)),
    ]
    yield "trunc extract", lambda: list(O.annotate(d=TruncDate("placed"), y=ExtractYear("placed")).order_by("id").values_list("id", "d", "y")[:3])
    yield "annotate count sum avg", lambda: list(
        C.annotate(n=Count("products"), stock=Sum("products__stock"), avg=Avg("products__price"))
        .order_by("name").values_list("name", "n", "stock", "avg"))
    yield "annotate count distinct filter", lambda: list(
        C.annotate(orders=Count("products__orders", distinct=True),
                   sale=Count("products", filter=Q(products__tags__contains=["sale"])))
        .order_by("id").values_list("name", "orders", "sale"))
    yield "F expressions", lambda: list(
        P.annotate(value=F("price") * F("stock")).filter(value__gt=50).order_by("-value").values_list("name", "value"))
    yield "case when", lambda: list(P.annotate(level=Case(
        When(stock=0, then=Value("out")), When(stock__lt=5, then=Value("low")), default=Value("ok")))
        .order_by("id").values_list("name", "level"))
    yield "subquery outerref", lambda: list(P.annotate(
        last=Subquery(O.filter(product=OuterRef("pk")).order_by("-placed").values("placed")[:1]),
        qty=Coalesce(Subquery(O.filter(product=OuterRef("pk")).values("product").annotate(s=Sum("quantity")).values("s")), 0))
        .order_by("id").values_list("name", "last", "qty"))
    yield "exists", lambda: names(P.filter(Exists(O.filter(product=OuterRef("pk"), quantity__gte=3))).order_by("id"))
    yield "window", lambda: list(P.annotate(
        rank=Window(Rank(), partition_by=F("category"), order_by=F("price").desc()),
        rn=Window(RowNumber(), order_by=[F("created").asc()]),
        running=Window(Sum("stock"), partition_by=[F("category")], order_by=F("id").asc()))
        .order_by("id").values_list("name", "rank", "rn", "running"))
    yield "values group by", lambda: list(O.values("product__category__name").annotate(
        q=Sum("quantity"), first=Min("placed"), last=Max("placed")).order_by("product__category__name"))
    yield "values_list flat distinct", lambda: list(P.values_list("category__slug", flat=True).distinct().order_by("category__slug"))
    yield "select_related", lambda: ["%s/%s/%s" % (o.product.category.name, o.product.name, o.quantity)
                                     for o in O.select_related("product__category").order_by("id")]
    yield "prefetch_related", lambda: ["%s: %s" % (c.name, [p.name for p in c.products.all()]) for c in
                                       C.prefetch_related(Prefetch("products", queryset=P.order_by("name"))).order_by("id")]
    yield "string_agg array_agg", lambda: list(C.annotate(
        ns=StringAgg("products__name", delimiter=", ", order_by="products__name"),
        ids=ArrayAgg("products__id", order_by="-products__id")).order_by("id").values_list("name", "ns", "ids"))
    yield "aggregate", lambda: P.aggregate(n=Count("id"), total=Sum(F("price") * F("stock"), output_field=DecimalField()),
                                           lo=Min("price"), hi=Max("price"), avg=Avg("stock"))
    yield "lower upper order nulls", lambda: list(O.annotate(u=Upper("note"), l=Lower("product__name"))
                                                  .order_by(F("note").asc(nulls_last=True), "-id").values_list("id", "u", "l"))
    yield "count exists first last", lambda: [P.count(), P.filter(stock__gt=100).exists(), P.order_by("price").first().name,
                                              P.order_by("price").last().name]
    yield "iterator (server-side cursor)", lambda: [p.name for p in P.order_by("id").iterator(chunk_size=2)]
    yield "in subquery", lambda: names(P.filter(category__in=C.filter(name__startswith="T")).order_by("id"))

    def update_or_create():
        a, made_a = C.update_or_create(slug="books", defaults={"name": "Books"})
        b, made_b = C.update_or_create(slug="books", defaults={"name": "Books & more"})
        c, made_c = C.get_or_create(name="Toys", defaults={"slug": "x"})
        return [made_a, made_b, made_c, a.pk == b.pk, C.get(slug="books").name, c.slug]
    yield "update_or_create get_or_create", update_or_create

    def bulk_returning():
        made = P.bulk_create([
            Product(category_id=3, name="Ball", price=decimal.Decimal("3.50"), created=datetime.datetime(2024, 3, 1, tzinfo=datetime.timezone.utc)),
            Product(category_id=3, name="Yo-yo", price=decimal.Decimal("2.00"), tags=["new"], created=datetime.datetime(2024, 3, 2, tzinfo=datetime.timezone.utc)),
        ])
        return [(p.pk, p.name, p.stock, p.tags, p.code is not None) for p in made]
    yield "bulk_create returning", bulk_returning

    def bulk_update_conflict():
        P.bulk_update([Product(pk=7, name="Ball", price=decimal.Decimal("4.00"), stock=9)], ["price", "stock"])
        made = C.bulk_create([Category(name="Toys", slug="dup"), Category(name="Games", slug="games")],
                             update_conflicts=True, unique_fields=["name"], update_fields=["slug"])
        return [list(P.filter(pk=7).values_list("price", "stock")), len(made),
                list(C.order_by("id").values_list("name", "slug"))]
    yield "bulk_update bulk_create on conflict", bulk_update_conflict

    def update_f():
        n = P.filter(category__name="Tools").update(stock=F("stock") + 1, price=F("price") * Value(decimal.Decimal("1.10")))
        return [n, list(P.filter(category_id=1).order_by("id").values_list("stock", "price"))]
    yield "update with F", update_f

    def select_for_update():
        with transaction.atomic():
            rows = list(P.select_for_update().filter(stock__lt=5).order_by("id").values_list("name", flat=True))
            skip = list(P.select_for_update(skip_locked=True, of=("self",)).filter(pk=1).values_list("name", flat=True))
        return [rows, skip]
    yield "select_for_update", select_for_update

    def select_for_update_of():
        with transaction.atomic():
            return [o.product.name for o in O.select_related("product").select_for_update(nowait=True, of=("self", "product")).filter(pk=2)]
    yield "select_for_update of two tables", select_for_update_of

    def savepoints():
        from django.db import IntegrityError
        out = []
        with transaction.atomic():
            C.create(name="Outer", slug="outer")
            try:
                with transaction.atomic():
                    C.create(name="Inner", slug="inner")
                    C.create(name="Tools", slug="dup")
            except IntegrityError as e:
                out.append(error_text(e))
            with transaction.atomic():
                C.create(name="Inner2", slug="inner2")
            sid = transaction.savepoint()
            C.create(name="Gone", slug="gone")
            transaction.savepoint_rollback(sid)
        try:
            with transaction.atomic():
                C.create(name="Rolled", slug="rolled")
                raise RuntimeError("rollback")
        except RuntimeError:
            pass
        out.append(list(C.filter(slug__in=["outer", "inner", "inner2", "gone", "rolled"]).order_by("id").values_list("name", flat=True)))
        return out
    yield "atomic savepoints", savepoints

    def deferred_fk():
        # The foreign key is DEFERRABLE INITIALLY DEFERRED: the bad row is
        # accepted by its INSERT and refused at COMMIT.
        from django.db import IntegrityError
        out = []
        try:
            with transaction.atomic():
                O.create(product_id=999, quantity=1, placed=datetime.datetime(2024, 4, 1, tzinfo=datetime.timezone.utc))
                out.append("inserted")
        except IntegrityError as e:
            out.append(error_text(e))
        out.append(O.filter(product_id=999).count())
        return out
    yield "deferred foreign key", deferred_fk

    def check_constraints():
        from django.db import IntegrityError
        out = []
        for make in (lambda: P.create(category_id=1, name="Neg", price=decimal.Decimal("-1"), created=datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)),
                     lambda: O.create(product_id=1, quantity=-1, placed=datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)),
                     lambda: P.create(category_id=1, name="Hammer", price=decimal.Decimal("1"), created=datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc))):
            try:
                with transaction.atomic():
                    make()
                out.append("accepted")
            except IntegrityError as e:
                out.append(error_text(e))
        return out
    yield "check and unique constraints", check_constraints

    def protect_cascade():
        from django.db.models import ProtectedError
        out = []
        try:
            C.filter(name="Garden").delete()
        except ProtectedError as e:
            out.append("protected: %d" % len(e.protected_objects))
        O.filter(product__category__name="Garden").delete()
        out.append(C.filter(name="Garden").delete())
        out.append(list(C.filter(parent__isnull=False).values_list("name", flat=True)))
        return out
    yield "delete protect cascade", protect_cascade


def main():
    host, port = sys.argv[1], sys.argv[2]
    # (a user and database other than sqlgate's for runs by hand)
    user, dbname = (sys.argv[3:5] + ["sqlgate", "sqlgate"][len(sys.argv[3:5]):])
    tmp = tempfile.mkdtemp(prefix="sqlgate-django-")
    try:
        app = setup(host, port, user, dbname, tmp)
        section("makemigrations", lambda: command("makemigrations", "shop", verbosity=1, skip_checks=True)[:1])
        section("migrate", lambda: migrate())
        section("tables", tables)
        section("columns", lambda: columns("shop_"))
        section("constraints shop", lambda: constraints("shop_"))
        section("constraints contrib", lambda: constraints("auth_") + constraints("django_"))
        section("indexes shop", lambda: constraints("shop_", want_indexes=True))
        section("indexes contrib", lambda: constraints("auth_", want_indexes=True) + constraints("django_", want_indexes=True))
        section("sequences", sequences)
        section("content types", content_types)
        section("permissions", lambda: __import__("django.contrib.auth.models", fromlist=["x"]).Permission.objects.filter(content_type__app_label="shop").count())
        section("auth user session", auth_and_session)
        section("seed", seed)
        for name, call in queries():
            section(name, call)
        section("inspectdb", lambda: command("inspectdb", "shop_product")[7:])
        migrations = os.path.join(app, "migrations")
        write(migrations, "0002_change.py", MIGRATION_2)
        section("migrate 0002", lambda: migrate("shop"))
        section("columns after 0002", lambda: columns("shop_"))
        section("constraints after 0002", lambda: constraints("shop_"))
        section("rows after 0002", rows_after)
        write(migrations, "0003_fails.py", MIGRATION_FAILS)
        section("migrate 0003 fails", lambda: migrate("shop"))
        section("tables and category columns after the failed 0003", lambda: tables() + columns("shop_category"))
        os.remove(os.path.join(migrations, "0003_fails.py"))
        section("drop what the failed 0003 left", drop_leftovers)
        write(migrations, "0003_note.py", MIGRATION_3)
        section("migrate 0003 note not null", lambda: migrate("shop"))
        section("order columns after 0003", lambda: columns("shop_order"))
        section("showmigrations", lambda: command("showmigrations", "shop", skip_checks=True))
        section("migrate back to 0001", lambda: migrate("shop", "0001"))
        for table in ("shop_category", "shop_order", "shop_product"):
            section(table + " columns after rollback", lambda table=table: columns(table))
        section("constraints after rollback", lambda: constraints("shop_"))
        section("migrate shop zero", lambda: migrate("shop", "zero"))
        section("tables after zero", tables)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def auth_and_session():
    from django.contrib.auth import authenticate
    from django.contrib.auth.models import Group, Permission, User
    from django.contrib.sessions.backends.db import SessionStore
    u = User.objects.create_user("ada", "ada@example.com", "pw-12345", first_name="Ada")
    g = Group.objects.create(name="editors")
    g.permissions.set(Permission.objects.filter(codename__in=["add_product", "change_product"]))
    u.groups.add(g)
    ok = authenticate(username="ada", password="pw-12345") is not None
    s = SessionStore()
    s["user"] = u.pk
    s.create()
    back = SessionStore(session_key=s.session_key)
    return [ok, sorted(User.objects.get(username="ada").get_all_permissions()), back["user"],
            User.objects.filter(email__iexact="ADA@example.com").count()]


def write(folder, name, text):
    with open(os.path.join(folder, name), "w") as f:
        f.write(text)


def drop_leftovers():
    """What a failed migration left (nothing on PostgreSQL), so that the
    steps after it start from the same schema."""
    from django.db import connection
    with connection.cursor() as cur:
        cur.execute("DROP TABLE IF EXISTS shop_audit")
        cur.execute("ALTER TABLE shop_category DROP COLUMN IF EXISTS weight")


def content_types():
    from django.contrib.contenttypes.models import ContentType
    return list(ContentType.objects.order_by("app_label", "model").values_list("app_label", "model"))


def rows_after():
    from django.db import connection
    with connection.cursor() as cur:
        cur.execute("SELECT id, name, slug FROM shop_category ORDER BY id")
        cats = cur.fetchall()
        cur.execute("SELECT id, channel, note FROM shop_order ORDER BY id")
        orders = cur.fetchall()
        cur.execute("SELECT id, on_hand, rating FROM shop_product ORDER BY id")
        prods = cur.fetchall()
    return [list(cats), list(orders), list(prods)]


if __name__ == "__main__":
    main()
