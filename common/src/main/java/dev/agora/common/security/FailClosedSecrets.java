package dev.agora.common.security;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Profiles;

/**
 * Refuses to start a service outside the {@code local} profile (the cluster launcher's and the tests') while any of the
 * {@link #SECRETS} its configuration names is blank, shorter than 32 bytes, a known development value or a placeholder
 * from {@code docker/.env.example}, and says which: a service started with a guessable secret would look healthy and be
 * open. The S3 secret key ({@code AWS_SECRET_ACCESS_KEY}, read by the AWS SDK) may be absent where the instance's role
 * supplies credentials: absent or blank is fine, anything else meets the same rules.
 */
public class FailClosedSecrets implements EnvironmentPostProcessor, Ordered {

    public static final String LOCAL_PROFILE = "local";
    /**
     * Every secret a service may hold. A service's {@code application.yml} names those it needs (an empty value where
     * only the environment may give one), so a secret the deployment forgot is blank, not absent.
     */
    static final List<String> SECRETS = List.of(
            "spring.datasource.password",
            "agora.security.client-secret",
            "agora.identity.signing-key",
            "agora.identity.service-clients.catalog-service",
            "agora.identity.service-clients.order-service");

    static final String IF_SET = "AWS_SECRET_ACCESS_KEY";
    static final int MIN_BYTES = 32;

    private static final Set<String> KNOWN_DEV_VALUES =
            Set.of("postgres", "password", "secret", "changeme", "admin", "dev-internal-token", "dev-admin-token");
    private static final List<String> PLACEHOLDER_MARKS = List.of("change-me", "changeme", "replace-me", "local-dev-");

    @Override
    public int getOrder() {
        // After the config files and every other post-processor (the local database one included) have spoken.
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (environment.acceptsProfiles(Profiles.of(LOCAL_PROFILE))) return;
        List<String> problems = new ArrayList<>();
        for (String name : SECRETS) {
            String problem = environment.containsProperty(name) ? problem(environment.getProperty(name)) : null;
            if (problem != null) problems.add(name + " " + problem);
        }
        String ifSet = environment.getProperty(IF_SET);
        if (ifSet != null && !ifSet.isBlank() && problem(ifSet) != null) problems.add(IF_SET + " " + problem(ifSet));
        if (!problems.isEmpty()) {
            throw new IllegalStateException("Refusing to start outside the '" + LOCAL_PROFILE
                    + "' profile with unsafe secrets: " + String.join("; ", problems)
                    + ". Supply real values through the environment (see SECURITY.md).");
        }
    }

    /** Why a secret is unsafe, or null when it is fine (also for secrets read from elsewhere: a seed file). */
    public static String problem(String value) {
        if (value == null) return "is missing";
        if (value.isBlank()) return "is blank";
        String lower = value.strip().toLowerCase(Locale.ROOT);
        if (KNOWN_DEV_VALUES.contains(lower)) return "is a known development value";
        for (String mark : PLACEHOLDER_MARKS) {
            if (lower.contains(mark)) return "is a placeholder or development value (contains '" + mark + "')";
        }
        if (value.getBytes(StandardCharsets.UTF_8).length < MIN_BYTES) return "is shorter than " + MIN_BYTES + " bytes";
        return null;
    }
}
