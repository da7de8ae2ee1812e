package io.most.cache.jcache;

import javax.management.MBeanServer;
import javax.management.MBeanServerBuilder;
import javax.management.MBeanServerDelegate;

/**
 * For the JSR-107 TCK (named by {@code javax.management.builder.initial}): builds the platform MBean
 * server with the agent id the TCK finds it by ({@code org.jsr107.tck.management.agentId}).
 */
public final class TckMBeanServerBuilder extends MBeanServerBuilder {

    @Override
    public MBeanServer newMBeanServer(String defaultDomain, MBeanServer outer, MBeanServerDelegate delegate) {
        return super.newMBeanServer(defaultDomain, outer, new AgentIdDelegate(delegate));
    }

    /** The default delegate with the TCK's agent id. */
    private static final class AgentIdDelegate extends MBeanServerDelegate {
        private final MBeanServerDelegate delegate;

        AgentIdDelegate(MBeanServerDelegate delegate) {
            this.delegate = delegate;
        }

        @Override
        public String getMBeanServerId() {
            return System.getProperty("org.jsr107.tck.management.agentId", delegate.getMBeanServerId());
        }

        @Override
        public String getSpecificationName() {
            return delegate.getSpecificationName();
        }

        @Override
        public String getSpecificationVersion() {
            return delegate.getSpecificationVersion();
        }

        @Override
        public String getSpecificationVendor() {
            return delegate.getSpecificationVendor();
        }

        @Override
        public String getImplementationName() {
            return delegate.getImplementationName();
        }

        @Override
        public String getImplementationVersion() {
            return delegate.getImplementationVersion();
        }

        @Override
        public String getImplementationVendor() {
            return delegate.getImplementationVendor();
        }
    }
}
