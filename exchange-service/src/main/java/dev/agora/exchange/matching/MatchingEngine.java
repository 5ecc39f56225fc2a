package dev.agora.exchange.matching;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The exchange's state and rules: accounts, positions, order books, price-time matching. Not thread-safe
 * by design: one writer thread (the sequencer) applies every command, in one total order.
 *
 * <p>Cash is reserved when a buy is placed ({@code shares x limit}) and shares are taken when a sell is
 * placed, so an order can always settle. Every step below keeps cash and shares conserved.
 *
 * <p>Memory follows open interest, not history: the engine holds accounts, positions and open orders, plus a
 * bounded number of recently closed orders ({@link MemoryLimits}). A query or cancel of an order it no longer holds
 * is answered with {@link Result.StoredOrder}, which {@link StoredResults} completes from the store after the
 * batch's commit. Order and execution ids are 64-bit sequences.
 */
public final class MatchingEngine {

    /**
     * Idempotency keys remembered, those of the most recent keyed orders: a key protects the retries of one
     * placement, which come within seconds, not a permanent name (README, "Idempotent order placement").
     */
    public static final int ORDER_KEYS_KEPT = 32_768;

    private final Map<String, Account> accounts = new HashMap<>();
    private final Map<String, OrderBook> books = new HashMap<>();
    private final Map<Long, Order> openOrders = new HashMap<>();
    private final Map<Long, Order> recentlyClosed;
    /** Account and idempotency key of the latest keyed orders to the order's id, oldest first. */
    private final Map<String, Long> orderKeys = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
            return size() > ORDER_KEYS_KEPT;
        }
    };

    private final int fillsKept;
    private final int closedKeptPerAccount;
    /** Closed orders the accounts keep ({@link MemoryLimits#closedOrdersKeptPerAccount()}), many also kept above. */
    private long closedKeptByAccounts;

    private final LongSupplier epochSeconds;
    private StateChanges changes = StateChanges.NONE;
    private long nextOrderId = 1;
    private long nextExecutionId = 1;

    public MatchingEngine(LongSupplier epochSeconds) {
        this(epochSeconds, MemoryLimits.DEFAULT);
    }

    public MatchingEngine(LongSupplier epochSeconds, MemoryLimits limits) {
        this.epochSeconds = epochSeconds;
        this.fillsKept = limits.fillsKeptPerOrder();
        this.closedKeptPerAccount = limits.closedOrdersKeptPerAccount();
        int closedKept = limits.closedOrdersKept();
        this.recentlyClosed = new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Order> eldest) {
                return size() > closedKept;
            }
        };
    }

    /** Where changes are reported from now on. */
    public void reportChangesTo(StateChanges changes) {
        this.changes = changes;
    }

    /** Creates an account without an owner (the XML protocol's accounts). */
    public Result createAccount(String accountId, BigDecimal balance) {
        return createAccount(accountId, balance, null);
    }

    /** Creates an account that belongs to {@code owner} (a user name; null for none). */
    public Result createAccount(String accountId, BigDecimal balance, String owner) {
        if (!Names.isAccountId(accountId)) return Result.rejected(Rejection.INVALID_ACCOUNT_ID);
        if (balance == null || balance.signum() < 0) return Result.rejected(Rejection.INVALID_BALANCE);
        if (accounts.containsKey(accountId)) return Result.rejected(Rejection.ACCOUNT_EXISTS);
        Account account = new Account(accountId, owner, balance);
        accounts.put(accountId, account);
        changes.accountOpened(account);
        return new Result.AccountCreated(accountId);
    }

    /** Creates the symbol if needed and adds shares to the account's position in it. */
    public Result addShares(String symbol, String accountId, BigDecimal shares) {
        if (!Names.isSymbol(symbol)) return Result.rejected(Rejection.INVALID_SYMBOL);
        Account account = accounts.get(accountId);
        if (account == null) return Result.rejected(Rejection.UNKNOWN_ACCOUNT);
        if (shares == null || shares.signum() <= 0) return Result.rejected(Rejection.INVALID_SHARES);
        addShares(account, symbol, shares);
        return new Result.SharesAdded(symbol, accountId, shares);
    }

    /** Places a limit order ({@code amount > 0} buys, {@code < 0} sells) and matches it at once. */
    public Result placeOrder(String accountId, String symbol, BigDecimal amount, BigDecimal limit) {
        return placeOrder(accountId, symbol, amount, limit, null);
    }

    /**
     * Places a limit order once per {@code clientKey} (null: no key) and account: when an order of the account was
     * placed with the same key (among the last {@link #ORDER_KEYS_KEPT} keyed orders), nothing is placed and the
     * answer names that order, so a client that did not get the answer to a placement may send it again. A placement
     * that was rejected placed nothing, and a repeat is decided anew.
     */
    public Result placeOrder(String accountId, String symbol, BigDecimal amount, BigDecimal limit, String clientKey) {
        Account account = accounts.get(accountId);
        if (account == null) return Result.rejected(Rejection.UNKNOWN_ACCOUNT);
        if (clientKey != null) {
            Long placed = orderKeys.get(orderKey(accountId, clientKey));
            if (placed != null) return new Result.OrderOpened(placed);
        }
        Result result = place(account, symbol, amount, limit, clientKey);
        if (clientKey != null && result instanceof Result.OrderOpened opened) {
            orderKeys.put(orderKey(accountId, clientKey), opened.orderId());
        }
        return result;
    }

    private static String orderKey(String accountId, String clientKey) {
        // Account ids are digits only: the slash cannot occur in one, so no two pairs join to the same string.
        return accountId + "/" + clientKey;
    }

    private Result place(Account account, String symbol, BigDecimal amount, BigDecimal limit, String clientKey) {
        if (!Names.isSymbol(symbol)) return Result.rejected(Rejection.INVALID_SYMBOL);
        if (amount == null || amount.signum() == 0) return Result.rejected(Rejection.INVALID_AMOUNT);
        if (limit == null || limit.signum() <= 0) return Result.rejected(Rejection.INVALID_LIMIT);
        boolean buy = amount.signum() > 0;
        BigDecimal shares = amount.abs();
        if (buy) {
            BigDecimal cost = shares.multiply(limit);
            if (account.balance().compareTo(cost) < 0) return Result.rejected(Rejection.INSUFFICIENT_FUNDS);
            account.debit(cost);
            changes.accountChanged(account);
        } else {
            BigDecimal held = account.shares(symbol);
            if (held == null || held.compareTo(shares) < 0) return Result.rejected(Rejection.INSUFFICIENT_SHARES);
            account.removeShares(symbol, shares);
            changes.positionChanged(account, symbol);
        }
        OrderBook book = books.computeIfAbsent(symbol, OrderBook::new);
        Order order = new Order(nextOrderId++, account, book.symbol, buy, shares, limit);
        order.keyedBy(clientKey);
        match(order, book);
        if (order.isOpen()) {
            book.rest(order);
            openOrders.put(order.id(), order);
        } else {
            closed(order);
        }
        changes.orderPlaced(order);
        return new Result.OrderOpened(order.id());
    }

    public Result query(String accountId, long orderId) {
        Account account = accounts.get(accountId);
        if (account == null) return Result.rejected(Rejection.UNKNOWN_ACCOUNT);
        Order order = held(orderId, account);
        if (order == null) return stored(orderId, accountId, false);
        if (!order.accountId().equals(accountId)) return Result.rejected(Rejection.FOREIGN_ORDER);
        return new Result.OrderStatus(order.snapshot(nextExecutionId - 1));
    }

    /** Cancels the open part of an order and frees what it held: cash for a buy, shares for a sell. */
    public Result cancel(String accountId, long orderId) {
        Account account = accounts.get(accountId);
        if (account == null) return Result.rejected(Rejection.UNKNOWN_ACCOUNT);
        Order order = held(orderId, account);
        if (order == null) return stored(orderId, accountId, true);
        if (!order.accountId().equals(accountId)) return Result.rejected(Rejection.FOREIGN_ORDER);
        if (!order.isOpen()) return Result.rejected(Rejection.NOTHING_OPEN);
        books.get(order.symbol()).remove(order);
        openOrders.remove(orderId);
        closed(order);
        BigDecimal open = order.open();
        if (order.isBuy()) {
            account.credit(open.multiply(order.limit()));
            changes.accountChanged(account);
        } else {
            addShares(account, order.symbol(), open);
        }
        order.cancel(epochSeconds.getAsLong());
        changes.orderChanged(order);
        return new Result.OrderCanceled(order.snapshot(nextExecutionId - 1));
    }

    /** An open or recently closed order; null for one only the store may know. */
    private Order held(long orderId) {
        Order order = openOrders.get(orderId);
        return order != null ? order : recentlyClosed.get(orderId);
    }

    /** {@link #held(long)}, or else one of the latest closed orders of the account that asks. */
    private Order held(long orderId, Account asking) {
        Order order = held(orderId);
        return order != null ? order : asking.latestClosed(orderId);
    }

    /** Keeps an order that just closed among the exchange's and its account's latest closed orders. */
    private void closed(Order order) {
        recentlyClosed.put(order.id(), order);
        if (order.owner().closed(order, closedKeptPerAccount)) closedKeptByAccounts++;
    }

    /** An order the engine does not hold: unknown when its id was never given, else closed and stored. */
    private Result stored(long orderId, String accountId, boolean cancel) {
        if (orderId <= 0 || orderId >= nextOrderId) return Result.rejected(Rejection.UNKNOWN_ORDER);
        return new Result.StoredOrder(orderId, accountId, cancel, nextExecutionId - 1);
    }

    public Optional<Account> account(String accountId) {
        return Optional.ofNullable(accounts.get(accountId));
    }

    /** An order the engine holds: open, or closed recently (older closed orders are only in the store). */
    public Optional<Order> order(long orderId) {
        return Optional.ofNullable(held(orderId));
    }

    public Iterable<Account> accounts() {
        return accounts.values();
    }

    /** The open orders, in no particular order. */
    public Iterable<Order> openOrders() {
        return Collections.unmodifiableCollection(openOrders.values());
    }

    public int openOrderCount() {
        return openOrders.size();
    }

    public int closedOrdersHeld() {
        return recentlyClosed.size();
    }

    /** Closed orders the accounts keep as their latest ones (some of them also among {@link #closedOrdersHeld()}). */
    public long closedOrdersKeptByAccounts() {
        return closedKeptByAccounts;
    }

    /** The id the next order will get. */
    public long nextOrderId() {
        return nextOrderId;
    }

    private void match(Order incoming, OrderBook book) {
        long now = -1;
        PriceLevel level;
        while (incoming.isOpen() && (level = book.bestOpposite(incoming.isBuy())) != null && crosses(incoming, level)) {
            if (now < 0) now = epochSeconds.getAsLong();
            Order resting = level.head;
            BigDecimal shares = incoming.open().min(resting.open());
            // The resting order was open first, so its limit is the price.
            BigDecimal price = resting.limit();
            Order buy = incoming.isBuy() ? incoming : resting;
            Order sell = incoming.isBuy() ? resting : incoming;
            settle(buy, buy.owner(), sell, sell.owner(), shares, price);
            Fill fill = new Fill(shares, price, now);
            incoming.fill(fill, fillsKept);
            resting.fill(fill, fillsKept);
            if (!resting.isOpen()) {
                book.remove(resting);
                openOrders.remove(resting.id());
                closed(resting);
            }
            changes.orderChanged(resting);
            changes.executed(
                    new Execution(nextExecutionId++, buy.id(), sell.id(), incoming.symbol(), shares, price, now));
        }
    }

    private static boolean crosses(Order incoming, PriceLevel level) {
        int comparison = incoming.limit().compareTo(level.price);
        return incoming.isBuy() ? comparison >= 0 : comparison <= 0;
    }

    /** Moves cash and shares for one execution; the buyer's cash was reserved at its limit. */
    private void settle(Order buy, Account buyer, Order sell, Account seller, BigDecimal shares, BigDecimal price) {
        seller.credit(shares.multiply(price));
        changes.accountChanged(seller);
        addShares(buyer, buy.symbol(), shares);
        if (buy.limit().compareTo(price) > 0) {
            buyer.credit(shares.multiply(buy.limit().subtract(price)));
            changes.accountChanged(buyer);
        }
    }

    private void addShares(Account account, String symbol, BigDecimal shares) {
        boolean opened = account.shares(symbol) == null;
        account.addShares(symbol, shares);
        if (opened) changes.positionOpened(account, symbol);
        else changes.positionChanged(account, symbol);
    }

    // Rebuilding from durable state. Callers restore accounts, then positions, then open orders in id order, then the
    // sequences.

    public void restoreAccount(String accountId, BigDecimal balance) {
        restoreAccount(accountId, balance, null);
    }

    public void restoreAccount(String accountId, BigDecimal balance, String owner) {
        accounts.put(accountId, new Account(accountId, owner, balance));
    }

    public void restorePosition(String accountId, String symbol, BigDecimal shares) {
        accounts.get(accountId).restorePosition(symbol, shares);
    }

    /**
     * Restores an open order; they must come in id order so the book keeps time priority. Its executions, if it has
     * any, stay in the store.
     */
    public void restoreOpenOrder(
            long id, String accountId, String symbol, BigDecimal amount, BigDecimal limit, BigDecimal open) {
        OrderBook book = books.computeIfAbsent(symbol, OrderBook::new);
        Order order = new Order(id, accounts.get(accountId), book.symbol, amount.signum() > 0, amount.abs(), limit);
        order.restoreOpen(open);
        openOrders.put(id, order);
        book.rest(order);
        nextOrderId = Math.max(nextOrderId, id + 1);
    }

    /** Remembers the key of a stored order; they must come oldest first, so the oldest are forgotten first. */
    public void restoreOrderKey(String accountId, String clientKey, long orderId) {
        orderKeys.put(orderKey(accountId, clientKey), orderId);
    }

    /** The highest order and execution ids ever given (0 for none), so the sequences go on after them. */
    public void restoreSequences(long lastOrderId, long lastExecutionId) {
        nextOrderId = Math.max(nextOrderId, lastOrderId + 1);
        nextExecutionId = Math.max(nextExecutionId, lastExecutionId + 1);
    }
}
