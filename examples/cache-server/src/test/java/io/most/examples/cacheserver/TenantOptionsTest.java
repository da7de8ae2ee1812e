package io.most.examples.cacheserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The tenant options as an operator writes them: {@code --tenant} repeated or with several tenants
 * separated by ';', the same in a {@code --config} properties file, and the sharing policy.
 */
class TenantOptionsTest {
    @TempDir
    Path dir;

    @Test
    void tenantsFromTheCommandLine() {
        CacheServerMain main = new CacheServerMain();
        new CommandLine(main).parseArgs("--dir", dir.toString(), "--tenant", "shop:dram=32m,ssd=1g,weight=3",
                "--tenant", "billing:limit=0.25;ops", "--sharing-policy", "proportional");
        SharingSettings sharing = main.sharing();
        assertEquals(List.of("shop", "billing", "ops"), sharing.tenants().stream().map(TenantSettings::user).toList());
        TenantSettings shop = sharing.tenants().getFirst();
        assertEquals(32L << 20, shop.dramBytes());
        assertEquals(1L << 30, shop.ssdBytes());
        assertEquals(3, shop.weight());
        assertEquals(0.25, sharing.tenants().get(1).limit());
        assertEquals(TenantSettings.DEFAULT_DRAM, sharing.tenants().get(2).dramBytes());
        assertEquals("proportional", sharing.policy());
    }

    @Test
    void tenantsFromAConfigFile() throws Exception {
        File config = dir.resolve("server.properties").toFile();
        Files.writeString(config.toPath(), "tenant=a:dram=8m;b:ssd=128m\nsharing-policy=fair\n");
        CacheServerMain main = new CacheServerMain();
        CommandLine cli = new CommandLine(main);
        cli.setDefaultValueProvider(new CommandLine.PropertiesDefaultProvider(config));
        cli.parseArgs("--dir", dir.toString());
        SharingSettings sharing = main.sharing();
        assertEquals(List.of("a", "b"), sharing.tenants().stream().map(TenantSettings::user).toList());
        assertEquals(128L << 20, sharing.tenants().get(1).ssdBytes());
        assertEquals("fair", sharing.policy());
    }

    @Test
    void aSharePlusAPolicyIsRefused() {
        CacheServerMain main = new CacheServerMain();
        new CommandLine(main).parseArgs("--dir", dir.toString(), "--tenant", "a:share=0.5", "--sharing-policy", "fair");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, main::sharing);
        assertTrue(e.getMessage().contains("the policy sets the caps"), e.getMessage());
    }
}
