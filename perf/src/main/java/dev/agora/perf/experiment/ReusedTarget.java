package dev.agora.perf.experiment;

import dev.agora.launcher.cluster.ControlClient;
import dev.agora.launcher.cluster.Instance;
import dev.agora.launcher.credentials.AccessTokens;
import java.time.Duration;
import java.util.List;

/**
 * A cluster already running, started by the launcher ({@code ./agora}) (its control endpoint gives instances
 * and fault injection), or only a set of frontend URLs ({@code --target-url}) that experiments can load
 * but not hurt. Its shape is whatever it is: experiments that need another shape say so in their report. Its
 * demo users' tokens come from the credentials file the cluster's launcher wrote ({@code --credentials}).
 */
final class ReusedTarget implements Target {

    private final ControlClient control;
    private final List<String> frontendOverride;
    private final AccessTokens tokens;

    ReusedTarget(ControlClient control, List<String> frontendOverride, AccessTokens tokens) {
        this.control = control;
        this.frontendOverride = List.copyOf(frontendOverride);
        this.tokens = tokens;
    }

    @Override
    public ClusterShape shape() {
        return new ClusterShape(
                urls("frontend").size(),
                urls("catalog").size(),
                urls("order").size(),
                !urls("exchange").isEmpty(),
                urls("exchange").size() > 1,
                java.util.Map.of(),
                false);
    }

    @Override
    public List<String> urls(String service) {
        if (service.equals("frontend") && !frontendOverride.isEmpty()) return frontendOverride;
        return instances().stream()
                .filter(instance -> instance.service().equals(service))
                .map(Instance::url)
                .toList();
    }

    @Override
    public List<String> instanceNames(String service) {
        return instances().stream()
                .filter(instance -> instance.service().equals(service))
                .map(Instance::name)
                .toList();
    }

    @Override
    public String url(String instanceName) {
        return instance(instanceName).url();
    }

    @Override
    public long pid(String instanceName) {
        return instance(instanceName).pid();
    }

    @Override
    public int exchangeTcpPort() {
        return instances().stream()
                .filter(instance -> instance.service().equals("exchange"))
                .findFirst()
                .map(instance -> 12345 + (instance.port() - 8380))
                .orElse(12345);
    }

    @Override
    public AccessTokens tokens() {
        return tokens;
    }

    @Override
    public boolean controllable() {
        return control != null;
    }

    @Override
    public void kill(String instanceName) {
        requireControl().kill(instanceName);
    }

    @Override
    public void freeze(String instanceName) {
        requireControl().freeze(instanceName);
    }

    @Override
    public void thaw(String instanceName) {
        requireControl().thaw(instanceName);
    }

    @Override
    public Duration restart(String instanceName) {
        return requireControl().restart(instanceName);
    }

    @Override
    public Duration startupTime() {
        return Duration.ZERO;
    }

    private List<Instance> instances() {
        return control == null ? List.of() : control.instances();
    }

    private Instance instance(String name) {
        return instances().stream()
                .filter(instance -> instance.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no instance " + name));
    }

    private ControlClient requireControl() {
        if (control == null) throw new IllegalStateException("--target-url only: no fault injection possible");
        return control;
    }
}
