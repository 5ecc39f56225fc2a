package dev.agora.frontend.identity;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.Base64;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The key every frontend signs tokens with. Deployments give it ({@code AGORA_IDENTITY_SIGNING_KEY}, PKCS#8 PEM), so
 * that every frontend signs with the same key; local runs keep one in the identity database, made by whichever
 * frontend starts first.
 */
final class SigningKeys {

    private static final String LOCAL_KID = "local";

    private SigningKeys() {}

    static JWKSource<SecurityContext> source(RSAKey key) {
        return new ImmutableJWKSet<>(new JWKSet(key));
    }

    static RSAKey configuredOrStored(String configuredPem, JdbcClient database) {
        if (configuredPem != null && !configuredPem.isBlank()) return fromPem(configuredPem, null);
        database.sql("INSERT INTO signing_keys (kid, private_key) VALUES (?, ?) ON CONFLICT (kid) DO NOTHING")
                .params(LOCAL_KID, toPem(generate()))
                .update();
        String stored = database.sql("SELECT private_key FROM signing_keys WHERE kid = ?")
                .param(LOCAL_KID)
                .query(String.class)
                .single();
        return fromPem(stored, LOCAL_KID);
    }

    static RSAKey fromPem(String pem, String kid) {
        try {
            byte[] der = Base64.getMimeDecoder()
                    .decode(pem.replaceAll("-----(BEGIN|END) PRIVATE KEY-----", "")
                            .strip());
            KeyFactory rsa = KeyFactory.getInstance("RSA");
            RSAPrivateCrtKey privateKey = (RSAPrivateCrtKey) rsa.generatePrivate(new PKCS8EncodedKeySpec(der));
            RSAPublicKey publicKey = (RSAPublicKey)
                    rsa.generatePublic(new RSAPublicKeySpec(privateKey.getModulus(), privateKey.getPublicExponent()));
            RSAKey.Builder key = new RSAKey.Builder(publicKey).privateKey(privateKey);
            return kid != null
                    ? key.keyID(kid).build()
                    : key.keyIDFromThumbprint().build();
        } catch (NoSuchAlgorithmException
                | InvalidKeySpecException
                | JOSEException
                | IllegalArgumentException
                | ClassCastException e) {
            throw new IllegalStateException("The token signing key is not an RSA private key in PKCS#8 PEM", e);
        }
    }

    static String toPem(RSAPrivateCrtKey key) {
        return "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(key.getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
    }

    static RSAPrivateCrtKey generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return (RSAPrivateCrtKey) generator.generateKeyPair().getPrivate();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
