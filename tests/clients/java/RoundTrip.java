// Round-trips sqlgate's scalar types through pgJDBC: prepared INSERTs with
// typed parameters (past prepareThreshold, so that named statements and
// binary results are used), a cursor-based read (setFetchSize with autocommit
// off: named portal, Execute with a row limit, PortalSuspended) and a
// comparison of every value. Prints "OK" and exits 0, or lists mismatches and
// exits 1. Usage: java -cp postgresql.jar:. RoundTrip JDBC_URL
import java.math.BigDecimal;
import java.sql.*;
import java.time.*;
import java.util.*;

public class RoundTrip {
    static final String TEXT1 = "héllo ☃ \"quote\" \\back\ttab\nnewline 'single'";
    static List<String> errors = new ArrayList<>();

    static Object[][] rows() {
        LocalDateTime ts1 = LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999999000);
        LocalDateTime ts2 = LocalDateTime.of(1, 1, 1, 0, 0, 0);
        return new Object[][] {
            {1, Long.MAX_VALUE, Integer.MAX_VALUE, Short.MAX_VALUE, Double.MAX_VALUE, Float.MAX_VALUE, true, TEXT1, "varchar ✓",
             new BigDecimal("9999999999999999.9999"), LocalDate.of(2261, 12, 31), ts1, ts1.atOffset(ZoneOffset.UTC), new byte[] {0, -1, 92}},
            {2, Long.MIN_VALUE, Integer.MIN_VALUE, Short.MIN_VALUE, -2.2250738585072014e-308, -1.1754944e-38f, false, "", "",
             new BigDecimal("-9999999999999999.9999"), LocalDate.of(1678, 1, 1), ts2, ts2.atOffset(ZoneOffset.UTC), new byte[0]},
            {3, null, null, null, null, null, null, null, null, null, null, null, null, null},
        };
    }

    static final int[] SQL_TYPES = {Types.INTEGER, Types.BIGINT, Types.INTEGER, Types.SMALLINT, Types.DOUBLE, Types.REAL, Types.BOOLEAN,
        Types.VARCHAR, Types.VARCHAR, Types.NUMERIC, Types.DATE, Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE, Types.BINARY};

    static void bind(PreparedStatement ps, Object[] r) throws SQLException {
        for (int i = 0; i < r.length; i++) {
            int p = i + 1;
            Object v = r[i];
            if (v == null) { ps.setNull(p, SQL_TYPES[i]); continue; }
            switch (i) {
                case 0: case 2: ps.setInt(p, (Integer) v); break;
                case 1: ps.setLong(p, (Long) v); break;
                case 3: ps.setShort(p, (Short) v); break;
                case 4: ps.setDouble(p, (Double) v); break;
                case 5: ps.setFloat(p, (Float) v); break;
                case 6: ps.setBoolean(p, (Boolean) v); break;
                case 7: case 8: ps.setString(p, (String) v); break;
                case 9: ps.setBigDecimal(p, (BigDecimal) v); break;
                case 13: ps.setBytes(p, (byte[]) v); break;
                default: ps.setObject(p, v);
            }
        }
    }

    static Object read(ResultSet rs, int i) throws SQLException {
        int c = i + 1;
        Object v;
        switch (i) {
            case 0: case 2: v = rs.getInt(c); break;
            case 1: v = rs.getLong(c); break;
            case 3: v = rs.getShort(c); break;
            case 4: v = rs.getDouble(c); break;
            case 5: v = rs.getFloat(c); break;
            case 6: v = rs.getBoolean(c); break;
            case 7: case 8: v = rs.getString(c); break;
            case 9: v = rs.getBigDecimal(c); break;
            case 10: v = rs.getObject(c, LocalDate.class); break;
            case 11: v = rs.getObject(c, LocalDateTime.class); break;
            case 12: v = rs.getObject(c, OffsetDateTime.class); break;
            default: v = rs.getBytes(c);
        }
        return rs.wasNull() ? null : v;
    }

    static boolean same(Object a, Object b) {
        if (a == null || b == null) return a == b;
        if (a instanceof byte[]) return Arrays.equals((byte[]) a, (byte[]) b);
        if (a instanceof OffsetDateTime) return ((OffsetDateTime) a).isEqual((OffsetDateTime) b);
        return a.equals(b);
    }

    static String show(Object v) {
        return v instanceof byte[] ? Arrays.toString((byte[]) v) : String.valueOf(v);
    }

    static void check(String what, ResultSet rs, Object[][] want) throws SQLException {
        int n = 0;
        while (rs.next()) {
            for (int i = 0; i < want[n].length; i++) {
                Object got = read(rs, i);
                if (!same(got, want[n][i])) errors.add(what + " row " + (n + 1) + " column " + (i + 1) + ": got " + show(got) + ", want " + show(want[n][i]));
            }
            n++;
        }
        if (n != want.length) errors.add(what + ": read " + n + " rows, want " + want.length);
    }

    public static void main(String[] args) throws Exception {
        String cols = "id, i8, i4, i2, f8, f4, b, t, v, n, d, ts, tz, bin";
        try (Connection conn = DriverManager.getConnection(args[0])) {
            try (Statement st = conn.createStatement()) {
                st.execute("CREATE TABLE rt_jdbc (id INT, i8 BIGINT, i4 INT, i2 SMALLINT, f8 DOUBLE, f4 REAL, b BOOLEAN, t TEXT, v VARCHAR(20), n DECIMAL(20,4), d DATE, ts TIMESTAMP, tz TIMESTAMPTZ, bin BYTEA)");
            }
            Object[][] rows = rows();
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO rt_jdbc (" + cols + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (Object[] r : rows) { bind(ps, r); ps.executeUpdate(); }
            }
            // Past prepareThreshold (5): the 6th execution onwards uses a
            // named server-side statement and binary results.
            try (PreparedStatement ps = conn.prepareStatement("SELECT " + cols + " FROM rt_jdbc WHERE id <= ? ORDER BY id")) {
                for (int k = 0; k < 8; k++) {
                    ps.setInt(1, 3);
                    try (ResultSet rs = ps.executeQuery()) { check("prepared #" + (k + 1), rs, rows); }
                }
            }
            // Cursor read: autocommit off + fetch size -> portal with row limit.
            conn.setAutoCommit(false);
            try (PreparedStatement ps = conn.prepareStatement("SELECT " + cols + " FROM rt_jdbc ORDER BY id")) {
                ps.setFetchSize(1);
                try (ResultSet rs = ps.executeQuery()) { check("fetch size 1", rs, rows); }
            }
            conn.commit();
            conn.setAutoCommit(true);
            // An error leaves the connection usable.
            try (Statement st = conn.createStatement()) {
                try { st.executeQuery("SELECT nope FROM rt_jdbc"); errors.add("bad column accepted"); }
                catch (SQLException e) { if (!"42703".equals(e.getSQLState())) errors.add("bad column: SQLSTATE " + e.getSQLState()); }
                try (ResultSet rs = st.executeQuery("SELECT count(*) FROM rt_jdbc")) {
                    rs.next();
                    if (rs.getLong(1) != 3) errors.add("count after error: " + rs.getLong(1));
                }
            }
        }
        if (!errors.isEmpty()) {
            for (String e : errors) System.out.println(e);
            System.exit(1);
        }
        System.out.println("OK");
    }
}
