package io.most.cache.jcache;

/** JSR-107's {@code unwrap}: the object itself if it is of the class asked for, else a named error. */
final class Unwrapping {
    private Unwrapping() {
    }

    static <T> T unwrap(Object self, Class<T> clazz) {
        if (clazz.isInstance(self)) {
            return clazz.cast(self);
        }
        throw new IllegalArgumentException(self.getClass().getSimpleName() + " cannot be unwrapped to "
                + clazz.getName());
    }
}
