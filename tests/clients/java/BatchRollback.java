// executeBatch with autocommit on: pgJDBC pipelines the batch's statements
// and ends them with one Sync, one implicit transaction in PostgreSQL. A
// row that fails (a division by zero in the third) fails the batch with a
// BatchUpdateException whose SQLState is 22012, and no row of the batch is
// kept; a batch that succeeds keeps all of its rows. Prints "OK" and exits
// 0, or says what differed and exits 1. Usage: java -cp postgresql.jar:.
// BatchRollback JDBC_URL
import java.sql.*;

public class BatchRollback {
    static void fail(String msg) {
        System.out.println(msg);
        System.exit(1);
    }

    static long count(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM jdbc_batch")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection(args[0])) {
            c.setAutoCommit(true);
            try (Statement st = c.createStatement()) {
                st.execute("CREATE TABLE jdbc_batch (a int)");
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO jdbc_batch VALUES (10 / ?)")) {
                for (int v : new int[] {1, 2, 0, 5}) {
                    ps.setInt(1, v);
                    ps.addBatch();
                }
                try {
                    ps.executeBatch();
                    fail("the batch with a division by zero succeeded");
                } catch (BatchUpdateException e) {
                    SQLException cause = e.getNextException() != null ? e.getNextException() : e;
                    if (!"22012".equals(cause.getSQLState())) {
                        fail("batch error: SQLState " + cause.getSQLState() + ": " + cause.getMessage());
                    }
                }
                long n = count(c);
                if (n != 0) {
                    fail("after the failed batch " + n + " rows are left, want 0");
                }
                for (int v : new int[] {1, 2, 5}) {
                    ps.setInt(1, v);
                    ps.addBatch();
                }
                int[] counts = ps.executeBatch();
                if (counts.length != 3) {
                    fail("batch counts: " + counts.length);
                }
                n = count(c);
                if (n != 3) {
                    fail("after the good batch " + n + " rows, want 3");
                }
            }
            try (Statement st = c.createStatement()) {
                st.execute("DROP TABLE jdbc_batch");
            }
        }
        System.out.println("OK");
    }
}
