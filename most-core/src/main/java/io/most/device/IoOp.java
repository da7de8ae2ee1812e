package io.most.device;

/** The kinds of device operation that statistics and fault injection distinguish. */
public enum IoOp {
    READ, WRITE, FORCE,
    /** {@link BlockDevice#discard}: a trim of a range whose contents are no longer needed. */
    DISCARD;

    /** Lower-case name used in metric tags and reports. */
    public String tag() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
