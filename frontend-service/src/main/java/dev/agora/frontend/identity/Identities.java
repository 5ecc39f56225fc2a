package dev.agora.frontend.identity;

import dev.agora.common.security.Roles;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.settings.ClientSettings;
import org.springframework.security.oauth2.server.authorization.settings.TokenSettings;
import org.springframework.security.provisioning.UserDetailsManager;

/**
 * Users (people, with roles and a password hash) and the OAuth2 clients that get tokens: a program's client acts
 * for one user, whose name becomes the token's subject and whose roles its {@code roles} claim; a service's
 * client gets the {@code internal} scope and acts for nobody. Creating one that exists updates it, so start-up
 * seeding can run on every start of every frontend.
 */
public final class Identities {

    /** The client setting that names the user a program's client acts for. */
    static final String ACTS_FOR = "agora.acts-for";

    private static final SecureRandom RANDOM = new SecureRandom();

    private final UserDetailsManager users;
    private final RegisteredClientRepository clients;
    private final PasswordEncoder passwords;
    private final Duration tokenLifetime;

    Identities(
            UserDetailsManager users,
            RegisteredClientRepository clients,
            PasswordEncoder passwords,
            Duration tokenLifetime) {
        this.users = users;
        this.clients = clients;
        this.passwords = passwords;
        this.tokenLifetime = tokenLifetime;
    }

    /**
     * Creates the user or gives it these roles; a new user gets a random password (programs never need one; a person
     * is given theirs with {@link #ensureUser(String, List, String)}).
     */
    public void ensureUser(String username, List<String> roles) {
        ensureUser(username, roles, null);
    }

    /**
     * Creates the user or gives it these roles, and this password for the web pages' sign-in when one is given
     * (stored as a hash; {@code null} keeps the current one, or a random one for a new user).
     */
    public void ensureUser(String username, List<String> roles, String password) {
        List<GrantedAuthority> authorities = roles.stream()
                .map(role -> (GrantedAuthority) new SimpleGrantedAuthority("ROLE_" + role.toUpperCase(Locale.ROOT)))
                .toList();
        if (users.userExists(username)) {
            UserDetails existing = users.loadUserByUsername(username);
            User.UserBuilder updated = User.withUserDetails(existing).authorities(authorities);
            if (password != null && !passwords.matches(password, existing.getPassword())) {
                updated.password(passwords.encode(password));
            }
            users.updateUser(updated.build());
        } else {
            users.createUser(User.withUsername(username)
                    .password(passwords.encode(password != null ? password : randomSecret()))
                    .authorities(authorities)
                    .build());
        }
    }

    public void ensureProgramClient(String clientId, String secret, String actsFor) {
        save(clientId, secret, null, actsFor);
    }

    void ensureServiceClient(String clientId, String secret) {
        save(clientId, secret, Roles.INTERNAL_SCOPE, null);
    }

    private void save(String clientId, String secret, String scope, String actsFor) {
        RegisteredClient existing = clients.findByClientId(clientId);
        ClientSettings.Builder settings = ClientSettings.builder().requireAuthorizationConsent(false);
        if (actsFor != null) settings.setting(ACTS_FOR, actsFor);
        RegisteredClient.Builder client = RegisteredClient.withId(
                        existing != null ? existing.getId() : UUID.randomUUID().toString())
                .clientId(clientId)
                .clientName(clientId)
                .clientSecret(passwords.encode(secret))
                .clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
                .clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_POST)
                .authorizationGrantType(AuthorizationGrantType.CLIENT_CREDENTIALS)
                .clientSettings(settings.build())
                .tokenSettings(TokenSettings.builder()
                        .accessTokenTimeToLive(tokenLifetime)
                        .build());
        if (scope != null) client.scope(scope);
        clients.save(client.build());
    }

    /**
     * What is stored for the user (password hash, roles, whether enabled), empty when there is none: enough to tell
     * whether it changed since it was seeded ({@link SeedStamp}).
     */
    String storedUser(String username) {
        if (!users.userExists(username)) return "";
        UserDetails user = users.loadUserByUsername(username);
        return String.join(
                "\n",
                user.getPassword(),
                new TreeSet<>(AuthorityUtils.authorityListToSet(user.getAuthorities())).toString(),
                Boolean.toString(user.isEnabled()));
    }

    /** What is stored for the client (secret hash, scopes, settings), empty when there is none or no id is given. */
    String storedClient(String clientId) {
        RegisteredClient client = clientId == null ? null : clients.findByClientId(clientId);
        if (client == null) return "";
        return String.join(
                "\n",
                client.getId(),
                String.valueOf(client.getClientSecret()),
                new TreeSet<>(client.getScopes()).toString(),
                new TreeMap<>(client.getClientSettings().getSettings()).toString(),
                String.valueOf(client.getTokenSettings().getAccessTokenTimeToLive()));
    }

    static String randomSecret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
