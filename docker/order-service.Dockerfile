# syntax=docker/dockerfile:1
# Image of the Agora order-service. The build context is the repository root:
#   docker build -f docker/order-service.Dockerfile -t agora/order-service .
# (docker/compose.yaml does the same). order-service.Dockerfile.dockerignore keeps build output, Git data and
# secrets out of the context.

# Build stage: the Maven wrapper builds this service and the modules it needs (the jar carries no
# embedded PostgreSQL: containers always get a DATABASE_URL). The Maven repository is a BuildKit cache mount, so rebuilds reuse
# downloads without baking them into a layer; compose builds the images in parallel over that one
# repository, so Maven takes file locks in it.
FROM eclipse-temurin:25-jdk-noble AS build
WORKDIR /workspace
COPY . .
RUN --mount=type=cache,target=/root/.m2 \
    ./mvnw -B -ntp -DskipTests -Dspotless.skip=true \
      -Daether.syncContext.named.factory=file-lock -Daether.syncContext.named.nameMapper=file-gav \
      -pl order-service -am package
# Split the runnable jar into its layers (dependencies change rarely, the application often), so image
# pulls and pushes move only the layers that changed.
RUN java -Djarmode=tools -jar order-service/target/order-service-exec.jar extract --layers --launcher --destination /layers

# Runtime stage: a JRE only, no build tools, no shell utilities beyond the base image's.
FROM eclipse-temurin:25-jre-noble
RUN groupadd --system --gid 10001 agora \
    && useradd --system --no-log-init --uid 10001 --gid agora --home-dir /app --shell /usr/sbin/nologin agora
COPY --chmod=0555 docker/healthcheck.sh /usr/local/bin/healthcheck
WORKDIR /app
COPY --from=build /layers/dependencies/ ./
COPY --from=build /layers/spring-boot-loader/ ./
COPY --from=build /layers/snapshot-dependencies/ ./
COPY --from=build /layers/application/ ./
# Numeric user, so orchestrators can verify "runs as non-root" without reading /etc/passwd.
USER 10001:10001
# The heap follows the container's memory limit; on OutOfMemoryError the process exits and the
# restart policy replaces it instead of leaving a half-broken JVM serving traffic. The heap is on transparent
# huge pages (the host's 'madvise' mode suffices): a killed JVM's sockets stay open until the kernel has unmapped
# its memory, and 2 MB pages make that, and so what callers wait on a crashed replica, about half as long
# (perf/reports/failover.md).
ENV PORT=8280 \
    JDK_JAVA_OPTIONS="-XX:MaxRAMPercentage=60 -XX:+ExitOnOutOfMemoryError -XX:+UseTransparentHugePages"
EXPOSE 8280
HEALTHCHECK --interval=5s --timeout=5s --start-period=300s --retries=3 CMD ["healthcheck"]
ENTRYPOINT ["java", "org.springframework.boot.loader.launch.JarLauncher"]
