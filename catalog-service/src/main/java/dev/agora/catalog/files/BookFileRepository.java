package dev.agora.catalog.files;

import java.util.List;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;

interface BookFileRepository extends JpaRepository<BookFile, BookFile.Key> {

    @Query("select f from BookFile f join fetch f.blob where f.bookId = :bookId order by f.name")
    List<BookFile> ofBook(long bookId);
}
