package io.most.kafka.streams;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.query.Position;

/**
 * What a MOST store's checkpoint carries besides its data: the changelog offsets Kafka Streams committed
 * (KIP-1035) and the store's IQv2 position, encoded into the engine's metadata blob so both are written
 * atomically with the data. Format 1: {@code [1][n][topic, partition, offset]*[m][topic, partition,
 * offset]*}, topics as length-prefixed UTF-8.
 */
record CheckpointMetadata(Map<TopicPartition, Long> offsets, Position position) {
    private static final byte FORMAT = 1;

    static CheckpointMetadata empty() {
        return new CheckpointMetadata(Map.of(), Position.emptyPosition());
    }

    byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(size());
        b.put(FORMAT);
        b.putInt(offsets.size());
        offsets.forEach((tp, offset) -> put(b, tp.topic(), tp.partition(), offset));
        int count = 0;
        for (String topic : position.getTopics()) {
            count += position.getPartitionPositions(topic).size();
        }
        b.putInt(count);
        for (String topic : position.getTopics()) {
            position.getPartitionPositions(topic).forEach((p, o) -> put(b, topic, p, o));
        }
        return b.array();
    }

    private int size() {
        int n = 1 + 4 + 4;
        for (TopicPartition tp : offsets.keySet()) {
            n += 2 + tp.topic().getBytes(StandardCharsets.UTF_8).length + 12;
        }
        for (String topic : position.getTopics()) {
            n += position.getPartitionPositions(topic).size() * (2 + topic.getBytes(StandardCharsets.UTF_8).length + 12);
        }
        return n;
    }

    private static void put(ByteBuffer b, String topic, int partition, long offset) {
        byte[] t = topic.getBytes(StandardCharsets.UTF_8);
        b.putShort((short) t.length).put(t).putInt(partition).putLong(offset);
    }

    /**
     * Decodes a blob of {@link #encode}; an empty blob (a store never committed) has no offsets.
     *
     * @throws IllegalArgumentException if the blob is not of this format
     */
    static CheckpointMetadata decode(byte[] blob) {
        if (blob.length == 0) {
            return empty();
        }
        try {
            ByteBuffer b = ByteBuffer.wrap(blob);
            if (b.get() != FORMAT) {
                throw new IllegalArgumentException("unknown checkpoint metadata format " + blob[0]);
            }
            Map<TopicPartition, Long> offsets = new HashMap<>();
            for (int i = b.getInt(); i > 0; i--) {
                String topic = topic(b);
                offsets.put(new TopicPartition(topic, b.getInt()), b.getLong());
            }
            Map<String, Map<Integer, Long>> position = new HashMap<>();
            for (int i = b.getInt(); i > 0; i--) {
                String topic = topic(b);
                position.computeIfAbsent(topic, t -> new HashMap<>()).put(b.getInt(), b.getLong());
            }
            return new CheckpointMetadata(Map.copyOf(offsets), Position.fromMap(position));
        } catch (java.nio.BufferUnderflowException e) {
            throw new IllegalArgumentException("truncated checkpoint metadata of " + blob.length + " bytes", e);
        }
    }

    private static String topic(ByteBuffer b) {
        byte[] t = new byte[b.getShort()];
        b.get(t);
        return new String(t, StandardCharsets.UTF_8);
    }
}
