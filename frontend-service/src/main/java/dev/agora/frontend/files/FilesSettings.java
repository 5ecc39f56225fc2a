package dev.agora.frontend.files;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Streamed transfers of book files between the frontend and the catalog nodes ({@code agora.files} in
 * application.yml).
 *
 * @param readTimeout longest wait for one read from a node (not for a whole transfer, which may take minutes)
 * @param maxConnections pooled connections to each node: transfers at once per node; one more waits for a connection
 * @param poolWait how long a transfer waits for a pooled connection when all are busy before it is refused with 503
 */
@ConfigurationProperties("agora.files")
record FilesSettings(Duration connectTimeout, Duration readTimeout, int maxConnections, Duration poolWait) {

    FilesSettings {
        if (poolWait == null) poolWait = Duration.ofSeconds(1);
    }
}
