// Prints what pgJDBC's DatabaseMetaData answers about the test tables:
// getSchemas, getTables, getColumns, getPrimaryKeys and getIndexInfo, one
// section per call, each result set as a header line of column labels and
// one tab-separated line per row (getString of every column, NULL as
// "<null>"). The Go test runs it against sqlgate and PostgreSQL 15 and
// compares the two outputs. Usage: java -cp postgresql.jar:. Metadata JDBC_URL
import java.sql.*;

public class Metadata {
    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection(args[0])) {
            DatabaseMetaData md = c.getMetaData();
            print("getSchemas()", () -> md.getSchemas());
            print("getSchemas(null, \"pub%\")", () -> md.getSchemas(null, "pub%"));
            print("getTables(null, \"public\", \"%\", null)", () -> md.getTables(null, "public", "%", null));
            print("getTables(null, \"public\", \"%\", {TABLE})", () -> md.getTables(null, "public", "%", new String[] {"TABLE"}));
            for (String table : new String[] {"every_type", "events"}) {
                print("getColumns(null, \"public\", \"" + table + "\", \"%\")", () -> md.getColumns(null, "public", table, "%"));
                print("getPrimaryKeys(null, \"public\", \"" + table + "\")", () -> md.getPrimaryKeys(null, "public", table));
                print("getIndexInfo(null, \"public\", \"" + table + "\", false, false)", () -> md.getIndexInfo(null, "public", table, false, false));
                print("getIndexInfo(null, \"public\", \"" + table + "\", true, true)", () -> md.getIndexInfo(null, "public", table, true, true));
            }
        }
    }

    interface Call {
        ResultSet run() throws SQLException;
    }

    // print runs one call; a failing call prints its SQLSTATE and message
    // as the section's body, so that the remaining calls still run.
    static void print(String call, Call c) {
        StringBuilder out = new StringBuilder("== ").append(call).append('\n');
        try (ResultSet rs = c.run()) {
            format(out, rs);
        } catch (SQLException e) {
            out.append("ERROR ").append(e.getSQLState()).append(": ").append(e.getMessage().replace('\n', ' ')).append('\n');
        }
        System.out.print(out);
    }

    static void format(StringBuilder out, ResultSet rs) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        int n = meta.getColumnCount();
        for (int i = 1; i <= n; i++) {
            out.append(i > 1 ? "\t" : "").append(meta.getColumnLabel(i));
        }
        out.append('\n');
        while (rs.next()) {
            for (int i = 1; i <= n; i++) {
                String v = rs.getString(i);
                out.append(i > 1 ? "\t" : "").append(v == null ? "<null>" : v);
            }
            out.append('\n');
        }
    }
}
