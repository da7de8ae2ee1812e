package io.most.examples.cacheserver;

import io.most.cache.MostCache;
import io.most.examples.cacheserver.acl.Users;
import io.most.examples.cacheserver.command.CommandTable;
import io.most.examples.cacheserver.command.Keyspace;
import io.most.examples.cacheserver.command.ServerContext;
import io.most.examples.cacheserver.command.ServerStats;
import io.most.examples.cacheserver.command.TenantCaches;
import io.most.examples.cacheserver.protocol.CommandHandler;
import io.most.examples.cacheserver.protocol.RespChannelInitializer;
import io.most.examples.cacheserver.protocol.TlsContexts;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * A Redis-protocol (RESP2) server over a {@link MostCache}: Netty with one event loop group (accepting
 * and serving, sized by {@link ServerSettings#threads()}), commands run on the connection's event loop.
 *
 * <p><b>Lifecycle.</b> {@link #start} opens the cache (a warm start when its directory holds one) and
 * binds. {@link #close} (also what {@code SHUTDOWN} and SIGTERM do) stops accepting, lets every
 * connection finish the requests it has received and flush their replies, closes the connections, then
 * flushes and closes the cache (and the tenants' caches), so that the next start finds every key.
 * Thread-safe; idempotent.
 *
 * <p><b>Tenants.</b> ACL users configured as tenants ({@link ServerSettings#sharing()}) are served from
 * caches of their own on shared devices ({@link TenantCaches}): their keys are in no other user's
 * keyspace.
 */
public final class CacheServer implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(CacheServer.class.getName());
    /** How long a shutdown waits for connections to flush their last replies before cutting them. */
    private static final long DRAIN_SECONDS = 10;

    private final MostCache cache;
    /** The tiered volume the cache's flash is on, null when it is on files. */
    private final ServerVolume volume;
    private final TenantCaches tenants;
    private final EventLoopGroup group;
    private final ChannelGroup clients = new DefaultChannelGroup("most-clients", GlobalEventExecutor.INSTANCE);
    private final Channel serverChannel;
    /** The TLS listener, null without one. */
    private final Channel tlsChannel;
    private final AtomicBoolean closing = new AtomicBoolean();
    private final CountDownLatch closed = new CountDownLatch(1);

    private CacheServer(ServerSettings settings) {
        // users and TLS files first: a bad ACL file or key stops the start before the cache is opened
        CommandTable commands = CommandTable.standard();
        SecuritySettings security = settings.security();
        Users users = Users.load(security.requirePass(), security.aclFile(), commands);
        io.netty.handler.ssl.SslContext ssl = security.tls() == null ? null : TlsContexts.server(security.tls());
        checkTenantsAreUsers(settings.sharing(), users);
        this.volume = settings.volume() == null ? null
                : ServerVolume.open(settings.volume(), settings.cacheConfigBuilder(), settings.dataDirectory());
        try {
            this.cache = MostCache.open(volume == null ? settings.cacheConfig() : volume.cacheConfig());
        } catch (RuntimeException | Error e) {
            closeVolume();
            throw e;
        }
        try {
            this.tenants = TenantCaches.open(settings.dataDirectory(), settings.sharing(), settings.dirtyRatio(),
                    settings.threads());
        } catch (RuntimeException | Error e) {
            try {
                cache.close();
            } finally {
                closeVolume();
            }
            throw e;
        }
        this.group = new MultiThreadIoEventLoopGroup(settings.threads(), new DefaultThreadFactory("most-resp"),
                NioIoHandler.newFactory());
        try {
            InetSocketAddress[] bound = new InetSocketAddress[1];
            ServerContext context = new ServerContext(new Keyspace(cache), tenants, new ServerStats(), settings, users,
                    () -> bound[0], this::closeInBackground);
            RespChannelInitializer initializer = new RespChannelInitializer(context, commands, clients);
            this.serverChannel = bootstrap(settings).childHandler(initializer)
                    .bind(settings.bind(), settings.port()).syncUninterruptibly().channel();
            bound[0] = (InetSocketAddress) serverChannel.localAddress();
            this.tlsChannel = ssl == null ? null : bootstrap(settings).childHandler(initializer.withTls(ssl))
                    .bind(settings.bind(), security.tls().port()).syncUninterruptibly().channel();
        } catch (RuntimeException e) {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
            closeCaches();
            throw e;
        }
    }

    /** A tenant is an ACL user's namespace: one named after no user would be a cache no one can reach. */
    private static void checkTenantsAreUsers(SharingSettings sharing, Users users) {
        java.util.Set<String> names = new java.util.TreeSet<>();
        users.all().forEach(u -> names.add(u.name()));
        for (TenantSettings t : sharing.tenants()) {
            if (!names.contains(t.user())) {
                throw new IllegalArgumentException("--tenant '" + t.user() + "' names no ACL user; the users are " + names
                        + ": add the user to the ACL file or correct the name");
            }
        }
    }

    private ServerBootstrap bootstrap(ServerSettings settings) {
        return new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 511)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(settings.writeBufferLow(), settings.writeBufferHigh()));
    }

    /**
     * Opens the cache and starts serving.
     *
     * @throws io.most.errors.ConfigurationException   if the cache refuses the sizes or cannot create its files
     * @throws io.most.cache.CacheFormatException if the directory holds a cache of another geometry
     * @throws io.most.examples.cacheserver.acl.AclFileException naming the line of a bad ACL file
     * @throws IllegalArgumentException naming a TLS file that cannot be read or parsed
     */
    public static CacheServer start(ServerSettings settings) {
        return new CacheServer(Objects.requireNonNull(settings, "settings"));
    }

    /** The address the server listens on (the real port when the settings asked for any). */
    public InetSocketAddress address() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** The tenants' caches and shared devices (none without tenants). */
    TenantCaches tenants() {
        return tenants;
    }

    /** The address of the TLS listener, null without one. */
    public InetSocketAddress tlsAddress() {
        return tlsChannel == null ? null : (InetSocketAddress) tlsChannel.localAddress();
    }

    /** Waits until the server has closed (by {@link #close}, {@code SHUTDOWN} or a signal). */
    public void awaitTermination() throws InterruptedException {
        closed.await();
    }

    /** Whether the server has closed completely (the cache included). */
    public boolean isClosed() {
        return closed.getCount() == 0;
    }

    private void awaitClosedUninterruptibly() {
        boolean interrupted = false;
        while (closed.getCount() > 0) {
            try {
                closed.await();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@code SHUTDOWN} runs on an event loop, which the shutdown itself waits for: close from another thread. */
    private void closeInBackground() {
        Thread.ofPlatform().name("most-shutdown").start(this::close);
    }

    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            awaitClosedUninterruptibly();
            return;
        }
        try {
            serverChannel.close().syncUninterruptibly();
            if (tlsChannel != null) {
                tlsChannel.close().syncUninterruptibly();
            }
            // each connection runs what it has received, flushes and closes, on its own event loop
            for (Channel client : clients) {
                client.pipeline().fireUserEventTriggered(CommandHandler.SHUTDOWN);
            }
            if (!clients.newCloseFuture().awaitUninterruptibly(DRAIN_SECONDS, TimeUnit.SECONDS)) {
                LOG.warning("connections still open after " + DRAIN_SECONDS + " s: closing them");
                clients.close().awaitUninterruptibly();
            }
            group.shutdownGracefully(0, DRAIN_SECONDS, TimeUnit.SECONDS).syncUninterruptibly();
        } finally {
            try {
                closeCaches();
            } finally {
                closed.countDown();
            }
        }
    }

    /** The tenants' caches, the cache, then the volume under it (its clean checkpoint comes last). */
    private void closeCaches() {
        try {
            tenants.close();
        } finally {
            try {
                cache.close();
            } finally {
                closeVolume();
            }
        }
    }

    private void closeVolume() {
        if (volume != null) {
            volume.close();
        }
    }
}
