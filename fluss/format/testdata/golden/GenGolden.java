// GenGolden writes fluss-0.9.1.txt: byte vectors made by Apache Fluss
// 0.9.1-incubating's own encoders (CompactedRowEncoder, CompactedKeyEncoder,
// ValueEncoder, KvRecordBatchBuilder, DefaultValueRecordBatch.Builder,
// MemoryLogRecordsArrowBuilder), so that fluss/format's tests check sqlgate's
// bytes against Fluss's without a cluster. It is sqlgate's own program; it
// only calls Fluss's public classes. The values written here are repeated in
// golden_test.go: change both together.
//
// Regenerate (needs the fluss-server 0.9.1-incubating jar, a shaded jar that
// holds fluss-common, from Maven Central):
//
//	mvn -q dependency:get -Dartifact=org.apache.fluss:fluss-server:0.9.1-incubating -Dtransitive=false
//	J=~/.m2/repository/org/apache/fluss/fluss-server/0.9.1-incubating/fluss-server-0.9.1-incubating.jar
//	javac -cp $J -d /tmp/gengolden GenGolden.java
//	java --add-opens=java.base/java.nio=ALL-UNNAMED -cp $J:/tmp/gengolden GenGolden > fluss-0.9.1.txt

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.fluss.compression.ArrowCompressionInfo;
import org.apache.fluss.memory.UnmanagedPagedOutputView;
import org.apache.fluss.metadata.KvFormat;
import org.apache.fluss.record.ChangeType;
import org.apache.fluss.record.DefaultValueRecordBatch;
import org.apache.fluss.record.KvRecordBatchBuilder;
import org.apache.fluss.record.MemoryLogRecordsArrowBuilder;
import org.apache.fluss.record.bytesview.BytesView;
import org.apache.fluss.row.BinaryRow;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericArray;
import org.apache.fluss.row.GenericMap;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.row.arrow.ArrowWriter;
import org.apache.fluss.row.arrow.ArrowWriterPool;
import org.apache.fluss.row.encode.CompactedKeyEncoder;
import org.apache.fluss.row.encode.RowEncoder;
import org.apache.fluss.row.encode.ValueEncoder;
import org.apache.fluss.shaded.arrow.org.apache.arrow.memory.RootAllocator;
import org.apache.fluss.shaded.netty4.io.netty.buffer.ByteBuf;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypes;
import org.apache.fluss.types.RowType;

public class GenGolden {
    static final long MS = 1700000000123L; // 2023-11-14 22:13:20.123 UTC
    static final int NANO = 456789; // nanoseconds of the millisecond
    static final long NEG_MS = -86399877L; // 1969-12-31 00:00:00.123 UTC
    static final int TIME_MS = 45296789; // 12:34:56.789

    static final int[] P10 = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000};

    // nanos of the second truncated to precision p, as (millis, nano-of-milli)
    static long[] trunc(long ms, int nano, int p) {
        long sec = Math.floorDiv(ms, 1000L);
        long nos = Math.floorMod(ms, 1000L) * 1000000L + nano;
        long unit = 1000000000L / P10[p];
        nos = nos / unit * unit;
        return new long[] {sec * 1000 + nos / 1000000, nos % 1000000};
    }

    static TimestampNtz ntz(long ms, int nano, int p) {
        long[] t = trunc(ms, nano, p);
        return TimestampNtz.fromMillis(t[0], (int) t[1]);
    }

    static TimestampLtz ltz(long ms, int nano, int p) {
        long[] t = trunc(ms, nano, p);
        return TimestampLtz.fromEpochMillis(t[0], (int) t[1]);
    }

    static int time(int p) {
        int unit = 1000 / P10[Math.min(p, 3)];
        return TIME_MS / unit * unit;
    }

    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02x", x & 0xff));
        }
        return sb.toString();
    }

    static byte[] bytes(BinaryRow r) {
        byte[] out = new byte[r.getSizeInBytes()];
        r.copyTo(out, 0);
        return out;
    }

    static byte[] bytes(BytesView v) {
        ByteBuf buf = v.getByteBuf();
        byte[] out = new byte[buf.readableBytes()];
        buf.getBytes(buf.readerIndex(), out);
        return out;
    }

    static void emit(String name, byte[] b) {
        System.out.println(name + " " + hex(b));
    }

    static BinaryRow encode(DataType[] ts, Object... vals) {
        RowEncoder enc = RowEncoder.create(KvFormat.COMPACTED, ts);
        enc.startNewRow();
        for (int i = 0; i < vals.length; i++) {
            enc.encodeField(i, vals[i]);
        }
        return enc.finishRow();
    }

    static BinaryString s(String v) {
        return BinaryString.fromString(v);
    }

    // the temporal columns: TIME(0..9), TIMESTAMP(0..9), TIMESTAMP_LTZ(0..9)
    static DataType[] temporalTypes() {
        DataType[] ts = new DataType[30];
        for (int p = 0; p <= 9; p++) {
            ts[p] = DataTypes.TIME(p);
            ts[10 + p] = DataTypes.TIMESTAMP(p);
            ts[20 + p] = DataTypes.TIMESTAMP_LTZ(p);
        }
        return ts;
    }

    static Object[] temporalValues(long ms) {
        Object[] v = new Object[30];
        for (int p = 0; p <= 9; p++) {
            v[p] = time(p);
            v[10 + p] = ntz(ms, NANO, p);
            v[20 + p] = ltz(ms, NANO, p);
        }
        return v;
    }

    static DataType[] scalarTypes() {
        return new DataType[] {
            DataTypes.BOOLEAN(), DataTypes.TINYINT(), DataTypes.SMALLINT(), DataTypes.INT(),
            DataTypes.BIGINT(), DataTypes.FLOAT(), DataTypes.DOUBLE(), DataTypes.CHAR(3),
            DataTypes.STRING(), DataTypes.BYTES(), DataTypes.BINARY(4), DataTypes.DECIMAL(5, 2),
            DataTypes.DECIMAL(20, 0), DataTypes.DATE(), DataTypes.INT(),
        };
    }

    static Object[] scalarValues() {
        return new Object[] {
            true, (byte) -7, (short) -300, -123456, 9876543210L, 1.5f, -2.25, s("abc"),
            s("héllo wörld"), new byte[] {1, 2, 3}, new byte[] {9, 8, 7, 6},
            Decimal.fromUnscaledLong(-12345, 5, 2),
            Decimal.fromBigDecimal(new BigDecimal("-12345678901234567890"), 20, 0),
            19675, null,
        };
    }

    static RowType pairType() {
        return DataTypes.ROW(DataTypes.FIELD("x", DataTypes.INT()), DataTypes.FIELD("y", DataTypes.STRING()));
    }

    // nested columns: every element kind in an ARRAY, MAPs, ROWs, nesting
    static DataType[] nestedTypes() {
        return new DataType[] {
            DataTypes.ARRAY(DataTypes.INT()), // 0
            DataTypes.ARRAY(DataTypes.STRING()), // 1
            DataTypes.ARRAY(DataTypes.ARRAY(DataTypes.INT())), // 2
            DataTypes.MAP(DataTypes.STRING().copy(false), DataTypes.INT()), // 3
            DataTypes.MAP(DataTypes.INT().copy(false), DataTypes.ARRAY(DataTypes.STRING())), // 4
            pairType(), // 5
            DataTypes.ARRAY(pairType()), // 6
            DataTypes.ARRAY(DataTypes.BOOLEAN()), // 7
            DataTypes.ARRAY(DataTypes.TINYINT()), // 8
            DataTypes.ARRAY(DataTypes.SMALLINT()), // 9
            DataTypes.ARRAY(DataTypes.BIGINT()), // 10
            DataTypes.ARRAY(DataTypes.FLOAT()), // 11
            DataTypes.ARRAY(DataTypes.DOUBLE()), // 12
            DataTypes.ARRAY(DataTypes.DATE()), // 13
            DataTypes.ARRAY(DataTypes.TIME(3)), // 14
            DataTypes.ARRAY(DataTypes.BYTES()), // 15
            DataTypes.ARRAY(DataTypes.BINARY(2)), // 16
            DataTypes.ARRAY(DataTypes.DECIMAL(5, 2)), // 17
            DataTypes.ARRAY(DataTypes.DECIMAL(20, 2)), // 18
            DataTypes.ARRAY(DataTypes.TIMESTAMP(3)), // 19
            DataTypes.ARRAY(DataTypes.TIMESTAMP(6)), // 20
            DataTypes.ARRAY(DataTypes.TIMESTAMP_LTZ(9)), // 21
            DataTypes.ARRAY(DataTypes.INT()), // 22 empty
            DataTypes.ARRAY(DataTypes.INT()), // 23 null
            DataTypes.ROW( // 24
                    DataTypes.FIELD("a", DataTypes.ARRAY(DataTypes.STRING())),
                    DataTypes.FIELD("m", DataTypes.MAP(DataTypes.STRING().copy(false), DataTypes.DOUBLE())),
                    DataTypes.FIELD("r", pairType()),
                    DataTypes.FIELD("t", DataTypes.TIMESTAMP(9))),
            DataTypes.ARRAY(DataTypes.MAP(DataTypes.INT().copy(false), DataTypes.STRING())), // 25
            DataTypes.ARRAY(DataTypes.CHAR(2)), // 26
        };
    }

    static <K, V> GenericMap map(Object... kv) {
        Map<Object, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return new GenericMap(m);
    }

    static Object[] nestedValues() {
        return new Object[] {
            new GenericArray(new Object[] {1, null, -3}),
            new GenericArray(new Object[] {s("a"), null, s("longer than seven"), s("")}),
            new GenericArray(new Object[] {new GenericArray(new Object[] {1, 2}), null, new GenericArray(new Object[] {})}),
            map(s("one"), 1, s("two"), null, s("three"), 3),
            map(7, new GenericArray(new Object[] {s("x"), null}), -1, null),
            GenericRow.of(42, s("forty-two")),
            new GenericArray(new Object[] {GenericRow.of(1, s("p")), null, GenericRow.of(null, s("a string of 20 bytes"))}),
            new GenericArray(new Object[] {true, null, false}),
            new GenericArray(new Object[] {(byte) -1, (byte) 2}),
            new GenericArray(new Object[] {(short) -2, null, (short) 300}),
            new GenericArray(new Object[] {-1L, 1L << 40}),
            new GenericArray(new Object[] {1.5f, null, -0.0f}),
            new GenericArray(new Object[] {Math.PI, Double.NEGATIVE_INFINITY}),
            new GenericArray(new Object[] {19675, -1}),
            new GenericArray(new Object[] {TIME_MS, null}),
            new GenericArray(new Object[] {new byte[] {}, new byte[] {1, 2, 3, 4, 5, 6, 7}, new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, null}),
            new GenericArray(new Object[] {new byte[] {0x0a, 0x0b}}),
            new GenericArray(new Object[] {Decimal.fromUnscaledLong(12345, 5, 2), null, Decimal.fromUnscaledLong(-1, 5, 2)}),
            new GenericArray(new Object[] {
                Decimal.fromBigDecimal(new BigDecimal("123456789012345678.91"), 20, 2), null,
                Decimal.fromBigDecimal(new BigDecimal("-0.01"), 20, 2)}),
            new GenericArray(new Object[] {ntz(MS, 0, 3), ntz(NEG_MS, 0, 3), null}),
            new GenericArray(new Object[] {ntz(MS, NANO, 6), null, ntz(NEG_MS, NANO, 6)}),
            new GenericArray(new Object[] {ltz(MS, NANO, 9), ltz(NEG_MS, NANO, 9)}),
            new GenericArray(new Object[] {}),
            null,
            GenericRow.of(
                    new GenericArray(new Object[] {s("q"), null}),
                    map(s("k"), 0.5, s("n"), null),
                    GenericRow.of(null, null),
                    ntz(MS, NANO, 9)),
            new GenericArray(new Object[] {map(1, s("one"), 2, null), null, map()}),
            new GenericArray(new Object[] {s("ab"), s("c")}),
        };
    }

    public static void main(String[] args) throws Exception {
        System.out.println("# Byte vectors from Apache Fluss 0.9.1-incubating's encoders (GenGolden.java). Hex.");

        DataType[] tt = temporalTypes();
        emit("row_temporal_pos", bytes(encode(tt, temporalValues(MS))));
        emit("row_temporal_neg", bytes(encode(tt, temporalValues(NEG_MS))));
        DataType[] st = scalarTypes();
        BinaryRow scalars = encode(st, scalarValues());
        emit("row_scalars", bytes(scalars));
        DataType[] nt = nestedTypes();
        emit("row_nested", bytes(encode(nt, nestedValues())));

        // a key of every scalar kind that may be a key column, temporal ones at every precision
        List<DataType> kt = new ArrayList<>();
        List<Object> kv = new ArrayList<>();
        Object[] sv = scalarValues();
        for (int i = 0; i < 14; i++) {
            kt.add(st[i].copy(false));
            kv.add(sv[i]);
        }
        Object[] tv = temporalValues(MS);
        for (int i = 0; i < 30; i++) {
            kt.add(tt[i].copy(false));
            kv.add(tv[i]);
        }
        RowType keyRow = DataTypes.ROW(kt.toArray(new DataType[0]));
        CompactedKeyEncoder ke = new CompactedKeyEncoder(keyRow);
        emit("key_all", ke.encodeKey(GenericRow.of(kv.toArray())));

        emit("value_scalars_schema7", ValueEncoder.encodeValue((short) 7, scalars));

        KvRecordBatchBuilder kb = KvRecordBatchBuilder.builder(3, Integer.MAX_VALUE, new UnmanagedPagedOutputView(128), KvFormat.COMPACTED);
        kb.append(new byte[] {1, 2}, scalars);
        kb.append(new byte[] {3}, null);
        kb.append(new byte[] {4, 5, 6}, encode(new DataType[] {DataTypes.INT(), DataTypes.STRING()}, 5, null));
        emit("kv_batch_schema3", bytes(kb.build()));
        kb.close();
        KvRecordBatchBuilder kb2 = KvRecordBatchBuilder.builder(1, Integer.MAX_VALUE, new UnmanagedPagedOutputView(128), KvFormat.COMPACTED);
        kb2.setWriterState(77L, 5);
        kb2.append(new byte[] {9}, null);
        emit("kv_batch_writer77_seq5", bytes(kb2.build()));
        kb2.close();

        DefaultValueRecordBatch.Builder vb = DefaultValueRecordBatch.builder();
        vb.append((short) 2, scalars);
        vb.append((short) 3, encode(new DataType[] {DataTypes.INT(), DataTypes.STRING()}, 5, null));
        DefaultValueRecordBatch vbatch = vb.build();
        byte[] vbytes = new byte[vbatch.sizeInBytes()];
        vbatch.getSegment().get(vbatch.getPosition(), vbytes, 0, vbytes.length);
        emit("value_batch", vbytes);

        // Arrow log batches of the temporal columns: two rows (positive, negative instants) and a row of NULLs
        RootAllocator alloc = new RootAllocator(Long.MAX_VALUE);
        ArrowWriterPool pool = new ArrowWriterPool(alloc);
        RowType trow = DataTypes.ROW(tt);
        GenericRow nulls = new GenericRow(30);
        InternalRow[] rows = {GenericRow.of(temporalValues(MS)), GenericRow.of(temporalValues(NEG_MS)), nulls};
        ChangeType[] changes = {ChangeType.INSERT, ChangeType.UPDATE_AFTER, ChangeType.DELETE};
        for (byte magic : new byte[] {0, 1}) {
            for (boolean appendOnly : new boolean[] {true, false}) {
                ArrowWriter w = pool.getOrCreateWriter(1L, 5, 1 << 20, trow, ArrowCompressionInfo.NO_COMPRESSION);
                MemoryLogRecordsArrowBuilder lb = appendOnly
                        ? MemoryLogRecordsArrowBuilder.builder(5, w, new UnmanagedPagedOutputView(1 << 16), true)
                        : MemoryLogRecordsArrowBuilder.builder(0L, magic, 5, w, new UnmanagedPagedOutputView(1 << 16));
                if (appendOnly && magic == 1) {
                    lb.close();
                    continue; // the append-only builder writes the current magic (V0) only
                }
                for (int i = 0; i < rows.length; i++) {
                    lb.append(appendOnly ? ChangeType.APPEND_ONLY : changes[i], rows[i]);
                }
                lb.setWriterState(11L, 4);
                emit("log_temporal_v" + magic + (appendOnly ? "_append" : "_changes"), bytes(lb.build()));
                lb.close();
            }
        }
        // an empty batch (no records) in both magics
        for (byte magic : new byte[] {0, 1}) {
            ArrowWriter w = pool.getOrCreateWriter(1L, 5, 1 << 20, trow, ArrowCompressionInfo.NO_COMPRESSION);
            MemoryLogRecordsArrowBuilder lb = MemoryLogRecordsArrowBuilder.builder(100L, magic, 5, w, new UnmanagedPagedOutputView(1 << 16));
            emit("log_empty_v" + magic, bytes(lb.build()));
            lb.close();
        }
        // nested columns in a log batch (ZSTD, Fluss's default compression)
        RowType nrow = DataTypes.ROW(nt);
        ArrowWriter w = pool.getOrCreateWriter(2L, 1, 1 << 20, nrow, ArrowCompressionInfo.DEFAULT_COMPRESSION);
        MemoryLogRecordsArrowBuilder lb = MemoryLogRecordsArrowBuilder.builder(1, w, new UnmanagedPagedOutputView(1 << 16), true);
        lb.append(ChangeType.APPEND_ONLY, GenericRow.of(nestedValues()));
        lb.append(ChangeType.APPEND_ONLY, new GenericRow(nt.length));
        emit("log_nested_zstd_append", bytes(lb.build()));
        lb.close();
    }
}
