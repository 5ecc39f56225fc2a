package dev.agora.perf.experiment.files;

import dev.agora.launcher.credentials.AccessTokens;
import dev.agora.perf.experiment.Target;
import dev.agora.perf.load.ClosedLoad;
import dev.agora.perf.load.FileClient;
import dev.agora.perf.load.HttpDriver;
import dev.agora.perf.load.HttpReply;
import dev.agora.perf.load.LoadResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import tools.jackson.databind.json.JsonMapper;

/** What the three seed-003 experiments share: file names, bulk registration, heap sampling, the fsync ceiling. */
final class FileWorkloads {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Files hang off the classic titles; any book will do. */
    static final long BOOK = 1;

    private FileWorkloads() {}

    /** A name unique to this run, so reruns on a kept data directory register new files. */
    static String name(String run, String kind, int client, int index) {
        return run + "-" + kind + "-k" + client + "-" + index + ".bin";
    }

    static String runId() {
        return Long.toString(System.currentTimeMillis() % 100_000_000L, 36);
    }

    /**
     * The admin's token as of now: taken per request, never held for a run, since tokens live 15 minutes and the
     * full register-search-download runs for most of an hour (held once, every registration failed from about
     * 18 minutes into its run).
     */
    static String admin(Target target) {
        return target.tokens().authorization(AccessTokens.User.ADMIN);
    }

    /** Registers {@code count} files of {@code size} bytes, names from {@code name}, spread over 8 clients. */
    static LoadResult register(
            FileClient files, Target target, int count, long size, java.util.function.IntFunction<String> name) {
        List<String> frontends = target.urls("frontend");
        int clients = Math.min(8, Math.max(1, count));
        int perClient = (count + clients - 1) / clients;
        return ClosedLoad.run(clients, perClient, (client, i, recorder) -> {
            int index = client * perClient + i;
            if (index >= count) return;
            String frontend = frontends.get(index % frontends.size());
            recorder.time(
                    "register", () -> files.upload(frontend, BOOK, name.apply(index), size, index, admin(target)));
        });
    }

    /**
     * Samples the heap in use of every service (actuator's {@code jvm.memory.used}, area heap) and of this process
     * every {@code period} while the work runs; returns the largest seen per process, in MB, and the first sample.
     */
    static Map<String, double[]> heapDuring(Target target, HttpDriver http, Runnable work) {
        Map<String, String> services = new LinkedHashMap<>();
        for (String tier : List.of("frontend", "catalog")) {
            List<String> names = target.instanceNames(tier);
            List<String> urls = target.urls(tier);
            for (int i = 0; i < names.size(); i++) services.put(names.get(i), urls.get(i));
        }
        Map<String, double[]> heap = new LinkedHashMap<>();
        services.keySet().forEach(name -> heap.put(name, new double[] {Double.NaN, 0}));
        heap.put("load generator", new double[] {Double.NaN, 0});
        Thread sampler = Thread.ofPlatform().daemon().name("heap-sampler").start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    services.forEach((name, url) -> note(heap.get(name), heapMb(http, url)));
                } catch (CancellationException endedMidSample) {
                    return; // the work ended while a sample was on its way: the interrupt cancels the request
                }
                Runtime runtime = Runtime.getRuntime();
                note(heap.get("load generator"), (runtime.totalMemory() - runtime.freeMemory()) / 1e6);
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        try {
            work.run();
        } finally {
            sampler.interrupt();
            try {
                sampler.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return heap;
    }

    private static synchronized void note(double[] firstAndMax, double mb) {
        if (Double.isNaN(mb)) return;
        if (Double.isNaN(firstAndMax[0])) firstAndMax[0] = mb;
        firstAndMax[1] = Math.max(firstAndMax[1], mb);
    }

    private static double heapMb(HttpDriver http, String base) {
        HttpReply reply = http.get(base + "/actuator/metrics/jvm.memory.used?tag=area:heap");
        if (!reply.isSuccess()) return Double.NaN;
        return JSON.readTree(reply.body())
                        .path("measurements")
                        .get(0)
                        .path("value")
                        .asDouble()
                / 1e6;
    }

    /**
     * The machine's ceiling for durable registrations of small files: one thread writing a 1 KB file, fsync'ing it,
     * renaming it into place and fsync'ing the folder, as the catalog's local store does (PostgreSQL's commit
     * comes on top). Files per second.
     */
    static double fsyncCeiling(Path folder, int count) throws IOException {
        Path dir = Files.createDirectories(folder.resolve("fsync-ceiling"));
        ByteBuffer kilobyte = ByteBuffer.allocate(1024);
        long start = System.nanoTime();
        List<Path> made = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Path staged = dir.resolve("staged-" + i);
            try (FileChannel out = FileChannel.open(staged, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                out.write(kilobyte.clear());
                out.force(true);
            }
            Path kept = dir.resolve("kept-" + i);
            Files.move(staged, kept, StandardCopyOption.ATOMIC_MOVE);
            try (FileChannel folderChannel = FileChannel.open(dir, StandardOpenOption.READ)) {
                folderChannel.force(true);
            }
            made.add(kept);
        }
        double perSecond = count / ((System.nanoTime() - start) / 1e9);
        for (Path path : made) Files.deleteIfExists(path);
        return perSecond;
    }
}
