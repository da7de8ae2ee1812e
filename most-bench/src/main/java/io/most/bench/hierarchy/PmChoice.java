package io.most.bench.hierarchy;

import io.most.bench.UsageException;
import io.most.bench.profile.ProfileFile;
import io.most.device.DeviceProfiles;
import io.most.device.PmProfile;
import io.most.device.PmProfiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --pm-profile}: which PM model a page hierarchy's PM tier pays through. A name of
 * {@link PmProfiles} ({@code optane-pm}, the default, ..., {@code none} for no emulated cost),
 * {@code pmem} (the block profile's name, kept for command lines written before PM had its own
 * profiles: {@code optane-pm}), or {@code profile:FILE} for the PM measured by
 * {@code profile --pm --save FILE}. All run at {@link DeviceProfiles#DEFAULT_SCALE}, like every
 * emulated device of the bench, so PM keeps its ratio to the emulated SSDs.
 */
public final class PmChoice {
    /** The model of page hierarchies when {@code --pm-profile} is not given: Spitfire's Optane machine. */
    public static final String DEFAULT = "optane-pm";
    /** The block profile whose name still selects {@code optane-pm}. */
    static final String LEGACY = "pmem";

    private PmChoice() {
    }

    /** {@link #DEFAULT} at the bench's scale. */
    public static PmProfile defaultProfile() {
        return PmProfiles.get(DEFAULT);
    }

    /** What {@code --pm-profile} accepts, for help and error messages. */
    public static List<String> choices() {
        List<String> all = new ArrayList<>(PmProfiles.names());
        all.add(LEGACY);
        all.add(Hierarchies.PROFILE_PREFIX + "FILE");
        return all;
    }

    /**
     * The PM model {@code text} names, at the bench's scale.
     *
     * @throws UsageException listing the choices if {@code text} names none, or naming what is wrong
     *                        with a profile file
     */
    public static PmProfile resolve(String text) {
        if (text.startsWith(Hierarchies.PROFILE_PREFIX)) {
            String file = text.substring(Hierarchies.PROFILE_PREFIX.length());
            if (file.isEmpty()) {
                throw new UsageException("--pm-profile '" + text + "' needs a file: profile:FILE, saved by"
                        + " 'profile <dir> --pm --save FILE'");
            }
            return ProfileFile.loadPmProfile(Path.of(file)).scaled(DeviceProfiles.DEFAULT_SCALE);
        }
        if (text.equals(LEGACY)) {
            return PmProfiles.forDeviceProfile(DeviceProfiles.get(LEGACY));
        }
        if (!PmProfiles.names().contains(text)) {
            throw new UsageException("--pm-profile '" + text + "' is not a PM profile; valid: "
                    + String.join(", ", choices()) + " (default " + DEFAULT + "; none: no emulated cost, the software"
                    + " path only)");
        }
        return PmProfiles.get(text);
    }
}
