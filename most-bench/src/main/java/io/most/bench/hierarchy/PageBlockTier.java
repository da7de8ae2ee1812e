package io.most.bench.hierarchy;

import io.most.device.BlockDevice;
import java.util.Map;

/**
 * The block tier under one {@link PageTarget}'s page store: a single emulated SSD
 * ({@link SsdBlockTier}) or a MOST tiered volume over two emulated devices ({@link MostBlockTier}).
 * It hands out the device twice: at full speed for the untimed load, then emulated for the measured
 * store. Both are views that the page stores may close; {@link #close()} releases the devices.
 */
interface PageBlockTier extends AutoCloseable {

    /** The device the load phase writes the data set to, without emulated latency. */
    BlockDevice loadDevice();

    /** The device of the measured store, emulated from now on; called once, after the load. */
    BlockDevice measuredDevice();

    /** Warm-up is over: count the devices' operations from now on. */
    void beginMeasurement();

    /** Adds what the block tier is and did in the measured window to a run's fields. */
    void report(Map<String, Object> fields);

    /** Closes the devices and deletes their files. */
    @Override
    void close();
}
