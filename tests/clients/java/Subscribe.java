import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * SUBSCRIBE through pgJDBC: a cursor declared with DECLARE ... FOR
 * SUBSCRIBE read by FETCH ... WITH (timeout), and a bare SUBSCRIBE read
 * with a fetch size (a portal executed a few rows at a time), each while
 * another connection writes. Prints each change it read, one per line.
 */
public class Subscribe {
    public static void main(String[] args) throws Exception {
        String url = args[0];
        try (Connection w = DriverManager.getConnection(url); Connection r = DriverManager.getConnection(url)) {
            Statement ws = w.createStatement();
            ws.execute("CREATE TABLE jdbc_sub (id INT, v TEXT)");
            r.setAutoCommit(false);
            Statement rs = r.createStatement();
            rs.execute("DECLARE c CURSOR FOR SUBSCRIBE jdbc_sub WITH (SNAPSHOT = false)");
            ws.execute("INSERT INTO jdbc_sub VALUES (1, 'a'), (2, 'b'), (3, 'c')");
            int got = 0;
            while (got < 3) {
                try (ResultSet res = rs.executeQuery("FETCH 2 c WITH (timeout = '5s')")) {
                    int n = 0;
                    while (res.next()) {
                        System.out.println("cursor " + res.getString(1) + " " + res.getLong(3) + " " + res.getInt(5) + " " + res.getString(6));
                        n++;
                    }
                    if (n == 0) {
                        throw new IllegalStateException("FETCH waited 5s without a row");
                    }
                    got += n;
                }
            }
            rs.execute("CLOSE c");
            r.commit();

            // fetchSize: pgJDBC executes the portal 2 rows at a time.
            Statement fs = r.createStatement();
            fs.setFetchSize(2);
            ws.execute("INSERT INTO jdbc_sub VALUES (4, 'd'), (5, 'e'), (6, 'f'), (7, 'g')");
            try (ResultSet res = fs.executeQuery("SUBSCRIBE (SELECT id, v FROM jdbc_sub WHERE id > 3) FROM OFFSETS '{0:3}'")) {
                for (int i = 0; i < 4; i++) {
                    if (!res.next()) {
                        throw new IllegalStateException("subscription ended");
                    }
                    System.out.println("fetchsize " + res.getString(1) + " " + res.getLong(3) + " " + res.getInt(5) + " " + res.getString(6));
                }
            }
            r.rollback();
        }
    }
}
