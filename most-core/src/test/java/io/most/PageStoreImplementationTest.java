package io.most;

import io.most.errors.ConfigurationException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.MemoryDevice;
import org.junit.jupiter.api.Test;

/**
 * {@link PageStore#open} reaches its implementation by name: it opens a working store, passes the
 * implementation's own exceptions on unwrapped, and a jar without the implementation fails each call
 * with an {@link IllegalStateException} that names what is missing.
 */
class PageStoreImplementationTest {

    @Test
    void opensTheBufferManager() {
        int pageSize = 4096;
        long bytes = PageStore.blockDeviceBytesFor(64, pageSize);
        assertTrue(bytes >= 64L * pageSize, "the pages and the store's metadata: " + bytes);
        try (PageStore store = PageStore.open(PageStoreConfig.builder()
                .blockDevice(new MemoryDevice(bytes))
                .pageSize(pageSize)
                .dramBytes(16 * pageSize)
                .build())) {
            assertEquals(PageStoreImplementation.CLASS, store.getClass().getName());
            long id = store.allocate();
            assertTrue(store.isAllocated(id));
        }
    }

    @Test
    void passesTheImplementationsExceptionsOnUnwrapped() {
        PageStoreConfig tooSmall = PageStoreConfig.builder()
                .blockDevice(new MemoryDevice(4096)) // not even the store's superblocks fit
                .pageSize(4096)
                .dramBytes(16 * 4096)
                .build();
        assertThrows(ConfigurationException.class, () -> PageStore.open(tooSmall));
    }

    @Test
    void aMissingImplementationIsNamedAtEachCall() {
        PageStoreImplementation.Found missing = PageStoreImplementation.find("io.most.buffer.NoSuchManager");
        for (int call = 0; call < 2; call++) {
            IllegalStateException e = assertThrows(IllegalStateException.class, missing::open);
            assertTrue(e.getMessage().startsWith("io.most.buffer.NoSuchManager is not on the class path"),
                    e.getMessage());
        }
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> PageStoreImplementation.find(PageStoreImplementationTest.class.getName()).deviceBytes());
        assertTrue(e.getMessage().contains("has no public static open(PageStoreConfig)"), e.getMessage());
    }
}
