package io.most.bench.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A plain-text table for the console: columns padded to their widest cell, numbers right-aligned. */
public final class TextTable {
    private final List<String> headers;
    private final List<String[]> rows = new ArrayList<>();

    public TextTable(String... headers) {
        this.headers = List.of(headers);
    }

    /** Adds a row; cells beyond the headers are an error, missing ones print empty. */
    public TextTable row(Object... cells) {
        if (cells.length > headers.size()) {
            throw new IllegalArgumentException(cells.length + " cells for " + headers.size() + " columns");
        }
        String[] row = new String[headers.size()];
        Arrays.fill(row, "");
        for (int i = 0; i < cells.length; i++) {
            row[i] = cells[i] == null ? "-" : cells[i].toString();
        }
        rows.add(row);
        return this;
    }

    @Override
    public String toString() {
        int[] widths = new int[headers.size()];
        boolean[] numeric = new boolean[headers.size()];
        Arrays.fill(numeric, true);
        for (int c = 0; c < widths.length; c++) {
            widths[c] = headers.get(c).length();
            for (String[] row : rows) {
                widths[c] = Math.max(widths[c], row[c].length());
                numeric[c] &= row[c].isEmpty() || row[c].equals("-") || row[c].matches("[-+]?[0-9.,]+x?%?");
            }
        }
        StringBuilder out = new StringBuilder();
        line(out, headers.toArray(String[]::new), widths, numeric);
        for (int c = 0; c < widths.length; c++) {
            out.append(c == 0 ? "" : "  ").repeat('-', widths[c]);
        }
        out.append('\n');
        for (String[] row : rows) {
            line(out, row, widths, numeric);
        }
        return out.toString();
    }

    private static void line(StringBuilder out, String[] cells, int[] widths, boolean[] numeric) {
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < widths.length; c++) {
            String cell = cells[c];
            int pad = widths[c] - cell.length();
            line.append(c == 0 ? "" : "  ");
            if (numeric[c]) {
                line.repeat(' ', pad).append(cell);
            } else {
                line.append(cell).repeat(' ', pad);
            }
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }
}
