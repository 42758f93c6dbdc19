//! Input sources: a memory-mapped file or standard input read in bounded chunks.
//!
//! Both present the same face to the pipeline, [`Source`]: a window of bytes that starts at
//! a record boundary, whether that window is the end of the input, and a way to say how much
//! of it was consumed. A mapped file is one window holding the whole file; stdin is a buffer
//! that is refilled as records are consumed, so memory stays bounded whatever its length.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::Duration;

use memmap2::Mmap;

use crate::core::Cancel;

/// How many bytes of stdin are read at a time.
pub const STDIN_CHUNK: usize = 4 << 20;

/// Where the records come from.
pub enum Source {
    /// A regular file, memory-mapped read-only (or empty).
    Mapped {
        /// The mapping, `None` for an empty file (which cannot be mapped).
        map: Option<Mmap>,
        /// Bytes consumed so far.
        pos: usize,
        /// The open file, to notice when it shrinks under the map.
        file: File,
    },
    /// Standard input (or any reader), streamed through a bounded buffer.
    Stream {
        /// The reader.
        reader: Box<dyn Read + Send>,
        /// Bytes read; `buf[start..]` is not yet consumed and begins at a record boundary.
        buf: Vec<u8>,
        /// Bytes at the front of `buf` already consumed (compacted away on the next read).
        start: usize,
        /// True once the reader reported end of input.
        eof: bool,
    },
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Mapped { map, pos, .. } => f
                .debug_struct("Mapped")
                .field("len", &map.as_ref().map_or(0, |m| m.len()))
                .field("pos", pos)
                .finish(),
            Source::Stream {
                buf, start, eof, ..
            } => f
                .debug_struct("Stream")
                .field("buffered", &(buf.len() - start))
                .field("eof", eof)
                .finish(),
        }
    }
}

/// An input that could not be opened, with the path for the message.
#[derive(Debug)]
pub struct OpenError {
    /// The path as given.
    pub path: PathBuf,
    /// What went wrong.
    pub source: io::Error,
}

impl Source {
    /// Opens `path` and maps it into memory.
    pub fn open(path: &Path, cancel: Cancel) -> Result<Source, OpenError> {
        let err = |source| OpenError {
            path: path.to_path_buf(),
            source,
        };
        let file = File::open(path).map_err(err)?;
        let meta = file.metadata().map_err(err)?;
        if meta.is_dir() {
            return Err(err(io::Error::other("is a directory")));
        }
        if meta.len() == 0 && meta.is_file() {
            return Ok(Source::Mapped {
                map: None,
                pos: 0,
                file,
            });
        }
        if !meta.is_file() {
            // A FIFO or character device cannot be mapped: stream it instead.
            return Ok(Source::stream_interruptible(Box::new(file), cancel));
        }
        install_sigbus_guard();
        // SAFETY: the mapping is read-only and private to this process; we never create a
        // mutable view, and the `Mmap` lives as long as every slice borrowed from it (the
        // slices borrow `self`). The one hazard a memory map adds is another process
        // changing the file while it is mapped: bytes may change under us (harmless: every
        // byte value is handled by the parsers) or, if the file is truncated, reading past
        // the new end raises SIGBUS. We guard against that twice: the pipeline calls
        // `check_size` before each window and stops with a clear error if the file shrank,
        // and `install_sigbus_guard` turns a SIGBUS that still slips through (a truncation
        // in the middle of a window) into a message and exit code 2 instead of a crash;
        // rows of finished windows are already flushed to the output.
        let map = unsafe { Mmap::map(&file) }.map_err(err)?;
        #[cfg(unix)]
        {
            // Sequential access: let the kernel read ahead aggressively. Advice is a hint; a
            // failure changes nothing about correctness.
            let _ = map.advise(memmap2::Advice::Sequential);
        }
        Ok(Source::Mapped {
            map: Some(map),
            pos: 0,
            file,
        })
    }

    /// For a mapped file: fails if the file is now shorter than the map (it was truncated
    /// while being read; touching the missing pages would raise SIGBUS).
    pub fn check_size(&self) -> io::Result<()> {
        if let Source::Mapped {
            map: Some(map),
            file,
            ..
        } = self
        {
            let now = file.metadata()?.len();
            if now < map.len() as u64 {
                return Err(io::Error::other(format!(
                    "the file shrank from {} to {now} bytes while being read",
                    map.len()
                )));
            }
        }
        Ok(())
    }

    /// Streams records from `reader` (stdin, a pipe) read on a helper thread, so that a
    /// read waiting for input gives up (with a [`StopRequested`] error) within milliseconds
    /// of `cancel` being set.
    pub fn stream_interruptible(reader: Box<dyn Read + Send>, cancel: Cancel) -> Source {
        Source::stream(Box::new(ThreadedReader::spawn(reader, cancel)))
    }

    /// Streams records from `reader` (stdin, a pipe) through a bounded buffer.
    pub fn stream(reader: Box<dyn Read + Send>) -> Source {
        Source::Stream {
            reader,
            buf: Vec::with_capacity(STDIN_CHUNK),
            start: 0,
            eof: false,
        }
    }

    /// Total size when known (a mapped file), for progress reporting.
    pub fn total_len(&self) -> Option<u64> {
        match self {
            Source::Mapped { map, .. } => Some(map.as_ref().map_or(0, |m| m.len() as u64)),
            Source::Stream { .. } => None,
        }
    }

    /// Reads more input into the window, if there is any: for a mapped file nothing (the
    /// window is the whole file); for a stream, one read of up to [`STDIN_CHUNK`] bytes
    /// beyond the `keep` bytes at the front that could not form a complete record yet. One
    /// read returns what a pipe holds now, so rows flow out as records flow in.
    pub fn fill(&mut self, keep: usize) -> io::Result<()> {
        match self {
            Source::Mapped { .. } => Ok(()),
            Source::Stream {
                reader,
                buf,
                start,
                eof,
            } => {
                let pending = buf.len() - *start;
                if *eof || pending >= keep + STDIN_CHUNK {
                    // At the end, or a full chunk is already waiting: memory stays bounded
                    // by about two chunks plus the longest record.
                    return Ok(());
                }
                // Move the unconsumed bytes to the front, then read after them.
                buf.copy_within(*start.., 0);
                buf.truncate(pending);
                *start = 0;
                let old = buf.len();
                buf.resize(old + STDIN_CHUNK, 0);
                loop {
                    match reader.read(&mut buf[old..]) {
                        Ok(0) => {
                            buf.truncate(old);
                            *eof = true;
                            return Ok(());
                        }
                        Ok(n) => {
                            buf.truncate(old + n);
                            return Ok(());
                        }
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                        Err(e) => {
                            buf.truncate(old);
                            return Err(e);
                        }
                    }
                }
            }
        }
    }

    /// The unconsumed bytes.
    pub fn window(&self) -> &[u8] {
        match self {
            Source::Mapped { map, pos, .. } => map.as_ref().map_or(&[][..], |m| &m[*pos..]),
            Source::Stream { buf, start, .. } => &buf[*start..],
        }
    }

    /// True when the window reaches the end of the input.
    pub fn at_end(&self) -> bool {
        match self {
            Source::Mapped { .. } => true,
            Source::Stream { eof, .. } => *eof,
        }
    }

    /// Marks the first `n` bytes of the window as consumed.
    pub fn consume(&mut self, n: usize) {
        match self {
            Source::Mapped { pos, .. } => *pos += n,
            Source::Stream { start, .. } => *start += n,
        }
    }
}

/// The error a stream made by [`Source::stream_interruptible`] gives when a stop was requested
/// while it waited for input.
#[derive(Debug, thiserror::Error)]
#[error("stopped while waiting for input")]
pub struct StopRequested;

/// True when `e` is a [`StopRequested`].
pub fn is_stop_requested(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<StopRequested>())
}

/// A reader whose blocking reads happen on a helper thread: [`Read::read`] waits for the
/// next chunk in short slices and looks at its [`Cancel`] token between them, so a stop
/// request is not stuck behind a pipe that sends nothing (a signal does not end a read:
/// the handlers restart it).
struct ThreadedReader {
    rx: Receiver<io::Result<Vec<u8>>>,
    chunk: Vec<u8>,
    pos: usize,
    done: bool,
    cancel: Cancel,
}

impl ThreadedReader {
    /// How long a read waits before looking at the token again.
    const SLICE: Duration = Duration::from_millis(20);

    fn spawn(mut inner: Box<dyn Read + Send>, cancel: Cancel) -> ThreadedReader {
        // One chunk in flight beside the one being consumed: memory stays bounded.
        let (tx, rx) = sync_channel::<io::Result<Vec<u8>>>(1);
        let spawned = std::thread::Builder::new()
            .name("sudoku-stdin".into())
            .spawn(move || {
                loop {
                    let mut v = vec![0u8; STDIN_CHUNK];
                    let r = match inner.read(&mut v) {
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                        r => r,
                    };
                    let end = !matches!(r, Ok(n) if n > 0);
                    let sent = tx.send(r.map(|n| {
                        v.truncate(n);
                        v
                    }));
                    if end || sent.is_err() {
                        return;
                    }
                }
            });
        let mut reader = ThreadedReader {
            rx,
            chunk: Vec::new(),
            pos: 0,
            done: false,
            cancel,
        };
        if let Err(e) = spawned {
            // No thread: report it at the first read.
            let (tx, rx) = sync_channel(1);
            let _ = tx.send(Err(e));
            reader.rx = rx;
        }
        reader
    }
}

impl Read for ThreadedReader {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            if self.pos < self.chunk.len() {
                let n = out.len().min(self.chunk.len() - self.pos);
                out[..n].copy_from_slice(&self.chunk[self.pos..self.pos + n]);
                self.pos += n;
                return Ok(n);
            }
            if self.done {
                return Ok(0);
            }
            match self.rx.recv_timeout(Self::SLICE) {
                Ok(Ok(v)) if v.is_empty() => self.done = true,
                Ok(Ok(v)) => {
                    self.chunk = v;
                    self.pos = 0;
                }
                Ok(Err(e)) => {
                    self.done = true;
                    return Err(e);
                }
                Err(RecvTimeoutError::Timeout) => {
                    if self.cancel.requested() {
                        return Err(io::Error::other(StopRequested));
                    }
                }
                Err(RecvTimeoutError::Disconnected) => self.done = true,
            }
        }
    }
}

/// Installs (once) a SIGBUS handler that reports a truncated input file and exits with code 2.
///
/// Reading a page of a memory map beyond the end of a file that was truncated after it was
/// mapped raises SIGBUS, whose default action kills the process without a word. The handler
/// writes one line to stderr with `write(2)` (async-signal-safe) and ends the process with
/// `_exit(2)`; it cannot resume the read. Output rows of finished windows were already
/// flushed, so `FILE.partial` keeps every complete row written before the fault.
#[cfg(unix)]
pub fn install_sigbus_guard() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        const MSG: &[u8] = b"sudoku-batch: the input file was truncated while being read (SIGBUS); stopping. Rows written so far are kept.\n";
        // SAFETY: the action only calls async-signal-safe functions (write, _exit) and
        // touches no memory that another thread could be changing.
        let r = unsafe {
            signal_hook::low_level::register(signal_hook::consts::SIGBUS, || {
                libc::write(2, MSG.as_ptr().cast(), MSG.len());
                libc::_exit(2);
            })
        };
        // Registration can only fail for forbidden signals; SIGBUS is not one.
        drop(r);
    });
}

/// No memory-map fault handler is needed off Unix.
#[cfg(not(unix))]
pub fn install_sigbus_guard() {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: stdin used to read a new 4 MiB chunk after every window of records, so
    /// the buffer grew with the input instead of staying bounded.
    #[test]
    fn stream_buffer_stays_bounded_when_windows_are_smaller_than_chunks() {
        let line = [b'.'; 81];
        let mut data = Vec::new();
        for _ in 0..400_000 {
            data.extend_from_slice(&line);
            data.push(b'\n');
        }
        let total = data.len();
        let mut src = Source::stream(Box::new(std::io::Cursor::new(data)));
        let mut consumed = 0;
        let mut most = 0;
        loop {
            src.fill(0).unwrap();
            let w = src.window().len();
            most = most.max(w);
            if w == 0 && src.at_end() {
                break;
            }
            // A window of 8192 records, as the pipeline takes.
            let n = w.min(8192 * 82);
            src.consume(n);
            consumed += n;
        }
        assert_eq!(consumed, total);
        assert!(most <= 2 * STDIN_CHUNK, "window grew to {most} bytes");
    }

    #[test]
    fn a_directory_is_refused() {
        let dir = std::env::temp_dir();
        let e = Source::open(&dir, Cancel::NEVER).unwrap_err();
        assert!(e.source.to_string().contains("directory"));
    }
}
