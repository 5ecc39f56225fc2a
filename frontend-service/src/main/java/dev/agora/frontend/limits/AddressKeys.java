package dev.agora.frontend.limits;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * The key a client address is counted under in limits per address: an IPv4 address as it is, an IPv6 address by
 * its /64 network. One IPv6 subscriber is usually given a whole /64 (often more) and may send from any of its 2^64
 * addresses, so counting single IPv6 addresses would give one client as many limits as it likes. An IPv4-mapped
 * IPv6 address counts as its IPv4 address.
 */
final class AddressKeys {

    private AddressKeys() {}

    static String of(String remoteAddress) {
        // Only an IPv6 literal has a colon, and a literal is parsed without any name lookup.
        if (remoteAddress == null || remoteAddress.indexOf(':') < 0) return remoteAddress;
        String literal = remoteAddress;
        if (literal.startsWith("[") && literal.endsWith("]")) literal = literal.substring(1, literal.length() - 1);
        int zone = literal.indexOf('%');
        if (zone >= 0) literal = literal.substring(0, zone);
        InetAddress address;
        try {
            address = InetAddress.getByName(literal);
        } catch (UnknownHostException | SecurityException notALiteral) {
            return remoteAddress;
        }
        if (address instanceof Inet4Address) return address.getHostAddress();
        if (!(address instanceof Inet6Address)) return remoteAddress;
        byte[] network = address.getAddress();
        Arrays.fill(network, 8, 16, (byte) 0);
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/64";
        } catch (UnknownHostException impossible) {
            return remoteAddress;
        }
    }
}
