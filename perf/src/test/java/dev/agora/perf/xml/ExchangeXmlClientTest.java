package dev.agora.perf.xml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Against a real TCP server on 127.0.0.1 that speaks the framing of EXCHANGE-PROTOCOL.md. */
class ExchangeXmlClientTest {

    @Test
    void framesTheRequestAsByteLengthNewlineXmlAndReadsTheReplyToEndOfStream() throws Exception {
        String xml = "<create><account id=\"1\" balance=\"1000\"/><symbol sym=\"Ü\"/></create>";
        String reply = "<results><created id=\"1\"/></results>";
        try (ServerSocket server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            CompletableFuture<byte[]> received = CompletableFuture.supplyAsync(() -> serveOnce(server, reply));

            String answer = new ExchangeXmlClient("127.0.0.1", server.getLocalPort(), Duration.ofSeconds(5)).send(xml);

            assertThat(answer).isEqualTo(reply);
            byte[] body = xml.getBytes(StandardCharsets.UTF_8);
            assertThat(body.length).isGreaterThan(xml.length()); // the umlaut takes two bytes
            String expected = body.length + "\n" + xml;
            assertThat(new String(received.get(), StandardCharsets.UTF_8)).isEqualTo(expected);
        }
    }

    @Test
    void frameMatchesTheProtocolByteForByte() {
        assertThat(new String(ExchangeXmlClient.frame("<a/>"), StandardCharsets.UTF_8))
                .isEqualTo("4\n<a/>");
        assertThat(ExchangeXmlClient.frame("é")).containsExactly('2', '\n', 0xC3, 0xA9);
    }

    @Test
    void aServerThatNeverAnswersTimesOut() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Socket> accepted = CompletableFuture.supplyAsync(() -> {
                try {
                    return server.accept();
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            ExchangeXmlClient client =
                    new ExchangeXmlClient("127.0.0.1", server.getLocalPort(), Duration.ofMillis(300));

            assertThatThrownBy(() -> client.send("<create/>")).isInstanceOf(SocketTimeoutException.class);
            accepted.get().close();
        }
    }

    /** Reads the length line and exactly that many bytes, answers, closes; returns what it read. */
    private static byte[] serveOnce(ServerSocket server, String reply) {
        try (Socket socket = server.accept()) {
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            StringBuilder length = new StringBuilder();
            int b;
            while ((b = in.read()) != '\n') {
                all.write(b);
                length.append((char) b);
            }
            all.write('\n');
            byte[] body = in.readNBytes(Integer.parseInt(length.toString()));
            all.write(body);
            socket.getOutputStream().write(reply.getBytes(StandardCharsets.UTF_8));
            return all.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
