package dev.agora.docker;

import dev.agora.docker.Dockerfile.Instruction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What every service image must be, checked on the Dockerfile text (no Docker engine needed). */
final class DockerfileRules {

    /** A JRE (not JDK) image of Java 21 or newer, e.g. eclipse-temurin:25-jre-noble. */
    private static final Pattern JRE_IMAGE = Pattern.compile("[\\w./-]+:(\\d+)(?:[.\\w]*)-jre(?:-[\\w.]+)?");

    private static final Set<String> ROOT_USERS = Set.of("root", "0");

    private DockerfileRules() {}

    static List<String> violations(Dockerfile dockerfile, String serviceId, int port) {
        List<String> violations = new ArrayList<>();
        String name = dockerfile.name();
        if (dockerfile.stageCount() < 2) {
            violations.add(name + " is not a multi-stage build");
            return violations;
        }

        List<Instruction> buildRuns = Dockerfile.withKeyword(dockerfile.buildStages(), "RUN");
        Optional<String> mavenBuild = buildRuns.stream()
                .map(Instruction::arguments)
                .filter(command -> command.contains("./mvnw"))
                .findFirst();
        if (mavenBuild.isEmpty()) {
            violations.add(name + " does not build with the Maven wrapper (./mvnw) in a build stage");
        } else {
            List<String> arguments = Arrays.asList(mavenBuild.get().split("\\s+"));
            if (!mavenBuild.get().matches(".*-pl\\s+" + Pattern.quote(serviceId) + "(\\s.*|$)"))
                violations.add(name + " does not build -pl " + serviceId);
            if (!arguments.contains("-am")) violations.add(name + " does not build the modules it needs (-am)");
        }
        boolean layered = buildRuns.stream()
                .map(Instruction::arguments)
                .anyMatch(command -> command.contains("-Djarmode=tools")
                        && command.contains(serviceId + "/target/" + serviceId + "-exec.jar")
                        && command.contains("--layers"));
        if (!layered) violations.add(name + " does not extract the layers of " + serviceId + "-exec.jar");

        Optional<String> runtimeImage = dockerfile.runtimeBaseImage();
        Matcher jre = JRE_IMAGE.matcher(runtimeImage.orElse(""));
        if (!jre.matches()) violations.add(name + " runtime base " + runtimeImage.orElse("?") + " is not a JRE image");
        else if (Integer.parseInt(jre.group(1)) < 21)
            violations.add(name + " runtime base " + runtimeImage.get() + " is older than Java 21");

        List<Instruction> finalStage = dockerfile.finalStage();
        List<Instruction> users = Dockerfile.withKeyword(finalStage, "USER");
        if (users.isEmpty()) {
            violations.add(name + " runs as root (no USER in the final stage)");
        } else {
            String user = users.getLast().arguments().strip().split(":")[0];
            if (ROOT_USERS.contains(user)) violations.add(name + " runs as root (USER " + user + ")");
        }

        List<Instruction> healthchecks = Dockerfile.withKeyword(finalStage, "HEALTHCHECK");
        if (healthchecks.isEmpty() || healthchecks.getLast().arguments().strip().equalsIgnoreCase("NONE"))
            violations.add(name + " has no HEALTHCHECK");

        boolean portSet = Dockerfile.withKeyword(finalStage, "ENV").stream()
                .anyMatch(env -> env.arguments().matches("(.*\\s)?PORT=" + port + "(\\s.*|$)"));
        if (!portSet) violations.add(name + " does not set ENV PORT=" + port);
        boolean portExposed = Dockerfile.withKeyword(finalStage, "EXPOSE").stream()
                .anyMatch(expose ->
                        Arrays.asList(expose.arguments().split("\\s+")).contains(String.valueOf(port)));
        if (!portExposed) violations.add(name + " does not EXPOSE " + port);
        return violations;
    }
}
