package io.most.examples.cacheserver;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A raw RESP2 client for tests: sends requests as bytes and returns each reply as the exact bytes the
 * server sent (one complete reply, however nested), so that two servers can be compared byte for byte.
 */
final class RespClient implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RespClient(int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        socket.setSoTimeout(30_000);
        socket.setTcpNoDelay(true);
        in = new BufferedInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** A request as RESP bytes: an array of bulk strings. */
    static byte[] encode(List<byte[]> args) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(("*" + args.size() + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (byte[] a : args) {
            b.writeBytes(("$" + a.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            b.writeBytes(a);
            b.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        return b.toByteArray();
    }

    /** A request of UTF-8 arguments. */
    static byte[] encode(String... args) {
        return encode(java.util.Arrays.stream(args).map(a -> a.getBytes(StandardCharsets.UTF_8)).toList());
    }

    /** Sends raw bytes. */
    void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Sends {@code args} as one request and returns the reply's bytes. */
    byte[] call(String... args) throws IOException {
        send(encode(args));
        return readReply();
    }

    /** Sends {@code args} as one request and returns the reply as text. */
    String callText(String... args) throws IOException {
        return new String(call(args), StandardCharsets.UTF_8);
    }

    /** The bytes of the next complete reply. */
    byte[] readReply() throws IOException {
        ByteArrayOutputStream reply = new ByteArrayOutputStream();
        readReply(reply);
        return reply.toByteArray();
    }

    /** Whether the server closed the connection: the next read finds the end of the stream. */
    boolean isClosedByServer() throws IOException {
        try {
            return in.read() == -1;
        } catch (java.net.SocketException e) {
            return true; // reset by the server
        }
    }

    private void readReply(ByteArrayOutputStream reply) throws IOException {
        int type = in.read();
        if (type == -1) {
            throw new EOFException("connection closed before a reply");
        }
        reply.write(type);
        String line = readLine(reply);
        switch (type) {
            case '+', '-', ':' -> {
            }
            case '$' -> {
                int len = Integer.parseInt(line);
                if (len >= 0) {
                    reply.write(in.readNBytes(len + 2));
                }
            }
            case '*' -> {
                int count = Integer.parseInt(line);
                for (int i = 0; i < count; i++) {
                    readReply(reply);
                }
            }
            default -> throw new IOException("not a RESP reply: type byte " + type);
        }
    }

    private String readLine(ByteArrayOutputStream reply) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int prev = -1;
        while (true) {
            int c = in.read();
            if (c == -1) {
                throw new EOFException("connection closed in a reply line");
            }
            reply.write(c);
            if (prev == '\r' && c == '\n') {
                byte[] b = line.toByteArray();
                return new String(b, 0, b.length - 1, StandardCharsets.UTF_8);
            }
            line.write(c);
            prev = c;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
