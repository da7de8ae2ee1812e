package io.most;

import io.most.errors.ConfigurationException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.DeviceProfiles;
import io.most.device.EmulatedPm;
import io.most.device.IoOp;
import io.most.device.MemoryDevice;
import io.most.device.PmProfiles;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a page store's PM tier chooses its emulated PM device: by profile name, profile, instance or legacy profile. */
class PageStoreConfigPmModelTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    private PageStoreConfig.Builder withPm(String file) {
        return PageStoreConfig.builder().pageSize(PAGE).dramBytes(16L * PAGE)
                .blockDevice(new MemoryDevice(PageStore.blockDeviceBytesFor(256, PAGE)))
                .pm(dir.resolve(file), 33L * PAGE);
    }

    @Test
    void aProfileNameSelectsTheSharedDeviceOfThatProfile() {
        PageStoreConfig a = withPm("a.pm").pmProfile("optane-pm-2dimm").build();
        PageStoreConfig b = withPm("b.pm").pmProfile(PmProfiles.get("optane-pm-2dimm")).build();
        assertEquals(PmProfiles.get("optane-pm-2dimm"), a.pmModel().profile());
        assertSame(a.pmModel(), b.pmModel(), "two stores naming one profile share its device");
        assertSame(EmulatedPm.shared(PmProfiles.get("optane-pm-2dimm")), a.pmModel());
    }

    @Test
    void withoutAModelThePmFileIsUsedAsItIs() {
        assertNull(withPm("plain.pm").build().pmModel());
    }

    @Test
    void theLegacyPmemBlockProfileMapsToOptanePmAtItsScale() {
        PageStoreConfig c = withPm("legacy.pm").pmProfile(DeviceProfiles.get("pmem", 2.5)).build();
        assertEquals(PmProfiles.get("optane-pm", 2.5), c.pmModel().profile());
    }

    @Test
    void badPmModelsSayWhatToChange() {
        ConfigurationException unknown = assertThrows(ConfigurationException.class,
                () -> withPm("x.pm").pmProfile("optane"));
        assertTrue(unknown.getMessage().contains("'optane'") && unknown.getMessage().contains("optane-pm-1dimm")
                && unknown.getMessage().contains("cxl-far-memory"), unknown.getMessage());
        ConfigurationException flash = assertThrows(ConfigurationException.class,
                () -> withPm("x.pm").pmProfile(DeviceProfiles.get("sata-ssd")));
        assertTrue(flash.getMessage().contains("sata-ssd") && flash.getMessage().contains("optane-pm"),
                flash.getMessage());
        ConfigurationException noTier = assertThrows(ConfigurationException.class, () -> PageStoreConfig.builder()
                .blockDevice(new MemoryDevice(1 << 22)).pmProfile("optane-pm").build());
        assertTrue(noTier.getMessage().contains("no PM tier"), noTier.getMessage());
    }

    @Test
    void storesGivenOneInstanceBothPayThroughIt() {
        EmulatedPm device = new EmulatedPm(PmProfiles.get("cxl-far-memory", 1));
        try (PageStore a = PageStore.open(withPm("a.pm").pmModel(device).build());
             PageStore b = PageStore.open(withPm("b.pm").pmModel(device).build())) {
            long before = device.accesses(IoOp.WRITE) + device.accesses(IoOp.READ);
            writeAndFlush(a);
            long afterA = device.accesses(IoOp.WRITE) + device.accesses(IoOp.READ);
            writeAndFlush(b);
            long afterB = device.accesses(IoOp.WRITE) + device.accesses(IoOp.READ);
            assertTrue(afterA > before, "store a's PM traffic reached the shared device: " + before + " -> " + afterA);
            assertTrue(afterB > afterA, "store b's PM traffic reached the same device: " + afterA + " -> " + afterB);
        }
    }

    private static void writeAndFlush(PageStore store) {
        for (int i = 0; i < 8; i++) {
            long id = store.allocate();
            try (Page page = store.write(id)) {
                page.payload().set(ValueLayout.JAVA_INT, 0, i);
                page.markDirty(1);
            }
        }
        store.flush(); // the default lazy policy writes dirty DRAM pages back into PM
    }
}
