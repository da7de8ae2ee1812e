package io.most.cache.jcache;

import java.lang.management.ManagementFactory;
import javax.cache.CacheException;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * Registers a cache's MXBeans in the platform MBean server under the names JSR-107 defines:
 * {@code javax.cache:type=CacheConfiguration|CacheStatistics,CacheManager=<uri>,Cache=<name>}.
 */
final class JmxRegistration {
    enum Kind {
        CONFIGURATION("CacheConfiguration"), STATISTICS("CacheStatistics");

        final String type;

        Kind(String type) {
            this.type = type;
        }
    }

    private JmxRegistration() {
    }

    static void register(MostJCache<?, ?> cache, Object bean, Kind kind) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = name(cache, kind);
        try {
            if (!server.isRegistered(name)) {
                server.registerMBean(bean, name);
            }
        } catch (InstanceAlreadyExistsException raced) {
            // registered by a concurrent call: the same bean
        } catch (JMException e) {
            throw new CacheException("cannot register " + name + ": " + e, e);
        }
    }

    static void unregister(MostJCache<?, ?> cache, Kind kind) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = name(cache, kind);
        try {
            if (server.isRegistered(name)) {
                server.unregisterMBean(name);
            }
        } catch (InstanceNotFoundException raced) {
            // unregistered by a concurrent call
        } catch (JMException e) {
            throw new CacheException("cannot unregister " + name + ": " + e, e);
        }
    }

    private static ObjectName name(MostJCache<?, ?> cache, Kind kind) {
        String manager = safe(cache.getCacheManager().getURI().toString());
        try {
            return new ObjectName("javax.cache:type=" + kind.type + ",CacheManager=" + manager + ",Cache="
                    + safe(cache.getName()));
        } catch (MalformedObjectNameException e) {
            throw new CacheException("no valid JMX name for cache " + cache.getName(), e);
        }
    }

    /** Replaces what an object name's value may not hold. */
    private static String safe(String s) {
        return s == null ? "" : s.replaceAll("[,:=\n*?\"]", ".");
    }
}
