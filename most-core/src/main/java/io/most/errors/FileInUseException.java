package io.most.errors;

/**
 * A store file (block device, PM file, log) is already open in another store, in this process or
 * another. Two stores on one file would each overwrite what the other wrote, so the second open is
 * refused before anything is written; the message names the holder's process when the system tells.
 */
public class FileInUseException extends MostException {
    private static final long serialVersionUID = 1L;

    public FileInUseException(String message) {
        super(message);
    }
}
