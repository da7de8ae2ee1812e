package io.most.bench.workload;

import io.most.device.DeviceProfile;
import io.most.device.IoOp;

/**
 * What a {@link DeviceProfile} predicts for a random block workload, computed the way
 * {@link io.most.device.EmulatedDevice} schedules: each operation holds one of the channels for its
 * service time and the shared bus for its transfer time. For pure reads or writes without spikes
 * {@link #maxIops} equals {@link DeviceProfile#maxIops}; for a mix it uses the mean service and
 * transfer time, with reads slowed by write interference at the steady write share.
 */
public final class ModelExpectation {
    private ModelExpectation() {
    }

    /** Service time of a 4 KiB read at queue depth 1, in microseconds. */
    public static double readLatencyMicros(DeviceProfile profile) {
        return profile.serviceNanos(IoOp.READ, 4096) / 1e3;
    }

    /** Operations per second the model can serve at most for this write share and block size. */
    public static double maxIops(DeviceProfile profile, double writeFraction, long bytes) {
        double w = writeFraction;
        double readService = profile.serviceNanos(IoOp.READ, bytes) * (1 + profile.writeInterference() * w);
        double meanService = (1 - w) * readService + w * profile.serviceNanos(IoOp.WRITE, bytes)
                + profile.spikeProbability() * profile.spikeNanos();
        double byChannels = profile.channels() * 1e9 / meanService;
        double meanTransferSeconds = (1 - w) * bytes / (double) profile.readBandwidth()
                + w * bytes / (double) profile.writeBandwidth();
        return Math.min(byChannels, 1 / meanTransferSeconds);
    }

    /** Mean service time of one operation in nanoseconds, for sizing an open loop (Little's law). */
    public static double meanServiceNanos(DeviceProfile profile, double writeFraction, long bytes) {
        return (1 - writeFraction) * profile.serviceNanos(IoOp.READ, bytes)
                + writeFraction * profile.serviceNanos(IoOp.WRITE, bytes);
    }
}
