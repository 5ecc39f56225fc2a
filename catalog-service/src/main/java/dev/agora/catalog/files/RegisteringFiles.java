package dev.agora.catalog.files;

import dev.agora.catalog.book.BookChangeListener;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Service;

/**
 * Registers (uploads) a file of a book: receive and hash it in the staging area, store its blob on the nodes its
 * hash is placed on (or in the shared object store), and only then write its row. Content stored before under the
 * same hash is not sent again. Until the row commits nobody sees the file; an upload that fails before leaves no
 * row, and its staged bytes are deleted.
 *
 * <p>Frontends cache a book's list of files beside the book and the bytes of small files by name, so a registration is
 * announced to them as a change of the book's file (the name and its new revision, at the book's current version,
 * which a file does not raise) after its row commits and before it is answered, through the same
 * {@link BookChangeListener} as every change of a book: once the upload is answered, no frontend lists the files as
 * they were before it or serves the name's earlier content.
 */
@Service
class RegisteringFiles {

    sealed interface Registration {
        /** @param revision the name's revision this registration gave it */
        record Done(FileView file, boolean created, long revision) implements Registration {}

        record UnknownBook(long bookId) implements Registration {}

        /** Fewer nodes took a copy than every file must have: nothing was registered. */
        record TooFewNodes(int needed, int stored) implements Registration {}
    }

    private final FileIndex index;
    private final BlobStore store;
    private final Staging staging;
    private final Nodes nodes;
    private final BlobCopies copies;
    private final BookChangeListener changes;
    private final long maxSize;

    RegisteringFiles(
            FileIndex index,
            BlobStore store,
            Staging staging,
            Nodes nodes,
            BlobCopies copies,
            BookChangeListener changes,
            FilesProperties properties) {
        this.index = index;
        this.store = store;
        this.staging = staging;
        this.nodes = nodes;
        this.copies = copies;
        this.changes = changes;
        this.maxSize = properties.maxSize().toBytes();
    }

    long maxSize() {
        return maxSize;
    }

    /** @param declaredLength the body's Content-Length, -1 when chunked */
    Registration register(long bookId, String name, String mediaType, InputStream body, long declaredLength)
            throws IOException {
        var title = index.bookTitle(bookId);
        if (title.isEmpty()) return new Registration.UnknownBook(bookId);
        try (Staging.Staged staged = staging.receive(body, declaredLength, maxSize)) {
            List<String> holders = index.holdersOf(staged.hash()).orElse(null);
            if (holders == null) {
                holders = storeCopies(staged);
                int needed = store.shared() ? 0 : nodes.copies();
                if (holders.size() < needed) return new Registration.TooFewNodes(needed, holders.size());
            }
            FileIndex.Saved saved = index.save(bookId, name, mediaType, staged.hash(), staged.size(), holders);
            index.currentState(bookId)
                    .map(book -> book.withFile(name, saved.revision()))
                    .ifPresent(changes::bookChanged);
            FileView view = new FileView(
                    bookId,
                    title.get(),
                    name,
                    staged.size(),
                    mediaType,
                    staged.hash(),
                    saved.at(),
                    holders.stream().sorted().toList());
            return new Registration.Done(view, saved.created(), saved.revision());
        }
    }

    /**
     * The blob on the first nodes of its hash's preference that take it, this node's copy last (keeping it moves the
     * staged file). Empty for a shared store: every node reaches the one copy.
     */
    private List<String> storeCopies(Staging.Staged staged) throws IOException {
        if (store.shared()) {
            store.keep(staged.hash(), staged.file(), staged.size());
            return List.of();
        }
        String self = nodes.self();
        int needed = nodes.copies();
        List<String> holders = new ArrayList<>(needed);
        boolean here = false;
        for (String node : nodes.preference(staged.hash())) {
            if (holders.size() + (here ? 1 : 0) >= needed) break;
            if (node.equals(self)) here = true;
            else if (copies.send(node, staged.hash(), staged.file())) holders.add(node);
        }
        if (here) {
            store.keep(staged.hash(), staged.file(), staged.size());
            holders.add(self);
        }
        return holders;
    }
}
