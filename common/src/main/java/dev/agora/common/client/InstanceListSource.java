package dev.agora.common.client;

import java.net.URI;
import java.util.List;

/** Where the replicas of a service are: discovery, a load balancer's instance list, or a fixed list. */
@FunctionalInterface
public interface InstanceListSource {

    List<URI> instances(String serviceId);
}
