package dev.agora.common.files;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletResponse;

class FileHeadersTest {

    @Test
    void typesABrowserWouldRunAreServedAsBytes() {
        for (String active : new String[] {
            "text/html",
            "TEXT/HTML; charset=utf-8",
            "application/javascript",
            "text/javascript",
            "image/svg+xml",
            "application/xhtml+xml",
            "text/xml",
            "application/x-shockwave-flash",
            "multipart/x-mixed-replace; boundary=x"
        }) {
            assertThat(FileHeaders.servedType(active)).as(active).isEqualTo("application/octet-stream");
        }
    }

    @Test
    void typesOnTheAllowListKeepTheirTypeAndATextsCharset() {
        assertThat(FileHeaders.servedType("application/pdf")).isEqualTo("application/pdf");
        assertThat(FileHeaders.servedType("Application/EPUB+zip")).isEqualTo("application/epub+zip");
        assertThat(FileHeaders.servedType("image/png; q=1")).isEqualTo("image/png");
        assertThat(FileHeaders.servedType("text/plain; charset=UTF-8")).isEqualTo("text/plain;charset=UTF-8");
        assertThat(FileHeaders.servedType("text/plain")).isEqualTo("text/plain");
    }

    @Test
    void aMissingOrMalformedTypeIsServedAsBytes() {
        for (String malformed : new String[] {null, "", " ", "html", "text/", "text/plain; charset=no-such-charset"}) {
            assertThat(FileHeaders.servedType(malformed)).as(malformed).isEqualTo("application/octet-stream");
        }
    }

    @Test
    void aDownloadIsSandboxedKeptToItsOriginAndNotSniffed() {
        MockHttpServletResponse response = new MockHttpServletResponse();
        FileHeaders.inert(response);
        assertThat(response.getHeader("Content-Security-Policy")).isEqualTo("sandbox");
        assertThat(response.getHeader("Cross-Origin-Resource-Policy")).isEqualTo("same-origin");
        assertThat(response.getHeader("X-Content-Type-Options")).isEqualTo("nosniff");
    }
}
