package dev.agora.frontend;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.springframework.web.bind.annotation.RestController;

class ArchitectureTest {

    /**
     * The frontend's main classes, read from where the application class was loaded (target/classes, or the output
     * folder a build chose with -Dagora.target=...): scanning the class path for the package would open every jar
     * on it, and the test classes are not the rules' subject.
     */
    private static final JavaClasses FRONTEND = new ClassFileImporter().importPath(mainClasses());

    private static Path mainClasses() {
        try {
            return Path.of(FrontendApplication.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void controllersArePackagePrivate() {
        classes()
                .that()
                .areAnnotatedWith(RestController.class)
                .should()
                .notBePublic()
                .check(FRONTEND);
    }

    /** The cached lookup path is plain Java: benchmarked without Spring, testable without HTTP. */
    @Test
    void theCacheAndTheLookupUseCaseKnowNothingOfSpringOrHttp() {
        noClasses()
                .that()
                .haveSimpleNameStartingWith("BookCache")
                .or()
                .haveSimpleNameStartingWith("FindingBooks")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.springframework..", "jakarta.servlet..", "dev.agora.frontend.upstream..")
                .check(FRONTEND);
    }

    @Test
    void booksDoNotDependOnOrdersOrProxies() {
        noClasses()
                .that()
                .resideInAPackage("..frontend.book..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("..frontend.order..", "..frontend.proxy..")
                .check(FRONTEND);
    }

    /**
     * Every call to a tier goes through {@code upstream.Upstream} (timing, bulkhead, problems passed on); book files
     * stream past it, and {@code files.CatalogNodes} is the one class that asks the load balancer which catalog nodes
     * are healthy (the seam to rewire when the balancing changes).
     */
    @Test
    void tiersAreCalledOnlyThroughUpstream() {
        noClasses()
                .that()
                .resideOutsideOfPackage("..frontend.upstream..")
                .and()
                .doNotHaveFullyQualifiedName("dev.agora.frontend.files.CatalogNodes")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.agora.common.client..", "org.springframework.cloud.loadbalancer..")
                .check(FRONTEND);
    }
}
