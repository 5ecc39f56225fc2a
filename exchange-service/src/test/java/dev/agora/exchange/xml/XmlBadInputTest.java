package dev.agora.exchange.xml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agora.exchange.support.ExchangeServiceTest;
import dev.agora.exchange.support.Ids;
import dev.agora.exchange.support.XmlClient;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Hostile and broken input on the XML port: every case gets an error (or a closed connection), changes
 * nothing (each payload would have created a fresh account, which can still be created afterwards), and
 * does not disturb other clients.
 */
class XmlBadInputTest extends ExchangeServiceTest {

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String createXml(String account) {
        return "<create><account id=\"" + account + "\" balance=\"100\"/></create>";
    }

    /** The account was not created by the bad request: creating it now works. */
    private void assertNotCreated(String account) {
        assertThat(createAccount(account, "1")).isEqualTo("<results><created id=\"" + account + "\"/></results>");
    }

    @Test
    void truncatedFrame() {
        String account = Ids.account();
        String xml = createXml(account);
        String reply = this.xml.sendRaw(bytes((xml.length() + 10) + "\n" + xml));
        // The client half-closes after sending: the stream ends early.
        assertThat(reply).startsWith("<results><error>").contains("stream ended after");
        assertNotCreated(account);
    }

    @Test
    void lengthLargerThanTheBodyTimesOut() throws Exception {
        String account = Ids.account();
        String xml = createXml(account);
        try (Socket socket = this.xml.connect()) {
            socket.getOutputStream().write(bytes((xml.length() + 50) + "\n" + xml));
            socket.getOutputStream().flush();
            // Keep the connection open without sending the rest: the server's read timeout answers.
            String reply = XmlClient.readAll(socket.getInputStream());
            assertThat(reply)
                    .isEqualTo("<results><error>read timeout after " + xml.length() + " of " + (xml.length() + 50)
                            + " bytes</error></results>");
        }
        assertNotCreated(account);
    }

    @Test
    void hugeDeclaredLengthIsRefusedBeforeReading() {
        assertThat(xml.sendRaw(bytes("99999999\n<create/>")))
                .isEqualTo("<results><error>message is larger than the maximum of 65536 bytes</error></results>");
        assertThat(xml.sendRaw(bytes("999999999999999999999999\n<create/>")))
                .startsWith("<results><error>message is larger than the maximum");
    }

    @Test
    void nonNumericOrMissingLength() {
        assertThat(xml.sendRaw(bytes("abc\n<create/>")))
                .isEqualTo("<results><error>length line must be decimal digits</error></results>");
        assertThat(xml.sendRaw(bytes("-5\n<create/>"))).contains("length line must be decimal digits");
        assertThat(xml.sendRaw(bytes("\n<create/>"))).contains("length line has no digits");
        assertThat(xml.sendRaw(bytes(""))).contains("stream ended before the length line ended");
        assertThat(xml.sendRaw(bytes("<create/>"))).contains("length line must be decimal digits");
    }

    @Test
    void lengthLineMayEndWithCarriageReturnNewline() {
        String account = Ids.account();
        String xml = createXml(account);
        assertThat(this.xml.sendRaw(bytes(xml.length() + "\r\n" + xml)))
                .isEqualTo("<results><created id=\"" + account + "\"/></results>");
    }

    @Test
    void bytesBeyondTheDeclaredLengthAreIgnored() {
        String account = Ids.account();
        String xml = createXml(account);
        assertThat(this.xml.sendRaw(bytes(xml.length() + "\n" + xml + "\n<create/>\n")))
                .isEqualTo("<results><created id=\"" + account + "\"/></results>");
    }

    @Test
    void invalidXml() {
        String account = Ids.account();
        for (String broken : new String[] {
            "<create><account id=\"" + account + "\" balance=\"1\"></create>",
            "<create><account id=\"" + account + "\" balance=\"1\"/>",
            "not xml at all",
            "<create><account id=\"" + account + "\" balance=\"1\"/></create><junk",
        }) {
            String reply = xml.send(broken);
            if (broken.endsWith("<junk")) {
                // Content after the root element is never read.
                continue;
            }
            assertThat(reply).as(broken).startsWith("<results><error>invalid XML: ");
        }
        assertThat(xml.send("")).startsWith("<results><error>");
    }

    @Test
    void externalEntitiesAreNeverResolved() {
        String account = Ids.account();
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE create [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>"
                + "<create><account id=\"" + account + "\" balance=\"&xxe;\"/></create>";
        String reply = xml.send(xxe);
        assertThat(reply).isEqualTo("<results><error>DTDs are not allowed</error></results>");
        assertThat(reply).doesNotContain("root:");
        assertNotCreated(account);
    }

    @Test
    void billionLaughsIsRefused() {
        StringBuilder dtd = new StringBuilder("<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">");
        for (int i = 1; i <= 9; i++) {
            String previous = i == 1 ? "&lol;" : "&lol" + (i - 1) + ";";
            dtd.append("<!ENTITY lol")
                    .append(i)
                    .append(" \"")
                    .append(previous.repeat(10))
                    .append("\">");
        }
        dtd.append("]><create><account id=\"1\" balance=\"&lol9;\"/></create>");
        assertThat(xml.send(dtd.toString())).isEqualTo("<results><error>DTDs are not allowed</error></results>");
    }

    @Test
    void entityReferencesWithoutADtdAreInvalid() {
        String account = Ids.account();
        assertThat(xml.send("<create><account id=\"" + account + "\" balance=\"&undefined;\"/></create>"))
                .startsWith("<results><error>invalid XML: ");
        assertNotCreated(account);
    }

    @Test
    void unknownRequestsAndTags() {
        assertThat(xml.send("<delete><account id=\"1\"/></delete>"))
                .isEqualTo("<results><error>unsupported request &lt;delete&gt;</error></results>");
        String account = Ids.account();
        createAccount(account, "10");
        assertThat(xml.send("<transactions id=\"" + account + "\"><transfer to=\"2\"/></transactions>"))
                .isEqualTo("<results><error>unsupported element &lt;transfer&gt;</error></results>");
        String symbol = Ids.symbol();
        assertThat(xml.send("<create><symbol sym=\"" + symbol + "\"><owner id=\"" + account + "\">5</owner></symbol>"
                        + "</create>"))
                .isEqualTo("<results><error>unsupported element &lt;owner&gt;</error></results>");
    }

    @Test
    void deepNestingIsRefused() {
        String account = Ids.account();
        String deep = "<a>".repeat(100) + "</a>".repeat(100);
        assertThat(xml.send("<create><account id=\"" + account + "\" balance=\"1\"/><x>" + deep + "</x></create>"))
                .isEqualTo("<results><error>elements nest too deeply</error></results>");
        // The whole request was refused, its good child included.
        assertNotCreated(account);
    }

    @Test
    void nestedElementInAShareCountIsInvalid() {
        String account = Ids.account();
        createAccount(account, "1");
        assertThat(xml.send("<create><symbol sym=\"" + Ids.symbol() + "\"><account id=\"" + account + "\"><b>5</b>"
                        + "</account></symbol></create>"))
                .startsWith("<results><error>invalid XML: ");
    }

    @Test
    void aStalledClientDoesNotBlockOthers() throws Exception {
        String stalledAccount = Ids.account();
        List<Socket> stalled = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                Socket socket = xml.connect();
                OutputStream out = socket.getOutputStream();
                out.write(bytes("500\n<create><account id=\"" + stalledAccount + "\""));
                out.flush();
                stalled.add(socket);
            }
            // While 20 connections hang mid-request, others are served...
            for (int i = 0; i < 20; i++) {
                String account = Ids.account();
                assertThat(createAccount(account, "1"))
                        .isEqualTo("<results><created id=\"" + account + "\"/></results>");
            }
            // ...before the hanging ones are even answered (they are still waiting for their read timeout).
            for (Socket socket : stalled) {
                socket.setSoTimeout(1);
                assertThatThrownBy(() -> socket.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
            }
            for (Socket socket : stalled) {
                socket.setSoTimeout(30_000);
                assertThat(XmlClient.readAll(socket.getInputStream())).contains("read timeout");
            }
        } finally {
            for (Socket socket : stalled) socket.close();
        }
        assertNotCreated(stalledAccount);
    }

    @Test
    void aClientThatConnectsAndLeavesHarmsNothing() throws Exception {
        for (int i = 0; i < 10; i++) {
            try (Socket socket = xml.connect()) {
                socket.setSoLinger(true, 0);
            }
        }
        String account = Ids.account();
        assertThat(createAccount(account, "1")).isEqualTo("<results><created id=\"" + account + "\"/></results>");
    }
}
