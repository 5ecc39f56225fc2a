package dev.agora.common.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.batch.GroupCommit.Turn;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class GroupCommitTest {

    private record Item(int id, CompletableFuture<String> answer) {

        Item(int id) {
            this(id, new CompletableFuture<>());
        }

        String await() throws Exception {
            return answer.get(10, TimeUnit.SECONDS);
        }
    }

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final Counter backlogFull = meters.counter("test.backlog-full");
    private final List<List<Integer>> written = new CopyOnWriteArrayList<>();
    private final CountDownLatch firstWriteTaken = new CountDownLatch(1);
    private final CountDownLatch releaseFirstWrite = new CountDownLatch(1);
    private GroupCommit<Item> commits;

    @AfterEach
    void stop() throws InterruptedException {
        releaseFirstWrite.countDown();
        if (commits != null) commits.close();
    }

    /** Writes every item of a batch; the first batch waits until the test releases it. */
    private void writeAll(List<Item> batch) {
        if (written.isEmpty()) {
            firstWriteTaken.countDown();
            try {
                releaseFirstWrite.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        written.add(batch.stream().map(Item::id).toList());
        batch.forEach(item -> item.answer().complete("written"));
    }

    private GroupCommit<Item> start(int backlog, Consumer<List<Item>> write) {
        return start(1, backlog, write);
    }

    private GroupCommit<Item> start(int ownWrites, int backlog, Consumer<List<Item>> write) {
        commits = new GroupCommit<>(
                "test-writer",
                64,
                ownWrites,
                backlog,
                write,
                item -> item.answer().complete("alone"),
                backlogFull,
                meters,
                "test");
        return commits;
    }

    @Test
    void aLoneItemIsWrittenOnItsCallersThreadAndSoIsTheNextOnceItIsDone() {
        start(100, this::writeAll);
        assertThat(commits.offer(new Item(0))).isEqualTo(Turn.WRITE_NOW);
        commits.doneAlone();
        assertThat(commits.offer(new Item(1))).isEqualTo(Turn.WRITE_NOW);
        commits.doneAlone();
        assertThat(written).as("the writer thread wrote nothing").isEmpty();
    }

    @Test
    void itemsOfferedWhileWritesAreUnderWayAreWrittenTogether() throws Exception {
        start(100, this::writeAll);
        assertThat(commits.offer(new Item(0)))
                .as("a caller's own write, under way")
                .isEqualTo(Turn.WRITE_NOW);
        Item second = new Item(1);
        assertThat(commits.offer(second)).isEqualTo(Turn.HANDED_OVER);
        assertThat(firstWriteTaken.await(10, TimeUnit.SECONDS)).isTrue();
        List<Item> gathered = IntStream.rangeClosed(2, 11).mapToObj(Item::new).toList();
        gathered.forEach(item -> assertThat(commits.offer(item)).isEqualTo(Turn.HANDED_OVER));
        assertThat(meters.get("test.waiting").gauge().value()).isEqualTo(10);

        releaseFirstWrite.countDown();

        assertThat(second.await()).isEqualTo("written");
        for (Item item : gathered) assertThat(item.await()).isEqualTo("written");
        assertThat(written).containsExactly(List.of(1), List.of(2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
        commits.doneAlone();
    }

    @Test
    void withTwoOwnWritesASecondCallerWritesBesideTheFirstAndTheNextAreHandedOver() throws Exception {
        start(2, 100, this::writeAll);
        assertThat(commits.offer(new Item(0)))
                .as("the first caller's own write")
                .isEqualTo(Turn.WRITE_NOW);
        assertThat(commits.offer(new Item(1)))
                .as("a second caller writes its own beside it: the writer thread is idle")
                .isEqualTo(Turn.WRITE_NOW);
        Item third = new Item(2);
        assertThat(commits.offer(third)).isEqualTo(Turn.HANDED_OVER);
        assertThat(firstWriteTaken.await(10, TimeUnit.SECONDS)).isTrue();
        commits.doneAlone();
        List<Item> gathered = IntStream.rangeClosed(3, 6).mapToObj(Item::new).toList();
        gathered.forEach(item -> assertThat(commits.offer(item))
                .as("one caller's write and the writer's are under way")
                .isEqualTo(Turn.HANDED_OVER));

        releaseFirstWrite.countDown();

        assertThat(third.await()).isEqualTo("written");
        for (Item item : gathered) assertThat(item.await()).isEqualTo("written");
        assertThat(written).containsExactly(List.of(2), List.of(3, 4, 5, 6));
        commits.doneAlone();
    }

    @Test
    void writeGivesTheWritersAnswerOrWritesOnTheCallersThreadWhenNothingIsUnderWayOrTheItemCameBack() {
        start(100, batch -> batch.stream().filter(item -> item.id() == 1).forEach(item -> item.answer()
                .complete("written")));
        assertThat(commits.write(new Item(0), () -> "own", GroupCommitTest::answerUnlessHandedBack))
                .as("nothing under way")
                .isEqualTo("own");
        assertThat(commits.offer(new Item(-1))).as("a write under way").isEqualTo(Turn.WRITE_NOW);
        assertThat(commits.write(new Item(1), () -> "own", GroupCommitTest::answerUnlessHandedBack))
                .isEqualTo("written");
        assertThat(commits.write(new Item(2), () -> "own after all", GroupCommitTest::answerUnlessHandedBack))
                .as("the writer answered it nothing and handed it back")
                .isEqualTo("own after all");
        commits.doneAlone();
    }

    /** As the services' callers do: the writer's answer, or null for an item handed back to be written alone. */
    private static String answerUnlessHandedBack(Item item) {
        try {
            String answer = item.await();
            return answer.equals("alone") ? null : answer;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void everyItemOfAFailedWriteIsHandedBackToBeWrittenAlone() throws Exception {
        start(100, batch -> {
            throw new IllegalStateException("the database refused the batch");
        });
        assertThat(commits.offer(new Item(0))).isEqualTo(Turn.WRITE_NOW);
        List<Item> items = IntStream.range(1, 6).mapToObj(Item::new).toList();
        items.forEach(item -> assertThat(commits.offer(item)).isEqualTo(Turn.HANDED_OVER));
        for (Item item : items) assertThat(item.await()).isEqualTo("alone");
        commits.doneAlone();
    }

    @Test
    void aWriteThatAnswersOnlySomeHandsTheRestBack() throws Exception {
        start(100, batch -> batch.stream().filter(item -> item.id() % 2 == 0).forEach(item -> item.answer()
                .complete("written")));
        assertThat(commits.offer(new Item(-1))).isEqualTo(Turn.WRITE_NOW);
        List<Item> items = IntStream.range(0, 6).mapToObj(Item::new).toList();
        items.forEach(item -> assertThat(commits.offer(item)).isEqualTo(Turn.HANDED_OVER));
        for (Item item : items) assertThat(item.await()).isEqualTo(item.id() % 2 == 0 ? "written" : "alone");
        commits.doneAlone();
    }

    @Test
    void aFullBacklogSendsTheItemBackToItsCallerAndCountsIt() throws Exception {
        start(3, this::writeAll);
        assertThat(commits.offer(new Item(0))).isEqualTo(Turn.WRITE_NOW);
        assertThat(commits.offer(new Item(1))).isEqualTo(Turn.HANDED_OVER);
        assertThat(firstWriteTaken.await(10, TimeUnit.SECONDS)).isTrue();
        for (int id = 2; id <= 4; id++) assertThat(commits.offer(new Item(id))).isEqualTo(Turn.HANDED_OVER);

        Item refused = new Item(5);
        assertThat(commits.offer(refused)).isEqualTo(Turn.WRITE_ALONE);

        assertThat(backlogFull.count()).isEqualTo(1);
        assertThat(refused.answer()).isNotDone();
        commits.doneAlone();
    }

    @Test
    void closingFinishesTheWriteUnderWayAndHandsBackWhatStillWaits() throws Exception {
        start(100, this::writeAll);
        assertThat(commits.offer(new Item(0))).isEqualTo(Turn.WRITE_NOW);
        Item underWay = new Item(1);
        assertThat(commits.offer(underWay)).isEqualTo(Turn.HANDED_OVER);
        assertThat(firstWriteTaken.await(10, TimeUnit.SECONDS)).isTrue();
        Item waiting = new Item(2);
        assertThat(commits.offer(waiting)).isEqualTo(Turn.HANDED_OVER);

        Thread closing = Thread.ofPlatform().start(() -> {
            try {
                commits.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        // Let close() mark the writer stopping before the write under way returns.
        while (closing.getState() != Thread.State.TIMED_WAITING && closing.isAlive()) Thread.onSpinWait();
        releaseFirstWrite.countDown();
        closing.join(TimeUnit.SECONDS.toMillis(15));

        assertThat(underWay.await()).isEqualTo("written");
        assertThat(waiting.await()).isEqualTo("alone");
        assertThat(written).containsExactly(List.of(1));
        assertThat(commits.offer(new Item(3)))
                .as("offered after the writer stopped")
                .isEqualTo(Turn.WRITE_ALONE);
        commits.doneAlone();
    }
}
