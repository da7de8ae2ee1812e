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
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
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
        requireMatchingKey(tls.certFile(), tls.keyFile());
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

    /**
     * Signs with the key and verifies with the certificate's public key: the JDK would otherwise accept a
     * key of another certificate here and fail every handshake later.
     */
    private static void requireMatchingKey(Path certFile, Path keyFile) {
        try (InputStream in = Files.newInputStream(certFile)) {
            X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
            PublicKey publicKey = cert.getPublicKey();
            PrivateKey privateKey = KeyFactory.getInstance(publicKey.getAlgorithm())
                    .generatePrivate(new PKCS8EncodedKeySpec(pemBody(keyFile)));
            String algorithm = switch (publicKey.getAlgorithm()) {
                case "RSA" -> "SHA256withRSA";
                case "EC" -> "SHA256withECDSA";
                default -> publicKey.getAlgorithm(); // Ed25519, Ed448
            };
            byte[] probe = "most-tls-key-check".getBytes(StandardCharsets.US_ASCII);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(privateKey);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(publicKey);
            verifier.update(probe);
            if (!verifier.verify(signature)) {
                throw new IllegalArgumentException("--tls-key-file " + keyFile + " is not the private key of"
                        + " --tls-cert-file " + certFile + ": give the key the certificate was made for");
            }
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("--tls-key-file " + keyFile + ": cannot use it with --tls-cert-file "
                    + certFile + " (" + rootMessage(e) + "); an unencrypted PEM key in PKCS#8 (BEGIN PRIVATE KEY) of"
                    + " the certificate's key type is expected", e);
        }
    }

    private static byte[] pemBody(Path keyFile) throws IOException {
        String pem = Files.readString(keyFile, StandardCharsets.US_ASCII);
        int begin = pem.indexOf("-----BEGIN PRIVATE KEY-----");
        int end = pem.indexOf("-----END PRIVATE KEY-----");
        if (begin < 0 || end < begin) {
            throw new IOException("no BEGIN PRIVATE KEY block (PKCS#1 or encrypted keys: convert with `openssl pkcs8"
                    + " -topk8 -nocrypt`)");
        }
        String body = pem.substring(begin + "-----BEGIN PRIVATE KEY-----".length(), end).replaceAll("\\s", "");
        try {
            return Base64.getDecoder().decode(body);
        } catch (IllegalArgumentException e) {
            throw new IOException("the key block is not base64", e);
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
