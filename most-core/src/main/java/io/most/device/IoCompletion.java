package io.most.device;

import java.util.Objects;

/**
 * A finished request of an {@link IoQueue}: the request as it was submitted, its tag, and its failure
 * if it failed. A failed request transferred nothing usable: a failed read leaves its buffer's contents
 * unspecified, a failed write may have written part of its blocks (as a failed {@link BlockDevice#write}).
 *
 * @param request the submitted request (the same instance)
 * @param tag     the tag it was submitted with
 * @param failure null if the request succeeded, else why it failed: a {@link DeviceIOException}
 *                ({@link DeviceFullException} when a write found no space), or an
 *                {@link IllegalStateException} if the device was closed before the request started
 */
public record IoCompletion(IoRequest request, long tag, RuntimeException failure) {
    /** @throws NullPointerException if {@code request} is null */
    public IoCompletion {
        Objects.requireNonNull(request, "request");
    }

    /** Whether the request succeeded. */
    public boolean succeeded() {
        return failure == null;
    }

    /**
     * Returns the request if it succeeded, else throws its failure.
     *
     * @throws RuntimeException the request's failure
     */
    public IoRequest requireSuccess() {
        if (failure != null) {
            throw failure;
        }
        return request;
    }
}
