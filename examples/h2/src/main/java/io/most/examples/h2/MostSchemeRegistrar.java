package io.most.examples.h2;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverPropertyInfo;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * Registers the {@code most} scheme with H2 as soon as JDBC starts, so that an unmodified application
 * whose URL says {@code jdbc:h2:most:...} never reaches H2 before the scheme exists. Without this, H2
 * treats an unknown scheme as part of a disk path and silently creates {@code ./most:/...} on disk.
 *
 * <p>It is a {@link Driver} only to be loaded by {@link java.sql.DriverManager}'s service lookup
 * ({@code META-INF/services/java.sql.Driver}); it accepts no URL and opens no connection, leaving
 * every {@code jdbc:h2:} URL to H2's driver.
 */
public final class MostSchemeRegistrar implements Driver {
    static {
        MostFileSystem.register();
    }

    /** Called by the service loader. */
    public MostSchemeRegistrar() {
        // registration happened in the static initializer
    }

    @Override
    public Connection connect(String url, Properties info) {
        return null; // not ours: DriverManager asks the next driver
    }

    @Override
    public boolean acceptsURL(String url) {
        return false;
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
        return new DriverPropertyInfo[0];
    }

    @Override
    public int getMajorVersion() {
        return 0;
    }

    @Override
    public int getMinorVersion() {
        return 1;
    }

    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("no logging");
    }
}
