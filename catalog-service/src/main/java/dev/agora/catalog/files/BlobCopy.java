package dev.agora.catalog.files;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.util.Objects;

/** A catalog node (its base URL) holding a copy of a blob on its own disk. No rows: every node reaches the blob. */
@Entity
@Table(name = "blob_copies")
@IdClass(BlobCopy.Key.class)
class BlobCopy {

    static final class Key implements Serializable {
        private String hash;
        private String node;

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && Objects.equals(key.hash, hash) && Objects.equals(key.node, node);
        }

        @Override
        public int hashCode() {
            return Objects.hash(hash, node);
        }
    }

    @Id
    @Column(length = 64)
    private String hash;

    @Id
    @Column(length = 255)
    private String node;

    protected BlobCopy() {}
}
