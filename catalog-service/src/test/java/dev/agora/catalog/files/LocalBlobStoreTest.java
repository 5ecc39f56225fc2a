package dev.agora.catalog.files;

class LocalBlobStoreTest extends BlobStoreContract {

    @Override
    BlobStore store() {
        return new LocalBlobStore(folder.resolve("store"));
    }
}
