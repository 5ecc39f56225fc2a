package dev.agora.common.limits;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * What one client may send ({@code agora.limits.*}): the largest request body. (The frontend adds its rate limits
 * under the same prefix.)
 *
 * @param maxBody largest request body a service reads; a larger one is refused with 413 before it is read
 * @param unboundedBodyPaths path patterns whose handlers stream their bodies under a limit of their own (file
 *     uploads), exempt from {@code maxBody}
 */
@ConfigurationProperties("agora.limits")
public record LimitsProperties(DataSize maxBody, List<String> unboundedBodyPaths) {

    public LimitsProperties {
        if (maxBody == null) maxBody = DataSize.ofKilobytes(16);
        unboundedBodyPaths = unboundedBodyPaths == null ? List.of() : List.copyOf(unboundedBodyPaths);
    }
}
