package io.most.sharing;

/**
 * An access by a tenant outside the space it was given on a shared device: a read, write or discard
 * of bytes that belong to another tenant (or to no one). Nothing was transferred. It is an
 * {@link IllegalArgumentException}, as every out-of-range access to a {@link io.most.device.BlockDevice}
 * is, so callers that handle bad offsets handle it too; its own type lets a caller, a test or an
 * operator tell an isolation violation from an ordinary bad offset.
 */
public class TenantSpaceException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public TenantSpaceException(String message) {
        super(message);
    }
}
