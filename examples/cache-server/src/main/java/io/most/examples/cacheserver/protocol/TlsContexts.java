package io.most.examples.cacheserver.protocol;

import io.most.examples.cacheserver.TlsSettings;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import javax.net.ssl.SSLException;

/**
 * The server's TLS context from {@link TlsSettings}, on the JDK's TLS (no native library). Each file is
 * read and checked here, at start, so that a missing or malformed certificate or key stops the start
 * with an error naming the file rather than failing every handshake later.
 */
public final class TlsContexts {

    private TlsContexts() {
    }

    /**
     * The server context {@code tls} describes.
     *
     * @throws IllegalArgumentException naming the file that cannot be read or parsed
     */
    public static SslContext server(TlsSettings tls) {
        requireCertificates(tls.certFile(), "--tls-cert-file");
        if (tls.caCertFile() != null) {
            requireCertificates(tls.caCertFile(), "--tls-ca-cert-file");
        }
        requireReadable(tls.keyFile(), "--tls-key-file");
        SslContextBuilder builder;
        try {
            builder = SslContextBuilder.forServer(tls.certFile().toFile(), tls.keyFile().toFile());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--tls-key-file " + tls.keyFile() + ": not a private key this server"
                    + " reads (an unencrypted PEM key in PKCS#8, BEGIN PRIVATE KEY; convert one with `openssl pkcs8"
                    + " -topk8 -nocrypt -in KEY -out KEY.pk8`), or it does not match --tls-cert-file " + tls.certFile()
                    + ": " + rootMessage(e), e);
        }
        builder.sslProvider(SslProvider.JDK);
        if (tls.caCertFile() != null) {
            builder.trustManager(tls.caCertFile().toFile())
                    .clientAuth(tls.authClients() ? ClientAuth.REQUIRE : ClientAuth.OPTIONAL);
        }
        try {
            return builder.build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("TLS context from --tls-cert-file " + tls.certFile() + " and"
                    + " --tls-key-file " + tls.keyFile() + ": " + rootMessage(e), e);
        }
    }

    private static void requireReadable(Path file, String option) {
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException(option + " " + file + ": no such readable file");
        }
    }

    private static void requireCertificates(Path file, String option) {
        requireReadable(file, option);
        try (InputStream in = Files.newInputStream(file)) {
            if (CertificateFactory.getInstance("X.509").generateCertificates(in).isEmpty()) {
                throw new IllegalArgumentException(option + " " + file + ": no certificate in it (PEM expected)");
            }
        } catch (IOException | CertificateException e) {
            throw new IllegalArgumentException(option + " " + file + ": not a PEM certificate (" + rootMessage(e) + ")",
                    e);
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + t.getMessage() + ")";
    }
}
