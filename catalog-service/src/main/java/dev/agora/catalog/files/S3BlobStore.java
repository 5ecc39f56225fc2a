package dev.agora.catalog.files;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Blobs as objects {@code <prefix><hash>} in one bucket of any S3-compatible store (AWS S3, MinIO, ...), through the
 * AWS SDK for Java v2. Every catalog node reaches every object, so any node serves any file and the store's own
 * replication keeps the copies. An object appears whole when its PUT completes, never in part.
 */
final class S3BlobStore implements BlobStore {

    private final S3Client s3;
    private final S3PoolMetrics pool;
    private final String bucket;
    private final String prefix;

    S3BlobStore(S3Client s3, S3PoolMetrics pool, String bucket, String prefix) {
        this.s3 = s3;
        this.pool = pool;
        this.bucket = bucket;
        this.prefix = prefix;
    }

    @Override
    public boolean shared() {
        return true;
    }

    @Override
    public boolean has(String hash) {
        try {
            s3.headObject(
                    HeadObjectRequest.builder().bucket(bucket).key(key(hash)).build());
            return true;
        } catch (NoSuchKeyException missing) {
            return false;
        } catch (S3Exception e) {
            if (e.statusCode() == 404) return false;
            throw e;
        } catch (SdkClientException e) {
            throw pool.counted(e);
        }
    }

    @Override
    public void keep(String hash, Path staged, long size) throws IOException {
        if (has(hash)) return;
        // From the staged file: the SDK streams it and can resend it when a part of the transfer fails.
        try {
            s3.putObject(
                    PutObjectRequest.builder()
                            .bucket(bucket)
                            .key(key(hash))
                            .contentLength(size)
                            .build(),
                    RequestBody.fromFile(staged));
        } catch (SdkClientException e) {
            throw pool.counted(e);
        }
    }

    @Override
    public Optional<Path> localFile(String hash) {
        return Optional.empty();
    }

    @Override
    public InputStream open(String hash, long first, long last) {
        try {
            return s3.getObject(b -> b.bucket(bucket).key(key(hash)).range("bytes=" + first + "-" + last));
        } catch (SdkClientException e) {
            throw pool.counted(e);
        }
    }

    private String key(String hash) {
        return prefix + hash;
    }
}
