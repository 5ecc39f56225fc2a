package dev.agora.common.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

class WritingFrontendTest {

    @Test
    void anHttpBaseUrlNamesAnInstance() {
        assertThat(WritingFrontend.parse(" http://127.0.0.1:8080 ")).contains(URI.create("http://127.0.0.1:8080"));
    }

    @Test
    void anythingElseNamesNoInstance() {
        assertThat(WritingFrontend.parse(null)).isEmpty();
        assertThat(WritingFrontend.parse("")).isEmpty();
        assertThat(WritingFrontend.parse("not a url")).isEmpty();
        assertThat(WritingFrontend.parse("ftp://frontend-1:8080")).isEmpty();
        assertThat(WritingFrontend.parse("/relative/path")).isEmpty();
        assertThat(WritingFrontend.parse("http://" + "a".repeat(300))).isEmpty();
    }

    @Test
    void theSameInstanceIgnoresCaseOfTheHostATrailingSlashAndTheDefaultPort() {
        assertThat(WritingFrontend.sameInstance(
                        URI.create("http://Frontend-1:8080/"), URI.create("http://frontend-1:8080")))
                .isTrue();
        assertThat(WritingFrontend.sameInstance(URI.create("http://frontend-1"), URI.create("http://frontend-1:80")))
                .isTrue();
        assertThat(WritingFrontend.sameInstance(
                        URI.create("http://127.0.0.1:8080"), URI.create("http://127.0.0.1:8081")))
                .isFalse();
        assertThat(WritingFrontend.sameInstance(
                        URI.create("http://frontend-1:8080"), URI.create("https://frontend-1:8080")))
                .isFalse();
    }
}
