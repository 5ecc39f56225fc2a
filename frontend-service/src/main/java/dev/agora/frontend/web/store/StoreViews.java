package dev.agora.frontend.web.store;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/** What the store's pages read from the public API. */
final class StoreViews {

    private StoreViews() {}

    /** A book's file, as {@code GET /api/books/{id}/files} lists it. */
    record FileItem(String name, long size, String mediaType, String url) {

        /** 1.2 MB, 340 KB, 12 bytes: what a person reads. */
        public String readableSize() {
            if (size < 1024) return size + (size == 1 ? " byte" : " bytes");
            String[] units = {"KB", "MB", "GB", "TB"};
            double value = size;
            int unit = -1;
            do {
                value /= 1024;
                unit++;
            } while (value >= 1024 && unit < units.length - 1);
            return String.format(java.util.Locale.ROOT, value < 10 ? "%.1f %s" : "%.0f %s", value, units[unit]);
        }
    }

    /** An order, as the order tier reports it (status PENDING, CONFIRMED or REJECTED). */
    record OrderItem(long orderId, long bookId, int quantity, String status, BigDecimal total, Instant createdAt) {}

    record OrderPage(List<OrderItem> content, int page, int size, long totalElements) {}

    /** A row of "my orders": the order and its book's title, when the catalog still has the book. */
    record OrderRow(OrderItem order, String title) {

        private static final java.time.format.DateTimeFormatter WHEN = java.time.format.DateTimeFormatter.ofPattern(
                        "yyyy-MM-dd HH:mm 'UTC'")
                .withZone(java.time.ZoneOffset.UTC);

        public String placed() {
            return order.createdAt() == null ? "" : WHEN.format(order.createdAt());
        }
    }

    record BuyRequest(long bookId, int quantity) {}
}
