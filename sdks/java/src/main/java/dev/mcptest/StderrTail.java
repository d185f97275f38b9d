/*
 * StderrTail: drains the binary's stderr on its own thread and keeps its last bytes.
 */
package dev.mcptest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads a stream to its end on a daemon thread, so the binary never blocks on a full stderr
 * pipe, keeping only the last {@link #KEEP} bytes for failure messages.
 */
final class StderrTail {
    /** How many bytes of the stream's end are kept. */
    static final int KEEP = 16 * 1024;
    /** How many lines a failure message shows. */
    static final int LINES = 30;

    private final byte[] ring = new byte[KEEP];
    private long total;
    private final Thread thread;

    StderrTail(InputStream stream, String name) {
        thread = new Thread(() -> drain(stream), name);
        thread.setDaemon(true);
        thread.start();
    }

    private void drain(InputStream stream) {
        byte[] buffer = new byte[8192];
        try (stream) {
            int n;
            while ((n = stream.read(buffer)) >= 0) {
                append(buffer, n);
            }
        } catch (IOException e) {
            // The pipe closes when the process is killed: what was read is all there is.
        }
    }

    private synchronized void append(byte[] buffer, int n) {
        for (int i = 0; i < n; i++) {
            ring[(int) ((total + i) % KEEP)] = buffer[i];
        }
        total += n;
    }

    /** Waits (bounded) for the stream's end, so a tail taken after exit is complete. */
    void awaitEnd(long millis) {
        try {
            thread.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The last {@link #LINES} lines read so far ("" if none), decoded leniently as UTF-8. */
    synchronized String tail() {
        int kept = (int) Math.min(total, KEEP);
        byte[] bytes = new byte[kept];
        long start = total - kept;
        for (int i = 0; i < kept; i++) {
            bytes[i] = ring[(int) ((start + i) % KEEP)];
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        String[] lines = text.split("\n", -1);
        int from = Math.max(0, lines.length - LINES - 1);
        if (start > 0 && from == 0) {
            // The first kept line is cut: drop it rather than show half a line.
            from = 1;
        }
        var out = new StringBuilder();
        for (int i = from; i < lines.length; i++) {
            out.append(lines[i]);
            if (i + 1 < lines.length) {
                out.append('\n');
            }
        }
        return out.toString().strip();
    }

    /** How many bytes were read in all. */
    synchronized long total() {
        return total;
    }
}
