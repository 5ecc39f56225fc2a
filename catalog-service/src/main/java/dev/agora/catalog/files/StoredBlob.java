package dev.agora.catalog.files;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** A blob: content stored once under its SHA-256. The nodes holding a copy are its {@link BlobCopy} rows. */
@Entity
@Table(name = "blobs")
class StoredBlob {

    @Id
    @Column(length = 64)
    private String hash;

    @Column(nullable = false)
    private long size;

    @Column(nullable = false)
    private Instant created;

    protected StoredBlob() {}
}
