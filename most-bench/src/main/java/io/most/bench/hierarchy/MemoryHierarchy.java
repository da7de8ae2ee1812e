package io.most.bench.hierarchy;

import io.most.bench.workload.ModelExpectation;
import io.most.device.BlockDevice;
import io.most.device.DeviceProfile;
import io.most.device.DeviceProfiles;
import io.most.device.EmulatedDevice;
import io.most.device.MemoryDevice;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One device in off-heap memory: plain ({@code memory}, a copy per I/O, the bench's own overhead
 * floor) or following a {@link DeviceProfile} (one hierarchy per name in {@link DeviceProfiles}).
 * Memory needs no preparation: it is zeroed and resident when allocated.
 */
public final class MemoryHierarchy implements Hierarchy {
    private static final long DEFAULT_SIZE = 64L << 20;

    private final String name;
    private final Optional<DeviceProfile> profile;

    private MemoryHierarchy(String name, Optional<DeviceProfile> profile) {
        this.name = name;
        this.profile = profile;
    }

    /** The plain memory device. */
    static MemoryHierarchy plain() {
        return new MemoryHierarchy("memory", Optional.empty());
    }

    /**
     * An {@link EmulatedDevice} following {@code profile} as given (already scaled), under
     * {@code name}: a profile file of {@code profile --save}, see {@link Hierarchies#resolve}.
     */
    static MemoryHierarchy emulated(String name, DeviceProfile profile) {
        return new MemoryHierarchy(name, Optional.of(profile));
    }

    /** An {@link EmulatedDevice} with the named profile at {@link DeviceProfiles#DEFAULT_SCALE}. */
    static MemoryHierarchy emulated(String profileName) {
        return new MemoryHierarchy(profileName, Optional.of(DeviceProfiles.get(profileName)));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return profile.map(p -> String.format(Locale.ROOT, "emulated, %.0f us 4k reads, %d channels, %,.0f IOPS max"
                        + " (x%.0f scale), over memory, default 64m; %s", ModelExpectation.readLatencyMicros(p),
                        p.channels(), ModelExpectation.maxIops(p, 0, 4096), scaleOf(p), shortSource(p)))
                .orElse("off-heap memory (MemoryDevice): the bench's overhead floor, default 64m");
    }

    /** The scale factor a profile's source notes, 1 if none. */
    private static double scaleOf(DeviceProfile p) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\(times x([0-9.]+)\\)$").matcher(p.source());
        return m.find() ? Double.parseDouble(m.group(1)) : 1;
    }

    /** The paper table of a profile, without the scale note and datasheet remarks. */
    public static String shortSource(DeviceProfile p) {
        String s = p.source().replaceAll(" \\(times x[0-9.]+\\)$", "");
        int semicolon = s.indexOf(';');
        return semicolon < 0 ? s : s.substring(0, semicolon);
    }

    @Override
    public int devices() {
        return 1;
    }

    @Override
    public Optional<DeviceProfile> model() {
        return profile;
    }

    @Override
    public long defaultSize() {
        return DEFAULT_SIZE;
    }

    @Override
    public boolean usesDirectory() {
        return false;
    }

    @Override
    public OpenHierarchy open(Options options, PrintStream log) {
        MemoryDevice memory = new MemoryDevice(profile.isPresent() ? name + "-backing" : name,
                options.blockSize(), options.size());
        BlockDevice device = profile.<BlockDevice>map(p -> new EmulatedDevice(memory, p)).orElse(memory);
        return new OpenHierarchy(this, List.of(device), List.of());
    }
}
