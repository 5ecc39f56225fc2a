package dev.agora.perf.load;

/**
 * What came back from one HTTP call. Status 0 means no HTTP answer at all (connection refused, reset,
 * timed out): the {@code failure} says why. {@code failover} holds the frontend's {@code Agora-Failover}
 * entries (calls it repeated or hedged on another replica while handling this request), empty when none.
 */
public record HttpReply(int status, String body, ServerTiming serverTiming, String failover, String failure) {

    public static HttpReply failed(String why) {
        return new HttpReply(0, "", ServerTiming.NONE, "", why);
    }

    public boolean isSuccess() {
        return status >= 200 && status < 300;
    }
}
