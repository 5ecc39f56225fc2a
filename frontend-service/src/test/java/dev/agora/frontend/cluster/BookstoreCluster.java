package dev.agora.frontend.cluster;

import dev.agora.frontend.FrontendApplication;
import dev.agora.frontend.book.CatalogLeases;
import dev.agora.local.cluster.FreePorts;
import dev.agora.local.cluster.LocalProcesses;
import dev.agora.local.cluster.LocalProfile;
import dev.agora.local.postgres.PostgresServer;
import dev.agora.local.postgres.SharedPostgres;
import dev.agora.local.process.ServiceProcess;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The real bookstore behind the frontends under test: two catalog replicas and an order replica as OS
 * processes from their exec jars (so they can be killed and frozen), one PostgreSQL, and three frontends
 * as Spring contexts in the test JVM: A and B cache (and get the catalogs' invalidation pushes), C does
 * not (every lookup reaches a catalog, for failover and uncached latency). Started once per test JVM.
 */
public final class BookstoreCluster implements AutoCloseable {

    /** Start-up on a two-core machine shared with other builds can take minutes. */
    private static final Duration READY = Duration.ofSeconds(300);
    /** Lean child JVMs: C1 only, one GC thread, bounded heap; start-up matters more than peak speed here. */
    private static final List<String> JVM_OPTIONS =
            List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss512k", "-Xmx384m");
    /** One order replica keeps the suite's start-up short on two cores; failover is proven on the catalog. */
    private static final int ORDER_REPLICAS = 1;

    /** Override with {@code -Dagora.test.catalog-timeout=2s} to measure failover with the production default. */
    private static final String CATALOG_TIMEOUT = System.getProperty("agora.test.catalog-timeout", "5s");

    private static BookstoreCluster shared;

    private final LocalProcesses processes = new LocalProcesses(Path.of("target", "cluster-logs"));
    public final List<ServiceProcess> catalogs = new ArrayList<>();
    public final List<ServiceProcess> orders = new ArrayList<>();
    private final List<ConfigurableApplicationContext> frontends = new ArrayList<>();
    private final List<Integer> frontendPorts = new ArrayList<>();
    /**
     * The HTTP ports of the suite's exchange pair ({@link ExchangePair}), chosen before the frontends start so that
     * frontend C already follows the pair once a trading test starts it: ExchangeTakeoverTest trades through it
     * instead of starting one more frontend. A and B, and the frontends of {@link #startAnotherFrontend}, keep an
     * exchange that is down, which PublicApiTest asserts on.
     */
    private final List<Integer> exchangePorts = List.of(FreePorts.next(), FreePorts.next());

    private final String catalogJdbcUrl;
    private final String identityJdbcUrl;
    private final Path seed;
    private final PostgresServer postgres;
    private Tokens tokens;

    private static RuntimeException startFailure;

    public static synchronized BookstoreCluster get() {
        // A cluster that failed to start once fails every later test class at once instead of retrying.
        if (startFailure != null) throw new IllegalStateException("The test cluster did not start", startFailure);
        if (shared == null) {
            try {
                shared = new BookstoreCluster();
            } catch (RuntimeException e) {
                startFailure = e;
                throw e;
            }
            Runtime.getRuntime().addShutdownHook(new Thread(shared::close, "bookstore-cluster-stop"));
        }
        return shared;
    }

    private BookstoreCluster() {
        postgres = SharedPostgres.get();
        String run = Long.toString(System.currentTimeMillis() % 1_000_000, 36);
        catalogJdbcUrl = postgres.jdbcUrl("fe_catalog_" + run);
        String ordersJdbcUrl = postgres.jdbcUrl("fe_orders_" + run);
        identityJdbcUrl = postgres.jdbcUrl("fe_identity_" + run);
        for (int i = 0; i < 3; i++) frontendPorts.add(FreePorts.next());
        String frontendUrls = frontendPorts.subList(0, 2).stream()
                .map(port -> "http://127.0.0.1:" + port)
                .collect(Collectors.joining(","));
        seed = DemoCredentials.write(Path.of("target", "cluster-identity-" + run + ".properties"));
        // Book files: each catalog keeps its blobs in a folder of its own and both hold every file (two copies).
        List<Integer> catalogPorts = List.of(FreePorts.next(), FreePorts.next());
        String fileNodes =
                catalogPorts.stream().map(port -> "http://127.0.0.1:" + port).collect(Collectors.joining(","));
        String catalogUrls = catalogPorts.stream().map(FreePorts::url).collect(Collectors.joining(","));
        // Defining the first process of a jar may train its AOT cache (TestAotCaches): the order service's trains on
        // another thread meanwhile, side by side with the catalog's.
        CompletableFuture<List<ServiceProcess>> orderDefinitions = CompletableFuture.supplyAsync(() -> {
            List<ServiceProcess> defined = new ArrayList<>();
            for (int i = 0; i < ORDER_REPLICAS; i++) {
                defined.add(processes.service("order-service", "order-" + i, order -> order.env(
                                LocalProfile.database(ordersJdbcUrl, postgres.username(), postgres.password()))
                        .env(LocalProfile.trusting(frontendUrls))
                        .env("CATALOG_INSTANCES", catalogUrls)
                        .env("AGORA_INSTANCES_CATALOG_SERVICE", catalogUrls)
                        .jvmOptions(JVM_OPTIONS)));
            }
            return defined;
        });
        try {
            for (int i = 0; i < 2; i++) {
                String files = fileFolder(run, i);
                catalogs.add(processes.service(
                        "catalog-service", "catalog-" + i, catalogPorts.get(i), catalog -> catalog.env(
                                        "AGORA_INSTANCES_CATALOG_SERVICE", fileNodes)
                                .env("AGORA_FILES_DIRECTORY", files)
                                .env(LocalProfile.database(catalogJdbcUrl, postgres.username(), postgres.password()))
                                .env(LocalProfile.trusting(frontendUrls))
                                .env("FRONTEND_INSTANCES", frontendUrls)
                                .env("AGORA_INSTANCES_FRONTEND_SERVICE", frontendUrls)
                                // A write returns once every frontend acknowledged, or after a frontend that did not
                                // lost its lease (1 s by default). At load averages of 30-45 an in-JVM frontend can
                                // take
                                // longer to acknowledge, and its cache is then emptied (correct, but the tests want it
                                // used), so these tests give it room, as they give the frontends' timeouts.
                                .env("AGORA_INVALIDATION_LEASE", "5s")
                                .jvmOptions(JVM_OPTIONS)));
            }
            orders.addAll(orderDefinitions.join());
            // The first replica of each service migrates its database alone; the others start meanwhile.
            catalogs.get(0).start();
            orders.get(0).start();
            catalogs.get(0).awaitReady(READY);
            orders.get(0).awaitReady(READY);
            catalogs.get(1).start();
            for (ServiceProcess order : orders.subList(1, orders.size())) order.start();
            String orderUrls = LocalProcesses.urls(orders);
            for (int i = 0; i < 3; i++) {
                frontends.add(startFrontend(
                        frontendPorts.get(i),
                        catalogUrls,
                        orderUrls,
                        i < 2,
                        i == 2 ? exchangeUrls() : FreePorts.url(FreePorts.next()),
                        identityJdbcUrl,
                        seed));
            }
            tokens = new Tokens(frontend(0) + "/oauth2/token");
            catalogs.get(1).awaitReady(READY);
            for (ServiceProcess order : orders) order.awaitReady(READY);
            warmUp();
            awaitCachesLeased();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * The first requests to a fresh JVM (class loading, JIT, first queries) can take longer than the
     * frontends' read timeout on a busy two-core machine; tests are about steady behaviour, so every
     * replica answers a few calls directly first, and every frontend once.
     */
    private void warmUp() {
        try (Http http = new Http()) {
            for (ServiceProcess catalog : catalogs) warmUp(http, catalog);
            Map<String, String> customer = tokens.customerAuthorization();
            for (ServiceProcess order : orders) {
                for (int i = 0; i < 10; i++) http.get(order.baseUrl() + "/orders/1", customer);
            }
            for (int f = 0; f < frontendPorts.size(); f++) {
                long deadline = System.nanoTime() + 60_000_000_000L;
                while (http.get(frontend(f) + "/api/books/1").status() != 200 && System.nanoTime() < deadline) {
                    Thread.sleep(200);
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("Warm-up failed", e);
        }
    }

    /**
     * Waits until the caching frontends (A and B) hold a lease from every live catalog replica, so tests that expect
     * cache hits find the cache in use (a frontend uses it only under every connected catalog's lease).
     */
    public void awaitCachesLeased() {
        long live = catalogs.stream().filter(ServiceProcess::isAlive).count();
        long deadline = System.nanoTime() + 60_000_000_000L;
        for (int f = 0; f < 2; f++) {
            CatalogLeases leases = frontends.get(f).getBean(CatalogLeases.class);
            while (!(leases.sessions() >= live && leases.trusted())) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Frontend " + f + " holds no lease of every catalog after 60 s");
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    /** Warms a (re)started catalog replica with direct reads before it meets the frontends' timeouts. */
    public static void warmUp(Http http, ServiceProcess catalog) {
        for (int i = 0; i < 30; i++) {
            http.get(catalog.baseUrl() + "/books/" + (i % 7 + 1));
            http.get(catalog.baseUrl() + "/books?topic=graduate%20school");
        }
    }

    /**
     * One more frontend over this cluster's catalogs and orders, on a port of its own, without a cache (the catalogs
     * push no invalidations to it) and with its rate limits on (the suite's own frontends have them off), and these
     * extra {@code --name=value} arguments, which replace the defaults of the same name; the caller closes it.
     */
    public ConfigurableApplicationContext startAnotherFrontend(String... extraArguments) {
        // Port 0: the kernel picks a free one at bind time, so no other process can take it in between.
        List<String> arguments = new ArrayList<>(List.of(frontendArguments(
                0,
                LocalProcesses.urls(catalogs),
                LocalProcesses.urls(orders),
                false,
                FreePorts.url(FreePorts.next()),
                identityJdbcUrl,
                seed)));
        arguments.replaceAll(argument ->
                argument.startsWith("--agora.limits.rates-enabled=") ? "--agora.limits.rates-enabled=true" : argument);
        for (String extra : extraArguments) {
            // Spring joins repeated options with commas: a second --agora.instances.order-service would add to the
            // first.
            int equals = extra.indexOf('=');
            if (equals < 0) continue;
            String name = extra.substring(0, equals + 1);
            arguments.removeIf(argument -> argument.startsWith(name));
        }
        arguments.addAll(List.of(extraArguments));
        return new SpringApplicationBuilder(FrontendApplication.class).run(arguments.toArray(String[]::new));
    }

    private ConfigurableApplicationContext startFrontend(
            int port,
            String catalogUrls,
            String orderUrls,
            boolean cache,
            String exchangeUrls,
            String identityJdbcUrl,
            Path seed) {
        return new SpringApplicationBuilder(FrontendApplication.class)
                .run(frontendArguments(port, catalogUrls, orderUrls, cache, exchangeUrls, identityJdbcUrl, seed));
    }

    private String[] frontendArguments(
            int port,
            String catalogUrls,
            String orderUrls,
            boolean cache,
            String exchangeUrls,
            String identityJdbcUrl,
            Path seed) {
        // Command-line arguments, so they beat application.yml (default properties would not).
        return new String[] {
            "--spring.profiles.active=" + LocalProfile.NAME,
            // The tests buy and sign in from one address as one customer, faster than production
            // limits allow; ResourceBoundsTest starts a frontend of its own with them on.
            "--agora.limits.rates-enabled=false",
            "--spring.datasource.url=" + identityJdbcUrl,
            "--spring.datasource.username=" + postgres.username(),
            "--spring.datasource.password=" + postgres.password(),
            "--agora.identity.seed-file=" + seed.toAbsolutePath(),
            "--server.port=" + port,
            "--server.address=127.0.0.1",
            "--agora.instances.catalog-service=" + catalogUrls,
            "--agora.instances.order-service=" + orderUrls,
            "--agora.instances.exchange-service=" + exchangeUrls,
            "--agora.cache.enabled=" + cache,
            // The suite shares two cores with parallel builds (load averages of 20-40 seen);
            // the 2 s default would take the load's tail for dead replicas. Failover behaves
            // the same, a frozen replica only costs its requests longer.
            "--agora.clients.catalog-service.timeout=" + CATALOG_TIMEOUT,
            "--agora.clients.order-service.timeout=10s",
            "--spring.jmx.enabled=false",
            // A test closes its frontend once it is done with it. A graceful close waits up to 30 s for requests still
            // open (a live desk stream whose browser is still there, say), and no test is about a graceful close.
            "--server.shutdown=immediate"
        };
    }

    /**
     * Whether the order replicas serve the order contract yet (the order service is built in parallel
     * with the frontend); tests that buy assume it, so they report as skipped, not passed, until it does.
     */
    public boolean ordersServeTheContract() {
        try (Http http = new Http()) {
            return http.get(orders.getFirst().baseUrl() + "/orders?page=0&size=1", tokens.customerAuthorization())
                            .status()
                    == 200;
        } catch (Exception e) {
            return false;
        }
    }

    /** Tokens of the demo users and of the catalog service, from frontend A's token endpoint. */
    public Tokens tokens() {
        return tokens;
    }

    /** Where the suite's exchange pair listens for HTTP (nothing until a trading test starts it). */
    List<Integer> exchangePorts() {
        return exchangePorts;
    }

    /** The exchange pair's base URLs, as frontend C has them. */
    String exchangeUrls() {
        return exchangePorts.stream().map(FreePorts::url).collect(Collectors.joining(","));
    }

    /** Frontend A (0) and B (1) cache; C (2) does not. */
    public String frontend(int index) {
        return "http://127.0.0.1:" + frontendPorts.get(index);
    }

    public ConfigurableApplicationContext frontendContext(int index) {
        return frontends.get(index);
    }

    /** A connection to the catalog's database, the source of truth for stock. */
    public Connection catalogDatabase() {
        try {
            return DriverManager.getConnection(catalogJdbcUrl, postgres.username(), postgres.password());
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Stock and version of a book as committed in the catalog's database. */
    public long[] stockAndVersion(long bookId) {
        try (Connection db = catalogDatabase();
                var query = db.prepareStatement("SELECT stock, version FROM books WHERE id = ?")) {
            query.setLong(1, bookId);
            try (var rows = query.executeQuery()) {
                if (!rows.next()) throw new IllegalStateException("No book " + bookId);
                return new long[] {rows.getLong(1), rows.getLong(2)};
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    public static Duration readyTimeout() {
        return READY;
    }

    /** Where catalog {@code index} of this run keeps its book files (blobs and staging). */
    private static String fileFolder(String run, int index) {
        return Path.of("target", "cluster-files", run, "catalog-" + index)
                .toAbsolutePath()
                .toString();
    }

    @Override
    public synchronized void close() {
        for (ConfigurableApplicationContext frontend : frontends) {
            try {
                frontend.close();
            } catch (RuntimeException ignored) {
                // Keep stopping the rest.
            }
        }
        frontends.clear();
        processes.close();
    }
}
