package dev.agora.launcher.cluster;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** One request of the exchange's XML protocol: length line, XML, then read the reply to end of stream. */
final class XmlClient {

    private XmlClient() {}

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
