package dev.agora.catalog.files;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FileNameTest {

    @ParameterizedTest
    @ValueSource(strings = {"book.pdf", "Ünïcode – kapitel 1.epub", "a", ".hidden", "name with spaces.mp3", "x..y"})
    void ordinaryNamesAreFine(String name) {
        assertThat(FileName.problem(name)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                ".",
                "..",
                "a/b",
                "a\\b",
                "nul\u0000",
                "bell\u0007",
                "tab\tname",
                "rtl\u202Ename",
                " lead",
                "trail ",
                "new\nline"
            })
    void pathTricksControlCharactersAndEdgeSpacesAreRefused(String name) {
        assertThat(FileName.problem(name)).isPresent();
    }

    @ParameterizedTest
    @ValueSource(ints = {256, 300})
    void namesLongerThan255CharactersAreRefused(int length) {
        assertThat(FileName.problem("x".repeat(length))).isPresent();
        assertThat(FileName.problem("x".repeat(255))).isEmpty();
    }
}
