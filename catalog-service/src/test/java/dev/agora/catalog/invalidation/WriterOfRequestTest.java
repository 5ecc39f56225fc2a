package dev.agora.catalog.invalidation;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

class WriterOfRequestTest {

    @Test
    void anHttpBaseUrlNamesAnInstance() {
        assertThat(WriterOfRequest.parse(" http://127.0.0.1:8080 ")).contains(URI.create("http://127.0.0.1:8080"));
    }

    @Test
    void anythingElseNamesNoInstance() {
        assertThat(WriterOfRequest.parse(null)).isEmpty();
        assertThat(WriterOfRequest.parse("")).isEmpty();
        assertThat(WriterOfRequest.parse("not a url")).isEmpty();
        assertThat(WriterOfRequest.parse("ftp://frontend-1:8080")).isEmpty();
        assertThat(WriterOfRequest.parse("/relative/path")).isEmpty();
        assertThat(WriterOfRequest.parse("http://" + "a".repeat(300))).isEmpty();
    }

    @Test
    void theSameInstanceIgnoresCaseOfTheHostATrailingSlashAndTheDefaultPort() {
        assertThat(WriterOfRequest.sameInstance(
                        URI.create("http://Frontend-1:8080/"), URI.create("http://frontend-1:8080")))
                .isTrue();
        assertThat(WriterOfRequest.sameInstance(URI.create("http://frontend-1"), URI.create("http://frontend-1:80")))
                .isTrue();
        assertThat(WriterOfRequest.sameInstance(
                        URI.create("http://127.0.0.1:8080"), URI.create("http://127.0.0.1:8081")))
                .isFalse();
        assertThat(WriterOfRequest.sameInstance(
                        URI.create("http://frontend-1:8080"), URI.create("https://frontend-1:8080")))
                .isFalse();
    }
}
