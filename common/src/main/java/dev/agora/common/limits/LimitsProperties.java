package dev.agora.common.limits;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * What one client may send ({@code agora.limits.*}). (The frontend adds its rate limits under the same prefix.)
 *
 * @param unboundedBodyPaths path patterns whose handlers stream their bodies under a limit of their own (file
 *     uploads), exempt from {@link #MAX_BODY}
 */
@ConfigurationProperties("agora.limits")
public record LimitsProperties(List<String> unboundedBodyPaths) {

    /**
     * The largest request body a service reads; a larger one is refused with 413 before it is read. Every JSON request
     * of every service is a few hundred bytes; 16 KB leaves room without letting a client make a service buffer much.
     */
    public static final DataSize MAX_BODY = DataSize.ofKilobytes(16);

    public LimitsProperties {
        unboundedBodyPaths = unboundedBodyPaths == null ? List.of() : List.copyOf(unboundedBodyPaths);
    }
}
