package io.most;

import io.most.errors.CorruptPageException;

import io.most.errors.ConfigurationException;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.WrongMethodTypeException;

/**
 * How {@link PageStore#open} reaches the buffer manager that implements it without naming it in code:
 * {@code io.most.buffer} implements this package's interfaces, so a reference the other way would
 * make the two packages one cycle, neither readable, testable or replaceable without the other. The
 * implementation class is found once by name, in this class's own class loader, and its static
 * {@code open} and {@code blockDeviceBytesFor} are called through method handles, which pass on what
 * they throw as it is (a reflective {@code Method.invoke} would wrap it), so that a caller catches the
 * same {@link ConfigurationException} or {@link CorruptPageException} as from a direct call.
 *
 * <p>Not a {@link java.util.ServiceLoader}: there is one implementation, shipped in the same jar, and
 * a provider file would be one more thing that a shading or minimizing build can drop silently.
 */
final class PageStoreImplementation {
    /** The class that implements {@link PageStore}, in the same jar as this one. */
    static final String CLASS = "io.most.buffer.SpitfireBufferManager";

    private PageStoreImplementation() {
    }

    /** {@link PageStore#open}. */
    static PageStore open(PageStoreConfig config) {
        try {
            return (PageStore) FOUND.open().invokeExact(config);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) { // open() declares no checked exception
            throw new IllegalStateException(CLASS + ".open threw " + e, e);
        }
    }

    /** {@link PageStore#blockDeviceBytesFor}. */
    static long blockDeviceBytesFor(long pages, int pageSize) {
        try {
            return (long) FOUND.deviceBytes().invokeExact(pages, pageSize);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(CLASS + ".blockDeviceBytesFor threw " + e, e);
        }
    }

    /**
     * The implementation's two entry points, or what is missing. A jar without them fails each call
     * with an {@link IllegalStateException} that says so, rather than this class's initialization,
     * which would surface as an {@link ExceptionInInitializerError} and then as an unexplained
     * {@link NoClassDefFoundError}.
     */
    record Found(MethodHandle open, MethodHandle deviceBytes, String missing) {
        public MethodHandle open() {
            check();
            return open;
        }

        public MethodHandle deviceBytes() {
            check();
            return deviceBytes;
        }

        private void check() {
            if (missing != null) {
                throw new IllegalStateException(missing + ": the most-core jar is incomplete or mixed with another"
                        + " version; use one most-core jar as built, with its io.most.buffer package");
            }
        }
    }

    private static final Found FOUND = find(CLASS);

    /** The entry points of class {@code name} (a parameter so that a test can name a class that is not there). */
    static Found find(String name) {
        try {
            Class<?> implementation = Class.forName(name, true, PageStoreImplementation.class.getClassLoader());
            // this class's own lookup: the implementation is in the same module, exported or not
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            return new Found(
                    lookup.findStatic(implementation, "open", MethodType.methodType(implementation,
                            PageStoreConfig.class)).asType(MethodType.methodType(PageStore.class, PageStoreConfig.class)),
                    lookup.findStatic(implementation, "blockDeviceBytesFor",
                            MethodType.methodType(long.class, long.class, int.class)),
                    null);
        } catch (ClassNotFoundException e) {
            return new Found(null, null, name + " is not on the class path");
        } catch (ReflectiveOperationException | WrongMethodTypeException e) {
            return new Found(null, null, name + " has no public static open(PageStoreConfig) returning a PageStore,"
                    + " or no public static long blockDeviceBytesFor(long, int)");
        }
    }
}
