package dev.agora.catalog.files;

import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A blob: content stored once under its SHA-256, and the nodes holding a copy. */
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

    @ElementCollection(fetch = FetchType.EAGER)
    @CollectionTable(name = "blob_copies", joinColumns = @JoinColumn(name = "hash"))
    @Column(name = "node", nullable = false, length = 255)
    private List<String> copies = new ArrayList<>();

    protected StoredBlob() {}

    String hash() {
        return hash;
    }

    List<String> copies() {
        return copies.stream().sorted().toList();
    }
}
