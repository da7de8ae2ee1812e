package io.most.examples.h2;

import io.most.errors.ConfigurationException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;
import org.h2.api.ErrorCode;
import org.h2.message.DbException;
import org.h2.store.fs.FilePath;

/**
 * H2's file-system SPI for the {@code most} scheme: a path {@code most:/dir/name} is the file
 * {@code name} of the {@link MostVolume} mounted at {@code /dir} (see {@link MostFileSystem}). H2 calls
 * it for everything it does with files: existence, size, directory listing, rename, delete, and
 * {@link #open} for the {@link MostFileChannel} its MVStore reads and writes.
 *
 * <p>A path under no mount does not exist and cannot be created or opened: the error says which
 * directory to mount. Instances are immutable.
 */
public final class MostFilePath extends FilePath {

    /** The provider instance H2 registers (its {@link #getPath} makes the real paths). */
    public MostFilePath() {
        name = MostFileSystem.SCHEME + ":/";
    }

    private MostFilePath(String absolutePath) {
        name = MostFileSystem.SCHEME + ":" + absolutePath;
    }

    @Override
    public MostFilePath getPath(String path) {
        try {
            return new MostFilePath(MostFileSystem.normalize(path));
        } catch (ConfigurationException e) {
            throw DbException.get(ErrorCode.FILE_NOT_FOUND_1, e, path + " (" + e.getMessage() + ")");
        }
    }

    @Override
    public String getScheme() {
        return MostFileSystem.SCHEME;
    }

    @Override
    public long size() {
        FileNode node = node();
        return node == null || node.directory ? 0 : node.size;
    }

    @Override
    public boolean exists() {
        return node() != null;
    }

    @Override
    public boolean isDirectory() {
        FileNode node = node();
        return node != null && node.directory;
    }

    @Override
    public boolean isRegularFile() {
        FileNode node = node();
        return node != null && !node.directory;
    }

    @Override
    public long lastModified() {
        FileNode node = node();
        return node == null ? 0 : node.lastModified;
    }

    @Override
    public boolean canWrite() {
        MostFileSystem.Location at = MostFileSystem.locate(absolute()).orElse(null);
        return at != null && at.volume().isOpen() && at.volume().lookup(at.relative()) != null;
    }

    @Override
    public boolean setReadOnly() {
        return false; // volumes have no per-file permissions
    }

    @Override
    public boolean isAbsolute() {
        return true; // getPath normalizes to an absolute path or refuses
    }

    @Override
    public MostFilePath toRealPath() {
        return this;
    }

    @Override
    public MostFilePath getParent() {
        String parent = MostFileSystem.parent(absolute());
        return parent == null ? null : new MostFilePath(parent);
    }

    @Override
    public boolean createFile() {
        MostFileSystem.Location at = require("create");
        return at.volume().create(at.relative(), false);
    }

    @Override
    public void createDirectory() {
        MostFileSystem.Location at = require("create directory");
        if (!at.volume().create(at.relative(), true) && !isDirectory()) {
            throw DbException.get(ErrorCode.FILE_CREATION_FAILED_1, name + " (a file with this name already exists)");
        }
    }

    @Override
    public void delete() {
        MostFileSystem.Location at = require("delete");
        if (at.relative().isEmpty()) {
            throw DbException.get(ErrorCode.FILE_DELETE_FAILED_1, name + " (the root of a MOST volume)");
        }
        try {
            at.volume().delete(at.relative());
        } catch (RuntimeException e) {
            throw DbException.get(ErrorCode.FILE_DELETE_FAILED_1, e, name + " (" + e.getMessage() + ")");
        }
    }

    @Override
    public List<FilePath> newDirectoryStream() {
        MostFileSystem.Location at = MostFileSystem.locate(absolute()).orElse(null);
        List<FilePath> out = new ArrayList<>();
        if (at == null) {
            return out;
        }
        String base = at.mountPoint().equals("/") ? "" : at.mountPoint();
        for (String child : at.volume().children(at.relative())) {
            out.add(new MostFilePath(base + "/" + child));
        }
        return out;
    }

    @Override
    public void moveTo(FilePath newName, boolean atomicReplace) {
        MostFileSystem.Location from = require("rename");
        MostFileSystem.Location to = newName instanceof MostFilePath target
                ? MostFileSystem.locate(target.absolute()).orElse(null) : null;
        if (to == null || to.volume() != from.volume()) {
            throw DbException.get(ErrorCode.FILE_RENAME_FAILED_2, name, newName + " (not on the same MOST volume)");
        }
        try {
            from.volume().rename(from.relative(), to.relative(), atomicReplace);
        } catch (RuntimeException e) {
            throw DbException.get(ErrorCode.FILE_RENAME_FAILED_2, e, name, newName + " (" + e.getMessage() + ")");
        }
    }

    @Override
    public FileChannel open(String mode) throws IOException {
        MostFileSystem.Location at = MostFileSystem.locate(absolute()).orElseThrow(() ->
                new FileNotFoundException(notMounted("open")));
        MostVolume volume = at.volume();
        boolean readOnly = mode.equals("r");
        FileNode node = volume.lookup(at.relative());
        if (node == null) {
            if (readOnly) {
                throw new FileNotFoundException(name + " (no such file on MOST volume " + volume.name() + ")");
            }
            try {
                volume.create(at.relative(), false);
            } catch (RuntimeException e) {
                throw new IOException("cannot create " + name + ": " + e.getMessage(), e);
            }
            node = volume.lookup(at.relative());
        }
        if (node == null || node.directory) {
            throw new IOException(name + " is a directory (or was deleted while being opened)");
        }
        return new MostFileChannel(volume, node, name, readOnly, mode.equals("rws") || mode.equals("rwd"));
    }

    /** The normalized absolute path, without the scheme. */
    String absolute() {
        return name.substring(MostFileSystem.SCHEME.length() + 1);
    }

    private FileNode node() {
        MostFileSystem.Location at = MostFileSystem.locate(absolute()).orElse(null);
        return at == null || !at.volume().isOpen() ? null : at.volume().lookup(at.relative());
    }

    private MostFileSystem.Location require(String operation) {
        return MostFileSystem.locate(absolute()).orElseThrow(() ->
                DbException.get(ErrorCode.FILE_NOT_FOUND_1, notMounted(operation)));
    }

    private String notMounted(String operation) {
        return name + " (cannot " + operation + ": no MOST volume is mounted at or above " + absolute()
                + "; mount one with MostFileSystem.mount(directory, volume))";
    }
}
