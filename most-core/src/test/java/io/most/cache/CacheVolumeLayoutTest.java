package io.most.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.BlockDevice;
import io.most.device.MemoryDevice;
import io.most.errors.ConfigurationException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Caches laid out on one device: ranges that do not overlap, and a layout a restart must repeat. */
class CacheVolumeLayoutTest {
    @TempDir
    Path dir;

    private CacheConfig config(long small, long large) {
        return CacheConfig.builder().directory(dir).dramBytes(2L << 20).smallItemBytes(small).largeItemBytes(large).build();
    }

    private CacheVolumeLayout layout(String first, String second) {
        Map<String, CacheConfig> caches = new LinkedHashMap<>();
        caches.put(first, config(4L << 20, 2L << 20));
        caches.put(second, config(8L << 20, 0));
        return CacheVolumeLayout.of(caches);
    }

    @Test
    void rangesFollowOneAnotherAlignedAndWithinTheLayout() {
        CacheVolumeLayout layout = layout("a", "b");
        BlockDevice device = new MemoryDevice(layout.bytes());
        layout.checkDevice(device);
        BlockDevice[] a = layout.devices(device, "a");
        BlockDevice[] b = layout.devices(device, "b");
        assertNull(b[1], "b has no large items, hence no regions");
        long total = a[0].capacity() + a[1].capacity() + b[0].capacity();
        assertEquals(layout.bytes(), total, "the ranges cover the layout without gaps or overlaps");
        for (BlockDevice d : new BlockDevice[] {a[0], a[1], b[0]}) {
            assertEquals(0, d.capacity() % CacheVolumeLayout.ALIGN);
        }
        assertThrows(IllegalArgumentException.class, () -> layout.devices(device, "c"));
    }

    @Test
    void aDeviceTooSmallIsRefused() {
        CacheVolumeLayout layout = layout("a", "b");
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> layout.checkDevice(new MemoryDevice(layout.bytes() - CacheVolumeLayout.ALIGN)));
        assertTrue(e.getMessage().contains("need " + layout.bytes() + " bytes"), e.getMessage());
    }

    @Test
    void theFirstLayoutIsRecordedAndAnotherIsRefusedKeepingIt() throws Exception {
        Path record = dir.resolve("volume");
        layout("a", "b").recordIn(record);
        String recorded = Files.readString(record.resolve(CacheVolumeLayout.FILE));
        layout("a", "b").recordIn(record); // the same layout again: accepted
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> layout("b", "a").recordIn(record));
        assertTrue(e.getMessage().contains("laid out for other caches or sizes"), e.getMessage());
        assertEquals(recorded, Files.readString(record.resolve(CacheVolumeLayout.FILE)), "the record is kept");
        assertFalse(Files.exists(record.resolve(CacheVolumeLayout.FILE + ".tmp")));
    }
}
