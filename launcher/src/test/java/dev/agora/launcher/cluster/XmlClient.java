package dev.agora.launcher.cluster;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/** One request of the exchange's XML protocol: length line, XML, then read the reply to end of stream. */
final class XmlClient {

    private XmlClient() {}

    /** A reply and which exchange instance (1-based) sent it. */
    record Reply(int instance, String xml) {}

    /**
     * Sends to whichever exchange instance listens: only the active one does, and that is not always exchange-1 (on
     * two busy cores the active instance can miss its 500 ms lease and the standby take over). Tries every port in
     * turn for up to {@code timeout}, as a takeover leaves none listening for a moment.
     */
    static Reply sendToActive(List<Integer> ports, String xml, Duration timeout)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            IOException refused = null;
            for (int index = 0; index < ports.size(); index++) {
                try {
                    return new Reply(index + 1, send(ports.get(index), xml));
                } catch (ConnectException notActive) {
                    refused = notActive;
                }
            }
            if (System.nanoTime() > deadline) throw refused;
            Thread.sleep(50);
        }
    }

    static String send(int port, String xml) throws IOException {
        byte[] body = xml.getBytes(StandardCharsets.UTF_8);
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write((body.length + "\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
