package io.most.examples.cacheserver;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The TLS listener, as Redis's {@code tls-*} options configure it.
 *
 * @param port        the TLS port, 0 for any free one
 * @param certFile    the server's certificate chain (PEM)
 * @param keyFile     the server's private key (PEM, PKCS#8, unencrypted)
 * @param caCertFile  the CA that signs client certificates (PEM), null to accept no client certificates
 * @param authClients whether a client must present a certificate signed by that CA
 *                    ({@code tls-auth-clients yes}, Redis's default)
 */
public record TlsSettings(int port, Path certFile, Path keyFile, Path caCertFile, boolean authClients) {

    public TlsSettings {
        Objects.requireNonNull(certFile, "--tls-cert-file is required with --tls-port");
        Objects.requireNonNull(keyFile, "--tls-key-file is required with --tls-port");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("tls port " + port + " must be within 0..65535 (0: any free port)");
        }
        if (authClients && caCertFile == null) {
            throw new IllegalArgumentException("--tls-auth-clients yes needs --tls-ca-cert-file (the CA that signs"
                    + " client certificates); or set --tls-auth-clients no");
        }
    }
}
