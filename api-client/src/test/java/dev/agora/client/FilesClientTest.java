package dev.agora.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.client.api.FilesApi;
import dev.agora.client.model.FileView;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.Resource;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

/** The generated client's book files: a publisher uploads, anyone lists and downloads, against real services. */
@EnabledIfSystemProperty(named = "agora.cluster-tests", matches = "true")
class FilesClientTest {

    private static Clients clients;

    @BeforeAll
    static void start() {
        clients = new Clients(ApiCluster.get());
    }

    @Test
    void aPublishersUploadIsListedAndDownloadsAsSent() throws IOException {
        byte[] content = "Chapter 1. Remote procedure calls.\n".repeat(100).getBytes(StandardCharsets.UTF_8);
        String name = "rpc-notes-" + System.nanoTime() + ".txt";

        ResponseEntity<FileView> uploaded =
                clients.api(FilesApi.class, "publisher").uploadFile(name, 2L, new ByteArrayResource(content));
        assertThat(uploaded.getStatusCode()).isEqualTo(HttpStatus.CREATED);
        assertThat(uploaded.getBody().getName()).isEqualTo(name);
        assertThat(uploaded.getBody().getSize()).isEqualTo(content.length);

        FilesApi anyone = clients.anonymous(FilesApi.class);
        assertThat(anyone.listBookFiles(2L, "", 1000).getBody())
                .extracting(FileView::getName)
                .contains(name);
        ResponseEntity<Resource> downloaded = anyone.downloadFile(name, 2L);
        assertThat(downloaded.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(downloaded.getBody().getContentAsByteArray()).isEqualTo(content);
    }
}
