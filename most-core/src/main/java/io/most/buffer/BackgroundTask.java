package io.most.buffer;

import java.util.concurrent.locks.LockSupport;

/** A daemon thread running {@link #runLoop()} until {@link #stop()}; the loop polls {@link #running()}. */
abstract class BackgroundTask {
    private final Thread thread;
    private volatile boolean running = true;

    BackgroundTask(String name) {
        this.thread = Thread.ofPlatform().daemon().name(name).unstarted(this::runLoop);
    }

    /** The task's body; returns when {@link #running()} turns false. */
    abstract void runLoop();

    final boolean running() {
        return running;
    }

    final void start() {
        thread.start();
    }

    /** Asks the loop to finish, wakes it if parked, and waits for it. */
    final void stop() {
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
