// Round-trips sqlgate's scalar types through node-postgres (extended
// protocol, text parameters of unspecified type, text results): INSERTs
// with parameters, a SELECT, a comparison of every value, an error and
// recovery. Prints "OK" and exits 0, or lists mismatches and exits 1.
// Usage: node roundtrip.js CONNECTION_STRING
'use strict';
const { Client, types } = require('pg');

// Dates and timestamps as the server's text: a JS Date holds milliseconds
// only, and would hide the microseconds this test checks.
for (const oid of [1082, 1114, 1184]) types.setTypeParser(oid, (v) => v);

const TEXT1 = 'héllo ☃ "quote" \\back\ttab\nnewline \'single\'';
const COLS = 'id, i8, i4, i2, f8, f4, b, t, v, n, d, ts, tz, bin';
const ROWS = [
  [1, '9223372036854775807', 2147483647, 32767, 1.7976931348623157e308, 3.4028235e38, true, TEXT1, 'varchar ✓',
    '9999999999999999.9999', '2261-12-31', '9999-12-31 23:59:59.999999', '9999-12-31 23:59:59.999999+00', Buffer.from([0, 255, 92])],
  [2, '-9223372036854775808', -2147483648, -32768, -2.2250738585072014e-308, -1.1754944e-38, false, '', '',
    '-9999999999999999.9999', '1678-01-01', '0001-01-01 00:00:00', '0001-01-01 00:00:00+00', Buffer.alloc(0)],
  [3, null, null, null, null, null, null, null, null, null, null, null, null, null],
];

function same(a, b) {
  if (Buffer.isBuffer(a) || Buffer.isBuffer(b)) return Buffer.isBuffer(a) && Buffer.isBuffer(b) && a.equals(b);
  return a === b;
}

async function main() {
  const errors = [];
  const client = new Client({ connectionString: process.argv[2] });
  await client.connect();
  await client.query('CREATE TABLE rt_node (id INT, i8 BIGINT, i4 INT, i2 SMALLINT, f8 DOUBLE, f4 REAL, b BOOLEAN, t TEXT, ' +
    'v VARCHAR(20), n DECIMAL(20,4), d DATE, ts TIMESTAMP, tz TIMESTAMPTZ, bin BYTEA)');
  const placeholders = ROWS[0].map((_, i) => '$' + (i + 1)).join(', ');
  for (const row of ROWS) {
    await client.query({ name: 'ins', text: `INSERT INTO rt_node (${COLS}) VALUES (${placeholders})`, values: row });
  }
  const res = await client.query({ text: `SELECT ${COLS} FROM rt_node ORDER BY id`, rowMode: 'array' });
  if (res.rows.length !== ROWS.length) errors.push(`read ${res.rows.length} rows, want ${ROWS.length}`);
  res.rows.forEach((got, i) => {
    got.forEach((v, k) => {
      if (!same(v, ROWS[i][k])) errors.push(`row ${i + 1} column ${k + 1}: got ${JSON.stringify(v)}, want ${JSON.stringify(ROWS[i][k])}`);
    });
  });
  try {
    await client.query('SELECT nope FROM rt_node');
    errors.push('bad column accepted');
  } catch (e) {
    if (e.code !== '42703') errors.push(`bad column: SQLSTATE ${e.code}`);
  }
  const count = await client.query('SELECT count(*) AS n FROM rt_node');
  if (count.rows[0].n !== '3') errors.push(`count after error: ${count.rows[0].n}`);
  await client.end();
  if (errors.length) {
    console.log(errors.join('\n'));
    process.exit(1);
  }
  console.log('OK');
}

main().catch((e) => {
  console.log(`error: ${e.message} ${e.code || ''}`);
  process.exit(1);
});
