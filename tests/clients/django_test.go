package clients

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sqlgate/sqlgate/tests/testbin"
)

// TestDjangoProject runs a Django project (python/django_project.py)
// against sqlgate's embedded store and PostgreSQL 15: `migrate` of the
// contrib apps and of an app with foreign keys (DEFERRABLE INITIALLY
// DEFERRED), unique and check constraints, LIKE indexes, JSONField,
// DecimalField, time-zone-aware DateTimeField, UUIDField and ArrayField;
// the ORM's queries (lookups, annotations grouped by a primary key,
// subqueries, windows, select_related / prefetch_related, bulk_create
// with RETURNING and ON CONFLICT, update_or_create, select_for_update,
// atomic blocks with savepoints, a server-side cursor); Django's
// introspection and inspectdb; a migration that renames and alters fields
// and adds columns, rolled back; a migration that fails half-way. It
// compares the outputs section by section.
func TestDjangoProject(t *testing.T) {
	python := djangoPython(t)
	p := startOraclePair(t)
	run := func(host, port string) string {
		out, err := exec.Command(python, filepath.Join("python", "django_project.py"), host, port).CombinedOutput()
		if err != nil {
			t.Fatalf("django_project.py against %s:%s (sqlgate is on %s): %v\n%s", host, port, p.sgPort, err, out)
		}
		return string(out)
	}
	want := run(p.pgHost, p.pgPort)
	got := run(p.sgHost, p.sgPort)
	compareSections(t, got, want, djangoGaps)
}

// djangoPython is the interpreter of the Django virtualenv
// scripts/install-test-deps.sh makes ($SQLGATE_DJANGO_PYTHON overrides it).
func djangoPython(t *testing.T) string {
	if p := os.Getenv("SQLGATE_DJANGO_PYTHON"); p != "" {
		return p
	}
	p := testbin.ToolPath("django-5.2.20", "bin", "python")
	if out, err := exec.Command(p, "-c", "import django, psycopg2").CombinedOutput(); err != nil {
		t.Fatalf("Django is not installed in %s (scripts/install-test-deps.sh installs it): %v\n%s", p, err, out)
	}
	return p
}

// djangoGaps are the sections where sqlgate's answer differs from
// PostgreSQL's, with sqlgate's exact output; the test fails once one
// answers anything else.
var djangoGaps = map[string]string{
	// Row locks are taken on one primary-key table per statement.
	"select_for_update of two tables": "ERROR 0A000: FOR UPDATE is supported on one table with a primary key",
	// A table without a comment shows its Fluss layout as its description
	// (pgcatalog/doc.go), which inspectdb writes as db_table_comment.
	"inspectdb": `'from django.db import models'
'class ShopProduct(models.Model):'
'    id = models.BigAutoField(primary_key=True)'
'    code = models.UUIDField(unique=True)'
'    name = models.CharField(max_length=100)'
'    description = models.TextField()'
'    price = models.DecimalField(max_digits=10, decimal_places=2)'
'    stock = models.IntegerField()'
'    attrs = models.JSONField()'
'    tags = models.TextField()  # This field type is a guess.'
'    created = models.DateTimeField()'
"    category = models.ForeignKey('ShopCategory', models.DO_NOTHING)"
'    class Meta:'
'        managed = False'
"        db_table = 'shop_product'"
"        unique_together = (('category', 'name'),)"
"        db_table_comment = 'fluss primary-key table, 1 bucket, bucket key (id)'"`,
	// AlterField to NOT NULL with a default: SET DEFAULT, an UPDATE of the
	// NULLs, then SET NOT NULL in the same transaction, which sqlgate
	// refuses after the block wrote rows to the table (engine/txddl.go);
	// the block's ROLLBACK undoes the SET DEFAULT before it, and the
	// migration stays unapplied.
	"migrate 0003 note not null": `'Applying shop.0003_note...'
'ERROR 0A000: ALTER TABLE cannot run after this transaction wrote rows to table "shop_order"'`,
	"order columns after 0003": `'shop_order.id BigAutoField 20 size=8 prec=None scale=None null=False default=None auto=True'
'shop_order.quantity IntegerField 23 size=4 prec=None scale=None null=False default=None auto=False'
'shop_order.placed DateTimeField 1184 size=8 prec=None scale=None null=False default=None auto=False'
'shop_order.note CharField 1043 size=200 prec=None scale=None null=True default=None auto=False'
'shop_order.product_id BigIntegerField 20 size=8 prec=None scale=None null=False default=None auto=False'
'shop_order.channel CharField 1043 size=10 prec=None scale=None null=False default=None auto=False'`,
	"showmigrations": `'shop'
' [X] 0001_initial'
' [X] 0002_change'
' [ ] 0003_note'`,
	"migrate back to 0001": `'Unapplying shop.0002_change... OK'`,
}
