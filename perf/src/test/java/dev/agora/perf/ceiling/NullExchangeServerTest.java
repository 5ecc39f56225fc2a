package dev.agora.perf.ceiling;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ceiling's server in its own process, over real TCP on 127.0.0.1. */
class NullExchangeServerTest {

    @Test
    void repliesOnlyOnceTheWholeFrameArrivedThenClosesTheConnection() throws Exception {
        try (NullExchangeProcess server = NullExchangeProcess.start(List.of("-Xmx64m"))) {
            for (int request = 0; request < 3; request++) {
                try (Socket socket = new Socket("127.0.0.1", server.port())) {
                    socket.setSoTimeout(300);
                    OutputStream out = socket.getOutputStream();
                    InputStream in = socket.getInputStream();
                    out.write("17\n<create></".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    boolean answeredEarly;
                    try {
                        answeredEarly = in.read() >= 0;
                    } catch (SocketTimeoutException expected) {
                        answeredEarly = false;
                    }
                    assertThat(answeredEarly)
                            .as("a reply before the frame is whole")
                            .isFalse();

                    out.write("create>".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    socket.setSoTimeout(5_000);

                    assertThat(in.readAllBytes()).isEqualTo(NullExchangeServer.REPLY);
                }
            }
        }
    }
}
