package dev.agora.launcher.cluster;

/**
 * One link of a cluster that runs through a Toxiproxy proxy: what {@code from} calls to reach {@code to}.
 *
 * @param from the calling instance, e.g. "frontend-1"
 * @param to the instance called, e.g. "catalog-2", or {@value NetworkLinks#POSTGRES}
 * @param proxy the proxy's name in Toxiproxy, e.g. "frontend-1-to-catalog-2"
 * @param listenPort where the proxy listens on 127.0.0.1: the port {@code from} is given for {@code to}
 * @param upstream where the proxy forwards to (host:port)
 */
public record Link(String from, String to, String proxy, int listenPort, String upstream) {

    /** {@code http://127.0.0.1:<listenPort>}: the base URL {@code from} is given for an HTTP peer. */
    public String url() {
        return "http://127.0.0.1:" + listenPort;
    }

    /** "frontend-1 -> catalog-2". */
    public String describe() {
        return from + " -> " + to;
    }
}
