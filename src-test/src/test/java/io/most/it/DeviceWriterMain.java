package io.most.it;

import io.most.device.BlockDevice;
import io.most.device.PmemDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.SplittableRandom;

/**
 * The child of {@link DeviceCrashTest}: writes {@link CheckedBlock}s to a device until it is killed,
 * reporting on standard output which generation of which block is in flight and which is durable.
 *
 * <p>Arguments: {@code <DIRECT|PMEM> <file> <blocks> <seed> <run id>}. Protocol, one line each:
 * <ul>
 *   <li>{@code READY} once the device is open;</li>
 *   <li>{@code WRITE <block> <generation>} before that write is issued (so a generation the parent has
 *       not seen announced was never written);</li>
 *   <li>{@code DURABLE <block> <generation>} after the {@code force()} (or, on PM, the
 *       {@code persist(offset, 4096)} of that block) that covers the write of that generation has
 *       returned. Generations of a block grow by one per write.</li>
 * </ul>
 * One thread does everything, so at most one write is in progress when the kill lands. Rounds are
 * random: a batch of 1 to 8 block writes followed by {@code force()}, or, on PM, a single block
 * written by stores into {@link PmemDevice#segment()} (or by {@code write}) and made durable by
 * {@code persist} of just that block, leaving other unforced blocks pending.
 */
public final class DeviceWriterMain {
    private static final long MAX_RUN_NANOS = 60_000_000_000L;

    private DeviceWriterMain() {
    }

    public static void main(String[] args) {
        ForkedJvm.exitWhenParentDies();
        DeviceKind kind = DeviceKind.valueOf(args[0]);
        Path file = Path.of(args[1]);
        int blocks = Integer.parseInt(args[2]);
        SplittableRandom random = new SplittableRandom(Long.parseLong(args[3]));
        long run = Long.parseLong(args[4]);
        ForkedJvm.LineWriter out = ForkedJvm.lineWriter();

        long[] generation = new long[blocks];
        LinkedHashSet<Integer> pending = new LinkedHashSet<>();
        long start = System.nanoTime();
        try (BlockDevice device = kind.open(file, (long) blocks * CheckedBlock.SIZE);
             Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = device.allocate(arena, CheckedBlock.SIZE);
            out.println("READY");
            while (System.nanoTime() - start < MAX_RUN_NANOS) {
                if (device instanceof PmemDevice pm && random.nextInt(3) == 0) {
                    int block = random.nextInt(blocks);
                    long g = ++generation[block];
                    long offset = (long) block * CheckedBlock.SIZE;
                    out.println("WRITE " + block + " " + g);
                    if (random.nextBoolean()) {
                        CheckedBlock.fill(pm.segment().asSlice(offset, CheckedBlock.SIZE), run, block, g);
                    } else {
                        CheckedBlock.fill(buffer, run, block, g);
                        pm.write(offset, buffer);
                    }
                    pm.persist(offset, CheckedBlock.SIZE);
                    out.println("DURABLE " + block + " " + g);
                    pending.remove(block);
                    continue;
                }
                int batch = 1 + random.nextInt(8);
                for (int i = 0; i < batch; i++) {
                    int block = random.nextInt(blocks);
                    long g = ++generation[block];
                    out.println("WRITE " + block + " " + g);
                    CheckedBlock.fill(buffer, run, block, g);
                    device.write((long) block * CheckedBlock.SIZE, buffer);
                    pending.add(block);
                }
                device.force();
                StringBuilder durable = new StringBuilder();
                for (int block : pending) {
                    if (!durable.isEmpty()) {
                        durable.append('\n');
                    }
                    durable.append("DURABLE ").append(block).append(' ').append(generation[block]);
                }
                pending.clear();
                out.println(durable.toString());
            }
        }
        System.err.println("DeviceWriterMain ran out of time without being killed");
        System.exit(2);
    }
}
