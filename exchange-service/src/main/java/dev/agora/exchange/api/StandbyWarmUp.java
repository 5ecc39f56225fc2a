package dev.agora.exchange.api;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.agora.common.problem.ProblemException;
import dev.agora.common.security.AgoraSecurityProperties;
import dev.agora.common.security.Roles;
import dev.agora.exchange.ExchangeProperties;
import dev.agora.exchange.sequencer.Sequencer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import jakarta.validation.Validator;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.event.EventListener;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs the JSON API's order path on a standby, so that it answers its first orders at full speed when it takes
 * over. A standby is a JVM that has served nothing but health probes: its first REST orders after a takeover load
 * and compile the security filters, the JWT decoder and its key set, Jackson, Bean Validation and the gateway, and
 * took about a second (more than the frontend's attempt timeout, so they timed out and were sent again) while its XML
 * port already answered. While this instance stands by, a bounded burst of rounds sends each:
 *
 * <ul>
 *   <li>a placement to its own HTTP port with a token signed by a key of its own, which the authorization
 *       server's keys (fetched from the frontends as for any token) do not verify: Tomcat, the security filter chain,
 *       the JWT decoder's parse and RSA verification, and the 401 problem+json;
 *   <li>in process, past the authentication: the request body read by the API's JSON mapper and validated, an order
 *       written as a placement's answer, and an order query through the gateway and the sequencer as an admin, which a standby refuses with 503 not-applied,
 *       written as problem+json.
 * </ul>
 *
 * <p>Nothing it sends can change anything: the placement is refused before the controller, the query is a read (also
 * when this instance takes over meanwhile). A round stops the burst as soon as this instance is no longer a
 * standby, so warm-up never takes a core from a new leader. The gauge {@code agora.exchange.standby.warm.up.rounds}
 * counts the rounds run.
 *
 * <p>Why not common's {@code WarmingUp}: it sends real requests with the service's own client-credentials token,
 * and the exchange has no client of its own (it calls nothing), nor may a service token place orders; a token the
 * exchange minted for itself would be a way past its authentication.
 */
@Component
final class StandbyWarmUp {

    private static final Logger log = LoggerFactory.getLogger(StandbyWarmUp.class);
    /** The account the rounds name: whether it exists or not, nothing they send can write to it. */
    private static final String ACCOUNT = "0";

    private static final String BODY = "{\"symbol\":\"WARM\",\"amount\":1,\"limit\":1}";
    /** What a placement answers once this instance leads: written as the API writes it, to warm the writer too. */
    private static final ApiModels.OrderView PLACED = new ApiModels.OrderView(
            1,
            ACCOUNT,
            "WARM",
            BigDecimal.ONE,
            BigDecimal.ONE,
            BigDecimal.ZERO,
            null,
            List.of(new ApiModels.Executed(BigDecimal.ONE, BigDecimal.ONE, 0)));

    private final Sequencer sequencer;
    private final ExchangeGateway gateway;
    private final JsonMapper json;
    private final Validator validator;
    private final AgoraSecurityProperties security;
    private final int rounds;
    private final AtomicInteger sent = new AtomicInteger();
    private volatile Thread warming;

    StandbyWarmUp(
            Sequencer sequencer,
            ExchangeGateway gateway,
            JsonMapper json,
            Validator validator,
            AgoraSecurityProperties security,
            ExchangeProperties properties,
            MeterRegistry meters) {
        this.sequencer = sequencer;
        this.gateway = gateway;
        this.json = json;
        this.validator = validator;
        this.security = security;
        this.rounds = properties.standbyWarmUpRounds();
        Gauge.builder("agora.exchange.standby.warm.up.rounds", sent, AtomicInteger::get)
                .description("Rounds of the order path this instance ran while standing by")
                .register(meters);
    }

    @EventListener
    void onReady(ApplicationReadyEvent ready) {
        if (rounds <= 0 || !(ready.getApplicationContext() instanceof WebServerApplicationContext web)) return;
        URI orders = URI.create(
                "http://127.0.0.1:" + web.getWebServer().getPort() + "/api/exchange/accounts/" + ACCOUNT + "/orders");
        warming = Thread.ofPlatform()
                .name("exchange-standby-warm-up")
                .daemon()
                .priority(Thread.MIN_PRIORITY)
                .start(() -> warmWhileStandingBy(orders));
    }

    /**
     * Waits for this instance to stand by (it may lead first, and be deposed later), then warms up once. A leader
     * passes through standing by while it starts; when it leads before a round ran, this waits on.
     */
    private void warmWhileStandingBy(URI orders) {
        try {
            while (sent.get() == 0) {
                while (sequencer.role() != Sequencer.Role.STANDBY) {
                    if (sequencer.role() == Sequencer.Role.STOPPED) return;
                    Thread.sleep(250);
                }
                warmUp(orders);
            }
        } catch (InterruptedException stopped) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | JOSEException unexpected) {
            log.warn("Warming the order path up while standing by failed: {}", unexpected.toString());
        }
    }

    private void warmUp(URI orders) throws InterruptedException, JOSEException {
        long started = System.nanoTime();
        HttpRequest request = HttpRequest.newBuilder(orders)
                .timeout(Duration.ofSeconds(5))
                .header("Authorization", "Bearer " + unverifiableToken())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(BODY))
                .build();
        var admin = UsernamePasswordAuthenticationToken.authenticated(
                "exchange-standby-warm-up", null, List.of(new SimpleGrantedAuthority("ROLE_" + Roles.ADMIN)));
        try (HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2))
                .build()) {
            while (sent.get() < rounds && sequencer.role() == Sequencer.Role.STANDBY) {
                sendToItself(http, request);
                inProcess(admin);
                sent.incrementAndGet();
            }
        }
        if (sent.get() > 0) {
            log.info(
                    "Ran the order path {} times while standing by, in {} ms",
                    sent.get(),
                    (System.nanoTime() - started) / 1_000_000);
        }
    }

    private static void sendToItself(HttpClient http, HttpRequest request) throws InterruptedException {
        try {
            http.send(request, HttpResponse.BodyHandlers.discarding());
        } catch (IOException notAnswered) {
            // a busy moment; the next round tries again
        }
    }

    private void inProcess(UsernamePasswordAuthenticationToken admin) {
        ApiModels.PlaceOrder order = json.readValue(BODY, ApiModels.PlaceOrder.class);
        validator.validate(order);
        order.describes(PLACED);
        json.writeValueAsString(PLACED);
        SecurityContextHolder.getContext().setAuthentication(admin);
        try {
            gateway.callOnAccount(ACCOUNT, engine -> engine.query(ACCOUNT, 1));
        } catch (ProblemException refused) {
            json.writeValueAsString(refused.getBody());
        } finally {
            SecurityContextHolder.clearContext();
        }
    }

    /** A well-formed token for this exchange's issuer, signed by a key nobody else has: every decoder refuses it. */
    private String unverifiableToken() throws JOSEException {
        SignedJWT token = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.RS256).build(),
                new JWTClaimsSet.Builder()
                        .issuer(security.issuer())
                        .subject("exchange-standby-warm-up")
                        .issueTime(new Date())
                        .expirationTime(Date.from(Instant.now().plus(Duration.ofHours(1))))
                        .build());
        token.sign(new RSASSASigner(new RSAKeyGenerator(2048).generate()));
        return token.serialize();
    }

    @PreDestroy
    void stop() throws InterruptedException {
        Thread running = warming;
        if (running != null) {
            running.interrupt();
            running.join(5_000);
        }
    }
}
