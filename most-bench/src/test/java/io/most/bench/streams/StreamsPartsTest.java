package io.most.bench.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The parts of the Kafka Streams benchmark that need no broker: the input, /proc parsing, the aggregate. */
class StreamsPartsTest {
    @Test
    void theLoadWritesEveryKeyOnceThenTheWindowAndTheTailFollow() {
        InputRecords input = new InputRecords(1000, 500, 250, KeyDistribution.ZIPFIAN, 0.99, 7);
        Set<String> loaded = new HashSet<>();
        Map<Byte, Integer> phases = new HashMap<>();
        byte[] last = {InputRecords.LOAD};
        input.forEach((key, value) -> {
            byte phase = InputRecords.phase(value);
            assertTrue(phase >= last[0], "phases in order");
            last[0] = phase;
            phases.merge(phase, 1, Integer::sum);
            if (phase == InputRecords.LOAD) {
                assertTrue(loaded.add(key), "loaded twice: " + key);
            }
            assertEquals(InputRecords.VALUE_BYTES, value.length);
            assertEquals(12, key.length());
        });
        assertEquals(1000, loaded.size());
        assertEquals(Map.of(InputRecords.LOAD, 1000, InputRecords.MEASURED, 500, InputRecords.TAIL, 250), phases);
        assertEquals(1750, input.total());
    }

    @Test
    void sameSeedSameRecords() {
        StringBuilder a = new StringBuilder();
        StringBuilder b = new StringBuilder();
        new InputRecords(100, 50, 10, KeyDistribution.UNIFORM, 0.99, 3).forEach((k, v) -> a.append(k));
        new InputRecords(100, 50, 10, KeyDistribution.UNIFORM, 0.99, 3).forEach((k, v) -> b.append(k));
        assertEquals(a.toString(), b.toString());
    }

    @Test
    void procSelfTextsParse() {
        assertEquals(123456L * 1024, ProcSelf.parseRssBytes("Name:\tjava\nVmPeak:\t  999 kB\nVmRSS:\t  123456 kB\n"));
        assertEquals(-1, ProcSelf.parseRssBytes("Name:\tjava\n"));
        String io = "rchar: 10\nwchar: 20\nsyscr: 1\nsyscw: 2\nread_bytes: 4096\nwrite_bytes: 8192\ncancelled_write_bytes: 0\n";
        assertEquals(8192, ProcSelf.parseIoField(io, "write_bytes"));
        assertEquals(4096, ProcSelf.parseIoField(io, "read_bytes"));
        assertEquals(-1, ProcSelf.parseIoField(io, "nope"));
        assertTrue(ProcSelf.rssBytes().orElse(1) > 0);
    }

    @Test
    void theAggregateCountsItsRecordsInAKibibyteValue() {
        byte[] aggregate = new byte[StreamsWorkload.AGGREGATE_BYTES];
        byte[] value = new byte[InputRecords.VALUE_BYTES];
        java.util.Arrays.fill(value, (byte) 0x5A);
        for (int i = 0; i < 300; i++) {
            aggregate = StreamsWorkload.fold("k", value, aggregate);
        }
        assertEquals(StreamsWorkload.AGGREGATE_BYTES, aggregate.length);
        assertEquals(300, java.nio.ByteBuffer.wrap(aggregate).getLong());
    }

    @Test
    void badInputSizesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new InputRecords(1, 1, 1, KeyDistribution.UNIFORM, 0.99, 1));
    }
}
